//! Links resolved lately, so that a link the crawl's pages repeat is parsed once.
//!
//! A site's pages link to the same places (its navigation, its index, the pages beside
//! them), and making each `href` an absolute, canonical URL ([`resolve_link`], then
//! [`canonicalize`]) took about 3,600 instructions a link: a twentieth of a crawl of
//! cppreference's pages. What a link that starts with a path (`../a.html`, `/b`, `c?d`) or
//! with a scheme resolves to depends on its base only up to the base's last `/`: the
//! resolution drops the base's last segment, query and fragment (the URL standard's
//! "relative state"). So `(that prefix of the base, href)` names the result, and the result
//! is remembered under it. A link that starts with `?` (the base's whole path kept) or
//! anything the URL parser would strip (a control character) is resolved every time.
//!
//! The memo is bounded ([`MAX_REMEMBERED`] links, all forgotten at once past that) and
//! transparent: every link resolves to what [`resolve_link`] and [`canonicalize`] give.

use std::hash::Hasher;

use fnv::FnvHashMap;
use url::Url;

use crate::canon::{CanonConfig, canonicalize, resolve_link};

/// The most links remembered: past this many, all are forgotten (memory stays a few
/// hundred kilobytes on any site).
pub(crate) const MAX_REMEMBERED: usize = 2048;

/// Links resolved lately (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Resolved {
    /// The links remembered, by the hash of `(prefix of the base, href)` ([`key`]).
    links: FnvHashMap<u64, Vec<Link>>,
    /// How many links `links` holds.
    count: usize,
}

/// One link remembered.
#[derive(Debug)]
struct Link {
    /// The base's prefix it was resolved against ([`directory`]).
    prefix: Box<str>,
    /// The link, its surrounding whitespace trimmed.
    href: Box<str>,
    /// The canonical URL, or `None` (not followed).
    url: Option<Url>,
}

impl Resolved {
    /// `href` on a page whose base is `base`, absolute and canonical under `canon`; `None`
    /// for a link the crawl does not follow: what [`resolve_link`] then [`canonicalize`]
    /// give.
    pub(crate) fn resolve(&mut self, base: &Url, href: &str, canon: &CanonConfig) -> Option<Url> {
        let resolve = || resolve_link(base, href).and_then(|url| canonicalize(&url, canon).ok());
        let trimmed = href.trim_matches(|c: char| c.is_ascii_whitespace());
        let Some(prefix) = directory(base).filter(|_| starts_with_path(trimmed)) else {
            return resolve();
        };
        let key = key(prefix, trimmed);
        if let Some(found) = self.links.get(&key).and_then(|links| {
            links
                .iter()
                .find(|l| &*l.prefix == prefix && &*l.href == trimmed)
        }) {
            return found.url.clone();
        }
        let url = resolve();
        if self.count >= MAX_REMEMBERED {
            self.links.clear();
            self.count = 0;
        }
        self.links.entry(key).or_default().push(Link {
            prefix: prefix.into(),
            href: trimmed.into(),
            url: url.clone(),
        });
        self.count += 1;
        url
    }
}

/// The memo's key of a link: FNV-1a over the prefix, a byte no URL holds, and the link.
fn key(prefix: &str, href: &str) -> u64 {
    let mut h = fnv::FnvHasher::default();
    h.write(prefix.as_bytes());
    h.write_u8(0xff);
    h.write(href.as_bytes());
    h.finish()
}

/// `base` up to and including the last `/` of its path: what a link that starts with a
/// path or a scheme resolves against. `None` when the base has no path that starts with
/// `/` (never for `http` and `https`).
fn directory(base: &Url) -> Option<&str> {
    let whole = base.as_str();
    let end = base.query().map_or_else(
        || {
            base.fragment()
                .map_or(whole.len(), |f| whole.len() - f.len() - 1)
        },
        |q| whole.len() - q.len() - 1 - base.fragment().map_or(0, |f| f.len() + 1),
    );
    let path_start = end.checked_sub(base.path().len())?;
    if !base.path().starts_with('/') {
        return None;
    }
    let last = whole.get(path_start..end)?.rfind('/')?;
    whole.get(..path_start + last + 1)
}

