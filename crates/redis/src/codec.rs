//! How queue entries and dedup-log entries are written in Redis: tab-separated text (URLs
//! in canonical form hold no tab or newline).

use silhouette_frontier::{ContentBits, JudgedPage, PageContent, UrlKey};
use url::Url;

/// A URL leased from its host's queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The URL's id: the low 64 bits of its [`UrlKey`].
    pub id: u64,
    /// The canonical URL.
    pub url: Url,
    /// Its place in the crawl's canonical order (the order URLs were found: pages are judged
    /// in it).
    pub seq: u64,
    /// Link depth from a seed.
    pub depth: u32,
    /// The page that linked to it.
    pub referrer: Option<String>,
    /// Its host (`host:port`).
    pub host: String,
    /// The entry as stored (the lease's member).
    pub(crate) entry: String,
}

/// The id of a URL: the low 64 bits of its key (unique in practice: 2⁻⁶⁵·n² for n URLs).
#[must_use]
pub fn url_id(url: &str) -> u64 {
    UrlKey::of_str(url).to_u128() as u64
}

/// The seen-set member of a URL: its 16-byte key.
pub(crate) fn seen_member(url: &str) -> [u8; 16] {
    UrlKey::of_str(url).to_u128().to_be_bytes()
}

/// A queue entry: `ID\tSEQ\tDEPTH\tURL\tREFERRER` (the id first: scripts read its 16 hex
/// digits, then the sequence number).
pub(crate) fn entry(url: &str, seq: u64, depth: u32, referrer: Option<&str>) -> String {
    format!(
        "{:016x}\t{seq}\t{depth}\t{url}\t{}",
        url_id(url),
        referrer.unwrap_or("")
    )
}

/// The id field of a URL's record.
pub(crate) fn id_field(id: u64) -> String {
    format!("{id:016x}")
}

pub(crate) fn parse_entry(entry: &str, host: &str) -> Option<Lease> {
    let mut parts = entry.splitn(5, '\t');
    let id = u64::from_str_radix(parts.next()?, 16).ok()?;
    let seq = parts.next()?.parse().ok()?;
    let depth = parts.next()?.parse().ok()?;
    let url = Url::parse(parts.next()?).ok()?;
    let referrer = parts.next().filter(|r| !r.is_empty()).map(str::to_owned);
    Some(Lease {
        id,
        seq,
        url,
        depth,
        referrer,
        host: host.to_owned(),
        entry: entry.to_owned(),
    })
}

/// A dedup-log entry: `ID\tBODY\tFP\tELEMENTS\tHOST\tURL\tSUMMARY\tCONTENT\tSIGNATURE`
/// (`-` for none; CONTENT has 16 or 32 hex digits, its width).
pub(crate) fn log_entry(p: &JudgedPage) -> String {
    let fp = p.fingerprint.map_or("-".to_owned(), |f| format!("{f:x}"));
    let summary = p.summary.as_ref().map_or("-".to_owned(), |s| {
        s.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
    });
    let content = p
        .content
        .fingerprint
        .map_or("-".to_owned(), |c| c.to_string());
    let signature = p
        .content
        .signature
        .map_or("-".to_owned(), |s| format!("{s:032x}"));
    format!(
        "{:x}\t{:x}\t{fp}\t{}\t{}\t{}\t{summary}\t{content}\t{signature}",
        p.id, p.body_hash, p.elements, p.host, p.url
    )
}

fn parse_content(hex: &str) -> Option<Option<ContentBits>> {
    if hex == "-" {
        return Some(None);
    }
    let bytes = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    ContentBits::from_bytes(&bytes).map(Some)
}

pub(crate) fn parse_log_entry(s: &str) -> Option<JudgedPage> {
    let f: Vec<&str> = s.split('\t').collect();
    let [
        id,
        body,
        fp,
        elements,
        host,
        url,
        summary,
        content,
        signature,
    ] = f.as_slice()
    else {
        return None;
    };
    let summary = match *summary {
        "-" => None,
        "" => Some(Vec::new()),
        list => Some(
            list.split(',')
                .map(str::parse)
                .collect::<Result<Vec<u32>, _>>()
                .ok()?,
        ),
    };
    Some(JudgedPage {
        id: u64::from_str_radix(id, 16).ok()?,
        body_hash: u128::from_str_radix(body, 16).ok()?,
        fingerprint: match *fp {
            "-" => None,
            f => Some(u64::from_str_radix(f, 16).ok()?),
        },
        elements: elements.parse().ok()?,
        host: (*host).to_owned(),
        url: (*url).to_owned(),
        summary,
        content: PageContent {
            fingerprint: parse_content(content)?,
            signature: match *signature {
                "-" => None,
                s => Some(u128::from_str_radix(s, 16).ok()?),
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(page: JudgedPage) {
        assert_eq!(parse_log_entry(&log_entry(&page)), Some(page));
    }

    #[test]
    fn entries_round_trip() {
        let page = JudgedPage {
            id: u64::MAX,
            url: "http://a.example/x?b=1".to_owned(),
            host: "a.example".to_owned(),
            body_hash: u128::MAX - 7,
            fingerprint: Some(0x8c3a),
            elements: 50,
            summary: Some(vec![1, 5, 900]),
            content: PageContent {
                fingerprint: Some(ContentBits::B64(silhouette_simhash::Fingerprint::new(
                    0x0123_4567_89ab_cdef,
                ))),
                signature: Some(u128::MAX / 3),
            },
        };
        check(page.clone());
        check(JudgedPage {
            fingerprint: None,
            summary: None,
            ..page.clone()
        });
        check(JudgedPage {
            summary: Some(Vec::new()),
            content: PageContent {
                fingerprint: Some(ContentBits::B128(silhouette_simhash::Fingerprint128::new(
                    u128::MAX - 1,
                ))),
                signature: None,
            },
            ..page.clone()
        });
        check(JudgedPage {
            content: PageContent::default(),
            ..page
        });
        let e = entry("http://a.example/p", 77, 3, Some("http://a.example/"));
        let lease = parse_entry(&e, "a.example").expect("parses");
        assert_eq!(
            (
                lease.id,
                lease.seq,
                lease.depth,
                lease.url.as_str(),
                lease.referrer.as_deref()
            ),
            (
                url_id("http://a.example/p"),
                77,
                3,
                "http://a.example/p",
                Some("http://a.example/")
            )
        );
        assert_eq!(parse_entry("zz\t1\t1\thttp://a/\t", "a"), None);
        assert_eq!(
            parse_entry("00\t1\thttp://a/\t", "a"),
            None,
            "no sequence number"
        );
        assert_eq!(parse_log_entry("1\t2\t3"), None);
    }
}
