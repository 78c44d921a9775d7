//! `crawl --redis … --warc DIR`: each worker of a shared crawl archives the pages it
//! fetched in WARC files of its own, `silhouette-CRAWL-WORKER-NNNNN.warc.gz`, and every page
//! is archived once across the workers' files, whoever is killed.
//!
//! A page's records (request, response) are written and flushed before its record goes to
//! Redis with their place (`warc_file`, `warc_offset`, `warc_end`); a worker writes one page
//! at a time to its file until Redis has taken that page's record, so a file is always its
//! committed pages followed by at most one page Redis has not taken. When Redis does not
//! take it (another worker, whose lease outlived this one's, recorded the page first), the
//! worker cuts it off at once. A file is noted in Redis (`open WARCINFO_END` before it is
//! created, `closed LENGTH` when the worker closes it) and locked (`flock`) while its
//! worker lives: a worker that starts on the directory repairs every file of the crawl
//! noted open and not locked (its worker was killed) by cutting it back to the end of its
//! last page Redis recorded, then notes it closed.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::BufWriter;
use std::path::Path;

use crate::error::{Context, Result, inconsistent};
use crate::events::{Events, Notice};
use silhouette_redis::SharedCrawl;
use silhouette_warc::{WarcWriter, warc_date, warcinfo};

use crate::config::WarcConfig;
use crate::warc_out::{Capture, WarcWritten};

/// Where a page's records are in a worker's file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Archived {
    pub file: String,
    /// Where its request record starts (the file is cut back here if Redis takes another
    /// worker's record of the page).
    pub start: u64,
    /// Where its response record starts.
    pub offset: u64,
    /// Where its records end.
    pub end: u64,
}

impl Archived {
    /// `json` (one JSON object) with the place of the page's records: `warc_file`,
    /// `warc_offset` (its response record) and `warc_end`.
    pub fn with_place(&self, json: &str) -> String {
        let Some(open) = json.strip_suffix('}') else {
            return json.to_owned();
        };
        let file = serde_json::Value::from(self.file.as_str());
        format!(
            "{open},\"warc_file\":{file},\"warc_offset\":{},\"warc_end\":{}}}",
            self.offset, self.end
        )
    }
}

/// The open file: locked through `lock` while the worker lives; written through `writer`
/// (a second handle on the same open file, so the lock is the writer's too).
struct Current {
    name: String,
    lock: File,
    writer: WarcWriter<BufWriter<File>>,
}

/// One worker's WARC files.
pub struct SharedWarc {
    settings: WarcConfig,
    info: Vec<(String, String)>,
    prefix: String,
    worker: String,
    serial: u64,
    current: Option<Current>,
    written: WarcWritten,
}

impl std::fmt::Debug for SharedWarc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedWarc")
            .field("dir", &self.settings.dir)
            .field("file", &self.current.as_ref().map(|c| &c.name))
            .finish_non_exhaustive()
    }
}

