//! robots.txt: fetched once per origin, cached with a TTL, consulted before
//! every request. Failure semantics follow Google's documentation: 4xx means
//! "allow all", 5xx/429/timeouts mean "wait and retry".

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use reqwest::header::LOCATION;
use texting_robots::Robot;
use tokio::sync::Mutex as AsyncMutex;
use tokio::time::Instant;
use url::Url;

use crate::FetchError;
use crate::backoff::parse_retry_after;
use crate::exchange::{OverLimit, read_body, send};
use crate::fetcher::Inner;

/// Redirects followed when fetching robots.txt (Google follows five).
const MAX_ROBOTS_REDIRECTS: usize = 5;
/// Above this many cached origins, expired entries are dropped.
const PRUNE_THRESHOLD: usize = 10_000;

/// A robots.txt as fetched, before parsing: what workers of one crawl share so that only one
/// of them fetches it
/// ([`Fetcher::fetch_robots_txt`](crate::Fetcher::fetch_robots_txt),
/// [`Fetcher::install_robots`](crate::Fetcher::install_robots)).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RobotsTxt {
    /// No usable robots.txt (a 4xx, a redirect nowhere): everything is allowed.
    AllowAll,
    /// The body (at most `robots_max_bytes`), parsed by whoever uses it.
    Body(Vec<u8>),
    /// Fetching failed in a way that means "try later" (5xx, 429, a broken body): the
    /// host's pages wait until it is fetched again.
    Unavailable,
}

#[derive(Debug)]
enum Rules {
    AllowAll,
    Parsed(Robot),
    /// Fetching failed in a way that means "try later".
    Unavailable,
}

#[derive(Debug)]
struct Entry {
    rules: Rules,
    expires: Instant,
}

type Slot = Arc<AsyncMutex<Option<Entry>>>;

/// Cached robots.txt per origin (`scheme://host:port`).
#[derive(Debug, Default)]
pub(crate) struct RobotsCache {
    map: Mutex<HashMap<String, Slot>>,
}

impl RobotsCache {
    fn slot(&self, origin: &str) -> Slot {
        let mut map = self
            .map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(slot) = map.get(origin) {
            return Arc::clone(slot);
        }
        if map.len() >= PRUNE_THRESHOLD {
            let now = Instant::now();
            map.retain(|_, slot| match slot.try_lock() {
                Ok(entry) => entry.as_ref().is_some_and(|e| e.expires > now),
                Err(_) => true,
            });
        }
        let slot = Slot::default();
        map.insert(origin.to_owned(), Arc::clone(&slot));
        slot
    }
}

impl Inner {
    /// `Ok` if robots.txt lets our agent fetch `url`; fetches and caches
    /// robots.txt for the origin when needed (one fetch per origin at a time).
    pub(crate) async fn robots_allows(&self, url: &Url) -> Result<(), FetchError> {
        let origin = url.origin().ascii_serialization();
        let slot = self.robots.slot(&origin);
        let mut guard = slot.lock().await;
        let fresh = guard.as_ref().is_some_and(|e| e.expires > Instant::now());
        if !fresh {
            let (txt, ttl) = self
                .fetch_robots(url)
                .await
                .map_err(|e| e.with_url(url.clone()))?;
            let (rules, _) = self.rules(url, &txt);
            *guard = Some(Entry {
                rules,
                expires: Instant::now() + ttl,
            });
        }
        let Some(entry) = guard.as_ref() else {
            return Ok(());
        };
        match &entry.rules {
            Rules::AllowAll => Ok(()),
            Rules::Parsed(robot) if robot.allowed(url.as_str()) => Ok(()),
            Rules::Parsed(_) => Err(FetchError::RobotsDisallowed { url: url.clone() }),
            Rules::Unavailable => Err(FetchError::RobotsUnavailable {
                url: url.clone(),
                retry_after: entry.expires.saturating_duration_since(Instant::now()),
            }),
        }
    }

    /// Installs `txt` as `url`'s origin's robots.txt until `ttl` from now; returns the
    /// Crawl-delay it sets (capped), if any.
    pub(crate) async fn install_robots(
        &self,
        url: &Url,
        txt: &RobotsTxt,
        ttl: Duration,
    ) -> Option<Duration> {
        let slot = self.robots.slot(&url.origin().ascii_serialization());
        let mut guard = slot.lock().await;
        let (rules, delay) = self.rules(url, txt);
        *guard = Some(Entry {
            rules,
            expires: Instant::now() + ttl,
        });
        delay
    }

