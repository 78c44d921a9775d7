//! Where a crawl's WARC records are (`crawl --warc`): the files in creation order, and the
//! file and offsets of each page's record, written in the same transaction as the page's
//! record. A crawl killed at any moment resumes with each file cut back to the end of its
//! last committed record, so every recorded page is in the WARC files exactly once.

use rusqlite::{OptionalExtension, params};

use super::{StateError, Store, to_i64, to_u64};

/// The tables, created with the others.
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS warc_files (
    serial INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    -- end of the warcinfo record that opens the file
    info_end INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS warc_records (
    id INTEGER PRIMARY KEY REFERENCES pages (id),
    serial INTEGER NOT NULL REFERENCES warc_files (serial),
    -- the response or revisit record (what an index points to)
    offset INTEGER NOT NULL,
    -- end of the page's last record (request and response are written together)
    end_offset INTEGER NOT NULL,
    warc_date TEXT NOT NULL,
    kind TEXT NOT NULL,
    -- WARC-Target-URI
    uri TEXT NOT NULL
);
-- `dedup --state`: each judged record's output line, so a resumed run writes the same bytes
CREATE TABLE IF NOT EXISTS output_lines (seq INTEGER PRIMARY KEY, line TEXT NOT NULL);
";

/// Where a page's records are in the crawl's WARC files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarcLocation {
    /// The file's serial number ([`WarcFile::serial`]).
    pub serial: u64,
    /// The file's name.
    pub file: String,
    /// Offset of the `response` or `revisit` record.
    pub offset: u64,
    /// End of the page's last record in the file.
    pub end: u64,
    /// The record's `WARC-Date`.
    pub date: String,
    /// `response` or `revisit`.
    pub kind: String,
    /// The record's `WARC-Target-URI`.
    pub uri: String,
}

/// One WARC file of a crawl.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarcFile {
    /// Creation order, from 0.
    pub serial: u64,
    /// The file name (in the WARC directory).
    pub name: String,
    /// Pages with a committed record in the file.
    pub pages: u64,
    /// Bytes that belong in the file: the end of its last committed record, or of its
    /// warcinfo record when it holds no page yet.
    pub committed_end: u64,
}

impl Store {
    /// Registers a new WARC file whose warcinfo record ends at `info_end`.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn add_warc_file(
        &mut self,
        serial: u64,
        name: &str,
        info_end: u64,
    ) -> Result<(), StateError> {
        self.begin()?;
        self.conn
            .execute(
                "INSERT INTO warc_files (serial, name, info_end) VALUES (?1, ?2, ?3)",
                params![to_i64(serial), name, to_i64(info_end)],
            )
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// The WARC files in creation order, each with the bytes that belong in it.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn warc_files(&self) -> Result<Vec<WarcFile>, StateError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT f.serial, f.name, COUNT(r.id), MAX(f.info_end, COALESCE(MAX(r.end_offset), 0)) \
                 FROM warc_files f LEFT JOIN warc_records r ON r.serial = f.serial \
                 GROUP BY f.serial ORDER BY f.serial",
            )
            .map_err(|e| self.err(e))?;
        stmt.query_map([], |r| {
            Ok(WarcFile {
                serial: to_u64(r.get(0)?),
                name: r.get(1)?,
                pages: to_u64(r.get(2)?),
                committed_end: to_u64(r.get(3)?),
            })
        })
        .and_then(Iterator::collect)
        .map_err(|e| self.err(e))
    }

    /// Records where page `id`'s records were written.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn set_warc_location(&mut self, id: u64, at: &WarcLocation) -> Result<(), StateError> {
        self.begin()?;
        self.conn
            .prepare_cached(
                "INSERT OR REPLACE INTO warc_records (id, serial, offset, end_offset, warc_date, kind, uri) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    to_i64(id),
                    to_i64(at.serial),
                    to_i64(at.offset),
                    to_i64(at.end),
                    at.date,
                    at.kind,
                    at.uri
                ])
            })
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Where page `id`'s records are, if it was written to a WARC file.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn warc_location(&self, id: u64) -> Result<Option<WarcLocation>, StateError> {
        self.conn
            .prepare_cached(
                "SELECT r.serial, f.name, r.offset, r.end_offset, r.warc_date, r.kind, r.uri \
                 FROM warc_records r JOIN warc_files f ON f.serial = r.serial WHERE r.id = ?1",
            )
            .and_then(|mut s| {
                s.query_row([to_i64(id)], |r| {
                    Ok(WarcLocation {
                        serial: to_u64(r.get(0)?),
                        file: r.get(1)?,
                        offset: to_u64(r.get(2)?),
                        end: to_u64(r.get(3)?),
                        date: r.get(4)?,
                        kind: r.get(5)?,
                        uri: r.get(6)?,
                    })
                })
                .optional()
            })
            .map_err(|e| self.err(e))
    }
}

