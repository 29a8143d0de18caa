//! Who may ask this server anything: the `Host` it is addressed by, the token and origin of an
//! API request, and how the page itself was opened. A server on loopback is reachable by every
//! page the user opens, so each of these is checked before a request is read further.
//!
//! The page is never shown inside another page (`X-Frame-Options: DENY` and
//! `Content-Security-Policy: frame-ancestors 'none'` on every answer: a framed copy would hold
//! the token and could drive the API from an address alone), and it is given only to a
//! navigation the browser says the user made (`Sec-Fetch-Site` `none`, the address typed, a
//! bookmark) or one from the page itself (`same-origin`). Another site's link or script gets a
//! short page that offers a link to open it, so the person decides. What the page then does
//! from an address (`#state=`) is drawing the board: runs and checks wait for a person's act
//! (`page.html`).

use super::answer::Answer;
use hyper::header::{HeaderMap, CONTENT_TYPE, HOST, ORIGIN};
use hyper::Method;

/// Who this server is, as the checks need it: the address it is bound to, its port and its
/// token.
pub(super) struct Who<'a> {
    pub(super) bind: &'a str,
    pub(super) port: u16,
    pub(super) token: &'a str,
}

/// The value of `key` in a URL's query (`a=1&b=2`), empty if it is not there. The values the
/// server reads (a token, a run id) are plain letters and digits: nothing to decode.
pub(super) fn query_value<'q>(query: &'q str, key: &str) -> &'q str {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or("")
}

/// The page: HTML, CSS and script in one file, compiled into the binary.
const PAGE: &str = include_str!("page.html");

/// The headers every answer carries that keep it out of other sites' frames.
pub(super) const NO_FRAMES: [(&str, &str); 2] = [
    ("x-frame-options", "DENY"),
    ("content-security-policy", "frame-ancestors 'none'"),
];

/// A secret no other page can know: 128 bits from the system's random source.
pub(super) fn new_token() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        // No /dev/urandom: the standard library's randomly keyed hasher, twice.
        use std::hash::{BuildHasher, Hasher};
        for half in bytes.chunks_mut(8) {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos()),
            );
            half.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(super) fn is_loopback(bind: &str) -> bool {
    bind == "localhost"
        || bind
            .parse::<std::net::IpAddr>()
            .is_ok_and(|a| a.is_loopback())
}

/// `Host` must name this server: an address of loopback (or the one bound to), with or
/// without its port. A page that rebinds its own name to 127.0.0.1 sends its own name here.
pub(super) fn check_host(headers: &HeaderMap, who: &Who) -> Result<(), String> {
    let host = headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let bind = who.bind.to_ascii_lowercase();
    let any = matches!(bind.as_str(), "0.0.0.0" | "::" | "[::]");
    let port = who.port;
    let bracketed = format!("[{bind}]");
    let names = ["localhost", "127.0.0.1", "[::1]", &bind, &bracketed];
    let ok = any
        || names
            .iter()
            .any(|n| host == *n || host == format!("{n}:{port}"));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "this server answers requests addressed to it (Host: 127.0.0.1:{port} or localhost:{port}), not to '{host}'"
        ))
    }
}

/// An API request must carry the token, come from the page (when it says where it comes
/// from) and, when it sends a body, send JSON.
pub(super) fn check_api(method: &Method, headers: &HeaderMap, who: &Who) -> Result<(), Answer> {
    let token = headers
        .get("x-quandary-token")
        .and_then(|t| t.to_str().ok());
    if token != Some(who.token) {
        return Err(Answer::error(
            403,
            "the API answers the page this server serves: send its token in the X-Quandary-Token header",
        ));
    }
    if let Some(origin) = headers.get(ORIGIN) {
        let host = headers
            .get(HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        let own = origin
            .to_str()
            .is_ok_and(|o| o.eq_ignore_ascii_case(&format!("http://{host}")));
        if !own {
            return Err(Answer::error(
                403,
                "requests from other sites' pages are refused",
            ));
        }
    }
    if method == Method::POST {
        let json = headers
            .get(CONTENT_TYPE)
            .and_then(|t| t.to_str().ok())
            .is_some_and(|t| {
                t.trim()
                    .to_ascii_lowercase()
                    .starts_with("application/json")
            });
        if !json {
            return Err(Answer::error(415, "send the request as application/json"));
        }
    }
    Ok(())
}

/// The page, with this server's token in it. Bound beyond loopback, the page is given only
/// to who has the address printed at the start (with the token). A navigation another site
/// started (a link, a script opening a window: `Sec-Fetch-Site` `cross-site` or `same-site`,
/// the latter being another port of this very host) gets a page that says so and offers a
/// link to this one, which the person follows or not.
pub(super) fn page(query: &str, headers: &HeaderMap, who: &Who) -> Answer {
    if !is_loopback(who.bind) && query_value(query, "token") != who.token {
        return Answer {
            code: 403,
            body: "quandary: open the address this server printed when it started (it ends in ?token=...)".into(),
            content_type: "text/plain; charset=utf-8",
        };
    }
    if let Some(from) = opened_by_another_site(headers) {
        return Answer {
            code: 403,
            body: ELSEWHERE.replace("__FROM__", from),
            content_type: "text/html; charset=utf-8",
        };
    }
    Answer {
        code: 200,
        body: PAGE.replace("__QUANDARY_TOKEN__", who.token),
        content_type: "text/html; charset=utf-8",
    }
}

/// `Some` of what the browser says started this navigation when it was another site (or
/// another port of this host); `None` when the user did (`none`), the page itself did
/// (`same-origin`), or the client says nothing (a program, an older browser).
fn opened_by_another_site(headers: &HeaderMap) -> Option<&'static str> {
    let site = headers.get("sec-fetch-site")?.to_str().ok()?;
    match site.trim().to_ascii_lowercase().as_str() {
        "cross-site" => Some("another site"),
        "same-site" => Some("another server on this machine"),
        _ => None,
    }
}

/// What a navigation from another site is answered with: no token, nothing run, and a link
/// the person may follow (the address's `#state=` kept, which the server never sees).
const ELSEWHERE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>quandary: opened from elsewhere</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40em; margin: 2em auto">
<h1>quandary</h1>
<p>This page was opened by __FROM__, not by you. quandary's page is not opened for other
sites: a page of theirs could otherwise start searches on this computer.</p>
<p><a id="open" href="/">Open quandary here</a> if you meant to. A board given in the link is
drawn; nothing is run or checked until you act on the page.</p>
<script>document.getElementById("open").href = "/" + location.hash;</script>
</body></html>
"#;
