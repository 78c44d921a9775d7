//! A worker's pages wait for their turn: a shared crawl judges one page at a time, in the
//! canonical order (`silhouette_redis::SharedCrawl::heads`), whichever worker fetched it.
//!
//! A page task that fetched its page calls [`Turns::wait`]. The worker knows whose turn it
//! is from Redis (`heads`: whose turn, and the first URL of another host), and from the
//! pages it finishes itself: when a page's host still has the smallest number after it
//! ([`Turns::finished`]), the turn stays on that host and is handed over without asking
//! Redis, which learns it from a background write (the poller). The poller also asks Redis
//! while pages wait and the head is another worker's, mends what a dead worker left (a
//! stale head, mended from the host's own order set after a second), and takes a head
//! stuck longer than `crawl.reorder-timeout-secs` (at least the lease time and 5 s more, so
//! that a dead worker's URLs come back and are judged in order first) out of the order:
//! the pages behind it are judged, and it is judged when fetched, marked out of order.

use std::collections::{BTreeMap, HashMap};
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
    host: String,
    id: u64,
    tx: oneshot::Sender<Turn>,
}

struct State {
    heads: Heads,
    /// Since when the head is what it is, or pages wait (the later).
    since: Instant,
    /// When the head was last checked against its host.
    checked: Instant,
    /// Pages waiting for their turn, by sequence number.
    waiting: BTreeMap<u64, Vec<Waiter>>,
    /// What `heads` is to learn: hosts' smallest numbers, and the pages whose turn ended.
    pending: BTreeMap<String, Option<u64>>,
    done: Vec<u64>,
    /// Counts the pages finished here: a reply from Redis read before the last of them is
    /// older than what this worker knows.
    generation: u64,
}

/// The pages of one worker waiting for their turn.
pub struct Turns {
    state: Mutex<State>,
    wake: Notify,
    timeout: Duration,
}

impl std::fmt::Debug for Turns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Turns")
            .field("waiting", &self.waiting())
            .finish_non_exhaustive()
    }
}

