//! The query path shared by every structure: the slot arrays a scan verifies against, the sinks
//! that collect what a scan finds, and the search order (exact layer, then every table).

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::NearIndex;
use super::segment::{Probe, Query, Resolved, ScanContext, Segment, TABLES};

/// Segments whose probes are batched together.
const GROUP: usize = 2;
/// Probed cells per batch.
const BATCH: usize = 144;

/// What a batch of probes needs of its segment group: the segments, what each derives from
/// the query, and their directories.
type Group<'a> = (
    &'a [Segment],
    &'a [Query; GROUP],
    &'a [[&'a [u32]; TABLES]; GROUP],
);

/// Read-only view of the per-slot state a scan needs: the dead bitset.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slots<'a> {
    /// Bit `s` set: slot `s` holds no live id any more.
    pub dead: &'a [u64],
}

impl Slots<'_> {
    /// Whether slot `s` is dead (a slot past the bitset counts as live).
    #[inline]
    pub fn is_dead(&self, s: usize) -> bool {
        self.dead
            .get(s >> 6)
            .is_some_and(|word| (word >> (s & 63)) & 1 == 1)
    }
}

/// What a scan reports candidates to.
pub(crate) trait Sink {
    /// Candidates farther than this are of no interest.
    fn bound(&self) -> u32;
    /// A live slot at `distance <= bound()`; `Break` stops the search.
    fn offer(&mut self, slot: usize, distance: u32) -> ControlFlow<()>;
}

/// Stops at the first live slot within `k`, remembering it as `(slot, distance)`.
#[derive(Debug)]
pub(crate) struct AnySink {
    pub k: u32,
    pub found: Option<(usize, u32)>,
}

impl Sink for AnySink {
    #[inline]
    fn bound(&self) -> u32 {
        self.k
    }

    #[inline]
    fn offer(&mut self, slot: usize, distance: u32) -> ControlFlow<()> {
        self.found = Some((slot, distance));
        ControlFlow::Break(())
    }
}

/// Collects every live slot within `k` (a slot may be offered more than once).
#[derive(Debug)]
pub(crate) struct AllSink {
    pub k: u32,
    pub found: Vec<(u32, usize)>,
}

impl Sink for AllSink {
    #[inline]
    fn bound(&self) -> u32 {
        self.k
    }

    #[inline]
    fn offer(&mut self, slot: usize, distance: u32) -> ControlFlow<()> {
        self.found.push((distance, slot));
        ControlFlow::Continue(())
    }
}

/// Insertion-order key of the earliest live id of a slot: `(slot + 1, 0)` for the id that
/// created the slot, `(slots existing then, seq + 1)` for an id added later (see `mod.rs`).
pub(crate) type OrderKey = (u64, u64);

/// The order key of `slot` given the promoted map.
#[inline]
pub(crate) fn order_key(promoted: &HashMap<usize, OrderKey>, slot: usize) -> OrderKey {
    if promoted.is_empty() {
        return (slot as u64 + 1, 0);
    }
    promoted.get(&slot).copied().unwrap_or((slot as u64 + 1, 0))
}

/// Keeps the nearest live slot; among equal distances the one whose earliest id came first.
#[derive(Debug)]
pub(crate) struct NearestSink<'a> {
    pub k: u32,
    pub best: Option<(u32, OrderKey, usize)>,
    pub promoted: &'a HashMap<usize, OrderKey>,
}

