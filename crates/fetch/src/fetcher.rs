//! [`Fetcher`]: the shared client, the politeness gate, retries and redirects.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use reqwest::header::{CONTENT_TYPE, LOCATION};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, sleep_until};
use url::Url;

use crate::address::{AllowList, PolicyResolver};
use crate::backoff::{backoff_delay, parse_retry_after};
use crate::content::{ContentType, sniff_html};
use crate::exchange::{OverLimit, read_body, request_head, send};
use crate::host::{HostState, HostTable};
use crate::robots::{RobotsCache, RobotsTxt};
use crate::{
    ConfigError, FetchConfig, FetchContext, FetchError, FetchOutcome, FetchedPage, TimeoutKind,
};

/// Fetches pages politely and turns every failure into a typed outcome.
///
/// Cheap to clone (an `Arc` inside) and `Send + Sync`: share one per crawl.
/// One HTTP client (connection pool, HTTP/1.1 and HTTP/2, rustls) serves every request;
/// bodies are decoded here (`gzip`, `deflate`), so the response headers stay as sent.
#[derive(Clone)]
pub struct Fetcher {
    inner: Arc<Inner>,
}

/// Shared state behind a [`Fetcher`].
pub(crate) struct Inner {
    pub(crate) config: FetchConfig,
    pub(crate) client: reqwest::Client,
    pub(crate) allow: Arc<AllowList>,
    pub(crate) hosts: HostTable,
    pub(crate) robots: RobotsCache,
    global: Arc<Semaphore>,
}

/// Slots held while a request is in flight.
#[derive(Debug)]
pub(crate) struct Permits {
    _host: OwnedSemaphorePermit,
    _global: OwnedSemaphorePermit,
}

/// Where one hop ended.
enum Hop {
    Page(FetchedPage),
    Redirect(Url),
}

/// A failed attempt, and whether retrying it may help.
struct Failed {
    error: FetchError,
    retryable: bool,
    /// Whether only this URL waits before it is tried again (a page's own server error),
    /// not its whole host (a host that cannot be reached or asks to slow down).
    page_only: bool,
}

impl From<FetchError> for Failed {
    fn from(error: FetchError) -> Self {
        let retryable = matches!(
            error,
            FetchError::Connect { .. }
                | FetchError::ConnectionClosed { .. }
                | FetchError::Timeout {
                    kind: TimeoutKind::Connect,
                    ..
                }
        );
        Self {
            error,
            retryable,
            page_only: false,
        }
    }
}

impl fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fetcher")
            .field("config", &self.inner.config)
            .field(
                "available_global_slots",
                &self.inner.global.available_permits(),
            )
            .finish_non_exhaustive()
    }
}

fn without_fragment(url: &Url) -> Url {
    let mut url = url.clone();
    url.set_fragment(None);
    url
}

fn check_scheme(url: &Url) -> Result<(), FetchError> {
    match url.scheme() {
        "http" | "https" => Ok(()),
        other => Err(FetchError::UnsupportedScheme {
            url: url.clone(),
            scheme: other.to_owned(),
        }),
    }
}

