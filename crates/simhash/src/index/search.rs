//! The query path shared by every structure: the slot arrays a scan verifies against, the sinks
//! that collect what a scan finds, and the search order (exact layer, then every table).

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::NearIndex;
use super::segment::{Probe, Query, Resolved, Segment};

/// Segments whose probes are batched together.
const GROUP: usize = 8;
/// Probed cells per batch.
const BATCH: usize = 256;

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
    /// offered at most a few times): the delta, then every segment, newest first. The exact
    /// match, if any, is in the query's own primary cell, scanned first in each segment.
    ///
    /// The probes of up to [`GROUP`] segments are batched together: their directory ranges are
    /// read first, then the first entry of each is touched, then they are scanned, so that the
    /// cache misses of one query overlap instead of following one another.
    pub(crate) fn search<S: Sink>(&self, q: u64, sink: &mut S) {
        let slots = self.slots();
        if self.delta.search(q, slots, sink).is_break() {
            return;
        }
        for group in self.segments.rchunks(GROUP) {
            if self.search_group(group, q, slots, sink).is_break() {
                return;
            }
        }
    }

    fn search_group<S: Sink>(
        &self,
        group: &[Segment],
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let mut queries = [Query::default(); GROUP];
        for (qa, seg) in queries.iter_mut().zip(group) {
            *qa = seg.query(q, &self.layout);
        }
        let mut resolved = [Resolved::default(); GROUP];
        let mut batch = [Probe::default(); BATCH];
        let mut n = 0;
        for (i, seg) in group.iter().enumerate().rev() {
            seg.collect(&queries[i], i, |pr| {
                batch[n] = pr;
                n += 1;
                if n == BATCH {
                    n = 0;
                    self.run(group, &queries, &mut resolved, &batch, slots, sink)?;
                }
                ControlFlow::Continue(())
            })?;
        }
        self.run(group, &queries, &mut resolved, &batch[..n], slots, sink)
    }

    fn run<S: Sink>(
        &self,
        group: &[Segment],
        queries: &[Query; GROUP],
        resolved: &mut [Resolved; GROUP],
        batch: &[Probe],
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let mut touch = 0u64;
        for pr in batch {
            if let Some(seg) = group.get(usize::from(pr.seg)) {
                touch ^= seg.touch(pr);
            }
        }
        std::hint::black_box(touch);
        for pr in batch {
            let i = usize::from(pr.seg);
            if let (Some(seg), Some(qa), Some(res)) =
                (group.get(i), queries.get(i), resolved.get_mut(i))
            {
                seg.scan(pr, qa, res, &self.layout, slots, sink)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The slot holding `fp`, live or dead, if it is indexed: the exact-match layer. The
    /// primary cells of all segments are located first, so their misses overlap.
    pub(crate) fn find_slot(&self, fp: u64) -> Option<usize> {
        if let Some(s) = self.delta.find(fp) {
            return Some(s);
        }
        let mut ranges = [(0usize, 0usize); GROUP];
        for group in self.segments.rchunks(GROUP) {
            for (r, seg) in ranges.iter_mut().zip(group) {
                *r = seg.exact_range(fp);
            }
            for (r, seg) in ranges.iter().zip(group).rev() {
                if let Some(s) = seg.find_in(fp, *r) {
                    return Some(s);
                }
            }
        }
        None
    }
}
