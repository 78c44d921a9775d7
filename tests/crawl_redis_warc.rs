//! `crawl --redis … --warc DIR`: three workers of a shared crawl on a real redis-server each
//! archive what they fetch in WARC files of their own; one is SIGKILLed and its file left
//! with a torn record, a worker started again repairs it; every file passes `warcio check`,
//! every fetched page is archived once across the files, the export names the file and
//! offset of each page's records, and `dedup` reads the union.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;
use silhouette_warc::{RecordType, WarcReader};

use crate::crawl_redis::redis_server::Server as Redis;
use crate::crawl_redis::{export_run, finish, worker};
use crate::crawl_support::{field, jsonl};
use crate::dedup_warc::warcio_check;
use crate::sites::{Server, tree_site};

const PAGES: u32 = 80;

fn toml() -> String {
    "[dedup]\non-duplicate = \"follow-links\"\n\n[crawl]\nconcurrency = 4\n\n\
     [fetch]\nrequest-interval-ms = 15\nper-host-concurrency = 1\n\n[cluster]\nlease-secs = 2\n\n\
     [output]\nwarc-dir = \"warc\"\nwarc-records = \"all\"\n"
        .to_owned()
}

/// Every `.warc.gz` file of `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the WARC directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".warc.gz"))
        .collect();
    files.sort();
    files
}

/// (file name, offset) → (record type, target URI) of every record of `paths`.
fn records(paths: &[PathBuf]) -> BTreeMap<(String, u64), (String, String)> {
    let mut out = BTreeMap::new();
    for path in paths {
        let name = path
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let file = std::fs::File::open(path).expect("the WARC file");
        let mut reader = WarcReader::new(std::io::BufReader::new(file));
        while let Some(rec) = reader.next_record() {
            let rec = rec.unwrap_or_else(|e| panic!("{name}: {e}"));
            let h = rec.header();
            let kind = h.record_type();
            if kind == RecordType::Warcinfo {
                continue;
            }
            let uri = h
                .fields
                .get("WARC-Target-URI")
                .unwrap_or_default()
                .to_owned();
            out.insert((name.clone(), h.offset), (kind.to_string(), uri));
        }
    }
    out
}

#[test]
fn workers_archive_each_page_once_and_a_killed_worker_s_file_is_repaired() {
    let sites: Vec<Server> = (0..2)
        .map(|_| Server::start(|_| |target: &str| tree_site(PAGES, target)))
        .collect();
    let seeds: Vec<String> = sites.iter().map(|s| s.url("/")).collect();
    let served = || sites.iter().map(Server::served).sum::<usize>();
    let redis = Redis::start();
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("c.toml"), toml()).expect("config");

    let mut first = worker(d, &redis.url(), &seeds);
    let others: Vec<_> = (0..2).map(|_| worker(d, &redis.url(), &seeds)).collect();
    // Progress, not time: kill the first worker once a third of the pages were served.
    while served() < PAGES as usize * 2 / 3 {
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = first.id();
    first.kill().expect("SIGKILL");
    let _ = first.wait();
    // Its file, left as a crash mid-write would: a torn record at its end.
    let prefix = format!("silhouette-t-{pid}-");
    let killed: Vec<PathBuf> = files(&d.join("warc"))
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
        })
        .collect();
    let torn = killed.last().expect("the killed worker wrote a file");
    let clean_len = std::fs::metadata(torn).expect("size").len();
    std::fs::OpenOptions::new()
        .append(true)
        .open(torn)
        .and_then(|mut f| f.write_all(b"\x1f\x8b\x08\x00torn record"))
        .expect("append");

    // A worker started on the same directory repairs the file, then joins the crawl.
    let again = worker(d, &redis.url(), &seeds);
    let log = finish(again);
    assert!(
        log.contains(&format!(
            "repaired {}",
            Path::new("warc")
                .join(torn.file_name().expect("name"))
                .display()
        )),
        "{log}"
    );
    assert!(std::fs::metadata(torn).expect("size").len() <= clean_len);
    for w in others {
        finish(w);
    }

    let warc = d.join("warc");
    let all = files(&warc);
    assert!(all.len() >= 3, "{all:?}");
    let names: Vec<String> = all
        .iter()
        .map(|p| {
            p.file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    warcio_check(&warc, &names);

    // Each page once across the files; the export names where.
    let recs = records(&all);
    let responses: Vec<&(String, String)> = recs
        .values()
        .filter(|(kind, _)| kind == "response")
        .collect();
    let uris: BTreeSet<&str> = responses.iter().map(|(_, u)| u.as_str()).collect();
    assert_eq!(uris.len(), responses.len(), "a page archived twice");
    let run = export_run(d, &redis.url());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let exported = jsonl(&d.join("out.jsonl"));
    let mut archived = BTreeSet::new();
    for rec in &exported {
        let Some(file) = field(rec, "warc_file") else {
            // (Not-HTML bodies are not downloaded, as in a local crawl.)
            assert!(
                rec.get("fingerprint").and_then(Value::as_str).is_none(),
                "an HTML page with no WARC place: {rec}"
            );
            continue;
        };
        let offset = rec
            .get("warc_offset")
            .and_then(Value::as_u64)
            .expect("warc_offset");
        let end = rec
            .get("warc_end")
            .and_then(Value::as_u64)
            .expect("warc_end");
        assert!(end > offset, "{rec}");
        let final_url = field(rec, "final_url").expect("final_url");
        assert_eq!(
            recs.get(&(file.to_owned(), offset)),
            Some(&("response".to_owned(), final_url.to_owned())),
            "{rec}"
        );
        archived.insert(final_url);
    }
    assert_eq!(archived, uris, "every response is a recorded page");

    // `dedup` reads the union of the workers' files.
    let dedup = crate::common::run_in(d, &["dedup", "--output", "d.jsonl", "warc"], b"");
    assert_eq!(dedup.code, 0, "{}", dedup.stderr);
    let judged = jsonl(&d.join("d.jsonl"));
    let html = exported
        .iter()
        .filter(|r| field(r, "warc_file").is_some() && r.get("fingerprint").is_some())
        .count();
    assert_eq!(judged.len(), html, "{}", dedup.stderr);
}
