//! Per-host politeness state: concurrency cap, rate limit (governor, widened
//! by robots `Crawl-delay`), and backoff shared by every URL of the host.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::backoff::backoff_delay;

/// Locks a mutex, recovering from poisoning (state stays usable).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[derive(Debug, Default)]
struct Backoff {
    /// No request to the host before this instant.
    not_before: Option<Instant>,
    /// Consecutive failures (5xx, 429, connect errors); 0 after a success.
    failures: u32,
}

/// Politeness state of one host.
#[derive(Debug)]
pub(crate) struct HostState {
    permits: Arc<Semaphore>,
    limiter: Mutex<Option<Arc<DefaultDirectRateLimiter>>>,
    base_interval: Option<Duration>,
    backoff: Mutex<Backoff>,
}

fn limiter_for(interval: Duration) -> Option<Arc<DefaultDirectRateLimiter>> {
    Quota::with_period(interval)
        .map(|q| Arc::new(RateLimiter::direct(q.allow_burst(NonZeroU32::MIN))))
}

impl HostState {
    fn new(concurrency: usize, interval: Option<Duration>) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(concurrency)),
            limiter: Mutex::new(interval.and_then(limiter_for)),
            base_interval: interval,
            backoff: Mutex::new(Backoff::default()),
        }
    }

    /// Waits for a per-host concurrency slot.
    pub(crate) async fn acquire(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.permits).acquire_owned().await.ok()
    }

    /// When the host's backoff ends, if it is still in the future.
    pub(crate) fn backoff_until(&self) -> Option<Instant> {
        lock(&self.backoff)
            .not_before
            .filter(|t| *t > Instant::now())
    }

    /// Waits until the rate limiter lets one request through.
    pub(crate) async fn wait_rate(&self) {
        let limiter = lock(&self.limiter).clone();
        if let Some(limiter) = limiter {
            limiter.until_ready().await;
        }
    }

    /// Applies a robots.txt `Crawl-delay` (already capped): the spacing
    /// becomes the larger of the configured interval and the delay. The
    /// robots.txt request just made counts as the first request.
    pub(crate) fn set_crawl_delay(&self, delay: Duration) {
        let interval = self.base_interval.map_or(delay, |base| base.max(delay));
        if self.base_interval == Some(interval) || interval.is_zero() {
            return;
        }
        let limiter = limiter_for(interval);
        if let Some(l) = &limiter {
            // Consume the burst cell so the next request waits a full period.
            let _ = l.check();
        }
        *lock(&self.limiter) = limiter;
    }

    /// Records a failure: the whole host waits `retry_after` if given, else
    /// an exponential backoff. Returns the wait imposed.
    pub(crate) fn penalize(
        &self,
        retry_after: Option<Duration>,
        base: Duration,
        cap: Duration,
    ) -> Duration {
        let mut state = lock(&self.backoff);
        state.failures = state.failures.saturating_add(1);
        let wait = retry_after.unwrap_or_else(|| backoff_delay(state.failures, base, cap));
        let until = Instant::now() + wait;
        state.not_before = Some(state.not_before.map_or(until, |t| t.max(until)));
        wait
    }

    /// Records a success: consecutive failures reset (a pending
    /// `Retry-After` is still honoured).
    pub(crate) fn succeed(&self) {
        lock(&self.backoff).failures = 0;
    }

    /// True when nothing refers to this state and no backoff is pending.
    fn is_idle(self: &Arc<Self>) -> bool {
        Arc::strong_count(self) == 1
            && self.permits.available_permits() > 0
            && self.backoff_until().is_none()
    }
}

/// The key of a URL's politeness state: its host, with its port when that is not the scheme's
/// default. Two servers on one host but different ports are fetched as different hosts.
pub(crate) fn host_key(url: &url::Url) -> Option<String> {
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    })
}

/// All hosts' politeness state, keyed by [`host_key`], lower-cased.
#[derive(Debug)]
pub(crate) struct HostTable {
    map: Mutex<HashMap<String, Arc<HostState>>>,
    concurrency: usize,
    interval: Option<Duration>,
}

/// Above this many hosts, idle entries are dropped when a new one is added.
const PRUNE_THRESHOLD: usize = 10_000;

impl HostTable {
    pub(crate) fn new(concurrency: usize, interval: Option<Duration>) -> Self {
        Self {
            map: Mutex::new(HashMap::new()),
            concurrency,
            interval,
        }
    }

    pub(crate) fn get(&self, host: &str) -> Arc<HostState> {
        let key = host.to_ascii_lowercase();
        let mut map = lock(&self.map);
        if let Some(state) = map.get(&key) {
            return Arc::clone(state);
        }
        if map.len() >= PRUNE_THRESHOLD {
            // Idle hosts lose their rate-limiter history, which only matters
            // if they are fetched again within one interval.
            map.retain(|_, state| !state.is_idle());
        }
        let state = Arc::new(HostState::new(self.concurrency, self.interval));
        map.insert(key, Arc::clone(&state));
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn rate_limit_spaces_requests() {
        let state = HostState::new(1, Some(Duration::from_millis(100)));
        let start = Instant::now();
        for _ in 0..3 {
            state.wait_rate().await;
        }
        assert!(start.elapsed() >= Duration::from_millis(200));
    }

    #[test]
    fn penalize_and_reset() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build();
        let Ok(rt) = rt else { return };
        rt.block_on(async {
            let state = HostState::new(1, None);
            assert!(state.backoff_until().is_none());
            let wait = state.penalize(
                Some(Duration::from_secs(2)),
                Duration::from_secs(1),
                Duration::from_secs(8),
            );
            assert_eq!(wait, Duration::from_secs(2));
            assert!(state.backoff_until().is_some());
            state.succeed();
            assert!(
                state.backoff_until().is_some(),
                "Retry-After still honoured"
            );
        });
    }
}
