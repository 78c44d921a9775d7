//! Running `silhouette crawl` against the test sites and reading back what it left: the JSONL
//! output, the SQLite state (read-only) and `silhouette stats`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use serde_json::Value;

use crate::common::{Run, run_in};

/// A config for fast local crawls (no rate limit, 4 fetches per host, 8 in all unless `crawl`
/// sets `concurrency`); `dedup` and `crawl` are extra lines of those sections.
pub fn config(dedup: &str, crawl: &str) -> String {
    let concurrency = if crawl.contains("concurrency") {
        ""
    } else {
        "concurrency = 8\n"
    };
    format!(
        "[dedup]\n{dedup}\n\n[crawl]\n{concurrency}{crawl}\n\n[fetch]\nrequest-interval-ms = 0\nper-host-concurrency = 4\n"
    )
}

/// `silhouette --config DIR/c.toml crawl --state DIR/state ARGS...` in `dir`, with `toml`
/// written to `DIR/c.toml` first.
pub fn crawl(dir: &Path, toml: &str, args: &[&str]) -> Run {
    std::fs::write(dir.join("c.toml"), toml).expect("write the config");
    let mut all = vec!["--config", "c.toml", "crawl", "--state", "state"];
    all.extend_from_slice(args);
    run_in(dir, &all, b"")
}

/// One URL of the state: its record, if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub url: String,
    pub done: bool,
    pub decision: Option<String>,
    pub duplicate_of: Option<String>,
    pub distance: Option<i64>,
    pub emitted: bool,
    pub referrer: Option<String>,
    pub status: Option<i64>,
}

/// Every URL of the state in `state` (opened read-only), in discovery order.
pub fn state_rows(state: &Path) -> Vec<Row> {
    let db = rusqlite::Connection::open_with_flags(
        state.join("crawl.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("the state opens");
    let mut stmt = db
        .prepare(
            "SELECT u.url, u.done, p.decision, d.url, p.distance, p.out_seq, r.url, p.status \
             FROM urls u LEFT JOIN pages p ON p.id = u.id LEFT JOIN urls d ON d.id = p.duplicate_of \
             LEFT JOIN urls r ON r.id = u.referrer ORDER BY u.id",
        )
        .expect("the query");
    let rows = stmt
        .query_map([], |r| {
            Ok(Row {
                url: r.get(0)?,
                done: r.get::<_, i64>(1)? != 0,
                decision: r.get(2)?,
                duplicate_of: r.get(3)?,
                distance: r.get(4)?,
                emitted: r.get::<_, Option<i64>>(5)?.is_some(),
                referrer: r.get(6)?,
                status: r.get(7)?,
            })
        })
        .expect("the rows");
    rows.collect::<Result<_, _>>().expect("readable rows")
}

/// The JSONL file's records; every line must be complete JSON.
pub fn jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).expect("the output file");
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "{}: partial last line",
        path.display()
    );
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad line {l:?}: {e}")))
        .collect()
}

/// A string field of a record.
pub fn field<'a>(r: &'a Value, key: &str) -> Option<&'a str> {
    r.get(key).and_then(Value::as_str)
}

