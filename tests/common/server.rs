//! A `quandary serve` on a free loopback port, for the tests that talk to it as the page (or
//! an attacker on the same host) would.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A server on a free port, stopped when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
    /// The token the page carries, which every API request must send.
    pub token: String,
}

impl Server {
    pub fn start(extra: &[&str]) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_quandary"));
        command.args(["serve", "--port", "0"]).args(extra);
        Server::from(command)
    }

    /// A server that may open at most `files` files (`ulimit -n`).
    pub fn with_open_files(files: u32) -> Server {
        let mut command = Command::new("bash");
        command.args([
            "-c",
            &format!("ulimit -n {files} && exec \"$0\" serve --port 0",),
            env!("CARGO_BIN_EXE_quandary"),
        ]);
        Server::from(command)
    }

    pub fn from(mut command: Command) -> Server {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        let mut server = Server {
            child,
            port,
            token: String::new(),
        };
        let (code, page) = server.raw("GET / HTTP/1.0\r\nHost: localhost\r\n\r\n".as_bytes());
        assert_eq!(code, 200, "{page}");
        server.token = page
            .split("const TOKEN = \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the page carries the token")
            .to_string();
        assert_eq!(server.token.len(), 32, "a 128-bit token");
        server
    }

    /// Sends `bytes` as they are; the status code and the body of the answer.
    pub fn raw(&self, bytes: &[u8]) -> (u16, String) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        // A server may answer (413) before reading all of a large body.
        let _ = s.write_all(bytes);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let code = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status line in {text:?}"));
        let body = text.split_once("\r\n\r\n").map_or("", |b| b.1).to_string();
        (code, body)
    }

    /// One HTTP/1.0 request (so the answer is not chunked) as the page sends it (its token,
    /// JSON); the status code and the body.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        self.request_with(method, path, body, &[])
    }

    /// [`Server::request`] with `headers` added (or, where one is named, put instead of the
    /// page's: Host, Content-Type, X-Quandary-Token).
    pub fn request_with(
        &self,
        method: &str,
        path: &str,
        body: &[u8],
        headers: &[(&str, &str)],
    ) -> (u16, String) {
        let token = self.token.clone();
        let mut all: Vec<(&str, &str)> = vec![
            ("Host", "localhost"),
            ("Content-Type", "application/json"),
            ("X-Quandary-Token", &token),
        ];
        for (k, v) in headers {
            all.retain(|(a, _)| !a.eq_ignore_ascii_case(k));
            all.push((k, v));
        }
        let mut head = format!("{method} {path} HTTP/1.0\r\n");
        for (k, v) in &all {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        self.raw(&bytes)
    }

    /// Waits until the server says the run `id` is going (its own signal, `/api/progress`),
    /// at most 30 s; instead of sleeping and hoping the run has started.
    pub fn wait_going(&self, id: &str) {
        let started = std::time::Instant::now();
        loop {
            let (code, body) = self.request("GET", &format!("/api/progress?id={id}"), b"");
            let going = code == 200
                && serde_json::from_str::<Value>(&body)
                    .is_ok_and(|p| p["going"] == Value::Bool(true));
            if going {
                return;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(30),
                "run {id} never started: {body}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    pub fn run(&self, v: Value) -> (u16, Value) {
        let (code, body) = self.request("POST", "/api/run", v.to_string().as_bytes());
        (
            code,
            serde_json::from_str(&body)
                .unwrap_or_else(|_| panic!("not JSON: {}", &body[..body.len().min(300)])),
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A figure of the server's /proc status in MiB: `VmRSS` (resident now), `VmHWM` (its peak).
pub fn status_mib(server: &Server, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
        .expect("the server is running");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kb| kb.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no {field} in the server's status"))
        >> 10
}

/// The server's resident memory, from /proc.
pub fn resident_mib(server: &Server) -> u64 {
    status_mib(server, "VmRSS")
}

/// Whether the server process is still running.
pub fn alive(server: &mut Server) -> bool {
    server
        .child
        .try_wait()
        .map(|s| s.is_none())
        .unwrap_or(false)
}
