//! Shared crawls on a real redis-server: three workers crawl three loopback hosts and end
//! with the single-process crawl's URL set, each URL recorded once, no two kept pages of a
//! host within the threshold, cluster budgets held and the per-host interval kept across
//! workers; a killed worker's leases come back; a worker with other settings is refused.

#[path = "../crates/redis/tests/server/mod.rs"]
pub mod redis_server;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::run_in;
use crate::crawl_support::{field, jsonl};
use crate::sites::{Server, tree_site};
use redis_server::Server as Redis;

/// Pages of each host's tree site.
const PAGES: u32 = 90;
/// The per-host interval, in ms.
const INTERVAL_MS: u64 = 25;
const THRESHOLD: u32 = 5;

/// `classic` (no path sets: the fingerprint alone decides, so the invariant is plain
/// distance), cluster budget 2, every link followed (the URL set does not depend on which
/// page of a cluster came first), one fetch per host at a time.
fn toml(lease_secs: u64) -> String {
    format!(
        "[fingerprint]\nfeatures = \"classic\"\n\n[dedup]\nthreshold = {THRESHOLD}\ncluster-budget = 2\non-duplicate = \"follow-links\"\n\n[crawl]\nconcurrency = 6\n\n[fetch]\nrequest-interval-ms = {INTERVAL_MS}\nper-host-concurrency = 1\n\n[cluster]\nlease-secs = {lease_secs}\n"
    )
}

/// Three tree sites; each request's (port, time, target) is logged.
struct Sites {
    servers: Vec<Server>,
    log: Arc<Mutex<Vec<(u16, Instant, String)>>>,
}

impl Sites {
    fn start() -> Self {
        let log = Arc::new(Mutex::new(Vec::new()));
        let servers = (0..3)
            .map(|_| {
                let log = Arc::clone(&log);
                Server::start(move |port| {
                    move |target: &str| {
                        log.lock()
                            .expect("log")
                            .push((port, Instant::now(), target.to_owned()));
                        tree_site(PAGES, target)
                    }
                })
            })
            .collect();
        Self { servers, log }
    }

    fn seeds(&self) -> Vec<String> {
        self.servers.iter().map(|s| s.url("/")).collect()
    }

    fn served(&self) -> usize {
        self.log.lock().expect("log").len()
    }

    /// Per host, requests for pages never closer than the interval; no page fetched twice;
    /// robots.txt fetched once for all workers.
    fn check_politeness(&self) {
        let log = self.log.lock().expect("log").clone();
        let mut by_port: BTreeMap<u16, Vec<(Instant, String)>> = BTreeMap::new();
        let mut robots: BTreeMap<u16, usize> = BTreeMap::new();
        for (port, at, target) in log {
            if target == "/robots.txt" {
                *robots.entry(port).or_insert(0) += 1;
            } else {
                by_port.entry(port).or_default().push((at, target));
            }
        }
        assert!(robots.values().all(|&n| n == 1), "{robots:?}");
        for (port, mut hits) in by_port {
            hits.sort();
            for pair in hits.windows(2) {
                let gap = pair[1].0 - pair[0].0;
                assert!(
                    gap >= Duration::from_millis(INTERVAL_MS),
                    "port {port}: {} then {} only {gap:?} apart",
                    pair[0].1,
                    pair[1].1
                );
            }
            let targets: BTreeSet<&str> = hits.iter().map(|h| h.1.as_str()).collect();
            assert_eq!(
                targets.len(),
                hits.len(),
                "port {port}: a page fetched twice"
            );
        }
    }
}

pub fn worker(dir: &Path, redis: &str, seeds: &[String]) -> Child {
    worker_of(dir, redis, "t", seeds)
}

