//! URL shapes: what exploration in drop mode follows (`Frontier`, [`crate::FrontierConfig::explore`]).
//!
//! In drop mode a duplicate's links are not followed, so what only a dropped page links to is
//! never fetched: an index page that joined another index's cluster hides the pages it
//! alone lists. Following every link of every duplicate would fetch the whole site. A
//! link whose **shape** the host's pages have never linked to is the one likely to lead to
//! another kind of page: `/technote/9f3c…` when the host has linked only to `/timeline?…`
//! and `/info/…` before. So a dropped page's links of a new shape are queued, at most
//! `explore` per host that keep nothing: an explored page that is kept (another kind of
//! page) gives its fetch back, and a link that came when the budget was spent, held
//! meanwhile ([`most_held`]), is queued then.
//!
//! A URL's shape is its path, each segment that holds an ASCII digit or is longer than
//! [`LONG_SEGMENT`] bytes written as `0` (ids, hashes, dates), but for a word and a number
//! (`issue53`, `msg8`, `page-2.html`: `word_number`), whose number alone is written as `0`,
//! then the sorted, distinct names of its query parameters without their values:
//! `/log/rev/59747613f3c9?style=gitweb` → `/log/rev/0?style`, `/tracker/file26` →
//! `/tracker/file0`. An issue tracker names its items `issueN`, `msgN`, `fileN`, `userN`,
//! `keywordN` at one level: written `0`, they were one shape, and a crawl in drop mode that
//! kept one issue never followed a dropped issue's links to its files and keywords
//! (ALGORITHM.md §3, "Session 61"). Which shapes a host has is what its own pages linked to
//! (links from a page on the host to the host), in the order pages are judged: the same in
//! every run and after a resume, which rebuilds it from the recorded links.

use std::borrow::Cow;
use std::hash::Hasher;

use url::Url;

/// A path segment longer than this is an id, not a name.
const LONG_SEGMENT: usize = 32;

/// The shape of `url` (see the module docs) as a 64-bit key for host `host`: what a host's
/// pages linked to, for exploration in drop mode (a shared crawl keeps these keys in Redis).
#[must_use]
pub fn shape_key(host: &str, url: &Url) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(host.as_bytes());
    h.write(b"\0");
    for segment in url.path().split('/') {
        h.write(b"/");
        if segment.len() > LONG_SEGMENT {
            h.write(b"0");
        } else if let Some((word, ext)) = word_number(segment) {
            h.write(word.as_bytes());
            h.write(b"0");
            h.write(ext.as_bytes());
        } else if segment.bytes().any(|b| b.is_ascii_digit()) {
            h.write(b"0");
        } else {
            h.write(segment.as_bytes());
        }
    }
    let mut names: Vec<Cow<'_, str>> = url.query_pairs().map(|(k, _)| k).collect();
    names.sort_unstable();
    names.dedup();
    h.write(b"?");
    for name in &names {
        h.write(name.as_bytes());
        h.write(b"&");
    }
    h.finish()
}

/// A path segment that is a word and a number: the word (ASCII letters, `-` and `_`, with a
/// letter that is no hexadecimal digit, so that a hash is no word), the number (ASCII
/// digits, to the end or to an extension of letters), and the extension (`.html`, or
/// empty). `None` for anything else: an id, a hash, a date, a version.
fn word_number(segment: &str) -> Option<(&str, &str)> {
    let digits = segment.find(|c: char| c.is_ascii_digit())?;
    let (word, rest) = segment.split_at(digits);
    let number = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let ext = &rest[number..];
    let is_word = word
        .bytes()
        .all(|b| b.is_ascii_alphabetic() || b == b'-' || b == b'_')
        && word
            .bytes()
            .any(|b| b.is_ascii_alphabetic() && !b.is_ascii_hexdigit());
    let is_ext = ext.is_empty()
        || (ext.len() > 1
            && ext.starts_with('.')
            && ext[1..].bytes().all(|b| b.is_ascii_alphabetic()));
    (is_word && is_ext).then_some((word, ext))
}

/// Which of a judged page's links go on ([`explored_links`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Explore {
    /// All of them (a kept page): their shapes become its host's.
    All,
    /// Those on its host of a shape new to the host (a near-duplicate), each counted.
    NewShapes,
    /// Those on its host not seen yet, whatever their shape, each counted (a near-duplicate
    /// that only just joined its cluster: [`MARGIN`]); their shapes become its host's.
    Unseen,
}

/// Links held per link of a host's exploration budget ([`most_held`]).
const HELD_PER_EXPLORE: usize = 4;

/// Links a host holds at most, whatever its budget (a list page of a huge site).
const MOST_HELD: usize = 16_384;

/// How many links a host with exploration budget `explore`
/// ([`crate::FrontierConfig::explore`]) holds at most: 4 per link of the budget, at most
/// 16,384. A dropped page's links of a new shape that come when the budget is spent wait,
/// in the order they came, and each explored page that is kept gives the budget one fetch
/// back and queues the first of them the budget has room for. So a host explores at most
/// `explore` pages that keep nothing, and a hub dropped after the budget was spent (a
/// wiki's list of special pages) is explored as far as its links keep finding new kinds of
/// page. The one rule of the single-process `Frontier` and a shared crawl's workers.
#[must_use]
pub const fn most_held(explore: u32) -> usize {
    let n = (explore as usize).saturating_mul(HELD_PER_EXPLORE);
    if n < MOST_HELD { n } else { MOST_HELD }
}

