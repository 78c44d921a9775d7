//! What `dedup` does with one archived page: fingerprint it as the crawl does, and judge it
//! with the crawl's [`Dedup`]. Kept in one place so that a change of the feature model or of
//! the dedup internals is made here once.

use silhouette_dom::StructureHasher;
use silhouette_frontier::{Dedup, PageContent, PageSignals, Verdict, body_hash, refresh_target};
use silhouette_simhash::Fingerprint;
use silhouette_text::ContentHasher;

use crate::page::content_of as content_signal;

/// A page ready to be judged.
#[derive(Debug, Clone)]
pub struct Page {
    /// [`body_hash`] of the decoded body.
    pub body_hash: u128,
    /// `None` when the page could not be fingerprinted (judged on its bytes only).
    pub fingerprint: Option<Fingerprint>,
    /// Elements counted.
    pub elements: u64,
    /// Why the fingerprint covers part of the page only, or why there is none.
    pub truncated: Option<String>,
    /// The structure summary (`class-paths`: path ids) that confirms near matches.
    pub summary: Option<Vec<u32>>,
    /// The structure profile (`dedup --state` keeps it, as a crawl does, for `replay`).
    pub profile: Option<Vec<u8>>,
    /// The content signal of its main-content text, as the crawl computes it.
    pub content: PageContent,
    /// Whether its `<meta http-equiv=refresh>` sends the browser to another address soon: such
    /// a page is not judged, as in the crawl ([`silhouette_frontier::refresh_target`]).
    pub redirect: bool,
}

/// Fingerprints a decoded HTML body (`content_type`: the response's header, for the charset;
/// `url`: the record's target URI, which a refresh's target is resolved against); with
/// `content`, the content signal too (the structure hasher must collect text).
pub fn fingerprint(
    hasher: &StructureHasher,
    content: Option<&ContentHasher>,
    body: &[u8],
    content_type: Option<&str>,
    url: &str,
) -> Page {
    let body_hash = body_hash(body);
    match hasher.hash_with_content_type(body, content_type) {
        Ok(s) => Page {
            body_hash,
            fingerprint: Some(s.fingerprint),
            elements: s.elements,
            truncated: s.truncated.map(|t| t.to_string()),
            summary: s.profile.paths().map(silhouette_dom::PathSet::summary),
            profile: Some(s.profile.to_bytes()),
            content: content_signal(content, s.text.as_deref()),
            redirect: s.refresh.is_some_and(|r| {
                url::Url::parse(url).is_ok_and(|at| {
                    refresh_target(r.delay, &r.url, s.base.as_deref(), &at).is_some()
                })
            }),
        },
        Err(e) => Page {
            body_hash,
            fingerprint: None,
            elements: 0,
            truncated: Some(e.to_string()),
            summary: None,
            profile: None,
            content: PageContent::default(),
            redirect: false,
        },
    }
}

/// Judges page `id` (ids increase in input order) of `host`, exactly as the crawl does.
pub fn judge(dedup: &mut Dedup, id: u64, host: &str, page: &Page) -> Verdict {
    dedup.judge_page(&PageSignals {
        id,
        host,
        body_hash: page.body_hash,
        fingerprint: page.fingerprint,
        elements: page.elements,
        summary: page.summary.as_deref(),
        content: &page.content,
    })
}

/// The kept page a content duplicate names, and the content distance.
pub const fn content_of(verdict: Verdict) -> Option<(u64, u32)> {
    match verdict {
        Verdict::ContentDuplicate { of, distance, .. } => Some((of, distance)),
        _ => None,
    }
}
