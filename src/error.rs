//! Errors a user can act on: each names what is wrong and where.

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// Bad input: a file, an argument or a size that cannot be a puzzle.
    Input(String),
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(m) => f.write_str(m),
            Error::Io { path, source } => write!(f, "{path}: {source}"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