/// A near-duplicate whose path set's similarity to its cluster's page is less than this
/// above `min-similarity` only just joined the cluster: it differs from that page, and what
/// it links to may differ too (a wiki's syntax page, the one page that links to a page that
/// does not exist yet, with the URL shape of every other page). Its links not seen yet are
/// followed, counted in the host's `explore`.
pub const MARGIN: f64 = 0.1;

impl Explore {
    /// How many links a host may have explored for a page's links to be followed as `self`
    /// says, `explore` being the most ([`crate::FrontierConfig::explore`]): a marginal
    /// page's unseen links ([`Explore::Unseen`]) up to half of it, so that the other half is
    /// left for new shapes, the stronger sign of another kind; otherwise all of it.
    #[must_use]
    pub const fn most(self, explore: u32) -> u32 {
        match self {
            Self::Unseen => explore / 2,
            _ => explore,
        }
    }
}

/// Which of a judged page's links go on when exploring (drop mode, `explore` > 0), by the
/// page's decision and, for a near-duplicate confirmed by path sets, its `similarity` and
/// the crawl's `min_similarity` ([`Explore`]); `None`, none. The one rule of the
/// single-process `Frontier` and a shared crawl's workers.
#[must_use]
pub fn explored_links(
    decision: crate::Decision,
    similarity: Option<f64>,
    min_similarity: Option<f64>,
) -> Option<Explore> {
    match decision {
        // A redirect's links are its target.
        crate::Decision::Kept | crate::Decision::Redirect => Some(Explore::All),
        crate::Decision::NearDuplicate => match (similarity, min_similarity) {
            (Some(s), Some(min)) if s < min + MARGIN => Some(Explore::Unseen),
            _ => Some(Explore::NewShapes),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `a` and `b` (URLs on one host) have one shape.
    fn check(a: &str, b: &str, same: bool) {
        let (ua, ub) = (Url::parse(a).expect("url"), Url::parse(b).expect("url"));
        assert_eq!(
            shape_key("h:80", &ua) == shape_key("h:80", &ub),
            same,
            "{a} ~ {b}"
        );
    }

    #[test]
    fn a_host_holds_four_links_per_link_of_its_budget_and_at_most_16384() {
        for (explore, want) in [
            (0, 0),
            (1, 4),
            (64, 256),
            (4096, 16_384),
            (u32::MAX, 16_384),
        ] {
            assert_eq!(most_held(explore), want, "explore = {explore}");
        }
    }

    proptest::proptest! {
        /// A word and a number is the segment itself: its word, a run of digits, its
        /// extension; two segments that differ only in that number have one shape.
        #[test]
        fn a_word_and_a_number_is_the_segment_with_its_number_out(
            segment in "[a-zA-Z_0-9.%-]{0,24}|[a-z_-]{0,8}[0-9]{1,6}(\\.[a-z]{1,4})?",
            other in 0u32..100_000,
        ) {
            if let Some((word, ext)) = word_number(&segment) {
                let digits = &segment[word.len()..segment.len() - ext.len()];
                proptest::prop_assert!(!digits.is_empty());
                proptest::prop_assert!(digits.bytes().all(|b| b.is_ascii_digit()));
                let a = Url::parse(&format!("http://h/x/{segment}")).expect("url");
                let b = Url::parse(&format!("http://h/x/{word}{other}{ext}")).expect("url");
                proptest::prop_assert_eq!(shape_key("h:80", &a), shape_key("h:80", &b));
            }
        }
    }

    #[test]
    fn ids_and_values_are_one_shape_names_are_not() {
        check("http://h/rev/59747613f3c9", "http://h/rev/0a1b2c3d", true);
        check("http://h/info/2026-11-29", "http://h/info/1", true);
        check("http://h/wiki?name=Home", "http://h/wiki?name=Other", true);
        check("http://h/t?b=1&a=2", "http://h/t?a=3&b=4&a=5", true);
        let long = format!("http://h/f/{}", "x".repeat(40));
        check(&long, "http://h/f/7", true);
        check("http://h/log/tags", "http://h/log/bookmarks", false);
        check("http://h/timeline?y=e", "http://h/timeline?c=x", false);
        check("http://h/technote/7282148a", "http://h/timeline", false);
        check("http://h/a/", "http://h/a", false);
        // A word and a number: the number is the id, the word the route.
        check("http://h/demo/issue53", "http://h/demo/issue7", true);
        check("http://h/demo/issue53", "http://h/demo/file26", false);
        check("http://h/demo/msg8", "http://h/demo/keyword5", false);
        check("http://h/p/page-2.html", "http://h/p/page-31.html", true);
        check("http://h/p/page-2.html", "http://h/p/page-2", false);
        // Not a word and a number: an id, a hash, a date, a version, a word after a number.
        check("http://h/rev/abc123", "http://h/rev/7f3e9a1b", true);
        check("http://h/v/v1.2", "http://h/v/3", true);
        check("http://h/d/2026-11-29", "http://h/d/9", true);
        check("http://h/x/9issue", "http://h/x/4", true);
        check("http://h/x/a1b2", "http://h/x/4", true);
        // Another host: another key.
        let u = Url::parse("http://h/x").expect("url");
        assert_ne!(shape_key("h:80", &u), shape_key("g:80", &u));
    }
}
