//! A worker's pages wait for their turn: a shared crawl judges one page at a time, in the
//! canonical order (`silhouette_redis::SharedCrawl::head`), whichever worker fetched it.
//!
//! A page task that fetched its page calls [`Turns::wait`]. The worker knows whose turn it
//! is from the last page it finished (each record written returns the next head) or from
//! a poller that asks Redis while pages wait and the head is another worker's. The poller
//! also mends what a dead worker left: a stale head (mended from the host's own order set
//! after a second), and a head stuck longer than `crawl.reorder-timeout-secs` (at least the
//! lease time and 5 s more, so that a dead worker's URLs come back and are judged in
//! order first), which leaves the order: the pages behind it are judged, and it is judged
//! when fetched, marked out of order.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use silhouette_redis::{Head, Lease, Place, SharedCrawl, SharedError};
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
    head: Option<Head>,
    /// Since when the head is what it is, or pages wait (the later).
    since: Instant,
    /// When the head was last checked against its host.
    checked: Instant,
    /// Pages waiting for their turn, by sequence number.
    waiting: BTreeMap<u64, Vec<Waiter>>,
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
                head: None,
                since: now,
                checked: now,
                waiting: BTreeMap::new(),
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
                .head
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

    /// Notes whose turn it is now; wakes that page if it waits here.
    pub fn advanced(&self, head: Option<Head>) {
        let mut state = self.state();
        if state.head != head {
            state.since = Instant::now();
            state.checked = state.since;
        }
        if let Some(h) = &head
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
        state.head = head;
        drop(state);
        self.wake.notify_one();
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

    /// Asks Redis whose turn it is while pages wait here, mends a stale head, and takes a
    /// stuck one out of the order. While the head is a page this worker is fetching
    /// (`fetching`: its leases by URL id), its own record will say what comes next: no need
    /// to ask. Runs until the worker ends (aborted).
    pub async fn poll(
        self: Arc<Self>,
        mut shared: SharedCrawl,
        fetching: Arc<Mutex<HashMap<u64, Lease>>>,
    ) {
        loop {
            let ours = {
                let state = self.state();
                let head = state.head.as_ref();
                let fetching = fetching.lock().unwrap_or_else(PoisonError::into_inner);
                state.waiting.is_empty()
                    || (state.since.elapsed() < self.timeout
                        && head.is_some_and(|h| {
                            fetching
                                .values()
                                .any(|l| l.seq == h.seq && l.host == h.host)
                        }))
            };
            if ours {
                let _ = tokio::time::timeout(Duration::from_millis(50), self.wake.notified())
                    .await;
                continue;
            }
            if let Err(e) = self.poll_once(&mut shared).await {
                tracing::warn!("reading whose turn it is: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    async fn poll_once(&self, shared: &mut SharedCrawl) -> Result<(), SharedError> {
        let head = shared.head().await?;
        self.advanced(head.clone());
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
                    let head = shared.refresh_head(&host).await?;
                    self.advanced(head);
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
            if now.as_ref() != Some(&head) {
                self.advanced(now);
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
            self.advanced(now);
        }
        Ok(())
    }
}
