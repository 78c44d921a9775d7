//! `crawl --warc DIR`: the fetched pages as WARC files, each written exactly once even
//! across crashes.
//!
//! A page's records (request, then response or revisit) are written and flushed before the
//! state that records the page is committed; the state holds each page's file and offsets
//! (`warc_records`) and the files in creation order (`warc_files`). On resume every file is
//! cut back to the end of its last committed record: a torn record, or records of pages
//! whose state never committed (they are fetched again), are cut away. A new file is
//! registered and committed before it is created, so every file in the state belongs to
//! this crawl.

use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{Context, Result, inconsistent};
use silhouette_frontier::{Store, StoredRecord, WarcLocation};
use silhouette_warc::{
    WarcRecord, WarcWriter, cdxj_line, gzip_member, http_response_head, request, response_fields,
    revisit, warc_date, warcinfo,
};

use crate::config::{WarcConfig, WarcRecords};

/// The state's meta key for the absolute path of the directory its WARC files are in.
pub const WARC_DIR_KEY: &str = "warc.dir";

/// What a fetch keeps for the WARC: the parts of its records, built (digests, deflate) only
/// when the frontier's decision says they are written. With `warc-records = "kept"`, the
/// near duplicates a crawl drops cost nothing here.
#[derive(Debug, Clone)]
pub struct Capture {
    date: String,
    url: String,
    request_head: Vec<u8>,
    head: Vec<u8>,
    body: bytes::Bytes,
}

impl Capture {
    /// The request and the response record, each a gzip member (deflate level 1, as the
    /// crawl's own files): what a worker of a shared crawl archives for a page.
    pub fn members(&self) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
        let built = self.build()?;
        let response = gzip_member(&built.index.fields, &[&self.head, &self.body], true)?;
        Ok((built.request, response))
    }
}

/// A capture's request record (a gzip member) and its response's fields.
struct Built {
    payload_digest: String,
    request: Vec<u8>,
    index: WarcRecord,
}

impl Capture {
    pub fn of(
        page: &silhouette_fetch::FetchedPage,
        url: &url::Url,
        request_head: Vec<u8>,
    ) -> Option<Self> {
        if !page.body_fetched {
            return None;
        }
        let headers: Vec<(&str, &str)> = page
            .headers
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        Some(Self {
            date: warc_date(SystemTime::now()),
            url: url.to_string(),
            request_head,
            head: http_response_head(page.status, &page.reason, &headers, page.body.len() as u64),
            body: page.body.clone(),
        })
    }

    /// The request record as a gzip member, and the response's fields (its digests).
    fn build(&self) -> std::io::Result<Built> {
        let fields = response_fields(&self.date, &self.url, &self.head, &self.body);
        let req = request(&self.date, &self.url, self.request_head.clone()).with_field(
            "WARC-Concurrent-To",
            fields.get("WARC-Record-ID").unwrap_or_default(),
        );
        let payload_digest = fields
            .get("WARC-Payload-Digest")
            .unwrap_or_default()
            .to_owned();
        Ok(Built {
            request: req.to_gzip_member(true)?,
            payload_digest,
            index: WarcRecord {
                fields,
                block: self.head.clone(),
            },
        })
    }
}

const WRITE_BUFFER: usize = 256 * 1024;

/// The open file.
struct Current {
    serial: u64,
    name: String,
    writer: WarcWriter<BufWriter<File>>,
    cdxj: Option<BufWriter<File>>,
}

/// What one run wrote to the WARC files, for its summary.
#[derive(Clone, Debug, Default)]
pub struct WarcWritten {
    /// The WARC directory.
    pub dir: PathBuf,
    /// The files this run wrote to, in order.
    pub files: Vec<String>,
    /// Pages archived (a request and a response or revisit record each).
    pub pages: u64,
}

/// The crawl's WARC files.
pub struct WarcLog {
    settings: WarcConfig,
    info: Vec<(String, String)>,
    host: String,
    current: Option<Current>,
    next_serial: u64,
    written: WarcWritten,
}

