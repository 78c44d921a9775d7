//! [`SharedRobots`]: each host's robots.txt fetched once for the whole crawl and kept in
//! Redis (in the host's slot, with an expiry) for every worker to read.

use std::time::Duration;

use redis::Value;

use crate::error::doing;
use crate::keys::Keys;
use crate::scripts::{ROBOTS, ROBOTS_PUT};
use crate::{Conn, SharedError};

/// What the crawl knows of a host's robots.txt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RobotsState {
    /// Stored by a worker: the value it stored and how long it stays.
    Known {
        /// What [`SharedRobots::put`] stored.
        value: Vec<u8>,
        /// Until it expires.
        ttl: Duration,
    },
    /// Nobody has it: this worker now holds the host's robots lock and must fetch it, then
    /// [`put`](SharedRobots::put) it (or [`release`](SharedRobots::release) the lock).
    Fetch,
    /// Another worker is fetching it: ask again shortly.
    Wait,
}

/// The shared robots.txt of a crawl's hosts (cheap to clone, one per fetch task).
#[derive(Clone, Debug)]
pub struct SharedRobots {
    pub(crate) conn: Conn,
    pub(crate) keys: Keys,
    /// This worker's token (its id).
    pub(crate) token: String,
    /// How long the robots lock stays if its worker disappears.
    pub(crate) lock: Duration,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl SharedRobots {
    /// What the crawl knows of `host`'s robots.txt; [`RobotsState::Fetch`] makes this
    /// worker the one to fetch it.
    ///
    /// # Errors
    /// Redis, or a reply of an unknown shape.
    pub async fn get(&mut self, host: &str) -> Result<RobotsState, SharedError> {
        let h = self.keys.host(host);
        let reply: Vec<Value> = ROBOTS
            .key(h.robots())
            .key(h.robots_lock())
            .arg(&self.token)
            .arg(ms(self.lock))
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("reading a robots.txt"))?;
        let text = |v: &Value| redis::from_redis_value_ref::<Vec<u8>>(v).ok();
        match reply.as_slice() {
            [tag, value, ttl] if text(tag).as_deref() == Some(b"have") => {
                let ttl = text(ttl)
                    .and_then(|t| String::from_utf8(t).ok()?.parse::<u64>().ok())
                    .unwrap_or(0);
                Ok(RobotsState::Known {
                    value: text(value).unwrap_or_default(),
                    ttl: Duration::from_millis(ttl),
                })
            }
            [tag] if text(tag).as_deref() == Some(b"fetch") => Ok(RobotsState::Fetch),
            [tag] if text(tag).as_deref() == Some(b"wait") => Ok(RobotsState::Wait),
            other => Err(SharedError::Corrupt {
                key: h.robots(),
                detail: format!("{other:?}"),
            }),
        }
    }

    /// Stores `host`'s robots.txt (`value`, as the caller encodes it) for `ttl`, with its
    /// Crawl-delay (`None`: none), which from now on spaces the host's fetches across
    /// workers; lets the lock go.
    ///
    /// # Errors
    /// Redis.
    pub async fn put(
        &mut self,
        host: &str,
        value: &[u8],
        ttl: Duration,
        crawl_delay: Option<Duration>,
    ) -> Result<(), SharedError> {
        let h = self.keys.host(host);
        let _: i64 = ROBOTS_PUT
            .key(h.robots())
            .key(h.robots_lock())
            .key(h.meta())
            .arg(&self.token)
            .arg(value)
            .arg(ms(ttl))
            .arg(crawl_delay.map_or(0, ms))
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("storing a robots.txt"))?;
        Ok(())
    }

    /// Lets the robots lock of `host` go without storing anything (the fetch failed).
    ///
    /// # Errors
    /// Redis.
    pub async fn release(&mut self, host: &str) -> Result<(), SharedError> {
        let h = self.keys.host(host);
        let lock = h.robots_lock();
        let holder: Option<String> = redis::cmd("GET")
            .arg(&lock)
            .query_async(&mut self.conn)
            .await
            .map_err(doing("reading a robots lock"))?;
        if holder.as_deref() == Some(self.token.as_str()) {
            let _: i64 = redis::cmd("DEL")
                .arg(&lock)
                .query_async(&mut self.conn)
                .await
                .map_err(doing("releasing a robots lock"))?;
        }
        Ok(())
    }
}
