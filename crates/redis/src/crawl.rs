//! [`SharedCrawl`]: one worker's view of a crawl kept in Redis.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redis::AsyncCommands;
use silhouette_frontier::host_port;
use url::Url;

use crate::codec::{Lease, entry, id_field, parse_entry, seen_member};
use crate::error::doing;
use crate::keys::Keys;
use crate::scripts::{
    CLAIM, ENQUEUE, GIVE_BACK, LATER, LEASE, ONCE, PARAMS, RESERVE, SEEDS, UNCLAIM,
};
use crate::{Conn, RedisLog, SharedError, SharedRobots};

/// How a worker shares the crawl.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedConfig {
    /// How long a leased URL stays with a worker before it returns to the queue.
    pub lease: Duration,
    /// The least time between two fetches from one host, across all workers.
    pub host_interval: Duration,
    /// Fetches in flight per host at most, across all workers.
    pub per_host_in_flight: usize,
    /// Hosts claimed from the schedule in one call.
    pub claim_batch: usize,
    /// Workers share each host's robots.txt ([`SharedCrawl::robots`]): a host has one
    /// fetch in flight until its robots.txt is known, and its Crawl-delay spaces fetches
    /// across workers.
    pub shared_robots: bool,
    /// The longest shared backoff of a failing host (429, 5xx without `Retry-After`).
    pub backoff_cap: Duration,
    /// URLs queued in the whole crawl at most (`crawl.max-pages`).
    pub max_pages: Option<u64>,
    /// URLs queued per host at most (`crawl.max-pages-per-host`).
    pub max_pages_per_host: Option<u64>,
}

impl Default for SharedConfig {
    fn default() -> Self {
        Self {
            lease: Duration::from_secs(60),
            host_interval: Duration::from_secs(1),
            per_host_in_flight: 1,
            claim_batch: 16,
            shared_robots: false,
            backoff_cap: Duration::from_secs(60),
            max_pages: None,
            max_pages_per_host: None,
        }
    }
}

/// A URL to queue: canonical URL, link depth, sequence number (its place in the canonical
/// order: [`SharedCrawl::alloc`]).
pub type Link = (Url, u32, u64);

/// The URL whose turn it is to be judged: the smallest sequence number not judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    /// Its host (`host:port`).
    pub host: String,
    /// Its sequence number.
    pub seq: u64,
}

/// What the host asked for when a URL was tried again later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Requeued {
    /// Back in the queue; the number of times it waited.
    Queued(u64),
    /// Past the limit: record it as an error.
    GaveUp,
}

/// One worker of a crawl kept in Redis. A clone is the same worker (same id, counters and
/// known seen-set members) on the same multiplexed connection: pages can be finished
/// concurrently from clones.
#[derive(Clone, Debug)]
pub struct SharedCrawl {
    pub(crate) conn: Conn,
    pub(crate) keys: Keys,
    worker: String,
    pub(crate) config: SharedConfig,
    /// Round trips made (dedup ones are counted by the [`RedisLog`]).
    round_trips: Arc<AtomicU64>,
    /// Seen-set members this worker knows to be in the shared seen set, which only grows:
    /// links to them are not sent again (a site's navigation links are on every page). At
    /// most [`KNOWN_MAX`]; past it, links are sent as before.
    known: Arc<Mutex<HashSet<[u8; 16]>>>,
}

/// The most seen-set members a worker remembers (16 bytes each, plus the set's overhead).
pub(crate) const KNOWN_MAX: usize = 1 << 20;

pub(crate) fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `urls` by host (`host:port`).
fn by_host(urls: &[Link]) -> BTreeMap<String, Vec<&Link>> {
    let mut by_host: BTreeMap<String, Vec<&Link>> = BTreeMap::new();
    for u in urls {
        if let Some(h) = host_port(&u.0) {
            by_host.entry(h).or_default().push(u);
        }
    }
    by_host
}

/// What queueing URLs on a host found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HostQueued {
    /// The host's smallest sequence number not judged.
    min: Option<u64>,
    order_was_empty: bool,
    queue_was_empty: bool,
}

/// A sequence number as Redis writes it (a score: maybe `1.5e+15`-like), or none (`''`).
pub(crate) fn seq_of(text: &str) -> Option<u64> {
    text.parse::<u64>()
        .ok()
        .or_else(|| text.parse::<f64>().ok().map(|f| f as u64))
}

