//! A worker's dedup decisions: its replicas of the shared dedup state (`SharedDedup`) and
//! the log they judge through, behind one lock. Pages are judged one at a time in the
//! canonical order (`worker_order`), so there is nothing to combine: each page is one
//! decision against the replica, logged (if it changes the state) in one round trip.

use crate::error::Result;
use silhouette_frontier::{JudgedPage, SharedDedup, SharedVerdict};
use silhouette_redis::{RedisLog, SharedError};

/// The replica and its log.
#[derive(Debug)]
pub struct Judge {
    state: tokio::sync::Mutex<(SharedDedup, RedisLog)>,
}

impl Judge {
    pub fn new(dedup: SharedDedup, log: RedisLog) -> Self {
        Self {
            state: tokio::sync::Mutex::new((dedup, log)),
        }
    }

    /// Judges `page`: its verdict, or `None` if another worker recorded the page already
    /// (this one judged it again, late: nothing is logged).
    pub async fn judge(&self, page: JudgedPage) -> Result<Option<SharedVerdict>> {
        let mut state = self.state.lock().await;
        let (dedup, log) = &mut *state;
        match dedup.judge(log, &page).await {
            Ok(verdict) => Ok(Some(verdict)),
            Err(SharedError::Recorded { .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// The log's (round trips, decisions judged again) so far.
    pub async fn counts(&self) -> (u64, u64) {
        self.state.lock().await.1.counts()
    }
}