/// A worker id as a file name part: letters, digits and `-` only.
fn file_part(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

impl SharedWarc {
    /// Opens the WARC directory for this worker of crawl `crawl`, after repairing the files
    /// of killed workers found in it. Repairs are told to `events`.
    pub async fn open(
        settings: WarcConfig,
        info: Vec<(String, String)>,
        crawl: &str,
        shared: &mut SharedCrawl,
        events: &mut dyn Events,
    ) -> Result<Self> {
        let dir = &settings.dir;
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the WARC directory {}", dir.display()))?;
        let prefix = format!("silhouette-{}-", file_part(crawl));
        repair(dir, &prefix, shared, events).await?;
        Ok(Self {
            written: WarcWritten {
                dir: dir.clone(),
                ..WarcWritten::default()
            },
            worker: file_part(shared.worker()),
            settings,
            info,
            prefix,
            serial: 0,
            current: None,
        })
    }

    /// What this worker wrote.
    pub fn written(&self) -> &WarcWritten {
        &self.written
    }

    /// Writes a page's request and response records and flushes them to the file.
    pub async fn write(&mut self, capture: &Capture, shared: &mut SharedCrawl) -> Result<Archived> {
        if self
            .current
            .as_ref()
            .is_none_or(|c| c.writer.offset() >= self.settings.max_bytes)
        {
            self.next_file(shared).await?;
        }
        let Some(c) = self.current.as_mut() else {
            inconsistent!("no WARC file is open");
        };
        let path = self.settings.dir.join(&c.name);
        let context = || format!("cannot write {}", path.display());
        let (request, response) = capture.members().with_context(context)?;
        let start = c.writer.offset();
        c.writer.write_member(&request).with_context(context)?;
        let written = c.writer.write_member(&response).with_context(context)?;
        c.writer.flush().with_context(context)?;
        if self.written.files.last() != Some(&c.name) {
            self.written.files.push(c.name.clone());
        }
        self.written.pages += 1;
        Ok(Archived {
            file: c.name.clone(),
            start,
            offset: written.offset,
            end: written.offset + written.length,
        })
    }

    /// Cuts the file back to before `page`: Redis kept another worker's record of it.
    pub fn undo(&mut self, page: &Archived) -> Result<()> {
        let Some(c) = self.current.as_mut().filter(|c| c.name == page.file) else {
            inconsistent!("the WARC file {} is no longer open", page.file);
        };
        let path = self.settings.dir.join(&c.name);
        c.writer
            .flush()
            .and_then(|()| c.lock.set_len(page.start))
            .and_then(|()| c.lock.try_clone())
            .map(|file| {
                c.writer = WarcWriter::starting_at(BufWriter::new(file), page.start);
            })
            .with_context(|| format!("cannot cut back {}", path.display()))?;
        self.written.pages = self.written.pages.saturating_sub(1);
        Ok(())
    }

    async fn next_file(&mut self, shared: &mut SharedCrawl) -> Result<()> {
        self.close(shared).await?;
        let name = format!("{}{}-{:05}.warc.gz", self.prefix, self.worker, self.serial);
        self.serial += 1;
        let pairs: Vec<(&str, &str)> = self
            .info
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let record = warcinfo(&warc_date(std::time::SystemTime::now()), &name, &pairs);
        let head = record.to_gzip_member(false)?;
        // Noted before it exists: a file of this crawl is never unknown to Redis.
        shared
            .note_warc_file(&name, &format!("open {}", head.len()))
            .await?;
        let path = self.settings.dir.join(&name);
        let context = || format!("cannot create the WARC file {}", path.display());
        let lock = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(&path)
            .with_context(context)?;
        lock.try_lock().with_context(context)?;
        let mut writer = WarcWriter::new(BufWriter::new(lock.try_clone().with_context(context)?));
        writer.write_member(&head).with_context(context)?;
        writer.flush().with_context(context)?;
        self.current = Some(Current { name, lock, writer });
        Ok(())
    }

    /// Closes the open file (everything in it is recorded in Redis) and notes it closed.
    pub async fn close(&mut self, shared: &mut SharedCrawl) -> Result<()> {
        if let Some(mut c) = self.current.take() {
            let path = self.settings.dir.join(&c.name);
            c.writer
                .flush()
                .with_context(|| format!("cannot write {}", path.display()))?;
            let len = c.writer.offset();
            drop(c.writer);
            shared
                .note_warc_file(&c.name, &format!("closed {len}"))
                .await?;
        }
        Ok(())
    }
}

/// Repairs the files of crawl `prefix` in `dir` whose worker was killed: noted open in
/// Redis and not locked. Each is cut back to the end of its last page Redis recorded (or
/// its warcinfo record) and noted closed.
async fn repair(
    dir: &Path,
    prefix: &str,
    shared: &mut SharedCrawl,
    events: &mut dyn Events,
) -> Result<()> {
    let mut abandoned: BTreeMap<String, (File, u64)> = BTreeMap::new();
    for (name, note) in shared.warc_files().await? {
        let Some(head_end) = note
            .strip_prefix("open ")
            .and_then(|n| n.trim().parse::<u64>().ok())
        else {
            continue;
        };
        if !name.starts_with(prefix) {
            continue;
        }
        let path = dir.join(&name);
        let file = match OpenOptions::new().write(true).open(&path) {
            Ok(f) => f,
            // Not in this directory (another machine's worker), or noted and never created.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot open {}", path.display())),
        };
        // Locked: its worker is alive.
        if file.try_lock().is_ok() {
            abandoned.insert(name, (file, head_end));
        }
    }
    if abandoned.is_empty() {
        return Ok(());
    }
    let ends = recorded_ends(shared, &abandoned).await?;
    for (name, (file, head_end)) in abandoned {
        let path = dir.join(&name);
        let end = ends.get(&name).copied().unwrap_or(head_end);
        let len = file
            .metadata()
            .with_context(|| format!("cannot read {}", path.display()))?
            .len();
        if len < end {
            inconsistent!(
                "the WARC file {} is shorter than the shared crawl says ({len} < {end} bytes): it was changed outside the crawl",
                path.display()
            );
        }
        if len > end {
            file.set_len(end)
                .with_context(|| format!("cannot repair {}", path.display()))?;
            events.notice(&Notice::WarcRepaired {
                path: path.clone(),
                from: len,
                to: end,
            });
        }
        shared
            .note_warc_file(&name, &format!("closed {end}"))
            .await?;
    }
    Ok(())
}

/// The end of the last page Redis recorded in each of `files`.
async fn recorded_ends(
    shared: &mut SharedCrawl,
    files: &BTreeMap<String, (File, u64)>,
) -> Result<HashMap<String, u64>> {
    let mut ends: HashMap<String, u64> = HashMap::new();
    for host in shared.hosts().await? {
        let mut cursor = 0;
        loop {
            let (next, records) = shared.records(&host, cursor).await?;
            for record in records {
                let Ok(json) = serde_json::from_str::<serde_json::Value>(&record) else {
                    continue;
                };
                let (Some(file), Some(end)) = (
                    json.get("warc_file").and_then(serde_json::Value::as_str),
                    json.get("warc_end").and_then(serde_json::Value::as_u64),
                ) else {
                    continue;
                };
                if files.contains_key(file) {
                    let e = ends.entry(file.to_owned()).or_insert(0);
                    *e = (*e).max(end);
                }
            }
            if next == 0 {
                break;
            }
            cursor = next;
        }
    }
    Ok(ends)
}
