//! Where quandary writes files: never through a symbolic link found at the name. A link
//! planted in a directory quandary writes into (`--proof DIR`, `explain --svg DIR`) after it
//! was checked is replaced by the file, and its target is left alone; creating the file
//! refuses to follow a link (`O_NOFOLLOW`), so none can be swapped in between.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Opens `path` for writing from its start, as a regular file of its own: created if missing;
/// a symbolic link at the name is removed first (never followed); a directory or other
/// special file there is an error.
pub fn create(path: &Path) -> io::Result<File> {
    let fresh = || {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
    };
    match fresh() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        other => return other,
    }
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        std::fs::remove_file(path)?;
        return fresh();
    }
    if !meta.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    OpenOptions::new()
        .write(true)
        .truncate(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Writes `contents` to `path` ([`create`]).
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    create(path)?.write_all(contents)
}

/// Opens `path` to add to its end, created if missing, never through a symbolic link (an
/// error there: what it pointed at is not written).
pub fn append(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .append(true)
        .create(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Checks that `path` can be written (before the work that ends by writing it): not a
/// directory, not a symbolic link, in a directory that exists and lets us create files.
/// Leaves nothing behind and changes nothing there.
pub fn check_writable(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(io::Error::other(
            "a symbolic link: quandary does not write through links; name the file itself",
        )),
        Ok(meta) if meta.is_dir() => Err(io::Error::other("a directory, not a file")),
        Ok(_) => OpenOptions::new()
            .append(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
            .map(drop),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .custom_flags(libc::O_NOFOLLOW)
                .open(path)?;
            std::fs::remove_file(path)
        }
        Err(e) => Err(e),
    }
}

/// Whether `a` and `b` name the same file (the same inode when both exist, else the same
/// absolute path).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(x), Ok(y)) => x == y,
            _ => a == b,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_link_is_replaced_and_its_target_left_alone() {
        let dir = std::env::temp_dir().join(format!("quandary-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let victim = dir.join("victim");
        std::fs::write(&victim, "keep me").unwrap();
        let link = dir.join("certificate.json");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert!(check_writable(&link).is_err());
        write(&link, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "new");
        assert!(!std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        // Appending refuses a link.
        let appended = dir.join("models.txt");
        let _ = std::fs::remove_file(&appended);
        std::os::unix::fs::symlink(&victim, &appended).unwrap();
        assert!(append(&appended).is_err());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        // A dangling link: refused by the check, which creates nothing and removes nothing.
        let dangling = dir.join("board.svg");
        let _ = std::fs::remove_file(&dangling);
        std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
        assert!(check_writable(&dangling).is_err());
        assert!(std::fs::symlink_metadata(&dangling).is_ok());
        assert!(!dir.join("nowhere").exists());
        assert!(same_file(&dir.join("a.lp"), &dir.join(".").join("a.lp")));
        assert!(!same_file(&dir.join("a.lp"), &dir.join("a.opb")));
        assert!(same_file(&victim, &dir.join("./victim")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
