//! Reading a shared crawl (`stats`, `export`, the benchmark's memory figures).

use std::collections::{BTreeMap, HashMap};

use redis::{AsyncCommands, Value};

use crate::crawl::unix_ms;
use crate::error::doing;
use crate::{SharedCrawl, SharedError};

/// What `stats` shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedStats {
    /// Records per decision.
    pub decisions: BTreeMap<String, u64>,
    /// URLs waiting in queues.
    pub queued: u64,
    /// URLs leased by workers now.
    pub leased: u64,
    /// Hosts with a URL.
    pub hosts: u64,
    /// Workers with a heartbeat in the last 15 s.
    pub workers_alive: u64,
    /// URLs seen.
    pub seen: u64,
    /// Pages judged out of the canonical order (their fetch was stuck).
    pub out_of_order: u64,
}

impl SharedCrawl {
    /// Every host with a URL, sorted.
    ///
    /// # Errors
    /// Redis.
    pub async fn hosts(&mut self) -> Result<Vec<String>, SharedError> {
        let key = self.keys.hosts();
        let mut hosts: Vec<String> = self
            .conn
            .smembers(key)
            .await
            .map_err(doing("reading the hosts"))?;
        hosts.sort();
        Ok(hosts)
    }

    /// A page of `host`'s records from `cursor` (start with 0; the next cursor is 0 at the
    /// end): (next cursor, records).
    ///
    /// # Errors
    /// Redis.
    pub async fn records(
        &mut self,
        host: &str,
        cursor: u64,
    ) -> Result<(u64, Vec<String>), SharedError> {
        let (next, pairs): (u64, Vec<String>) = redis::cmd("HSCAN")
            .arg(self.keys.host(host).records())
            .arg(cursor)
            .arg("COUNT")
            .arg(500)
            .query_async(&mut self.conn)
            .await
            .map_err(doing("reading records"))?;
        Ok((next, pairs.into_iter().skip(1).step_by(2).collect()))
    }

    /// The summary of the crawl.
    ///
    /// # Errors
    /// Redis.
    pub async fn stats(&mut self) -> Result<SharedStats, SharedError> {
        let hosts = self.hosts().await?;
        let mut stats = SharedStats {
            hosts: hosts.len() as u64,
            ..SharedStats::default()
        };
        for host in &hosts {
            let h = self.keys.host(host);
            let (meta, queued, leased, seen): (HashMap<String, String>, u64, u64, u64) =
                redis::pipe()
                    .hgetall(h.meta())
                    .zcard(h.queue())
                    .zcard(h.leases())
                    .scard(h.seen())
                    .query_async(&mut self.conn)
                    .await
                    .map_err(doing("reading a host's counters"))?;
            for (k, v) in meta {
                if k == "late" {
                    stats.out_of_order += v.parse::<u64>().unwrap_or(0);
                }
                if let Some(decision) = k.strip_prefix("n:") {
                    *stats.decisions.entry(decision.to_owned()).or_insert(0) +=
                        v.parse::<u64>().unwrap_or(0);
                }
            }
            stats.queued += queued;
            stats.leased += leased;
            stats.seen += seen;
        }
        let key = self.keys.workers();
        stats.workers_alive = self
            .conn
            .zcount(key, unix_ms().saturating_sub(15_000), "+inf")
            .await
            .map_err(doing("counting workers"))?;
        Ok(stats)
    }

    /// Bytes the hosts' seen sets take in Redis (`MEMORY USAGE`, every element counted).
    ///
    /// # Errors
    /// Redis.
    pub async fn seen_bytes(&mut self) -> Result<u64, SharedError> {
        let mut total = 0;
        for host in self.hosts().await? {
            let bytes: Option<u64> = redis::cmd("MEMORY")
                .arg("USAGE")
                .arg(self.keys.host(&host).seen())
                .arg("SAMPLES")
                .arg(0)
                .query_async(&mut self.conn)
                .await
                .map_err(doing("reading MEMORY USAGE"))?;
            total += bytes.unwrap_or(0);
        }
        Ok(total)
    }

    /// Redis's `used_memory` (bytes), from `INFO memory` (of the node this connection asks).
    ///
    /// # Errors
    /// Redis.
    pub async fn used_memory(&mut self) -> Result<u64, SharedError> {
        let info: Value = redis::cmd("INFO")
            .arg("memory")
            .query_async(&mut self.conn)
            .await
            .map_err(doing("reading INFO memory"))?;
        let text: String = match info {
            Value::Map(nodes) => nodes
                .into_iter()
                .filter_map(|(_, v)| redis::from_redis_value::<String>(v).ok())
                .collect::<Vec<_>>()
                .join("\n"),
            v => redis::from_redis_value(v).map_err(|e| SharedError::Corrupt {
                key: "INFO memory".to_owned(),
                detail: e.to_string(),
            })?,
        };
        Ok(text
            .lines()
            .filter_map(|l| l.strip_prefix("used_memory:"))
            .filter_map(|v| v.trim().parse::<u64>().ok())
            .sum())
    }
}