pub(crate) fn unix_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, ms)
}

impl SharedCrawl {
    /// Joins crawl `name` on the Redis at `url` as a worker. The first worker stores
    /// `params` (the settings that decide what is crawled and how it is judged); a worker
    /// whose `params` differ is refused with every difference named.
    ///
    /// # Errors
    /// Redis cannot be reached, the name cannot be used, the settings differ.
    pub async fn join(
        url: &str,
        name: &str,
        params: &[(&str, String)],
        config: SharedConfig,
    ) -> Result<Self, SharedError> {
        let mut crawl = Self::attach(url, name).await?;
        crawl.config = config;
        crawl.load_scripts().await?;
        let mut call = PARAMS.key(crawl.keys.params());
        for (k, v) in params {
            call.arg(*k).arg(v);
        }
        let stored: HashMap<String, String> = call
            .invoke_async(&mut crawl.conn)
            .await
            .map_err(doing("reading the crawl's settings"))?;
        let diffs: Vec<(String, String, String)> = params
            .iter()
            .filter_map(|(k, ours)| {
                let theirs = stored.get(*k).map_or("(not set)", String::as_str);
                (theirs != ours).then(|| ((*k).to_owned(), theirs.to_owned(), ours.clone()))
            })
            .collect();
        if !diffs.is_empty() {
            return Err(SharedError::Mismatch {
                crawl: name.to_owned(),
                diffs,
            });
        }
        crawl.heartbeat().await?;
        Ok(crawl)
    }

    /// Has Redis compile every script (`SCRIPT LOAD`, on every master of a cluster): one it
    /// cannot compile fails here, with its name, before any page is leased.
    async fn load_scripts(&mut self) -> Result<(), SharedError> {
        for lua in &crate::scripts::ALL {
            self.trips(1);
            let loaded: Result<String, redis::RedisError> = redis::cmd("SCRIPT")
                .arg("LOAD")
                .arg(lua.code)
                .query_async(&mut self.conn)
                .await;
            match loaded {
                Ok(_) => {}
                Err(source) if source.to_string().contains("compiling script") => {
                    return Err(SharedError::Script {
                        script: lua.name,
                        source,
                    });
                }
                Err(e) => return Err(doing("loading the crawl's scripts")(e)),
            }
        }
        Ok(())
    }

    /// Opens crawl `name` to read it (stats, export), without joining it as a worker.
    ///
    /// # Errors
    /// Redis cannot be reached, the name cannot be used.
    pub async fn attach(url: &str, name: &str) -> Result<Self, SharedError> {
        let keys = Keys::new(name)?;
        let conn = Conn::connect(url).await?;
        let worker = format!(
            "{}-{}-{}",
            std::process::id(),
            unix_ms(),
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        );
        Ok(Self {
            conn,
            keys,
            worker,
            config: SharedConfig::default(),
            round_trips: Arc::new(AtomicU64::new(0)),
            known: Arc::new(Mutex::new(HashSet::new())),
        })
    }

    /// This worker's id.
    #[must_use]
    pub fn worker(&self) -> &str {
        &self.worker
    }

    /// The dedup log, for [`SharedDedup::judge`](silhouette_frontier::SharedDedup::judge).
    #[must_use]
    pub fn log(&self) -> RedisLog {
        RedisLog {
            conn: self.conn.clone(),
            keys: self.keys.clone(),
            round_trips: 0,
            retries: 0,
        }
    }

    /// The hosts' shared robots.txt, for the fetch tasks.
    #[must_use]
    pub fn robots(&self) -> SharedRobots {
        SharedRobots {
            conn: self.conn.clone(),
            keys: self.keys.clone(),
            token: self.worker.clone(),
            lock: self.config.lease,
        }
    }

    /// Round trips to Redis made by this worker outside the dedup log.
    #[must_use]
    pub fn round_trips(&self) -> u64 {
        self.round_trips.load(Ordering::Relaxed)
    }

    /// Whether this worker knows `url` (canonical) to be in the shared seen set already: a
    /// link to it needs no scope check and no trip to Redis.
    #[must_use]
    pub fn knows(&self, url: &Url) -> bool {
        self.known().contains(&seen_member(url.as_str()))
    }

    /// Counts `n` round trips.
    pub(crate) fn trips(&self, n: u64) {
        self.round_trips.fetch_add(n, Ordering::Relaxed);
    }