    /// The rules of a fetched robots.txt; a Crawl-delay is applied to `url`'s host (and
    /// returned).
    fn rules(&self, url: &Url, txt: &RobotsTxt) -> (Rules, Option<Duration>) {
        match txt {
            RobotsTxt::AllowAll => (Rules::AllowAll, None),
            RobotsTxt::Unavailable => (Rules::Unavailable, None),
            RobotsTxt::Body(body) => match Robot::new(&self.config.robots_agent, body) {
                Ok(robot) => {
                    let delay = self.apply_crawl_delay(url, &robot);
                    (Rules::Parsed(robot), delay)
                }
                Err(err) => {
                    tracing::info!(%url, %err, "unparsable robots.txt, allowing all");
                    (Rules::AllowAll, None)
                }
            },
        }
    }

    fn apply_crawl_delay(&self, url: &Url, robot: &Robot) -> Option<Duration> {
        let delay = robot.delay.filter(|d| d.is_finite() && *d > 0.0)?;
        let cap = self.config.max_crawl_delay;
        let wanted = Duration::try_from_secs_f32(delay).unwrap_or(cap);
        let delay = if wanted > cap {
            tracing::warn!(%url, ?wanted, ?cap, "robots.txt Crawl-delay capped");
            cap
        } else {
            wanted
        };
        if let Some(host) = crate::host::host_key(url) {
            self.hosts.get(&host).set_crawl_delay(delay);
        }
        Some(delay)
    }

    /// Fetches robots.txt for `page`'s origin, and how long to keep it. Errors are
    /// returned only for failures that concern the host itself (address policy, DNS,
    /// connect, TLS, host backoff); everything else becomes rules to cache.
    pub(crate) async fn fetch_robots(
        &self,
        page: &Url,
    ) -> Result<(RobotsTxt, Duration), FetchError> {
        let config = &self.config;
        let unavailable = |wait: Option<Duration>| {
            let ttl = wait.map_or(config.robots_retry_interval, |w| {
                w.max(config.robots_retry_interval)
            });
            Ok((RobotsTxt::Unavailable, ttl))
        };
        let allow_all = || Ok((RobotsTxt::AllowAll, config.robots_ttl));
        let mut current = page
            .join("/robots.txt")
            .map_err(|_| FetchError::NoHost { url: page.clone() })?;
        for _ in 0..=MAX_ROBOTS_REDIRECTS {
            if !matches!(current.scheme(), "http" | "https") {
                return allow_all();
            }
            self.allow.check_url(&current)?;
            let Some(host_name) = crate::host::host_key(&current) else {
                return allow_all();
            };
            let host = self.hosts.get(&host_name);
            let permits = self.gate(&current, &host).await?;
            // A connection closed before the answer (a kept-alive one the server dropped)
            // is asked again on a new one, as for a page.
            let mut sent = send(&self.client, &current, config).await;
            for _ in 0..config.max_retries {
                if !matches!(sent, Err(FetchError::ConnectionClosed { .. })) {
                    break;
                }
                sent = send(&self.client, &current, config).await;
            }
            let head = match sent {
                Ok(head) => head,
                Err(err) => {
                    tracing::info!(url = %current, %err, "robots.txt fetch failed");
                    return match err {
                        FetchError::BlockedAddress { .. }
                        | FetchError::Dns { .. }
                        | FetchError::Connect { .. }
                        | FetchError::Tls { .. }
                        | FetchError::Timeout {
                            kind: crate::TimeoutKind::Connect,
                            ..
                        } => Err(err),
                        _ => unavailable(None),
                    };
                }
            };
            let status = head.response.status();
            if status.is_success() {
                host.succeed();
                let body = read_body(
                    head,
                    &current,
                    config.robots_max_bytes,
                    OverLimit::Truncate,
                    config,
                )
                .await;
                drop(permits);
                return match body {
                    Ok(body) => Ok((RobotsTxt::Body(body.to_vec()), config.robots_ttl)),
                    Err(err) => {
                        tracing::info!(url = %current, %err, "robots.txt body failed");
                        unavailable(None)
                    }
                };
            }
            let code = status.as_u16();
            if code == 429 || status.is_server_error() {
                let retry_after = parse_retry_after(head.response.headers(), SystemTime::now());
                host.penalize(retry_after, config.backoff_base, config.backoff_cap);
                tracing::info!(url = %current, code, "robots.txt unavailable");
                return unavailable(retry_after);
            }
            host.succeed();
            if status.is_redirection() {
                let next = head
                    .response
                    .headers()
                    .get(LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|loc| current.join(loc).ok());
                match next {
                    Some(next) => {
                        current = next;
                        continue;
                    }
                    None => return allow_all(),
                }
            }
            // 4xx (other than 429) and anything odd: no usable robots.txt.
            return allow_all();
        }
        allow_all()
    }
}
