#!/usr/bin/env python3
"""Load figure for `quandary serve`: requests per second for a small solve with N concurrent
clients, and the server's resident memory after many requests.

    python3 bench/web_load.py [--requests 10000] [--clients 1,2,4,8]

Starts target/release/quandary serve on a free port (build it first with cargo build
--release), runs the requests, prints a table (markdown) and stops the server. Standard
library only. Requests the server refuses with 503 (more searches than cores) are counted
apart: a client then retries.
"""
import argparse, json, subprocess, threading, time, http.client

SMALL = {
    "tank 6": {"puzzle": "tank", "verb": "solve", "words": ["6"]},
    "battleship 6x6": {"puzzle": "battleship", "verb": "unique",
                       "text": "https://puzz.link/p?battleship/6/6/g12h2g30g3gk0r3w//c"},
}


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def load(port, body, clients, total):
    done, refused, lock = [0], [0], threading.Lock()
    payload = json.dumps(body)

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                if done[0] >= total:
                    return
            conn.request("POST", "/api/run", payload)
            r = conn.getresponse()
            r.read()
            with lock:
                if r.status == 200:
                    done[0] += 1
                elif r.status == 503:
                    refused[0] += 1
                else:
                    raise SystemExit(f"status {r.status}")

    started = time.time()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done[0] / (time.time() - started), refused[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--clients", default="1,2,4,8")
    a = ap.parse_args()
    server = subprocess.Popen(["target/release/quandary", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    port = int(line.split("127.0.0.1:")[1].split("/")[0])
    try:
        print("| request | clients | answered/s | refused (503) |")
        print("|---|---:|---:|---:|")
        for name, body in SMALL.items():
            for c in [int(x) for x in a.clients.split(",")]:
                rate, refused = load(port, body, c, 500)
                print(f"| {name} | {c} | {rate:.0f} | {refused} |")
        before = rss_kb(server.pid)
        rate, _ = load(port, SMALL["tank 6"], 2, a.requests)
        after = rss_kb(server.pid)
        print(f"\nresident memory: {before / 1024:.1f} MB before, {after / 1024:.1f} MB after "
              f"{a.requests} more tank 6 requests ({rate:.0f}/s with 2 clients)")
    finally:
        server.kill()


if __name__ == "__main__":
    main()