    /// The known seen-set members (never held across an await).
    pub(crate) fn known(&self) -> std::sync::MutexGuard<'_, HashSet<[u8; 16]>> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Says this worker is alive.
    ///
    /// # Errors
    /// Redis.
    pub async fn heartbeat(&mut self) -> Result<(), SharedError> {
        self.trips(1);
        let key = self.keys.workers();
        let _: () = self
            .conn
            .zadd(key, &self.worker, unix_ms())
            .await
            .map_err(doing("sending a heartbeat"))?;
        Ok(())
    }

    /// Says this worker has left.
    ///
    /// # Errors
    /// Redis.
    pub async fn leave(&mut self) -> Result<(), SharedError> {
        let key = self.keys.workers();
        let _: () = self
            .conn
            .zrem(key, &self.worker)
            .await
            .map_err(doing("leaving the crawl"))?;
        Ok(())
    }

    /// The settings the crawl was started with (those [`join`](Self::join) compares).
    ///
    /// # Errors
    /// Redis.
    pub async fn params(&mut self) -> Result<BTreeMap<String, String>, SharedError> {
        self.trips(1);
        let key = self.keys.params();
        self.conn
            .hgetall(key)
            .await
            .map_err(doing("reading the crawl's settings"))
    }

    /// The crawl's seeds.
    ///
    /// # Errors
    /// Redis.
    pub async fn seeds(&mut self) -> Result<Vec<Url>, SharedError> {
        self.trips(1);
        let key = self.keys.seeds();
        let seeds: Vec<String> = self
            .conn
            .smembers(key)
            .await
            .map_err(doing("reading the seeds"))?;
        let mut seeds: Vec<Url> = seeds.iter().filter_map(|s| Url::parse(s).ok()).collect();
        seeds.sort();
        Ok(seeds)
    }

