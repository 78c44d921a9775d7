//! Per-host queues, scheduled round-robin so that one slow or huge host
//! never blocks the others.
//!
//! [`HostQueues`] keeps one queue per host (keyed by [`host_port`](crate::host_port), as the
//! fetcher's politeness is) and a ring of the hosts that have work. Each
//! [`HostQueues::pop_ready`] takes one entry from the next host in the ring
//! that is ready, then sends that host to the back: a host with 100,000
//! queued URLs gets one turn per round, like a host with one. A host that
//! is not ready yet (its `next_allowed` instant, set by the caller after a
//! fetch, a backoff or a crawl-delay, is in the future; or it is held while
//! a fetch is in flight) waits in a timer heap and is skipped at no cost
//! until its time comes.
//!
//! Within a host, entries come out lowest depth first and, at equal depth,
//! in the order they were pushed: breadth-first, even when a deep page of
//! one host links to another host that is still at a shallow level.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap, VecDeque};
use std::time::Instant;

use url::Url;

/// One URL waiting to be fetched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueEntry<P = ()> {
    /// The canonical URL.
    pub url: Url,
    /// Links from the seed (seeds are 0).
    pub depth: u32,
    /// The page the link was found on (`None` for seeds).
    pub referrer: Option<Url>,
    /// Whatever else the caller wants to carry.
    pub payload: P,
}

impl QueueEntry {
    /// An entry with no payload.
    pub fn new(url: Url, depth: u32, referrer: Option<Url>) -> Self {
        Self {
            url,
            depth,
            referrer,
            payload: (),
        }
    }
}

/// An entry in a host's heap: lowest `(depth, seq)` first.
#[derive(Debug)]
struct Queued<P> {
    depth: u32,
    seq: u64,
    entry: QueueEntry<P>,
}

impl<P> PartialEq for Queued<P> {
    fn eq(&self, other: &Self) -> bool {
        (self.depth, self.seq) == (other.depth, other.seq)
    }
}

impl<P> Eq for Queued<P> {}

impl<P> PartialOrd for Queued<P> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<P> Ord for Queued<P> {
    fn cmp(&self, other: &Self) -> Ordering {
        // `BinaryHeap` pops the greatest: reverse, so the lowest comes first.
        (other.depth, other.seq).cmp(&(self.depth, self.seq))
    }
}

/// Where a host is in the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Nothing queued.
    Idle,
    /// In the ring (maybe not ready: checked when its turn comes).
    Ring,
    /// In the timer heap, under this generation (older heap items are stale).
    Waiting(u64),
    /// Work queued but held by the caller.
    Parked,
    /// Work queued, but its next entry is not admitted yet
    /// ([`HostQueues::pop_ready_where`]); back in the ring at [`HostQueues::unblock`].
    Blocked,
}

#[derive(Debug)]
struct Host<P> {
    queue: BinaryHeap<Queued<P>>,
    next_allowed: Option<Instant>,
    held: bool,
    place: Place,
}

/// Per-host queues with round-robin, readiness-aware scheduling.
///
/// ```
/// use std::time::{Duration, Instant};
/// use silhouette_frontier::{HostQueues, QueueEntry};
/// use url::Url;
///
/// let mut queues = HostQueues::new();
/// for u in ["http://a.example/1", "http://a.example/2", "http://b.example/1"] {
///     queues.push(QueueEntry::new(Url::parse(u)?, 1, None));
/// }
/// let now = Instant::now();
/// let first = queues.pop_ready(now).map(|e| e.url.to_string());
/// assert_eq!(first.as_deref(), Some("http://a.example/1"));
/// // a.example asks for a pause: b.example goes on meanwhile.
/// queues.set_next_allowed("a.example", now + Duration::from_secs(2));
/// let next = queues.pop_ready(now).map(|e| e.url.to_string());
/// assert_eq!(next.as_deref(), Some("http://b.example/1"));
/// assert!(queues.pop_ready(now).is_none());
/// assert_eq!(queues.next_ready_at(now), Some(now + Duration::from_secs(2)));
/// let later = queues.pop_ready(now + Duration::from_secs(2)).map(|e| e.url.to_string());
/// assert_eq!(later.as_deref(), Some("http://a.example/2"));
/// # Ok::<(), url::ParseError>(())
/// ```
#[derive(Debug)]
pub struct HostQueues<P = ()> {
    ids: HashMap<String, usize>,
    hosts: Vec<Host<P>>,
    ring: VecDeque<usize>,
    waiting: BinaryHeap<Reverse<(Instant, u64, usize)>>,
    generation: u64,
    seq: u64,
    len: usize,
    blocked: Vec<usize>,
}

impl<P> Default for HostQueues<P> {
    fn default() -> Self {
        Self {
            ids: HashMap::new(),
            hosts: Vec::new(),
            ring: VecDeque::new(),
            waiting: BinaryHeap::new(),
            generation: 0,
            seq: 0,
            len: 0,
            blocked: Vec::new(),
        }
    }
}

impl<P> HostQueues<P> {
    /// No queues.
    pub fn new() -> Self {
        Self::default()
    }

    fn host_id(&mut self, host: &str) -> usize {
        if let Some(id) = self.ids.get(host) {
            return *id;
        }
        let id = self.hosts.len();
        self.hosts.push(Host {
            queue: BinaryHeap::new(),
            next_allowed: None,
            held: false,
            place: Place::Idle,
        });
        self.ids.insert(host.to_owned(), id);
        id
    }