impl Fetcher {
    /// Validates `config` and builds the shared HTTP client.
    pub fn new(config: FetchConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        let allow = Arc::new(AllowList::new(&config.address_policy));
        let client_error = |e: reqwest::Error| ConfigError::Client {
            message: e.to_string(),
        };
        let mut headers = reqwest::header::HeaderMap::new();
        for (name, value) in config.extra_headers() {
            if let (Ok(name), Ok(value)) = (
                reqwest::header::HeaderName::from_bytes(name.as_bytes()),
                reqwest::header::HeaderValue::from_str(value),
            ) {
                headers.append(name, value);
            }
        }
        let tls = crate::tls::client_config().map_err(|e| ConfigError::Client {
            message: format!("TLS set-up: {e}"),
        })?;
        let builder = reqwest::Client::builder()
            .default_headers(headers)
            .tls_backend_preconfigured(tls);
        let builder = match &config.proxy {
            Some(proxy) => {
                builder.proxy(reqwest::Proxy::all(proxy.as_str()).map_err(client_error)?)
            }
            None => builder.no_proxy(),
        };
        let client = builder
            .user_agent(config.user_agent.as_str())
            .redirect(reqwest::redirect::Policy::none())
            .referer(false)
            .connect_timeout(config.connect_timeout)
            .dns_resolver(PolicyResolver::new(Arc::clone(&allow)))
            .tcp_nodelay(true)
            .pool_idle_timeout(Duration::from_secs(90))
            .pool_max_idle_per_host(config.per_host_concurrency)
            .build()
            .map_err(client_error)?;
        let inner = Inner {
            hosts: HostTable::new(config.per_host_concurrency, config.host_request_interval),
            robots: RobotsCache::default(),
            global: Arc::new(Semaphore::new(config.global_concurrency)),
            allow,
            client,
            config,
        };
        Ok(Self {
            inner: Arc::new(inner),
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &FetchConfig {
        &self.inner.config
    }

    /// The HTTP head of the GET this fetcher sends for `url`, as a WARC `request` record
    /// stores it: request line, `Host`, `User-Agent`, `Accept`, the configured headers,
    /// `Accept-Encoding`, the empty line.
    ///
    /// ```
    /// let fetcher = silhouette_fetch::Fetcher::new(Default::default()).expect("valid");
    /// let url = url::Url::parse("http://127.0.0.1:8080/a?b=1").expect("valid");
    /// let head = String::from_utf8(fetcher.request_head(&url)).expect("text");
    /// assert!(head.starts_with("GET /a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"));
    /// assert!(head.ends_with("\r\n\r\n"));
    /// ```
    pub fn request_head(&self, url: &Url) -> Vec<u8> {
        request_head(url, &self.inner.config)
    }

    /// Exempts `host` (a name or IP literal, e.g. a seed's host) from the
    /// non-public address check from now on.
    pub fn allow_host(&self, host: &str) {
        self.inner.allow.add(host);
    }

    /// Fetches the robots.txt of `url`'s origin now (politely: the host's rate limit and
    /// backoff apply), without caching it, and says how long it may be kept. For workers
    /// that share one robots.txt: one fetches it, every one [`installs`](Self::install_robots) it.
    ///
    /// # Errors
    /// Only failures that concern the host itself (address policy, DNS, connect, TLS).
    pub async fn fetch_robots_txt(&self, url: &Url) -> Result<(RobotsTxt, Duration), FetchError> {
        self.inner
            .fetch_robots(url)
            .await
            .map_err(|e| e.with_url(url.clone()))
    }

    /// Makes `txt` the robots.txt of `url`'s origin for `ttl` (as if this fetcher had just
    /// fetched it: its Crawl-delay spaces the host's requests from now). Returns that
    /// Crawl-delay, capped at `max_crawl_delay`.
    pub async fn install_robots(
        &self,
        url: &Url,
        txt: &RobotsTxt,
        ttl: Duration,
    ) -> Option<Duration> {
        self.inner.install_robots(url, txt, ttl).await
    }

    /// Fetches `url` (GET), following redirects itself so that every hop is
    /// checked against `ctx`'s redirect policy, robots.txt, the address
    /// policy and the host's rate limit and backoff. Never panics; every
    /// failure is a [`FetchError`] inside the outcome.
    pub async fn fetch(&self, url: &Url, ctx: &FetchContext) -> FetchOutcome {
        let started = Instant::now();
        let requested_url = without_fragment(url);
        let mut chain = Vec::new();
        let mut attempts = 0;
        let result = self
            .inner
            .fetch_chain(&requested_url, ctx, &mut chain, &mut attempts)
            .await;
        if let Err(err) = &result {
            tracing::debug!(url = %requested_url, %err, "fetch failed");
        }
        FetchOutcome {
            final_url: chain.last().unwrap_or(&requested_url).clone(),
            requested_url,
            redirect_chain: chain,
            attempts,
            elapsed: started.elapsed(),
            result,
        }
    }
}

impl Inner {
    async fn fetch_chain(
        &self,
        start: &Url,
        ctx: &FetchContext,
        chain: &mut Vec<Url>,
        attempts: &mut u32,
    ) -> Result<FetchedPage, FetchError> {
        let mut current = start.clone();
        let mut seen = HashSet::from([start.clone()]);
        loop {
            check_scheme(&current)?;
            self.allow.check_url(&current)?;
            let next = match self
                .fetch_hop(&current, attempts, ctx.reads_any_body())
                .await?
            {
                Hop::Page(page) => return Ok(page),
                Hop::Redirect(next) => without_fragment(&next),
            };
            let over_limit = chain.len() >= self.config.max_redirects as usize;
            chain.push(next.clone());
            if over_limit {
                return Err(FetchError::TooManyRedirects {
                    url: next,
                    limit: self.config.max_redirects,
                });
            }
            if !seen.insert(next.clone()) {
                return Err(FetchError::RedirectLoop { url: next });
            }
            check_scheme(&next)?;
            if !ctx.allows_redirect(&current, &next) {
                return Err(FetchError::RedirectRejected { url: next });
            }
            tracing::trace!(from = %current, to = %next, "following redirect");
            current = next;
        }
    }

    /// One URL, with retries for connect errors, connections closed before a response, 5xx,
    /// 429 and 503.
    async fn fetch_hop(
        &self,
        url: &Url,
        attempts: &mut u32,
        any_body: bool,
    ) -> Result<Hop, FetchError> {
        let host_name =
            crate::host::host_key(url).ok_or_else(|| FetchError::NoHost { url: url.clone() })?;
        let host = self.hosts.get(&host_name);
        let mut retries = 0;
        loop {
            match self.attempt(url, &host, attempts, any_body).await {
                Ok(hop) => return Ok(hop),
                Err(failed) if failed.retryable && retries < self.config.max_retries => {
                    if retries > 0 && matches!(failed.error, FetchError::ConnectionClosed { .. }) {
                        // Closed again on a new connection: not a kept-alive connection the
                        // server dropped, but a server that drops them all; its host waits.
                        host.penalize(None, self.config.backoff_base, self.config.backoff_cap);
                    }
                    let wait = host
                        .backoff_until()
                        .map(|t| t.saturating_duration_since(Instant::now()))
                        .unwrap_or_default();
                    if wait > self.config.max_host_wait {
                        return Err(failed.error);
                    }
                    retries += 1;
                    if failed.page_only {
                        // This URL's own backoff: the host's other pages go on.
                        let own = backoff_delay(
                            retries,
                            self.config.backoff_base,
                            self.config.backoff_cap,
                        );
                        if own > self.config.max_host_wait {
                            return Err(failed.error);
                        }
                        tokio::time::sleep(own).await;
                    }
                    tracing::debug!(%url, err = %failed.error, ?wait, retries, "retrying");
                }
                Err(failed) => return Err(failed.error),
            }
        }
    }

    /// Waits for the host's concurrency slot, backoff, rate limit, then a
    /// global slot. Fails with `HostBackoff` instead of waiting too long.
    pub(crate) async fn gate(&self, url: &Url, host: &HostState) -> Result<Permits, FetchError> {
        let protocol = |what: &str| FetchError::Protocol {
            url: url.clone(),
            message: format!("{what} semaphore closed"),
        };
        let host_permit = host.acquire().await.ok_or_else(|| protocol("host"))?;
        loop {
            if let Some(until) = host.backoff_until() {
                let wait = until.saturating_duration_since(Instant::now());
                if wait > self.config.max_host_wait {
                    return Err(FetchError::HostBackoff {
                        url: url.clone(),
                        retry_after: wait,
                    });
                }
                sleep_until(until).await;
                continue;
            }
            host.wait_rate().await;
            if host.backoff_until().is_none() {
                break;
            }
        }
        let global = Arc::clone(&self.global)
            .acquire_owned()
            .await
            .map_err(|_| protocol("global"))?;
        Ok(Permits {
            _host: host_permit,
            _global: global,
        })
    }

    async fn attempt(
        &self,
        url: &Url,
        host: &HostState,
        attempts: &mut u32,
        any_body: bool,
    ) -> Result<Hop, Failed> {
        let config = &self.config;
        let penalize_connect = |err: FetchError| {
            let failed = Failed::from(err);
            // A host that cannot be reached backs off; a connection it closed is tried
            // again at once, on a new one.
            if failed.retryable && !matches!(failed.error, FetchError::ConnectionClosed { .. }) {
                host.penalize(None, config.backoff_base, config.backoff_cap);
            }
            failed
        };
        self.robots_allows(url).await.map_err(penalize_connect)?;
        let permits = self.gate(url, host).await?;
        *attempts += 1;
        let head = send(&self.client, url, config)
            .await
            .map_err(penalize_connect)?;
        let status = head.response.status();
        let code = status.as_u16();
        let headers = head.response.headers();

        if status.is_success() {
            host.succeed();
            let content_type =
                ContentType::parse(headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()));
            let header_list = headers
                .iter()
                .map(|(n, v)| {
                    (
                        n.to_string(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect();
            let declared_html = content_type.is_html();
            let read = declared_html.unwrap_or(true) || config.fetch_non_html_body || any_body;
            let body = if read {
                read_body(head, url, config.max_body_bytes, OverLimit::Fail, config).await?
            } else {
                drop(head);
                Bytes::new()
            };
            drop(permits);
            let is_html = declared_html.unwrap_or_else(|| sniff_html(&body));
            return Ok(Hop::Page(FetchedPage {
                reason: status.canonical_reason().unwrap_or_default().to_owned(),
                headers: header_list,
                status: code,
                content_type: content_type.raw,
                media_type: content_type.media_type,
                charset: content_type.charset,
                is_html,
                body_fetched: read,
                body,
            }));
        }
        if matches!(code, 301 | 302 | 303 | 307 | 308) {
            host.succeed();
            let location = headers
                .get(LOCATION)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                .unwrap_or_default();
            return match url.join(location.trim()) {
                Ok(next) if !location.trim().is_empty() => Ok(Hop::Redirect(next)),
                _ => Err(FetchError::InvalidRedirect {
                    url: url.clone(),
                    location,
                }
                .into()),
            };
        }
        let error = |retry_after| FetchError::HttpStatus {
            url: url.clone(),
            status: code,
            retry_after,
        };
        if code == 429 || code == 503 {
            let retry_after = parse_retry_after(headers, SystemTime::now());
            let wait = host.penalize(retry_after, config.backoff_base, config.backoff_cap);
            tracing::info!(%url, code, ?wait, "host asked us to slow down");
            return Err(Failed {
                error: error(retry_after),
                retryable: true,
                page_only: false,
            });
        }
        if status.is_server_error() {
            // A gateway's 502 and 504 back the whole host off; any other server error is
            // this page's own (`status_backs_off_host`).
            let host_wide = crate::status_backs_off_host(code);
            if host_wide {
                host.penalize(None, config.backoff_base, config.backoff_cap);
            }
            return Err(Failed {
                error: error(None),
                retryable: true,
                page_only: !host_wide,
            });
        }
        host.succeed();
        Err(error(None).into())
    }
}
