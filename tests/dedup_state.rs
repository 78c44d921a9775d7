//! `silhouette dedup --state`: killed with SIGKILL at several points and resumed (with a torn
//! JSONL line and a torn WARC record left behind), a run ends with the same JSONL bytes and
//! the same WARC records as an uninterrupted one; a resumed run does not read the input files
//! it finished again; `stats` and `replay` read the state.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use silhouette_warc::{WarcReader, WarcWriter, http_response_head, request, response};

use crate::common::run_in;
use crate::crawl_support::{config, jsonl};
use crate::sites::tree_site;

const PAGES: u32 = 900;

/// Three WARC files of the tree site's pages (with its byte-identical copies) and a request
/// record before each response (not judged): a gzip member per record, uncompressed, and
/// gzipped as one member.
fn write_inputs(dir: &Path) {
    std::fs::create_dir_all(dir.join("in")).expect("mkdir");
    let mut paths = vec!["/".to_owned()];
    for k in 1..PAGES {
        paths.push(format!("/n/{k}"));
        if k % 10 == 3 {
            paths.push(format!("/d/{k}"));
        }
    }
    for (i, part) in paths.chunks(paths.len() / 3 + 1).enumerate() {
        let mut w = WarcWriter::new(Vec::new());
        for (j, path) in part.iter().enumerate() {
            let page = tree_site(PAGES, path);
            let url = format!("http://127.0.0.1:1{path}");
            let date = format!("2024-05-01T12:{:02}:{:02}Z", j / 60 % 60, j % 60);
            let head = http_response_head(
                200,
                "OK",
                &[("Content-Type", page.content_type)],
                page.body.len() as u64,
            );
            w.write(&request(&date, &url, b"GET / HTTP/1.1\r\n\r\n".to_vec()))
                .expect("write");
            w.write(&response(&date, &url, &head, &page.body))
                .expect("write");
        }
        let bytes = w.into_inner().expect("bytes");
        let (name, bytes) = match i {
            0 => ("part0.warc.gz", bytes),
            1 => ("part1.warc", ungzip(&bytes)),
            _ => ("part2.warc.gz", gzip(&ungzip(&bytes))),
        };
        std::fs::write(dir.join("in").join(name), bytes).expect("write");
    }
}

fn ungzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read as _;
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("gzip members");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write as _;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).expect("to a Vec");
    e.finish().expect("to a Vec")
}

/// Where a resumed run would start reading (input file index, offset), as the state says.
fn resume_point(state: &Path) -> Option<(u64, u64)> {
    let db = rusqlite::Connection::open_with_flags(
        state.join("crawl.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .ok()?;
    let value: String = db
        .query_row(
            "SELECT value FROM meta WHERE key = 'dedup.resume'",
            [],
            |r| r.get(0),
        )
        .ok()?;
    let mut parts = value.split(' ').map(|p| p.parse().expect("a number"));
    Some((parts.next()?, parts.next()?))
}

/// (type, target URI, payload digest, block digest) of every record but the warcinfo.
fn records(dir: &Path) -> Vec<[String; 4]> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the WARC output")
        .map(|e| e.expect("an entry").path())
        .collect();
    assert_eq!(files.len(), 1, "one WARC output file: {files:?}");
    let file = std::fs::File::open(files.remove(0)).expect("opens");
    let mut reader = WarcReader::new(std::io::BufReader::new(file));
    let mut out = Vec::new();
    while let Some(rec) = reader.next_record() {
        let rec = rec.expect("a valid record");
        let f = &rec.header().fields;
        let get = |k: &str| f.get(k).unwrap_or_default().to_owned();
        if get("WARC-Type") != "warcinfo" {
            out.push([
                get("WARC-Type"),
                get("WARC-Target-URI"),
                get("WARC-Payload-Digest"),
                get("WARC-Block-Digest"),
            ]);
        }
    }
    out
}

fn lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count())
}

