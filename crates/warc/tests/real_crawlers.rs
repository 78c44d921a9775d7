//! Reading what real tools write: Debian's wget (`--warc-file`, with and without
//! `--warc-dedup`, gzip and not) crawling a site served on 127.0.0.1, and warcio's
//! `WARCWriter` (WARC/1.1 and 1.0, gzip and not).

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use silhouette_warc::{RecordType, parse_http_response, sha1_digest};

use common::{HttpServer, python, read_all, tool};

/// A small site: a home page linking to five pages, two of them byte-identical.
fn write_site(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut pages = BTreeMap::new();
    let links: String = (1..=5)
        .map(|i| format!("<li><a href=\"p{i}.html\">page {i}</a></li>"))
        .collect();
    pages.insert(
        "/index.html".to_owned(),
        format!("<html><body><ul>{links}</ul></body></html>").into_bytes(),
    );
    for i in 1..=5 {
        let text = if i == 5 {
            "same as one".to_owned()
        } else {
            format!("page number {i}")
        };
        let body =
            format!("<html><body><h1>{text}</h1><a href=\"index.html\">home</a></body></html>");
        pages.insert(format!("/p{i}.html"), body.into_bytes());
    }
    let same = pages["/p5.html"].clone();
    pages.insert("/p1.html".to_owned(), same);
    for (path, body) in &pages {
        fs::write(dir.join(&path[1..]), body).expect("write the site");
    }
    pages
}

/// Per record type, how many; and every response's path and body, checked against the site.
fn check_wget_file(bytes: &[u8], site: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for rec in read_all(bytes) {
        let (header, block) = rec.expect("wget's records are all readable");
        *counts.entry(header.record_type().to_string()).or_insert(0) += 1;
        let uri = header.target_uri().unwrap_or_default().to_owned();
        assert!(!uri.starts_with('<'), "angle brackets stripped: {uri}");
        let path = uri
            .find("/p")
            .or_else(|| uri.find("/index"))
            .map(|i| &uri[i..]);
        match header.record_type() {
            RecordType::Response => {
                let http = parse_http_response(&block).expect("an HTTP response");
                let body = http.decoded_body(&block, 1 << 20).expect("a body");
                if let Some(expected) = path.and_then(|p| site.get(p)) {
                    assert_eq!(http.status, 200, "{uri}");
                    assert_eq!(&body[..], &expected[..], "{uri}");
                    assert_eq!(
                        header.payload_digest(),
                        Some(sha1_digest(expected).as_str()),
                        "{uri}"
                    );
                }
            }
            RecordType::Revisit => {
                let profile = header.fields.get("WARC-Profile").unwrap_or_default();
                assert!(
                    profile.ends_with("/revisit/identical-payload-digest"),
                    "{uri}: {profile}"
                );
                assert!(
                    header
                        .fields
                        .get("WARC-Refers-To")
                        .is_some_and(|id| id.starts_with("<urn:uuid:")),
                    "{uri}"
                );
            }
            _ => {}
        }
    }
    counts
}

#[test]
fn wget_archives_with_and_without_dedup() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let site_dir = dir.path().join("site");
    fs::create_dir(&site_dir).expect("mkdir");
    let site = write_site(&site_dir);
    let server = HttpServer::start(&site_dir);
    let url = server.url("/index.html");
    let wget = |args: &[&str]| {
        let mut all = vec![
            "--recursive",
            "--level=2",
            "--no-verbose",
            "--tries=1",
            "--delete-after",
            "--no-directories",
        ];
        all.extend_from_slice(args);
        all.push(&url);
        let out = tool("wget", &all, dir.path());
        assert!(
            out.status.success(),
            "wget failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    wget(&["--warc-file=first", "--warc-cdx"]);
    wget(&["--warc-file=second", "--warc-dedup=first.cdx"]);
    wget(&["--warc-file=plain", "--no-warc-compression"]);

    let first = fs::read(dir.path().join("first.warc.gz")).expect("wget wrote first.warc.gz");
    let counts = check_wget_file(&first, &site);
    assert_eq!(counts.get("response"), Some(&7), "{counts:?}"); // 6 pages + robots.txt (404)
    assert_eq!(counts.get("warcinfo"), Some(&1), "{counts:?}");
    assert!(counts.get("request") >= Some(&7), "{counts:?}");

    let second = fs::read(dir.path().join("second.warc.gz")).expect("wget wrote second.warc.gz");
    let counts = check_wget_file(&second, &site);
    // The six pages are unchanged since the first crawl (wget may fetch robots.txt afresh).
    assert!(counts.get("revisit") >= Some(&6), "{counts:?}");
    let fetched = counts.get("revisit").unwrap_or(&0) + counts.get("response").unwrap_or(&0);
    assert_eq!(fetched, 7, "{counts:?}");

    let plain = fs::read(dir.path().join("plain.warc")).expect("wget wrote plain.warc");
    assert_ne!(&plain[..2], &[0x1f, 0x8b]);
    let counts = check_wget_file(&plain, &site);
    assert_eq!(counts.get("response"), Some(&7), "{counts:?}");
}

#[test]
fn warcio_writer_in_both_versions_and_compressions() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let script = r#"
from io import BytesIO
from warcio.warcwriter import WARCWriter
from warcio.statusandheaders import StatusAndHeaders
for version in ('1.0', '1.1'):
    for gz in (True, False):
        name = 'warcio-%s-%s.warc%s' % (version, 'gz' if gz else 'plain', '.gz' if gz else '')
        with open(name, 'wb') as out:
            w = WARCWriter(out, gzip=gz, warc_version=version)
            w.write_record(w.create_warcinfo_record(name, {'software': 'warcio'}))
            for i in range(3):
                body = ('<html><p>page %d</p></html>' % i).encode()
                headers = StatusAndHeaders('200 OK', [('Content-Type', 'text/html')], protocol='HTTP/1.1')
                rec = w.create_warc_record('http://example.com/%d' % i, 'response',
                                           payload=BytesIO(body), http_headers=headers)
                w.write_record(rec)
            w.write_record(w.create_warc_record('http://example.com/r', 'resource',
                                                payload=BytesIO(b'raw'), warc_content_type='text/plain'))
"#;
    python(script, dir.path());
    for name in [
        "warcio-1.0-gz.warc.gz",
        "warcio-1.0-plain.warc",
        "warcio-1.1-gz.warc.gz",
        "warcio-1.1-plain.warc",
    ] {
        let bytes = fs::read(dir.path().join(name)).expect("warcio wrote the file");
        let version = &name[7..10];
        let records: Vec<_> = read_all(&bytes)
            .into_iter()
            .map(|r| r.expect("readable"))
            .collect();
        let kinds: Vec<String> = records
            .iter()
            .map(|(h, _)| h.record_type().to_string())
            .collect();
        assert_eq!(
            kinds,
            ["warcinfo", "response", "response", "response", "resource"],
            "{name}"
        );
        for (header, block) in &records {
            assert_eq!(header.version, version, "{name}");
            assert_eq!(
                header.fields.get("WARC-Block-Digest"),
                Some(sha1_digest(block).as_str()),
                "{name}"
            );
            if header.record_type() == RecordType::Response {
                let http = parse_http_response(block).expect("an HTTP response");
                assert_eq!(
                    header.payload_digest(),
                    Some(sha1_digest(http.body(block)).as_str()),
                    "{name}"
                );
                assert!(http.is_html(), "{name}");
            }
        }
    }
}
