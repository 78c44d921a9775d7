//! `silhouette replay`, `stats` and `--output -` on a real crawl state.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::run_in;
use crate::crawl_support::{check_consistent, config, crawl, jsonl};
use crate::sites::{Server, dedup_site};

#[test]
fn replay_reproduces_the_crawl_and_shows_what_other_settings_change() {
    let server = Server::start(|port| move |target: &str| dedup_site(port, target));
    let dir = tempfile::tempdir().expect("tempdir");
    // classic: its tag weights move with the amount of content, so a tighter threshold splits
    // the demo's templates (class-paths gives their pages identical path sets).
    let run = crawl(
        dir.path(),
        &format!(
            "[fingerprint]\nfeatures = \"classic\"\n{}",
            config("on-duplicate = \"follow-links\"", "")
        ),
        &[&server.url("/")],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    check_consistent(dir.path());

    // The recorded settings, replayed: no decision changes.
    let same = run_in(dir.path(), &["--config", "c.toml", "replay", "state"], b"");
    assert_eq!(same.code, 0, "{}", same.stderr);
    assert!(
        same.stdout.contains("decisions changed: 0"),
        "{}",
        same.stdout
    );
    assert!(
        same.stdout
            .contains("recorded with structure/classic/fnv1-64/decay=0.45"),
        "{}",
        same.stdout
    );
    // Every link was followed: no warning about pages never fetched.
    assert!(
        !same.stdout.contains("warning: this crawl dropped"),
        "{}",
        same.stdout
    );

    // Threshold 0 keeps every page whose structure is not identical: more kept, clusters split.
    let strict = run_in(
        dir.path(),
        &["--config", "c.toml", "replay", "state", "--threshold", "0"],
        b"",
    );
    assert_eq!(strict.code, 0, "{}", strict.stderr);
    let kept = |out: &str| -> (u64, u64) {
        let line = out
            .lines()
            .find(|l| l.starts_with("kept: "))
            .expect("a kept line");
        let nums: Vec<u64> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|t| t.parse().ok())
            .collect();
        (nums[0], nums[1])
    };
    let (before, after) = kept(&strict.stdout);
    assert!(after > before, "{}", strict.stdout);
    assert!(
        !strict.stdout.contains("clusters split: 0"),
        "{}",
        strict.stdout
    );
    // Walked from the crawl's threshold: a looser threshold never keeps more pages; judged
    // from scratch, the crawl's own threshold is the crawl.
    assert!(
        strict.stdout.contains("walked from the crawl's threshold="),
        "{}",
        strict.stdout
    );
    let ladder: Vec<u64> = (0..=8)
        .map(|t| {
            let t = t.to_string();
            let out = run_in(
                dir.path(),
                &["--config", "c.toml", "replay", "state", "--threshold", &t],
                b"",
            );
            assert_eq!(out.code, 0, "{}", out.stderr);
            kept(&out.stdout).1
        })
        .collect();
    assert!(ladder.windows(2).all(|w| w[1] <= w[0]), "{ladder:?}");
    let scratch = run_in(
        dir.path(),
        &["--config", "c.toml", "replay", "state", "--from-scratch"],
        b"",
    );
    assert!(
        scratch.stdout.contains("judged from scratch")
            && scratch.stdout.contains("decisions changed: 0"),
        "{}",
        scratch.stdout
    );

    // `stats --clusters`: every cluster with every page of it, as decisions.jsonl has them.
    let decisions = jsonl(&dir.path().join("state/decisions.jsonl"));
    let mut expected: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for d in &decisions {
        if let Some(c) = d["cluster"].as_str() {
            let url = d["url"].as_str().expect("a url").to_owned();
            expected.entry(c.to_owned()).or_default().insert(url);
        }
    }
    assert!(expected.len() >= 3, "{expected:?}");
    let json = run_in(
        dir.path(),
        &["stats", "state", "--clusters", "--format", "json"],
        b"",
    );
    assert_eq!(json.code, 0, "{}", json.stderr);
    let summary: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON object");
    let mut listed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for c in summary["clusters"].as_array().expect("clusters") {
        let members: BTreeSet<String> = c["members"]
            .as_array()
            .expect("members")
            .iter()
            .map(|m| m["url"].as_str().expect("a url").to_owned())
            .collect();
        assert_eq!(c["pages"].as_u64(), Some(members.len() as u64));
        listed.insert(c["first"].as_str().expect("first").to_owned(), members);
    }
    assert_eq!(listed, expected);
    let text = run_in(dir.path(), &["stats", "state", "--clusters"], b"");
    assert_eq!(text.code, 0, "{}", text.stderr);
    for url in expected.values().flatten() {
        let line = format!(" {url}");
        assert!(
            text.stdout.lines().any(|l| l.ends_with(&line)),
            "{url} in {}",
            text.stdout
        );
    }

    // A bad value names the key.
    let bad = run_in(dir.path(), &["replay", "state", "--decay", "0"], b"");
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.starts_with("error: --decay 0:"),
        "{}",
        bad.stderr
    );

    // `stats` of a directory without a state is one clear error.
    let none = run_in(dir.path(), &["stats", "nothing-here"], b"");
    assert_eq!(none.code, 2);
    assert!(
        none.stderr
            .starts_with("error: no crawl state at nothing-here"),
        "{}",
        none.stderr
    );
}