/// Whether a link (its surrounding whitespace trimmed) starts with a path or a scheme: not
/// empty, not a query or fragment of the base, and nothing the URL parser strips first.
fn starts_with_path(href: &str) -> bool {
    href.bytes()
        .next()
        .is_some_and(|b| b > b' ' && b != b'?' && b != b'#' && b != 0x7f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_resolves_against_its_directory() {
        let check = |base: &str, expected: Option<&str>| {
            let base = Url::parse(base).expect("a test base parses");
            assert_eq!(directory(&base), expected, "{base}");
        };
        check("http://h/a/b.html", Some("http://h/a/"));
        check("http://h/a/b.html?x=/y#z/w", Some("http://h/a/"));
        check("http://h/a/b.html#z/w", Some("http://h/a/"));
        check("http://u:p@h:8080/", Some("http://u:p@h:8080/"));
        check("http://h", Some("http://h/"));
        check("https://h/a/b/?q", Some("https://h/a/b/"));
    }

    /// Every link resolves as it would without the memo, on bases that share a directory
    /// and bases that do not, twice (the second time from the memo).
    #[test]
    fn remembered_links_resolve_as_resolve_link_and_canonicalize_do() {
        let canon = CanonConfig::default();
        let bases = [
            "http://h/a/b.html",
            "http://h/a/c.html?q=1",
            "http://h/a/c.html#top",
            "http://h/a/",
            "http://h/d/e/f",
            "http://h:81/a/b.html",
            "https://h/a/b.html",
        ];
        let hrefs = [
            "x.html",
            "../y.html",
            "../../../z",
            "/root?a=1&b=2",
            "?only=query",
            "#frag",
            "",
            "  spaced.html  ",
            "\u{1}?ctl",
            "//other/p",
            "http://H/A/%7efoo/./b",
            "mailto:x@y",
            "javascript:void(0)",
            "\\back\\slash",
            "a\tb\nc.html",
            "./",
            "..",
        ];
        let mut memo = Resolved::default();
        for round in 0..2 {
            for base in bases {
                let base = Url::parse(base).expect("a test base parses");
                for href in hrefs {
                    let expected =
                        resolve_link(&base, href).and_then(|u| canonicalize(&u, &canon).ok());
                    let got = memo.resolve(&base, href, &canon);
                    assert_eq!(got, expected, "round {round}: {href:?} on {base}");
                }
            }
        }
    }

    #[test]
    fn the_memo_stays_bounded() {
        let canon = CanonConfig::default();
        let base = Url::parse("http://h/a/b.html").expect("a test base parses");
        let mut memo = Resolved::default();
        for i in 0..(3 * MAX_REMEMBERED) {
            let href = format!("p{i}.html");
            let got = memo.resolve(&base, &href, &canon).map(String::from);
            assert_eq!(
                got.as_deref(),
                Some(format!("http://h/a/p{i}.html").as_str())
            );
            assert!(memo.count <= MAX_REMEMBERED);
        }
    }

    proptest::proptest! {
        /// Any link resolves as it would without the memo, on two bases of one directory
        /// in turn (the second from the memo where it may be).
        #[test]
        fn any_link_resolves_as_without_the_memo(
            dir in "(http|https)://(h|h:81|u@h)(/[a-z.%]{0,4}){0,3}/",
            leaves in proptest::collection::vec("[a-z.%?#/=;]{0,8}", 2),
            hrefs in proptest::collection::vec("[ \\t\\x01a-z./?#%:\\\\;=&]{0,12}", 1..8),
        ) {
            let canon = CanonConfig::default();
            let bases: Vec<Url> =
                leaves.iter().filter_map(|l| Url::parse(&format!("{dir}{l}")).ok()).collect();
            let mut memo = Resolved::default();
            for href in &hrefs {
                for base in &bases {
                    let expected =
                        resolve_link(base, href).and_then(|u| canonicalize(&u, &canon).ok());
                    proptest::prop_assert_eq!(memo.resolve(base, href, &canon), expected);
                }
            }
        }
    }
}
