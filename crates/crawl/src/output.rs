//! The JSONL files: one record per line, each written exactly once even across crashes.
//!
//! Two files: the output (`pages.jsonl` or `--output`), the emitted records in output order
//! (`out_seq`); and `STATE/decisions.jsonl`, every record in crawl order (`seq`). Records
//! are written only after the state that holds them is committed. When a crawl resumes with
//! the same file, a cut-off last line is removed, the complete lines are counted, and the
//! committed records after that count are written before anything new.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::error::{Context, Result};
use silhouette_frontier::{Store, StoredRecord};

/// Which records a file holds, and how each is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The emitted records, in output order: the crawl's output.
    Pages,
    /// Every record, in crawl order: `STATE/decisions.jsonl`.
    Decisions,
}

/// Where a crawl writes the pages it emits (JSONL, one line per page).
pub enum PagesOutput {
    /// A file, appended to on resume (a cut-off last line is repaired; lines the state has
    /// and the file lacks are written first).
    File(PathBuf),
    /// A stream (standard output, a pipe): a resumed crawl writes its new lines only.
    Writer(Box<dyn Write + Send>),
}

impl std::fmt::Debug for PagesOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::File(p) => f.debug_tuple("File").field(p).finish(),
            Self::Writer(_) => f.write_str("Writer(..)"),
        }
    }
}

/// Where records go.
pub struct Output {
    sink: BufWriter<Box<dyn Write + Send>>,
    path: Option<PathBuf>,
    kind: Kind,
    /// Records written so far (lines in the file).
    pub written: u64,
    /// WARC file and offset of records not written yet (`crawl --warc`).
    warc: HashMap<u64, (String, u64)>,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output")
            .field("path", &self.path)
            .field("written", &self.written)
            .finish()
    }
}

/// The complete lines of `file` (cutting off a partial last line).
fn complete_lines(file: &mut File, path: &Path) -> Result<u64> {
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .with_context(|| format!("cannot read the output file {}", path.display()))?;
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    if keep < bytes.len() {
        file.set_len(keep as u64)
            .with_context(|| format!("cannot repair the output file {}", path.display()))?;
    }
    file.seek(SeekFrom::Start(keep as u64))
        .with_context(|| format!("cannot seek in {}", path.display()))?;
    Ok(bytes[..keep].iter().filter(|&&b| b == b'\n').count() as u64)
}

/// Opens (creating) a JSONL file to go on with: a cut-off last line is removed; returns the
/// file, positioned at its end, and its complete lines.
pub fn open_resumable(path: &Path) -> Result<(File, u64)> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .with_context(|| format!("cannot open the output file {}", path.display()))?;
    let lines = complete_lines(&mut file, path)?;
    Ok((file, lines))
}

impl Output {
    /// Opens the output (`None`: nowhere) and catches up with the committed
    /// records the file does not have yet.
    pub fn open(to: Option<PagesOutput>, store: &Store) -> Result<Self> {
        match to {
            Some(PagesOutput::File(path)) => Self::open_kind(Some(&path), None, store, Kind::Pages),
            Some(PagesOutput::Writer(w)) => Self::open_kind(None, Some(w), store, Kind::Pages),
            None => Self::open_kind(None, Some(Box::new(io::sink())), store, Kind::Pages),
        }
    }

    /// Opens `STATE/decisions.jsonl` and catches up with the committed records.
    pub fn open_decisions(state_dir: &Path, store: &Store) -> Result<Self> {
        Self::open_kind(
            Some(&decisions_path(state_dir)),
            None,
            store,
            Kind::Decisions,
        )
    }

    fn open_kind(
        path: Option<&Path>,
        writer: Option<Box<dyn Write + Send>>,
        store: &Store,
        kind: Kind,
    ) -> Result<Self> {
        let (Some(path), None) = (path, &writer) else {
            // A stream cannot be re-read: a resumed crawl writes its new records only.
            return Ok(Self {
                sink: BufWriter::new(writer.unwrap_or_else(|| Box::new(io::sink()))),
                path: None,
                kind,
                written: 0,
                warc: HashMap::new(),
            });
        };
        let (file, written) = open_resumable(path)?;
        let mut out = Self {
            sink: BufWriter::new(Box::new(file)),
            path: Some(path.to_owned()),
            kind,
            written,
            warc: HashMap::new(),
        };
        let mut missing = Vec::new();
        match kind {
            Kind::Pages => store.records(Some(written), |r| missing.push(r))?,
            // Crawl order numbers records 1, 2, 3…: line n is record n.
            Kind::Decisions => store.records(None, |r| {
                if r.seq > written {
                    missing.push(r);
                }
            })?,
        }
        if kind == Kind::Pages {
            for r in &missing {
                if let Some(at) = store.warc_location(r.page.id)? {
                    out.note_warc(r.page.id, &at);
                }
            }
        }
        out.write(&missing)?;
        Ok(out)
    }

