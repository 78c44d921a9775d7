//! A worker's dedup decisions, combined: pages that finish while a decision is on its way to
//! Redis wait in a queue, and whichever page task takes the replica next judges every
//! waiting page as one batch (`SharedDedup::judge_all`: one round trip per batch when no
//! other worker logged in the scope meanwhile). One worker is never behind its own log, so
//! its decisions no longer wait on one round trip each.

use std::sync::{Mutex, PoisonError};

use anyhow::{Result, anyhow};
use silhouette_frontier::{JudgedPage, SharedDedup, SharedVerdict};
use silhouette_redis::RedisLog;
use tokio::sync::oneshot;

type Reply = oneshot::Sender<Result<SharedVerdict, String>>;

/// The replica, its log, and the pages waiting to be judged.
#[derive(Debug)]
pub struct Judge {
    state: tokio::sync::Mutex<(SharedDedup, RedisLog)>,
    waiting: Mutex<Vec<(JudgedPage, Reply)>>,
}

/// Pages judged in one batch at most.
const BATCH_MAX: usize = 256;

impl Judge {
    pub fn new(dedup: SharedDedup, log: RedisLog) -> Self {
        Self {
            state: tokio::sync::Mutex::new((dedup, log)),
            waiting: Mutex::new(Vec::new()),
        }
    }

    fn waiting(&self) -> std::sync::MutexGuard<'_, Vec<(JudgedPage, Reply)>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Judges `page` (with whatever else is waiting, in arrival order). A task whose page
    /// another task judged returns as soon as its verdict is there, without the lock.
    pub async fn judge(&self, page: JudgedPage) -> Result<SharedVerdict> {
        let (tx, mut rx) = oneshot::channel();
        self.waiting().push((page, tx));
        loop {
            tokio::select! {
                biased;
                verdict = &mut rx => {
                    return verdict
                        .map_err(|_| anyhow!("a dedup batch was dropped"))?
                        .map_err(|e| anyhow!("{e}"));
                }
                mut state = self.state.lock() => {
                    let batch: Vec<(JudgedPage, Reply)> = {
                        let mut waiting = self.waiting();
                        let n = waiting.len().min(BATCH_MAX);
                        waiting.drain(..n).collect()
                    };
                    if batch.is_empty() {
                        continue;
                    }
                    let (pages, replies): (Vec<JudgedPage>, Vec<Reply>) =
                        batch.into_iter().unzip();
                    let (dedup, log) = &mut *state;
                    match dedup.judge_all(log, &pages).await {
                        Ok(verdicts) => {
                            for (reply, verdict) in replies.into_iter().zip(verdicts) {
                                let _ = reply.send(Ok(verdict));
                            }
                        }
                        Err(e) => {
                            let e = e.to_string();
                            for reply in replies {
                                let _ = reply.send(Err(e.clone()));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The log's (round trips, decisions judged again) so far.
    pub async fn counts(&self) -> (u64, u64) {
        self.state.lock().await.1.counts()
    }
}
