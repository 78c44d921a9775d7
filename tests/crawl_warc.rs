//! `crawl --warc`: every file passes `warcio check -v` and indexes with `cdxj-indexer` to the
//! same lines as silhouette's own CDXJ; the JSONL's `warc_file`/`warc_offset` point at the
//! page's record; kept pages are responses, exact duplicates of them revisits, near
//! duplicates never revisits; files rotate at `warc-max-bytes`; and a crawl killed with
//! SIGKILL at several points and resumed has every page in the WARC files exactly once.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use silhouette_warc::WarcReader;

use crate::cli_idf::{archived, idf_documents};
use crate::crawl_support::{
    check_consistent, config, crawl, field, jsonl, run_or_kill, state_rows,
};
use crate::dedup_warc::{tool, warcio_check};
use crate::sites::{Rng, Server, tree_site};

/// One record of a WARC file.
#[derive(Debug, Clone)]
struct Rec {
    offset: u64,
    kind: String,
    uri: String,
    date: String,
    payload: String,
    refers_to: Option<(String, String)>,
    fields: Vec<(String, String)>,
    /// The block of a warcinfo record.
    block: String,
}

/// The WARC files in `dir`, in serial order (checking their names).
fn warc_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .expect("the WARC directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".warc.gz"))
        .map(|p| {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            let parts: Vec<&str> = name.trim_end_matches(".warc.gz").split('-').collect();
            assert!(
                parts.len() >= 4
                    && parts[0] == "silhouette"
                    && parts[1].len() == 17
                    && parts[1].bytes().all(|b| b.is_ascii_digit())
                    && parts[2].len() == 5,
                "{name}: not silhouette-YYYYMMDDhhmmssfff-NNNNN-HOST.warc.gz"
            );
            (parts[2].parse().expect("a serial"), p)
        })
        .collect();
    files.sort();
    let serials: Vec<u64> = files.iter().map(|(s, _)| *s).collect();
    assert_eq!(serials, (0..files.len() as u64).collect::<Vec<_>>());
    files.into_iter().map(|(_, p)| p).collect()
}

fn records(path: &Path) -> Vec<Rec> {
    let file = std::fs::File::open(path).expect("the WARC file");
    let mut reader = WarcReader::new(std::io::BufReader::new(file));
    let mut out = Vec::new();
    while let Some(rec) = reader.next_record() {
        let mut rec = rec.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let block = if rec.header().record_type() == silhouette_warc::RecordType::Warcinfo {
            String::from_utf8_lossy(&rec.read_block(1 << 20).expect("the warcinfo")).into_owned()
        } else {
            String::new()
        };
        let h = rec.header();
        let get = |k: &str| h.fields.get(k).unwrap_or_default().to_owned();
        out.push(Rec {
            offset: h.offset,
            kind: get("WARC-Type"),
            uri: get("WARC-Target-URI"),
            date: get("WARC-Date"),
            payload: get("WARC-Payload-Digest"),
            refers_to: h
                .fields
                .get("WARC-Refers-To-Target-URI")
                .map(|u| (u.to_owned(), get("WARC-Refers-To-Date"))),
            fields: h
                .fields
                .iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
            block,
        });
    }
    out
}

/// CDXJ lines as (key, timestamp, the JSON's fields), sorted.
fn cdxj(text: &str) -> Vec<(String, String, BTreeMap<String, String>)> {
    let mut lines: Vec<_> = text
        .lines()
        .map(|l| {
            let mut parts = l.splitn(3, ' ');
            let key = parts.next().expect("a key").to_owned();
            let ts = parts.next().expect("a timestamp").to_owned();
            let json: BTreeMap<String, String> =
                serde_json::from_str(parts.next().expect("JSON")).expect("JSON fields");
            (key, ts, json)
        })
        .collect();
    lines.sort();
    lines
}

