//! Progress on stderr: an indicatif line on a terminal, a plain log line every few seconds
//! otherwise. Its counts are this run's: a resumed crawl starts them at zero (the summary at
//! the end has the whole crawl's).

use std::collections::HashMap;
use std::io::Write;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use silhouette_frontier::{Decision, Frontier};

/// Decisions made in one run, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    pub kept: u64,
    pub duplicates: u64,
    pub errors: u64,
    /// Every decision, the other kinds too (robots-disallowed, out-of-scope, not-html, …).
    pub recorded: u64,
}

/// What this run has decided: the frontier's counts less those it was resumed with.
#[derive(Debug)]
pub struct Baseline(HashMap<&'static str, u64>);

impl Baseline {
    /// The frontier's counts when the run starts.
    pub fn of(frontier: &Frontier) -> Self {
        Self(frontier.decision_counts().clone())
    }

    /// This run's counts.
    pub fn since(&self, frontier: &Frontier) -> RunCounts {
        let c = frontier.decision_counts();
        let get = |k: &str| {
            c.get(k)
                .copied()
                .unwrap_or(0)
                .saturating_sub(self.0.get(k).copied().unwrap_or(0))
        };
        let recorded = c.keys().map(|k| get(k)).sum();
        RunCounts {
            recorded,
            kept: get(Decision::Kept.as_str()),
            duplicates: [
                Decision::NearDuplicate,
                Decision::ExactDuplicate,
                Decision::ContentDuplicate,
            ]
            .into_iter()
            .map(|d| get(d.as_str()))
            .sum(),
            errors: get(Decision::Error.as_str()),
        }
    }
}

/// The progress display.
#[derive(Debug)]
pub struct Progress {
    bar: Option<ProgressBar>,
    quiet: bool,
    start: Instant,
    last_line: Instant,
    baseline: Baseline,
}

fn line(frontier: &Frontier, baseline: &Baseline, fetched: u64, elapsed: Duration) -> String {
    let c = baseline.since(frontier);
    let rate = fetched as f64 / elapsed.as_secs_f64().max(1e-3);
    format!(
        "fetched {fetched} ({rate:.0}/s), queued {}, kept {}, duplicates {}, errors {}",
        frontier.queued() + frontier.in_flight(),
        c.kept,
        c.duplicates,
        c.errors,
    )
}

impl Progress {
    /// A bar if `terminal`, log lines otherwise; nothing at all if `quiet`. Counts start
    /// from what `frontier` holds now.
    pub fn new(terminal: bool, quiet: bool, frontier: &Frontier) -> Self {
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
            baseline: Baseline::of(frontier),
        }
    }

    /// Updates the display.
    pub fn tick(&mut self, frontier: &Frontier, fetched: u64) {
        let text = line(frontier, &self.baseline, fetched, self.start.elapsed());
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        } else if !self.quiet && self.last_line.elapsed() >= Duration::from_secs(5) {
            self.last_line = Instant::now();
            let _ = writeln!(std::io::stderr(), "{text}");
        }
    }

    /// Clears the bar; returns this run's counts and how long it took (the summary at the
    /// end prints them, so no last progress line is printed).
    pub fn finish(&mut self, frontier: &Frontier) -> (RunCounts, Duration) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        (self.baseline.since(frontier), self.start.elapsed())
    }
}
