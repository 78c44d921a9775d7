//! The crawl's second signal on loopback sites: `[dedup] drop-when` with content
//! fingerprints, and `replay` switching policies offline.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::common::run_in;
use crate::crawl_support::{config, crawl, field, jsonl, stats};
use crate::sites::{Response, Rng, Server};

/// The text of article `n`: a title and paragraphs of words drawn from 600 made-up ones, so
/// that two articles share little.
fn article_text(n: u32) -> (String, Vec<String>) {
    const SYLLABLES: [&str; 24] = [
        "ka", "lo", "mi", "ren", "tor", "vash", "quel", "dun", "sip", "bra", "nor", "elt", "fi",
        "gash", "hum", "jor", "pex", "ruv", "sam", "tiq", "ub", "wen", "yol", "zed",
    ];
    // The number first: the generator's seed hash mixes early bytes best.
    let mut rng = Rng::new(&format!("{n}: an article"));
    let mut word = || {
        let a = rng.range(0, 23) as usize;
        let b = rng.range(0, 23) as usize;
        let c = rng.range(0, 1) as usize;
        format!("{}{}{}", SYLLABLES[a], SYLLABLES[b], ["", "s"][c])
    };
    let title = (0..4).map(|_| word()).collect::<Vec<_>>().join(" ");
    let paragraphs = (0..6)
        .map(|_| (0..30).map(|_| word()).collect::<Vec<_>>().join(" ") + ".")
        .collect();
    (title, paragraphs)
}

/// Article `n` in the site's template: header, nav, footer, the text in `<article>`.
fn templated(n: u32) -> String {
    let (title, paragraphs) = article_text(n);
    let mut body = String::from(
        "<header class=site><a href=/>Home</a></header><nav class=menu><ul><li><a href=/>Home</a></li>\
         <li><a href=/>News</a></li><li><a href=/>About</a></li></ul></nav>\
         <div class=layout><main class=post><article>",
    );
    let _ = write!(body, "<h1>{title}</h1>");
    for p in &paragraphs {
        let _ = write!(body, "<p>{p}</p>");
    }
    body.push_str(
        "</article><aside class=side><h2>More</h2><ul><li><a href=/>Home</a></li></ul></aside>\
         </main></div><footer class=site><p>Footer</p></footer>",
    );
    format!(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>{title}</title>\
         <link rel=stylesheet href=/s.css></head><body>{body}</body></html>"
    )
}

/// The print view of article `n`: a bare page with the same text.
fn print_view(n: u32) -> String {
    let (title, paragraphs) = article_text(n);
    let mut body = format!("<h1>{title}</h1>");
    for p in &paragraphs {
        let _ = write!(body, "<p>{p}</p>");
    }
    format!("<html><head><title>{title}</title></head><body>{body}</body></html>")
}

/// Article `n` on a mirror: another site's layout (tables), the same text in `<main>`.
fn mirrored(n: u32) -> String {
    let (title, paragraphs) = article_text(n);
    let mut body = String::from("<table class=frame><tr><td class=logo>Mirror</td></tr>");
    for i in 0..8 {
        let _ = write!(
            body,
            "<tr><td class=menu{i}><a href=/>link {i}</a></td></tr>"
        );
    }
    body.push_str("</table><main>");
    let _ = write!(body, "<h2>{title}</h2>");
    for p in &paragraphs {
        let _ = write!(body, "<div class=para><span>{p}</span></div>");
    }
    body.push_str("</main><table class=bottom><tr><td>(c)</td></tr></table>");
    format!("<html><head><title>{title} (mirror)</title></head><body>{body}</body></html>")
}

/// Six articles in one template, the print view of article 1 and a mirror of article 1, all
/// linked from the home page in this order.
pub fn site(target: &str) -> Response {
    let home = || {
        let mut links: Vec<String> = (1..=6).map(|n| format!("/a/{n}")).collect();
        links.push("/print/1".into());
        links.push("/mirror/a/1".into());
        let list: String = links
            .iter()
            .map(|l| format!("<li><a href={l}>{l}</a></li>"))
            .collect();
        format!(
            "<!DOCTYPE html><html><head><title>Home</title></head><body><h1>Home</h1><ul>{list}</ul></body></html>"
        )
    };
    let path = target.split('?').next().unwrap_or(target);
    let number = |prefix: &str| {
        path.strip_prefix(prefix)
            .and_then(|n| n.parse::<u32>().ok())
    };
    let html = if path == "/" {
        home()
    } else if let Some(n) = number("/a/") {
        templated(n)
    } else if let Some(n) = number("/print/") {
        print_view(n)
    } else if let Some(n) = number("/mirror/a/") {
        mirrored(n)
    } else {
        return crate::sites::not_found();
    };
    Response::html(html)
}

