//! What a crawl tells its caller while it runs: each decision once it is committed, its
//! progress, and notices (a refused seed, a resumed state, a repaired WARC file…). The crawl
//! never prints; the binary's sink draws a progress bar and shows the notices in the terminal.

use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use silhouette_frontier::{Decision, Frontier, StoredRecord};

/// Receives what a crawl reports. Every method does nothing by default; `()` ignores all.
///
/// The methods are called on the crawl's task, between its steps: a slow sink slows the
/// crawl down, so hand heavy work to a channel.
pub trait Events: Send {
    /// A page's decision, once the crawl state holding it is committed (in the order the
    /// output file gets them).
    fn decision(&mut self, record: &StoredRecord) {
        let _ = record;
    }

    /// This run's progress, at most a few times a second.
    fn progress(&mut self, progress: &Progress) {
        let _ = progress;
    }

    /// Something the person running the crawl may want to know.
    fn notice(&mut self, notice: &Notice) {
        let _ = notice;
    }
}

/// Ignores everything.
impl Events for () {}

/// Decisions made in one run, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunCounts {
    /// Pages kept.
    pub kept: u64,
    /// Near-, exact- and content-duplicates.
    pub duplicates: u64,
    /// Fetch errors.
    pub errors: u64,
    /// Every decision, the other kinds too (robots-disallowed, out-of-scope, not-html, …).
    pub recorded: u64,
}

/// What this run has decided: the frontier's counts less those it was resumed with.
#[derive(Debug)]
pub(crate) struct Baseline(HashMap<&'static str, u64>);

impl Baseline {
    /// The frontier's counts when the run starts.
    pub(crate) fn of(frontier: &Frontier) -> Self {
        Self(frontier.decision_counts().clone())
    }

    /// This run's counts.
    pub(crate) fn since(&self, frontier: &Frontier) -> RunCounts {
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

/// A run's progress. Its counts are this run's: a resumed crawl starts them at zero.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Pages fetched by this run.
    pub fetched: u64,
    /// URLs waiting to be fetched, or being fetched.
    pub queued: u64,
    /// This run's decisions.
    pub counts: RunCounts,
    /// Since the run started.
    pub elapsed: Duration,
}

/// `fetched 120 (40/s), queued 31, kept 12, duplicates 100, errors 0`.
impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rate = self.fetched as f64 / self.elapsed.as_secs_f64().max(1e-3);
        write!(
            f,
            "fetched {} ({rate:.0}/s), queued {}, kept {}, duplicates {}, errors {}",
            self.fetched, self.queued, self.counts.kept, self.counts.duplicates, self.counts.errors,
        )
    }
}

/// How much a notice matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// What the crawl is doing (shown unless quiet).
    Info,
    /// Something was left out or repaired; the crawl goes on.
    Warning,
    /// Something failed; the crawl goes on without it.
    Error,
}

/// Something a crawl reports besides its decisions. Its `Display` is the line the binary
/// prints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// A seed that is not a crawlable URL.
    SeedRefused {
        /// The seed as given.
        url: String,
        /// Where it came from (`argument`, `FILE line N`).
        origin: String,
        /// Why.
        error: String,
    },
    /// The run resumes a crawl state.
    Resuming {
        /// The state directory.
        state_dir: PathBuf,
        /// URLs queued in it.
        queued: u64,
    },
    /// Loopback or private seeds are crawled at the polite interval meant for others' servers.
    PoliteInterval {
        /// The interval between two requests to one host.
        interval: Duration,
    },
    /// A sitemap that could not be read, or URLs left out of one.
    Sitemap(String),
    /// What the sitemaps gave.
    Sitemaps {
        /// Page URLs listed.
        listed: usize,
        /// Sitemap documents read.
        sitemaps: usize,
        /// Listed URLs new and in scope.
        added: usize,
    },
    /// A fetch task ended without a result (it panicked): its URL stays queued.
    TaskFailed(String),
    /// The crawl is stopping after Ctrl-C or SIGTERM.
    Stopping {
        /// Fetches dropped (their URLs stay queued).
        in_flight: usize,
    },
    /// A shared crawl's worker is stopping after Ctrl-C or SIGTERM.
    LeasesReturned {
        /// Leases handed back to the shared crawl.
        leases: usize,
    },
    /// `dedup` over a WARC file of a silhouette crawl that archived its kept pages only.
    KeptOnlyArchive {
        /// The file.
        file: String,
    },
    /// `dedup`: a WARC record or file that cannot be read (counted as an error).
    BadRecord {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A WARC file of a killed worker was cut back to the records the shared crawl has.
    WarcRepaired {
        /// The file.
        path: PathBuf,
        /// Its length before.
        from: u64,
        /// Its length after.
        to: u64,
    },
}

