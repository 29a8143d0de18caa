//! The spinner: the library's progress reports drawn on stderr, when stderr is a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

struct Spinner(ProgressBar);

impl quandary::guard::progress::Progress for Spinner {
    fn phase(&self, name: &str) {
        if self.0.is_finished() {
            self.0.reset();
        }
        self.0.set_prefix(name.to_string());
        self.0.set_message("");
        self.0.enable_steady_tick(Duration::from_millis(200));
    }
    fn message(&self, text: &str) {
        self.0.set_message(text.to_string());
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// The spinner, once installed.
static BAR: OnceLock<ProgressBar> = OnceLock::new();

/// The spinner as the sink of this process's runs (one run at a time on the command line).
static SINK: OnceLock<quandary::guard::progress::Sink> = OnceLock::new();

/// Where a run started from the command line reports: the spinner, if one is drawn.
pub fn sink() -> Option<quandary::guard::progress::Sink> {
    SINK.get().cloned()
}

/// Clears the spinner (after an error, say).
pub fn finish() {
    if let Some(bar) = BAR.get() {
        bar.finish_and_clear();
    }
}

/// Draws progress on stderr if it is a terminal.
pub fn install() {
    if !std::io::stderr().is_terminal() {
        return;
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed_precise} {prefix}: {msg}")
            .expect("valid template"),
    );
    let _ = BAR.set(bar.clone());
    let _ = SINK.set(Arc::new(Spinner(bar)));
}

/// Prints `text` above the spinner once, if the run is still going after `after` (on a
/// terminal only: scripts get no hints).
pub fn hint_after(after: Duration, text: String) {
    let Some(bar) = BAR.get().cloned() else {
        return;
    };
    std::thread::spawn(move || {
        std::thread::sleep(after);
        if !bar.is_finished() {
            bar.println(format!("hint: {text}"));
        }
    });
}