impl Store {
    /// Keeps the output line of the record with crawl order `seq` (`dedup --state`).
    ///
    /// # Errors
    /// SQLite failed.
    pub fn set_output_line(&mut self, seq: u64, line: &str) -> Result<(), StateError> {
        self.begin()?;
        self.conn
            .prepare_cached("INSERT OR REPLACE INTO output_lines (seq, line) VALUES (?1, ?2)")
            .and_then(|mut s| s.execute(params![to_i64(seq), line]))
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// The kept output lines after the first `skip`, in order.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn output_lines(&self, skip: u64, mut f: impl FnMut(&str)) -> Result<(), StateError> {
        let mut stmt = self
            .conn
            .prepare("SELECT line FROM output_lines ORDER BY seq LIMIT -1 OFFSET ?1")
            .map_err(|e| self.err(e))?;
        let mut rows = stmt.query([to_i64(skip)]).map_err(|e| self.err(e))?;
        while let Some(row) = rows.next().map_err(|e| self.err(e))? {
            f(&row.get::<_, String>(0).map_err(|e| self.err(e))?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PageRecord;

    fn page(store: &mut Store, n: u64) -> u64 {
        let id = store
            .add_url(&format!("http://t/{n}"), "t", 0, None)
            .expect("ok")
            .expect("new");
        let rec = PageRecord {
            id,
            decision: crate::Decision::Kept,
            ..PageRecord::default()
        };
        store.record(&rec).expect("ok");
        id
    }

    fn at(serial: u64, offset: u64, end: u64) -> WarcLocation {
        WarcLocation {
            serial,
            file: format!("f{serial}"),
            offset,
            end,
            date: "D".into(),
            kind: "response".into(),
            uri: "http://t/".into(),
        }
    }

    #[test]
    fn committed_ends_survive_a_rollback() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut store, _) = Store::open(dir.path(), &[]).expect("opens");
        store.add_warc_file(0, "f0", 100).expect("ok");
        store.add_warc_file(1, "f1", 90).expect("ok");
        let a = page(&mut store, 1);
        store.set_warc_location(a, &at(0, 300, 500)).expect("ok");
        store.commit().expect("commits");
        // Written but never committed: the file is cut back to the committed end.
        let b = page(&mut store, 2);
        store.set_warc_location(b, &at(0, 600, 800)).expect("ok");
        drop(store);
        let (store, resumed) = Store::open(dir.path(), &[]).expect("opens");
        assert!(resumed);
        let ends: Vec<(String, u64, u64)> = store
            .warc_files()
            .expect("reads")
            .into_iter()
            .map(|f| (f.name, f.pages, f.committed_end))
            .collect();
        assert_eq!(ends, [("f0".to_owned(), 1, 500), ("f1".to_owned(), 0, 90)]);
        assert_eq!(
            store.warc_location(a).expect("reads"),
            Some(at(0, 300, 500))
        );
        assert_eq!(store.warc_location(b).expect("reads"), None);
    }

    #[test]
    fn output_lines_in_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut store, _) = Store::open(dir.path(), &[]).expect("opens");
        for (seq, line) in [(2, "b"), (1, "a"), (3, "c")] {
            store.set_output_line(seq, line).expect("ok");
        }
        store.commit().expect("commits");
        let mut got = Vec::new();
        store
            .output_lines(1, |l| got.push(l.to_owned()))
            .expect("reads");
        assert_eq!(got, ["b", "c"]);
    }
}
