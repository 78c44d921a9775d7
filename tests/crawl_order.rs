//! The same crawl decides the same (issue 40): pages are judged in the order their URLs were
//! found, so `decisions.jsonl` is the same line for line (URL, decision, duplicate_of,
//! distance) at concurrency 1, 4 and 32, after three `kill -9` and resumes, on three hosts of
//! which one answers some pages late.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::common::spawn_in;
use crate::crawl_support::{config, crawl, jsonl};
use crate::sites::{Server, dedup_site, tree_site};

type Decision = (String, String, Option<String>, Option<u64>);

/// Two template sites and a tree site whose pages ending in 3 or 7 come 40 ms late.
pub fn sites() -> Vec<Server> {
    vec![
        Server::start(|port| move |target: &str| dedup_site(port, target)),
        Server::start(|port| move |target: &str| dedup_site(port, target)),
        Server::start(|_| {
            |target: &str| {
                if target.ends_with('3') || target.ends_with('7') {
                    std::thread::sleep(Duration::from_millis(40));
                }
                tree_site(120, target)
            }
        }),
    ]
}

fn toml(concurrency: usize) -> String {
    config(
        "on-duplicate = \"follow-links\"",
        &format!("concurrency = {concurrency}"),
    )
}

fn decisions(dir: &Path) -> Vec<Decision> {
    jsonl(&dir.join("state/decisions.jsonl"))
        .iter()
        .map(|r| {
            let text = |k: &str| r.get(k).and_then(Value::as_str).map(str::to_owned);
            assert!(r.get("out_of_order").is_none(), "judged out of order: {r}");
            (
                text("url").unwrap_or_default(),
                text("decision").unwrap_or_default(),
                text("duplicate_of"),
                r.get("distance").and_then(Value::as_u64),
            )
        })
        .collect()
}

fn crawled(seeds: &[String], concurrency: usize) -> Vec<Decision> {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut args: Vec<&str> = seeds.iter().map(String::as_str).collect();
    args.insert(0, "--add-seeds");
    let r = crawl(dir.path(), &toml(concurrency), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    decisions(dir.path())
}

#[test]
fn decisions_are_the_same_at_any_concurrency_and_across_kill_9() {
    let sites = sites();
    let seeds: Vec<String> = sites.iter().map(|s| s.url("/")).collect();
    let served = || sites.iter().map(Server::served).sum::<usize>();

    let one = crawled(&seeds, 1);
    assert!(one.len() > 150, "{}", one.len());
    assert!(
        one.iter().filter(|d| d.1 == "kept").count() > 3
            && one.iter().any(|d| d.1 == "near-duplicate"),
        "{one:?}"
    );
    for concurrency in [4, 32] {
        assert!(
            crawled(&seeds, concurrency) == one,
            "concurrency {concurrency} decided otherwise"
        );
    }

    // Killed three times (progress-based, not timed), resumed each time.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("c.toml"), toml(8)).expect("config");
    let mut args = vec![
        "--config",
        "c.toml",
        "crawl",
        "--state",
        "state",
        "--add-seeds",
    ];
    args.extend(seeds.iter().map(String::as_str));
    for round in 1..=3 {
        let before = served();
        let mut child = spawn_in(dir.path(), &args);
        while served() < before + 40 * round && child.try_wait().expect("wait").is_none() {
            std::thread::sleep(Duration::from_millis(2));
        }
        child.kill().expect("SIGKILL");
        let _ = child.wait();
    }
    let mut child = spawn_in(dir.path(), &args);
    let out = std::mem::take(&mut child.stderr);
    let status = child.wait().expect("it ends");
    assert!(status.success(), "{out:?}");
    assert!(
        decisions(dir.path()) == one,
        "the killed and resumed crawl decided otherwise"
    );
}

#[test]
fn a_fetch_stuck_past_the_timeout_is_judged_out_of_order_and_counted() {
    // /n/1 answers after 5 s; the pages found after it wait 1 s at most.
    let site = Server::start(|_| {
        |target: &str| {
            if target == "/n/1" {
                std::thread::sleep(Duration::from_millis(5000));
            }
            tree_site(40, target)
        }
    });
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = config(
        "on-duplicate = \"follow-links\"",
        "concurrency = 4\nreorder-timeout-secs = 1",
    );
    let r = crawl(dir.path(), &toml, &[&site.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let late: Vec<String> = jsonl(&dir.path().join("state/decisions.jsonl"))
        .iter()
        .filter(|l| l.get("out_of_order").and_then(Value::as_bool) == Some(true))
        .filter_map(|l| l.get("url").and_then(Value::as_str).map(str::to_owned))
        .collect();
    assert_eq!(late, [site.url("/n/1")], "{}", r.stderr);
    assert!(
        r.stderr.contains("1 pages judged out of order"),
        "{}",
        r.stderr
    );
}
