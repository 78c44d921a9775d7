//! Crawl state in SQLite: discovered URLs, page records, parameters, host backoff.
//!
//! One database file per crawl (`STATE/crawl.sqlite`, WAL mode). Every page's record and the
//! URLs found on it are written in the same transaction, so a crawl killed at any moment
//! resumes with each URL either fully recorded (links queued) or still queued — never half.
//! Records that go to the JSONL output are numbered (`out_seq`) in commit order, which is how
//! a resumed crawl writes each of them exactly once (see [`Store::records`]).

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};

#[path = "store_held.rs"]
mod held;
#[path = "store_warc.rs"]
mod warc;
use crate::{ContentBits, Decision, PageContent};
pub use held::HeldLink;
pub use warc::{WarcFile, WarcLocation};

/// The schema version this build writes and reads.
const SCHEMA_VERSION: i64 = 2;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS urls (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    host TEXT NOT NULL,
    depth INTEGER NOT NULL,
    referrer INTEGER,
    -- 0 queued, 1 done, 2 deferred (beyond a page limit: queued once the limit allows)
    done INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS urls_queued ON urls (done, id);
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY REFERENCES urls (id),
    seq INTEGER NOT NULL UNIQUE,
    out_seq INTEGER UNIQUE,
    final_url TEXT,
    status INTEGER,
    content_type TEXT,
    bytes INTEGER,
    fetch_ms INTEGER,
    fingerprint INTEGER,
    elements INTEGER,
    truncated TEXT,
    decision TEXT NOT NULL,
    duplicate_of INTEGER,
    distance INTEGER,
    error TEXT,
    body_hash BLOB,
    profile BLOB,
    cluster INTEGER,
    -- when the record was made, in ms since the Unix epoch (pages/s over time)
    recorded_ms INTEGER
);
-- the content signal of HTML pages (ALGORITHM.md §7): fingerprint (8 or 16 bytes, big-endian),
-- signature (16 bytes) and, for content duplicates, the kept page and the content distance
CREATE TABLE IF NOT EXISTS content (
    id INTEGER PRIMARY KEY REFERENCES pages (id),
    fingerprint BLOB,
    signature BLOB,
    duplicate_of INTEGER,
    distance INTEGER
);
CREATE TABLE IF NOT EXISTS hosts (host TEXT PRIMARY KEY, not_before_ms INTEGER NOT NULL);
-- pages judged out of the order their URLs were found in (their fetch was stuck while the
-- pages found after them waited)
CREATE TABLE IF NOT EXISTS late (id INTEGER PRIMARY KEY REFERENCES pages (id));
";

/// The state database could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StateError {
    /// SQLite failed (disk full, permissions, corruption…).
    #[error("crawl state {path}: {source}")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// The state directory could not be created.
    #[error("crawl state directory {path}: {source}")]
    Dir {
        /// The directory.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The state was written with other settings (fingerprint, dedup, scope…).
    #[error(
        "crawl state {path} was made with other settings: {}: resume with the same settings, \
         or give another --state DIR for a new crawl (`silhouette replay` shows what other \
         settings would decide)",
        differences.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    Mismatch {
        /// The database file.
        path: PathBuf,
        /// Every setting that differs.
        differences: Vec<Difference>,
    },
    /// There is no crawl state where one was expected.
    #[error("no crawl state at {path} (run `silhouette crawl --state DIR` first)")]
    Missing {
        /// The database file looked for.
        path: PathBuf,
    },
    /// The database was written by another schema version.
    #[error(
        "crawl state {path} has schema version {found}, this build reads version {SCHEMA_VERSION}"
    )]
    Version {
        /// The database file.
        path: PathBuf,
        /// The version found.
        found: String,
    },
}

/// One setting whose value in a state differs from this run's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{key} = {stored:?} there, {wanted:?} in this run")]
pub struct Difference {
    /// The setting.
    pub key: String,
    /// Its stored value.
    pub stored: String,
    /// This run's value.
    pub wanted: String,
}

/// A URL waiting to be fetched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedUrl {
    /// Its id (discovery order).
    pub id: u64,
    /// The canonical URL.
    pub url: String,
    /// Its host.
    pub host: String,
    /// Link depth from a seed (seeds are 0).
    pub depth: u32,
}

