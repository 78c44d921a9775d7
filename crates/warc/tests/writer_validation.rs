//! What the writer produces passes `warcio check -v`, and `cdxj-indexer` indexes it at the
//! offsets the writer reported; reading at each indexed offset gives the indexed record.

mod common;

use std::collections::BTreeMap;
use std::fs;

use serde_json::Value;
use silhouette_warc::{
    WarcReader, WarcRecord, WarcWriter, Written, cdxj_line, http_response_head, request, response,
    revisit, sha1_digest, warcinfo,
};

use common::{python, tool};

const DATE: &str = "2024-05-01T12:00:00Z";

/// URL, response headers, body.
type Page = (
    &'static str,
    &'static [(&'static str, &'static str)],
    &'static [u8],
);

/// A small crawl: warcinfo, then request + response per page, a revisit for a duplicate.
fn records() -> Vec<WarcRecord> {
    let mut out = vec![warcinfo(
        DATE,
        "test.warc.gz",
        &[
            ("software", "silhouette test"),
            ("format", "WARC File Format 1.1"),
        ],
    )];
    let pages: [Page; 3] = [
        (
            "http://example.com/",
            &[("Content-Type", "text/html")],
            b"<html><p>home</p></html>",
        ),
        (
            "http://example.com/gz?b=1&a=2",
            &[
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Encoding", "gzip"),
                ("Content-Length", "17"),
            ],
            b"<html><p>decoded body</p></html>",
        ),
        (
            "http://www.example.com/img.png",
            &[
                ("Content-Type", "image/png"),
                ("Transfer-Encoding", "chunked"),
            ],
            &[0, 1, 2, 255],
        ),
    ];
    for (uri, headers, body) in pages {
        let head = http_response_head(200, "OK", headers, body.len() as u64);
        let resp = response(DATE, uri, &head, body).with_field("WARC-IP-Address", "127.0.0.1");
        let id = resp.id().unwrap_or_default().to_owned();
        let req = "GET / HTTP/1.1\r\nHost: example.com\r\nUser-Agent: test\r\n\r\n".to_owned();
        out.push(request(DATE, uri, req.into_bytes()).with_field("WARC-Concurrent-To", id));
        out.push(resp);
    }
    let head = http_response_head(200, "OK", &[("Content-Type", "text/html")], 24);
    out.push(revisit(
        "2024-05-01T12:00:05Z",
        "http://example.com/copy",
        &head,
        &sha1_digest(b"<html><p>home</p></html>"),
        "http://example.com/",
        DATE,
    ));
    out
}

#[test]
fn warcio_checks_and_cdxj_indexer_agrees_on_offsets() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("test.warc.gz");
    let records = records();
    let mut writer = WarcWriter::new(Vec::new());
    let written: Vec<Written> = records
        .iter()
        .map(|r| writer.write(r).expect("writes to a Vec"))
        .collect();
    let file = writer.into_inner().expect("writes to a Vec");
    fs::write(&path, &file).expect("write the WARC");

    let check = tool("warcio", &["check", "-v", "test.warc.gz"], dir.path());
    let report = String::from_utf8_lossy(&check.stdout).into_owned()
        + &String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success(), "warcio check failed:\n{report}");
    assert!(
        !report.contains("fail"),
        "warcio check reports a failure:\n{report}"
    );
    assert!(
        report.matches("digest pass").count() >= 7,
        "digests not checked:\n{report}"
    );

    // Our CDXJ lines: one per response and revisit, by URL.
    let ours: BTreeMap<String, Value> = records
        .iter()
        .zip(&written)
        .filter_map(|(r, w)| cdxj_line(r, *w, "test.warc.gz"))
        .map(|line| json_of(&line))
        .map(|v| (v["url"].as_str().unwrap_or_default().to_owned(), v))
        .collect();
    assert_eq!(ours.len(), 4);

    let index = tool("cdxj-indexer", &["test.warc.gz"], dir.path());
    assert!(
        index.status.success(),
        "cdxj-indexer failed: {}",
        String::from_utf8_lossy(&index.stderr)
    );
    let mut indexed = 0;
    for line in String::from_utf8_lossy(&index.stdout).lines() {
        let theirs = json_of(line);
        let url = theirs["url"].as_str().unwrap_or_default();
        let Some(mine) = ours.get(url) else { continue };
        indexed += 1;
        for key in ["offset", "length", "digest", "status", "mime"] {
            assert_eq!(theirs.get(key), mine.get(key), "{key} of {url}");
        }
        // Replay the lookup: the record at the indexed offset is the indexed one.
        let offset: usize = theirs["offset"]
            .as_str()
            .and_then(|o| o.parse().ok())
            .expect("an offset");
        let mut reader = WarcReader::new(&file[offset..]);
        let mut rec = reader
            .next_record()
            .expect("a record at the offset")
            .expect("readable");
        assert_eq!(rec.header().target_uri(), Some(url));
        let block = rec.read_block(1 << 20).expect("the block");
        let payload = silhouette_warc::parse_http_response(&block).expect("an HTTP response");
        let digest = rec
            .header()
            .payload_digest()
            .expect("a payload digest")
            .to_owned();
        assert_eq!(Some(digest.as_str()), theirs["digest"].as_str());
        if rec.header().record_type() == silhouette_warc::RecordType::Response {
            assert_eq!(sha1_digest(payload.body(&block)), digest);
        }
    }
    assert_eq!(
        indexed, 4,
        "cdxj-indexer indexed every response and revisit"
    );

    // And warcio reads back the same records in the same order.
    let listed = python(
        "from warcio.archiveiterator import ArchiveIterator\n\
         for r in ArchiveIterator(open('test.warc.gz', 'rb')):\n    \
         print(r.rec_type, r.rec_headers.get_header('WARC-Target-URI'))",
        dir.path(),
    );
    let expected: Vec<String> = records
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r.fields.get("WARC-Type").unwrap_or(""),
                r.fields.get("WARC-Target-URI").unwrap_or("None")
            )
        })
        .collect();
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout)
            .lines()
            .collect::<Vec<_>>(),
        expected
    );
}

fn json_of(line: &str) -> Value {
    let json = line.splitn(3, ' ').nth(2).expect("SURT, timestamp, JSON");
    serde_json::from_str(json).expect("valid JSON")
}