    /// Where the WARC records of page `id` are, for its line.
    pub fn note_warc(&mut self, id: u64, at: &silhouette_frontier::WarcLocation) {
        if self.kind == Kind::Pages {
            self.warc.insert(id, (at.file.clone(), at.offset));
        }
    }

    /// Writes committed records (in output order) and flushes.
    pub fn write(&mut self, records: &[StoredRecord]) -> Result<()> {
        let name = self.path.as_ref().map_or_else(
            || "the output stream".to_owned(),
            |p| p.display().to_string(),
        );
        let kind = self.kind;
        for r in records {
            let warc = self.warc.remove(&r.page.id);
            if kind == Kind::Pages && r.out_seq.is_none() {
                continue;
            }
            let mut line = match kind {
                Kind::Pages => json_at(r, warc.as_ref().map(|(f, o)| (f.as_str(), *o))),
                Kind::Decisions => decision_json(r),
            };
            line.push('\n');
            self.sink
                .write_all(line.as_bytes())
                .with_context(|| format!("cannot write to {name}"))?;
            self.written += 1;
        }
        self.sink
            .flush()
            .with_context(|| format!("cannot write to {name}"))
    }
}

/// One output line, fields in a fixed order.
#[derive(serde::Serialize)]
struct JsonRecord<'a> {
    url: &'a str,
    final_url: Option<&'a str>,
    status: Option<u16>,
    depth: u32,
    referrer: Option<&'a str>,
    content_type: Option<&'a str>,
    bytes: Option<u64>,
    fetch_ms: Option<u64>,
    fingerprint: Option<String>,
    elements: Option<u64>,
    truncated: Option<&'a str>,
    decision: &'a str,
    duplicate_of: Option<&'a str>,
    distance: Option<u32>,
    cluster: Option<&'a str>,
    error: Option<&'a str>,
    /// Judged out of the order its URL was found in (only when it was).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    out_of_order: bool,
    #[serde(flatten)]
    content: ContentFields<'a>,
}

/// The content signal's fields, last on both kinds of line: the content fingerprint (16 or 32
/// hex digits), the semantic signature (32 hex digits), and for a `content-duplicate` the kept
/// page whose content it duplicates and the content distance.
#[derive(serde::Serialize)]
struct ContentFields<'a> {
    content_fingerprint: Option<String>,
    signature: Option<String>,
    content_duplicate_of: Option<&'a str>,
    content_distance: Option<u32>,
}

impl<'a> ContentFields<'a> {
    fn of(r: &'a StoredRecord) -> Self {
        let p = &r.page;
        Self {
            content_fingerprint: p.content.fingerprint.map(|f| f.to_string()),
            signature: p.content.signature.map(|s| format!("{s:032x}")),
            content_duplicate_of: r.content_duplicate_of_url.as_deref(),
            content_distance: p.content_distance,
        }
    }
}

/// One line of `decisions.jsonl`, fields in a fixed order.
#[derive(serde::Serialize)]
struct DecisionRecord<'a> {
    seq: u64,
    url: &'a str,
    final_url: Option<&'a str>,
    status: Option<u16>,
    depth: u32,
    referrer: Option<&'a str>,
    decision: &'a str,
    duplicate_of: Option<&'a str>,
    distance: Option<u32>,
    cluster: Option<&'a str>,
    fingerprint: Option<String>,
    elements: Option<u64>,
    truncated: Option<&'a str>,
    error: Option<&'a str>,
    in_output: bool,
    /// Judged out of the order its URL was found in (only when it was).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    out_of_order: bool,
    #[serde(flatten)]
    content: ContentFields<'a>,
}

/// The path of a state's decisions file.
pub fn decisions_path(state_dir: &Path) -> PathBuf {
    state_dir.join("decisions.jsonl")
}

/// The `decisions.jsonl` line of a record (without the newline).
pub fn decision_json(r: &StoredRecord) -> String {
    let p = &r.page;
    let line = DecisionRecord {
        seq: r.seq,
        url: &r.url,
        final_url: p.final_url.as_deref(),
        status: p.status,
        depth: r.depth,
        referrer: r.referrer.as_deref(),
        decision: p.decision.as_str(),
        duplicate_of: r.duplicate_of_url.as_deref(),
        distance: p.distance,
        cluster: r.cluster_url.as_deref(),
        fingerprint: p.fingerprint.map(|f| format!("{f:016x}")),
        elements: p.elements,
        truncated: p.truncated.as_deref(),
        error: p.error.as_deref(),
        in_output: r.out_seq.is_some(),
        out_of_order: p.out_of_order,
        content: ContentFields::of(r),
    };
    line_of(&line, &r.url)
}

