//! The `<loc>` extractor, gzip with a limit, and robots.txt `Sitemap:` lines.

use std::io::Read;

/// What a sitemap document is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `<urlset>`: its locations are pages.
    UrlSet,
    /// `<sitemapindex>`: its locations are more sitemaps.
    Index,
}

/// A parsed sitemap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sitemap {
    /// Pages or sitemaps.
    pub kind: Kind,
    /// The `<loc>` values, in document order, trimmed, entities decoded.
    pub locs: Vec<String>,
}

/// A document that is not a usable sitemap.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SitemapError {
    /// Larger than the limit (after decompression).
    #[error("sitemap larger than {limit} bytes (after decompression)")]
    TooLarge {
        /// The limit.
        limit: u64,
    },
    /// Gzip data that cannot be decompressed.
    #[error("sitemap: bad gzip data at byte {offset} of the decompressed stream: {source}")]
    Gzip {
        /// Decompressed bytes read before the error.
        offset: u64,
        /// What the decoder said.
        source: std::io::Error,
    },
    /// No `<urlset>` or `<sitemapindex>` root element.
    #[error("not a sitemap: no <urlset> or <sitemapindex> element in the first {looked} bytes")]
    NotASitemap {
        /// Bytes searched.
        looked: usize,
    },
}

/// The `Sitemap:` lines of a robots.txt (the field name in any case), in order, as
/// `texting_robots` (the fetcher's robots.txt parser) reads them; none if it cannot parse
/// the file.
#[must_use]
pub fn robots_sitemaps(robots_txt: &str) -> Vec<String> {
    texting_robots::Robot::new("*", robots_txt.as_bytes())
        .map(|r| r.sitemaps)
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Parses a sitemap or sitemap index, gzip'd or not, of at most `max_bytes` (decompressed).
///
/// # Errors
/// Too large, bad gzip data, or no sitemap root element.
pub fn parse(bytes: &[u8], max_bytes: u64) -> Result<Sitemap, SitemapError> {
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        gunzip(bytes, max_bytes)?
    } else if bytes.len() as u64 > max_bytes {
        return Err(SitemapError::TooLarge { limit: max_bytes });
    } else {
        bytes.to_vec()
    };
    let text = String::from_utf8_lossy(&text);
    let kind = root_kind(&text).ok_or(SitemapError::NotASitemap { looked: text.len() })?;
    Ok(Sitemap {
        kind,
        locs: locs(&text),
    })
}

fn gunzip(bytes: &[u8], max_bytes: u64) -> Result<Vec<u8>, SitemapError> {
    let mut out = Vec::new();
    let mut decoder = flate2::read::MultiGzDecoder::new(bytes).take(max_bytes.saturating_add(1));
    decoder
        .read_to_end(&mut out)
        .map_err(|source| SitemapError::Gzip {
            offset: out.len() as u64,
            source,
        })?;
    if out.len() as u64 > max_bytes {
        return Err(SitemapError::TooLarge { limit: max_bytes });
    }
    Ok(out)
}

/// The first element that is neither a declaration, a comment nor a processing instruction.
fn root_kind(text: &str) -> Option<Kind> {
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        if rest.starts_with(['?', '!']) {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace() && !matches!(c, '>' | '/'))
            .collect();
        // A namespace prefix (`<sm:urlset>`) is allowed.
        let local = name.rsplit(':').next().unwrap_or("");
        return match local {
            "urlset" => Some(Kind::UrlSet),
            "sitemapindex" => Some(Kind::Index),
            _ => None,
        };
    }
    None
}

/// Every `<loc>…</loc>` text (with or without a namespace prefix), trimmed and decoded.
fn locs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let Some(end) = rest.find('>') else { break };
        let tag = &rest[..end];
        let local = tag.rsplit(':').next().unwrap_or("");
        if local.trim_end() != "loc" || tag.starts_with('/') {
            continue;
        }
        rest = &rest[end + 1..];
        let Some(close) = rest.find("</") else { break };
        let value = decode(rest[..close].trim());
        if !value.is_empty() {
            out.push(value);
        }
        rest = &rest[close..];
    }
    out
}

