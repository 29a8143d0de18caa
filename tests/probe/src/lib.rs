//! Marks the tests that need an outside tool as ignored where the tool is missing (as the
//! build script found it; never under CI). Each macro takes test functions and gives them
//! back, with `#[ignore = "..."]` added where its tool is missing:
//!
//! ```ignore
//! quandary_probe::needs_glpsol! {
//!     #[test]
//!     fn glpk_reads_every_formulation() { ... }
//! }
//! ```

#[cfg(quandary_missing = "glpsol")]
#[macro_export]
macro_rules! needs_glpsol {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        $(#[$m])*
        #[ignore = "needs GLPK's glpsol (apt-get install glpk-utils); CI runs it"]
        fn $name() $body
    };
}
#[cfg(not(quandary_missing = "glpsol"))]
#[macro_export]
macro_rules! needs_glpsol {
    ($($t:tt)*) => { $($t)* };
}

#[cfg(quandary_missing = "parallel")]
#[macro_export]
macro_rules! needs_parallel {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        $(#[$m])*
        #[ignore = "needs GNU parallel (apt-get install parallel); CI runs it"]
        fn $name() $body
    };
}
#[cfg(not(quandary_missing = "parallel"))]
#[macro_export]
macro_rules! needs_parallel {
    ($($t:tt)*) => { $($t)* };
}

#[cfg(quandary_missing = "rate")]
#[macro_export]
macro_rules! needs_rate {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        $(#[$m])*
        #[ignore = "needs the DRAT checker rate (cargo install rate); CI runs it"]
        fn $name() $body
    };
}
#[cfg(not(quandary_missing = "rate"))]
#[macro_export]
macro_rules! needs_rate {
    ($($t:tt)*) => { $($t)* };
}

#[cfg(quandary_missing = "chromium")]
#[macro_export]
macro_rules! needs_chromium {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        $(#[$m])*
        #[ignore = "needs /usr/bin/chromium and /usr/bin/chromedriver (apt-get install chromium chromium-driver); CI runs it"]
        fn $name() $body
    };
}
#[cfg(not(quandary_missing = "chromium"))]
#[macro_export]
macro_rules! needs_chromium {
    ($($t:tt)*) => { $($t)* };
}

#[cfg(quandary_missing = "slurm")]
#[macro_export]
macro_rules! needs_slurm {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        $(#[$m])*
        #[ignore = "needs Slurm and munge (apt-get install slurm-wlm munge); CI runs it"]
        fn $name() $body
    };
}
#[cfg(not(quandary_missing = "slurm"))]
#[macro_export]
macro_rules! needs_slurm {
    ($($t:tt)*) => { $($t)* };
}

#[cfg(quandary_missing = "kubernetes-validate")]
#[macro_export]
macro_rules! needs_kubernetes_validate {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        $(#[$m])*
        #[ignore = "needs kubernetes-validate (pip install kubernetes-validate); CI runs it"]
        fn $name() $body
    };
}
#[cfg(not(quandary_missing = "kubernetes-validate"))]
#[macro_export]
macro_rules! needs_kubernetes_validate {
    ($($t:tt)*) => { $($t)* };
}
