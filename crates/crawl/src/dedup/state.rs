//! `dedup --state DIR`: a long run that can be killed and resumed with the same output, in a
//! crawl state (`DIR/crawl.sqlite`) that `stats`, `replay` and `report` read as a crawl's.
//!
//! Each judged record becomes a URL and a page record (decision, fingerprint, profile, body
//! hash, cluster), with its place in the input (`warc_records`: input file, offset, date)
//! and its JSONL line. Records are committed in groups together with the number of input
//! records handled and the committed length of the `--warc-out` file; the JSONL lines are
//! written only after their commit. A resumed run re-judges the committed records (in
//! order, from the state) to rebuild the dedup index, cuts the JSONL and the WARC output
//! back to what was committed, writes the committed lines the JSONL lacks, and reads on
//! from the first input record not handled: the files finished are not opened again, the
//! current one is entered at the last record handled that is a place to start (any record
//! of a file with a gzip member per record or uncompressed; of a file gzipped as one member
//! only the first, so such a file is read again from its start), and the records from
//! there to the first one not handled are read and passed over.

use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{Context, Result};
use silhouette_frontier::{Dedup, PageRecord, PageSignals, Store, Verdict, WarcLocation};
use silhouette_simhash::Fingerprint;

use super::judge::Page;
use super::read::Position;
use super::warc_out::{KeptCopy, WarcOut};

/// Records judged between two commits.
const COMMIT_EVERY: u64 = 256;

/// The state of a `dedup --state` run.
#[derive(Debug)]
pub struct DedupState {
    store: Store,
    /// Committed lines not yet in the JSONL, and lines of records not committed yet.
    lines: Vec<String>,
    since_commit: u64,
    /// Input records handled (judged, skipped or in error), in input order.
    pub items: u64,
    pub skipped: u64,
    pub errors: u64,
    /// Cluster of each kept page.
    clusters: HashMap<u64, u64>,
    /// The last place to start reading again among the records handled, and the number of
    /// records handled before it.
    resume: Option<(Position, u64)>,
}

/// A judged record, as the state keeps it.
#[derive(Debug)]
pub struct Judged<'a> {
    pub id: u64,
    pub page: &'a Page,
    pub verdict: Verdict,
    pub status: u16,
    pub file: usize,
    pub file_name: &'a str,
    pub offset: u64,
    pub date: &'a str,
    pub url: &'a str,
    pub line: &'a str,
}

fn meta_u64(store: &Store, key: &str) -> Result<u64> {
    Ok(store
        .meta(key)?
        .and_then(|v| v.parse().ok())
        .unwrap_or_default())
}

impl DedupState {
    /// Opens (or resumes) the state in `dir`; `params` must match a resumed state. The
    /// `inputs` are the state's WARC files (where each judged record is).
    pub fn open(dir: &Path, params: &[(&str, String)], inputs: &[String]) -> Result<(Self, bool)> {
        let (mut store, resumed) = Store::open(dir, params)?;
        if !resumed {
            for (serial, name) in inputs.iter().enumerate() {
                store.add_warc_file(serial as u64, name, 0)?;
            }
            store.commit()?;
        }
        let resume = store.meta("dedup.resume")?.and_then(|v| {
            let mut parts = v.split(' ').map(str::parse::<u64>);
            let (file, offset, before) = (
                parts.next()?.ok()?,
                parts.next()?.ok()?,
                parts.next()?.ok()?,
            );
            let file = usize::try_from(file).ok()?;
            Some((Position { file, offset }, before))
        });
        let state = Self {
            resume,
            items: meta_u64(&store, "dedup.items")?,
            skipped: meta_u64(&store, "dedup.skipped")?,
            errors: meta_u64(&store, "dedup.errors")?,
            store,
            lines: Vec::new(),
            since_commit: 0,
            clusters: HashMap::new(),
        };
        Ok((state, resumed))
    }

    /// Rebuilds the dedup index and the kept pages from the committed records, judging
    /// them again in order; returns (judged, kept, exact, near, content duplicates).
    pub fn restore(
        &mut self,
        dedup: &mut Dedup,
        kept: &mut HashMap<u64, KeptCopy>,
    ) -> Result<(u64, u64, u64, u64, u64)> {
        let mut records = Vec::new();
        self.store.records(None, |r| records.push(r))?;
        let mut counts = (0, 0, 0, 0, 0);
        for r in records {
            let page = &r.page;
            let summary = page.profile.as_deref().and_then(crate::page::summary_of);
            let verdict = dedup.judge_page(&PageSignals {
                id: page.id,
                host: &r.host,
                body_hash: page.body_hash.unwrap_or_default(),
                fingerprint: page.fingerprint.map(Fingerprint::new),
                elements: page.elements.unwrap_or(0),
                summary: summary.as_deref(),
                content: &page.content,
            });
            counts.0 += 1;
            match verdict {
                Verdict::ExactDuplicate { .. } => counts.2 += 1,
                Verdict::NearDuplicate { .. } => counts.3 += 1,
                Verdict::ContentDuplicate { .. } => counts.4 += 1,
                Verdict::Kept { .. } | Verdict::KeptUnjudged => {
                    counts.1 += 1;
                    let at = self.store.warc_location(page.id)?;
                    kept.insert(
                        page.id,
                        KeptCopy {
                            url: at.as_ref().map_or_else(|| r.url.clone(), |a| a.uri.clone()),
                            date: at.map(|a| a.date).unwrap_or_default(),
                        },
                    );
                    if let Verdict::Kept { cluster } = verdict {
                        self.clusters.insert(page.id, cluster);
                    }
                }
            }
        }
        Ok(counts)
    }

