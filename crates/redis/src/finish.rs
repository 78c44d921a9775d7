//! The end of a page's turn: its links queued with its record, its lease ended.

use std::time::Duration;

use silhouette_frontier::host_port;

use crate::codec::{Lease, entry, id_field, seen_member};
use crate::crawl::{KNOWN_MAX, Link, ms, seq_of};
use crate::error::doing;
use crate::order::Heads;
use crate::scripts::COMPLETE;
use crate::{SharedCrawl, SharedError};

/// What [`SharedCrawl::complete_failing`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completed {
    /// This record was the one written (not another worker's, whose lease had run out).
    pub written: bool,
    /// Whose turn it is now.
    pub heads: Heads,
}

/// A link with its URL shape (0: not exploring).
type Shaped = (Link, u64);

/// How a page's turn ends ([`SharedCrawl::finish`]).
#[derive(Clone, Copy, Debug)]
pub struct Finish<'a> {
    /// The page's record (a JSON object).
    pub record: &'a str,
    /// Its decision (counted per host).
    pub decision: &'a str,
    /// The host failed (429, 5xx): every worker leaves it alone this long, doubling.
    pub backoff: Option<Duration>,
    /// Judged out of order.
    pub late: bool,
    /// The links to queue (numbered: [`SharedCrawl::alloc`]).
    pub links: &'a [Link],
    /// The page that linked to them.
    pub referrer: Option<&'a str>,
    /// The links' numbers were given before ([`Numbers::again`](crate::Numbers::again)).
    pub again: bool,
    /// Exploration in drop mode: what the links' URL shapes do.
    pub shapes: Shapes<'a>,
}

/// Exploration in drop mode (`silhouette_frontier`'s URL shapes, `FrontierConfig::explore`):
/// each of [`Finish::links`] with its shape (`silhouette_frontier::shape_key`), in the same
/// order. Only links on the page's own host count; the host's shapes and its count of
/// explored links live in Redis, changed in the page's turn, so every worker and a
/// single-process crawl follow the same links.
#[derive(Clone, Copy, Debug, Default)]
pub enum Shapes<'a> {
    /// Not exploring.
    #[default]
    Off,
    /// A page whose links are followed: the shapes of its links not seen yet become its
    /// host's. Kept, and queued by exploration, it gives the host's budget its fetch back,
    /// and the first link held that the budget has room for is queued as number `release`
    /// (`silhouette_frontier::most_held`).
    Note {
        /// The links' shapes.
        shapes: &'a [u64],
        /// The host's exploration budget (`FrontierConfig::explore`).
        explore: u32,
        /// The number for a held link: the page's last (its links' numbers and one more).
        release: u64,
    },
    /// A near-duplicate in drop mode: only its links whose shape its host has not had are
    /// wanted, the first of each; queued while the host has explored fewer than `explore`
    /// (less those kept), else held.
    Explore {
        /// The links' shapes.
        shapes: &'a [u64],
        /// The host's exploration budget.
        explore: u32,
    },
    /// A near-duplicate that only just joined its cluster (`silhouette_frontier::Explore::
    /// Unseen`): its links not seen yet are wanted whatever their shape (which becomes its
    /// host's); queued while the host has explored fewer than half of `explore`, each
    /// counted, else held.
    Unseen {
        /// The links' shapes.
        shapes: &'a [u64],
        /// The host's exploration budget.
        explore: u32,
    },
}

impl Shapes<'_> {
    /// The `COMPLETE` script's mode, the exploration budget, the number for a held link, and
    /// the shapes.
    fn parts(&self) -> (u8, u32, u64, &[u64]) {
        match *self {
            Self::Off => (0, 0, 0, &[]),
            Self::Note {
                shapes,
                explore,
                release,
            } => (1, explore, release, shapes),
            Self::Explore { shapes, explore } => (2, explore, 0, shapes),
            Self::Unseen { shapes, explore } => (3, explore, 0, shapes),
        }
    }
}

/// What [`SharedCrawl::finish`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// This record was the one written.
    pub written: bool,
    /// Links queued (new).
    pub queued: usize,
    /// The page's host's smallest sequence number not judged now (for
    /// [`SharedCrawl::set_heads`], which the caller does: maybe later, with others).
    pub min: Option<u64>,
    /// The host's first sequence numbers not judged (up to 32, ascending; `min` first).
    pub next: Vec<u64>,
    /// Other hosts whose smallest number changed (they had no URL waiting), as written to
    /// `heads`: the turn may be theirs next.
    pub heads: Vec<(String, u64)>,
}

impl SharedCrawl {
    /// Writes the record of a leased URL (unless a worker whose lease had expired wrote
    /// one first) and ends the lease. Returns whether this record was the one written.
    ///
    /// # Errors
    /// Redis.
    pub async fn complete(
        &mut self,
        lease: &Lease,
        record: &str,
        decision: &str,
    ) -> Result<bool, SharedError> {
        let done = self
            .complete_failing(lease, record, decision, None, false)
            .await?;
        Ok(done.written)
    }

