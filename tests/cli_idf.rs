//! `silhouette idf build PATH... [-o FILE]`.

use std::io::Write;
use std::path::Path;

use crate::common::{run_in, scratch};

/// `idf build PATHS` run in `dir` (the table to standard output): its exit code, and what its
/// summary says of the documents (`N documents (…)`; all of standard error when it has none).
pub fn idf_documents(dir: &Path, paths: &[&str]) -> (i32, String) {
    let mut args = vec!["idf", "build"];
    args.extend_from_slice(paths);
    let r = run_in(dir, &args, b"");
    let summary = r
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("idf: "))
        .and_then(|l| l.split_once("), ").map(|(docs, _)| format!("{docs})")));
    (r.code, summary.unwrap_or(r.stderr))
}

/// What `idf_documents` gives for `n` pages read from archives.
pub fn archived(n: usize) -> String {
    format!("{n} documents (0 text files, 0 HTML pages, {n} pages from archives)")
}

/// One WARC/1.1 record of type `kind` for `uri` with `block`.
pub fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{:08x}-0000-4000-8000-000000000000>\r\n\
         WARC-Date: 2026-11-27T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n\
         Content-Type: application/http;msgtype=response\r\nContent-Length: {}\r\n\r\n",
        block.len() * 31 + uri.len(),
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A response record: `status`, `content_type`, `body`.
pub fn response(uri: &str, status: &str, content_type: &str, body: &str) -> Vec<u8> {
    let block = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    record("response", uri, block.as_bytes())
}

/// A page whose navigation repeats `menu`: only its main content counts.
pub fn page(main: &str) -> String {
    format!(
        "<!doctype html><html><head><title>menu</title><script>menu()</script></head><body>\
         <nav>menu menu</nav>{main}<footer>menu</footer></body></html>"
    )
}

#[test]
fn idf_build_reads_html_pages_and_archives_as_their_main_content_text() {
    let archive = [
        response(
            "http://127.0.0.1/1",
            "200 OK",
            "text/html; charset=utf-8",
            &page("<main><p>page</p><p>index</p></main>"),
        ),
        response(
            "http://127.0.0.1/gone",
            "404 Not Found",
            "text/html",
            &page("<p>missing gone</p>"),
        ),
        response(
            "http://127.0.0.1/logo",
            "200 OK",
            "image/png",
            "binary logo",
        ),
        record("revisit", "http://127.0.0.1/1", b"HTTP/1.1 200 OK\r\n\r\n"),
        response(
            "http://127.0.0.1/2",
            "200 OK",
            "text/html",
            &page("<p>crawler</p>"),
        ),
    ]
    .concat();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&archive).expect("gzip");
    let gz = gz.finish().expect("gzip");
    let html = page("<main><h1>crawler</h1><p>index</p></main>");
    let dir = scratch(&[
        ("a.txt", b"crawler page"),
        ("site/page.html", html.as_bytes()),
        ("site/crawl/archive.warc", &archive),
        ("gz/archive.warc.gz", &gz),
    ]);
    // N = 4 (a text, a page, two archived pages): ln(4/4) for `crawler` in 3 documents,
    // ln(4/3) in 2; nothing from the navigation, the title, the script or the 404.
    let expected = "crawler 0.0\nindex 0.28768207245178085\npage 0.28768207245178085\n";
    let r = run_in(dir.path(), &["idf", "build", "a.txt", "site"], b"");
    assert_eq!((r.code, r.stdout.as_str()), (0, expected), "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "idf: 4 documents (1 text files, 1 HTML pages, 2 pages from archives), 3 words, tokenizer=auto\n"
    );
    // The same archive gzipped gives the same table.
    let r = run_in(
        dir.path(),
        &["idf", "build", "a.txt", "site/page.html", "gz"],
        b"",
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, expected), "{}", r.stderr);
}

#[test]
fn idf_build_reports_damaged_records_and_builds_from_the_rest() {
    let good = response(
        "http://127.0.0.1/1",
        "200 OK",
        "text/html",
        &page("<p>crawler page</p>"),
    );
    let bad = record(
        "response",
        "http://127.0.0.1/bad",
        b"this is no HTTP response",
    );
    // A record cut short at the end of the file.
    let mut cut = response(
        "http://127.0.0.1/2",
        "200 OK",
        "text/html",
        &page("<p>lost</p>"),
    );
    cut.truncate(cut.len() / 2);
    let dir = scratch(&[("a.warc", &[good, bad, cut].concat())]);
    let r = run_in(dir.path(), &["idf", "build", "a.warc"], b"");
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (1, "crawler -0.6931471805599453\npage -0.6931471805599453\n"),
        "{}",
        r.stderr
    );
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stderr);
    assert!(
        lines[0].starts_with("error: a.warc: offset "),
        "{}",
        r.stderr
    );
    assert!(lines[1].starts_with("error: a.warc: "), "{}", r.stderr);
    assert!(
        lines[2]
            .starts_with("idf: 1 documents (0 text files, 0 HTML pages, 1 pages from archives)"),
        "{}",
        r.stderr
    );
}

#[test]
fn idf_build_writes_a_table_from_text_files() {
    let dir = scratch(&[
        ("corpus/a.txt", b"the crawler fetches the page"),
        ("corpus/sub/b.txt", b"the index stores the page"),
        ("corpus/c.txt", b"the end"),
        ("corpus/skip.md", b"not a corpus file"),
        ("d.txt", "中文网页".as_bytes()),
    ]);
    let r = run_in(
        dir.path(),
        &["idf", "build", "corpus", "d.txt", "-o", "idf.txt"],
        b"",
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "idf: 4 documents (4 text files, 0 HTML pages, 0 pages from archives), 9 words, tokenizer=auto\n"
    );
    let table = std::fs::read_to_string(dir.path().join("idf.txt")).expect("written");
    // N = 4: ln(4/2) for words in 1 document, ln(4/3) in 2, ln(4/4) = 0 in 3.
    let expected = "crawler 0.6931471805599453\nend 0.6931471805599453\nfetches 0.6931471805599453\n\
                    index 0.6931471805599453\npage 0.28768207245178085\nstores 0.6931471805599453\n\
                    the 0.0\n中文 0.6931471805599453\n网页 0.6931471805599453\n";
    assert_eq!(table, expected);

    // To standard output, the same table.
    let r = run_in(dir.path(), &["idf", "build", "corpus", "d.txt"], b"");
    assert_eq!((r.code, r.stdout.as_str()), (0, expected));
}

#[test]
fn idf_build_errors_name_the_path() {
    let dir = scratch(&[("a.txt", b"word")]);
    let r = run_in(dir.path(), &["idf", "build", "a.txt", "missing.txt"], b"");
    assert_eq!((r.code, r.stdout.as_str()), (2, ""));
    assert!(
        r.stderr.starts_with("error: missing.txt: cannot read"),
        "{}",
        r.stderr
    );
    let r = run_in(dir.path(), &["idf", "build"], b"");
    assert_eq!(r.code, 2, "a PATH is required");
    // No documents at all, standard input: errors, no table.
    std::fs::create_dir(dir.path().join("empty")).expect("mkdir");
    for (args, fragment) in [
        (
            &["idf", "build", "empty"][..],
            "error: no documents in empty",
        ),
        (
            &["idf", "build", "-"][..],
            "error: idf build reads files and directories, not standard input",
        ),
    ] {
        let r = run_in(dir.path(), args, b"");
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{args:?}");
        assert!(r.stderr.starts_with(fragment), "{args:?}: {}", r.stderr);
    }
}
