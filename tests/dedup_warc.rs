//! `silhouette dedup` end to end: a WARC made by Debian's wget crawling a generated site on
//! 127.0.0.1 gets the decisions a `silhouette crawl` of the same site gets; output is the
//! same on every run; `--warc-out` writes a WARC that warcio accepts; broken inputs are
//! reported and the rest is judged.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::cli_idf::{archived, idf_documents};
use crate::common::{Run, run_in};
use crate::crawl_support::{config, crawl, field, jsonl};
use crate::sites::{Server, tree_site};

const PAGES: u32 = 80;

/// Runs a tool the test compares with; a missing one fails with what to do.
pub fn tool(dir: &Path, program: &str, args: &[&str]) -> std::process::Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `{program}` ({e}): run scripts/test.sh, which installs it")
        })
}

/// `warcio check -v` over the files `names` of `dir`, in one run (each start costs Python's
/// start-up): every record must pass.
pub fn warcio_check(dir: &Path, names: &[String]) {
    let mut args = vec!["check", "-v"];
    args.extend(names.iter().map(String::as_str));
    let check = tool(dir, "warcio", &args);
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success() && !report.contains("fail"),
        "warcio check:\n{report}{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

/// `wget --recursive --warc-file=site` of the tree site; the path of the WARC.
pub fn wget_site(dir: &Path, seed: &str) -> std::path::PathBuf {
    let out = tool(
        dir,
        "wget",
        &[
            "--recursive",
            "--level=inf",
            "--no-verbose",
            "--tries=1",
            "--no-http-keep-alive",
            "--delete-after",
            "--no-directories",
            "--warc-file=site",
            seed,
        ],
    );
    let warc = dir.join("site.warc.gz");
    assert!(
        warc.exists(),
        "wget wrote no WARC: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    warc
}

/// `silhouette dedup ARGS` in `dir` with the default test config.
pub fn dedup(dir: &Path, args: &[&str]) -> Run {
    std::fs::write(dir.join("c.toml"), config("", "")).expect("write the config");
    let mut all = vec!["--config", "c.toml", "dedup"];
    all.extend_from_slice(args);
    run_in(dir, &all, b"")
}

/// Path → decision of JSONL lines whose decision is a judgement.
fn decisions(lines: &[Value], prefix: &str) -> BTreeMap<String, String> {
    lines
        .iter()
        .filter_map(|l| {
            let decision = field(l, "decision")?;
            let url = field(l, "url")?;
            matches!(decision, "kept" | "near-duplicate" | "exact-duplicate").then(|| {
                (
                    url.strip_prefix(prefix).unwrap_or(url).to_owned(),
                    decision.to_owned(),
                )
            })
        })
        .collect()
}

fn counts(d: &BTreeMap<String, String>) -> BTreeMap<&str, usize> {
    let mut c = BTreeMap::new();
    for v in d.values() {
        *c.entry(v.as_str()).or_insert(0) += 1;
    }
    c
}

#[test]
fn dedup_of_a_wget_warc_agrees_with_the_crawl() {
    let server = Server::start(|_| |target: &str| tree_site(PAGES, target));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let seed = server.url("/");
    let warc = wget_site(dir.path(), &seed);
    assert!(warc.is_file());

    let a = dedup(
        dir.path(),
        &["--output", "a.jsonl", "--warc-out", "out", "site.warc.gz"],
    );
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert!(a.stderr.contains("judged "), "{}", a.stderr);
    let b = dedup(dir.path(), &["site.warc.gz"]);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let a_text = std::fs::read_to_string(dir.path().join("a.jsonl")).expect("the JSONL output");
    assert_eq!(a_text, b.stdout, "the same input gives the same output");

    let lines = jsonl(&dir.path().join("a.jsonl"));
    let ours = decisions(&lines, &server.url(""));
    for line in &lines {
        assert_eq!(field(line, "warc_file"), Some("site.warc.gz"));
        assert!(
            line.get("warc_offset").and_then(Value::as_u64).is_some(),
            "{line}"
        );
        assert_eq!(
            line.get("status").and_then(Value::as_u64),
            Some(200),
            "{line}"
        );
        let fp = field(line, "fingerprint").unwrap_or_default();
        assert_eq!(fp.len(), 16, "{line}");
        if field(line, "decision") == Some("exact-duplicate") {
            let url = field(line, "url").unwrap_or_default();
            let of = field(line, "duplicate_of").unwrap_or_default();
            // A copy at /d/K or /n/K?page=N, of the page /n/K.
            let original = url
                .split('?')
                .next()
                .unwrap_or_default()
                .replace("/d/", "/n/");
            assert_eq!(original, of, "{url} copies {of}");
        }
    }

    // `idf build` reads the same archive: one document per page judged.
    assert_eq!(
        idf_documents(dir.path(), &["site.warc.gz"]),
        (0, archived(lines.len()))
    );

    // The crawl of the same site, keeping duplicates in its output.
    let crawl_dir = tempfile::tempdir().expect("a temporary directory");
    // One fetch at a time: the crawl judges in breadth-first link order, as wget fetches.
    let toml = config("on-duplicate = \"keep\"", "concurrency = 1");
    let r = crawl(crawl_dir.path(), &toml, &["--output", "pages.jsonl", &seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let theirs = decisions(
        &jsonl(&crawl_dir.path().join("pages.jsonl")),
        &server.url(""),
    );
    assert_eq!(
        ours.keys().collect::<BTreeSet<_>>(),
        theirs.keys().collect::<BTreeSet<_>>(),
        "same pages"
    );
    assert_eq!(
        ours, theirs,
        "same decisions for the same pages in the same order"
    );
    let exact = |d: &BTreeMap<String, String>| -> BTreeSet<String> {
        d.iter()
            .filter(|(_, v)| *v == "exact-duplicate")
            .map(|(k, _)| k.clone())
            .collect()
    };
    assert_eq!(exact(&ours), exact(&theirs));
    assert!(
        counts(&ours).get("near-duplicate") > Some(&10),
        "{:?}",
        counts(&ours)
    );
    // Only copies of kept pages are exact duplicates (a copy of a near-duplicate is one too).
    assert!(!exact(&ours).is_empty(), "{:?}", counts(&ours));

    // --warc-out: kept pages + revisits, valid for warcio; judged again, every page is kept.
    let out_dir = dir.path().join("out");
    let written: Vec<_> = std::fs::read_dir(&out_dir)
        .expect("the WARC directory")
        .flatten()
        .collect();
    assert_eq!(written.len(), 1, "one WARC file");
    let name = written[0].file_name().to_string_lossy().into_owned();
    let check = tool(&out_dir, "warcio", &["check", "-v", &name]);
    let report = String::from_utf8_lossy(&check.stdout).into_owned()
        + &String::from_utf8_lossy(&check.stderr);
    assert!(
        check.status.success() && !report.contains("fail"),
        "warcio check:\n{report}"
    );
    let c = counts(&ours);
    let mut types = BTreeMap::new();
    let bytes = std::fs::read(out_dir.join(&name)).expect("the written WARC");
    let mut reader = silhouette_warc::WarcReader::new(bytes.as_slice());
    while let Some(rec) = reader.next_record() {
        let rec = rec.expect("our records are readable");
        *types
            .entry(rec.header().record_type().to_string())
            .or_insert(0) += 1;
    }
    assert_eq!(types.get("warcinfo"), Some(&1));
    assert_eq!(types.get("response"), c.get("kept"));
    assert_eq!(types.get("revisit"), c.get("exact-duplicate"));
    let again = dedup(dir.path(), &["out"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let again = decisions(
        &again
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect::<Vec<_>>(),
        &server.url(""),
    );
    assert_eq!(counts(&again), BTreeMap::from([("kept", c["kept"])]));
}

#[test]
fn broken_inputs_are_reported_and_the_rest_judged() {
    let server = Server::start(|_| |target: &str| tree_site(20, target));
    let dir = tempfile::tempdir().expect("a temporary directory");
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).expect("mkdir");
    wget_site(&inputs, &server.url("/"));
    std::fs::write(inputs.join("empty.warc"), b"").expect("write");
    std::fs::write(inputs.join("junk.warc.gz"), b"<html>not a WARC</html>").expect("write");
    let good = dedup(dir.path(), &["in/site.warc.gz"]);
    assert_eq!(good.code, 0, "{}", good.stderr);
    let r = dedup(dir.path(), &["in"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("in/empty.warc: empty input"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("in/junk.warc.gz: offset 0: not a WARC record"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stdout, good.stdout);
    assert!(r.stdout.lines().count() >= 15, "{}", r.stdout);
}
