//! What a new user meets (issue 39, items 4-9): one range per setting whatever the command,
//! tools that say when they can disagree with a crawl, lists that say what they leave out,
//! help that matches the output, defaults shared by every command, and `dedup --warc-out`
//! compressing at least as well as the crawl's writer.

use std::path::Path;

use crate::common::{Run, run_in};
use crate::crawl_support::{config, crawl};
use crate::sites::{Response, Server, dedup_site, tree_site};

fn silhouette(dir: &Path, args: &[&str]) -> Run {
    run_in(dir, args, b"")
}

/// A crawl of the test site in `dir/state`, with `extra` config lines.
fn crawled(dir: &Path, server: &Server, extra: &str) {
    let toml = format!("{}\n{extra}", config("on-duplicate = \"follow-links\"", ""));
    let r = crawl(dir, &toml, &[&server.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn every_command_states_the_same_range_for_a_threshold() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("a.html"), "<p>a</p>").expect("write");
    let structure = "must be a whole number from 0 to 8";
    let content = "must be a whole number from 0 to 8 (64-bit content fingerprints; 0 to 8 for \
                   64 bits, 0 to 16 for 128, content.bits";
    for (args, expected) in [
        (
            &["crawl", "--threshold", "70", "http://127.0.0.1:9/"][..],
            format!("error: --threshold 70: {structure}\n"),
        ),
        (
            &["crawl", "--threshold", "12", "http://127.0.0.1:9/"],
            format!("error: --threshold 12: {structure}\n"),
        ),
        (
            &["compare", "--threshold", "12", "a.html", "a.html"],
            format!("error: --threshold 12: {structure}\n"),
        ),
        (
            &["dedup", "--threshold", "12", "a.warc"],
            format!("error: --threshold 12: {structure}\n"),
        ),
        (
            &["crawl", "--content-threshold", "40", "http://127.0.0.1:9/"],
            format!("error: --content-threshold 40: {content})\n"),
        ),
        (
            &["dedup", "--content-threshold", "40", "a.warc"],
            format!("error: --content-threshold 40: {content})\n"),
        ),
    ] {
        let r = silhouette(d, args);
        assert_eq!(
            (r.code, r.stderr.as_str()),
            (2, expected.as_str()),
            "{args:?}"
        );
    }
    // The help of every command that takes them says the same.
    for command in ["crawl", "dedup", "replay"] {
        let help = silhouette(d, &[command, "--help"]).stdout;
        let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "0 to 8 for 64-bit content fingerprints (the default), 0 to 16 for 128-bit"
            ),
            "{command}: {help}"
        );
    }
    for command in ["crawl", "dedup", "replay", "compare"] {
        let help = silhouette(d, &[command, "--help"]).stdout;
        assert!(!help.contains("0 to 64"), "{command}: {help}");
    }
}