/// A worker of shared crawl `crawl` on `redis`, with `dir/c.toml`.
pub fn worker_of(dir: &Path, redis: &str, crawl: &str, seeds: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_silhouette"))
        .args([
            "--config", "c.toml", "crawl", "--redis", redis, "--crawl", crawl,
        ])
        .args(seeds)
        .current_dir(dir)
        .env_remove("SILHOUETTE_CONFIG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

pub fn finish(child: Child) -> String {
    let out = child.wait_with_output().expect("the worker ends");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    stderr
}

/// The URL set of a single-process crawl of the same sites with the same settings.
fn reference(sites: &Sites) -> BTreeSet<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("c.toml"), toml(60)).expect("config");
    let mut args = vec!["--config", "c.toml", "crawl", "--state", "state"];
    let seeds = sites.seeds();
    args.extend(seeds.iter().map(String::as_str));
    let r = run_in(dir.path(), &args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    jsonl(&dir.path().join("state/decisions.jsonl"))
        .iter()
        .filter_map(|r| field(r, "url").map(str::to_owned))
        .collect()
}

/// `silhouette export --redis REDIS --crawl t --output out.jsonl` in `dir`.
pub fn export_run(dir: &Path, redis: &str) -> crate::common::Run {
    let args = [
        "export",
        "--redis",
        redis,
        "--crawl",
        "t",
        "--output",
        "out.jsonl",
    ];
    let r = run_in(dir, &args, b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    r
}

/// Exports the shared crawl; checks each URL once, kept pages apart, budgets held.
fn export(dir: &Path, redis: &str) -> BTreeSet<String> {
    export_run(dir, redis);
    let records = jsonl(&dir.join("out.jsonl"));
    let urls: BTreeSet<String> = records
        .iter()
        .filter_map(|r| field(r, "url").map(str::to_owned))
        .collect();
    assert_eq!(urls.len(), records.len(), "a URL recorded twice");
    // Exported again: nothing new.
    let again = export_run(dir, redis);
    assert!(
        again.stderr.contains("0 records written"),
        "{}",
        again.stderr
    );
    check_kept(&records);
    urls
}

fn check_kept(records: &[Value]) {
    let mut kept: HashMap<String, Vec<u64>> = HashMap::new();
    let mut per_cluster: HashMap<&str, u32> = HashMap::new();
    for r in records
        .iter()
        .filter(|r| field(r, "decision") == Some("kept"))
    {
        let url = url::Url::parse(field(r, "url").expect("url")).expect("URL");
        let host = format!("{}", url.port().unwrap_or(80));
        if let Some(fp) = field(r, "fingerprint") {
            let fp = u64::from_str_radix(fp, 16).expect("hex");
            kept.entry(host).or_default().push(fp);
        }
        if let Some(c) = field(r, "cluster") {
            *per_cluster.entry(c).or_insert(0) += 1;
        }
    }
    for (cluster, n) in per_cluster {
        assert!(n <= 2, "cluster {cluster} kept {n} pages, budget 2");
    }
    // Kept pages are the ones that started a cluster or used its budget: two cluster
    // starters of one host are never within the threshold.
    let starters: Vec<&Value> = records
        .iter()
        .filter(|r| field(r, "decision") == Some("kept") && field(r, "cluster") == field(r, "url"))
        .collect();
    for (i, a) in starters.iter().enumerate() {
        for b in &starters[i + 1..] {
            let port = |r: &Value| {
                url::Url::parse(field(r, "url").unwrap_or(""))
                    .ok()
                    .and_then(|u| u.port())
            };
            if port(a) != port(b) {
                continue;
            }
            let fp = |r: &Value| {
                u64::from_str_radix(field(r, "fingerprint").unwrap_or("0"), 16).unwrap_or(0)
            };
            let d = (fp(a) ^ fp(b)).count_ones();
            assert!(
                d > THRESHOLD,
                "{:?} and {:?} both start clusters, {d} bits apart",
                field(a, "url"),
                field(b, "url")
            );
        }
    }
    assert!(!kept.is_empty());
}

#[test]
fn three_workers_crawl_like_one_process() {
    let sites = Sites::start();
    let expected = reference(&sites);
    assert!(expected.len() > 3 * PAGES as usize, "{}", expected.len());
    sites.log.lock().expect("log").clear();

    let redis = Redis::start();
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("c.toml"), toml(60)).expect("config");
    let seeds = sites.seeds();
    let workers: Vec<Child> = (0..3)
        .map(|_| worker(dir.path(), &redis.url(), &seeds))
        .collect();
    // Each worker reports the pages it fetched: the work was shared.
    let fetched: Vec<usize> = workers
        .into_iter()
        .map(|w| {
            let log = finish(w);
            // "worker ID: N pages, …"
            log.lines()
                .find_map(|l| {
                    l.strip_prefix("worker ")?
                        .split(": ")
                        .nth(1)?
                        .split(" pages")
                        .next()?
                        .parse()
                        .ok()
                })
                .unwrap_or(0)
        })
        .collect();
    assert!(
        fetched.iter().filter(|&&n| n > 0).count() >= 2,
        "{fetched:?}"
    );
    assert!(
        fetched.iter().sum::<usize>() >= expected.len(),
        "{fetched:?}"
    );
    sites.check_politeness();
    assert_eq!(export(dir.path(), &redis.url()), expected);

    // `stats`: every record counted, nothing queued or leased, nobody left working.
    let r = run_in(
        dir.path(),
        &["stats", "--redis", &redis.url(), "--crawl", "t"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "shared crawl: {} pages recorded on 3 hosts",
            expected.len()
        )),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("queued 0, leased 0 (leases outstanding)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("workers alive 0"), "{}", r.stdout);

    // A worker with other fingerprint settings is refused, naming the difference.
    let r = run_in(
        dir.path(),
        &[
            "--config",
            "c.toml",
            "crawl",
            "--redis",
            &redis.url(),
            "--crawl",
            "t",
            "--threshold",
            "3",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("crawl \"t\" was started with other settings; this worker is refused (dedup.threshold: crawl \"5\", worker \"3\")"),
        "{}",
        r.stderr
    );
}

/// Three workers crawl the sites on `redis` (lease time `lease_secs`); once a third of the
/// pages were served, `midway` runs (given the first worker); the other two must finish, and
/// the first too unless `midway` killed it.
/// The export must equal the single-process crawl's URL set, each URL once.
fn crawl_through(redis: &str, lease_secs: u64, midway: impl FnOnce(&mut Child) -> bool) {
    let sites = Sites::start();
    let expected = reference(&sites);
    sites.log.lock().expect("log").clear();
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("c.toml"), toml(lease_secs)).expect("config");
    let seeds = sites.seeds();
    let mut first = worker(dir.path(), redis, &seeds);
    let others: Vec<Child> = (0..2).map(|_| worker(dir.path(), redis, &seeds)).collect();
    // Progress-based, not timed.
    while sites.served() < expected.len() / 3 {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(first.try_wait().expect("wait").is_none(), "still crawling");
    if midway(&mut first) {
        finish(first);
    } else {
        let _ = first.wait();
    }
    for w in others {
        finish(w);
    }
    assert_eq!(export(dir.path(), redis), expected);
}

#[test]
fn a_killed_worker_loses_nothing() {
    let redis = Redis::start();
    // SIGKILL: its leases come back after the lease time (2 s), its scope holds after 1 s.
    crawl_through(&redis.url(), 2, |w| {
        w.kill().expect("SIGKILL");
        false
    });
}

#[test]
fn ctrl_c_hands_leases_back() {
    let redis = Redis::start();
    // Lease time 1 hour: the others can only finish if the leases came back at once.
    crawl_through(&redis.url(), 3600, |w| {
        let sent = Command::new("kill")
            .args(["-INT", &w.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let out = w.wait().expect("the worker stops");
        assert_eq!(out.code(), Some(130));
        false
    });
}

#[test]
fn workers_ride_out_a_redis_restart() {
    let mut redis = Redis::start_with(true, &[]);
    let url = redis.url();
    crawl_through(&url, 60, |_| {
        redis.restart();
        true
    });
}

#[test]
fn three_workers_on_a_three_master_redis_cluster() {
    let nodes: Vec<Redis> = (0..3)
        .map(|_| Redis::start_with(false, &["--cluster-enabled", "yes"]))
        .collect();
    let addrs: Vec<String> = nodes
        .iter()
        .map(|n| format!("127.0.0.1:{}", n.port))
        .collect();
    let created = Command::new("redis-cli")
        .args(["--cluster", "create"])
        .args(&addrs)
        .args(["--cluster-replicas", "0", "--cluster-yes"])
        .stdout(Stdio::null())
        .status()
        .expect("redis-cli runs");
    assert!(created.success());
    // Wait until every node sees the cluster whole.
    for n in &nodes {
        loop {
            let info = Command::new("redis-cli")
                .args(["-p", &n.port.to_string(), "cluster", "info"])
                .output()
                .expect("redis-cli runs");
            if String::from_utf8_lossy(&info.stdout).contains("cluster_state:ok") {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let url = format!("redis+cluster://{}", addrs.join(","));
    crawl_through(&url, 60, |_| true);
    // The crawl's keys carry the crawl's tag and one tag per host, and those tags hash to
    // different slots: a script that touched keys of two tags would have failed (CROSSSLOT),
    // so every script kept to one slot. (Which masters own those slots depends on the
    // servers' random ports, so the test does not count masters.)
    let redis_cli = |port: u16, args: &[&str]| -> String {
        let out = Command::new("redis-cli")
            .arg("-p")
            .arg(port.to_string())
            .args(args)
            .output()
            .expect("redis-cli runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let tags: BTreeSet<String> = nodes
        .iter()
        .flat_map(|n| {
            redis_cli(n.port, &["--scan"])
                .lines()
                .filter_map(|k| Some(k.split_once('{')?.1.split_once('}')?.0.to_owned()))
                .collect::<Vec<_>>()
        })
        .collect();
    let hosts = tags
        .iter()
        .filter(|t| t.starts_with("t@127.0.0.1:"))
        .count();
    assert!(tags.contains("t") && hosts == 3, "tags: {tags:?}");
    let slots: BTreeSet<String> = tags
        .iter()
        .map(|t| {
            redis_cli(nodes[0].port, &["cluster", "keyslot", t])
                .trim()
                .to_owned()
        })
        .collect();
    assert!(slots.len() >= 2, "tags {tags:?} in slots {slots:?}");
}

#[test]
fn unreachable_redis_is_a_clear_error() {
    let port = redis_server::free_port();
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("redis://127.0.0.1:{port}/0");
    let r = run_in(
        dir.path(),
        &[
            "crawl",
            "--redis",
            &url,
            "--crawl",
            "t",
            "http://127.0.0.1:9/",
        ],
        b"",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains(&format!("cannot connect to Redis at {url}")),
        "{}",
        r.stderr
    );
}
