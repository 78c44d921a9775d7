//! The JSONL output: one record per line, each written exactly once even across crashes.
//!
//! Records are written only after the state that holds them is committed, in output order
//! (`out_seq`). When a crawl resumes with the same output file, a cut-off last line is
//! removed, the complete lines are counted, and the committed records after that count are
//! written before anything new.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use silhouette_frontier::{Store, StoredRecord};

/// Where records go.
pub struct Output {
    sink: BufWriter<Box<dyn Write + Send>>,
    path: Option<PathBuf>,
    /// Records written so far (lines in the file).
    pub written: u64,
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

impl Output {
    /// Opens the output (`None`: standard output) and catches up with the committed
    /// records the file does not have yet.
    pub fn open(path: Option<&Path>, store: &Store) -> Result<Self> {
        let Some(path) = path else {
            // Standard output cannot be re-read: a resumed crawl prints its new records only.
            return Ok(Self {
                sink: BufWriter::new(Box::new(io::stdout())),
                path: None,
                written: 0,
            });
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .with_context(|| format!("cannot open the output file {}", path.display()))?;
        let written = complete_lines(&mut file, path)?;
        let mut out = Self {
            sink: BufWriter::new(Box::new(file)),
            path: Some(path.to_owned()),
            written,
        };
        let mut missing = Vec::new();
        store.records(Some(written), |r| missing.push(r))?;
        out.write(&missing)?;
        Ok(out)
    }

    /// Writes committed records (in output order) and flushes.
    pub fn write(&mut self, records: &[StoredRecord]) -> Result<()> {
        let name = self
            .path
            .as_ref()
            .map_or_else(|| "standard output".to_owned(), |p| p.display().to_string());
        for r in records.iter().filter(|r| r.out_seq.is_some()) {
            serde_json::to_writer(&mut self.sink, &json(r))
                .with_context(|| format!("cannot write to {name}"))?;
            self.sink
                .write_all(b"\n")
                .with_context(|| format!("cannot write to {name}"))?;
            self.written += 1;
        }
        self.sink
            .flush()
            .with_context(|| format!("cannot write to {name}"))
    }
}

/// The JSON object of a record.
pub fn json(r: &StoredRecord) -> serde_json::Value {
    let p = &r.page;
    serde_json::json!({
        "url": r.url,
        "final_url": p.final_url,
        "status": p.status,
        "depth": r.depth,
        "referrer": r.referrer,
        "content_type": p.content_type,
        "bytes": p.bytes,
        "fetch_ms": p.fetch_ms,
        "fingerprint": p.fingerprint.map(|f| format!("{f:016x}")),
        "elements": p.elements,
        "truncated": p.truncated,
        "decision": p.decision,
        "duplicate_of": r.duplicate_of_url,
        "distance": p.distance,
        "error": p.error,
    })
}