impl std::fmt::Debug for WarcLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WarcLog")
            .field("dir", &self.settings.dir)
            .field("file", &self.current.as_ref().map(|c| &c.name))
            .finish_non_exhaustive()
    }
}

/// The machine's name for file names (`localhost` when it cannot be read).
fn host_name() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default();
    let clean: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if clean.is_empty() {
        "localhost".to_owned()
    } else {
        clean
    }
}

/// `YYYYMMDDhhmmssfff` of now.
fn file_stamp() -> String {
    let now = SystemTime::now();
    let ms = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_millis());
    format!(
        "{}{ms:03}",
        silhouette_warc::cdxj_timestamp(&warc_date(now))
    )
}

/// The CDXJ index beside a WARC file: `NAME.warc.gz` → `NAME.cdxj`.
pub fn cdxj_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{}.cdxj", name.trim_end_matches(".warc.gz")))
}

/// Keeps the lines of a CDXJ index whose records end within `end` bytes, sorted.
fn repair_cdxj(path: &Path, end: u64) -> Result<()> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let within = |line: &str| -> Option<bool> {
        let json: serde_json::Value = serde_json::from_str(line.splitn(3, ' ').nth(2)?).ok()?;
        let num = |k: &str| json.get(k)?.as_str()?.parse::<u64>().ok();
        Some(num("offset")? + num("length")? <= end)
    };
    let mut lines: Vec<&str> = text.lines().filter(|l| within(l) == Some(true)).collect();
    lines.sort_unstable();
    let mut out = lines.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    std::fs::write(path, out).with_context(|| format!("cannot write {}", path.display()))
}

