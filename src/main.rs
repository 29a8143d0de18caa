mod cli;
mod web;

fn main() {
    report_aborts();
    std::process::exit(cli::main());
}

/// The last line of defence for memory: the runner refuses models that its estimate says
/// will not fit, but an allocation can still fail (in CaDiCaL, whose `std::bad_alloc` Rust
/// cannot catch, or in Rust), and both end in `abort`. This handler turns that into a
/// message naming the likely cause and exit status 2, instead of a bare "Aborted".
fn report_aborts() {
    extern "C" fn on_abort(_: libc::c_int) {
        const MESSAGE: &[u8] = b"\nquandary: error: the run was aborted, most likely out of memory (an allocation failed); try a smaller size, another formulation, or a lower QUANDARY_MEMORY_MB so that quandary refuses the model before building it\n";
        // SAFETY: write(2) and _exit(2) are async-signal-safe.
        unsafe {
            libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
            libc::_exit(2);
        }
    }
    // SAFETY: installs a handler that only calls async-signal-safe functions.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_abort as extern "C" fn(libc::c_int) as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGABRT, &action, std::ptr::null_mut());
    }
}