    /// Adds canonical seed URLs (depth 0) and queues the new ones, first in the canonical
    /// order (sequence numbers in the order given). Returns how many were queued.
    ///
    /// # Errors
    /// Redis.
    pub async fn add_seeds(&mut self, seeds: &[Url]) -> Result<usize, SharedError> {
        if seeds.is_empty() {
            return Ok(0);
        }
        self.trips(1);
        let mut call = SEEDS.key(self.keys.seeds());
        call.key(self.keys.seq());
        for s in seeds {
            call.arg(s.as_str());
        }
        let reply: Vec<String> = call
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("adding seeds"))?;
        let base = reply.first().and_then(|b| seq_of(b)).unwrap_or(0);
        let links: Vec<Link> = reply
            .iter()
            .skip(1)
            .filter_map(|i| i.parse::<usize>().ok())
            .filter_map(|i| seeds.get(i.checked_sub(1)?))
            .zip(base..)
            .map(|(u, seq)| (u.clone(), 0, seq))
            .collect();
        let mut queued = 0;
        let mut heads = Vec::new();
        for (host, urls) in by_host(&links) {
            let (n, q) = self.enqueue_host(&host, &urls, None, usize::MAX).await?;
            heads.push((host, Some(q.min), n > 0));
            if n > 0 && self.config.max_pages.is_some() {
                // Seeds are queued whatever the budget, and count in it.
                self.trips(1);
                let _: i64 = self
                    .conn
                    .incr(self.keys.pages(), n)
                    .await
                    .map_err(doing("counting pages"))?;
            }
            queued += n;
        }
        self.heads_call(&heads).await?;
        Ok(queued)
    }

    /// Queues the canonical URLs not seen yet, found on `referrer` (admitted by the caller:
    /// scope, traps), each at its place in the canonical order. Returns how many were new.
    /// `again`: the same URLs may have been queued by a worker that died before the page's
    /// turn ended (its numbers were given before: [`Numbers::again`](crate::Numbers::again)); their hosts are
    /// scheduled and noted in `heads` whatever this call finds.
    ///
    /// # Errors
    /// Redis.
    pub async fn enqueue(
        &mut self,
        urls: &[Link],
        referrer: Option<&str>,
        again: bool,
    ) -> Result<usize, SharedError> {
        Ok(self.enqueue_noting(urls, referrer, again).await?.0)
    }

    /// As [`enqueue`](Self::enqueue); also returns the hosts whose smallest number it wrote
    /// to `heads` (their order was empty), with that number.
    pub(crate) async fn enqueue_noting(
        &mut self,
        urls: &[Link],
        referrer: Option<&str>,
        again: bool,
    ) -> Result<(usize, Vec<(String, u64)>), SharedError> {
        let mut queued = 0;
        let mut heads = Vec::new();
        for (host, urls) in by_host(urls) {
            let urls: Vec<&Link> = {
                let known = self.known();
                urls.into_iter()
                    .filter(|(u, _, _)| !known.contains(&seen_member(u.as_str())))
                    .collect()
            };
            if urls.is_empty() {
                continue;
            }
            let most = match self.config.max_pages {
                None => usize::MAX,
                Some(max) => self.reserve(&host, &urls, max).await?,
            };
            if most == 0 {
                continue;
            }
            let (n, q) = self.enqueue_host(&host, &urls, referrer, most).await?;
            // A host's smallest number changes only if its order was empty (new numbers
            // are the largest given); it needs scheduling only if its queue was.
            let min = (again || q.order_was_empty).then_some(q.min);
            let schedule = again || (n > 0 && q.queue_was_empty);
            if min.is_some() || schedule {
                heads.push((host.clone(), min, schedule));
            }
            if most == usize::MAX && self.config.max_pages_per_host.is_none() {
                let mut known = self.known();
                if known.len() + urls.len() <= KNOWN_MAX {
                    // No limit stopped the script: every one of them is in the seen set now.
                    known.extend(urls.iter().map(|(u, _, _)| seen_member(u.as_str())));
                }
            }
            if most != usize::MAX && n < most {
                // Reserved for URLs another worker queued meanwhile: back to the budget.
                self.trips(1);
                let _: i64 = self
                    .conn
                    .decr(self.keys.pages(), most - n)
                    .await
                    .map_err(doing("counting pages"))?;
            }
            queued += n;
        }
        if !heads.is_empty() {
            self.heads_call(&heads).await?;
        }
        let noted = heads
            .into_iter()
            .filter_map(|(host, min, _)| Some((host, min.flatten()?)))
            .collect();
        Ok((queued, noted))
    }

    /// Takes from the crawl's page budget as many pages as `urls` has URLs not seen yet
    /// (the budget lives in the crawl's slot, the seen set in the host's: two steps).
    async fn reserve(
        &mut self,
        host: &str,
        urls: &[&Link],
        max: u64,
    ) -> Result<usize, SharedError> {
        let h = self.keys.host(host);
        let mut ask = redis::cmd("SMISMEMBER");
        ask.arg(h.seen());
        for (url, _, _) in urls {
            ask.arg(&seen_member(url.as_str())[..]);
        }
        self.trips(2);
        let seen: Vec<bool> = ask
            .query_async(&mut self.conn)
            .await
            .map_err(doing("reading the seen set"))?;
        let unseen = seen.iter().filter(|s| !**s).count();
        if unseen == 0 {
            return Ok(0);
        }
        RESERVE
            .key(self.keys.pages())
            .arg(unseen)
            .arg(max)
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("taking from the page budget"))
    }

    /// Queues at most `most` of `host`'s URLs not seen yet (and within the host's budget).
    /// Returns how many, and what the caller tells `heads` and the schedule.
    async fn enqueue_host(
        &mut self,
        host: &str,
        urls: &[&Link],
        referrer: Option<&str>,
        most: usize,
    ) -> Result<(usize, HostQueued), SharedError> {
        let h = self.keys.host(host);
        let mut call = ENQUEUE.key(h.seen());
        call.key(h.queue()).key(h.meta()).key(h.order());
        call.arg(most.min(urls.len()))
            .arg(self.config.max_pages_per_host.unwrap_or(0));
        for (url, depth, seq) in urls {
            call.arg(&seen_member(url.as_str())[..])
                .arg(entry(url.as_str(), *seq, *depth, referrer))
                .arg(*seq);
        }
        self.trips(1);
        let (n, min, order_was_empty, queue_was_empty): (usize, String, u8, u8) = call
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("queueing URLs"))?;
        Ok((
            n,
            HostQueued {
                min: seq_of(&min),
                order_was_empty: order_was_empty == 1,
                queue_was_empty: queue_was_empty == 1,
            },
        ))
    }

    /// Takes `task`, to be done once for the whole crawl (reading the seeds' sitemaps):
    /// `true` if this worker is to do it now, `false` if it is done or another worker is on
    /// it. A worker that dies doing it lets it go after the lease time.
    ///
    /// # Errors
    /// Redis.
    pub async fn take_once(&mut self, task: &str) -> Result<bool, SharedError> {
        self.trips(1);
        let took: i64 = ONCE
            .key(self.keys.once(task))
            .arg(&self.worker)
            .arg(ms(self.config.lease))
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("taking a task"))?;
        Ok(took == 1)
    }

    /// Whether `task` is done for the crawl.
    ///
    /// # Errors
    /// Redis.
    pub async fn once_done(&mut self, task: &str) -> Result<bool, SharedError> {
        self.trips(1);
        let key = self.keys.once(task);
        let v: Option<String> = self.conn.get(key).await.map_err(doing("reading a task"))?;
        Ok(v.as_deref() == Some("done"))
    }

    /// Says `task` (taken with [`take_once`](Self::take_once)) is done for the crawl.
    ///
    /// # Errors
    /// Redis.
    pub async fn done_once(&mut self, task: &str) -> Result<(), SharedError> {
        self.trips(1);
        let key = self.keys.once(task);
        let _: () = self
            .conn
            .set(key, "done")
            .await
            .map_err(doing("ending a task"))?;
        Ok(())
    }

    /// Records what a worker says of one of its WARC files (`NAME`: file name, unique to the
    /// worker; `note`: the worker's own words, e.g. `open WARCINFO_END` or `closed LENGTH`),
    /// so that a worker that finds the file abandoned can repair it.
    ///
    /// # Errors
    /// Redis.
    pub async fn note_warc_file(&mut self, name: &str, note: &str) -> Result<(), SharedError> {
        self.trips(1);
        let key = self.keys.warc_files();
        let _: () = self
            .conn
            .hset(key, name, note)
            .await
            .map_err(doing("noting a WARC file"))?;
        Ok(())
    }

    /// Every WARC file a worker noted, with its last note.
    ///
    /// # Errors
    /// Redis.
    pub async fn warc_files(&mut self) -> Result<BTreeMap<String, String>, SharedError> {
        self.trips(1);
        let key = self.keys.warc_files();
        self.conn
            .hgetall(key)
            .await
            .map_err(doing("reading the WARC files"))
    }

    /// Marks a canonical URL seen without queueing it (the target of a redirect, which was
    /// just fetched): a link to it is not queued again. Returns whether it was new.
    ///
    /// # Errors
    /// Redis.
    pub async fn mark_seen(&mut self, url: &Url) -> Result<bool, SharedError> {
        let Some(host) = host_port(url) else {
            return Ok(false);
        };
        self.trips(1);
        let key = self.keys.host(&host).seen();
        let added: i64 = self
            .conn
            .sadd(key, &seen_member(url.as_str())[..])
            .await
            .map_err(doing("marking a URL seen"))?;
        Ok(added == 1)
    }

    /// Leases up to `max` URLs from hosts that may be fetched now (as many per host as its
    /// in-flight limit allows; one when hosts have an interval), each until the lease time
    /// from now.
    ///
    /// # Errors
    /// Redis.
    pub async fn lease(&mut self, max: usize) -> Result<Vec<Lease>, SharedError> {
        if max == 0 {
            return Ok(Vec::new());
        }
        self.trips(1);
        let claimed: Vec<String> = CLAIM
            .key(self.keys.schedule())
            .arg(max.min(self.config.claim_batch.max(1)))
            .arg(ms(self.config.lease).min(30_000))
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("claiming hosts"))?;
        let mut leases = Vec::new();
        for pair in claimed.chunks(2) {
            let [host, score] = pair else { continue };
            let h = self.keys.host(host);
            let want = max.saturating_sub(leases.len());
            let reply: Vec<String> = if want == 0 {
                // Claimed, not needed after all: due again at once.
                vec!["busy".to_owned(), "0".to_owned()]
            } else {
                self.lease_host(host, want, None).await?
            };
            let next = match reply.as_slice() {
                [ok, next, entries @ ..] if ok == "ok" => {
                    for e in entries {
                        leases.push(parse_entry(e, host).ok_or_else(|| SharedError::Corrupt {
                            key: h.queue(),
                            detail: e.clone(),
                        })?);
                    }
                    next.clone()
                }
                [why, at] if why == "wait" || why == "busy" => at.clone(),
                [empty] if empty == "empty" => {
                    self.trips(1);
                    let _: i64 = UNCLAIM
                        .key(self.keys.schedule())
                        .arg(host)
                        .arg(score)
                        .invoke_async(&mut self.conn)
                        .await
                        .map_err(doing("unscheduling an idle host"))?;
                    continue;
                }
                other => {
                    return Err(SharedError::Corrupt {
                        key: h.queue(),
                        detail: format!("{other:?}"),
                    });
                }
            };
            self.trips(1);
            let _: () = redis::cmd("ZADD")
                .arg(self.keys.schedule())
                .arg("XX")
                .arg(next)
                .arg(host)
                .query_async(&mut self.conn)
                .await
                .map_err(doing("rescheduling a host"))?;
        }
        Ok(leases)
    }

    /// The `LEASE` script on `host`: up to `want` URLs, none past sequence number `upto`.
    pub(crate) async fn lease_host(
        &mut self,
        host: &str,
        want: usize,
        upto: Option<u64>,
    ) -> Result<Vec<String>, SharedError> {
        let h = self.keys.host(host);
        self.trips(1);
        LEASE
            .key(h.queue())
            .key(h.leases())
            .key(h.meta())
            .key(h.records())
            .key(h.robots())
            .arg(ms(self.config.lease))
            .arg(ms(self.config.host_interval))
            .arg(self.config.per_host_in_flight.max(1))
            .arg(want)
            .arg(u8::from(self.config.shared_robots))
            .arg(upto.map_or("+inf".to_owned(), |u| u.to_string()))
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("leasing a URL"))
    }

    /// Whether the crawl has nothing left: no host has a URL queued or leased.
    ///
    /// # Errors
    /// Redis.
    pub async fn finished(&mut self) -> Result<bool, SharedError> {
        self.trips(1);
        let key = self.keys.schedule();
        let n: u64 = self
            .conn
            .zcard(key)
            .await
            .map_err(doing("reading the schedule"))?;
        Ok(n == 0)
    }

    /// When the next host is due, in ms from now (`None`: no host scheduled).
    ///
    /// # Errors
    /// Redis.
    pub async fn next_due_in(&mut self) -> Result<Option<Duration>, SharedError> {
        self.trips(1);
        let key = self.keys.schedule();
        let first: Vec<(String, f64)> = self
            .conn
            .zrange_withscores(key, 0, 0)
            .await
            .map_err(doing("reading the schedule"))?;
        let now: (u64, u64) = redis::cmd("TIME")
            .query_async(&mut self.conn)
            .await
            .map_err(doing("reading the time"))?;
        let now_ms = now.0 * 1000 + now.1 / 1000;
        Ok(first
            .first()
            .map(|(_, at)| Duration::from_millis((*at as u64).saturating_sub(now_ms))))
    }

    /// The host asked to wait `after`: the URL goes back to its queue and the whole host
    /// waits, for every worker; past `max_requeues` times, [`Requeued::GaveUp`].
    ///
    /// # Errors
    /// Redis.
    pub async fn later(
        &mut self,
        lease: &Lease,
        after: Duration,
        max_requeues: u32,
    ) -> Result<Requeued, SharedError> {
        let h = self.keys.host(&lease.host);
        self.trips(1);
        let n: i64 = LATER
            .key(h.leases())
            .key(h.queue())
            .key(h.meta())
            .arg(&lease.entry)
            .arg(id_field(lease.id))
            .arg(ms(after))
            .arg(max_requeues)
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("putting a URL back"))?;
        Ok(u64::try_from(n).map_or(Requeued::GaveUp, Requeued::Queued))
    }

    /// Hands leases back unfetched (Ctrl-C): first in their queues, due at once.
    ///
    /// # Errors
    /// Redis.
    pub async fn give_back(&mut self, leases: &[Lease]) -> Result<(), SharedError> {
        for lease in leases {
            let h = self.keys.host(&lease.host);
            let _: i64 = GIVE_BACK
                .key(h.leases())
                .key(h.queue())
                .arg(&lease.entry)
                .invoke_async(&mut self.conn)
                .await
                .map_err(doing("handing a lease back"))?;
            let _: () = redis::cmd("ZADD")
                .arg(self.keys.schedule())
                .arg("LT")
                .arg(0)
                .arg(&lease.host)
                .query_async(&mut self.conn)
                .await
                .map_err(doing("scheduling a host"))?;
        }
        Ok(())
    }
}
