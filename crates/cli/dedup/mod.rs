//! `silhouette dedup INPUT...`: the crawl's dedup stage over WARC files written by any
//! crawler. Every `response` record with a 2xx HTML payload is fingerprinted (in parallel)
//! and judged in input order with the crawl's [`Dedup`] settings, so the output is the same
//! on every run; one JSONL line per judged record.

mod judge;
mod read;
mod warc_out;

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rayon::prelude::*;
use silhouette_dom::StructureHasher;
use silhouette_frontier::{Dedup, DedupConfig, Verdict};
use silhouette_warc::{parse_http_response, strip_angle_brackets};

use self::judge::Page;
use self::read::{Candidate, Item};
use self::warc_out::{KeptCopy, WarcOut};

/// What to run.
#[derive(Debug)]
pub struct DedupJob {
    pub hasher: StructureHasher,
    pub dedup: DedupConfig,
    pub inputs: Vec<PathBuf>,
    /// JSONL output (`None`: standard output).
    pub output: Option<PathBuf>,
    pub warc_out: Option<PathBuf>,
    /// Largest decoded body fingerprinted.
    pub max_body: u64,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Report {
    pub judged: u64,
    pub kept: u64,
    pub exact: u64,
    pub near: u64,
    /// Records not judged: other types, non-2xx, not HTML.
    pub skipped: u64,
    /// Records or files that could not be read.
    pub errors: u64,
    pub warc_file: Option<PathBuf>,
}

/// Whether `path` is named like a WARC file (`.warc`, `.warc.gz`).
pub fn is_warc(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".warc") || name.ends_with(".warc.gz")
}

/// A response record made ready to judge, or why not.
enum Outcome {
    Judge {
        page: Page,
        status: u16,
        body_offset: usize,
    },
    Skip,
    Bad(String),
}

fn prepare(hasher: &StructureHasher, c: &Candidate, max_body: u64) -> Outcome {
    let http = match parse_http_response(&c.block) {
        Ok(h) => h,
        Err(e) => return Outcome::Bad(format!("offset {}: {e}", c.offset)),
    };
    if !(200..300).contains(&http.status) {
        return Outcome::Skip;
    }
    let declared = http.content_type().filter(|t| !t.is_empty());
    if declared.is_some() && !http.is_html() {
        return Outcome::Skip;
    }
    let cap = usize::try_from(max_body).unwrap_or(usize::MAX);
    let body = match http.decoded_body(&c.block, cap) {
        Ok(b) => b,
        Err(e) => return Outcome::Bad(format!("offset {}: {e}", c.offset)),
    };
    if declared.is_none() && !silhouette_fetch::sniff_html(&body) {
        return Outcome::Skip;
    }
    let content_type = http.headers.get("Content-Type");
    Outcome::Judge {
        page: judge::fingerprint(hasher, &body, content_type),
        status: http.status,
        body_offset: http.body_offset,
    }
}

/// Runs the job; records that cannot be read are reported on `err` and counted.
pub fn run(job: &DedupJob, err: &mut dyn Write) -> Result<Report> {
    let params = job.hasher.params();
    let mut dedup = Dedup::new(job.dedup, &params).map_err(|e| anyhow::anyhow!("dedup.{e}"))?;
    let sink: Box<dyn Write> = match &job.output {
        None => Box::new(io::stdout().lock()),
        Some(p) => Box::new(
            std::fs::File::create(p)
                .with_context(|| format!("cannot create the output file {}", p.display()))?,
        ),
    };
    let mut out = BufWriter::new(sink);
    let d = &job.dedup;
    let mut warc = match &job.warc_out {
        None => None,
        Some(dir) => Some(WarcOut::create(
            dir,
            &job.inputs,
            &[
                ("fingerprint", params.clone()),
                ("dedup-threshold", d.threshold.to_string()),
                ("dedup-scope", d.scope.to_string()),
                ("dedup-cluster-budget", d.cluster_budget.to_string()),
                ("dedup-min-elements", d.min_elements.to_string()),
            ],
        )?),
    };
    let names: Vec<String> = job.inputs.iter().map(|p| p.display().to_string()).collect();
    let (batches, reader) = read::start(job.inputs.clone(), job.max_body.saturating_add(1 << 20));
    let mut report = Report::default();
    let mut kept: HashMap<u64, KeptCopy> = HashMap::new();
    for batch in batches {
        let prepared: Vec<(Item, Option<Outcome>)> = batch
            .into_par_iter()
            .map(|item| {
                let outcome = match &item {
                    Item::Response(c) => Some(prepare(&job.hasher, c, job.max_body)),
                    _ => None,
                };
                (item, outcome)
            })
            .collect();
        for (item, outcome) in prepared {
            let c = match item {
                Item::Response(c) => c,
                Item::Skipped => {
                    report.skipped += 1;
                    continue;
                }
                Item::Error { file, message } => {
                    report.errors += 1;
                    writeln!(err, "error: {}: {message}", names[file])?;
                    continue;
                }
            };
            let (page, status, body_offset) = match outcome {
                Some(Outcome::Judge {
                    page,
                    status,
                    body_offset,
                }) => (page, status, body_offset),
                Some(Outcome::Bad(message)) => {
                    report.errors += 1;
                    writeln!(err, "error: {}: {message}", names[c.file])?;
                    continue;
                }
                Some(Outcome::Skip) | None => {
                    report.skipped += 1;
                    continue;
                }
            };
            report.judged += 1;
            let id = report.judged;
            let url = strip_angle_brackets(c.fields.get("WARC-Target-URI").unwrap_or_default());
            let host = url::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
                .unwrap_or_default();
            let verdict = judge::judge(&mut dedup, id, &host, &page);
            let (duplicate_of, distance) = match verdict {
                Verdict::ExactDuplicate { of } => {
                    report.exact += 1;
                    (kept.get(&of), None)
                }
                Verdict::NearDuplicate { of, distance } => {
                    report.near += 1;
                    (kept.get(&of), Some(distance))
                }
                Verdict::Kept { .. } | Verdict::KeptUnjudged => {
                    report.kept += 1;
                    (None, None)
                }
            };
            let line = serde_json::json!({
                "url": url,
                "date": c.fields.get("WARC-Date"),
                "warc_file": names[c.file],
                "warc_offset": c.offset,
                "status": status,
                "fingerprint": page.fingerprint.map(|f| f.to_string()),
                "elements": page.elements,
                "truncated": page.truncated,
                "decision": verdict.name(),
                "duplicate_of": duplicate_of.map(|k| k.url.as_str()),
                "distance": distance,
            });
            writeln!(out, "{line}").context("cannot write the output")?;
            if let (Some(w), Verdict::ExactDuplicate { of }) = (&mut warc, verdict)
                && let Some(original) = kept.get(&of)
            {
                w.revisit(
                    &c.fields,
                    &c.block[..body_offset.min(c.block.len())],
                    original,
                )?;
            }
            if !verdict.is_duplicate() {
                let copy = match &mut warc {
                    Some(w) => w.keep(&c.fields, &c.block, body_offset)?,
                    None => KeptCopy {
                        url: url.to_owned(),
                        date: String::new(),
                        payload_digest: String::new(),
                    },
                };
                kept.insert(id, copy);
            }
        }
    }
    out.flush().context("cannot write the output")?;
    reader
        .join()
        .map_err(|_| anyhow::anyhow!("the WARC reading thread failed"))?;
    if let Some(w) = warc {
        report.warc_file = Some(w.finish()?);
    }
    Ok(report)
}
