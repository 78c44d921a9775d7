//! robots.txt shared by the workers of a crawl: the first worker to need a host's robots.txt
//! fetches it and stores it in Redis (`SharedRobots`); every worker installs what is stored
//! into its own fetcher before fetching from the host, so the fetcher never fetches it again
//! itself (a redirect to another host excepted).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use silhouette_fetch::{Fetcher, RobotsTxt};
use silhouette_redis::{RobotsState, SharedError, SharedRobots};
use url::Url;

/// The fetcher's own copy outlives the shared one by this much, so that it is always
/// replaced from Redis (when the shared one is read again) before it expires.
const LOCAL_MARGIN: Duration = Duration::from_secs(60);

/// How long the fetcher keeps `txt`: an unavailable robots.txt exactly as long as the shared
/// one (the fetcher tells the crawl to come back when it expires), rules a little longer.
fn local_ttl(txt: &RobotsTxt, ttl: Duration) -> Duration {
    match txt {
        RobotsTxt::Unavailable => ttl,
        _ => ttl + LOCAL_MARGIN,
    }
}

type Slot = Arc<tokio::sync::Mutex<Option<Instant>>>;

/// A worker's side of the shared robots.txt (cheap to clone: one per fetch task).
#[derive(Clone, Debug)]
pub struct RobotsShare {
    store: SharedRobots,
    /// Per host: until when the installed robots.txt is the shared one.
    known: Arc<Mutex<HashMap<String, Slot>>>,
}

/// How a robots.txt is stored in Redis.
fn encode(txt: &RobotsTxt) -> Vec<u8> {
    match txt {
        RobotsTxt::Body(body) => [b"B".as_slice(), body].concat(),
        RobotsTxt::Unavailable => b"U".to_vec(),
        _ => b"A".to_vec(),
    }
}

fn decode(value: &[u8]) -> RobotsTxt {
    match value.split_first() {
        Some((b'B', body)) => RobotsTxt::Body(body.to_vec()),
        Some((b'U', _)) => RobotsTxt::Unavailable,
        _ => RobotsTxt::AllowAll,
    }
}

impl RobotsShare {
    pub fn new(store: SharedRobots) -> Self {
        Self {
            store,
            known: Arc::default(),
        }
    }

    /// Makes sure `fetcher` has the crawl's robots.txt of `host` (`url`'s host): read from
    /// Redis, or fetched by this worker and stored there when nobody has it yet.
    ///
    /// # Errors
    /// Redis.
    pub async fn ensure(
        &self,
        fetcher: &Fetcher,
        url: &Url,
        host: &str,
    ) -> Result<(), SharedError> {
        let slot = Arc::clone(
            self.known
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(host.to_owned())
                .or_default(),
        );
        // One task of this worker at a time reads or fetches a host's robots.txt.
        let mut until = slot.lock().await;
        if until.is_some_and(|t| t > Instant::now()) {
            return Ok(());
        }
        let mut store = self.store.clone();
        let mut pause = Duration::from_millis(5);
        loop {
            match store.get(host).await? {
                RobotsState::Known { value, ttl } => {
                    let txt = decode(&value);
                    fetcher
                        .install_robots(url, &txt, local_ttl(&txt, ttl))
                        .await;
                    *until = Some(Instant::now() + ttl);
                    return Ok(());
                }
                RobotsState::Fetch => {
                    let Ok((txt, ttl)) = fetcher.fetch_robots_txt(url).await else {
                        // The host cannot be reached: the fetch says so itself.
                        return store.release(host).await;
                    };
                    let delay = fetcher
                        .install_robots(url, &txt, local_ttl(&txt, ttl))
                        .await;
                    store.put(host, &encode(&txt), ttl, delay).await?;
                    *until = Some(Instant::now() + ttl);
                    return Ok(());
                }
                RobotsState::Wait => {
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_millis(100));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(txt: RobotsTxt) {
        assert_eq!(decode(&encode(&txt)), txt);
    }

    #[test]
    fn stored_robots_read_back() {
        check(RobotsTxt::AllowAll);
        check(RobotsTxt::Unavailable);
        check(RobotsTxt::Body(b"User-agent: *\nDisallow: /x\n".to_vec()));
        check(RobotsTxt::Body(Vec::new()));
    }
}