impl Notice {
    /// How much it matters.
    pub fn level(&self) -> Level {
        match self {
            Self::SeedRefused { .. } | Self::TaskFailed(_) | Self::BadRecord { .. } => Level::Error,
            Self::Sitemap(_)
            | Self::KeptOnlyArchive { .. }
            | Self::Stopping { .. }
            | Self::LeasesReturned { .. }
            | Self::WarcRepaired { .. } => Level::Warning,
            Self::Resuming { .. } | Self::PoliteInterval { .. } | Self::Sitemaps { .. } => {
                Level::Info
            }
        }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::SeedRefused { url, origin, error } => {
                write!(f, "error: seed {url:?} ({origin}): {error}")
            }
            Self::Resuming { state_dir, queued } => write!(
                f,
                "resuming the crawl in {} ({queued} URLs queued)",
                state_dir.display()
            ),
            Self::PoliteInterval { interval } => write!(
                f,
                "note: one request per {} ms to each host (fetch.request-interval-ms, polite to \
                 others' servers); on your own server --delay 0 crawls as fast as it answers",
                interval.as_millis()
            ),
            Self::Sitemap(note) => write!(f, "note: {note}"),
            Self::Sitemaps {
                listed,
                sitemaps,
                added,
            } => write!(
                f,
                "sitemaps: {listed} URLs listed in {sitemaps} sitemaps, {added} of them new and in scope"
            ),
            Self::TaskFailed(e) => write!(f, "error: a fetch task failed: {e}"),
            Self::Stopping { in_flight } => write!(
                f,
                "stopping: {in_flight} fetches in flight are dropped and stay queued (Ctrl-C again to quit at once)"
            ),
            Self::LeasesReturned { leases } => write!(
                f,
                "stopping: {leases} leases handed back to the shared crawl"
            ),
            Self::KeptOnlyArchive { file } => write!(
                f,
                "note: {file} holds only the pages a silhouette crawl kept (warc-records = \"kept\"): \
                 dedup judges them without the duplicates that crawl saw and learned from on each \
                 host (the paths that vary from page to page, the frame its pages share), so it can \
                 call some of them duplicates; a crawl with warc-records = \"all\" archives every \
                 page it judged"
            ),
            Self::BadRecord { file, message } => write!(f, "error: {file}: {message}"),
            Self::WarcRepaired { path, from, to } => write!(
                f,
                "repaired {}: cut back from {from} to {to} bytes (the records of a page whose decision a killed worker never recorded; another worker fetches it again)",
                path.display()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(notice: Notice, level: Level, line: &str) {
        assert_eq!(notice.level(), level, "{notice:?}");
        assert_eq!(notice.to_string(), line);
    }

    #[test]
    fn notices_read_as_the_binary_prints_them() {
        check(
            Notice::SeedRefused {
                url: "ftp://x/".into(),
                origin: "argument 1".into(),
                error: "not http(s)".into(),
            },
            Level::Error,
            "error: seed \"ftp://x/\" (argument 1): not http(s)",
        );
        check(
            Notice::Resuming {
                state_dir: "s".into(),
                queued: 3,
            },
            Level::Info,
            "resuming the crawl in s (3 URLs queued)",
        );
        check(
            Notice::Sitemaps {
                listed: 4,
                sitemaps: 1,
                added: 2,
            },
            Level::Info,
            "sitemaps: 4 URLs listed in 1 sitemaps, 2 of them new and in scope",
        );
        check(
            Notice::Stopping { in_flight: 2 },
            Level::Warning,
            "stopping: 2 fetches in flight are dropped and stay queued (Ctrl-C again to quit at once)",
        );
        check(
            Notice::BadRecord {
                file: "a.warc".into(),
                message: "offset 0: bad".into(),
            },
            Level::Error,
            "error: a.warc: offset 0: bad",
        );
    }

    #[test]
    fn progress_reads_as_one_line() {
        let p = Progress {
            fetched: 120,
            queued: 31,
            counts: RunCounts {
                kept: 12,
                duplicates: 100,
                errors: 0,
                recorded: 112,
            },
            elapsed: Duration::from_secs(3),
        };
        assert_eq!(
            p.to_string(),
            "fetched 120 (40/s), queued 31, kept 12, duplicates 100, errors 0"
        );
    }
}
