//! The spinner: the library's progress reports drawn on stderr, when stderr is a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

struct Spinner(ProgressBar);

impl quandary::solve::progress::Progress for Spinner {
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
    quandary::solve::progress::install(Arc::new(Spinner(bar)));
}
