//! The progress bar of a long scenario load: what is being built and how much of the load
//! budget it has used. It appears only on a terminal, and only once a load has taken long enough
//! to be worth watching, so quick loads print nothing.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::scenario::LoadProgress;

/// How long a load runs before its bar appears.
const QUIET_FOR: Duration = Duration::from_millis(300);

/// A load's bar, hidden until [`QUIET_FOR`] has passed.
pub(super) struct LoadBar {
    bar: ProgressBar,
}

impl LoadBar {
    pub(super) fn new() -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} loading: {msg}\n  [{bar:30}] {human_pos} of {human_len} units of the load budget ({elapsed})",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        let later = bar.clone();
        // indicatif draws only when standard error is a terminal; the timer only decides when.
        std::thread::spawn(move || {
            std::thread::sleep(QUIET_FOR);
            if !later.is_finished() {
                later.set_draw_target(ProgressDrawTarget::stderr());
                later.enable_steady_tick(Duration::from_millis(120));
            }
        });
        LoadBar { bar }
    }

    /// Shows the piece of work about to start.
    pub(super) fn report(&self, p: &LoadProgress<'_>) {
        self.bar.set_length(p.limit);
        self.bar.set_position(p.spent.min(p.limit));
        let units = crate::scenario::LoadProgress::grouped(p.units);
        self.bar.set_message(format!("{} (`{}`, {units} units)", p.what, p.key));
    }

    /// Removes the bar.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
