//! The network side of silhouette: a polite HTTP fetcher that turns every
//! kind of broken or hostile server into a typed outcome.
//!
//! Key types:
//! - [`FetchConfig`]: every limit (timeouts, body and header size, redirects),
//!   politeness knob (robots.txt TTL, crawl-delay cap, per-host rate and
//!   concurrency, global concurrency, retries, backoff) and the
//!   [`AddressPolicy`], with crawler defaults.
//! - [`Fetcher`]: one shared `reqwest` client plus per-host state; call
//!   [`Fetcher::fetch`] from many tasks at once.
//! - [`FetchOutcome`]: requested and final URL, redirect chain, attempts,
//!   elapsed time, and either a [`FetchedPage`] (status, content type,
//!   charset, `is_html`, body bytes) or a [`FetchError`].
//!
//! What a fetch does, per redirect hop: scheme check (`http`/`https` only),
//! the caller's [`RedirectPolicy`], robots.txt (cached per origin), the
//! address policy (IP literals up front, resolved addresses at connect time),
//! the host's concurrency cap, backoff and rate limit, then the request with
//! connect / first-byte / idle / total timeouts, a header-size cap and a body
//! cap counted after decompression. The fetcher asks for `gzip, deflate` and
//! decodes them itself, so [`FetchedPage::headers`] keep `Content-Encoding`,
//! `Transfer-Encoding` and `Content-Length` as the server sent them (a WARC
//! writer stores them under `X-Crawler-` names beside the decoded body).
//!
//! ```
//! use std::time::Duration;
//! use silhouette_fetch::{AddressPolicy, FetchConfig, FetchContext, Fetcher};
//!
//! let config = FetchConfig {
//!     host_request_interval: Some(Duration::from_millis(500)),
//!     max_body_bytes: 2 * 1024 * 1024,
//!     // The seed is a local demo server: let it (and only it) be private.
//!     address_policy: AddressPolicy::allowing(["127.0.0.1"]),
//!     ..FetchConfig::default()
//! };
//! let fetcher = Fetcher::new(config)?;
//! // Scope is the caller's business: reject redirects leaving the site.
//! let ctx = FetchContext::new()
//!     .with_redirect_policy(|to: &url::Url| to.host_str() == Some("127.0.0.1"));
//! # let _ = (fetcher, ctx);
//! # Ok::<(), silhouette_fetch::ConfigError>(())
//! ```
//!
//! Fetching (needs a server, so not run here):
//!
//! ```no_run
//! # async fn demo(fetcher: silhouette_fetch::Fetcher) {
//! use silhouette_fetch::FetchContext;
//! let url = url::Url::parse("http://127.0.0.1:8080/").expect("valid URL");
//! let outcome = fetcher.fetch(&url, &FetchContext::new()).await;
//! match &outcome.result {
//!     Ok(page) if page.is_html => println!("{} bytes of HTML", page.body.len()),
//!     Ok(page) => println!("not HTML: {:?}", page.media_type),
//!     Err(err) => println!("{}: {err}", err.code()),
//! }
//! # }
//! ```
#![deny(missing_docs)]

mod address;
mod backoff;
mod config;
mod content;
mod decode;
mod error;
mod exchange;
mod fetcher;
mod host;
mod outcome;
mod robots;
mod tls;

pub use address::is_non_public;
pub use config::{AddressPolicy, ConfigError, FetchConfig};
pub use content::sniff_html;
pub use error::{FetchError, TimeoutKind, status_backs_off_host};
pub use fetcher::Fetcher;
pub use outcome::{FetchContext, FetchOutcome, FetchedPage, RedirectPolicy};
pub use robots::RobotsTxt;
