//! A shared crawl decides the same (issue 40): one worker, and three workers of which one
//! is killed with SIGKILL midway, record the same decisions (URL, decision, duplicate_of,
//! distance) in the same canonical order, on three hosts of which one answers some pages
//! late; a page stuck past the reorder timeout is judged out of order and counted.

use std::path::Path;
use std::process::Child;
use std::time::Duration;

use serde_json::Value;

use crate::common::run_in;
use crate::crawl_order::sites;
use crate::crawl_redis::redis_server::Server as Redis;
use crate::crawl_redis::{finish, worker_of as worker};
use crate::crawl_support::{config, jsonl};
use crate::sites::{Response, Server, templates, tree_site};

type Decision = (u64, String, String, Option<String>, Option<u64>);

/// The shared crawl's records, exported, in the canonical order (`order`).
fn exported(dir: &Path, redis: &str, crawl: &str) -> Vec<Value> {
    let out = format!("{crawl}.jsonl");
    let r = run_in(
        dir,
        &[
            "export", "--redis", redis, "--crawl", crawl, "--output", &out,
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut records = jsonl(&dir.join(out));
    records.sort_by_key(|r| r.get("order").and_then(Value::as_u64));
    records
}

fn decisions(records: &[Value]) -> Vec<Decision> {
    records
        .iter()
        .map(|r| {
            let text = |k: &str| r.get(k).and_then(Value::as_str).map(str::to_owned);
            assert!(r.get("out_of_order").is_none(), "judged out of order: {r}");
            (
                r.get("order").and_then(Value::as_u64).expect("an order"),
                text("url").unwrap_or_default(),
                text("decision").unwrap_or_default(),
                text("duplicate_of"),
                r.get("distance").and_then(Value::as_u64),
            )
        })
        .collect()
}

#[test]
fn one_worker_and_three_with_one_killed_decide_the_same() {
    let sites = sites();
    let seeds: Vec<String> = sites.iter().map(|s| s.url("/")).collect();
    let served = || sites.iter().map(Server::served).sum::<usize>();
    let redis = Redis::start();
    let dir = tempfile::tempdir().expect("tempdir");
    // Leases come back 2 s after a worker dies; pages wait behind one up to 60 s.
    let toml = config(
        "on-duplicate = \"follow-links\"",
        "concurrency = 6\nreorder-timeout-secs = 60",
    ) + "\n[cluster]\nlease-secs = 2\n";
    std::fs::write(dir.path().join("c.toml"), toml).expect("config");

    finish(worker(dir.path(), &redis.url(), "one", &seeds));
    let one = decisions(&exported(dir.path(), &redis.url(), "one"));
    assert!(one.len() > 150, "{}", one.len());
    assert!(
        one.iter().filter(|d| d.2 == "kept").count() > 3
            && one.iter().any(|d| d.2 == "near-duplicate"),
        "{one:?}"
    );

    // Three workers; the first is killed once a third of the pages were served
    // (progress-based, not timed).
    let before = served();
    let mut first = worker(dir.path(), &redis.url(), "three", &seeds);
    let others: Vec<Child> = (0..2)
        .map(|_| worker(dir.path(), &redis.url(), "three", &seeds))
        .collect();
    while served() < before + one.len() / 3 && first.try_wait().expect("wait").is_none() {
        std::thread::sleep(Duration::from_millis(2));
    }
    first.kill().expect("SIGKILL");
    let _ = first.wait();
    for w in others {
        finish(w);
    }
    let three_records = exported(dir.path(), &redis.url(), "three");
    let three = decisions(&three_records);
    let first_difference = one.iter().zip(&three).position(|(a, b)| a != b);
    // Both records of the first URL that differs, to say why.
    let records: Vec<String> = first_difference
        .map(|i| {
            let one_records = exported(dir.path(), &redis.url(), "one");
            one_records
                .iter()
                .chain(&three_records)
                .filter(|r| r.get("url").and_then(Value::as_str) == Some(&one[i].1))
                .map(Value::to_string)
                .collect()
        })
        .unwrap_or_default();
    assert!(
        three == one,
        "three workers decided otherwise ({} and {} records; first difference: {:?}; records {records:?})",
        one.len(),
        three.len(),
        first_difference.map(|i| (&one[i], &three[i]))
    );
}

#[test]
fn a_fetch_stuck_past_the_timeout_is_judged_out_of_order_and_counted() {
    // /n/1 answers after 7 s; the pages found after it wait 6 s at most (the reorder
    // timeout, at least the lease time and 5 s more in a shared crawl).
    let site = Server::start(|_| {
        |target: &str| {
            if target == "/n/1" {
                std::thread::sleep(Duration::from_millis(7000));
            }
            tree_site(40, target)
        }
    });
    let redis = Redis::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = config(
        "on-duplicate = \"follow-links\"",
        "concurrency = 4\nreorder-timeout-secs = 1",
    ) + "\n[cluster]\nlease-secs = 1\n";
    std::fs::write(dir.path().join("c.toml"), toml).expect("config");
    finish(worker(dir.path(), &redis.url(), "t", &[site.url("/")]));
    let records = exported(dir.path(), &redis.url(), "t");
    let late: Vec<&str> = records
        .iter()
        .filter(|r| r.get("out_of_order").and_then(Value::as_bool) == Some(true))
        .filter_map(|r| r.get("url").and_then(Value::as_str))
        .collect();
    assert_eq!(late, [site.url("/n/1")]);
    assert!(records.len() > 30, "{}", records.len());
    let r = run_in(
        dir.path(),
        &["stats", "--redis", &redis.url(), "--crawl", "t"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("1 of them judged out of the canonical order"),
        "{}",
        r.stdout
    );
}

/// The URLs of the records, sorted, with how many times a decision of each kind was made.
fn fetched(records: &[Value]) -> (Vec<String>, std::collections::BTreeMap<String, usize>) {
    let mut urls = Vec::new();
    let mut kinds = std::collections::BTreeMap::new();
    for r in records {
        let text = |k: &str| {
            r.get(k)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        urls.push(text("url"));
        *kinds.entry(text("decision")).or_insert(0) += 1;
    }
    urls.sort();
    (urls, kinds)
}

#[test]
fn in_drop_mode_a_shared_crawl_explores_as_one_process_does() {
    // Drop mode with the default exploration: a dropped page's links of a URL shape its
    // host never linked to (`/t/…`, `/missing/…` below `/n/…`), and every unseen link of one
    // that only just joined its cluster, are fetched, in a shared
    // crawl as in a single-process one: the same pages, the same numbers of decisions of
    // each kind. (One host: which of two hosts' identical pages is the exact duplicate of
    // the other depends on the order of the hosts, which the two kinds of crawl differ in.)
    let site = Server::start(|_| |target: &str| tree_site(120, target));
    let single = explores_alike(&site, "on-duplicate = \"drop\"");
    let explored = |urls: &[String]| {
        urls.iter()
            .filter(|u| u.contains("/t/") || u.contains("/missing/"))
            .count()
    };
    assert!(explored(&single) > 0, "nothing explored: {single:?}");
    // A help page with a block the others lack only just joins its cluster: its links not
    // seen yet are followed too, among them one only it has (`/n/139`, of a known shape).
    assert!(
        single.iter().any(|u| u.ends_with("/n/139")),
        "the marginal page's links: {single:?}"
    );
}

/// A hub dropped as a near-duplicate of `/l/1` links to four new URL shapes: an article and
/// a product page (other kinds) and two listings (its own kind).
fn refund_site(target: &str) -> Response {
    let links = |l: &[&str]| -> Vec<String> {
        let mut l: Vec<String> = l.iter().map(|s| (*s).to_owned()).collect();
        l.resize(6, String::new());
        l
    };
    let html = match target {
        "/" => templates::help(target, &links(&["/l/1", "/l/2"])),
        "/l/1" => templates::listing(target, &links(&[])),
        "/l/2" => templates::listing(target, &links(&["/a/1", "/x/1", "/p/1", "/y/1"])),
        "/a/1" => templates::article(target, &links(&[])),
        "/p/1" => templates::product(target, &links(&[])),
        "/x/1" | "/y/1" => templates::listing(target, &links(&[])),
        _ => return Response::text(404, "not found"),
    };
    Response::html(html)
}

#[test]
fn an_explored_page_that_is_kept_gives_its_fetch_back_in_a_shared_crawl_too() {
    // With one fetch to explore: the article, kept, gives it back and the listing /x/1,
    // held, is fetched; /x/1 keeps nothing, and /p/1 and /y/1 stay held. The same pages
    // in a shared crawl (the held link numbered after the article's links).
    let site = Server::start(|_| refund_site);
    let single = explores_alike(&site, "on-duplicate = \"drop\"\nexplore = 1");
    let paths: Vec<&str> = single
        .iter()
        .map(|u| u.trim_start_matches(&site.url("")).trim_start_matches('/'))
        .collect();
    // (`l/1?page=2`: the kept listing's next page.)
    let want = ["", "a/1", "l/1", "l/1?page=2", "l/2", "x/1"];
    assert_eq!(paths, want, "{single:?}");
}

/// Crawls `site` in drop mode with `dedup` (the `[dedup]` table's lines) in one process,
/// then with one shared worker and with two: the same URLs fetched, the same numbers of
/// decisions of each kind. Returns the URLs, sorted.
fn explores_alike(site: &Server, dedup: &str) -> Vec<String> {
    let seeds = vec![site.url("/")];
    let redis = Redis::start();
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = config(dedup, "concurrency = 6");
    let mut args = vec!["--config", "c.toml", "crawl", "--state", "state"];
    args.extend(seeds.iter().map(String::as_str));
    std::fs::write(dir.path().join("c.toml"), &toml).expect("config");
    let r = run_in(dir.path(), &args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let single = fetched(&jsonl(&dir.path().join("state/decisions.jsonl")));
    // One worker, then two at once.
    finish(worker(dir.path(), &redis.url(), "one", &seeds));
    let two: Vec<Child> = (0..2)
        .map(|_| worker(dir.path(), &redis.url(), "two", &seeds))
        .collect();
    for w in two {
        finish(w);
    }
    for crawl in ["one", "two"] {
        let shared = fetched(&exported(dir.path(), &redis.url(), crawl));
        let only_single: Vec<_> = single.0.iter().filter(|u| !shared.0.contains(u)).collect();
        let only_shared: Vec<_> = shared.0.iter().filter(|u| !single.0.contains(u)).collect();
        assert!(
            only_single.is_empty() && only_shared.is_empty() && single.1 == shared.1,
            "{crawl}: only in the single-process crawl: {only_single:?}; only in the shared \
             one: {only_shared:?}; decisions {:?} and {:?}",
            single.1,
            shared.1
        );
    }
    single.0
}
