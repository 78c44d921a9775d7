//! [`RedisLog`]: the dedup log of a shared crawl (a [`DecisionLog`]), one list and one lock
//! per scope, in the scope's slot.

use std::time::Duration;

use redis::Value;
use silhouette_frontier::{DecisionLog, JudgedPage};

use crate::codec::{log_entry, parse_log_entry};
use crate::error::doing;
use crate::keys::Keys;
use crate::scripts::{HOLD, RELEASE};
use crate::{Conn, SharedError};

/// The dedup log of one crawl, as seen by one worker.
#[derive(Clone, Debug)]
pub struct RedisLog {
    pub(crate) conn: Conn,
    pub(crate) keys: Keys,
    /// This worker's token (its id).
    pub(crate) token: String,
    /// How long a scope stays held if the worker disappears.
    pub(crate) hold: Duration,
    /// Round trips made, and waits for a scope another worker held.
    pub(crate) round_trips: u64,
    pub(crate) waits: u64,
}

impl RedisLog {
    /// (round trips, waits for a held scope) so far.
    #[must_use]
    pub const fn counts(&self) -> (u64, u64) {
        (self.round_trips, self.waits)
    }
}

impl DecisionLog for RedisLog {
    type Error = SharedError;

    async fn begin(&mut self, scope: &str, from: u64) -> Result<Vec<JudgedPage>, SharedError> {
        let (log, lock) = self.keys.dedup(scope);
        let mut pause = Duration::from_micros(200);
        loop {
            self.round_trips += 1;
            let reply: Vec<Value> = HOLD
                .key(&log)
                .key(&lock)
                .arg(&self.token)
                .arg(u64::try_from(self.hold.as_millis()).unwrap_or(u64::MAX))
                .arg(from)
                .invoke_async(&mut self.conn)
                .await
                .map_err(doing("taking a dedup scope"))?;
            match reply.as_slice() {
                [Value::Int(1), Value::Array(entries)] => {
                    return entries
                        .iter()
                        .map(|v| {
                            let text: String = redis::from_redis_value_ref(v)
                                .map_err(|e| corrupt(&log, e.to_string()))?;
                            parse_log_entry(&text).ok_or_else(|| corrupt(&log, text))
                        })
                        .collect();
                }
                [Value::Int(0)] => {
                    self.waits += 1;
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                other => return Err(corrupt(&lock, format!("{other:?}"))),
            }
        }
    }

    async fn commit(
        &mut self,
        scope: &str,
        entry: Option<&JudgedPage>,
    ) -> Result<bool, SharedError> {
        let (log, lock) = self.keys.dedup(scope);
        let mut call = RELEASE.key(&log);
        call.key(&lock).arg(&self.token);
        if let Some(e) = entry {
            call.arg(log_entry(e));
        }
        self.round_trips += 1;
        let done: i64 = call
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("committing a dedup decision"))?;
        Ok(done == 1)
    }
}

fn corrupt(key: &str, detail: String) -> SharedError {
    SharedError::Corrupt {
        key: key.to_owned(),
        detail,
    }
}