/// What the crawl learned about one URL.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageRecord {
    /// The URL's id.
    pub id: u64,
    /// Final URL after redirects, if fetched.
    pub final_url: Option<String>,
    /// HTTP status, if a response came.
    pub status: Option<u16>,
    /// The response's content type.
    pub content_type: Option<String>,
    /// Body bytes read.
    pub bytes: Option<u64>,
    /// Fetch time in milliseconds.
    pub fetch_ms: Option<u64>,
    /// Structure fingerprint, for HTML pages.
    pub fingerprint: Option<u64>,
    /// Element count, for HTML pages.
    pub elements: Option<u64>,
    /// Why the fingerprint covers part of the page only.
    pub truncated: Option<String>,
    /// `kept`, `near-duplicate`, `exact-duplicate`, `not-html`, `error`, …
    pub decision: Decision,
    /// The id of the page it duplicates.
    pub duplicate_of: Option<u64>,
    /// Hamming distance to that page.
    pub distance: Option<u32>,
    /// The error, for failed fetches.
    pub error: Option<String>,
    /// 128-bit hash of the body.
    pub body_hash: Option<u128>,
    /// The structure profile (opaque bytes).
    pub profile: Option<Vec<u8>>,
    /// Whether the record goes to the JSONL output.
    pub emitted: bool,
    /// Judged out of the order its URL was found in (its fetch was stuck while the pages
    /// found after it waited): the one kind of decision a rerun may not repeat.
    pub out_of_order: bool,
    /// The id of the first page of its structure cluster (kept and duplicate HTML pages).
    pub cluster: Option<u64>,
    /// When the record was made, in milliseconds since the Unix epoch.
    pub recorded_ms: Option<u64>,
    /// The content signal (HTML pages).
    pub content: PageContent,
    /// The kept page whose content it duplicates (`content-duplicate`).
    pub content_duplicate_of: Option<u64>,
    /// The content fingerprints' Hamming distance to that page.
    pub content_distance: Option<u32>,
}

/// A stored record with the URLs it refers to, as the output and the tools read it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredRecord {
    /// The page's record.
    pub page: PageRecord,
    /// Its URL.
    pub url: String,
    /// Its host.
    pub host: String,
    /// Its depth.
    pub depth: u32,
    /// The URL of the page that linked to it.
    pub referrer: Option<String>,
    /// The URL of the page it duplicates.
    pub duplicate_of_url: Option<String>,
    /// The URL of the page whose content it duplicates.
    pub content_duplicate_of_url: Option<String>,
    /// The URL of the first page of its structure cluster.
    pub cluster_url: Option<String>,
    /// Crawl order.
    pub seq: u64,
    /// Output order, if emitted.
    pub out_seq: Option<u64>,
}

/// The state database of one crawl.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
    in_tx: bool,
    next_seq: u64,
    next_out_seq: u64,
}

