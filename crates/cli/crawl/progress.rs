//! Progress on stderr: an indicatif line on a terminal, a plain log line every few seconds
//! otherwise.

use std::io::Write;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use silhouette_frontier::Frontier;

/// The progress display.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    start: Instant,
    last_line: Instant,
}

fn line(frontier: &Frontier, fetched: u64, elapsed: Duration) -> String {
    let c = frontier.decision_counts();
    let get = |k: &str| c.get(k).copied().unwrap_or(0);
    let rate = fetched as f64 / elapsed.as_secs_f64().max(1e-3);
    format!(
        "fetched {fetched} ({rate:.0}/s), queued {}, kept {}, dropped {}, errors {}",
        frontier.queued() + frontier.in_flight(),
        get("kept"),
        get("near-duplicate") + get("exact-duplicate") + get("content-duplicate"),
        get("error"),
    )
}

impl Progress {
    /// A bar if `terminal`, log lines otherwise; nothing at all if `quiet`.
    pub fn new(terminal: bool, quiet: bool) -> Self {
        let bar = (terminal && !quiet).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        Self {
            bar,
            quiet,
            start: Instant::now(),
            last_line: Instant::now(),
        }
    }

    /// Updates the display.
    pub fn tick(&mut self, frontier: &Frontier, fetched: u64) {
        let text = line(frontier, fetched, self.start.elapsed());
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        } else if !self.quiet && self.last_line.elapsed() >= Duration::from_secs(5) {
            self.last_line = Instant::now();
            let _ = writeln!(std::io::stderr(), "{text}");
        }
    }

    /// Clears the bar and prints the last line.
    pub fn finish(&mut self, frontier: &Frontier, fetched: u64) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if !self.quiet {
            let _ = writeln!(
                std::io::stderr(),
                "{}",
                line(frontier, fetched, self.start.elapsed())
            );
        }
    }
}
