//! A worker's pages take turns: a shared crawl judges pages one at a time, in the canonical
//! order (`silhouette_redis::SharedCrawl::heads`), whichever worker fetched them.
//!
//! A page's turn has two steps, each taken in the order: **judge** (the dedup decision and
//! the numbers of its links, [`Turns::wait`] then [`Turns::judged`]) and **record** (its
//! links queued with its record, [`Turns::wait_record`] then [`Turns::finished`]). The next
//! page may be judged while the previous one is being recorded: its links come after every
//! URL that exists, so they cannot change which page is next.
//!
//! The worker knows which pages come next from Redis (`heads`: whose turn it is, and the
//! first URL of another host) and from the pages it records itself (each record returns its
//! host's next numbers): while they stay on one host and before the other hosts' first
//! number, pages follow each other without asking Redis, which learns it from a background
//! write (the poller). The poller also asks Redis while pages wait and the turn is another
//! worker's, mends what a dead worker left (a stale head, mended from the host's own order
//! set after a second), and takes a head stuck longer than `crawl.reorder-timeout-secs` (at
//! least the lease time and 5 s more, so that a dead worker's URLs come back and are judged
//! in order first) out of the order: the pages behind it are judged, and it is judged when
//! fetched, marked out of order.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use silhouette_redis::{Head, Heads, Lease, Place, SharedCrawl, SharedError};
use tokio::sync::{Notify, oneshot, watch};

/// What a waiting page is to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Its turn: judge it now, in order.
    InOrder,
    /// It left the order (stuck too long): judge it now, out of order.
    Late,
    /// Another worker recorded it (this lease had run out): end the lease, nothing else.
    Recorded,
    /// Ctrl-C: hand the lease back.
    Cancelled,
}

/// How often the poller asks whose turn it is while pages wait for another worker's.
const POLL: Duration = Duration::from_millis(2);
/// How long a head may stay before the poller checks it against its host's order set.
const STALE: Duration = Duration::from_secs(1);

struct Waiter {
    lease: Lease,
    tx: oneshot::Sender<Turn>,
}

struct State {
    /// The pages next in the order, as far as known: all of `host`, the first one the page
    /// to record next, all before `second` (another host's first URL).
    host: String,
    known: VecDeque<u64>,
    second: Option<Head>,
    /// The last page judged in order and not recorded yet.
    judged: Option<u64>,
    /// When `judged` was set.
    judged_at: Instant,
    /// Since when the head is what it is, or pages wait (the later).
    since: Instant,
    /// When the head was last checked against its host.
    checked: Instant,
    /// Pages waiting to be judged, by sequence number.
    waiting: BTreeMap<u64, Vec<Waiter>>,
    /// Pages judged, waiting to be recorded.
    recording: BTreeMap<u64, (Lease, oneshot::Sender<()>)>,
    /// When the leases of the pages held here were last renewed.
    renewed: Instant,
    /// What `heads` is to learn: hosts' smallest numbers.
    pending: BTreeMap<String, Option<u64>>,
    /// Counts the pages recorded here: a reply from Redis read before the last of them is
    /// older than what this worker knows.
    generation: u64,
}

impl State {
    /// The page whose turn it is to be recorded (the head of the order).
    fn head(&self) -> Option<Head> {
        self.known.front().map(|&seq| Head {
            host: self.host.clone(),
            seq,
        })
    }

    /// The page whose turn it is to be judged.
    fn to_judge(&self) -> Option<u64> {
        match self.judged {
            None => self.known.front().copied(),
            Some(j) => self.known.iter().copied().find(|&s| s > j),
        }
    }

    /// Learns the next pages of `host` (ascending), those before `second`.
    fn learn(&mut self, host: &str, next: &[u64], second: Option<Head>) {
        if self.head().map(|h| h.seq) != next.first().copied() || self.host != host {
            self.since = Instant::now();
            self.checked = self.since;
        }
        self.host = host.to_owned();
        self.known = next
            .iter()
            .copied()
            .take_while(|s| second.as_ref().is_none_or(|o| *s < o.seq))
            .collect();
        self.second = second;
        self.wake();
    }

