//! The canonical order of a shared crawl (ALGORITHM.md §8): every URL has a sequence number,
//! and pages are judged one at a time in its order, whichever worker fetched them.
//!
//! A page's links get numbers in a row, in document order, when the page is judged
//! ([`SharedCrawl::alloc`]; the seeds first, [`SharedCrawl::add_seeds`]); since pages are
//! judged in order, the numbers, and every decision, are the same whatever the number of
//! workers and their timing. Each host keeps its URLs not judged yet in an order set (in its
//! own slot, changed by the same script that queues or records them); the crawl keeps each
//! host's smallest number in `heads`, whose first member is the page whose turn it is.
//! `heads` is a cache of the hosts' order sets, rewritten by the worker that changed one
//! ([`SharedCrawl::set_heads`]); a worker that dies between the two leaves it stale, which
//! [`SharedCrawl::refresh_head`] mends from the host's own set.

use redis::AsyncCommands;

use crate::codec::{Lease, id_field, parse_entry};
use crate::crawl::{Head, seq_of};
use crate::error::doing;
use crate::scripts::{ALLOC, HEADS, PLACE, RELEASE, RENEW};
use crate::{SharedCrawl, SharedError};

/// Where a URL is in the canonical order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Waiting for its turn, at this sequence number.
    InOrder(u64),
    /// Taken out of the order (its fetch was stuck): judged when fetched, out of order.
    Late,
    /// Recorded already (by another worker whose lease had run out, or by this one).
    Recorded,
    /// Not in the order (queued before the order existed).
    Absent,
}

/// The first two members of `heads`: whose turn it is, and the smallest sequence number of
/// another host (a worker whose page's host still has the smallest number after the page
/// knows it is that host's turn again without asking).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heads {
    /// Whose turn it is (`None`: no URL waits).
    pub first: Option<Head>,
    /// The first URL of another host.
    pub second: Option<Head>,
}

/// Sequence numbers given by [`SharedCrawl::alloc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    /// The first of them.
    pub first: u64,
    /// The page's numbers were given before (a worker judged it and died before its turn
    /// ended): pass it to [`SharedCrawl::enqueue`].
    pub again: bool,
}

