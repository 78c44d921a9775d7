//! `<meta http-equiv=refresh content="5; url=next.html">`: the WHATWG "shared declarative
//! refresh steps", read as a crawler needs them (the delay and the target as written).

/// A page's declarative refresh to another address: `<meta http-equiv=refresh
/// content="DELAY; url=URL">` (the first such element with a URL; a refresh without one
/// reloads the page itself and is none).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Refresh {
    /// Whole seconds before the browser navigates (a fraction is dropped, as browsers do).
    pub delay: u64,
    /// The target, as written (unresolved; quotes removed, whitespace trimmed).
    pub url: String,
}

impl Refresh {
    /// A `<meta>` element's `content` as the HTML standard parses it for `http-equiv=refresh`
    /// ("shared declarative refresh steps"): `None` when it is malformed or names no URL.
    #[must_use]
    pub fn parse(content: &str) -> Option<Self> {
        let ws = |c: char| matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ');
        let input = content.trim_start_matches(ws);
        let digits = input.len() - input.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (time, rest) = input.split_at(digits);
        if time.is_empty() && !rest.starts_with('.') {
            return None;
        }
        // Too many digits saturate: such a delay is never a redirect anyway.
        let delay = match time {
            "" => 0,
            t => t.parse::<u64>().unwrap_or(u64::MAX),
        };
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let first = rest.chars().next()?;
        if !(first == ';' || first == ',' || ws(first)) {
            return None;
        }
        let mut rest = rest.trim_start_matches(ws);
        if let Some(r) = rest.strip_prefix([';', ',']) {
            rest = r.trim_start_matches(ws);
        }
        if rest.is_empty() {
            return None;
        }
        // `url =` is optional; without `=` after `url` the whole remainder is the URL.
        let mut url = rest;
        if let Some(after) = rest.get(..3).filter(|p| p.eq_ignore_ascii_case("url")) {
            let after = rest[after.len()..].trim_start_matches(ws);
            if let Some(value) = after.strip_prefix('=') {
                url = value.trim_start_matches(ws);
            }
        }
        let url = match url.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let inner = &url[1..];
                inner.find(q).map_or(inner, |end| &inner[..end])
            }
            _ => url,
        };
        let url = url.trim_matches(ws);
        (!url.is_empty()).then(|| Self {
            delay,
            url: url.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Refresh;

    /// `content` → (delay, URL), or `None`.
    fn check(content: &str, expected: Option<(u64, &str)>) {
        let got = Refresh::parse(content);
        assert_eq!(
            got.as_ref().map(|r| (r.delay, r.url.as_str())),
            expected,
            "{content:?}"
        );
    }

    #[test]
    fn reads_the_delay_and_the_target_as_browsers_do() {
        check(
            "0;URL=../../core/iter/struct.Map.html",
            Some((0, "../../core/iter/struct.Map.html")),
        );
        check("0; url=next.html", Some((0, "next.html")));
        check("  5 ,  URL = 'a b.html' trailing", Some((5, "a b.html")));
        check("3; url=\"quoted.html", Some((3, "quoted.html")));
        check("1.5; next.html", Some((1, "next.html")));
        check(".5 next.html", Some((0, "next.html")));
        check("0;urlx=y", Some((0, "urlx=y")));
        check("0; url next.html", Some((0, "url next.html")));
        check("99999999999999999999999; url=x", Some((u64::MAX, "x")));
        // A refresh of the page itself, or none at all.
        check("30", None);
        check("30;", None);
        check("0; url=", None);
        check("", None);
        check("soon; url=x", None);
        check("5x; url=x", None);
        check("0; url=''", None);
    }

    /// The first refresh with a URL in the parsed document (not one in `<noscript>`, which
    /// is text with scripting on), its URL among the links.
    #[test]
    fn a_page_names_its_first_refresh_with_a_url() {
        let mut config = crate::HasherConfig::default();
        config.limits.max_links = 100;
        let hasher = crate::StructureHasher::new(config).expect("hasher");
        let page = |html: &str| hasher.hash(html.as_bytes()).expect("parsed");
        let stub = page(
            "<noscript><meta http-equiv=refresh content='0;url=ns'></noscript>\
             <meta http-equiv=refresh content=5><meta http-equiv=REFRESH content='0;url=to.html'>\
             <p>Redirecting to <a href=to.html>to.html</a>",
        );
        assert_eq!(
            stub.refresh,
            Some(Refresh {
                delay: 0,
                url: "to.html".into()
            })
        );
        assert_eq!(stub.links, ["to.html"]);
        let bare = page("<meta http-equiv=refresh content='1; url=a'><p>x");
        assert_eq!(bare.links, ["a"]);
        assert_eq!(
            page("<meta content='0;url=a'><a href=b>b</a>").refresh,
            None
        );
        // Without link collection, the refresh still.
        let quiet = crate::StructureHasher::default()
            .hash(b"<meta http-equiv=refresh content='0;url=a'><a href=b>b</a>")
            .expect("parsed");
        assert_eq!(
            (quiet.refresh.map(|r| r.url), quiet.links.len()),
            (Some("a".into()), 0)
        );
    }
}