    /// Wakes the page to judge and the page to record, if they wait here.
    fn wake(&mut self) {
        if let Some(seq) = self.to_judge()
            && let Some(list) = self.waiting.remove(&seq)
        {
            let host = self.host.clone();
            let (ours, others): (Vec<Waiter>, Vec<Waiter>) =
                list.into_iter().partition(|w| w.lease.host == host);
            let mut ours = ours.into_iter();
            // Two leases of one page (one had run out): the first judges it, the others
            // find it recorded.
            if let Some(first) = ours.next() {
                let _ = first.tx.send(Turn::InOrder);
            }
            let rest: Vec<Waiter> = ours.chain(others).collect();
            if !rest.is_empty() {
                self.waiting.insert(seq, rest);
            }
        }
        if let Some(seq) = self.known.front().copied() {
            // The page whose turn it is, and pages the order has passed (recorded by a
            // worker whose lease had run out, or taken out of the order): they are
            // recorded now (not written, or marked out of order).
            let passed: Vec<u64> = self.recording.range(..=seq).map(|(s, _)| *s).collect();
            for s in passed {
                if let Some((_, tx)) = self.recording.remove(&s) {
                    let _ = tx.send(());
                }
            }
        }
    }

    /// The leases of the pages held here.
    fn leases(&self) -> Vec<Lease> {
        self.waiting
            .values()
            .flatten()
            .map(|w| w.lease.clone())
            .chain(self.recording.values().map(|(l, _)| l.clone()))
            .collect()
    }
}

/// The pages of one worker waiting for their turn.
pub struct Turns {
    state: Mutex<State>,
    wake: Notify,
    timeout: Duration,
    /// The lease time: held leases are renewed every third of it.
    lease: Duration,
}

impl std::fmt::Debug for Turns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Turns")
            .field("waiting", &self.waiting())
            .finish_non_exhaustive()
    }
}