/// `silhouette stats STATE`: the per-decision table and the total.
pub fn stats(dir: &Path) -> (u64, BTreeMap<String, u64>) {
    let r = run_in(dir, &["stats", "state"], b"");
    assert_eq!(r.code, 0, "stats: {}", r.stderr);
    let mut lines = r.stdout.lines();
    let total = lines
        .next()
        .and_then(|l| l.strip_suffix(" URLs recorded"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no total in {}", r.stdout));
    let mut per = BTreeMap::new();
    for line in lines.take_while(|l| l.starts_with("  ")) {
        let mut words = line.split_whitespace();
        let (Some(d), Some(n)) = (words.next(), words.next()) else {
            panic!("bad stats line {line:?}")
        };
        per.insert(d.to_owned(), n.parse().expect("a count"));
    }
    (total, per)
}

/// What a finished crawl left in `dir` (state in `dir/state`, output `dir/state/pages.jsonl`),
/// after checking that the JSONL, the state and `stats` agree.
#[derive(Debug)]
pub struct Left {
    /// The state's URLs, in discovery order.
    pub rows: Vec<Row>,
    /// The JSONL records, in file order.
    pub records: Vec<Value>,
}

impl Left {
    /// The recorded URLs (those with a decision) by URL.
    pub fn recorded(&self) -> HashMap<&str, &Row> {
        self.rows
            .iter()
            .filter(|r| r.decision.is_some())
            .map(|r| (r.url.as_str(), r))
            .collect()
    }

    /// The decision of `url`.
    pub fn decision(&self, url: &str) -> Option<&str> {
        self.rows
            .iter()
            .find(|r| r.url == url)
            .and_then(|r| r.decision.as_deref())
    }
}

/// A JSONL record says what the state says of its URL.
fn same_as_row(rec: &Value, row: &Row) {
    let url = &row.url;
    assert_eq!(field(rec, "decision"), row.decision.as_deref(), "{url}");
    assert_eq!(
        field(rec, "duplicate_of"),
        row.duplicate_of.as_deref(),
        "{url}"
    );
    assert_eq!(
        rec.get("distance").and_then(Value::as_i64),
        row.distance,
        "{url}"
    );
    assert_eq!(field(rec, "referrer"), row.referrer.as_deref(), "{url}");
}

pub fn check_consistent(dir: &Path) -> Left {
    let state = dir.join("state");
    let rows = state_rows(&state);
    let records = jsonl(&state.join("pages.jsonl"));

    // Every URL once in the state (the table is UNIQUE on url; check anyway), every URL done
    // has a record unless it is a redirect alias, and no record without a URL.
    let mut seen = HashSet::new();
    for r in &rows {
        assert!(seen.insert(r.url.as_str()), "{} twice in the state", r.url);
        if r.decision.is_some() {
            assert!(r.done, "{} recorded but not done", r.url);
        }
    }

    // Every emitted record exactly once in the JSONL, with the state's decision.
    let mut in_jsonl: HashMap<&str, &Value> = HashMap::new();
    for rec in &records {
        let url = field(rec, "url").expect("a url");
        assert!(
            in_jsonl.insert(url, rec).is_none(),
            "{url} twice in the JSONL"
        );
    }
    let emitted: HashMap<&str, &Row> = rows
        .iter()
        .filter(|r| r.emitted)
        .map(|r| (r.url.as_str(), r))
        .collect();
    let mut a: Vec<&&str> = in_jsonl.keys().collect();
    let mut b: Vec<&&str> = emitted.keys().collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "JSONL URLs vs emitted state records");
    for (url, rec) in &in_jsonl {
        same_as_row(rec, emitted[url]);
    }

    // Every recorded URL exactly once in decisions.jsonl, in crawl order, with its decision.
    let decisions = jsonl(&state.join("decisions.jsonl"));
    let recorded: HashMap<&str, &Row> = rows
        .iter()
        .filter(|r| r.decision.is_some())
        .map(|r| (r.url.as_str(), r))
        .collect();
    assert_eq!(decisions.len(), recorded.len(), "decisions.jsonl lines");
    let mut once = HashSet::new();
    for (i, rec) in decisions.iter().enumerate() {
        let url = field(rec, "url").expect("a url");
        assert!(once.insert(url), "{url} twice in decisions.jsonl");
        assert_eq!(rec.get("seq").and_then(Value::as_u64), Some(i as u64 + 1));
        let row = recorded
            .get(url)
            .unwrap_or_else(|| panic!("{url} in decisions.jsonl, not recorded"));
        same_as_row(rec, row);
        assert_eq!(
            rec.get("in_output").and_then(Value::as_bool),
            Some(row.emitted),
            "{url}"
        );
        if row.decision.as_deref() == Some("near-duplicate") {
            assert_eq!(field(rec, "cluster"), row.duplicate_of.as_deref(), "{url}");
        }
        if field(rec, "fingerprint").is_some() && row.decision.as_deref() != Some("kept") {
            assert!(field(rec, "cluster").is_some(), "{url}: no cluster");
        }
    }

    // `stats` totals match the state, decision by decision.
    let mut per_decision: BTreeMap<String, u64> = BTreeMap::new();
    for d in rows.iter().filter_map(|r| r.decision.clone()) {
        *per_decision.entry(d).or_insert(0) += 1;
    }
    let (total, per) = stats(dir);
    assert_eq!(total, per_decision.values().sum::<u64>(), "stats total");
    assert_eq!(per, per_decision, "stats per decision");
    Left { rows, records }
}

/// Waits for `child`, killing it (SIGKILL) once `server` has served `kill_after` responses:
/// progress-based, not timed. Its exit status, or `None` when it was killed.
pub fn run_or_kill(
    child: &mut std::process::Child,
    server: &crate::sites::Server,
    kill_after: Option<usize>,
) -> Option<std::process::ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return Some(status);
        }
        if kill_after.is_some_and(|n| server.served() >= n) {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaped");
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}
