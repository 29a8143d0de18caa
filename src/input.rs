//! Where input text comes from: files named on the command line, standard input, or, for a
//! server, texts the request carried. Every reader is handed a [`Files`] and reads through
//! it, so a server request can never reach the file system or the server's own standard
//! input: it runs with [`Files::Only`] the texts it sent.

use crate::error::{Error, Result};
use std::collections::HashMap;

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The text of a shipped puzzle file (`data/...`, compiled in), by its path.
pub fn shipped(path: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|(p, _)| *p == path).map(|(_, t)| *t)
}

/// The files a run may read: the file system (and standard input), or only the named texts
/// a request carried. Passed to every reader; nothing is set aside for them to find.
#[derive(Clone, Copy, Debug, Default)]
pub enum Files<'a> {
    /// Paths name files on disk; `-` is standard input.
    #[default]
    Disk,
    /// These are the only files there are: name → text, and the shipped puzzle files
    /// ([`SHIPPED`], compiled in). Any other path, or standard input, is an error, and nothing
    /// touches the file system.
    Only(&'a HashMap<String, String>),
}

/// A puzzle's text given itself instead of a file (the page's text box, Python's `text=`):
/// the one input there is, named `input` and put before `words`. Read it through
/// [`Files::Only`] of what this returns.
pub fn text_as_input(text: String, words: &mut Vec<String>) -> HashMap<String, String> {
    words.insert(0, "input".to_string());
    HashMap::from([("input".to_string(), text)])
}

impl Files<'_> {
    /// A text file's contents, without a leading UTF-8 byte-order mark (editors on Windows
    /// write one); a failure names the path. `-` is standard input, for every reader.
    pub fn read(self, path: &str) -> Result<String> {
        if path == "-" {
            return self.stdin();
        }
        match self {
            Files::Only(files) => files
                .get(path)
                .cloned()
                .or_else(|| shipped(path).map(str::to_string))
                .map(without_bom)
                .ok_or_else(|| {
                    Error::input(format!(
                        "{path}: no such input here (send the text itself, not a file name)"
                    ))
                }),
            Files::Disk => std::fs::read_to_string(path)
                .map(without_bom)
                .map_err(|source| Error::Io {
                    path: path.to_string(),
                    source,
                }),
        }
    }

    /// Whether `path` names a file [`Files::read`] can read.
    pub fn exists(self, path: &str) -> bool {
        match self {
            Files::Only(files) => files.contains_key(path) || shipped(path).is_some(),
            Files::Disk => std::path::Path::new(path).is_file(),
        }
    }

    /// Whether `path` names a directory (never, among a request's texts).
    pub fn is_dir(self, path: &str) -> bool {
        match self {
            Files::Only(_) => false,
            Files::Disk => std::path::Path::new(path).is_dir(),
        }
    }

    /// All of standard input (refused for a request's texts).
    pub fn stdin(self) -> Result<String> {
        if let Files::Only(_) = self {
            return Err(Error::input(
                "'-' (standard input) is for the command line; send the text itself",
            ));
        }
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|source| {
            Error::Io {
                path: "standard input".into(),
                source,
            }
        })?;
        Ok(without_bom(s))
    }
}

/// A file on disk, as [`Files::Disk`] reads it (for the command line's own files: job
/// lists, results).
pub fn read_file(path: &str) -> Result<String> {
    Files::Disk.read(path)
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
    fn a_request_s_files_are_the_only_files() {
        let given = HashMap::from([("board".to_string(), "\u{feff}5 5".to_string())]);
        let only = Files::Only(&given);
        assert_eq!(only.read("board").unwrap(), "5 5");
        assert!(only.exists("board"));
        assert!(!only.exists("Cargo.toml"));
        assert!(!only.is_dir("src"));
        let e = only.read("Cargo.toml").unwrap_err().to_string();
        assert!(e.contains("no such input here"), "{e}");
        assert!(only.stdin().is_err());
        assert!(only.read("-").is_err());
        // The file system is another value, not another mode.
        assert!(Files::Disk.exists("Cargo.toml"));
        assert!(Files::Disk.is_dir("src"));
        assert!(Files::Disk
            .read("Cargo.toml")
            .unwrap()
            .contains("[package]"));
    }
}