/// One page at a time: pages are judged in link order, so every run decides the same.
fn crawl_with(dir: &Path, server: &Server, args: &[&str]) -> BTreeMap<String, String> {
    let toml = config("", "concurrency = 1");
    let mut all = args.to_vec();
    let seed = server.url("/");
    all.push(&seed);
    let r = crawl(dir, &toml, &all);
    assert_eq!(r.code, 0, "crawl {args:?}: {}", r.stderr);
    decisions(dir)
}

/// Path → decision, from `STATE/decisions.jsonl`.
fn decisions(dir: &Path) -> BTreeMap<String, String> {
    jsonl(&dir.join("state/decisions.jsonl"))
        .iter()
        .filter_map(|r| {
            let url = field(r, "url")?;
            let path = ["/mirror/", "/print/", "/a/"]
                .iter()
                .find_map(|p| url.find(p));
            let path = path.map_or("/", |at| &url[at..]);
            Some((path.to_owned(), field(r, "decision")?.to_owned()))
        })
        .collect()
}

fn expect(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(p, d)| ((*p).to_owned(), (*d).to_owned()))
        .collect()
}

#[test]
fn print_views_and_mirrors_are_content_duplicates_under_structure_or_content() {
    let server = Server::start(|_| site);
    let dir = tempfile::tempdir().expect("tempdir");
    let got = crawl_with(
        dir.path(),
        &server,
        &["--drop-when", "structure-or-content"],
    );
    let articles_near = [
        ("/", "kept"),
        ("/a/1", "kept"),
        ("/a/2", "near-duplicate"),
        ("/a/3", "near-duplicate"),
        ("/a/4", "near-duplicate"),
        ("/a/5", "near-duplicate"),
        ("/a/6", "near-duplicate"),
        ("/print/1", "content-duplicate"),
        ("/mirror/a/1", "content-duplicate"),
    ];
    assert_eq!(got, expect(&articles_near));
    // The record says which kept page's content it copies, and how far.
    let records = jsonl(&dir.path().join("state/decisions.jsonl"));
    let print = records
        .iter()
        .find(|r| field(r, "url").is_some_and(|u| u.ends_with("/print/1")))
        .expect("the print view's record");
    assert_eq!(
        field(print, "content_duplicate_of"),
        Some(&*server.url("/a/1"))
    );
    // The article's `<main>` holds its aside too: a few words more than the print view.
    let distance = print["content_distance"].as_u64().expect("a distance");
    assert!(distance <= 3, "{distance}");
    assert_eq!(field(print, "content_fingerprint").map(str::len), Some(16));
    assert_eq!(field(print, "signature").map(str::len), Some(32));
    // stats lists the new decision.
    let (_, per) = stats(dir.path());
    assert_eq!(per.get("content-duplicate"), Some(&2), "{per:?}");
}

#[test]
fn content_keeps_every_article_and_drops_their_copies() {
    // Content alone: the six articles are kept, the print view and the mirror are dropped.
    let server = Server::start(|_| site);
    let dir = tempfile::tempdir().expect("tempdir");
    let got = crawl_with(dir.path(), &server, &["--drop-when", "content"]);
    let mut want = vec![("/", "kept"), ("/print/1", "content-duplicate")];
    want.extend((1..=6).map(|n| {
        (
            ["/a/1", "/a/2", "/a/3", "/a/4", "/a/5", "/a/6"][n - 1],
            "kept",
        )
    }));
    want.push(("/mirror/a/1", "content-duplicate"));
    assert_eq!(got, expect(&want));
    let out = jsonl(&dir.path().join("state/pages.jsonl"));
    assert_eq!(out.len(), 7, "the copies are not emitted");
}

#[test]
fn articles_sharing_a_template_are_all_kept_under_structure_and_content() {
    let server = Server::start(|_| site);
    let dir = tempfile::tempdir().expect("tempdir");
    let got = crawl_with(
        dir.path(),
        &server,
        &["--drop-when", "structure-and-content"],
    );
    let mut want: Vec<(&str, &str)> =
        vec![("/", "kept"), ("/print/1", "kept"), ("/mirror/a/1", "kept")];
    want.extend(["/a/1", "/a/2", "/a/3", "/a/4", "/a/5", "/a/6"].map(|p| (p, "kept")));
    assert_eq!(got, expect(&want));
}

/// `replay`'s `decisions now:` line as decision → pages.
fn replayed(dir: &Path, args: &[&str]) -> BTreeMap<String, u64> {
    let mut all = vec!["--config", "c.toml", "replay", "state"];
    all.extend_from_slice(args);
    let r = run_in(dir, &all, b"");
    assert_eq!(r.code, 0, "replay {args:?}: {}", r.stderr);
    let line = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("decisions now: "))
        .unwrap_or_else(|| panic!("no decisions line in {}", r.stdout));
    line.split(", ")
        .map(|part| {
            let (d, n) = part.rsplit_once(' ').expect("decision count");
            (d.to_owned(), n.parse().expect("a count"))
        })
        .collect()
}

