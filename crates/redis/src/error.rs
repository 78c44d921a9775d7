//! What can go wrong with a shared crawl.

/// A shared-crawl error, with what was being done.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SharedError {
    /// The Redis URL cannot be used.
    #[error(
        "{url}: not a Redis URL ({source}); expected redis://HOST:PORT/DB or redis+cluster://HOST:PORT,HOST:PORT"
    )]
    Url {
        /// The URL given.
        url: String,
        /// Why.
        source: redis::RedisError,
    },
    /// No connection to Redis.
    #[error("cannot connect to Redis at {url}: {detail}")]
    Connect {
        /// The URL given (without a password).
        url: String,
        /// Why.
        detail: String,
    },
    /// A Redis command failed.
    #[error("Redis, while {doing}: {source}")]
    Redis {
        /// What the crawl was doing.
        doing: &'static str,
        /// The error.
        source: redis::RedisError,
    },
    /// Redis could not compile one of the crawl's Lua scripts (a Redis whose Lua differs,
    /// or a script this build gets wrong).
    #[error("Redis refused the crawl's script {script}: {source}")]
    Script {
        /// The script's name.
        script: &'static str,
        /// Redis's answer.
        source: redis::RedisError,
    },
    /// The crawl name cannot be used in keys.
    #[error("crawl name {name:?}: use 1 to 64 letters, digits, '-', '_' or '.'")]
    CrawlName {
        /// The name given.
        name: String,
    },
    /// This worker's settings differ from the crawl's.
    #[error(
        "crawl {crawl:?} was started with other settings; this worker is refused ({}). Use the same settings, or another --crawl name",
        differences(diffs)
    )]
    Mismatch {
        /// The crawl.
        crawl: String,
        /// (setting, the crawl's value, this worker's value).
        diffs: Vec<(String, String, String)>,
    },
    /// A page to be logged was recorded already (a worker judged it again late, after
    /// another worker whose lease was the valid one had recorded it): nothing was logged.
    #[error("a page of {scope} was recorded already; its decision is not logged again")]
    Recorded {
        /// The dedup scope (its host).
        scope: String,
    },
    /// Something in Redis is not what this crate writes.
    #[error("Redis key {key}: unexpected content ({detail})")]
    Corrupt {
        /// The key.
        key: String,
        /// What was wrong.
        detail: String,
    },
}

fn differences(diffs: &[(String, String, String)]) -> String {
    diffs
        .iter()
        .map(|(k, theirs, ours)| format!("{k}: crawl {theirs:?}, worker {ours:?}"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Wraps a Redis error with what was being done.
pub(crate) fn doing(doing: &'static str) -> impl FnOnce(redis::RedisError) -> SharedError {
    move |source| SharedError::Redis { doing, source }
}
