//! Progress bars for long commands (`seed --scale`, `rebuild-projections`), on stderr and only
//! when stderr is a terminal: piped or in a pod's log, they draw nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar named `what`, hidden unless stderr is a terminal.
pub fn bar(what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({per_sec}, {eta} left)") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_owned());
    bar
}

pub fn set(bar: &ProgressBar, done: u64, total: u64) {
    bar.set_length(total);
    bar.set_position(done);
}