#[test]
fn replay_switches_policy_and_agrees_with_a_fresh_crawl() {
    let server = Server::start(|_| site);
    let recorded = tempfile::tempdir().expect("tempdir");
    // drop-when = "structure" with the content signal recorded (content.enabled).
    crawl_with(recorded.path(), &server, &["--content"]);
    // The recorded policy, replayed: as crawled.
    let (_, crawled) = stats(recorded.path());
    let same = replayed(recorded.path(), &[]);
    assert_eq!(same, crawled, "replay of the recorded policy");
    for mode in ["structure-or-content", "content", "structure-and-content"] {
        let offline = replayed(recorded.path(), &["--drop-when", mode]);
        let fresh = tempfile::tempdir().expect("tempdir");
        crawl_with(fresh.path(), &server, &["--drop-when", mode]);
        let (_, online) = stats(fresh.path());
        assert_eq!(
            offline, online,
            "drop-when = {mode}: replay vs a fresh crawl"
        );
    }
    // At content threshold 0 only identical fingerprints or signatures are near.
    let strict = replayed(
        recorded.path(),
        &["--drop-when", "content", "--content-threshold", "0"],
    );
    let loose = replayed(recorded.path(), &["--drop-when", "content"]);
    assert_eq!(loose.get("content-duplicate"), Some(&2), "{loose:?}");
    assert!(strict.get("content-duplicate") <= Some(&2), "{strict:?}");
    let bad = run_in(
        recorded.path(),
        &["replay", "state", "--drop-when", "both"],
        b"",
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr
            .contains("--drop-when = \"both\": must be one of"),
        "{}",
        bad.stderr
    );
}

#[test]
fn the_default_crawl_has_no_content_signal_and_replay_says_so() {
    let server = Server::start(|_| site);
    let dir = tempfile::tempdir().expect("tempdir");
    crawl_with(dir.path(), &server, &[]);
    let rows = jsonl(&dir.path().join("state/decisions.jsonl"));
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(field(r, "content_fingerprint"), None, "{r}");
        assert_ne!(field(r, "decision"), Some("content-duplicate"), "{r}");
    }
    let r = run_in(
        dir.path(),
        &["replay", "state", "--drop-when", "content"],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "drop-when = \"content\" needs content fingerprints, and this crawl recorded none"
        ),
        "{}",
        r.stderr
    );
    // Resuming with the content signal on is refused: the state has pages without it.
    let toml = config("", "concurrency = 1");
    let r = crawl(dir.path(), &toml, &["--content", &server.url("/")]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("content = \"none\" there"),
        "{}",
        r.stderr
    );
}

#[test]
fn resuming_with_another_policy_is_refused() {
    let server = Server::start(|_| site);
    let dir = tempfile::tempdir().expect("tempdir");
    crawl_with(dir.path(), &server, &["--drop-when", "content"]);
    let toml = config("", "concurrency = 1");
    let r = crawl(
        dir.path(),
        &toml,
        &["--drop-when", "structure", &server.url("/")],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("dedup.drop-when = \"content\" there, \"structure\" in this run"),
        "{}",
        r.stderr
    );
    let r = crawl(
        dir.path(),
        &toml,
        &[
            "--drop-when",
            "content",
            "--content-threshold",
            "5",
            &server.url("/"),
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("content.threshold = \"3\" there, \"5\" in this run"),
        "{}",
        r.stderr
    );
}

#[test]
fn dedup_over_a_warc_judges_content_as_the_crawl_does() {
    // wget archives the site; `silhouette dedup` with drop-when = "content" drops the copies
    // the crawl drops (`content_keeps_every_article_and_drops_their_copies`).
    let server = Server::start(|_| site);
    let dir = tempfile::tempdir().expect("tempdir");
    archive_site(&server, dir.path());
    std::fs::write(
        dir.path().join("c.toml"),
        config("drop-when = \"content\"", ""),
    )
    .expect("write the config");
    let r = run_in(
        dir.path(),
        &[
            "--config",
            "c.toml",
            "dedup",
            "--output",
            "d.jsonl",
            "site.warc.gz",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains(", 2 content duplicates;"), "{}", r.stderr);
    let lines = jsonl(&dir.path().join("d.jsonl"));
    let dropped: Vec<(&str, &str)> = lines
        .iter()
        .filter(|l| field(l, "decision") == Some("content-duplicate"))
        .filter_map(|l| Some((field(l, "url")?, field(l, "content_duplicate_of")?)))
        .collect();
    let a1 = server.url("/a/1");
    assert_eq!(
        dropped,
        [
            (&*server.url("/print/1"), &*a1),
            (&*server.url("/mirror/a/1"), &*a1)
        ],
        "{lines:?}"
    );
}

/// The test site (`site`) archived by wget into `DIR/site.warc.gz`.
pub fn archive_site(server: &Server, dir: &Path) {
    crate::dedup_warc::wget_site(dir, &server.url("/"));
}
