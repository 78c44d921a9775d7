//! Crash test: a crawl of a few thousand pages killed with SIGKILL at several points and
//! resumed each time ends exactly like an uninterrupted crawl.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::crawl_support::{Left, check_consistent, config, field, run_or_kill};
use crate::sites::{Rng, Server, tree_site};

/// Pages of the tree site (plus its copies, text files, 404s and a disallowed page).
const PAGES: u32 = 2500;

/// One (url, decision, duplicate_of) per recorded URL, by URL.
fn outcome(left: &Left) -> BTreeMap<String, (String, Option<String>)> {
    left.recorded()
        .into_iter()
        .map(|(url, r)| {
            (
                url.to_owned(),
                (
                    r.decision.clone().unwrap_or_default(),
                    r.duplicate_of.clone(),
                ),
            )
        })
        .collect()
}

/// The crawl command; every run of it is the same.
fn command(dir: &Path, seed: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_silhouette"));
    cmd.args(["--config", "c.toml", "crawl", "--state", "state", seed])
        .current_dir(dir)
        .env_remove("SILHOUETTE_CONFIG")
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("stderr.log"))
        .expect("the log file");
    cmd.stderr(log);
    cmd
}

/// Every URL the tree site has, as paths.
fn reachable() -> BTreeSet<String> {
    let mut all = BTreeSet::from(["/".to_owned(), "/private/x".to_owned()]);
    for k in 1..PAGES {
        all.insert(format!("/n/{k}"));
        if k % 4 == 2 {
            // Listings have <link rel=next href=?page=2>.
            all.insert(format!("/n/{k}?page=2"));
        }
    }
    for k in 0..PAGES {
        if k % 10 == 3 {
            all.insert(format!("/d/{k}"));
        }
        if k % 50 == 7 {
            all.insert(format!("/t/{k}.txt"));
            all.insert(format!("/missing/{k}"));
        }
        if k % 40 == 19 {
            // The page with a block the others lack links past the last page (a 404).
            all.insert(format!("/n/{}", PAGES + k));
        }
    }
    all
}

fn log(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("stderr.log")).unwrap_or_default()
}

#[test]
fn killed_and_resumed_crawls_end_like_an_uninterrupted_one() {
    let server = Server::start(|_| |target: &str| tree_site(PAGES, target));
    let seed = server.url("/");
    // `keep` follows every link like `follow-links` (every page is fetched) and emits every
    // record, so the JSONL's exactly-once promise covers all of them. One fetch at a time:
    // the crawl order, and so every decision, is deterministic (per-host BFS by discovery).
    let toml = config(
        "cluster-budget = 2\non-duplicate = \"keep\"",
        "concurrency = 1",
    );

    let reference = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(reference.path().join("c.toml"), &toml).expect("config");
    let status = command(reference.path(), &seed)
        .status()
        .expect("the binary runs");
    assert_eq!(status.code(), Some(0), "{}", log(reference.path()));
    let expected = check_consistent(reference.path());

    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("c.toml"), &toml).expect("config");
    let mut rng = Rng::new("crash points");
    let mut kills = 0;
    let mut runs = 0;
    loop {
        runs += 1;
        assert!(runs < 50, "the crawl never finished");
        let start = server.served();
        let mut child = command(dir.path(), &seed).spawn().expect("the binary runs");
        // Kill after a random number of responses (seeded): progress-based, not timed.
        // The first kill comes early (often before the first commit), the others later.
        let kill_after = match kills {
            0 => Some(start + rng.range(1, 40) as usize),
            1..=4 => Some(start + rng.range(150, 700) as usize),
            _ => None,
        };
        let status = run_or_kill(&mut child, &server, kill_after);
        if status.is_none() {
            kills += 1;
            if kills == 2 {
                // A write torn by the crash: the resumed crawl cuts it off, in the
                // output and in decisions.jsonl.
                use std::io::Write as _;
                for file in ["state/pages.jsonl", "state/decisions.jsonl"] {
                    std::fs::OpenOptions::new()
                        .append(true)
                        .open(dir.path().join(file))
                        .and_then(|mut f| f.write_all(b"{\"url\":\"http://torn"))
                        .expect("the output exists");
                }
            }
        }
        if let Some(status) = status {
            assert_eq!(status.code(), Some(0), "run {runs}: {}", log(dir.path()));
            break;
        }
    }
    assert_eq!(kills, 5, "the crawl finished before its last kill");

    let got = check_consistent(dir.path());
    // Every reachable URL recorded exactly once (check_consistent: each URL once).
    let prefix = server.url("");
    let paths: BTreeSet<String> = got
        .recorded()
        .keys()
        .map(|u| u.strip_prefix(&prefix).expect("on the site").to_owned())
        .collect();
    let want = reachable();
    let missing: Vec<&String> = want.difference(&paths).take(10).collect();
    let extra: Vec<&String> = paths.difference(&want).take(10).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing {missing:?}, unexpected {extra:?}"
    );
    assert!(got.rows.iter().all(|r| r.done), "URLs left queued");
    // The same decisions (and clusters) as the uninterrupted crawl.
    let (want, have) = (outcome(&expected), outcome(&got));
    let diff: Vec<_> = want
        .iter()
        .filter(|(u, v)| have.get(*u) != Some(v))
        .map(|(u, v)| (u, v, have.get(u)))
        .take(10)
        .collect();
    assert!(
        diff.is_empty(),
        "{} decisions differ, e.g. {diff:#?}",
        want.len()
    );
    assert_eq!(want.len(), have.len());
    // The JSONL: one complete line per record (keep emits all), nothing twice.
    assert_eq!(got.records.len(), have.len());
    let decisions: BTreeSet<&str> = got
        .records
        .iter()
        .filter_map(|r| field(r, "decision"))
        .collect();
    for d in [
        "kept",
        "near-duplicate",
        "exact-duplicate",
        "not-html",
        "error",
        "robots-disallowed",
    ] {
        assert!(decisions.contains(d), "no {d} in {decisions:?}");
    }
}
