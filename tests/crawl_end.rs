//! What a crawl says when it ends (issue 39, items 1-3): a seed that cannot be crawled is
//! named with its reason and, when none could be, the exit status is not 0; after Ctrl-C the
//! summary says why it stopped and what is left; a resumed run counts its own pages, says how
//! long it took and where its output went, and names the real state directory.

use std::process::Command;

use crate::common::{run_in, spawn_in};
use crate::crawl_support::{config, crawl, state_rows};
use crate::sites::{Server, tree_site};

/// A loopback port nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    listener.local_addr().expect("addr").port()
}

fn line_with<'a>(stderr: &'a str, start: &str) -> &'a str {
    stderr
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting {start:?} in:\n{stderr}"))
}

/// The number right after `before` in `line`.
fn number_after(line: &str, before: &str) -> u64 {
    let at = line
        .find(before)
        .unwrap_or_else(|| panic!("{before:?} not in {line:?}"))
        + before.len();
    line[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after {before:?} in {line:?}"))
}

#[test]
fn a_crawl_whose_only_seed_cannot_be_reached_fails_and_says_why() {
    let dir = tempfile::tempdir().expect("tempdir");
    let seed = format!("http://127.0.0.1:{}/", closed_port());
    let r = crawl(dir.path(), &config("", ""), &[&seed]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("seeds not crawled (1 of 1):"),
        "{}",
        r.stderr
    );
    let named = line_with(&r.stderr, &format!("  {seed}  error: "));
    assert!(named.contains("Connection refused"), "{named}");
    assert!(
        r.stderr.contains("error: no seed could be crawled"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("next: "), "{}", r.stderr);
}

#[test]
fn a_seed_that_fails_beside_one_that_works_is_named_and_the_rest_is_crawled() {
    let server = Server::start(|_| |target: &str| tree_site(20, target));
    let dir = tempfile::tempdir().expect("tempdir");
    let dead = format!("http://127.0.0.1:{}/", closed_port());
    let r = crawl(
        dir.path(),
        &config("on-duplicate = \"keep\"", ""),
        &["--add-seeds", &server.url("/"), &dead],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("seeds not crawled (1 of 2):"),
        "{}",
        r.stderr
    );
    line_with(&r.stderr, &format!("  {dead}  error: "));
    assert!(
        !r.stderr.contains("no seed could be crawled"),
        "{}",
        r.stderr
    );
    let rows = state_rows(&dir.path().join("state"));
    let recorded = rows.iter().filter(|r| r.decision.is_some()).count() as u64;
    assert!(
        recorded > 2,
        "the live seed's site was crawled: {}",
        r.stderr
    );
    assert_eq!(
        number_after(line_with(&r.stderr, "this run: "), "this run: "),
        recorded
    );
}

#[test]
fn ctrl_c_under_a_page_limit_says_it_was_interrupted_and_what_is_left() {
    let server = Server::start(|_| |target: &str| tree_site(400, target));
    let seed = server.url("/");
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = config(
        "on-duplicate = \"keep\"",
        "concurrency = 2\nmax-pages = 100",
    )
    .replace("request-interval-ms = 0", "request-interval-ms = 10");
    std::fs::write(dir.path().join("c.toml"), &toml).expect("config");
    let child = spawn_in(
        dir.path(),
        &["--config", "c.toml", "crawl", "--state", "state", &seed],
    );
    while server.served() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .is_ok_and(|s| s.success())
    );
    let out = child.wait_with_output().expect("it exits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");

    let rows = state_rows(&dir.path().join("state"));
    let queued = rows.iter().filter(|r| !r.done).count() as u64;
    let recorded = rows.iter().filter(|r| r.decision.is_some()).count() as u64;
    assert!(
        queued > 0 && recorded < 100,
        "not stopped mid-way: {stderr}"
    );
    let stopped = line_with(&stderr, "stopped by Ctrl-C: ");
    assert_eq!(
        number_after(stopped, "stopped by Ctrl-C: "),
        queued,
        "{stderr}"
    );
    assert!(
        stopped.contains("run the same command again to resume"),
        "{stopped}"
    );
    assert!(!stderr.contains("stopped at the page limit"), "{stderr}");
    line_with(&stderr, &format!("{recorded} URLs recorded"));
    line_with(&stderr, &format!("{queued} URLs queued, not yet fetched"));
}

#[test]
fn a_resumed_run_counts_its_own_pages_and_says_where_its_output_is() {
    let server = Server::start(|_| |target: &str| tree_site(60, target));
    let seed = server.url("/");
    let dir = tempfile::tempdir().expect("tempdir");
    let keep = "on-duplicate = \"keep\"";
    let first = crawl(dir.path(), &config(keep, "max-pages = 25"), &[&seed]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let run = line_with(&first.stderr, "this run: ");
    assert_eq!(number_after(run, "this run: "), 25, "{run}");
    assert!(run.contains(" s (") && run.contains("/s): kept "), "{run}");
    let decided = |run: &str| {
        let other = run
            .find("other ")
            .map_or(0, |_| number_after(run, "other "));
        number_after(run, "kept ")
            + number_after(run, "duplicates ")
            + number_after(run, "errors ")
            + other
    };
    assert_eq!(decided(run), 25, "{run}");

    let warc = dir.path().join("warc");
    let second = crawl(
        dir.path(),
        &format!("{}\n[output]\nwarc-records = \"all\"\n", config(keep, "")),
        &["--warc", warc.to_str().expect("UTF-8 path")],
    );
    assert_eq!(second.code, 0, "{}", second.stderr);
    let rows = state_rows(&dir.path().join("state"));
    let all = rows.iter().filter(|r| r.decision.is_some()).count() as u64;
    assert!(all > 25, "{}", second.stderr);
    let run = line_with(&second.stderr, "this run: ");
    assert_eq!(number_after(run, "this run: "), all - 25, "{run}");
    assert_eq!(decided(run), all - 25, "{run}");
    line_with(&second.stderr, &format!("{all} URLs recorded"));
    line_with(&second.stderr, "finished: every URL in scope was fetched");
    line_with(
        &second.stderr,
        "written: state/pages.jsonl (pages), state/decisions.jsonl (every decision)",
    );
    let archived = line_with(&second.stderr, "WARC: ");
    assert!(
        number_after(archived, "WARC: ")
            >= number_after(run, "kept ") + number_after(run, "duplicates "),
        "{archived}"
    );
    assert!(archived.contains("in 1 file in "), "{archived}");
    line_with(
        &second.stderr,
        "next: `silhouette stats --clusters state` lists every cluster",
    );
    // Without a terminal no progress line is printed twice in a row.
    let lines: Vec<&str> = second.stderr.lines().collect();
    assert!(lines.windows(2).all(|w| w[0] != w[1]), "{}", second.stderr);

    // `stats` names the state it was given in its hints.
    let stats = run_in(dir.path(), &["stats", "state"], b"");
    assert_eq!(stats.code, 0, "{}", stats.stderr);
    assert!(!stats.stdout.contains("STATE"), "{}", stats.stdout);
}
