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
    pub fn input(msg: impl Into<String>) -> Error {
        Error::Input(msg.into())
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
