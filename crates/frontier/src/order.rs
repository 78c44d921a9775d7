//! The order in which a crawl judges its pages: the order their URLs were found, whatever
//! the order their fetches end in.
//!
//! Every URL gets its id when it is found, and a page's links are found when the page is
//! judged; so if pages are judged in id order, the ids, and with them every decision, are the
//! same on every run of the same crawl of the same site: at any concurrency, with any
//! timing, across a restart (the state keeps the ids). A fetch that ends early waits in a
//! buffer until every URL found before it was judged. The buffer is bounded by a window of
//! ids: only URLs within `window` ids of the oldest one not yet judged are fetched. A URL
//! whose fetch is stuck (a slow host, a host that asked to wait) does not hold the crawl
//! forever: once pages wait behind it for `timeout`, it leaves the order, the pages behind it
//! are judged, and it is judged when its fetch ends, marked as judged out of order.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::time::{Duration, Instant};

use crate::{Fetched, Job};

/// Default window: URLs fetched ahead of the oldest one not yet judged.
pub const DEFAULT_REORDER_WINDOW: u64 = 1024;
/// Default time pages wait behind a stuck fetch before it is judged out of order.
pub const DEFAULT_REORDER_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Debug)]
pub(crate) struct Order {
    /// Ids queued or in flight, not judged, in the order (late ones are not).
    unjudged: BTreeSet<u64>,
    /// Fetches that ended, waiting for their turn.
    ready: BTreeMap<u64, (Job, Fetched)>,
    /// Ids that left the order: judged when their fetch ends.
    late: HashSet<u64>,
    head_since: Instant,
    window: u64,
    timeout: Duration,
}

impl Order {
    pub(crate) fn new(window: u64, timeout: Duration) -> Self {
        Self {
            unjudged: BTreeSet::new(),
            ready: BTreeMap::new(),
            late: HashSet::new(),
            head_since: Instant::now(),
            window: window.max(1),
            timeout,
        }
    }

    /// A URL was queued.
    pub(crate) fn queued(&mut self, id: u64) {
        if !self.late.contains(&id) {
            self.unjudged.insert(id);
        }
    }

    /// The oldest URL not yet judged.
    pub(crate) fn head(&self) -> Option<u64> {
        self.unjudged.first().copied()
    }

    /// Whether URL `id` may be fetched now: within the window, or out of the order.
    pub(crate) fn admits(&self, id: u64) -> bool {
        self.late.contains(&id)
            || self
                .head()
                .is_none_or(|head| id < head.saturating_add(self.window))
    }

    /// A fetch ended: it waits for its turn, or it is returned to be judged at once (it
    /// left the order).
    pub(crate) fn arrived(&mut self, job: Job, fetched: Fetched) -> Option<(Job, Fetched)> {
        if self.late.remove(&job.id) {
            return Some((job, fetched));
        }
        if !self.unjudged.contains(&job.id) {
            // Not in the order (a caller's own job): judged at once.
            return Some((job, fetched));
        }
        self.ready.insert(job.id, (job, fetched));
        None
    }

    /// The next page to judge in order, if its fetch has ended.
    pub(crate) fn next(&mut self) -> Option<(Job, Fetched)> {
        let head = self.head()?;
        let page = self.ready.remove(&head)?;
        self.unjudged.remove(&head);
        Some(page)
    }

    /// Takes the oldest URL out of the order if pages have waited behind it for the
    /// timeout (`force`: at once). Returns whether it did.
    pub(crate) fn release_head(&mut self, now: Instant, force: bool) -> bool {
        let Some(head) = self.head() else {
            return false;
        };
        let stuck = !self.ready.is_empty()
            && !self.ready.contains_key(&head)
            && now.saturating_duration_since(self.head_since) >= self.timeout;
        if !(force || stuck) {
            return false;
        }
        self.unjudged.remove(&head);
        self.late.insert(head);
        true
    }

    /// Notes that the head may have moved (from `before`); returns whether it did.
    pub(crate) fn moved(&mut self, before: Option<u64>, now: Instant) -> bool {
        let moved = self.head() != before;
        if moved {
            self.head_since = now;
        }
        moved
    }

    /// URLs not yet judged: in the order, and out of it.
    pub(crate) fn pending(&self) -> usize {
        self.unjudged.len() + self.late.len()
    }

    /// Fetches that ended and wait for their turn.
    pub(crate) fn waiting(&self) -> usize {
        self.ready.len()
    }
}

#[cfg(test)]
#[path = "order_tests.rs"]
mod tests;
