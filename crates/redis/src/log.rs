//! [`RedisLog`]: the dedup log of a shared crawl (a [`DecisionLog`]), one list per scope, in
//! the scope's slot, appended to only by a worker that judged against all of it.

use redis::Value;
use silhouette_frontier::{DecisionLog, JudgedPage};

use crate::codec::{id_field, log_entry, parse_log_entry};
use crate::error::doing;
use crate::keys::Keys;
use crate::scripts::APPEND_AT;
use crate::{Conn, SharedError};

/// The dedup log of one crawl, as seen by one worker.
#[derive(Clone, Debug)]
pub struct RedisLog {
    pub(crate) conn: Conn,
    pub(crate) keys: Keys,
    /// Round trips made, and decisions judged again because another worker had logged
    /// one meanwhile.
    pub(crate) round_trips: u64,
    pub(crate) retries: u64,
}

impl RedisLog {
    /// (round trips, decisions judged again) so far.
    #[must_use]
    pub const fn counts(&self) -> (u64, u64) {
        (self.round_trips, self.retries)
    }
}

impl DecisionLog for RedisLog {
    type Error = SharedError;

    async fn append_at(
        &mut self,
        scope: &str,
        at: u64,
        entries: &[&JudgedPage],
    ) -> Result<Option<Vec<JudgedPage>>, SharedError> {
        let log = self.keys.dedup(scope);
        let mut call = APPEND_AT.key(&log);
        call.arg(at);
        if scope.is_empty() || entries.is_empty() {
            call.arg(0);
        } else {
            // Host scope: the host's records are in the log's slot; a page recorded already
            // is not logged again.
            call.key(self.keys.host(scope).records()).arg(entries.len());
            for e in entries {
                call.arg(id_field(e.id));
            }
        }
        for e in entries {
            call.arg(log_entry(e));
        }
        self.round_trips += 1;
        let reply: Vec<Value> = call
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("logging a dedup decision"))?;
        match reply.as_slice() {
            [Value::Int(1)] => Ok(None),
            [Value::Int(2)] => Err(SharedError::Recorded {
                scope: scope.to_owned(),
            }),
            [Value::Int(0), Value::Array(entries)] => {
                self.retries += 1;
                entries
                    .iter()
                    .map(|v| {
                        let text: String = redis::from_redis_value_ref(v)
                            .map_err(|e| corrupt(&log, e.to_string()))?;
                        parse_log_entry(&text).ok_or_else(|| corrupt(&log, text))
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some)
            }
            other => Err(corrupt(&log, format!("{other:?}"))),
        }
    }
}

fn corrupt(key: &str, detail: String) -> SharedError {
    SharedError::Corrupt {
        key: key.to_owned(),
        detail,
    }
}
