//! Pages named by URL on the command line (`fingerprint`, `text`, `compare`): fetched as the
//! crawl fetches a page (`silhouette-fetch`: robots.txt, the address policy with the URLs'
//! own hosts allowed as a crawl allows its seeds', every redirect checked, the configured
//! user agent and per-host interval), so that a page the crawl judged can be looked at as it
//! saw it.

use std::path::Path;

use anyhow::{Context, Result};
use silhouette_fetch::{FetchConfig, FetchContext, Fetcher};
use url::Url;

use silhouette_crawl::private_seed_host;

/// The URL an argument names, when it is one (`http://…`, `https://…`).
pub fn url_of(arg: &Path) -> Option<Url> {
    let s = arg.to_str()?;
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return None;
    }
    Url::parse(s).ok()
}

/// A page fetched by URL.
#[derive(Debug)]
pub struct WebPage {
    /// The body, decoded from its transfer and content encodings.
    pub bytes: Vec<u8>,
    /// The `Content-Type` header (for the charset).
    pub content_type: Option<String>,
}

/// Fetches the pages of one command, one after another.
pub struct WebPages {
    fetcher: Fetcher,
    runtime: tokio::runtime::Runtime,
}

impl WebPages {
    /// A fetcher with `fetch`'s settings that may reach the hosts of `urls` (private
    /// addresses included, as a crawl's seeds).
    ///
    /// # Errors
    /// A fetch setting the fetcher refuses, or no runtime.
    pub fn new(fetch: &FetchConfig, urls: &[Url]) -> Result<Self> {
        let mut config = fetch.clone();
        config
            .address_policy
            .allowed_hosts
            .extend(urls.iter().filter_map(private_seed_host));
        let fetcher = Fetcher::new(config).context("cannot start the fetcher")?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("cannot start the runtime")?;
        Ok(Self { fetcher, runtime })
    }

    /// The HTML page at `url`; why not otherwise (robots.txt, the address policy, an HTTP
    /// status, a network error, a body that is not HTML), for the caller to print after the
    /// URL.
    pub fn get(&self, url: &Url) -> Result<WebPage, String> {
        let outcome = self
            .runtime
            .block_on(self.fetcher.fetch(url, &FetchContext::new()));
        let page = outcome.result.map_err(|e| format!("{}: {e}", e.code()))?;
        if !page.is_html {
            return Err(format!(
                "not an HTML page (Content-Type: {})",
                page.content_type.as_deref().unwrap_or("none")
            ));
        }
        Ok(WebPage {
            bytes: page.body.to_vec(),
            content_type: page.content_type,
        })
    }
}
