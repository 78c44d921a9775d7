//! Links held by exploration in drop mode (`shape.rs`): a dropped page's links that its
//! host's exploration budget had no room for, in the order they were found, each queued
//! when an explored page is kept and gives the budget one fetch back. Written in the same
//! transaction as the record that held or released them, so a resumed crawl holds what the
//! stopped one held.

use rusqlite::params;

use super::{Decision, StateError, Store, to_i64, to_u64};

/// The table, created with the others.
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS held (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL,
    host TEXT NOT NULL,
    depth INTEGER NOT NULL,
    referrer INTEGER NOT NULL,
    -- 1: held from a near-duplicate that only just joined its cluster (`Explore::Unseen`)
    unseen INTEGER NOT NULL,
    -- 1: let go (queued, or seen by then); its shape is still the host's
    released INTEGER NOT NULL DEFAULT 0
);
";

/// A link held by exploration ([`Store::hold`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldLink {
    /// Its id in the state (the order links were held in).
    pub id: u64,
    /// The canonical URL.
    pub url: String,
    /// Its host (the dropped page's).
    pub host: String,
    /// Link depth from a seed.
    pub depth: u32,
    /// The dropped page that linked to it.
    pub referrer: u64,
    /// Held from a near-duplicate that only just joined its cluster.
    pub unseen: bool,
    /// Let go ([`Store::unhold`]).
    pub released: bool,
}

impl Store {
    /// Holds a link; returns its id.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn hold(
        &mut self,
        url: &str,
        host: &str,
        depth: u32,
        referrer: u64,
        unseen: bool,
    ) -> Result<u64, StateError> {
        self.begin()?;
        self.conn
            .prepare_cached(
                "INSERT INTO held (url, host, depth, referrer, unseen) VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .and_then(|mut s| s.execute(params![url, host, depth, to_i64(referrer), unseen]))
            .map_err(|e| self.err(e))?;
        Ok(to_u64(self.conn.last_insert_rowid()))
    }

    /// Lets a held link go (queued, or seen by then). Its row stays: what the host's pages
    /// linked to includes it.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn unhold(&mut self, id: u64) -> Result<(), StateError> {
        self.begin()?;
        self.conn
            .prepare_cached("UPDATE held SET released = 1 WHERE id = ?1")
            .and_then(|mut s| s.execute([to_i64(id)]))
            .map(drop)
            .map_err(|e| self.err(e))
    }

    /// Every link ever held, let go or not, in the order they were held.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn held(&self) -> Result<Vec<HeldLink>, StateError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, url, host, depth, referrer, unseen, released FROM held ORDER BY id",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok(HeldLink {
                    id: to_u64(r.get(0)?),
                    url: r.get(1)?,
                    host: r.get(2)?,
                    depth: r.get(3)?,
                    referrer: to_u64(r.get(4)?),
                    unseen: r.get(5)?,
                    released: r.get(6)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.err(e))
    }

    /// Whether URL `id` was queued by exploration: a near-duplicate on its own host linked
    /// to it.
    ///
    /// # Errors
    /// SQLite failed.
    pub fn explored(&self, id: u64) -> Result<bool, StateError> {
        self.conn
            .prepare_cached(
                "SELECT COUNT(*) FROM urls u JOIN urls r ON r.id = u.referrer \
                 JOIN pages p ON p.id = r.id \
                 WHERE u.id = ?1 AND r.host = u.host AND p.decision = ?2",
            )
            .and_then(|mut s| {
                s.query_row(params![to_i64(id), Decision::NearDuplicate.as_str()], |r| {
                    r.get::<_, i64>(0)
                })
            })
            .map(|n| n > 0)
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_links_come_back_in_order_and_let_go() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut store, _) = Store::open(dir.path(), &[]).expect("open");
        let a = store.hold("http://h/a", "h:80", 2, 7, false).expect("hold");
        let b = store.hold("http://h/b", "h:80", 3, 8, true).expect("hold");
        store.unhold(a).expect("unhold");
        store.commit().expect("commit");
        let (store, resumed) = Store::open(dir.path(), &[]).expect("reopen");
        assert!(resumed);
        let held = store.held().expect("held");
        let link = |id, url: &str, depth, referrer, unseen, released| HeldLink {
            id,
            url: url.into(),
            host: "h:80".into(),
            depth,
            referrer,
            unseen,
            released,
        };
        let want = vec![
            link(a, "http://h/a", 2, 7, false, true),
            link(b, "http://h/b", 3, 8, true, false),
        ];
        assert_eq!(held, want);
    }
}