impl Turns {
    /// `timeout`: how long pages wait behind a head before it leaves the order; `lease`:
    /// the crawl's lease time.
    pub fn new(timeout: Duration, lease: Duration) -> Self {
        let now = Instant::now();
        Self {
            state: Mutex::new(State {
                host: String::new(),
                known: VecDeque::new(),
                second: None,
                judged: None,
                judged_at: Instant::now(),
                since: now,
                checked: now,
                waiting: BTreeMap::new(),
                recording: BTreeMap::new(),
                renewed: now,
                pending: BTreeMap::new(),
                generation: 0,
            }),
            wake: Notify::new(),
            timeout,
            lease,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Pages waiting for their turn (to be judged or recorded).
    pub fn waiting(&self) -> usize {
        let state = self.state();
        state.waiting.values().map(Vec::len).sum::<usize>() + state.recording.len()
    }

    /// Whether the page at `seq` waits here.
    pub fn holds(&self, seq: u64) -> bool {
        let state = self.state();
        state.waiting.contains_key(&seq) || state.recording.contains_key(&seq)
    }

    /// Whether URL `id` waits here (a lease of it that ran out and came back to this
    /// worker is not fetched again).
    pub fn holds_id(&self, id: u64) -> bool {
        let state = self.state();
        state.waiting.values().flatten().any(|w| w.lease.id == id)
            || state.recording.values().any(|(l, _)| l.id == id)
    }

    /// Waits for `lease`'s turn to be judged (or Ctrl-C).
    pub async fn wait(&self, lease: &Lease, cancelled: &mut watch::Receiver<bool>) -> Turn {
        tracing::debug!("#{} waits to be judged", lease.seq);
        let rx = {
            let mut state = self.state();
            if state.waiting.is_empty() && state.recording.is_empty() {
                state.since = state.since.max(Instant::now());
            }
            let (tx, rx) = oneshot::channel();
            state.waiting.entry(lease.seq).or_default().push(Waiter {
                lease: lease.clone(),
                tx,
            });
            state.wake();
            rx
        };
        self.wake.notify_one();
        tokio::select! {
            turn = rx => turn.unwrap_or(Turn::Cancelled),
            _ = cancelled.wait_for(|c| *c) => {
                let mut state = self.state();
                if let Some(list) = state.waiting.get_mut(&lease.seq) {
                    list.retain(|w| w.lease.id != lease.id);
                    if list.is_empty() {
                        state.waiting.remove(&lease.seq);
                    }
                }
                Turn::Cancelled
            }
        }
    }

    /// `lease`'s page was judged in order: the next page may be judged.
    pub fn judged(&self, lease: &Lease) {
        let mut state = self.state();
        state.judged = Some(lease.seq);
        state.judged_at = Instant::now();
        state.wake();
    }

    /// Waits for the turn of `lease`'s page (judged in order) to be recorded.
    pub async fn wait_record(&self, lease: &Lease) {
        tracing::debug!("#{} waits to be recorded", lease.seq);
        let rx = {
            let mut state = self.state();
            if state.known.front() == Some(&lease.seq) && state.host == lease.host {
                return;
            }
            let (tx, rx) = oneshot::channel();
            state.recording.insert(lease.seq, (lease.clone(), tx));
            rx
        };
        self.wake.notify_one();
        let _ = rx.await;
    }

    /// A page of `host` at `seq` was recorded (its turn, if it had it, ended); `next` are
    /// its host's first numbers not judged now, `others` the hosts that got their first URL
    /// from it. If the turn was the page's and stays on its host, the next page has it at
    /// once; `heads` learns it in the background.
    pub fn finished(&self, host: &str, seq: u64, next: &[u64], others: &[(String, u64)]) {
        let mut state = self.state();
        tracing::debug!(
            "recorded #{seq}; next {:?}; known {:?} judged {:?}",
            &next[..next.len().min(4)],
            state.known.iter().take(4).collect::<Vec<_>>(),
            state.judged
        );
        let mut second = state.second.clone();
        for (other, m) in others {
            if other != host && second.as_ref().is_none_or(|s| *m < s.seq) {
                second = Some(Head {
                    host: other.clone(),
                    seq: *m,
                });
            }
        }
        state.second.clone_from(&second);
        state.generation += 1;
        state.pending.insert(host.to_owned(), next.first().copied());
        if state.judged == Some(seq) {
            state.judged = None;
        }
        let had_turn = state.known.front() == Some(&seq) && state.host == host;
        if had_turn {
            // Not on this host any more: the poller asks (with what this worker just
            // learned).
            state.learn(host, next, second);
        }
        drop(state);
        self.wake.notify_one();
    }

    /// Notes whose turn it is (read from Redis at `generation`, if no page was recorded
    /// here since).
    fn advanced(&self, heads: Heads, generation: u64) {
        let mut state = self.state();
        tracing::debug!(
            "read {heads:?} at {generation} (now {}); known {:?} judged {:?}",
            state.generation,
            state.known.iter().take(4).collect::<Vec<_>>(),
            state.judged
        );
        if state.generation != generation {
            return;
        }
        let head = state.head();
        if state.judged.is_some() && state.judged_at.elapsed() >= self.timeout {
            // A page judged here that no record ended for as long as a head may stay (its
            // task gave up, or another worker recorded it): Redis knows better by now.
            tracing::info!(
                "#{:?} judged here was not recorded here: read from Redis",
                state.judged
            );
            state.judged = None;
        }
        if state.judged.is_some() && head.is_some() && head != heads.first {
            // A page judged here waits to be recorded after the head this worker knows:
            // Redis has not learned of it yet.
            return;
        }
        match heads.first {
            Some(first) => {
                let mut next: Vec<u64> = state
                    .known
                    .iter()
                    .copied()
                    .filter(|_| state.host == first.host)
                    .skip_while(|&s| s < first.seq)
                    .collect();
                if next.first() != Some(&first.seq) {
                    next = vec![first.seq];
                }
                state.learn(&first.host, &next, heads.second);
            }
            None => state.learn("", &[], None),
        }
    }

    /// Ends the wait of the page at `seq` to be recorded: the order will not come to it.
    fn record_now(&self, seq: u64) {
        if let Some((lease, tx)) = self.state().recording.remove(&seq) {
            tracing::info!(
                "#{seq} ({}) stops waiting to be recorded: no URL is in the order",
                lease.url
            );
            let _ = tx.send(());
        }
    }

    /// Tells the page `id` at `seq` what to do, out of the order.
    fn out_of_turn(&self, seq: u64, id: u64, turn: Turn) {
        let mut state = self.state();
        if let Some(list) = state.waiting.get_mut(&seq) {
            if let Some(i) = list.iter().position(|w| w.lease.id == id) {
                let _ = list.remove(i).tx.send(turn);
            }
            if list.is_empty() {
                state.waiting.remove(&seq);
            }
        }
    }

    /// Writes what `heads` is to learn (if anything) and reads whose turn it is.
    async fn flush(&self, shared: &mut SharedCrawl) -> Result<(), SharedError> {
        let (generation, hosts) = {
            let mut state = self.state();
            let hosts: Vec<(String, Option<u64>)> =
                std::mem::take(&mut state.pending).into_iter().collect();
            (state.generation, hosts)
        };
        let heads = shared.set_heads(&hosts).await;
        if heads.is_err() {
            // Not written: written with the next flush.
            let mut state = self.state();
            for (host, min) in hosts {
                state.pending.entry(host).or_insert(min);
            }
        }
        self.advanced(heads?, generation);
        Ok(())
    }

    /// Writes `heads` in the background, asks Redis whose turn it is while pages wait here,
    /// mends a stale head, and takes a stuck one out of the order. While the head is a page
    /// this worker is fetching or recording (`fetching`: its leases by URL id), this worker
    /// will say what comes next: no need to ask. Runs until the worker ends (aborted);
    /// [`close`] writes what is left.
    ///
    /// [`close`]: Self::close
    pub async fn poll(
        self: Arc<Self>,
        mut shared: SharedCrawl,
        fetching: Arc<Mutex<HashMap<u64, Lease>>>,
    ) {
        loop {
            let renew = {
                let mut state = self.state();
                if state.renewed.elapsed() >= self.lease / 3 {
                    state.renewed = Instant::now();
                    let fetching = fetching.lock().unwrap_or_else(PoisonError::into_inner);
                    let mut leases = state.leases();
                    leases.extend(fetching.values().cloned());
                    leases
                } else {
                    Vec::new()
                }
            };
            if !renew.is_empty()
                && let Err(e) = shared.renew(&renew).await
            {
                tracing::warn!("renewing leases: {e}");
            }
            let (pending, idle) = {
                let state = self.state();
                let head = state.head();
                let fetching = fetching.lock().unwrap_or_else(PoisonError::into_inner);
                let pending = !state.pending.is_empty();
                let ours = state.since.elapsed() < self.timeout
                    && head.is_some_and(|h| {
                        state.judged.is_some()
                            || state.recording.contains_key(&h.seq)
                            || state.waiting.contains_key(&h.seq)
                            || fetching
                                .values()
                                .any(|l| l.seq == h.seq && l.host == h.host)
                    });
                (
                    pending,
                    (state.waiting.is_empty() && state.recording.is_empty()) || ours,
                )
            };
            let step = if idle && !pending {
                None
            } else if idle {
                Some(self.flush(&mut shared).await)
            } else {
                Some(self.poll_once(&mut shared).await)
            };
            match step {
                None => {
                    let _ =
                        tokio::time::timeout(Duration::from_millis(50), self.wake.notified()).await;
                }
                Some(Err(e)) => {
                    tracing::warn!("reading whose turn it is: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Some(Ok(())) if idle => {}
                Some(Ok(())) => {
                    let _ = tokio::time::timeout(POLL, self.wake.notified()).await;
                }
            }
        }
    }

    /// Writes what `heads` has not learned yet (the worker is leaving).
    pub async fn close(&self, shared: &mut SharedCrawl) -> Result<(), SharedError> {
        self.flush(shared).await
    }

    async fn poll_once(&self, shared: &mut SharedCrawl) -> Result<(), SharedError> {
        self.flush(shared).await?;
        let (head, generation) = {
            let state = self.state();
            (state.head(), state.generation)
        };
        // Pages before the head are no longer in the order (or `heads` is stale for them).
        let behind: Vec<(u64, String, u64)> = {
            let state = self.state();
            state
                .waiting
                .iter()
                .filter(|(seq, _)| head.as_ref().is_none_or(|h| **seq < h.seq))
                .flat_map(|(seq, list)| {
                    list.iter()
                        .map(|w| (*seq, w.lease.host.clone(), w.lease.id))
                })
                .collect()
        };
        for (seq, host, id) in behind {
            match shared.place(&host, id).await? {
                Place::InOrder(_) => {
                    let heads = shared.refresh_head(&host).await?;
                    self.advanced(heads, generation);
                }
                Place::Late | Place::Absent => self.out_of_turn(seq, id, Turn::Late),
                Place::Recorded => self.out_of_turn(seq, id, Turn::Recorded),
            }
        }
        let Some(head) = head else {
            // No URL waits anywhere: a page judged here and waiting to be recorded was
            // recorded by another worker (this worker's lease had run out) or left the
            // order, and no head will ever come to end its wait. Unless `heads` is stale.
            let recording: Vec<(u64, String, u64)> = self
                .state()
                .recording
                .iter()
                .map(|(seq, (lease, _))| (*seq, lease.host.clone(), lease.id))
                .collect();
            for (seq, host, id) in recording {
                if let Place::InOrder(_) = shared.place(&host, id).await? {
                    let heads = shared.refresh_head(&host).await?;
                    self.advanced(heads, generation);
                } else {
                    self.record_now(seq);
                }
            }
            return Ok(());
        };
        let (since, checked) = {
            let state = self.state();
            (state.since, state.checked)
        };
        if checked.elapsed() >= STALE {
            self.state().checked = Instant::now();
            let now = shared.refresh_head(&head.host).await?;
            if now.first.as_ref() != Some(&head) {
                self.advanced(now, generation);
                return Ok(());
            }
        }
        if since.elapsed() >= self.timeout && !self.holds(head.seq) {
            tracing::info!(
                "{} (#{}) was not judged in {:?}: it leaves the order",
                head.host,
                head.seq,
                self.timeout
            );
            let now = shared.release(&head).await?;
            self.advanced(now, generation);
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "../../redis/tests/server/mod.rs"]
#[allow(dead_code, reason = "the redis crate's tests restart it; these do not")]
mod redis_server;

#[cfg(test)]
mod tests {
    use super::redis_server::Server;
    use super::*;
    use silhouette_redis::SharedConfig;

    #[tokio::test]
    async fn a_page_another_worker_recorded_stops_waiting_once_the_order_is_empty() {
        let server = Server::start();
        let config = SharedConfig {
            lease: Duration::from_millis(100),
            host_interval: Duration::ZERO,
            ..SharedConfig::default()
        };
        let url = server.url();
        let join = || SharedCrawl::join(&url, "t", &[], config.clone());
        let mut ours = join().await.expect("joins");
        let mut theirs = join().await.expect("joins");
        let seed = url::Url::parse("http://a.test/").expect("URL");
        ours.add_seeds(&[seed]).await.expect("seeds");
        let lease = ours.lease(1).await.expect("lease").remove(0);
        // This worker's lease runs out; another worker leases the URL again and records it.
        tokio::time::sleep(Duration::from_millis(150)).await;
        let again = theirs.lease(1).await.expect("lease").remove(0);
        assert_eq!(again.id, lease.id);
        assert!(theirs.complete(&again, "{}", "kept").await.expect("record"));
        // This worker judged its copy and waits to record it; no URL is in the order.
        let turns = Arc::new(Turns::new(
            Duration::from_secs(3600),
            Duration::from_secs(3600),
        ));
        let poller = tokio::spawn(Arc::clone(&turns).poll(ours, Arc::default()));
        // A guard against the hang this test is about, not a speed limit.
        let waited = tokio::time::timeout(Duration::from_secs(60), turns.wait_record(&lease)).await;
        poller.abort();
        assert!(waited.is_ok(), "still waiting: {turns:?}");
        assert_eq!(turns.waiting(), 0);
    }
}
