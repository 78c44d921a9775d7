//! `crawl --sitemaps`: more URLs to start from, listed in the seeds' sitemaps (the `Sitemap:`
//! lines of robots.txt, else `/sitemap.xml`; sitemap indexes followed; gzip'd ones read),
//! fetched through the crawl's fetcher and bounded in documents, bytes and URLs.

use std::collections::{HashSet, VecDeque};

use silhouette_fetch::{FetchContext, Fetcher};
use silhouette_sitemap::Kind;
use url::Url;

use crate::events::{Events, Notice};

/// Sitemap documents fetched at most in one run.
pub const MAX_SITEMAPS: usize = 100;
/// Bytes of one sitemap after decompression at most (the sitemap protocol's own limit).
pub const MAX_SITEMAP_BYTES: u64 = 50 * 1024 * 1024;
/// URLs taken from sitemaps at most in one run.
pub const MAX_URLS: usize = 500_000;

/// What the sitemaps gave.
#[derive(Debug, Default)]
pub struct Found {
    /// Page URLs, in the order listed.
    pub urls: Vec<String>,
    /// Sitemap documents read.
    pub sitemaps: usize,
    /// What went wrong or was left out, one line each.
    pub notes: Vec<String>,
}

impl Found {
    /// Tells `events` the notes, then how many URLs were listed and `added`.
    pub fn report(&self, added: usize, events: &mut dyn Events) {
        for note in &self.notes {
            events.notice(&Notice::Sitemap(note.clone()));
        }
        events.notice(&Notice::Sitemaps {
            listed: self.urls.len(),
            sitemaps: self.sitemaps,
            added,
        });
    }
}

/// The body of `url` if it is fetched with a 2xx status.
async fn get(fetcher: &Fetcher, ctx: &FetchContext, url: &Url) -> Result<Vec<u8>, String> {
    let outcome = fetcher.fetch(url, ctx).await;
    match outcome.result {
        Ok(page) if (200..300).contains(&page.status) => Ok(page.body.to_vec()),
        Ok(page) => Err(format!("HTTP status {}", page.status)),
        Err(e) => Err(e.to_string()),
    }
}

/// Reads the sitemaps of every seed's site.
pub async fn discover(fetcher: &Fetcher, ctx: &FetchContext, seeds: &[Url]) -> Found {
    let ctx = ctx.clone().reading_any_body();
    let mut found = Found::default();
    let mut queue: VecDeque<(Url, bool)> = VecDeque::new();
    let mut origins = HashSet::new();
    for seed in seeds {
        let Ok(robots) = seed.join("/robots.txt") else {
            continue;
        };
        if !origins.insert(seed.origin().ascii_serialization()) {
            continue;
        }
        let listed = match get(fetcher, &ctx, &robots).await {
            Ok(body) => silhouette_sitemap::robots_sitemaps(&String::from_utf8_lossy(&body)),
            Err(_) => Vec::new(),
        };
        let listed: Vec<Url> = listed.iter().filter_map(|s| Url::parse(s).ok()).collect();
        if listed.is_empty() {
            // Not named anywhere: a missing /sitemap.xml is no news.
            if let Ok(guess) = seed.join("/sitemap.xml") {
                queue.push_back((guess, false));
            }
        } else {
            queue.extend(listed.into_iter().map(|u| (u, true)));
        }
    }
    let mut seen_sitemaps = HashSet::new();
    let mut seen_urls = HashSet::new();
    while let Some((url, named)) = queue.pop_front() {
        if !seen_sitemaps.insert(url.clone()) {
            continue;
        }
        if found.sitemaps >= MAX_SITEMAPS {
            found.notes.push(format!(
                "sitemaps: more than {MAX_SITEMAPS} sitemaps; {} not read",
                queue.len() + 1
            ));
            break;
        }
        let body = match get(fetcher, &ctx, &url).await {
            Ok(body) => body,
            Err(e) => {
                if named {
                    found.notes.push(format!("sitemap {url}: {e}"));
                }
                continue;
            }
        };
        found.sitemaps += 1;
        let sitemap = match silhouette_sitemap::parse(&body, MAX_SITEMAP_BYTES) {
            Ok(s) => s,
            Err(e) => {
                found.notes.push(format!("sitemap {url}: {e}"));
                continue;
            }
        };
        match sitemap.kind {
            Kind::Index => queue.extend(
                sitemap
                    .locs
                    .iter()
                    .filter_map(|l| Url::parse(l).ok())
                    .map(|u| (u, true)),
            ),
            Kind::UrlSet => {
                for loc in sitemap.locs {
                    if found.urls.len() >= MAX_URLS {
                        found.notes.push(format!(
                            "sitemaps: more than {MAX_URLS} URLs; the rest of {url} and later sitemaps left out"
                        ));
                        return found;
                    }
                    if seen_urls.insert(loc.clone()) {
                        found.urls.push(loc);
                    }
                }
            }
        }
    }
    found
}
