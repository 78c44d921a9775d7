//! `silhouette text [--words] PATH...`.

use crate::common::{run_in, scratch};
use crate::sites::{Response, Server};

/// A page with chrome around its main content, a script in it, inline markup inside a word
/// and a line break inside a paragraph.
const PAGE: &str = "<!doctype html><html><head><title>Title</title><script>var x = 1;</script>\
    </head><body><nav>home  about</nav><main><h1>Hello   World</h1><p>First <b>para</b>graph,\n\
    second line.</p><ul><li>one<li>two</ul><script>skip()</script></main>\
    <footer>(c) site</footer></body></html>";

/// `silhouette ARGS` in a directory holding `page.html` (PAGE), `zh.html`, `notes.txt` and
/// `page` (PAGE, no extension), with `stdin`: exit code, stdout, stderr.
fn check(args: &[&str], stdin: &str, expected: (i32, &str, &str)) {
    let dir = scratch(&[
        ("page.html", PAGE.as_bytes()),
        ("page", PAGE.as_bytes()),
        (
            "zh.html",
            "<body><nav>导航</nav><article><p>网页去重是搜索引擎的重要环节</p></article></body>"
                .as_bytes(),
        ),
        ("notes.txt", b"Plain <b>text</b>, as it is\n"),
    ]);
    let r = run_in(dir.path(), args, stdin.as_bytes());
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        expected,
        "{args:?}"
    );
}

#[test]
fn text_prints_the_main_content_one_block_a_line() {
    let text = "Hello World\nFirst paragraph, second line.\none\ntwo\n";
    check(&["text", "page.html"], "", (0, text, ""));
    // Any name but `.txt` is a page; `-` reads one from standard input.
    check(&["text", "page"], "", (0, text, ""));
    check(&["text", "-"], PAGE, (0, text, ""));
    check(
        &["text", "notes.txt"],
        "",
        (0, "Plain <b>text</b>, as it is\n", ""),
    );
    check(
        &["text", "zh.html"],
        "",
        (0, "网页去重是搜索引擎的重要环节\n", ""),
    );
}

#[test]
fn text_words_are_the_content_signals_words() {
    check(
        &["text", "--words", "page.html"],
        "",
        (
            0,
            "hello\nworld\nfirst\nparagraph\nsecond\nline\none\ntwo\n",
            "",
        ),
    );
    // Chinese by jieba (`auto`), stop words included.
    check(
        &["text", "--words", "zh.html"],
        "",
        (0, "网页\n去\n重\n是\n搜索引擎\n的\n重要环节\n", ""),
    );
}

#[test]
fn text_of_several_pages_names_each_and_reports_the_unreadable() {
    check(
        &["text", "page.html", "missing.html", "zh.html", "pages.warc"],
        "",
        (
            1,
            "==> page.html <==\nHello World\nFirst paragraph, second line.\none\ntwo\n\n\
             ==> zh.html <==\n网页去重是搜索引擎的重要环节\n",
            "error: missing.html: cannot read: No such file or directory (os error 2)\n\
             error: pages.warc: cannot read: No such file or directory (os error 2)\n",
        ),
    );
}

#[test]
fn text_reads_every_page_of_an_archive() {
    use crate::cli_idf::{page, record, response};
    let warc = [
        response(
            "http://127.0.0.1/a",
            "200 OK",
            "text/html",
            &page("<p>first page</p>"),
        ),
        // Not a page: no document.
        response("http://127.0.0.1/b.css", "200 OK", "text/css", "p { }"),
        record(
            "response",
            "http://127.0.0.1/bad",
            b"this is no HTTP response",
        ),
        response(
            "http://127.0.0.1/c",
            "200 OK",
            "text/html",
            &page("<p>second page</p>"),
        ),
    ]
    .concat();
    let dir = scratch(&[("a.warc", &warc)]);
    let r = run_in(dir.path(), &["text", "a.warc"], b"");
    assert_eq!(r.code, 1, "{}", r.stderr);
    // Each page named by its file, offset and URL.
    let names: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with("==> ")).collect();
    assert_eq!(names.len(), 2, "{}", r.stdout);
    assert!(
        names[0].starts_with("==> a.warc: offset 0 http://127.0.0.1/a"),
        "{}",
        r.stdout
    );
    assert!(
        names[1].ends_with(" http://127.0.0.1/c <=="),
        "{}",
        r.stdout
    );
    let texts: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| !l.starts_with("==> "))
        .collect();
    assert_eq!(texts, ["first page", "", "second page"], "{}", r.stdout);
    assert!(
        r.stderr.starts_with("error: a.warc: ") && r.stderr.lines().count() == 1,
        "{}",
        r.stderr
    );
}

/// A site on loopback: `/page.html` (PAGE), `/private.html` (robots.txt disallows it),
/// `/notes.txt` (plain text); anything else is a 404.
fn web_site() -> Server {
    Server::start(|_| {
        |target: &str| match target {
            "/robots.txt" => Response::text(200, "User-agent: *\nDisallow: /private\n"),
            "/page.html" | "/private.html" => Response::html(PAGE.to_owned()),
            "/notes.txt" => Response::text(200, "plain text"),
            _ => Response::text(404, "not found"),
        }
    })
}

#[test]
fn text_fetches_urls_as_the_crawl_does() {
    let site = web_site();
    let dir = scratch(&[]);
    let page = site.url("/page.html");
    let r = run_in(dir.path(), &["text", &page], b"");
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (
            0,
            "Hello World\nFirst paragraph, second line.\none\ntwo\n",
            ""
        )
    );
    // robots.txt, HTTP statuses and other types are reported, each naming its URL.
    let (private, missing, notes) = (
        site.url("/private.html"),
        site.url("/missing.html"),
        site.url("/notes.txt"),
    );
    let r = run_in(dir.path(), &["text", &private, &missing, &notes], b"");
    assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{}", r.stderr);
    assert!(
        lines[0].starts_with(&format!("error: {private}: robots_disallowed: ")),
        "{}",
        r.stderr
    );
    assert!(
        lines[1].starts_with(&format!("error: {missing}: http_status: ")),
        "{}",
        r.stderr
    );
    assert_eq!(
        lines[2],
        format!("error: {notes}: not an HTML page (Content-Type: text/plain)")
    );
    // The page itself was never asked for past robots.txt.
    assert!(
        !site.hits().iter().any(|h| h.target == "/private.html"),
        "{:?}",
        site.hits()
    );
}

#[test]
fn a_fetched_page_never_redirects_to_another_private_address() {
    let site = Server::start(|port| {
        move |target: &str| match target {
            "/moved.html" => Response {
                status: 302,
                content_type: "text/plain",
                location: Some(format!("http://127.0.0.2:{port}/page.html")),
                body: Vec::new(),
            },
            _ => Response::text(404, "not found"),
        }
    });
    let sentinel = Server::sentinel("127.0.0.2".parse().expect("an address"), site.addr.port());
    let dir = scratch(&[]);
    let moved = site.url("/moved.html");
    let r = run_in(dir.path(), &["text", &moved], b"");
    assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with(&format!("error: {moved}: blocked_address: "))
            && r.stderr.contains("127.0.0.2"),
        "{}",
        r.stderr
    );
    if let Some(s) = sentinel {
        assert_eq!(s.served(), 0, "127.0.0.2 was contacted");
    }
}
