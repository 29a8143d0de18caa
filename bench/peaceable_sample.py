"""Measures a random sample of the cubes of the question that would prove peaceable queens'
a(n) on n×n — "m >= a(n) + 1?" (A250000; for n = 16, where a(16) is open and Ainley's
construction gives 37, "m >= 38?") — and writes the job file that splits that question into
its (n + 1)² cubes, one part each, for `quandary batch` / `merge` or a Slurm array
(deploy/slurm-array.sh). Each sampled cube runs as
`quandary chess peaceable N --at-least K --part P/(n+1)² --time-limit T --json`; a cube the
limit stops gives a lower bound on its time. Extrapolation: (cubes) × (mean of the sample),
said as an estimate from a sample, never as a run. The cubes are far from alike (the parts
come most room first, and the first ones hold nearly all the work), so the sample is
stratified: the parts are cut into four equal runs in their order, each sampled alike, and the
estimate is the sum over the runs of (parts in the run) × (the run's sample mean).

Usage: python3 bench/peaceable_sample.py [--sizes 11..16] [--per-size 8] [--time-limit 60]
       [--seed 1] [--jobs-dir bench/jobs]
(release binary built: cargo build --release)."""

import argparse
import json
import os
import random
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "quandary")
A250000 = [0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32]
AINLEY_16 = 37


def target(n):
    return (A250000[n - 1] if n <= len(A250000) else AINLEY_16) + 1


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="11..16")
    p.add_argument("--per-size", type=int, default=8)
    p.add_argument("--time-limit", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs-dir", default=os.path.join(ROOT, "bench", "jobs"))
    a = p.parse_args()
    lo, hi = (int(x) for x in a.sizes.split(".."))
    rng = random.Random(a.seed)
    os.makedirs(a.jobs_dir, exist_ok=True)
    print(f"# seed {a.seed}, {a.per_size} cubes a size, {a.time_limit} s a cube, one core each")
    for n in range(lo, hi + 1):
        k, cubes = target(n), (n + 1) ** 2
        jobs = os.path.join(a.jobs_dir, f"peaceable-{n}.jsonl")
        subprocess.run([BIN, "jobs", "-o", jobs, "chess", "peaceable", str(n), "--at-least",
                        str(k), "--part", f"1..{cubes}/{cubes}"], check=True,
                       capture_output=True)
        times, stopped, estimate = [], 0, 0.0
        strata = [range(1 + cubes * s // 4, 1 + cubes * (s + 1) // 4) for s in range(4)]
        for stratum in strata:
            taken = []
            for part in sorted(rng.sample(stratum, min(len(stratum), max(1, a.per_size // 4)))):
                args = [BIN, "chess", "peaceable", str(n), "--at-least", str(k), "--part",
                        f"{part}/{cubes}", "--time-limit", str(a.time_limit), "--json"]
                started = time.monotonic()
                out = subprocess.run(args, capture_output=True, text=True, check=False)
                seconds = time.monotonic() - started
                status = json.loads(out.stdout).get("status")
                stopped += status == "unknown"
                taken.append(seconds)
                print(f"n={n} m>={k} part {part}/{cubes}: {status} {seconds:.1f} s", flush=True)
            times += taken
            estimate += len(stratum) * statistics.mean(taken)
        bound = "at least " if stopped else ""
        print(f"n={n}: {len(times)} cubes, {stopped} stopped by the limit; whole question "
                f"{bound}{estimate / 3600:.2f} core-hours (stratified estimate from the sample); "
                f"job file {os.path.relpath(jobs, ROOT)}", flush=True)


if __name__ == "__main__":
    main()