impl Sink for NearestSink<'_> {
    #[inline]
    fn bound(&self) -> u32 {
        self.best.map_or(self.k, |(d, _, _)| d)
    }

    #[inline]
    fn offer(&mut self, slot: usize, distance: u32) -> ControlFlow<()> {
        let key = order_key(self.promoted, slot);
        let better = match self.best {
            None => true,
            Some((d, best_key, _)) => (distance, key) < (d, best_key),
        };
        if better {
            self.best = Some((distance, key, slot));
        }
        // Fingerprints are unique per slot, so nothing can beat or tie a distance of 0.
        if distance == 0 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

impl NearIndex {
    /// The slot arrays, for scans.
    pub(crate) fn slots(&self) -> Slots<'_> {
        Slots { dead: &self.dead }
    }

    /// Runs `sink` over every live slot within its bound of `q` (and possibly some more, each
    /// offered at most a few times): every segment, newest first, then the delta (which holds
    /// few of the stored fingerprints, so a hit usually ends the search before it). The exact
    /// match, if any, is in the query's own primary cell, scanned first in each segment.
    ///
    /// The probes of up to [`GROUP`] segments are batched together (see [`Self::run`]), so
    /// that the cache misses of one query overlap instead of following one another.
    pub(crate) fn search<S: Sink>(&self, q: u64, sink: &mut S) {
        let slots = self.slots();
        for group in self.segments.rchunks(GROUP) {
            if self.search_group(group, q, slots, sink).is_break() {
                return;
            }
        }
        let _ = self.delta.search(q, slots, sink);
    }

    fn search_group<S: Sink>(
        &self,
        group: &[Segment],
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let mut queries = [Query::default(); GROUP];
        let mut dirs: [[&[u32]; TABLES]; GROUP] = [[&[]; TABLES]; GROUP];
        for ((qa, d), seg) in queries.iter_mut().zip(dirs.iter_mut()).zip(group) {
            *qa = seg.query(q, &self.layout);
            *d = seg.dirs();
        }
        let mut resolved = [Resolved::default(); GROUP];
        let mut batch = [Probe::default(); BATCH];
        let mut n = 0;
        for (i, seg) in group.iter().enumerate().rev() {
            seg.probes(&queries[i], |t, c| {
                batch[n] = Probe {
                    seg: i as u8,
                    t: t as u8,
                    c: c as u32,
                    a: 0,
                    b: 0,
                };
                n += 1;
                if n == BATCH {
                    n = 0;
                    let state = (group, &queries, &dirs);
                    self.run(state, &mut resolved, &mut batch, slots, sink)?;
                }
                ControlFlow::Continue(())
            })?;
        }
        let state = (group, &queries, &dirs);
        self.run(state, &mut resolved, &mut batch[..n], slots, sink)
    }

    /// Runs one batch of probes in passes, each a tight loop of loads independent of one
    /// another so that their cache misses overlap: for each run of probes into one table, the
    /// directory ranges, then the first and last entries of every non-empty cell; then the
    /// scans.
    fn run<S: Sink>(
        &self,
        (group, queries, dirs): Group<'_>,
        resolved: &mut [Resolved; GROUP],
        batch: &mut [Probe],
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        // Probes come in runs of one table of one segment: each run is a tight loop of loads.
        let mut touch = 0u64;
        for run in batch.chunk_by_mut(|x, y| (x.seg, x.t) == (y.seg, y.t)) {
            let Some(&Probe { seg, t, .. }) = run.first() else {
                continue;
            };
            let (seg, t) = (usize::from(seg), usize::from(t));
            let dir = dirs
                .get(seg)
                .and_then(|d| d.get(t))
                .copied()
                .unwrap_or_default();
            for pr in run.iter_mut() {
                if let Some(&[a, b]) = dir.get(pr.c as usize..pr.c as usize + 2) {
                    (pr.a, pr.b) = (a, b);
                }
            }
            if let Some(seg) = group.get(seg) {
                touch ^= seg.touch(t, run);
            }
        }
        std::hint::black_box(touch);
        for run in batch.chunk_by(|x, y| (x.seg, x.t) == (y.seg, y.t)) {
            let Some(&Probe { seg, t, .. }) = run.first() else {
                continue;
            };
            let i = usize::from(seg);
            if let (Some(seg), Some(qa), Some(res)) =
                (group.get(i), queries.get(i), resolved.get_mut(i))
            {
                let mut cx = ScanContext {
                    qa,
                    resolved: res,
                    layout: &self.layout,
                    slots,
                };
                seg.scan_run(usize::from(t), run, &mut cx, sink)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The slot holding `fp`, live or dead, if it is indexed: the exact-match layer. The
    /// primary cells of all segments are located first, so their misses overlap.
    pub(crate) fn find_slot(&self, fp: u64) -> Option<usize> {
        let mut ranges = [(0usize, 0usize); GROUP];
        for (i, group) in self.segments.rchunks(GROUP).enumerate() {
            let mut guesses = 0;
            for (r, seg) in ranges.iter_mut().zip(group) {
                let (range, guess) = seg.exact_range(fp);
                (*r, guesses) = (range, guesses ^ guess);
            }
            std::hint::black_box(guesses);
            // The delta's lookup overlaps with the newest segments' cache misses.
            if i == 0
                && let Some(s) = self.delta.find(fp)
            {
                return Some(s);
            }
            for (r, seg) in ranges.iter().zip(group).rev() {
                if let Some(s) = seg.find_in(fp, *r) {
                    return Some(s);
                }
            }
        }
        if self.segments.is_empty() {
            return self.delta.find(fp);
        }
        None
    }
}
