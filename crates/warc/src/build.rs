//! Builders for the records a crawl writes: warcinfo, request, response, revisit.

use std::time::{SystemTime, UNIX_EPOCH};

use sha1::{Digest as _, Sha1};

use crate::digest::{DigestBuilder, sha1_digest};
use crate::fields::Fields;
use crate::writer::WarcRecord;

/// `WARC-Profile` of a revisit whose payload is byte-identical to the record it refers to.
pub const IDENTICAL_PAYLOAD_DIGEST: &str =
    "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";

/// Response header fields stored under an `X-Crawler-` name, because the stored body is the
/// decoded one (Common Crawl's convention): the digests then describe the stored bytes.
pub const RENAMED_HEADERS: [&str; 3] = ["Content-Encoding", "Transfer-Encoding", "Content-Length"];

/// `time` as a `WARC-Date` (UTC, to the second): `2024-05-01T12:00:00Z`.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = UNIX_EPOCH + Duration::from_secs(1_714_564_800);
/// assert_eq!(silhouette_warc::warc_date(t), "2024-05-01T12:00:00Z");
/// ```
pub fn warc_date(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to (year, month, day): Howard Hinnant's `civil_from_days`.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// A `WARC-Record-ID` derived from `parts`: `<urn:uuid:…>` with a name-based (version 5
/// layout) UUID, so the same inputs give the same file on every run.
pub fn record_id(parts: &[&[u8]]) -> String {
    let mut h = Sha1::new();
    for part in parts {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    let mut b = [0u8; 16];
    b.copy_from_slice(&h.finalize()[..16]);
    b[6] = (b[6] & 0x0f) | 0x50;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// The first fields of a record; its id is derived from `kind`, `date`, `uri` and `block`
/// (the block itself, or its digest).
fn base(kind: &str, date: &str, uri: Option<&str>, block: &[u8]) -> Fields {
    let mut f = Fields::new();
    f.push("WARC-Type", kind);
    let id_parts: [&[u8]; 4] = [
        kind.as_bytes(),
        date.as_bytes(),
        uri.unwrap_or("").as_bytes(),
        block,
    ];
    f.push("WARC-Record-ID", record_id(&id_parts));
    f.push("WARC-Date", date);
    if let Some(uri) = uri {
        f.push("WARC-Target-URI", uri);
    }
    f
}

/// A `warcinfo` record naming `filename`, with `info` as `application/warc-fields`.
pub fn warcinfo(date: &str, filename: &str, info: &[(&str, &str)]) -> WarcRecord {
    let mut block = Vec::new();
    for (k, v) in info {
        block.extend_from_slice(format!("{k}: {v}\r\n").as_bytes());
    }
    let mut fields = base("warcinfo", date, None, &block);
    fields.push("WARC-Filename", filename);
    fields.push("Content-Type", "application/warc-fields");
    WarcRecord { fields, block }
}

/// A `request` record: `head` is the HTTP request as sent (request line, headers, empty
/// line). Link it to its response with `.with_field("WARC-Concurrent-To", id)`.
pub fn request(date: &str, uri: &str, head: Vec<u8>) -> WarcRecord {
    let mut fields = base("request", date, Some(uri), &head);
    fields.push("Content-Type", "application/http; msgtype=request");
    WarcRecord {
        fields,
        block: head,
    }
}

/// A `response` record: `head` from [`http_response_head`], `body` as stored.
pub fn response(date: &str, uri: &str, head: &[u8], body: &[u8]) -> WarcRecord {
    let mut block = Vec::with_capacity(head.len() + body.len());
    block.extend_from_slice(head);
    block.extend_from_slice(body);
    WarcRecord {
        fields: response_fields(date, uri, head, body),
        block,
    }
}

/// The fields of the [`response`] record of `head` and `body`, `WARC-Block-Digest` included,
/// computed without joining head and body: with [`gzip_member`](crate::gzip_member) a
/// crawler archives a page without copying its body. Two SHA-1 passes over the body (payload
/// and block digests); the record id is derived from the block digest.
pub fn response_fields(date: &str, uri: &str, head: &[u8], body: &[u8]) -> Fields {
    let mut block_digest = DigestBuilder::new();
    block_digest.update(head);
    block_digest.update(body);
    let block_digest = block_digest.finish();
    let mut fields = base("response", date, Some(uri), block_digest.as_bytes());
    fields.push("WARC-Payload-Digest", sha1_digest(body));
    fields.push("Content-Type", "application/http; msgtype=response");
    fields.push("WARC-Block-Digest", block_digest);
    fields
}

/// An identical-payload-digest `revisit`: `head` is this response's HTTP head, the payload
/// (digest `payload_digest`) is the one archived for `refers_to_uri` at `refers_to_date`.
pub fn revisit(
    date: &str,
    uri: &str,
    head: &[u8],
    payload_digest: &str,
    refers_to_uri: &str,
    refers_to_date: &str,
) -> WarcRecord {
    let mut fields = base("revisit", date, Some(uri), head);
    fields.push("WARC-Payload-Digest", payload_digest);
    fields.push("WARC-Profile", IDENTICAL_PAYLOAD_DIGEST);
    fields.push("WARC-Refers-To-Target-URI", refers_to_uri);
    fields.push("WARC-Refers-To-Date", refers_to_date);
    fields.push("Content-Type", "application/http; msgtype=response");
    WarcRecord {
        fields,
        block: head.to_vec(),
    }
}

/// The HTTP head of a stored response whose body is `body_len` decoded bytes: status line,
/// `headers` in order with [`RENAMED_HEADERS`] under `X-Crawler-` names, then
/// `Content-Length: body_len` and the empty line.
///
/// ```
/// let head = silhouette_warc::http_response_head(
///     200, "OK", &[("Content-Encoding", "gzip"), ("Content-Type", "text/html")], 5);
/// assert_eq!(head, b"HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\n\
///     Content-Type: text/html\r\nContent-Length: 5\r\n\r\n");
/// ```
pub fn http_response_head(
    status: u16,
    reason: &str,
    headers: &[(&str, &str)],
    body_len: u64,
) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {reason}").trim_end().to_owned();
    out.push_str("\r\n");
    for (name, value) in headers {
        let renamed = RENAMED_HEADERS.iter().any(|r| r.eq_ignore_ascii_case(name));
        let value = value.replace(['\r', '\n'], " ");
        if renamed {
            out.push_str(&format!("X-Crawler-{name}: {value}\r\n"));
        } else {
            out.push_str(&format!("{name}: {value}\r\n"));
        }
    }
    out.push_str(&format!("Content-Length: {body_len}\r\n\r\n"));
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn dates() {
        for (secs, expected) in [
            (0, "1970-01-01T00:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (4_102_444_799, "2099-12-31T23:59:59Z"),
        ] {
            assert_eq!(warc_date(UNIX_EPOCH + Duration::from_secs(secs)), expected);
        }
    }

    #[test]
    fn record_ids_are_stable_uuids() {
        let a = record_id(&[b"x", b"y"]);
        assert_eq!(a, record_id(&[b"x", b"y"]));
        assert_ne!(a, record_id(&[b"xy"]));
        assert_eq!(a.len(), "<urn:uuid:>".len() + 36);
        assert_eq!(&a[24..25], "5");
    }

    #[test]
    fn revisit_has_profile_and_refers_to() {
        let r = revisit(
            "D2",
            "http://a/b",
            b"HTTP/1.1 200 OK\r\n\r\n",
            "sha1:X",
            "http://a/",
            "D1",
        );
        let names: Vec<&str> = r.fields.iter().map(|(n, _)| n).collect();
        assert_eq!(
            names,
            [
                "WARC-Type",
                "WARC-Record-ID",
                "WARC-Date",
                "WARC-Target-URI",
                "WARC-Payload-Digest",
                "WARC-Profile",
                "WARC-Refers-To-Target-URI",
                "WARC-Refers-To-Date",
                "Content-Type"
            ]
        );
        assert_eq!(r.fields.get("WARC-Refers-To-Date"), Some("D1"));
    }
}