/// Checks the WARC files of the crawl in `dir` (state in `dir/state`, files in `dir/w`)
/// against the tools, the JSONL and the state; returns (responses, revisits).
fn check_warc(dir: &Path, max_bytes: u64, all: bool) -> (usize, usize) {
    let w = dir.join("w");
    let files = warc_files(&w);
    let mut by_uri: HashMap<String, Vec<(String, Rec)>> = HashMap::new();
    let mut at: HashMap<(String, u64), Rec> = HashMap::new();
    // The tools run once over all files (each start costs Python's start-up).
    let names: Vec<String> = files
        .iter()
        .map(|p| {
            p.file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    warcio_check(&w, &names);
    let args: Vec<&str> = names.iter().map(String::as_str).collect();
    let index = tool(&w, "cdxj-indexer", &args);
    assert!(index.status.success(), "cdxj-indexer");
    let mut ours = String::new();
    for name in &names {
        let path = w.join(format!("{}.cdxj", name.trim_end_matches(".warc.gz")));
        let text = std::fs::read_to_string(&path).expect("our CDXJ index");
        let mut sorted: Vec<&str> = text.lines().collect();
        sorted.sort_unstable();
        assert_eq!(text.lines().collect::<Vec<_>>(), sorted, "{name}: sorted");
        ours.push_str(&text);
    }
    assert_eq!(
        cdxj(&ours),
        cdxj(&String::from_utf8_lossy(&index.stdout)),
        "our indexes vs cdxj-indexer's"
    );
    for (i, (path, name)) in files.iter().zip(&names).enumerate() {
        let name = name.clone();
        let recs = records(path);
        assert_eq!(recs[0].kind, "warcinfo", "{name} opens with warcinfo");
        let info = &recs[0].fields;
        assert!(info.contains(&("WARC-Filename".to_owned(), name.clone())));
        assert_eq!(recs.iter().filter(|r| r.kind == "warcinfo").count(), 1);
        if i + 1 < files.len() {
            // Rotated once the size limit was crossed, after the pages judged together with
            // the one that crossed it (pages are judged in order: a page that ended early is
            // judged with the one it waited for): the first page's records start before it.
            let first = recs.iter().find(|r| r.kind == "request").expect("a page");
            assert!(first.offset < max_bytes, "{name}: went on past the limit");
            let size = std::fs::metadata(path).expect("a size").len();
            assert!(size >= max_bytes, "{name}: rotated early ({size} bytes)");
        }
        for r in recs {
            if r.kind == "response" || r.kind == "revisit" {
                by_uri
                    .entry(r.uri.clone())
                    .or_default()
                    .push((name.clone(), r.clone()));
                at.insert((name.clone(), r.offset), r);
            }
        }
    }
    // The warcinfo names the software, the robots policy, the user agent and the settings
    // that decide duplicates.
    let info = &records(&files[0])[0].block;
    for key in [
        "software: silhouette/",
        "robots: obey",
        "http-header-user-agent: silhouette/",
        "dedup.threshold: ",
        "dedup.cluster-budget: 2",
        "fingerprint: ",
    ] {
        assert!(info.contains(key), "{key:?} not in the warcinfo:\n{info}");
    }

    // Every page once; kept pages responses, exact duplicates of them revisits naming the
    // kept page, near-duplicates responses in `all` mode only, never revisits.
    let rows = state_rows(&dir.join("state"));
    let decision: HashMap<&str, (&str, Option<&str>)> = rows
        .iter()
        .filter_map(|r| {
            Some((
                r.url.as_str(),
                (r.decision.as_deref()?, r.duplicate_of.as_deref()),
            ))
        })
        .collect();
    let (mut responses, mut revisits) = (0, 0);
    for (uri, recs) in &by_uri {
        assert_eq!(
            recs.len(),
            1,
            "{uri} {} times in the WARC files",
            recs.len()
        );
        let r = &recs[0].1;
        let (d, of) = decision[uri.as_str()];
        match (d, r.kind.as_str()) {
            ("kept", "response") => responses += 1,
            ("near-duplicate", "response") if all => responses += 1,
            ("exact-duplicate", "revisit") => {
                revisits += 1;
                let of = of.expect("a duplicate_of");
                let (refers_uri, refers_date) = r.refers_to.clone().expect("refers to");
                assert_eq!(refers_uri, of, "{uri}");
                let orig = &by_uri[of][0].1;
                assert_eq!(orig.kind, "response", "{uri} refers to a response");
                assert_eq!((&orig.date, &orig.payload), (&refers_date, &r.payload));
            }
            ("exact-duplicate", "response") if all => responses += 1,
            other => panic!("{uri}: {other:?} in the WARC files"),
        }
    }
    for (url, (d, _)) in &decision {
        if *d == "kept" || (all && *d == "near-duplicate") {
            assert!(
                by_uri.contains_key(*url),
                "{url} ({d}) is not in the WARC files"
            );
        }
    }
    // The JSONL points at each page's record.
    let lines = jsonl(&dir.join("state/pages.jsonl"));
    let mut pointed = 0;
    for line in &lines {
        let url = field(line, "url").expect("a url");
        match (
            field(line, "warc_file"),
            line.get("warc_offset").and_then(Value::as_u64),
        ) {
            (Some(file), Some(offset)) => {
                let r = at
                    .get(&(file.to_owned(), offset))
                    .unwrap_or_else(|| panic!("{url}: no record at {file}:{offset}"));
                assert_eq!(r.uri, url);
                pointed += 1;
            }
            (None, None) => assert!(
                !by_uri.contains_key(url),
                "{url}: WARC record not in the JSONL"
            ),
            other => panic!("{url}: {other:?}"),
        }
    }
    assert_eq!(pointed, by_uri.len(), "JSONL lines pointing at a record");
    (responses, revisits)
}

fn warc_config(records: &str, max_bytes: u64) -> String {
    format!(
        "{}\n[output]\nwarc-records = \"{records}\"\nwarc-max-bytes = {max_bytes}\n",
        config(
            "cluster-budget = 2\non-duplicate = \"keep\"",
            "concurrency = 2"
        )
    )
}

#[test]
fn crawl_warc_passes_warcio_and_cdxj_indexer() {
    const MAX: u64 = 6 * 1024;
    let server = Server::start(|_| |target: &str| tree_site(150, target));
    let seed = server.url("/");
    let mut counts = Vec::new();
    for (records, all) in [("kept", false), ("all", true)] {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let toml = warc_config(records, MAX);
        let run = crawl(dir.path(), &toml, &["--warc", "w", "--warc-cdxj", &seed]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let (responses, revisits) = check_warc(dir.path(), MAX, all);
        let files = warc_files(&dir.path().join("w")).len();
        assert!(files >= 3, "{records}: rotated into {files} files");
        assert!(revisits > 0, "{records}: exact duplicates as revisits");
        counts.push((responses, revisits));
        // `idf build STATE` reads the pages from the WARC files the state names: one
        // document per response, in whatever directory it is run from.
        let state = dir.path().join("state");
        assert_eq!(
            idf_documents(Path::new("/"), &[&state.to_string_lossy()]),
            (0, archived(responses)),
            "{records}"
        );
    }
    // A crawl without --warc kept no page text: its state is no corpus.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = crawl(dir.path(), &warc_config("kept", MAX), &[&seed]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (code, error) = idf_documents(dir.path(), &["state"]);
    assert_eq!(code, 2, "{error}");
    assert!(
        error.starts_with("error: state: this crawl wrote no pages to WARC files"),
        "{error}"
    );
    assert!(
        counts[1].0 > counts[0].0,
        "near-duplicates in `all`: {counts:?}"
    );
    assert_eq!(counts[0].1, counts[1].1, "the same revisits: {counts:?}");
}

#[test]
fn killed_crawls_have_every_page_in_the_warc_once() {
    const PAGES: u32 = 700;
    const MAX: u64 = 64 * 1024;
    let server = Server::start(|_| |target: &str| tree_site(PAGES, target));
    let seed = server.url("/");
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("c.toml"), warc_config("kept", MAX)).expect("config");
    let command = || {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.path().join("stderr.log"))
            .expect("the log file");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_silhouette"));
        cmd.args(["--config", "c.toml", "crawl", "--state", "state"])
            .args(["--warc", "w", "--warc-cdxj", &seed])
            .current_dir(dir.path())
            .env_remove("SILHOUETTE_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        cmd
    };
    let log = || std::fs::read_to_string(dir.path().join("stderr.log")).unwrap_or_default();
    let mut rng = Rng::new("warc crash points");
    let (mut kills, mut runs) = (0, 0);
    loop {
        runs += 1;
        assert!(runs < 30, "the crawl never finished");
        let start = server.served();
        let mut child = command().spawn().expect("the binary runs");
        let kill_after = match kills {
            0 => Some(start + rng.range(1, 30) as usize),
            1..=4 => Some(start + rng.range(60, 200) as usize),
            _ => None,
        };
        let status = run_or_kill(&mut child, &server, kill_after);
        if status.is_none() {
            kills += 1;
            if kills == 2 {
                // A record torn by the crash at the end of the last file: the resumed
                // crawl cuts it away.
                use std::io::Write as _;
                let files = warc_files(&dir.path().join("w"));
                let last = files.last().expect("a WARC file");
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(last)
                    .and_then(|mut f| f.write_all(&[0x1f, 0x8b, 8, 0, 0, 0]))
                    .expect("the file exists");
            }
        }
        if let Some(status) = status {
            assert_eq!(status.code(), Some(0), "run {runs}: {}", log());
            break;
        }
    }
    assert_eq!(kills, 5, "the crawl finished before its last kill");
    check_consistent(dir.path());
    let (responses, revisits) = check_warc(dir.path(), MAX, false);
    let kept: BTreeSet<String> = state_rows(&dir.path().join("state"))
        .into_iter()
        .filter(|r| r.decision.as_deref() == Some("kept"))
        .map(|r| r.url)
        .collect();
    assert_eq!(responses, kept.len(), "every kept page once");
    assert!(revisits > 0);
}