#[test]
fn compare_and_dedup_say_when_a_crawl_can_decide_otherwise() {
    let server = Server::start(|port| move |target: &str| dedup_site(port, target));
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // The default warc-records = "kept": the archive holds only what the crawl kept.
    let r = crawl(
        d,
        &config("on-duplicate = \"follow-links\"", ""),
        &["--warc", "warc", &server.url("/")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let again = silhouette(d, &["dedup", "--output", "d.jsonl", "warc"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(
        again
            .stderr
            .contains("holds only the pages a silhouette crawl kept")
            && again
                .stderr
                .contains("so it can call some of them duplicates"),
        "{}",
        again.stderr
    );
    assert_eq!(
        again.stderr.matches("note: ").count(),
        1,
        "{}",
        again.stderr
    );

    std::fs::write(d.join("a.html"), "<div><p>a</p></div>").expect("write");
    let same = silhouette(d, &["compare", "a.html", "a.html"]);
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert!(
        same.stdout
            .contains("\nnote: a crawl can decide otherwise: "),
        "{}",
        same.stdout
    );
}

/// One template, 120 pages: page N is a list of N items after blocks its number picks (and
/// the home page links to them).
fn growing_lists(target: &str) -> Response {
    let n: usize = target
        .strip_prefix("/list/")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    if target == "/" {
        let links: String = (1..=120)
            .map(|i| format!("<a href=\"/list/{i}\">{i}</a> "))
            .collect();
        return Response::html(format!("<html><body><p>{links}</p></body></html>"));
    }
    if n == 0 {
        return crate::sites::not_found();
    }
    // The page's number in binary picks its blocks: 120 structures, near one another.
    let blocks: String = ["section", "ol", "dl", "pre", "form", "nav", "aside"]
        .iter()
        .enumerate()
        .filter(|(bit, _)| n >> bit & 1 == 1)
        .map(|(_, tag)| format!("<{tag}><span>a</span><b>b</b></{tag}>"))
        .collect();
    let items: String = (0..n)
        .map(|i| format!("<li><div><span>item {i}</span></div></li>"))
        .collect();
    Response::html(format!(
        "<html><body><h1>list {n}</h1><div>{blocks}</div><ul>{items}</ul></body></html>"
    ))
}

#[test]
fn lists_say_what_they_leave_out_and_the_report_shows_what_differs() {
    let server = Server::start(|_| |target: &str| growing_lists(target));
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // classic: its weights move with the number of items, so threshold 0 splits the lists.
    crawled(d, &server, "[fingerprint]\nfeatures = \"classic\"\n");

    // Threshold 0 changes more decisions than replay lists: it says how many more.
    let r = silhouette(d, &["replay", "state", "--threshold", "0"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let changed: usize = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("decisions changed: "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(changed > 10, "{}", r.stdout);
    assert!(
        r.stdout
            .contains(&format!("\n  … and {} more\n", changed - 10)),
        "{}",
        r.stdout
    );

    let r = silhouette(d, &["report", "state", "-o", "r.html"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let html = std::fs::read_to_string(d.join("r.html")).expect("the report");
    if let Some(at) = html.find(">1 pages").or_else(|| html.find(" 1 pages")) {
        panic!(
            "a singleton says 1 page: {}",
            &html[at.saturating_sub(200)..at + 20]
        );
    }
    assert!(!html.contains("spread –"), "no empty spread");
    // A cell shows kept pages alone when the clusters are as many.
    for cell in html.split("<td").skip(1) {
        if let Some((kept, rest)) = cell
            .split_once("<b>")
            .and_then(|(_, r)| r.split_once("</b>"))
        {
            assert!(!rest.starts_with(&format!(" / {kept}<")), "{cell}");
        }
    }
    // The histogram's axis ends at the threshold (5 for classic): no duplicate is farther.
    assert!(html.contains(">threshold 5</text>"), "the threshold drawn");
    assert!(html.contains("<title>5 bits: "), "an axis to the threshold");
    assert!(
        !html.contains("<title>6 bits: "),
        "an axis past the threshold"
    );
}

#[test]
fn help_matches_what_the_commands_print() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let top = silhouette(d, &["--help"]).stdout;
    assert!(
        top.contains(
            "fingerprint (--content: and the content fingerprint) of HTML files, pages at URLs"
        ),
        "{top}"
    );
    assert!(
        top.contains("Compare the structure and the content of two HTML pages"),
        "{top}"
    );
    std::fs::write(d.join("a.html"), "<p>too few words</p>").expect("write");
    let row = silhouette(d, &["fingerprint", "--content", "a.html"]).stdout;
    let help = silhouette(d, &["fingerprint", "--help"]).stdout;
    assert_eq!(row.split_whitespace().count(), 5, "{row}");
    assert!(
        help.contains("FINGERPRINT ELEMENTS")
            && help.contains("CONTENT_FINGERPRINT SIGNATURE PATH"),
        "{help}"
    );
    for command in ["stats", "export"] {
        let help = silhouette(d, &[command, "--help"]).stdout;
        assert!(!help.contains("Share the crawl"), "{help}");
        assert!(help.contains("The Redis of a shared crawl"), "{help}");
    }
    let crawl_help = silhouette(d, &["crawl", "--help"]).stdout;
    assert!(crawl_help.contains("-o, --output <FILE>"), "{crawl_help}");
}

#[test]
fn stats_report_and_replay_read_the_crawl_s_default_state() {
    let server = Server::start(|_| |target: &str| tree_site(10, target));
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("c.toml"), config("", "")).expect("config");
    let r = silhouette(d, &["--config", "c.toml", "crawl", &server.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(d.join("silhouette-state/crawl.sqlite").is_file());
    for args in [&["stats"][..], &["replay"], &["report"]] {
        let r = silhouette(d, args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    }
    assert!(d.join("silhouette-state/report.html").is_file());
    let empty = tempfile::tempdir().expect("tempdir");
    let r = silhouette(empty.path(), &["stats"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("no crawl state at silhouette-state"),
        "{}",
        r.stderr
    );

    // The default politeness is said where a user starts: the help, and a crawl of one's own
    // (loopback) server at the default interval.
    let help = silhouette(d, &["crawl", "--help"]).stdout;
    assert!(
        help.contains("one request per second") && help.contains("--delay 0"),
        "{help}"
    );
    let one = Server::start(|_| |target: &str| tree_site(1, target));
    let polite = silhouette(
        d,
        &[
            "crawl",
            "--state",
            "polite",
            "--max-pages",
            "1",
            &one.url("/"),
        ],
    );
    assert!(
        polite
            .stderr
            .contains("note: one request per 1000 ms to each host")
            && polite.stderr.contains("--delay 0"),
        "{}",
        polite.stderr
    );
}

#[test]
fn dedup_warc_out_compresses_at_least_as_well_as_the_crawl() {
    let server = Server::start(|_| |target: &str| tree_site(60, target));
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    crawled(
        d,
        &server,
        "[output]\nwarc-dir = \"warc\"\nwarc-records = \"all\"\n",
    );
    let r = silhouette(
        d,
        &["dedup", "--output", "d.jsonl", "--warc-out", "out", "warc"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let per_page = |dir: &str| -> f64 {
        let (mut bytes, mut raw) = (0u64, Vec::new());
        for entry in std::fs::read_dir(d.join(dir)).expect("the WARC dir") {
            let path = entry.expect("an entry").path();
            if path.extension().is_some_and(|e| e == "gz") {
                bytes += std::fs::metadata(&path).expect("size").len();
                let mut text = Vec::new();
                std::io::Read::read_to_end(
                    &mut flate2::read::MultiGzDecoder::new(
                        std::fs::File::open(&path).expect("open"),
                    ),
                    &mut text,
                )
                .expect("gunzip");
                raw.extend(text);
            }
        }
        let responses = raw
            .windows(b"WARC-Type: response".len())
            .filter(|w| *w == b"WARC-Type: response")
            .count();
        assert!(responses > 0, "{dir}: no response");
        bytes as f64 / responses as f64
    };
    let (crawl, dedup) = (per_page("warc"), per_page("out"));
    assert!(
        dedup <= crawl,
        "dedup {dedup:.0} bytes a page, crawl {crawl:.0}"
    );
}

#[test]
fn verbose_shows_what_the_fetcher_notices() {
    let site = Server::start(|_| |target: &str| tree_site(1, target));
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    std::fs::write(d.join("c.toml"), config("", "")).expect("config");
    let missing = site.url("/missing-page");
    let quiet = silhouette(
        d,
        &["--config", "c.toml", "crawl", "--state", "q", &missing],
    );
    assert!(!quiet.stderr.contains("DEBUG"), "{}", quiet.stderr);
    let loud = silhouette(
        d,
        &[
            "--config", "c.toml", "-vv", "crawl", "--state", "l", &missing,
        ],
    );
    let line = loud
        .stderr
        .lines()
        .find(|l| l.contains("DEBUG") && l.contains("fetch failed"))
        .unwrap_or_else(|| panic!("{}", loud.stderr));
    assert!(line.contains(&missing) && !line.contains('\x1b'), "{line}");
}
