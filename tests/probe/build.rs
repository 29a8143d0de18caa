//! Which outside tools some tests need are missing here, as `cfg(quandary_missing = "...")`
//! of this crate, which picks the macros that mark those tests ignored (src/lib.rs), so that
//! they are reported as ignored rather than passing without checking. Under CI (`CI` set)
//! nothing is reported missing: there the tests run, and fail if a tool is not installed
//! (`.ci/run` installs them).
//!
//! This is a crate of its own, a dev-dependency, so that what it watches (`PATH` and every
//! folder on it, where a tool appears when it is installed) rebuilds only this crate and the
//! tests: the library and the program are not built again when a virtual environment is
//! activated or a tool installed (they were, in full, when this build script was the
//! package's).
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=QUANDARY_DRAT_CHECKER");
    println!(
        "cargo::rustc-check-cfg=cfg(quandary_missing, values(\"chromium\", \"glpsol\", \"parallel\", \"rate\", \"slurm\", \"kubernetes-validate\"))"
    );
    let dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    // A tool installed later changes its directory: the probe runs again.
    // (Absolute ones only: a relative one, such as ".", would be the package itself.)
    for d in dirs.iter().filter(|d| d.is_absolute() && d.is_dir()) {
        println!("cargo::rerun-if-changed={}", d.display());
    }
    if std::env::var_os("CI").is_some() {
        return;
    }
    let on_path = |name: &str| {
        let p = Path::new(name);
        if p.components().count() > 1 {
            return p.is_file();
        }
        dirs.iter().any(|d| d.join(name).is_file())
    };
    let checker = std::env::var("QUANDARY_DRAT_CHECKER").unwrap_or_else(|_| "rate".into());
    let missing = [
        (
            "chromium",
            Path::new("/usr/bin/chromium").is_file()
                && Path::new("/usr/bin/chromedriver").is_file(),
        ),
        ("glpsol", on_path("glpsol")),
        ("parallel", on_path("parallel")),
        ("rate", on_path(&checker)),
        ("kubernetes-validate", on_path("kubernetes-validate")),
        // The daemons are in /usr/sbin, which a user's PATH may lack.
        (
            "slurm",
            on_path("sbatch")
                && ["slurmctld", "slurmd", "munged"]
                    .iter()
                    .all(|d| on_path(d) || Path::new("/usr/sbin").join(d).is_file()),
        ),
    ];
    for (tool, here) in missing {
        if !here {
            println!("cargo::rustc-cfg=quandary_missing=\"{tool}\"");
        }
    }
}