impl WarcLog {
    /// Opens the WARC directory of a crawl: files of a resumed crawl are cut back to what
    /// the state committed (and their indexes with them); the last one is appended to
    /// while it is under the size limit. `info` goes into each file's warcinfo record.
    pub fn open(settings: WarcConfig, info: Vec<(String, String)>, store: &Store) -> Result<Self> {
        let dir = &settings.dir;
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the WARC directory {}", dir.display()))?;
        // Where the files are, for the commands that read a crawl's pages from its state
        // (`idf build STATE`); the state names each file.
        let absolute = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
        store.set_meta(WARC_DIR_KEY, &absolute.to_string_lossy())?;
        let files = store.warc_files()?;
        let mut log = Self {
            info,
            host: host_name(),
            current: None,
            next_serial: files.last().map_or(0, |f| f.serial + 1),
            written: WarcWritten {
                dir: settings.dir.clone(),
                ..WarcWritten::default()
            },
            settings,
        };
        for (i, f) in files.iter().enumerate() {
            let path = log.settings.dir.join(&f.name);
            let last = i + 1 == files.len();
            let len = match std::fs::metadata(&path) {
                Ok(m) => m.len(),
                // Registered, then killed before it was created: it holds nothing.
                Err(_) if f.pages == 0 => continue,
                Err(e) => inconsistent!(
                    "the WARC file {} of this crawl is missing ({e}): the state says it holds {} pages",
                    path.display(),
                    f.pages
                ),
            };
            if len < f.committed_end {
                inconsistent!(
                    "the WARC file {} is shorter than the crawl state says ({len} < {} bytes): it was changed outside the crawl",
                    path.display(),
                    f.committed_end
                );
            }
            let file = OpenOptions::new()
                .append(true)
                .open(&path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            if len > f.committed_end {
                // A torn record, or records whose pages the state never committed.
                file.set_len(f.committed_end)
                    .with_context(|| format!("cannot repair {}", path.display()))?;
            }
            if log.settings.cdxj {
                repair_cdxj(&cdxj_path(&log.settings.dir, &f.name), f.committed_end)?;
            }
            if last && f.committed_end > 0 && f.committed_end < log.settings.max_bytes {
                let cdxj = log.open_cdxj(&f.name, true)?;
                log.current = Some(Current {
                    serial: f.serial,
                    name: f.name.clone(),
                    writer: WarcWriter::starting_at(
                        BufWriter::with_capacity(WRITE_BUFFER, file),
                        f.committed_end,
                    ),
                    cdxj,
                });
            }
        }
        Ok(log)
    }

    fn open_cdxj(&self, name: &str, append: bool) -> Result<Option<BufWriter<File>>> {
        if !self.settings.cdxj {
            return Ok(None);
        }
        let path = cdxj_path(&self.settings.dir, name);
        let file = OpenOptions::new()
            .create(true)
            .append(append)
            .write(true)
            .truncate(!append)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        Ok(Some(BufWriter::new(file)))
    }

    /// Whether a new file must be opened before the next page is written: call
    /// [`open_next`](Self::open_next) after committing everything written so far.
    pub fn needs_file(&self) -> bool {
        self.current
            .as_ref()
            .is_none_or(|c| c.writer.offset() >= self.settings.max_bytes)
    }

    /// Closes the current file and opens the next one. The state must have nothing
    /// uncommitted: the new file is registered and committed before it is created.
    pub fn open_next(&mut self, store: &mut Store) -> Result<()> {
        self.close()?;
        let serial = self.next_serial;
        let name = format!(
            "silhouette-{}-{serial:05}-{}.warc.gz",
            file_stamp(),
            self.host
        );
        let pairs: Vec<(&str, &str)> = self
            .info
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let record = warcinfo(&warc_date(SystemTime::now()), &name, &pairs);
        let mut first = WarcWriter::new(Vec::new());
        first.write(&record)?;
        let bytes = first.into_inner()?;
        store.add_warc_file(serial, &name, bytes.len() as u64)?;
        store.commit()?;
        self.next_serial += 1;
        let path = self.settings.dir.join(&name);
        let mut file = File::create_new(&path)
            .with_context(|| format!("cannot create the WARC file {}", path.display()))?;
        file.write_all(&bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        self.current = Some(Current {
            serial,
            writer: WarcWriter::starting_at(
                BufWriter::with_capacity(WRITE_BUFFER, file),
                bytes.len() as u64,
            ),
            cdxj: self.open_cdxj(&name, false)?,
            name,
        });
        Ok(())
    }

    /// Writes the records of a page the frontier just recorded, if `warc-records` says so,
    /// and records where they are in the (uncommitted) state.
    pub fn write(
        &mut self,
        rec: &StoredRecord,
        capture: &Capture,
        store: &mut Store,
    ) -> Result<Option<WarcLocation>> {
        let all = self.settings.records == WarcRecords::All;
        // Only an exact duplicate of a page already written is a revisit; a near-duplicate
        // has another payload and would be resolved wrongly.
        let original = match rec.page.decision {
            silhouette_frontier::Decision::ExactDuplicate => match rec.page.duplicate_of {
                Some(id) => store.warc_location(id)?.filter(|o| o.kind == "response"),
                None => None,
            },
            _ => None,
        };
        if original.is_none() && rec.page.decision != silhouette_frontier::Decision::Kept && !all {
            return Ok(None);
        }
        let Some(current) = self.current.as_mut() else {
            inconsistent!("no WARC file is open (call open_next first)");
        };
        let path = self.settings.dir.join(&current.name);
        let context = || format!("cannot write {}", path.display());
        let built = capture.build().with_context(context)?;
        current
            .writer
            .write_member(&built.request)
            .with_context(context)?;
        let (kind, written, index) = match &original {
            Some(o) => {
                let record = revisit(
                    &capture.date,
                    &capture.url,
                    &built.index.block,
                    &built.payload_digest,
                    &o.uri,
                    &o.date,
                );
                let written = current.writer.write(&record).with_context(context)?;
                ("revisit", written, Cow::Owned(record))
            }
            None => {
                let member =
                    gzip_member(&built.index.fields, &[&capture.head, &capture.body], true)
                        .with_context(context)?;
                let written = current.writer.write_member(&member).with_context(context)?;
                ("response", written, Cow::Borrowed(&built.index))
            }
        };
        if let (Some(cdxj), Some(line)) = (
            current.cdxj.as_mut(),
            cdxj_line(&index, written, &current.name),
        ) {
            writeln!(cdxj, "{line}").context("cannot write the CDXJ index")?;
        }
        let at = WarcLocation {
            serial: current.serial,
            file: current.name.clone(),
            offset: written.offset,
            end: written.offset + written.length,
            date: capture.date.clone(),
            kind: kind.to_owned(),
            uri: capture.url.clone(),
        };
        store.set_warc_location(rec.page.id, &at)?;
        if self.written.files.last() != Some(&current.name) {
            self.written.files.push(current.name.clone());
        }
        self.written.pages += 1;
        Ok(Some(at))
    }

    /// What this run wrote.
    pub fn written(&self) -> &WarcWritten {
        &self.written
    }

    /// Flushes what was written to the OS: call before committing the state.
    pub fn flush(&mut self) -> Result<()> {
        if let Some(c) = self.current.as_mut() {
            c.writer.flush().with_context(|| {
                format!("cannot write {}", self.settings.dir.join(&c.name).display())
            })?;
            if let Some(cdxj) = c.cdxj.as_mut() {
                cdxj.flush().context("cannot write the CDXJ index")?;
            }
        }
        Ok(())
    }

    /// Closes the current file: flushed, its index sorted.
    pub fn close(&mut self) -> Result<()> {
        self.flush()?;
        if let Some(c) = self.current.take() {
            drop(c.cdxj);
            if self.settings.cdxj {
                repair_cdxj(&cdxj_path(&self.settings.dir, &c.name), c.writer.offset())?;
            }
        }
        Ok(())
    }
}

/// The fields of each file's warcinfo record: software, the robots policy, the user agent,
/// which records are kept, and the settings that decide duplicates (as the state stores them).
pub fn info(
    settings: &crate::config::CrawlConfig,
    records: WarcRecords,
    params: &[(&str, String)],
) -> Vec<(String, String)> {
    let mut info = vec![
        (
            "software".to_owned(),
            format!("silhouette/{}", env!("CARGO_PKG_VERSION")),
        ),
        ("format".to_owned(), "WARC File Format 1.1".to_owned()),
        (
            "robots".to_owned(),
            format!("obey (robots.txt group {:?})", settings.fetch.robots_agent),
        ),
        (
            "http-header-user-agent".to_owned(),
            settings.fetch.user_agent.clone(),
        ),
        ("warc-records".to_owned(), records.to_string()),
    ];
    info.extend(params.iter().map(|(k, v)| ((*k).to_owned(), v.clone())));
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An index line of a record at `offset` of `length` bytes.
    fn line(key: &str, offset: u64, length: u64) -> String {
        format!(
            "{key} 20240501120000 {{\"url\":\"http://a/\",\"length\":\"{length}\",\"offset\":\"{offset}\"}}"
        )
    }

    fn check(lines: &[String], end: u64, expected: &[String]) {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("x.cdxj");
        std::fs::write(&path, lines.concat()).expect("write");
        repair_cdxj(&path, end).expect("repairs");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            expected.concat()
        );
    }

    #[test]
    fn index_cut_back_and_sorted() {
        let [a, b, c] = [
            line("b)/", 100, 50),
            line("a)/", 150, 50),
            line("c)/", 200, 50),
        ];
        let torn = "c)/ 2024 {\"url\":".to_owned();
        let nl = |s: &String| format!("{s}\n");
        check(&[nl(&a), nl(&b), nl(&c)], 250, &[nl(&b), nl(&a), nl(&c)]);
        check(&[nl(&a), nl(&b), nl(&c)], 249, &[nl(&b), nl(&a)]);
        check(&[nl(&a), torn], 1000, &[nl(&a)]);
        check(&[nl(&a)], 100, &[]);
    }

    #[test]
    fn index_path_beside_the_file() {
        assert_eq!(
            cdxj_path(Path::new("w"), "silhouette-1-00000-h.warc.gz"),
            Path::new("w/silhouette-1-00000-h.cdxj")
        );
    }
}