/// Decodes CDATA and the XML entities (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
/// numeric); an unknown entity is kept as written.
fn decode(s: &str) -> String {
    let s = s
        .strip_prefix("<![CDATA[")
        .and_then(|s| s.strip_suffix("]]>"))
        .map_or(s, str::trim);
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let Some(semi) = rest.find(';').filter(|&i| i <= 10) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..semi];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .or_else(|| entity.strip_prefix("#X"))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use proptest::prelude::*;

    use super::*;

    fn check(input: &[u8], expected: Result<(Kind, &[&str]), &str>) {
        let got = parse(input, 1000).map(|s| (s.kind, s.locs));
        match (got, expected) {
            (Ok((kind, locs)), Ok((k, l))) => assert_eq!(
                (kind, locs.iter().map(String::as_str).collect::<Vec<_>>()),
                (k, l.to_vec())
            ),
            (Err(e), Err(msg)) => assert!(e.to_string().starts_with(msg), "{e}"),
            (got, expected) => panic!("{input:?}: {got:?}, expected {expected:?}"),
        }
    }

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(bytes).expect("compresses");
        enc.finish().expect("compresses")
    }

    #[test]
    fn documents() {
        let index = b"<?xml version='1.0'?><!-- c --><sitemapindex><sitemap><loc>http://a/s1.xml</loc></sitemap>\
                      <sitemap><loc><![CDATA[http://a/s2.xml.gz]]></loc></sitemap></sitemapindex>";
        check(
            index,
            Ok((Kind::Index, &["http://a/s1.xml", "http://a/s2.xml.gz"])),
        );
        check(
            b"<sm:urlset xmlns:sm='x'><sm:url><sm:loc>http://a/&#x41;&#66;&bogus;&</sm:loc></sm:url></sm:urlset>",
            Ok((Kind::UrlSet, &["http://a/AB&bogus;&"])),
        );
        check(
            b"<urlset><url><loc></loc></url><loc>x",
            Ok((Kind::UrlSet, &[])),
        );
        check(
            &gz(b"<urlset><loc>http://a/</loc></urlset>"),
            Ok((Kind::UrlSet, &["http://a/"])),
        );
        check(b"<html><loc>http://a/</loc></html>", Err("not a sitemap"));
        check(b"", Err("not a sitemap"));
        check(&[b' '; 1001], Err("sitemap larger than 1000 bytes"));
        check(&gz(&[b' '; 5000]), Err("sitemap larger than 1000 bytes"));
        check(&[0x1f, 0x8b, 8, 0, 1, 2], Err("sitemap: bad gzip data"));
    }

    #[test]
    fn robots_lines() {
        let robots = "Sitemap: http://a/1.xml\nsitemap:http://a/2.xml # two\nSITEMAP :  \nUser-agent: *\nAllow: /sitemap: x\n";
        assert_eq!(
            robots_sitemaps(robots),
            ["http://a/1.xml", "http://a/2.xml"]
        );
    }

    proptest! {
        #[test]
        fn any_bytes_give_a_result(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let _ = parse(&bytes, 300);
        }

        #[test]
        fn listed_urls_come_back(paths in proptest::collection::vec("[a-z0-9/&<>]{1,12}", 0..20)) {
            let escape = |p: &str| p.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
            let body: String = paths.iter().map(|p| format!("<url><loc>http://a/{}</loc></url>", escape(p))).collect();
            let doc = format!("<urlset>{body}</urlset>");
            let expected: Vec<String> = paths.iter().map(|p| format!("http://a/{p}")).collect();
            prop_assert_eq!(parse(doc.as_bytes(), 1 << 20).map(|s| s.locs).ok(), Some(expected));
        }
    }
}
