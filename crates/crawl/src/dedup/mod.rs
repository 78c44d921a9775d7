//! `silhouette dedup INPUT...`: the crawl's dedup stage over WARC files written by any
//! crawler. Every `response` record with a 2xx HTML payload is fingerprinted (in parallel)
//! and judged in input order with the crawl's [`Dedup`] settings, so the output is the same
//! on every run; one JSONL line per judged record.

mod judge;
mod read;
mod state;
mod warc_out;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};

use crate::error::{Context, Error, Result};
use silhouette_dom::StructureHasher;
use silhouette_frontier::{Dedup, DedupConfig, Verdict};
use silhouette_text::ContentHasher;
use silhouette_warc::{parse_http_response, strip_angle_brackets};

use self::judge::Page;
use crate::events::{Events, Notice};

pub use self::read::{Candidate, Item, Position, Positioned, start as read_warc};
use self::state::{DedupState, Judged};
use self::warc_out::{KeptCopy, WarcOut};

/// What to run.
#[derive(Debug)]
pub struct DedupJob {
    /// The structure fingerprint.
    pub hasher: StructureHasher,
    /// The content signal's hasher (`hasher` must collect main-content text for it); `None`:
    /// no content signal (`content.enabled` off).
    pub content: Option<Arc<ContentHasher>>,
    /// The crawl's dedup settings.
    pub dedup: DedupConfig,
    /// The WARC files, judged in this order.
    pub inputs: Vec<PathBuf>,
    /// JSONL output (`None`: the stream given to [`run`]).
    pub output: Option<PathBuf>,
    /// A directory for a WARC file of the kept pages (and revisits of exact duplicates).
    pub warc_out: Option<PathBuf>,
    /// Largest decoded body fingerprinted.
    pub max_body: u64,
    /// `--state DIR`: resumable, and readable by `stats`/`replay`; with the settings a
    /// resumed state must share.
    pub state: Option<(PathBuf, Vec<(&'static str, String)>)>,
}

/// What a run did.
#[derive(Debug, Default)]
pub struct Report {
    /// Responses judged.
    pub judged: u64,
    /// Kept.
    pub kept: u64,
    /// Exact duplicates.
    pub exact: u64,
    /// Near-duplicates (structure).
    pub near: u64,
    /// Content duplicates.
    pub content: u64,
    /// Records not judged: other types, non-2xx, not HTML, redirects by
    /// `<meta http-equiv=refresh>`.
    pub skipped: u64,
    /// Records or files that could not be read.
    pub errors: u64,
    /// The WARC file written, with [`DedupJob::warc_out`].
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

fn prepare(
    hasher: &(StructureHasher, Option<Arc<ContentHasher>>),
    c: &Candidate,
    max_body: u64,
) -> Outcome {
    match archived_html(c, max_body) {
        Archived::Html {
            body,
            content_type,
            status,
            body_offset,
        } => Outcome::Judge {
            page: judge::fingerprint(
                &hasher.0,
                hasher.1.as_deref(),
                &body,
                content_type.as_deref(),
                strip_angle_brackets(c.fields.get("WARC-Target-URI").unwrap_or_default()),
            ),
            status,
            body_offset,
        },
        Archived::Other => Outcome::Skip,
        Archived::Bad(message) => Outcome::Bad(message),
    }
}

/// What a `response` record holds, for the commands that read a crawl's pages from archives.
#[derive(Debug)]
pub enum Archived<'a> {
    /// An HTML page with a 2xx status: its body decoded (chunked, gzip… undone).
    Html {
        /// The body.
        body: Cow<'a, [u8]>,
        /// The `Content-Type` header as stored (for the charset).
        content_type: Option<String>,
        /// The HTTP status.
        status: u16,
        /// Where the body starts in the record's block.
        body_offset: usize,
    },
    /// Another status or another kind of content.
    Other,
    /// A block that cannot be read as an HTTP response, or a body that cannot be decoded
    /// (the message names the record's offset).
    Bad(String),
}

/// The HTML page of response record `c`, if it holds one: a 2xx status, and HTML by its
/// declared content type, or by its bytes when it declares none; bodies over `max_body`
/// bytes once decoded are [`Archived::Bad`].
pub fn archived_html(c: &Candidate, max_body: u64) -> Archived<'_> {
    let http = match parse_http_response(&c.block) {
        Ok(h) => h,
        Err(e) => return Archived::Bad(format!("offset {}: {e}", c.offset)),
    };
    if !(200..300).contains(&http.status) {
        return Archived::Other;
    }
    let declared = http.content_type().filter(|t| !t.is_empty());
    if declared.is_some() && !http.is_html() {
        return Archived::Other;
    }
    let cap = usize::try_from(max_body).unwrap_or(usize::MAX);
    let body = match http.decoded_body(&c.block, cap) {
        Ok(b) => b,
        Err(e) => return Archived::Bad(format!("offset {}: {e}", c.offset)),
    };
    if declared.is_none() && !silhouette_fetch::sniff_html(&body) {
        return Archived::Other;
    }
    let content_type = http.headers.get("Content-Type").map(str::to_owned);
    Archived::Html {
        body,
        content_type,
        status: http.status,
        body_offset: http.body_offset,
    }
}

/// Pages being fingerprinted at once, at most (and their blocks' bytes): enough to keep every
/// core busy, few enough to bound memory.
const MAX_IN_FLIGHT: usize = 64;
const MAX_BYTES_IN_FLIGHT: usize = 16 << 20;

/// One item read, with its outcome once fingerprinted.
type Done = (Item, Option<Outcome>);

/// Runs the job; its JSONL goes to `stream` when [`DedupJob::output`] is `None`; records
/// that cannot be read are told to `events` and counted.
///
/// The reader thread hands over items in order; each response is fingerprinted as a task
/// of its own on the rayon pool (no batch barrier, so no core waits for the slowest page of
/// a batch) and the results are judged here strictly in input order (a reorder buffer).
pub fn run(job: &DedupJob, stream: &mut dyn Write, events: &mut dyn Events) -> Result<Report> {
    let params = job.hasher.params();
    let mut state = match &job.state {
        Some((dir, params)) => {
            let names: Vec<String> = job.inputs.iter().map(|p| p.display().to_string()).collect();
            Some(DedupState::open(dir, params, &names)?.0)
        }
        None => None,
    };
    let sink: Box<dyn Write> = match (&job.output, &state) {
        (None, _) => Box::new(stream),
        (Some(p), Some(s)) => Box::new(s.open_output(p)?),
        (Some(p), None) => Box::new(
            std::fs::File::create(p)
                .with_context(|| format!("cannot create the output file {}", p.display()))?,
        ),
    };
    let d = &job.dedup;
    let resumed_warc = match &state {
        Some(s) => s.warc_out()?,
        None => None,
    };
    let new_warc = resumed_warc.is_none();
    let warc = match (&job.warc_out, resumed_warc) {
        (None, _) => None,
        (Some(dir), Some((name, end, info))) => Some(WarcOut::reopen(dir, &name, end, info)?),
        (Some(dir), None) => Some(WarcOut::create(
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
    let mut judging = Judging {
        dedup: Dedup::new(job.dedup, &params).map_err(|e| Error::Refused(format!("dedup.{e}")))?,
        out: BufWriter::new(sink),
        warc,
        names: job.inputs.iter().map(|p| p.display().to_string()).collect(),
        kept: HashMap::new(),
        report: Report::default(),
        events,
        state: None,
        noted_kept_only: false,
    };
    let (mut from, mut skip) = (Position { file: 0, offset: 0 }, 0);
    if let Some(s) = state.as_mut() {
        if let Some(w) = judging.warc.as_mut().filter(|_| new_warc) {
            // The new file is known to the state before any record goes into it.
            s.set_warc_out(w)?;
            s.commit(Some(w), &mut judging.out)?;
        }
        let r = &mut judging.report;
        (r.judged, r.kept, r.exact, r.near, r.content) =
            s.restore(&mut judging.dedup, &mut judging.kept)?;
        (r.skipped, r.errors) = (s.skipped, s.errors);
        let (at, handled) = s.read_from();
        (from, skip) = (at, usize::try_from(handled).unwrap_or(usize::MAX));
    }
    judging.state = state;
    let (batches, reader) = read::start(
        job.inputs.clone(),
        job.max_body.saturating_add(1 << 20),
        from,
    );
    let hasher = Arc::new((job.hasher.clone(), job.content.clone()));
    let (tx, rx) = mpsc::channel::<(u64, Done)>();
    let mut in_flight: HashMap<u64, usize> = HashMap::new();
    let mut bytes_in_flight = 0usize;
    let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
    // Where each item not yet handled can be read again from, in input order.
    let mut entries: VecDeque<Option<Position>> = VecDeque::new();
    let (mut next_in, mut next_out) = (0u64, 0u64);
    let receive = |in_flight: &mut HashMap<u64, usize>,
                   bytes: &mut usize,
                   pending: &mut BTreeMap<u64, Done>|
     -> Result<()> {
        let (seq, done) = rx.recv().context("a fingerprinting task failed")?;
        *bytes -= in_flight.remove(&seq).unwrap_or(0);
        pending.insert(seq, done);
        Ok(())
    };
    // A resumed run reads on from the first record not handled.
    for Positioned { item, entry } in batches.into_iter().flatten().skip(skip) {
        let seq = next_in;
        next_in += 1;
        entries.push_back(entry);
        match item {
            Item::Response(c) => {
                let size = c.block.len();
                in_flight.insert(seq, size);
                bytes_in_flight += size;
                let (hasher, tx, max_body) = (Arc::clone(&hasher), tx.clone(), job.max_body);
                rayon::spawn(move || {
                    let outcome = prepare(&hasher, &c, max_body);
                    let _ = tx.send((seq, (Item::Response(c), Some(outcome))));
                });
            }
            other => {
                pending.insert(seq, (other, None));
            }
        }
        while in_flight.len() >= MAX_IN_FLIGHT || bytes_in_flight > MAX_BYTES_IN_FLIGHT {
            receive(&mut in_flight, &mut bytes_in_flight, &mut pending)?;
        }
        while let Some((item, outcome)) = pending.remove(&next_out) {
            next_out += 1;
            judging.handle(item, outcome, entries.pop_front().flatten())?;
        }
    }
    while next_out < next_in {
        if let Some((item, outcome)) = pending.remove(&next_out) {
            next_out += 1;
            judging.handle(item, outcome, entries.pop_front().flatten())?;
        } else {
            receive(&mut in_flight, &mut bytes_in_flight, &mut pending)?;
        }
    }
    reader.join().map_err(|_| Error::Failed {
        doing: "reading the WARC files".into(),
        source: "the reading thread panicked".into(),
    })?;
    judging.finish()
}

/// The in-order side: judges, writes the JSONL and the WARC output.
struct Judging<'a> {
    dedup: Dedup,
    out: BufWriter<Box<dyn Write + 'a>>,
    warc: Option<WarcOut>,
    names: Vec<String>,
    kept: HashMap<u64, KeptCopy>,
    report: Report,
    events: &'a mut dyn Events,
    state: Option<DedupState>,
    /// The note on WARC files of kept pages only was printed.
    noted_kept_only: bool,
}

impl Judging<'_> {
    fn handle(
        &mut self,
        item: Item,
        outcome: Option<Outcome>,
        entry: Option<Position>,
    ) -> Result<()> {
        self.judge(item, outcome)?;
        if let Some(s) = self.state.as_mut()
            && s.handled(entry)
        {
            (s.skipped, s.errors) = (self.report.skipped, self.report.errors);
            s.commit(self.warc.as_mut(), &mut self.out)?;
        }
        Ok(())
    }

    fn judge(&mut self, item: Item, outcome: Option<Outcome>) -> Result<()> {
        let report = &mut self.report;
        let c = match item {
            Item::Response(c) => c,
            Item::Skipped => {
                report.skipped += 1;
                return Ok(());
            }
            Item::KeptOnly { file } => {
                report.skipped += 1;
                if !self.noted_kept_only {
                    self.noted_kept_only = true;
                    self.events.notice(&Notice::KeptOnlyArchive {
                        file: self.names[file].clone(),
                    });
                }
                return Ok(());
            }
            Item::Error { file, message } => {
                report.errors += 1;
                self.events.notice(&Notice::BadRecord {
                    file: self.names[file].clone(),
                    message,
                });
                return Ok(());
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
                self.events.notice(&Notice::BadRecord {
                    file: self.names[c.file].clone(),
                    message,
                });
                return Ok(());
            }
            Some(Outcome::Skip) | None => {
                report.skipped += 1;
                return Ok(());
            }
        };
        let url = strip_angle_brackets(c.fields.get("WARC-Target-URI").unwrap_or_default());
        // A redirect by `<meta http-equiv=refresh>` is no page of a template (the crawl's
        // `redirect` decision).
        if page.redirect {
            report.skipped += 1;
            return Ok(());
        }
        report.judged += 1;
        // The crawl's site key: the host and its non-default port.
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| silhouette_frontier::host_port(&u))
            .unwrap_or_default();
        let id = match self.state.as_mut() {
            Some(s) => s.add(url, &host)?,
            None => report.judged,
        };
        let verdict = judge::judge(&mut self.dedup, id, &host, &page);
        let (duplicate_of, distance) = match verdict {
            Verdict::ExactDuplicate { of } => {
                report.exact += 1;
                (self.kept.get(&of), None)
            }
            Verdict::NearDuplicate { of, distance } => {
                report.near += 1;
                (self.kept.get(&of), Some(distance))
            }
            Verdict::ContentDuplicate { of, .. } => {
                report.content += 1;
                (self.kept.get(&of), None)
            }
            Verdict::Kept { .. } | Verdict::KeptUnjudged => {
                report.kept += 1;
                (None, None)
            }
        };
        let line = serde_json::json!({
            "url": url,
            "date": c.fields.get("WARC-Date"),
            "warc_file": self.names[c.file],
            "warc_offset": c.offset,
            "status": status,
            "fingerprint": page.fingerprint.map(|f| f.to_string()),
            "elements": page.elements,
            "truncated": page.truncated,
            "decision": verdict.name(),
            "duplicate_of": duplicate_of.map(|k| k.url.as_str()),
            "distance": distance,
            "content_fingerprint": page.content.fingerprint.map(|f| f.to_string()),
            "signature": page.content.signature.map(|s| format!("{s:032x}")),
            "content_duplicate_of": judge::content_of(verdict).and_then(|(of, _)| self.kept.get(&of)).map(|k| k.url.as_str()),
            "content_distance": judge::content_of(verdict).map(|(_, d)| d),
        });
        match self.state.as_mut() {
            Some(s) => s.record(&Judged {
                id,
                page: &page,
                verdict,
                status,
                file: c.file,
                file_name: &self.names[c.file],
                offset: c.offset,
                date: c.fields.get("WARC-Date").unwrap_or_default(),
                url,
                line: &line.to_string(),
            })?,
            None => writeln!(self.out, "{line}").context("cannot write the output")?,
        }
        if let (Some(w), Verdict::ExactDuplicate { of }) = (&mut self.warc, verdict)
            && let Some(original) = self.kept.get(&of)
        {
            w.revisit(&c.fields, &c.block, body_offset, original)?;
        }
        if !verdict.is_duplicate() {
            let copy = match &mut self.warc {
                Some(w) => w.keep(&c.fields, &c.block)?,
                None => KeptCopy {
                    url: url.to_owned(),
                    date: String::new(),
                },
            };
            self.kept.insert(id, copy);
        }
        Ok(())
    }

    fn finish(mut self) -> Result<Report> {
        if let Some(s) = self.state.as_mut() {
            (s.skipped, s.errors) = (self.report.skipped, self.report.errors);
            s.commit(self.warc.as_mut(), &mut self.out)?;
        }
        self.out.flush().context("cannot write the output")?;
        if let Some(w) = self.warc {
            self.report.warc_file = Some(w.finish()?);
        }
        Ok(self.report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warc_names() {
        for (name, expected) in [
            ("a.warc", true),
            ("dir/B.WARC.GZ", true),
            ("a.warc.gz.tmp", false),
            ("a.html", false),
            ("warc", false),
        ] {
            assert_eq!(is_warc(Path::new(name)), expected, "{name}");
        }
    }

    /// What `prepare` makes of a response block: `judge ELEMENTS`, `skip` or `bad …`.
    fn check(block: &str, expected: &str) {
        let c = Candidate {
            file: 0,
            offset: 7,
            fields: silhouette_warc::Fields::new(),
            block: block.as_bytes().to_vec(),
        };
        let hashers = (
            StructureHasher::default(),
            Some(Arc::new(
                ContentHasher::new(silhouette_text::ContentConfig::default()).expect("valid"),
            )),
        );
        let got = match prepare(&hashers, &c, 1 << 20) {
            Outcome::Judge { page, status, .. } => format!("judge {status} {}", page.elements),
            Outcome::Skip => "skip".to_owned(),
            Outcome::Bad(m) => format!("bad {m}"),
        };
        assert!(got.starts_with(expected), "{block:?}: {got}");
    }

    #[test]
    fn which_responses_are_judged() {
        let html = "<html><body><p>a</p></body></html>";
        check(
            &format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}"),
            "judge 200 4",
        );
        check(&format!("HTTP/1.1 203 X\r\n\r\n  {html}"), "judge 203 4"); // sniffed
        check("HTTP/1.1 200 OK\r\n\r\nplain text", "skip");
        check(
            &format!("HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n{html}"),
            "skip",
        );
        check(
            &format!("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n{html}"),
            "skip",
        );
        check(
            "not http at all\r\n\r\n",
            "bad offset 7: malformed HTTP head",
        );
        check(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\nxx",
            "bad offset 7: cannot decode gzip body",
        );
    }
}