/// `replay --why URL` says what the crawl compared a page with: a near-duplicate names the
/// kept page whose cluster it joined, with a similarity at least min-similarity; a kept page
/// names none it joined; a URL the crawl did not judge is one clear error.
#[test]
fn replay_why_names_what_a_page_was_compared_with() {
    let server = Server::start(|port| move |target: &str| dedup_site(port, target));
    let dir = tempfile::tempdir().expect("tempdir");
    let run = crawl(dir.path(), &config("", ""), &[&server.url("/")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let records = jsonl(&dir.path().join("state/decisions.jsonl"));
    let field = |r: &serde_json::Value, k: &str| r[k].as_str().map(str::to_owned);
    let near = records
        .iter()
        .find(|r| field(r, "decision").as_deref() == Some("near-duplicate"))
        .expect("a near-duplicate");
    let (url, of) = (
        field(near, "url").expect("url"),
        field(near, "duplicate_of").expect("duplicate_of"),
    );
    let why = |url: &str| {
        run_in(
            dir.path(),
            &["--config", "c.toml", "replay", "state", "--why", url],
            b"",
        )
    };
    let out = why(&url);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("the crawl's own settings")
            && out
                .stdout
                .contains(&format!("{url}: near-duplicate (recorded: near-duplicate)")),
        "{}",
        out.stdout
    );
    let joined = out
        .stdout
        .lines()
        .find(|l| l.ends_with("<- its cluster"))
        .unwrap_or_else(|| panic!("no cluster named: {}", out.stdout));
    assert!(
        joined.contains(&of) && joined.contains(">= 0.7") && joined.contains(" paths)"),
        "{joined}"
    );
    // And on how many of the two pages' paths: "on N of M paths", N at most M.
    let (read, all) = joined
        .split_once(", on ")
        .and_then(|(_, rest)| rest.split_once(" paths)"))
        .and_then(|(counts, _)| counts.split_once(" of "))
        .map(|(r, a)| (r.parse::<usize>(), a.parse::<usize>()))
        .unwrap_or_else(|| panic!("no path counts: {joined}"));
    let (read, all) = (read.expect("a count"), all.expect("a count"));
    assert!(0 < read && read <= all, "{joined}");
    // Pages beyond the threshold are read, and said to be, only when none within it is
    // confirmed.
    assert_eq!(
        out.stdout.contains("none confirmed"),
        joined.contains("beyond the threshold"),
        "{}",
        out.stdout
    );

    let kept = records
        .iter()
        .rev()
        .filter(|r| field(r, "decision").as_deref() == Some("kept"))
        .find_map(|r| field(r, "url"))
        .expect("a kept page");
    let out = why(&kept);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains(&format!("{kept}: kept (recorded: kept)"))
            && !out.stdout.contains("<- its cluster"),
        "{}",
        out.stdout
    );

    let missing = why(&server.url("/no-such-page"));
    assert_eq!(missing.code, 2);
    assert!(
        missing
            .stderr
            .contains("no page judged by this crawl has that URL"),
        "{}",
        missing.stderr
    );
}

#[test]
fn output_to_stdout_matches_the_file_output() {
    let server = Server::start(|port| move |target: &str| dedup_site(port, target));
    let to_file = tempfile::tempdir().expect("tempdir");
    let run = crawl(
        to_file.path(),
        &config("", "concurrency = 1"),
        &[&server.url("/")],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let file = jsonl(&to_file.path().join("state/pages.jsonl"));

    let to_stdout = tempfile::tempdir().expect("tempdir");
    let run = crawl(
        to_stdout.path(),
        &config("", "concurrency = 1"),
        &["--output", "-", &server.url("/")],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let printed: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let strip = |v: &[serde_json::Value]| -> Vec<(String, String)> {
        v.iter()
            .map(|r| {
                (
                    r["url"].as_str().unwrap_or("").to_owned(),
                    r["decision"].as_str().unwrap_or("").to_owned(),
                )
            })
            .collect()
    };
    assert!(!printed.is_empty());
    assert_eq!(strip(&printed), strip(&file));
    assert!(!to_stdout.path().join("state/pages.jsonl").exists());
}

#[test]
fn replay_says_what_it_could_not_judge_and_why() {
    // A default (drop-mode) crawl stopped by a page limit: replay names the URLs without a
    // page (robots, errors…), the deferred ones, and the links of dropped pages never followed.
    let server = Server::start(|port| move |target: &str| dedup_site(port, target));
    let dir = tempfile::tempdir().expect("tempdir");
    let run = crawl(
        dir.path(),
        &config("", ""),
        &["--max-pages", "40", &server.url("/")],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = run_in(dir.path(), &["--config", "c.toml", "replay", "state"], b"");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = &out.stdout;
    assert!(text.contains("decisions changed: 0"), "{text}");
    assert!(text.contains("not judged: "), "{text}");
    let deferred = text.lines().find_map(|l| {
        l.split(" deferred")
            .next()?
            .rsplit(' ')
            .next()?
            .parse::<u64>()
            .ok()
    });
    assert!(deferred.is_some_and(|n| n > 0), "{text}");
    assert!(
        text.contains("warning: this crawl dropped") && text.contains("(on-duplicate = drop)"),
        "{text}"
    );
}
