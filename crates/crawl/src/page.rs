//! One fetched HTML page → what the frontier judges: the structure fingerprint, links and,
//! from the same parse, the content signal of its main-content text. Shared by the crawl and
//! `silhouette dedup` so that both fingerprint a page the same way.

use silhouette_dom::StructureHasher;
use silhouette_frontier::{ContentBits, HtmlPage, PageContent};
use silhouette_text::{ContentFingerprint, ContentHash, ContentHasher};

/// The frontier's view of a content fingerprint (none: too little text).
pub fn page_content(c: Option<ContentFingerprint>) -> PageContent {
    PageContent {
        fingerprint: c.map(|c| match c.hash {
            ContentHash::Bits64(f) => ContentBits::B64(f),
            ContentHash::Bits128(f) => ContentBits::B128(f),
        }),
        signature: c
            .and_then(|c| c.signature)
            .map(|s| u128::from_be_bytes(s.bytes())),
    }
}

/// The content signal of a parsed page (none without text or without a content hasher).
pub fn content_of(content: Option<&ContentHasher>, text: Option<&str>) -> PageContent {
    page_content(content.zip(text).and_then(|(c, t)| c.fingerprint(t)))
}

/// Parses `body` once: structure, links and (when `content` is given and the hasher collects
/// text) the content signal.
pub fn html_page(
    hasher: &StructureHasher,
    content: Option<&ContentHasher>,
    body: &[u8],
    content_type: Option<&str>,
) -> HtmlPage {
    match hasher.hash_with_content_type(body, content_type) {
        Ok(s) => HtmlPage {
            fingerprint: Some(s.fingerprint),
            elements: s.elements,
            truncated: s.truncated.map(|t| t.to_string()),
            profile: s.profile.to_bytes(),
            summary: s.profile.paths().map(silhouette_dom::PathSet::summary),
            content: Box::new(content_of(content, s.text.as_deref())),
            links: s.links,
            base: s.base,
            refresh: s.refresh.map(|r| Box::new((r.delay, r.url))),
        },
        Err(e) => HtmlPage {
            truncated: Some(e.to_string()),
            ..HtmlPage::default()
        },
    }
}

/// A page's structure summary ([`silhouette_dom::PathSet::summary`]), read back from its stored profile: the
/// frontier's [`silhouette_frontier::FrontierConfig::summary_of`].
pub fn summary_of(profile: &[u8]) -> Option<Vec<u32>> {
    silhouette_dom::Profile::from_bytes(profile)
        .ok()?
        .paths()
        .map(silhouette_dom::PathSet::summary)
}

/// Links a crawl's hasher collects from each page at most.
pub const MAX_LINKS: usize = 10_000;

/// The structure hasher a crawl needs from `config`: it collects each page's links (up to
/// [`MAX_LINKS`]) and, with a content signal, the main-content text its fingerprints read
/// ([`text_bytes`]).
pub fn crawl_hasher(
    mut config: silhouette_dom::HasherConfig,
    content: Option<&ContentHasher>,
) -> Result<StructureHasher, silhouette_dom::ConfigError> {
    config.limits.max_links = MAX_LINKS;
    config.limits.max_text_bytes = text_bytes(content.map(ContentHasher::config));
    StructureHasher::new(config)
}

/// How much main-content text a hasher collects for content fingerprints of `content`: what
/// they read ([`max_text_bytes`](silhouette_text::ContentConfig::max_text_bytes), at most the
/// parser's bound); none without a content signal.
pub fn text_bytes(content: Option<&silhouette_text::ContentConfig>) -> usize {
    content.map_or(0, |c| {
        c.max_text_bytes
            .unwrap_or(usize::MAX)
            .min(silhouette_dom::DEFAULT_MAX_TEXT_BYTES)
    })
}