    /// Opens the JSONL output for appending: a cut-off last line is removed and the
    /// committed lines it lacks are written.
    pub fn open_output(&self, path: &Path) -> Result<File> {
        let (mut file, lines) = crate::output::open_resumable(path)?;
        let mut missing = Vec::new();
        self.store
            .output_lines(lines, |l| missing.push(format!("{l}\n")))?;
        file.write_all(missing.concat().as_bytes())
            .with_context(|| format!("cannot write to {}", path.display()))?;
        Ok(file)
    }

    /// The `--warc-out` file of the run so far: (name, committed length, warcinfo id).
    pub fn warc_out(&self) -> Result<Option<(String, u64, String)>> {
        Ok(match self.store.meta("dedup.warc-out")? {
            Some(name) => Some((
                name,
                meta_u64(&self.store, "dedup.warc-out-end")?,
                self.store.meta("dedup.warc-out-info")?.unwrap_or_default(),
            )),
            None => None,
        })
    }

    /// Remembers the `--warc-out` file (committed with the next records).
    pub fn set_warc_out(&mut self, warc: &WarcOut) -> Result<()> {
        let (name, info) = warc.identity();
        self.store.begin()?;
        self.store.set_meta("dedup.warc-out", &name)?;
        self.store.set_meta("dedup.warc-out-info", info)?;
        Ok(())
    }

    /// The id of a new judged record of `url` (a URL met again gets `#capture-N`).
    pub fn add(&mut self, url: &str, host: &str) -> Result<u64> {
        if let Some(id) = self.store.add_url(url, host, 0, None)? {
            return Ok(id);
        }
        let again = format!("{url}#capture-{}", self.items);
        self.store
            .add_url(&again, host, 0, None)?
            .with_context(|| format!("{again} is already in the state"))
    }

    /// Records a judged record and keeps its line for the JSONL.
    pub fn record(&mut self, j: &Judged<'_>) -> Result<()> {
        let (duplicate_of, distance, cluster) = match j.verdict {
            Verdict::ExactDuplicate { of } => (Some(of), None, self.clusters.get(&of).copied()),
            Verdict::NearDuplicate { of, distance } => (Some(of), Some(distance), Some(of)),
            Verdict::ContentDuplicate { of, cluster, .. } => (Some(of), None, cluster),
            Verdict::Kept { cluster } => {
                self.clusters.insert(j.id, cluster);
                (None, None, Some(cluster))
            }
            Verdict::KeptUnjudged => (None, None, None),
        };
        let recorded_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let (seq, _) = self.store.record(&PageRecord {
            out_of_order: false,
            id: j.id,
            final_url: None,
            status: Some(j.status),
            content_type: None,
            bytes: None,
            fetch_ms: None,
            fingerprint: j.page.fingerprint.map(|f| f.bits()),
            elements: Some(j.page.elements),
            truncated: j.page.truncated.clone(),
            decision: j.verdict.decision(),
            duplicate_of,
            distance,
            error: None,
            body_hash: Some(j.page.body_hash),
            profile: j.page.profile.clone(),
            emitted: true,
            cluster,
            recorded_ms: Some(recorded_ms),
            content: j.page.content,
            content_duplicate_of: crate::dedup::judge::content_of(j.verdict).map(|(of, _)| of),
            content_distance: crate::dedup::judge::content_of(j.verdict).map(|(_, d)| d),
        })?;
        let serial = j.file as u64;
        self.store.set_warc_location(
            j.id,
            &WarcLocation {
                serial,
                file: j.file_name.to_owned(),
                offset: j.offset,
                end: j.offset,
                date: j.date.to_owned(),
                kind: "response".to_owned(),
                uri: j.url.to_owned(),
            },
        )?;
        self.store.set_output_line(seq, j.line)?;
        self.lines.push(j.line.to_owned());
        Ok(())
    }

    /// Where to read the input from, and how many items read from there were handled
    /// already (to pass over).
    pub fn read_from(&self) -> (Position, u64) {
        match self.resume {
            Some((at, before)) => (at, self.items.saturating_sub(before)),
            None => (Position { file: 0, offset: 0 }, self.items),
        }
    }

    /// Counts an input record handled (`entry`: where reading can start again at it); true
    /// when it is time to commit.
    pub fn handled(&mut self, entry: Option<Position>) -> bool {
        if let Some(at) = entry {
            self.resume = Some((at, self.items));
        }
        self.items += 1;
        self.since_commit += 1;
        self.since_commit >= COMMIT_EVERY
    }

    /// Commits: the WARC output reaches the OS first, then the state (with the input
    /// position and the output's length), then the lines go to the JSONL.
    pub fn commit(&mut self, warc: Option<&mut WarcOut>, out: &mut dyn Write) -> Result<()> {
        self.store.begin()?;
        if let Some(w) = warc {
            let end = w.flush()?;
            self.store
                .set_meta("dedup.warc-out-end", &end.to_string())?;
        }
        self.store
            .set_meta("dedup.items", &self.items.to_string())?;
        if let Some((at, before)) = self.resume {
            let value = format!("{} {} {before}", at.file, at.offset);
            self.store.set_meta("dedup.resume", &value)?;
        }
        self.store
            .set_meta("dedup.skipped", &self.skipped.to_string())?;
        self.store
            .set_meta("dedup.errors", &self.errors.to_string())?;
        self.store.commit()?;
        for line in self.lines.drain(..) {
            writeln!(out, "{line}").context("cannot write the output")?;
        }
        out.flush().context("cannot write the output")?;
        self.since_commit = 0;
        Ok(())
    }
}
