//! Where input text comes from: files named on the command line, standard input, or, for a
//! server, texts the request carried. Every reader goes through [`read_file`], [`exists`]
//! and [`stdin`], so [`sandboxed`] can guarantee that no request reaches the file system or
//! the server's own standard input.

use crate::error::{Error, Result};
use std::cell::RefCell;
use std::collections::HashMap;

thread_local! {
    /// While set, the only "files" there are: name → text.
    static SANDBOX: RefCell<Option<HashMap<String, String>>> = const { RefCell::new(None) };
}

/// Runs `f` with `files` as the only files there are: reading any other path, or standard
/// input, is an error; nothing touches the file system.
pub fn sandboxed<R>(files: HashMap<String, String>, f: impl FnOnce() -> R) -> R {
    crate::scoped::with(&SANDBOX, files, f)
}

fn in_sandbox<R>(f: impl FnOnce(&HashMap<String, String>) -> R) -> Option<R> {
    SANDBOX.with(|s| s.borrow().as_ref().map(f))
}

/// A text file's contents, without a leading UTF-8 byte-order mark (editors on Windows
/// write one); a failure names the path. `-` is standard input, for every reader.
pub fn read_file(path: &str) -> Result<String> {
    if path == "-" {
        return stdin();
    }
    if let Some(found) = in_sandbox(|files| files.get(path).cloned()) {
        return found.map(without_bom).ok_or_else(|| {
            Error::input(format!(
                "{path}: no such input here (send the text itself, not a file name)"
            ))
        });
    }
    std::fs::read_to_string(path)
        .map(without_bom)
        .map_err(|source| Error::Io {
            path: path.to_string(),
            source,
        })
}

/// Whether `path` names a file [`read_file`] can read.
pub fn exists(path: &str) -> bool {
    in_sandbox(|files| files.contains_key(path))
        .unwrap_or_else(|| std::path::Path::new(path).is_file())
}

/// All of standard input (refused inside a sandbox).
pub fn stdin() -> Result<String> {
    if in_sandbox(|_| ()).is_some() {
        return Err(Error::input(
            "'-' (standard input) is for the command line; send the text itself",
        ));
    }
    let mut s = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|source| Error::Io {
        path: "standard input".into(),
        source,
    })?;
    Ok(without_bom(s))
}

/// `text` without a leading UTF-8 byte-order mark.
pub fn without_bom(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandbox_holds_its_files_and_nothing_else() {
        let files = HashMap::from([("board".to_string(), "\u{feff}5 5".to_string())]);
        sandboxed(files, || {
            assert_eq!(read_file("board").unwrap(), "5 5");
            assert!(exists("board"));
            assert!(!exists("Cargo.toml"));
            let e = read_file("Cargo.toml").unwrap_err().to_string();
            assert!(e.contains("no such input here"), "{e}");
            assert!(stdin().is_err());
        });
        // Outside it, the file system again.
        assert!(exists("Cargo.toml"));
        assert!(read_file("Cargo.toml").unwrap().contains("[package]"));
    }
}
