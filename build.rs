//! Compiles the shipped puzzle files (`data/`: boards and puzzles, not results) into the
//! binary, so that a server request may name one (`data/tantrix/boards/free-20.txt`) without
//! reaching the file system: `quandary::input::SHIPPED`.

use std::fmt::Write as _;
use std::path::Path;

/// The folders whose puzzle files are shipped, and the endings taken from each.
const FOLDERS: &[&str] = &[
    "data/chess",
    "data/tantrix/boards",
    "data/tantrix/cpsat-boards",
    "data/tantrix/large",
    "data/battleship",
    "data/battleship/generated",
    "data/battleship/boats",
    "data/battleship/krazydad",
    "data/battleship/cpsat",
    "data/battleship/demystify",
];
const ENDINGS: &[&str] = &["txt", "dzn", "param", "pl"];

fn main() {
    let root = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let mut paths = Vec::new();
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
