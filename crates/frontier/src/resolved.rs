//! Links resolved lately, so that a link the crawl's pages repeat is parsed once.
//!
//! A site's pages link to the same places (its navigation, its index, the pages beside
//! them), and making each `href` an absolute, canonical URL ([`resolve_link`], then
//! [`canonicalize`]) took about 3,600 instructions a link: a twentieth of a crawl of
//! cppreference's pages. What a link that starts with a path (`../a.html`, `/b`, `c?d`) or
//! with a scheme resolves to depends on its base only up to the base's last `/`: the
//! resolution drops the base's last segment, query and fragment (the URL standard's
//! "relative state"), and the link's own fragment is dropped after it. So the pages that
//! share that prefix of their base share one table of links, each under its text up to its
//! first `#`. A link that starts with `?` (the base's whole path kept) or with anything the
//! URL parser would strip (a control character) is resolved every time.
//!
//! The memo is bounded (past [`MAX_REMEMBERED`] links, all are forgotten before the next
//! page) and transparent: every link resolves to what [`resolve_link`] and [`canonicalize`]
//! give.

use fnv::FnvHashMap;
use url::{Position, Url};

use crate::canon::{CanonConfig, canonicalize, resolve_link};

/// The most links remembered: past this many, all are forgotten before the next page
/// (memory stays a few hundred kilobytes on any site).
pub(crate) const MAX_REMEMBERED: usize = 2048;

/// Links resolved lately (see the module docs).
#[derive(Debug, Default)]
pub(crate) struct Resolved {
    /// For each prefix of a base ([`directory`]), its links (each up to its first `#`, its
    /// surrounding whitespace trimmed) and the canonical URL each resolves to, or `None`
    /// (not followed).
    dirs: FnvHashMap<Box<str>, FnvHashMap<Box<str>, Option<Url>>>,
    /// How many links `dirs` holds.
    count: usize,
}

impl Resolved {
    /// The links `hrefs` of a page whose base is `base`, absolute and canonical under
    /// `canon`, in order, without those the crawl does not follow: what [`resolve_link`]
    /// then [`canonicalize`] give.
    pub(crate) fn resolve_all(
        &mut self,
        base: &Url,
        hrefs: &[String],
        canon: &CanonConfig,
    ) -> Vec<Url> {
        let resolve =
            |href: &str| resolve_link(base, href).and_then(|url| canonicalize(&url, canon).ok());
        let Some(prefix) = directory(base) else {
            return hrefs.iter().filter_map(|h| resolve(h)).collect();
        };
        if self.count >= MAX_REMEMBERED {
            self.dirs.clear();
            self.count = 0;
        }
        if !self.dirs.contains_key(prefix) {
            self.dirs.insert(prefix.into(), FnvHashMap::default());
        }
        let Some(links) = self.dirs.get_mut(prefix) else {
            return hrefs.iter().filter_map(|h| resolve(h)).collect();
        };
        let mut out = Vec::with_capacity(hrefs.len());
        for href in hrefs {
            let trimmed = href.trim_matches(|c: char| c.is_ascii_whitespace());
            // Up to the fragment: the same link, unless what is left ends with what the
            // URL parser strips from the end of a link (a control character or a space),
            // which the fragment kept inside it (`a\u{1}#f` is `a%01`, `a\u{1}` is `a`).
            let key = trimmed.split('#').next().unwrap_or(trimmed);
            if !starts_with_path(trimmed)
                || (key.len() < trimmed.len() && key.bytes().last().is_none_or(|b| b <= b' '))
            {
                out.extend(resolve(href));
                continue;
            }
            let url = match links.get(key) {
                Some(url) => url.clone(),
                None => {
                    let url = resolve(href);
                    links.insert(key.into(), url.clone());
                    self.count += 1;
                    url
                }
            };
            out.extend(url);
        }
        out
    }
}

/// `base` up to and including the last `/` of its path: what a link that starts with a
/// path or a scheme resolves against. `None` when the base has no path that starts with
/// `/` (never for `http` and `https`).
fn directory(base: &Url) -> Option<&str> {
    let through_path = &base[..Position::AfterPath];
    let path_start = through_path.len() - base.path().len();
    if !base.path().starts_with('/') {
        return None;
    }
    let last = through_path.rfind('/').filter(|&at| at >= path_start)?;
    through_path.get(..=last)
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

    /// What the links of a page at `base` resolve to without the memo.
    fn without_memo(base: &Url, hrefs: &[String], canon: &CanonConfig) -> Vec<Url> {
        hrefs
            .iter()
            .filter_map(|h| resolve_link(base, h).and_then(|u| canonicalize(&u, canon).ok()))
            .collect()
    }

    /// Every page's links resolve as they would without the memo, on bases that share a
    /// directory and bases that do not, twice (the second time from the memo).
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
        let hrefs: Vec<String> = [
            "x.html",
            "x.html#one",
            "x.html#two",
            "../y.html",
            "../../../z",
            "/root?a=1&b=2",
            "/root?a=1&b=2#f",
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
            "a\t#b",
            "a\u{1}",
            "a\u{1}#f",
            "b #f",
            "./",
            "..",
        ]
        .map(String::from)
        .to_vec();
        let mut memo = Resolved::default();
        for round in 0..2 {
            for base in bases {
                let base = Url::parse(base).expect("a test base parses");
                let got = memo.resolve_all(&base, &hrefs, &canon);
                assert_eq!(
                    got,
                    without_memo(&base, &hrefs, &canon),
                    "round {round} on {base}"
                );
            }
        }
    }

    #[test]
    fn the_memo_stays_bounded() {
        let canon = CanonConfig::default();
        let base = Url::parse("http://h/a/b.html").expect("a test base parses");
        let mut memo = Resolved::default();
        for page in 0..(3 * MAX_REMEMBERED / 100) {
            let hrefs: Vec<String> = (0..100).map(|i| format!("p{page}-{i}.html")).collect();
            let got: Vec<String> = memo
                .resolve_all(&base, &hrefs, &canon)
                .into_iter()
                .map(String::from)
                .collect();
            let expected: Vec<String> = hrefs.iter().map(|h| format!("http://h/a/{h}")).collect();
            assert_eq!(got, expected);
            // A page's links are all remembered; the memo is cleared before the next.
            assert!(memo.count <= MAX_REMEMBERED + 100, "{}", memo.count);
        }
    }

    proptest::proptest! {
        /// Any page's links resolve as they would without the memo, on two bases of one
        /// directory in turn (the second from the memo where it may be).
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
            for _ in 0..2 {
                for base in &bases {
                    proptest::prop_assert_eq!(
                        memo.resolve_all(base, &hrefs, &canon),
                        without_memo(base, &hrefs, &canon)
                    );
                }
            }
        }
    }
}