    /// Queues `entry` on its host's queue (a URL without a host, which a
    /// canonical URL never is, goes to the queue of host `""`).
    pub fn push(&mut self, entry: QueueEntry<P>) {
        let id = self.host_id(&crate::host_port(&entry.url).unwrap_or_default());
        self.seq += 1;
        let queued = Queued {
            depth: entry.depth,
            seq: self.seq,
            entry,
        };
        self.len += 1;
        let Some(host) = self.hosts.get_mut(id) else {
            return;
        };
        host.queue.push(queued);
        if host.place == Place::Idle {
            if host.held {
                host.place = Place::Parked;
            } else {
                host.place = Place::Ring;
                self.ring.push_back(id);
            }
        }
    }

    /// The next entry of the next host in turn that is ready at `now`
    /// (not held, `next_allowed` not after `now`); `None` if no host is.
    ///
    /// Skipping a host that is not ready costs `O(log hosts)` once, not at
    /// every call.
    pub fn pop_ready(&mut self, now: Instant) -> Option<QueueEntry<P>> {
        self.pop_ready_where(now, |_| true)
    }

    /// As [`HostQueues::pop_ready`], but only an entry whose payload `admit` accepts: a
    /// ready host whose next entry it refuses is blocked (skipped, not polled again) until
    /// [`HostQueues::unblock`].
    pub fn pop_ready_where(
        &mut self,
        now: Instant,
        admit: impl Fn(&P) -> bool,
    ) -> Option<QueueEntry<P>> {
        while let Some(Reverse((at, generation, id))) = self.waiting.peek().copied() {
            if at > now {
                break;
            }
            self.waiting.pop();
            if let Some(host) = self.hosts.get_mut(id)
                && host.place == Place::Waiting(generation)
            {
                host.place = Place::Ring;
                self.ring.push_back(id);
            }
        }
        while let Some(id) = self.ring.pop_front() {
            let Some(host) = self.hosts.get_mut(id) else {
                continue;
            };
            if host.held {
                host.place = Place::Parked;
                continue;
            }
            if let Some(at) = host.next_allowed
                && at > now
            {
                self.generation += 1;
                host.place = Place::Waiting(self.generation);
                self.waiting.push(Reverse((at, self.generation, id)));
                continue;
            }
            if host.queue.peek().is_some_and(|q| !admit(&q.entry.payload)) {
                host.place = Place::Blocked;
                self.blocked.push(id);
                continue;
            }
            let Some(queued) = host.queue.pop() else {
                host.place = Place::Idle;
                continue;
            };
            if host.queue.is_empty() {
                host.place = Place::Idle;
            } else {
                self.ring.push_back(id);
            }
            self.len -= 1;
            return Some(queued.entry);
        }
        None
    }

    /// Puts the blocked hosts back in turn: what [`HostQueues::pop_ready_where`] admits has
    /// changed.
    pub fn unblock(&mut self) {
        for id in std::mem::take(&mut self.blocked) {
            if let Some(host) = self.hosts.get_mut(id)
                && host.place == Place::Blocked
            {
                host.place = Place::Ring;
                self.ring.push_back(id);
            }
        }
    }

    /// `host` may not be fetched before `at` (a rate limit, a crawl-delay,
    /// a backoff). Also ends a [`HostQueues::hold`]. Replaces the previous
    /// instant, earlier or later.
    pub fn set_next_allowed(&mut self, host: &str, at: Instant) {
        let id = self.host_id(host);
        let Some(state) = self.hosts.get_mut(id) else {
            return;
        };
        state.next_allowed = Some(at);
        state.held = false;
        if matches!(state.place, Place::Waiting(_) | Place::Parked) {
            self.generation += 1;
            state.place = Place::Waiting(self.generation);
            self.waiting.push(Reverse((at, self.generation, id)));
        }
    }

    /// `host` is not ready until the next [`HostQueues::set_next_allowed`]
    /// for it: call it when a fetch starts, to keep one request per host in
    /// flight, and set the next allowed instant when the fetch ends.
    pub fn hold(&mut self, host: &str) {
        let id = self.host_id(host);
        if let Some(state) = self.hosts.get_mut(id) {
            state.held = true;
            if matches!(state.place, Place::Waiting(_)) {
                state.place = Place::Parked;
            }
        }
    }

    /// The instant set for `host` by [`HostQueues::set_next_allowed`].
    pub fn next_allowed(&self, host: &str) -> Option<Instant> {
        let state = self.hosts.get(*self.ids.get(host)?)?;
        state.next_allowed
    }

    /// When to call [`HostQueues::pop_ready`] again after it returned
    /// `None`: `now` if some host may be ready, else the earliest instant a
    /// waiting host becomes ready (possibly a little early, never late);
    /// `None` if nothing is queued or every host with work is held.
    pub fn next_ready_at(&self, now: Instant) -> Option<Instant> {
        if !self.ring.is_empty() {
            return Some(now);
        }
        self.waiting
            .peek()
            .map(|Reverse((at, _, _))| (*at).max(now))
    }

    /// Number of queued entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of entries queued for `host`.
    pub fn host_len(&self, host: &str) -> usize {
        self.ids
            .get(host)
            .and_then(|id| self.hosts.get(*id))
            .map_or(0, |state| state.queue.len())
    }

    /// Number of hosts ever seen (with or without queued entries).
    pub fn host_count(&self) -> usize {
        self.hosts.len()
    }
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod tests;