fn to_i64(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn to_u64(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

impl Store {
    /// Opens (creating if needed) the state in `dir`; `params` are `(key, value)` pairs that
    /// must match a resumed state exactly. Returns the store and whether it was resumed.
    ///
    /// # Errors
    /// The directory or database cannot be used, or `params` differ from the stored ones.
    pub fn open(dir: &Path, params: &[(&str, String)]) -> Result<(Self, bool), StateError> {
        std::fs::create_dir_all(dir).map_err(|source| StateError::Dir {
            path: dir.to_owned(),
            source,
        })?;
        let path = dir.join("crawl.sqlite");
        let err = |source| StateError::Sqlite {
            path: path.clone(),
            source,
        };
        let conn = Connection::open(&path).map_err(err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(err)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(err)?;
        conn.execute_batch(SCHEMA).map_err(err)?;
        conn.execute_batch(warc::SCHEMA).map_err(err)?;
        conn.execute_batch(held::SCHEMA).map_err(err)?;
        let mut store = Self {
            conn,
            path,
            in_tx: false,
            next_seq: 1,
            next_out_seq: 1,
        };
        let resumed = store.meta("schema")?.is_some();
        if resumed {
            let found = store.meta("schema")?.unwrap_or_default();
            if found != SCHEMA_VERSION.to_string() {
                return Err(StateError::Version {
                    path: store.path.clone(),
                    found,
                });
            }
            let mut differences = Vec::new();
            for (key, wanted) in params {
                let stored = store.meta(key)?.unwrap_or_default();
                if stored != *wanted {
                    differences.push(Difference {
                        key: (*key).to_owned(),
                        stored,
                        wanted: wanted.clone(),
                    });
                }
            }
            if !differences.is_empty() {
                return Err(StateError::Mismatch {
                    path: store.path.clone(),
                    differences,
                });
            }
            let (seq, out): (Option<i64>, Option<i64>) = store
                .conn
                .query_row("SELECT MAX(seq), MAX(out_seq) FROM pages", [], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .map_err(|e| store.err(e))?;
            store.next_seq = to_u64(seq.unwrap_or(0)) + 1;
            store.next_out_seq = to_u64(out.unwrap_or(0)) + 1;
        } else {
            store.begin()?;
            store.set_meta("schema", &SCHEMA_VERSION.to_string())?;
            for (key, value) in params {
                store.set_meta(key, value)?;
            }
            store.commit()?;
        }
        Ok((store, resumed))
    }

    /// Opens an existing state for reading (reports, replay) without checking parameters.
    ///
    /// # Errors
    /// There is no state in `dir`, or it cannot be read.
    pub fn open_existing(dir: &Path) -> Result<Self, StateError> {
        let path = dir.join("crawl.sqlite");
        if !path.is_file() {
            return Err(StateError::Missing { path });
        }
        // Read-write but query-only where it may: the last connection to close a WAL
        // database removes its `-wal` and `-shm` files, which a read-only one cannot, so a
        // `stats` or `report` after the crawl would leave them behind. Read-only otherwise
        // (a state on a read-only file system).
        use rusqlite::OpenFlags;
        let writable = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&path, writable)
            .and_then(|c| c.pragma_update(None, "query_only", true).map(|()| c))
            .or_else(|_| Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY))
            .map_err(|source| StateError::Sqlite {
                path: path.clone(),
                source,
            })?;
        let store = Self {
            conn,
            path,
            in_tx: false,
            next_seq: 0,
            next_out_seq: 0,
        };
        let found = store.meta("schema")?.unwrap_or_default();
        if found != SCHEMA_VERSION.to_string() {
            return Err(StateError::Version {
                path: store.path.clone(),
                found,
            });
        }
        Ok(store)
    }

    fn err(&self, source: rusqlite::Error) -> StateError {
        StateError::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    /// The database file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A stored parameter.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn meta(&self, key: &str) -> Result<Option<String>, StateError> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(e))
    }

    /// Stores a parameter.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<(), StateError> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                [key, value],
            )
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Starts a transaction if none is open: writes until [`commit`](Self::commit) land together.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn begin(&mut self) -> Result<(), StateError> {
        if !self.in_tx {
            self.conn
                .execute_batch("BEGIN IMMEDIATE")
                .map_err(|e| self.err(e))?;
            self.in_tx = true;
        }
        Ok(())
    }

    /// Commits the open transaction, if any. On failure (e.g. a full disk) the transaction is
    /// rolled back: the state is as it was at the previous commit.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn commit(&mut self) -> Result<(), StateError> {
        if self.in_tx {
            self.in_tx = false;
            if let Err(e) = self.conn.execute_batch("COMMIT") {
                let _ = self.conn.execute_batch("ROLLBACK");
                return Err(self.err(e));
            }
        }
        Ok(())
    }

    /// Adds a URL if it is new; returns its id if it was.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn add_url(
        &mut self,
        url: &str,
        host: &str,
        depth: u32,
        referrer: Option<u64>,
    ) -> Result<Option<u64>, StateError> {
        self.begin()?;
        let mut stmt = self
            .conn
            .prepare_cached(
                "INSERT OR IGNORE INTO urls (url, host, depth, referrer) VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(|e| self.err(e))?;
        let n = stmt
            .execute(params![url, host, depth, referrer.map(to_i64)])
            .map_err(|e| self.err(e))?;
        drop(stmt);
        Ok((n == 1).then(|| to_u64(self.conn.last_insert_rowid())))
    }

    /// Adds a URL found beyond a page limit, if it is new: it is not queued, but it is kept,
    /// so that a run with a higher limit crawls it ([`Store::deferred`], [`Store::undefer`]).
    ///
    /// # Errors
    /// SQLite failed.
    pub fn add_deferred_url(
        &mut self,
        url: &str,
        host: &str,
        depth: u32,
        referrer: Option<u64>,
    ) -> Result<(), StateError> {
        self.begin()?;
        self.conn
            .prepare_cached(
                "INSERT OR IGNORE INTO urls (url, host, depth, referrer, done) VALUES (?1, ?2, ?3, ?4, 2)",
            )
            .and_then(|mut s| s.execute(params![url, host, depth, referrer.map(to_i64)]))
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// URLs deferred by a page limit, in discovery order.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn deferred(&self) -> Result<Vec<QueuedUrl>, StateError> {
        self.urls_where(2)
    }

    /// How many URLs are deferred by a page limit.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn deferred_count(&self) -> Result<u64, StateError> {
        self.count_where(2)
    }

    /// How many URLs are queued: found, in scope, not yet recorded (a crawl stopped before
    /// its end fetches them when resumed).
    ///
    /// # Errors
    /// SQLite failed.
    pub fn queued_count(&self) -> Result<u64, StateError> {
        self.count_where(0)
    }

    fn count_where(&self, done: i64) -> Result<u64, StateError> {
        self.conn
            .query_row("SELECT COUNT(*) FROM urls WHERE done = ?1", [done], |r| {
                r.get::<_, i64>(0)
            })
            .map(to_u64)
            .map_err(|e| self.err(e))
    }

    /// Queues a deferred URL.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn undefer(&mut self, id: u64) -> Result<(), StateError> {
        self.begin()?;
        self.conn
            .prepare_cached("UPDATE urls SET done = 0 WHERE id = ?1 AND done = 2")
            .and_then(|mut s| s.execute([to_i64(id)]))
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Records what became of a URL (and marks it done); returns the record's crawl sequence
    /// number and, if it is emitted, its output sequence number.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn record(&mut self, page: &PageRecord) -> Result<(u64, Option<u64>), StateError> {
        self.begin()?;
        let seq = self.next_seq;
        let out_seq = page.emitted.then_some(self.next_out_seq);
        let mut stmt = self
            .conn
            .prepare_cached(
                "INSERT INTO pages (id, seq, out_seq, final_url, status, content_type, bytes, fetch_ms, \
                 fingerprint, elements, truncated, decision, duplicate_of, distance, error, body_hash, profile, \
                 cluster, recorded_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
            )
            .map_err(|e| self.err(e))?;
        stmt.execute(params![
            to_i64(page.id),
            to_i64(seq),
            out_seq.map(to_i64),
            page.final_url,
            page.status,
            page.content_type,
            page.bytes.map(to_i64),
            page.fetch_ms.map(to_i64),
            page.fingerprint.map(|f| f as i64),
            page.elements.map(to_i64),
            page.truncated,
            page.decision.as_str(),
            page.duplicate_of.map(to_i64),
            page.distance,
            page.error,
            page.body_hash.map(|h| h.to_be_bytes().to_vec()),
            page.profile,
            page.cluster.map(to_i64),
            page.recorded_ms.map(to_i64),
        ])
        .map_err(|e| self.err(e))?;
        drop(stmt);
        self.record_content(page)?;
        if page.out_of_order {
            self.conn
                .prepare_cached("INSERT INTO late (id) VALUES (?1)")
                .and_then(|mut s| s.execute([to_i64(page.id)]))
                .map_err(|e| self.err(e))?;
        }
        self.conn
            .prepare_cached("UPDATE urls SET done = 1 WHERE id = ?1")
            .and_then(|mut s| s.execute([to_i64(page.id)]))
            .map_err(|e| self.err(e))?;
        self.next_seq += 1;
        if out_seq.is_some() {
            self.next_out_seq += 1;
        }
        Ok((seq, out_seq))
    }

    /// The `content` row of a record that has a content signal.
    fn record_content(&self, page: &PageRecord) -> Result<(), StateError> {
        let c = &page.content;
        if c.fingerprint.is_none() && c.signature.is_none() && page.content_duplicate_of.is_none() {
            return Ok(());
        }
        self.conn
            .prepare_cached(
                "INSERT INTO content (id, fingerprint, signature, duplicate_of, distance) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    to_i64(page.id),
                    c.fingerprint.map(ContentBits::to_bytes),
                    c.signature.map(|h| h.to_be_bytes().to_vec()),
                    page.content_duplicate_of.map(to_i64),
                    page.content_distance,
                ])
            })
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Adds a URL that needs no fetch (the target of a redirect already followed).
    ///
    /// # Errors
    /// SQLite failed.
    pub fn add_done_url(&mut self, url: &str, host: &str, depth: u32) -> Result<(), StateError> {
        self.begin()?;
        self.conn
            .prepare_cached(
                "INSERT OR IGNORE INTO urls (url, host, depth, done) VALUES (?1, ?2, ?3, 1)",
            )
            .and_then(|mut s| s.execute(params![url, host, depth]))
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// The URL of the page that linked to URL `id`.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn referrer_url(&self, id: u64) -> Result<Option<String>, StateError> {
        self.conn
            .prepare_cached(
                "SELECT r.url FROM urls u JOIN urls r ON r.id = u.referrer WHERE u.id = ?1",
            )
            .and_then(|mut s| s.query_row([to_i64(id)], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))
    }

    /// URLs not yet recorded, in discovery order.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn queued(&self) -> Result<Vec<QueuedUrl>, StateError> {
        self.urls_where(0)
    }

    fn urls_where(&self, done: i64) -> Result<Vec<QueuedUrl>, StateError> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, url, host, depth FROM urls WHERE done = ?1 ORDER BY id")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([done], |r| {
                Ok(QueuedUrl {
                    id: to_u64(r.get(0)?),
                    url: r.get(1)?,
                    host: r.get(2)?,
                    depth: r.get(3)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Every URL discovered (for the seen set) except the deferred ones, in discovery order.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn for_each_url(&self, mut f: impl FnMut(u64, &str)) -> Result<(), StateError> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, url FROM urls WHERE done != 2 ORDER BY id")
            .map_err(|e| self.err(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.err(e))?;
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let url: String = row.get(1).map_err(|e| self.err(e))?;
            f(to_u64(row.get(0).map_err(|e| self.err(e))?), &url);
        }
        Ok(())
    }

    /// Every URL a page linked to on its own host, in discovery order: the URL, its host,
    /// whether the page that linked to it was a near-duplicate, and whether the URL's own
    /// page was kept (exploration in drop mode, `shape.rs`). Deferred URLs included.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn for_each_own_link(
        &self,
        mut f: impl FnMut(&str, &str, bool, bool),
    ) -> Result<(), StateError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT u.url, u.host, p.decision = ?1, c.decision = ?2 FROM urls u \
                 JOIN urls r ON r.id = u.referrer LEFT JOIN pages p ON p.id = r.id \
                 LEFT JOIN pages c ON c.id = u.id WHERE r.host = u.host ORDER BY u.id",
            )
            .map_err(|e| self.err(e))?;
        let mut rows = stmt
            .query([Decision::NearDuplicate.as_str(), Decision::Kept.as_str()])
            .map_err(|e| self.err(e))?;
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            let url: String = row.get(0).map_err(|e| self.err(e))?;
            let host: String = row.get(1).map_err(|e| self.err(e))?;
            let by_duplicate: Option<bool> = row.get(2).map_err(|e| self.err(e))?;
            let kept: Option<bool> = row.get(3).map_err(|e| self.err(e))?;
            f(
                &url,
                &host,
                by_duplicate.unwrap_or(false),
                kept.unwrap_or(false),
            );
        }
        Ok(())
    }

    /// Every record in crawl order (`after_out_seq = None`), or the emitted ones after an
    /// output sequence number, in output order.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn records(
        &self,
        after_out_seq: Option<u64>,
        mut f: impl FnMut(StoredRecord),
    ) -> Result<(), StateError> {
        let base = "SELECT p.id, p.seq, p.out_seq, p.final_url, p.status, p.content_type, p.bytes, p.fetch_ms, \
                    p.fingerprint, p.elements, p.truncated, p.decision, p.duplicate_of, p.distance, p.error, \
                    p.body_hash, p.profile, u.url, u.host, u.depth, r.url, d.url, p.cluster, c.url, \
                    p.recorded_ms, x.fingerprint, x.signature, x.duplicate_of, x.distance, xd.url, l.id \
                    FROM pages p JOIN urls u ON u.id = p.id LEFT JOIN urls r ON r.id = u.referrer \
                    LEFT JOIN urls d ON d.id = p.duplicate_of LEFT JOIN urls c ON c.id = p.cluster \
                    LEFT JOIN content x ON x.id = p.id LEFT JOIN urls xd ON xd.id = x.duplicate_of \
                    LEFT JOIN late l ON l.id = p.id";
        let sql = match after_out_seq {
            None => format!("{base} ORDER BY p.seq"),
            Some(_) => format!("{base} WHERE p.out_seq > ?1 ORDER BY p.out_seq"),
        };
        let mut stmt = self.conn.prepare(&sql).map_err(|e| self.err(e))?;
        let mut rows = match after_out_seq {
            None => stmt.query([]),
            Some(n) => stmt.query([to_i64(n)]),
        }
        .map_err(|e| self.err(e))?;
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            let rec = (|| -> rusqlite::Result<StoredRecord> {
                let hash: Option<Vec<u8>> = r.get(15)?;
                let content_fp: Option<Vec<u8>> = r.get(25)?;
                let signature: Option<Vec<u8>> = r.get(26)?;
                Ok(StoredRecord {
                    page: PageRecord {
                        id: to_u64(r.get(0)?),
                        final_url: r.get(3)?,
                        status: r.get(4)?,
                        content_type: r.get(5)?,
                        bytes: r.get::<_, Option<i64>>(6)?.map(to_u64),
                        fetch_ms: r.get::<_, Option<i64>>(7)?.map(to_u64),
                        fingerprint: r.get::<_, Option<i64>>(8)?.map(|f| f as u64),
                        elements: r.get::<_, Option<i64>>(9)?.map(to_u64),
                        truncated: r.get(10)?,
                        decision: r.get::<_, String>(11)?.parse().unwrap_or(Decision::Error),
                        duplicate_of: r.get::<_, Option<i64>>(12)?.map(to_u64),
                        distance: r.get(13)?,
                        error: r.get(14)?,
                        body_hash: hash
                            .and_then(|h| <[u8; 16]>::try_from(h.as_slice()).ok())
                            .map(u128::from_be_bytes),
                        profile: r.get(16)?,
                        emitted: r.get::<_, Option<i64>>(2)?.is_some(),
                        cluster: r.get::<_, Option<i64>>(22)?.map(to_u64),
                        recorded_ms: r.get::<_, Option<i64>>(24)?.map(to_u64),
                        content: PageContent {
                            fingerprint: content_fp.as_deref().and_then(ContentBits::from_bytes),
                            signature: signature
                                .and_then(|h| <[u8; 16]>::try_from(h.as_slice()).ok())
                                .map(u128::from_be_bytes),
                        },
                        content_duplicate_of: r.get::<_, Option<i64>>(27)?.map(to_u64),
                        content_distance: r.get(28)?,
                        out_of_order: r.get::<_, Option<i64>>(30)?.is_some(),
                    },
                    content_duplicate_of_url: r.get(29)?,
                    seq: to_u64(r.get(1)?),
                    out_seq: r.get::<_, Option<i64>>(2)?.map(to_u64),
                    url: r.get(17)?,
                    host: r.get(18)?,
                    depth: r.get(19)?,
                    referrer: r.get(20)?,
                    duplicate_of_url: r.get(21)?,
                    cluster_url: r.get(23)?,
                })
            })()
            .map_err(|e| self.err(e))?;
            f(rec);
        }
        Ok(())
    }

    /// Remembers that `host` asked not to be fetched before `not_before_ms` (Unix ms).
    ///
    /// # Errors
    /// SQLite failed.
    pub fn set_host_backoff(&mut self, host: &str, not_before_ms: u64) -> Result<(), StateError> {
        self.begin()?;
        self.conn
            .prepare_cached("INSERT OR REPLACE INTO hosts (host, not_before_ms) VALUES (?1, ?2)")
            .and_then(|mut s| s.execute(params![host, to_i64(not_before_ms)]))
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Hosts that asked to wait, with the Unix ms before which they are not fetched.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn host_backoffs(&self) -> Result<Vec<(String, u64)>, StateError> {
        let mut stmt = self
            .conn
            .prepare("SELECT host, not_before_ms FROM hosts")
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, to_u64(r.get(1)?))))
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// The structure cluster of a recorded page (the id of the cluster's first page).
    ///
    /// # Errors
    /// SQLite failed.
    pub fn cluster_of(&self, id: u64) -> Result<Option<u64>, StateError> {
        self.conn
            .prepare_cached("SELECT cluster FROM pages WHERE id = ?1")
            .and_then(|mut s| {
                s.query_row([to_i64(id)], |r| r.get::<_, Option<i64>>(0))
                    .optional()
            })
            .map(|c| c.flatten().map(to_u64))
            .map_err(|e| self.err(e))
    }

    /// The URL of a URL id.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn url(&self, id: u64) -> Result<Option<String>, StateError> {
        self.conn
            .prepare_cached("SELECT url FROM urls WHERE id = ?1")
            .and_then(|mut s| s.query_row([to_i64(id)], |r| r.get(0)).optional())
            .map_err(|e| self.err(e))
    }

    /// Numbers of URLs discovered and recorded.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn counts(&self) -> Result<(u64, u64), StateError> {
        self.conn
            .query_row(
                "SELECT (SELECT COUNT(*) FROM urls), (SELECT COUNT(*) FROM pages)",
                [],
                |r| Ok((to_u64(r.get(0)?), to_u64(r.get(1)?))),
            )
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
