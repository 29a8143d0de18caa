//! Other sites' pages against the server, in a real browser: what they cannot make it do or read.

use super::*;

/// The CPU seconds a process has used (user and system, from /proc/PID/stat).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the server's stat");
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let after = &stat[stat.rfind(')').expect("a stat line") + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    // SAFETY: sysconf reads a constant of the system.
    ticks / unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64
}

/// Serves `html` to every request on a port of its own for `serve_for`, then stops: a page
/// of another origin (`http://localhost:PORT/`, a different site from the server's
/// 127.0.0.1).
fn serve_attack_page(html: String, serve_for: Duration) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let started = Instant::now();
        while started.elapsed() < serve_for {
            let Ok((mut s, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            };
            let _ = s.set_nonblocking(false);
            let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
            let mut head = [0u8; 4096];
            let _ = s.read(&mut head);
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{html}",
                html.len()
            );
        }
    });
    port
}

quandary_probe::needs_chromium! {
    #[test]
    fn another_sites_page_makes_the_server_run_nothing() {
        let Some(page) = open_page() else { return };
        let b = &page.b;
        let server = page._server.0.id();
        // What the attacker links to: a Tank count no search finishes, asked to run.
        let state = json!({"p": "tank", "v": "count", "w": ["12"], "t": "", "o": {}, "run": true});
        let target = format!(
            "{}#state={}",
            page.url,
            state.to_string().replace('"', "%22").replace(' ', "%20")
        );
        // Another origin's page frames the server's page, then sends the window there.
        let html = format!(
            "<!doctype html><title>attack</title><iframe id=f src=\"{target}\" style=\"opacity:0\"></iframe>\
             <script>setTimeout(() => {{ location.href = \"{target}\"; }}, 1500);</script>"
        );
        let attack = serve_attack_page(html, Duration::from_secs(30));
        let before = cpu_seconds(server);
        b.goto(&format!("http://localhost:{attack}/"));
        b.wait_for(
            "return document.title === 'quandary: opened from elsewhere'",
            "the window sent to the server by another site: refused, with a link",
        );
        // The page it got holds no token and offers a link that keeps the board.
        let body = b.run("return document.documentElement.outerHTML");
        let body = body.as_str().unwrap_or_default();
        assert!(!body.contains("X-Quandary-Token"), "{body}");
        let link = b.run("return document.getElementById('open').getAttribute('href')");
        assert!(link.as_str().unwrap_or_default().starts_with("/#state="), "{link}");
        std::thread::sleep(Duration::from_secs(3));
        let used = cpu_seconds(server) - before;
        assert!(used < 1.0, "the server worked {used:.2} s for another site's page");

        // Opened by the person (typed, so the browser says so), the same address draws the
        // board and asks nothing: no run, no check, until the person acts.
        let before = cpu_seconds(server);
        b.goto("about:blank");
        b.goto(&target);
        board_drawn(b, 144, "the 12×12 board of the link");
        b.wait_for(
            "return document.getElementById('check-status').dataset.state === 'waiting'",
            "the checks waiting for a person",
        );
        let headline = b.run("return document.getElementById('headline').textContent");
        assert!(headline.as_str().unwrap_or_default().contains("press Run"), "{headline}");
        std::thread::sleep(Duration::from_secs(3));
        let used = cpu_seconds(server) - before;
        assert!(used < 1.0, "the server worked {used:.2} s for an address alone");
        assert_eq!(b.run("return document.getElementById('go').disabled"), json!(false));
        // A key of the person's starts the checks (stopped here by leaving the page).
        b.type_into("#cap", "5");
        b.wait_for(
            "return document.getElementById('check-status').dataset.state !== 'waiting'",
            "the checks started by a person's key",
        );
    }
}