impl SharedCrawl {
    /// Gives `n` sequence numbers in a row and returns the first: for the links of page
    /// `page` (by its sequence number: asked again while the page's turn lasts, the same
    /// numbers), or for URLs of no page (`None`: a sitemap's).
    ///
    /// # Errors
    /// Redis.
    pub async fn alloc(&mut self, page: Option<u64>, n: u64) -> Result<Numbers, SharedError> {
        self.trips(1);
        let (base, again): (String, u8) = ALLOC
            .key(self.keys.seq())
            .key(self.keys.bases())
            .arg(page.map_or(String::new(), |p| p.to_string()))
            .arg(n)
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("numbering links"))?;
        let first = seq_of(&base).ok_or_else(|| SharedError::Corrupt {
            key: self.keys.seq(),
            detail: base,
        })?;
        Ok(Numbers {
            first,
            again: again == 1,
        })
    }

    /// Notes each host's smallest sequence number not judged (`None`: none left); returns
    /// whose turn it is.
    ///
    /// # Errors
    /// Redis.
    pub async fn set_heads(
        &mut self,
        hosts: &[(String, Option<u64>)],
    ) -> Result<Heads, SharedError> {
        let changes: Vec<(String, Option<Option<u64>>, bool)> = hosts
            .iter()
            .map(|(h, min)| (h.clone(), Some(*min), false))
            .collect();
        self.heads_call(&changes).await
    }

    /// The `HEADS` script: per host, its smallest number (`None`: unchanged) and whether to
    /// schedule it now.
    pub(crate) async fn heads_call(
        &mut self,
        hosts: &[(String, Option<Option<u64>>, bool)],
    ) -> Result<Heads, SharedError> {
        self.trips(1);
        let mut call = HEADS.key(self.keys.heads());
        call.key(self.keys.schedule()).key(self.keys.hosts());
        for (host, min, schedule) in hosts {
            let min = match min {
                None => "-".to_owned(),
                Some(None) => String::new(),
                Some(Some(m)) => m.to_string(),
            };
            call.arg(host).arg(min).arg(u8::from(*schedule));
        }
        let top: Vec<String> = call
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("reading whose turn it is"))?;
        let mut top = top.chunks(2).filter_map(|pair| match pair {
            [host, seq] => seq_of(seq).map(|seq| Head {
                host: host.clone(),
                seq,
            }),
            _ => None,
        });
        Ok(Heads {
            first: top.next(),
            second: top.next(),
        })
    }

    /// Whose turn it is to be judged (`None`: no URL waits).
    ///
    /// # Errors
    /// Redis.
    pub async fn head(&mut self) -> Result<Option<Head>, SharedError> {
        Ok(self.heads().await?.first)
    }

    /// Whose turn it is, and the first URL of another host after it.
    ///
    /// # Errors
    /// Redis.
    pub async fn heads(&mut self) -> Result<Heads, SharedError> {
        self.set_heads(&[]).await
    }

    /// Reads `host`'s smallest sequence number from its own order set into `heads` (mends
    /// what a worker that died between the two left stale); returns whose turn it is.
    ///
    /// # Errors
    /// Redis.
    pub async fn refresh_head(&mut self, host: &str) -> Result<Heads, SharedError> {
        self.trips(1);
        let first: Vec<(String, String)> = self
            .conn
            .zrange_withscores(self.keys.host(host).order(), 0, 0)
            .await
            .map_err(doing("reading a host's order"))?;
        let min = first.first().and_then(|(_, s)| seq_of(s));
        self.set_heads(&[(host.to_owned(), min)]).await
    }

    /// Where URL `id` of `host` is in the order.
    ///
    /// # Errors
    /// Redis.
    pub async fn place(&mut self, host: &str, id: u64) -> Result<Place, SharedError> {
        let h = self.keys.host(host);
        self.trips(1);
        let (place, _min): (String, String) = PLACE
            .key(h.order())
            .key(h.late())
            .key(h.records())
            .arg(id_field(id))
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("reading a URL's place"))?;
        Ok(match place.as_str() {
            "late" => Place::Late,
            "done" => Place::Recorded,
            "none" => Place::Absent,
            s => seq_of(s).map_or(Place::Absent, Place::InOrder),
        })
    }

    /// Takes `head` out of the order (pages waited behind it too long): it is judged when
    /// its fetch ends, out of order. Returns whose turn it is now.
    ///
    /// # Errors
    /// Redis.
    pub async fn release(&mut self, head: &Head) -> Result<Heads, SharedError> {
        let h = self.keys.host(&head.host);
        self.trips(1);
        let min: String = RELEASE
            .key(h.order())
            .key(h.late())
            .arg(head.seq)
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("taking a URL out of the order"))?;
        self.set_heads(&[(head.host.clone(), seq_of(&min))]).await
    }

    /// Extends `leases` (still held by this worker: fetching, or fetched and waiting for
    /// their turn) to the lease time from now, one call per host.
    ///
    /// # Errors
    /// Redis.
    pub async fn renew(&mut self, leases: &[Lease]) -> Result<(), SharedError> {
        let mut by_host: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
        for l in leases {
            by_host.entry(&l.host).or_default().push(&l.entry);
        }
        for (host, entries) in by_host {
            self.trips(1);
            let mut call = RENEW.key(self.keys.host(host).leases());
            call.arg(u64::try_from(self.config.lease.as_millis()).unwrap_or(u64::MAX));
            for e in entries {
                call.arg(e);
            }
            let _: i64 = call
                .invoke_async(&mut self.conn)
                .await
                .map_err(doing("renewing leases"))?;
        }
        Ok(())
    }

    /// Leases `head`'s URL if it is queued and its host may be fetched now (a worker whose
    /// buffer of pages waiting for their turn is full leases nothing else).
    ///
    /// # Errors
    /// Redis.
    pub async fn lease_head(&mut self, head: &Head) -> Result<Vec<Lease>, SharedError> {
        let reply = self.lease_host(&head.host, 1, Some(head.seq)).await?;
        let mut leases = Vec::new();
        if let [ok, _next, entries @ ..] = reply.as_slice()
            && ok == "ok"
        {
            for e in entries {
                leases.push(
                    parse_entry(e, &head.host).ok_or_else(|| SharedError::Corrupt {
                        key: self.keys.host(&head.host).queue(),
                        detail: e.clone(),
                    })?,
                );
            }
        }
        Ok(leases)
    }
}