#[test]
fn killed_dedup_runs_resume_to_the_same_output() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    write_inputs(d);
    std::fs::write(d.join("c.toml"), config("cluster-budget = 2", "")).expect("config");
    let args = |state: &str, out: &str, warc: &str| -> Vec<String> {
        [
            "--config", "c.toml", "dedup", "--state", state, "--output", out,
        ]
        .into_iter()
        .chain(["--warc-out", warc, "in"])
        .map(str::to_owned)
        .collect()
    };

    // The uninterrupted run, and the same without a state.
    let reference = args("ref", "ref.jsonl", "refw");
    let all: Vec<&str> = reference.iter().map(String::as_str).collect();
    let run = run_in(d, &all, b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let plain = run_in(
        d,
        &[
            "--config",
            "c.toml",
            "dedup",
            "--output",
            "plain.jsonl",
            "in",
        ],
        b"",
    );
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let want = std::fs::read(d.join("ref.jsonl")).expect("the reference output");
    assert_eq!(std::fs::read(d.join("plain.jsonl")).expect("output"), want);
    let judged = jsonl(&d.join("ref.jsonl")).len();
    assert!(judged > 900, "{judged} pages judged");

    // Killed at its start, then after 200, 250 and 250 more lines, resumed each time.
    let killed = args("st", "out.jsonl", "ow");
    let (mut kills, mut runs) = (0, 0);
    let mut points = Vec::new();
    loop {
        runs += 1;
        assert!(runs < 20, "the run never finished");
        let start = lines(&d.join("out.jsonl"));
        let kill_at = [Some(0), Some(200), Some(250), Some(250), None][kills.min(4)];
        let mut child = Command::new(env!("CARGO_BIN_EXE_silhouette"))
            .args(&killed)
            .current_dir(d)
            .env_remove("SILHOUETTE_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break Some(status);
            }
            let started = d.join("st/crawl.sqlite").exists();
            if started && kill_at.is_some_and(|n| lines(&d.join("out.jsonl")) >= start + n) {
                child.kill().expect("SIGKILL");
                child.wait().expect("reaped");
                break None;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        match status {
            Some(status) => {
                assert_eq!(status.code(), Some(0), "run {runs}");
                break;
            }
            None => kills += 1,
        }
        // Once the run is past the first input, that file is never read again: replaced by
        // garbage, it changes nothing (re-read, it would shift every record after it).
        let point = resume_point(&d.join("st"));
        points.push(point);
        if point.is_some_and(|(file, _)| file >= 1) {
            std::fs::write(d.join("in/part0.warc.gz"), b"not a WARC file any more").expect("write");
        }
        if kills == 2 {
            // Torn writes: half a JSONL line, the start of a gzip member.
            use std::io::Write as _;
            let append = |path: &Path, bytes: &[u8]| {
                std::fs::OpenOptions::new()
                    .append(true)
                    .open(path)
                    .and_then(|mut f| f.write_all(bytes))
                    .expect("the output exists");
            };
            append(&d.join("out.jsonl"), b"{\"url\":\"http://torn");
            let warc = std::fs::read_dir(d.join("ow"))
                .expect("the WARC output")
                .next()
                .expect("a file")
                .expect("an entry")
                .path();
            append(&warc, &[0x1f, 0x8b, 8, 0]);
        }
    }
    assert!(kills >= 3, "only {kills} kills before the run finished");
    assert!(
        points.iter().flatten().any(|(file, _)| *file >= 1),
        "never resumed past the first input: {points:?}"
    );
    assert_eq!(
        std::fs::read(d.join("out.jsonl")).expect("the output"),
        want,
        "the resumed output differs from the uninterrupted one"
    );
    assert_eq!(records(&d.join("ow")), records(&d.join("refw")));

    // stats and replay read the state as a crawl's.
    let stats = run_in(d, &["stats", "--format", "json", "st"], b"");
    assert_eq!(stats.code, 0, "{}", stats.stderr);
    let summary: serde_json::Value = serde_json::from_str(&stats.stdout).expect("JSON");
    assert_eq!(summary["pages"].as_u64(), Some(judged as u64), "{summary}");
    let mut per_decision = std::collections::BTreeMap::new();
    for line in jsonl(&d.join("ref.jsonl")) {
        let decision = line["decision"].as_str().expect("a decision").to_owned();
        *per_decision.entry(decision).or_insert(0u64) += 1;
    }
    assert!(per_decision.len() >= 3, "{per_decision:?}");
    for (decision, n) in &per_decision {
        assert_eq!(
            summary["per_decision"][decision].as_u64(),
            Some(*n),
            "{decision}"
        );
    }
    let replay = run_in(d, &["--config", "c.toml", "replay", "st"], b"");
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    assert!(
        replay
            .stdout
            .contains(&format!("replay of {judged} judged pages")),
        "{}",
        replay.stdout
    );
    assert!(
        replay.stdout.contains("decisions changed: 0"),
        "{}",
        replay.stdout
    );
}
