//! Errors a user can act on: each names what is wrong and where.

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// Bad input: a file, an argument or a size that cannot be a puzzle.
    Input(String),
    /// A bug: e.g. a solver answer that the independent verifier rejects. Never the user's
    /// fault; reported with exit status 3.
    Internal(String),
    /// A time limit stopped a search that has no partial answer to report (exit status 1,
    /// status "unknown"); the text says what was stopped.
    Stopped(String),
    /// A file could not be read or written.
    Io {
        path: String,
        source: std::io::Error,
    },
}

impl Error {
    /// Bad input, its message [`clip`]ped: a message names what is wrong without sending a
    /// whole input back.
    pub fn input(msg: impl Into<String>) -> Error {
        Error::Input(clip(&msg.into()))
    }

    /// The process exit status this error ends with: 3 for internal errors, 1 when a limit
    /// stopped the run, 2 otherwise
    /// (bad input, unreadable or unwritable files).
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Internal(_) => 3,
            Error::Stopped(_) => 1,
            _ => 2,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) => f.write_str(m),
            Error::Stopped(m) => f.write_str(m),
            Error::Internal(m) => write!(f, "internal error: {m}; please report it"),
            Error::Io { path, source } => write!(f, "{path}: {source}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// The longest word of a message kept whole; a longer one (an input echoed back, such as a
/// 60 KB token that is not a number) keeps its first [`WORD_KEPT`] characters.
const LONGEST_WORD: usize = 80;
const WORD_KEPT: usize = 60;

/// The longest message kept whole, in characters.
const LONGEST_MESSAGE: usize = 2000;

/// `text` with every word longer than [`LONGEST_WORD`] characters cut to its start and its
/// length, and the whole cut after [`LONGEST_MESSAGE`] characters: what an error message
/// quotes of the input stays readable, however large the input.
pub fn clip(text: &str) -> String {
    if text.chars().count() <= LONGEST_WORD {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len().min(4 * LONGEST_MESSAGE));
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let n = word.chars().count();
        if n > LONGEST_WORD {
            out.extend(word.chars().take(WORD_KEPT));
            out.push_str(&format!("… ({n} characters)"));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    match out.char_indices().nth(LONGEST_MESSAGE) {
        Some((at, _)) => format!("{}… (cut at {LONGEST_MESSAGE} characters)", &out[..at]),
        None => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_short_messages_and_cuts_echoed_input() {
        let short = "row 3 count 9 exceeds the 8 cells of the row";
        assert_eq!(clip(short), short);
        let blob = "7".repeat(60_000);
        let m = clip(&format!("--fleet: '{blob}' is not a count (give counts)"));
        assert!(m.len() < 200, "{m}");
        assert!(m.starts_with("--fleet: '777"), "{m}");
        assert!(
            m.contains("(60002 characters)") && m.ends_with("(give counts)"),
            "{m}"
        );
        let words = "ab ".repeat(5000);
        let m = clip(&words);
        assert!(
            m.chars().count() < 2100 && m.ends_with("(cut at 2000 characters)"),
            "{m}"
        );
    }
}
