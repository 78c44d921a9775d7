//! What a crawl shows while it runs: an indicatif line on a terminal, a plain log line every
//! few seconds otherwise, and its notices on stderr. Its counts are this run's: a resumed
//! crawl starts them at zero (the summary at the end has the whole crawl's).

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use silhouette_crawl::{Events, Level, Notice, Progress};

/// The terminal's side of a crawl.
#[derive(Debug)]
pub struct Terminal {
    bar: Option<ProgressBar>,
    quiet: bool,
    last_line: Instant,
}

impl Terminal {
    /// A bar if stderr is a terminal, log lines otherwise; with `quiet`, no progress and only
    /// warnings and errors.
    pub fn new(quiet: bool) -> Self {
        let bar = (!quiet && io::stderr().is_terminal()).then(|| {
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
            last_line: Instant::now(),
        }
    }

    /// Clears the bar (the summary at the end prints the counts, so no last progress line).
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| {
                let _ = writeln!(io::stderr(), "{text}");
            }),
            None => {
                let _ = writeln!(io::stderr(), "{text}");
            }
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.finish();
    }
}

impl Events for Terminal {
    fn progress(&mut self, progress: &Progress) {
        if let Some(bar) = &self.bar {
            bar.set_message(progress.to_string());
        } else if !self.quiet && self.last_line.elapsed() >= Duration::from_secs(5) {
            self.last_line = Instant::now();
            self.line(&progress.to_string());
        }
    }

    fn notice(&mut self, notice: &Notice) {
        if !self.quiet || notice.level() > Level::Info {
            self.line(&notice.to_string());
        }
    }
}
