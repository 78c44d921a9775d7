//! CDXJ index lines for the records a [`WarcWriter`](crate::WarcWriter) wrote.

use crate::http::parse_http_response;
use crate::writer::{WarcRecord, Written};

/// The SURT sort key of `url` as CDXJ indexes use it: host labels (and IPv4 octets, as
/// cdxj-indexer does) reversed and joined by commas (a leading `www.` dropped, IPv6 as it
/// is), `)`, then the lower-cased path and the query with its parameters sorted.
///
/// ```
/// assert_eq!(silhouette_warc::surt("https://www.Example.com/A/b?z=1&a=2"), "com,example)/a/b?a=2&z=1");
/// assert_eq!(silhouette_warc::surt("http://127.0.0.1:8080/"), "1,0,0,127:8080)/");
/// ```
pub fn surt(url: &str) -> String {
    let lower = url.trim().to_ascii_lowercase();
    let rest = lower.split_once("://").map_or(lower.as_str(), |(_, r)| r);
    let rest = rest.split('#').next().unwrap_or("");
    let split = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, path_query) = rest.split_at(split);
    let authority = authority.rsplit('@').next().unwrap_or("");
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if p.bytes().all(|b| b.is_ascii_digit()) => (h, Some(p)),
        _ => (authority, None),
    };
    let port = port.filter(|p| !matches!(*p, "" | "80" | "443"));
    let is_ipv4 = host.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let mut key = if host.starts_with('[') {
        host.to_owned()
    } else if is_ipv4 {
        host.split('.').rev().collect::<Vec<_>>().join(",")
    } else {
        let host = host.strip_prefix("www.").unwrap_or(host);
        host.split('.').rev().collect::<Vec<_>>().join(",")
    };
    if let Some(port) = port {
        key.push(':');
        key.push_str(port);
    }
    key.push(')');
    let (path, query) = match path_query.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (path_query, None),
    };
    key.push_str(if path.is_empty() { "/" } else { path });
    if let Some(query) = query.filter(|q| !q.is_empty()) {
        let mut params: Vec<&str> = query.split('&').collect();
        params.sort_unstable();
        key.push('?');
        key.push_str(&params.join("&"));
    }
    key
}

/// The 14-digit CDXJ timestamp of a `WARC-Date` (`2024-05-01T12:00:00Z` → `20240501120000`).
pub fn cdxj_timestamp(warc_date: &str) -> String {
    warc_date
        .bytes()
        .filter(u8::is_ascii_digit)
        .take(14)
        .map(char::from)
        .collect()
}

/// The CDXJ line (without line break) for a `response`, `revisit` or `resource` record
/// written at `written` into `filename`; `None` for other records or without a target URI.
pub fn cdxj_line(record: &WarcRecord, written: Written, filename: &str) -> Option<String> {
    let fields = &record.fields;
    let kind = fields.get("WARC-Type")?;
    let url = fields.get("WARC-Target-URI")?;
    let date = fields.get("WARC-Date").unwrap_or("");
    let mut json: Vec<(&str, String)> = vec![("url", url.to_owned())];
    let http = parse_http_response(&record.block).ok();
    let mime = match kind {
        "revisit" => Some("warc/revisit".to_owned()),
        "response" => http
            .as_ref()
            .and_then(|h| h.content_type())
            .map(str::to_owned),
        "resource" => fields.get("Content-Type").map(str::to_owned),
        _ => return None,
    };
    if let Some(mime) = mime {
        json.push(("mime", mime));
    }
    if let Some(http) = http.filter(|_| kind != "resource") {
        json.push(("status", http.status.to_string()));
    }
    if let Some(digest) = fields.get("WARC-Payload-Digest") {
        json.push(("digest", digest.to_owned()));
    }
    json.push(("length", written.length.to_string()));
    json.push(("offset", written.offset.to_string()));
    json.push(("filename", filename.to_owned()));
    let members: Vec<String> = json
        .iter()
        .map(|(k, v)| {
            format!(
                "{}:{}",
                serde_json::Value::from(*k),
                serde_json::Value::from(v.as_str())
            )
        })
        .collect();
    Some(format!(
        "{} {} {{{}}}",
        surt(url),
        cdxj_timestamp(date),
        members.join(",")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surt_keys() {
        for (url, key) in [
            ("http://example.com", "com,example)/"),
            (
                "http://www.example.com:80/Path?b=2&a=1#frag",
                "com,example)/path?a=1&b=2",
            ),
            ("https://sub.example.org:8443/x", "org,example,sub:8443)/x"),
            ("http://user@127.0.0.1:8000/a?", "1,0,0,127:8000)/a"),
            ("http://[::1]:8000/", "[::1]:8000)/"),
        ] {
            assert_eq!(surt(url), key, "{url}");
        }
    }

    #[test]
    fn a_response_line() {
        let head = crate::http_response_head(200, "OK", &[("Content-Type", "text/html")], 2);
        let record = crate::response("2024-05-01T12:00:00Z", "http://a.example/", &head, b"hi");
        let line = cdxj_line(
            &record,
            Written {
                offset: 7,
                length: 99,
            },
            "f.warc.gz",
        );
        let expected = format!(
            "example,a)/ 20240501120000 {{\"url\":\"http://a.example/\",\"mime\":\"text/html\",\
             \"status\":\"200\",\"digest\":\"{}\",\"length\":\"99\",\"offset\":\"7\",\"filename\":\"f.warc.gz\"}}",
            crate::sha1_digest(b"hi")
        );
        assert_eq!(line.as_deref(), Some(expected.as_str()));
        assert_eq!(
            cdxj_line(
                &crate::warcinfo("d", "f", &[]),
                Written {
                    offset: 0,
                    length: 1
                },
                "f"
            ),
            None
        );
    }
}
