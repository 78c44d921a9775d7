//! What can stop a crawl, an export, a replay or a dedup run.

use std::fmt::Display;

/// A crawl error, with what was being done.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// What was asked cannot be done: no valid seed, a state started from other seeds, a
    /// shared crawl that does not exist, a policy the crawl has no fingerprints for.
    #[error("{0}")]
    Refused(String),
    /// A file is not what the crawl state says (a WARC file shorter than recorded, missing):
    /// it was changed outside the crawl.
    #[error("{0}")]
    Inconsistent(String),
    /// A second Ctrl-C (or SIGTERM) while the crawl was stopping: it ended at once, with
    /// what it had committed (the rest is fetched again on resume).
    #[error(
        "interrupted again: exiting now{}",
        if *shared { " (leases return after the lease time)" } else { "" }
    )]
    Interrupted {
        /// The exit status the first signal calls for (128 + its number: 130, 143).
        status: u8,
        /// A shared crawl's worker: its leases return to the crawl when they expire.
        shared: bool,
    },
    /// The crawl state.
    #[error(transparent)]
    State(#[from] silhouette_frontier::StateError),
    /// The frontier could not start.
    #[error(transparent)]
    Frontier(#[from] silhouette_frontier::FrontierError),
    /// A scope setting (include/exclude patterns).
    #[error(transparent)]
    Scope(#[from] silhouette_frontier::ScopeError),
    /// A dedup setting.
    #[error(transparent)]
    Dedup(#[from] silhouette_frontier::DedupError),
    /// A shared crawl (Redis).
    #[error(transparent)]
    Shared(#[from] silhouette_redis::SharedError),
    /// Reading or writing files.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Something failed while the crawl was doing `doing`.
    #[error("{doing}")]
    Failed {
        /// What the crawl was doing.
        doing: String,
        /// Why it failed.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync + 'static>,
    },
}

/// A crawl result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Says what was being done when an error happened (like `anyhow::Context`, into
/// [`Error::Failed`]).
pub(crate) trait Context<T> {
    /// The error, with what was being done.
    fn context(self, doing: impl Display) -> Result<T>;
    /// The error, with what was being done (computed only on error).
    fn with_context<D: Display>(self, doing: impl FnOnce() -> D) -> Result<T>;
}

impl<T, E: std::error::Error + Send + Sync + 'static> Context<T> for Result<T, E> {
    fn context(self, doing: impl Display) -> Result<T> {
        self.map_err(|e| Error::Failed {
            doing: doing.to_string(),
            source: Box::new(e),
        })
    }

    fn with_context<D: Display>(self, doing: impl FnOnce() -> D) -> Result<T> {
        self.map_err(|e| Error::Failed {
            doing: doing().to_string(),
            source: Box::new(e),
        })
    }
}

/// A missing value is a file that is not what it should be: [`Error::Inconsistent`].
impl<T> Context<T> for Option<T> {
    fn context(self, doing: impl Display) -> Result<T> {
        self.ok_or_else(|| Error::Inconsistent(doing.to_string()))
    }

    fn with_context<D: Display>(self, doing: impl FnOnce() -> D) -> Result<T> {
        self.ok_or_else(|| Error::Inconsistent(doing().to_string()))
    }
}

/// Returns [`Error::Refused`] with a formatted message.
macro_rules! refuse {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::Refused(format!($($arg)*)))
    };
}
pub(crate) use refuse;

/// Returns [`Error::Inconsistent`] with a formatted message.
macro_rules! inconsistent {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::Inconsistent(format!($($arg)*)))
    };
}
pub(crate) use inconsistent;