impl Turns {
    /// `timeout`: how long pages wait behind a head before it leaves the order.
    pub fn new(timeout: Duration) -> Self {
        let now = Instant::now();
        Self {
            state: Mutex::new(State {
                heads: Heads::default(),
                since: now,
                checked: now,
                waiting: BTreeMap::new(),
                pending: BTreeMap::new(),
                done: Vec::new(),
                generation: 0,
            }),
            wake: Notify::new(),
            timeout,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Pages waiting for their turn.
    pub fn waiting(&self) -> usize {
        self.state().waiting.values().map(Vec::len).sum()
    }

    /// Whether the page at `seq` waits here.
    pub fn holds(&self, seq: u64) -> bool {
        self.state().waiting.contains_key(&seq)
    }

    /// Waits for `lease`'s turn (or Ctrl-C).
    pub async fn wait(&self, lease: &Lease, cancelled: &mut watch::Receiver<bool>) -> Turn {
        let rx = {
            let mut state = self.state();
            if state
                .heads
                .first
                .as_ref()
                .is_some_and(|h| h.seq == lease.seq && h.host == lease.host)
            {
                return Turn::InOrder;
            }
            if state.waiting.is_empty() {
                state.since = state.since.max(Instant::now());
            }
            let (tx, rx) = oneshot::channel();
            state.waiting.entry(lease.seq).or_default().push(Waiter {
                host: lease.host.clone(),
                id: lease.id,
                tx,
            });
            rx
        };
        self.wake.notify_one();
        tokio::select! {
            turn = rx => turn.unwrap_or(Turn::Cancelled),
            _ = cancelled.wait_for(|c| *c) => {
                let mut state = self.state();
                if let Some(list) = state.waiting.get_mut(&lease.seq) {
                    list.retain(|w| w.id != lease.id);
                    if list.is_empty() {
                        state.waiting.remove(&lease.seq);
                    }
                }
                Turn::Cancelled
            }
        }
    }

    /// A page of `host` at `seq` was recorded (its turn, if it had it, ended); `min` is
    /// its host's smallest number not judged now, `others` the hosts that got their first
    /// URL from it. If the turn was the page's and stays on its host, the next page has it
    /// at once; `heads` learns it in the background.
    pub fn finished(&self, host: &str, seq: u64, min: Option<u64>, others: &[(String, u64)]) {
        let mut state = self.state();
        for (other, m) in others {
            if other != host && state.heads.second.as_ref().is_none_or(|s| *m < s.seq) {
                state.heads.second = Some(Head {
                    host: other.clone(),
                    seq: *m,
                });
            }
        }
        state.generation += 1;
        state.pending.insert(host.to_owned(), min);
        state.done.push(seq);
        let had_turn = state
            .heads
            .first
            .as_ref()
            .is_some_and(|h| h.seq == seq && h.host == host);
        if had_turn {
            let second = state.heads.second.clone();
            let stays = min.filter(|m| second.as_ref().is_none_or(|o| *m < o.seq));
            let first = stays.map(|seq| Head {
                host: host.to_owned(),
                seq,
            });
            // Not on this host: the poller asks (with what this worker just learned).
            Self::advance(&mut state, Heads { first, second });
        }
        drop(state);
        self.wake.notify_one();
    }

    /// Notes whose turn it is now (read from Redis at `generation`, if no page was
    /// finished here since); wakes that page if it waits here.
    fn advanced(&self, heads: Heads, generation: u64) {
        let mut state = self.state();
        if state.generation == generation {
            Self::advance(&mut state, heads);
        }
    }

    fn advance(state: &mut State, heads: Heads) {
        if state.heads.first != heads.first {
            state.since = Instant::now();
            state.checked = state.since;
        }
        if let Some(h) = &heads.first
            && let Some(list) = state.waiting.remove(&h.seq)
        {
            let (ours, others): (Vec<Waiter>, Vec<Waiter>) =
                list.into_iter().partition(|w| w.host == h.host);
            for w in ours {
                let _ = w.tx.send(Turn::InOrder);
            }
            if !others.is_empty() {
                state.waiting.insert(h.seq, others);
            }
        }
        state.heads = heads;
    }

    /// Tells the page `id` at `seq` what to do, out of the order.
    fn out_of_turn(&self, seq: u64, id: u64, turn: Turn) {
        let mut state = self.state();
        if let Some(list) = state.waiting.get_mut(&seq) {
            if let Some(i) = list.iter().position(|w| w.id == id) {
                let _ = list.remove(i).tx.send(turn);
            }
            if list.is_empty() {
                state.waiting.remove(&seq);
            }
        }
    }

    /// Writes what `heads` is to learn (if anything) and reads whose turn it is.
    async fn flush(&self, shared: &mut SharedCrawl) -> Result<(), SharedError> {
        let (generation, done, hosts) = {
            let mut state = self.state();
            let done = std::mem::take(&mut state.done);
            let hosts: Vec<(String, Option<u64>)> =
                std::mem::take(&mut state.pending).into_iter().collect();
            (state.generation, done, hosts)
        };
        let heads = shared.set_heads(&done, &hosts).await;
        if heads.is_err() {
            // Not written: written with the next flush.
            let mut state = self.state();
            state.done.extend(done);
            for (host, min) in hosts {
                state.pending.entry(host).or_insert(min);
            }
        }
        self.advanced(heads?, generation);
        Ok(())
    }

    /// Writes `heads` in the background, asks Redis whose turn it is while pages wait here,
    /// mends a stale head, and takes a stuck one out of the order. While the head is a page
    /// this worker is fetching (`fetching`: its leases by URL id), its own record will say
    /// what comes next: no need to ask. Runs until the worker ends (aborted); [`close`]
    /// writes what is left.
    ///
    /// [`close`]: Self::close
    pub async fn poll(
        self: Arc<Self>,
        mut shared: SharedCrawl,
        fetching: Arc<Mutex<HashMap<u64, Lease>>>,
    ) {
        loop {
            let (pending, idle) = {
                let state = self.state();
                let head = state.heads.first.as_ref();
                let fetching = fetching.lock().unwrap_or_else(PoisonError::into_inner);
                let pending = !state.pending.is_empty() || !state.done.is_empty();
                let ours = state.since.elapsed() < self.timeout
                    && head.is_some_and(|h| {
                        fetching
                            .values()
                            .any(|l| l.seq == h.seq && l.host == h.host)
                    });
                (pending, state.waiting.is_empty() || ours)
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
            (state.heads.first.clone(), state.generation)
        };
        // Pages before the head are no longer in the order (or `heads` is stale for them).
        let behind: Vec<(u64, String, u64)> = {
            let state = self.state();
            state
                .waiting
                .iter()
                .filter(|(seq, _)| head.as_ref().is_none_or(|h| **seq < h.seq))
                .flat_map(|(seq, list)| list.iter().map(|w| (*seq, w.host.clone(), w.id)))
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
        let Some(head) = head else { return Ok(()) };
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
