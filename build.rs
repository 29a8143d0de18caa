//! Compiles the shipped puzzle files (`data/`: boards and puzzles, not results) into the
//! binary, so that a server request may name one (`data/tantrix/boards/free-20.txt`) without
//! reaching the file system: `quandary::input::SHIPPED`.

use std::fmt::Write as _;
use std::path::Path;

// The puzzles' registration rows (`puzzles!`), whose data folders are shipped.
include!("src/puzzles/registered.rs");

/// The data folders of every registration row.
macro_rules! data_folders {
    ($($m:ident: $t:ident, own verbs: $own:ident, kept session: $kept:ident, data: [$($d:literal),*];)*) => {
        &[$($($d,)*)*]
    };
}

/// The folders whose puzzle files are shipped, and the endings taken from each.
const FOLDERS: &[&str] = puzzles!(data_folders);
const ENDINGS: &[&str] = &["txt", "dzn", "param", "pl"];

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let mut paths = Vec::new();
    println!("cargo:rerun-if-changed=src/puzzles/registered.rs");
    for folder in FOLDERS {
        println!("cargo:rerun-if-changed={folder}");
        let Ok(entries) = std::fs::read_dir(Path::new(&root).join(folder)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let ending = p.extension().and_then(|x| x.to_str()).unwrap_or("");
            if p.is_file() && ENDINGS.contains(&ending) {
                let name = p
                    .file_name()
                    .and_then(|n| n.to_str())
                    .expect("a UTF-8 name");
                paths.push(format!("{folder}/{name}"));
            }
        }
    }
    paths.sort();
    let mut out = String::from(
        "/// The shipped puzzle files: (path from the repository's root, text).\npub static SHIPPED: &[(&str, &str)] = &[\n",
    );
    for p in &paths {
        writeln!(
            out,
            "    ({p:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/{p}\"))),"
        )
        .expect("a string takes every write");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("shipped.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}