    /// As [`complete`](Self::complete), and the URL's turn in the canonical order ends;
    /// `backoff`: the host failed (429, 5xx), so every worker leaves it alone for `backoff`,
    /// doubled for each failure in a row (up to [`SharedConfig::backoff_cap`](crate::SharedConfig::backoff_cap)); `None`: the
    /// host answered, the failures are forgotten. `late`: the page was judged out of order
    /// (counted by [`stats`](Self::stats)).
    ///
    /// # Errors
    /// Redis.
    pub async fn complete_failing(
        &mut self,
        lease: &Lease,
        record: &str,
        decision: &str,
        backoff: Option<Duration>,
        late: bool,
    ) -> Result<Completed, SharedError> {
        let done = self
            .finish(
                lease,
                Finish {
                    record,
                    decision,
                    backoff,
                    late,
                    links: &[],
                    referrer: None,
                    again: false,
                    shapes: Shapes::Off,
                },
            )
            .await?;
        let heads = self.set_heads(&[(lease.host.clone(), done.min)]).await?;
        Ok(Completed {
            written: done.written,
            heads,
        })
    }

    /// Ends a page's turn: queues its links (those on other hosts first, then, with the
    /// record, those on its own host: one script), writes the record unless one is there,
    /// ends the lease, takes the URL out of the order. `heads` is left to the caller
    /// ([`set_heads`](Self::set_heads) with [`Finished::min`]).
    ///
    /// # Errors
    /// Redis.
    pub async fn finish(&mut self, lease: &Lease, f: Finish<'_>) -> Result<Finished, SharedError> {
        // With a crawl-wide page budget the links go through `enqueue` (the budget lives
        // in the crawl's slot); else the page's own host's links go with the record, each
        // with its shape when exploring.
        let (mode, explore, release, shapes) = f.shapes.parts();
        let shape_of = |i: usize| shapes.get(i).copied().unwrap_or(0);
        let (own, others): (Vec<Shaped>, Vec<Shaped>) = if self.config.max_pages.is_some() {
            (
                Vec::new(),
                f.links.iter().cloned().map(|l| (l, 0)).collect(),
            )
        } else {
            f.links
                .iter()
                .cloned()
                .enumerate()
                .map(|(i, l)| (l, shape_of(i)))
                .partition(|((u, _, _), _)| host_port(u).as_deref() == Some(lease.host.as_str()))
        };
        let others: Vec<Link> = others.into_iter().map(|(l, _)| l).collect();
        let (mut queued, heads) = if others.is_empty() {
            (0, Vec::new())
        } else {
            self.enqueue_noting(&others, f.referrer, f.again).await?
        };
        let own: Vec<Shaped> = {
            let known = self.known();
            own.into_iter()
                .filter(|((u, _, _), _)| !known.contains(&seen_member(u.as_str())))
                .collect()
        };
        let h = self.keys.host(&lease.host);
        let mut call = COMPLETE.key(h.leases());
        call.key(h.records())
            .key(h.meta())
            .key(h.order())
            .key(h.late())
            .key(h.seen())
            .key(h.queue())
            .key(h.shapes())
            .key(h.held())
            .key(h.explored())
            .arg(&lease.entry)
            .arg(id_field(lease.id))
            .arg(f.record)
            .arg(ms(self.config.host_interval))
            .arg(f.decision)
            .arg(f.backoff.map_or(0, |b| ms(b).max(1)))
            .arg(ms(self.config.backoff_cap))
            .arg(u8::from(f.late))
            .arg(mode)
            .arg(explore)
            .arg(silhouette_frontier::most_held(explore))
            .arg(release)
            .arg(own.len())
            .arg(self.config.max_pages_per_host.unwrap_or(0));
        for ((url, depth, seq), shape) in &own {
            call.arg(&seen_member(url.as_str())[..])
                .arg(entry(url.as_str(), *seq, *depth, f.referrer))
                .arg(*seq);
            if mode > 0 {
                call.arg(*shape);
            }
        }
        self.trips(1);
        let reply: Vec<String> = call
            .invoke_async(&mut self.conn)
            .await
            .map_err(doing("writing a record"))?;
        let (written, n, next) = match reply.as_slice() {
            [written, n, next @ ..] => (
                written == "1",
                n.parse::<usize>().unwrap_or(0),
                next.iter().filter_map(|s| seq_of(s)).collect::<Vec<u64>>(),
            ),
            _ => {
                return Err(SharedError::Corrupt {
                    key: h.records(),
                    detail: format!("{reply:?}"),
                });
            }
        };
        // A duplicate's links not explored stay unseen: they are not known.
        if self.config.max_pages_per_host.is_none() && mode < 2 {
            let mut known = self.known();
            if known.len() + own.len() <= KNOWN_MAX {
                known.extend(own.iter().map(|((u, _, _), _)| seen_member(u.as_str())));
            }
        }
        queued += n;
        Ok(Finished {
            written,
            queued,
            min: next.first().copied(),
            next,
            heads,
        })
    }
}