/// `line` as JSON; a record that cannot be serialised still gets a line naming its URL.
fn line_of(line: &impl serde::Serialize, url: &str) -> String {
    serde_json::to_string(line)
        .unwrap_or_else(|e| format!("{{\"url\":{url:?},\"error\":\"unserialisable record: {e}\"}}"))
}

/// The JSON line of a record whose WARC records are at `warc` (file, offset): `warc_file`
/// and `warc_offset` close the line (`crawl --warc`).
pub fn json_at(r: &StoredRecord, warc: Option<(&str, u64)>) -> String {
    let mut line = json(r);
    if let Some((file, offset)) = warc
        && line.ends_with('}')
    {
        line.pop();
        let file = serde_json::Value::from(file);
        line.push_str(&format!(",\"warc_file\":{file},\"warc_offset\":{offset}}}"));
    }
    line
}

/// The JSON line of a record (without the newline).
pub fn json(r: &StoredRecord) -> String {
    let p = &r.page;
    let line = JsonRecord {
        url: &r.url,
        final_url: p.final_url.as_deref(),
        status: p.status,
        depth: r.depth,
        referrer: r.referrer.as_deref(),
        content_type: p.content_type.as_deref(),
        bytes: p.bytes,
        fetch_ms: p.fetch_ms,
        fingerprint: p.fingerprint.map(|f| format!("{f:016x}")),
        elements: p.elements,
        truncated: p.truncated.as_deref(),
        decision: p.decision.as_str(),
        duplicate_of: r.duplicate_of_url.as_deref(),
        distance: p.distance,
        cluster: r.cluster_url.as_deref(),
        error: p.error.as_deref(),
        out_of_order: p.out_of_order,
        content: ContentFields::of(r),
    };
    line_of(&line, &r.url)
}

#[cfg(test)]
mod tests {
    use silhouette_frontier::PageRecord;

    use super::*;

    fn lines(path: &Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .expect("readable")
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Records 1..=n emitted (odd ids) or not (even ids), committed.
    fn store_with(dir: &Path, n: u64) -> Store {
        let (mut store, _) = Store::open(dir, &[]).expect("opens");
        for i in 1..=n {
            let id = store
                .add_url(&format!("http://t/{i}"), "t", 0, None)
                .expect("ok")
                .expect("new");
            let rec = PageRecord {
                id,
                decision: silhouette_frontier::Decision::Kept,
                emitted: i % 2 == 1,
                ..PageRecord::default()
            };
            store.record(&rec).expect("ok");
        }
        store.commit().expect("commits");
        store
    }

    #[test]
    fn resume_writes_each_record_exactly_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = store_with(dir.path(), 6);
        let out = dir.path().join("pages.jsonl");
        // A crash left two complete lines and half of the third.
        let mut all = Vec::new();
        store.records(None, |r| all.push(r)).expect("reads");
        let emitted: Vec<String> = all
            .iter()
            .filter(|r| r.out_seq.is_some())
            .map(json)
            .collect();
        assert_eq!(emitted.len(), 3);
        std::fs::write(
            &out,
            format!("{}\n{}\n{}", emitted[0], emitted[1], &emitted[2][..10]),
        )
        .expect("write");
        let o = Output::open(Some(PagesOutput::File(out.clone())), &store).expect("opens");
        assert_eq!(o.written, 3);
        assert_eq!(lines(&out), emitted);
        drop(o);
        // Opening again adds nothing.
        let o = Output::open(Some(PagesOutput::File(out.clone())), &store).expect("opens");
        assert_eq!((o.written, lines(&out)), (3, emitted));
    }

    #[test]
    fn fields_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = store_with(dir.path(), 1);
        let mut all = Vec::new();
        store.records(None, |r| all.push(r)).expect("reads");
        assert_eq!(
            json(&all[0]),
            r#"{"url":"http://t/1","final_url":null,"status":null,"depth":0,"referrer":null,"content_type":null,"bytes":null,"fetch_ms":null,"fingerprint":null,"elements":null,"truncated":null,"decision":"kept","duplicate_of":null,"distance":null,"cluster":null,"error":null,"content_fingerprint":null,"signature":null,"content_duplicate_of":null,"content_distance":null}"#
        );
    }
}
