//! An immutable segment: for each table, the slots of a contiguous slot range grouped by cell
//! (a CSR array: a directory of offsets plus one `u32` per slot), built by a counting sort.
//!
//! Skew: a cell holding more than `heavy_min` slots gets a ring index. Its members are sorted by
//! their distance to a pivot (the bitwise majority of the cell), then by fingerprint. A query at
//! distance `dq` from the pivot can only match members whose distance to the pivot lies in
//! `dq - k ..= dq + k` (triangle inequality), so it scans only those rings; an exact lookup
//! binary-searches the one ring `dq`. A query far from a dense cluster of near-identical
//! fingerprints then skips the cluster without touching it.

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::Tuning;
use super::layout::{Layout, TableSpec, dir_bits, for_each_probe};
use super::search::{Sink, Slots};

/// Offsets of rings `0..=64` plus the end.
const RINGS: usize = 66;

/// Ring index of one oversized cell.
#[derive(Debug, Clone)]
struct Heavy {
    pivot: u64,
    /// Ring `r` is `slots[rings[r]..rings[r + 1]]`, sorted by fingerprint.
    rings: Box<[u32; RINGS]>,
}

/// One table of a segment.
#[derive(Debug, Clone)]
struct SegTable {
    spec: TableSpec,
    bits: u32,
    /// `dir[c]..dir[c + 1]` is cell `c`'s range in `slots`.
    dir: Vec<u32>,
    /// Slot numbers relative to the segment's first slot.
    slots: Vec<u32>,
    heavy: HashMap<u32, Heavy>,
}

/// The tables over slots `lo..hi` (dead slots left out).
#[derive(Debug, Clone)]
pub(crate) struct Segment {
    lo: usize,
    hi: usize,
    len: usize,
    heavy_min: usize,
    tables: Vec<SegTable>,
}

impl Segment {
    /// Indexes the live slots among `lo..hi`. `hi - lo` must fit in a `u32`.
    pub fn build(slots: Slots<'_>, lo: usize, hi: usize, layout: &Layout, tuning: &Tuning) -> Self {
        let live: Vec<u32> = (lo..hi)
            .filter(|&s| !slots.is_dead(s))
            .map(|s| (s - lo) as u32)
            .collect();
        let tables = layout
            .tables()
            .iter()
            .map(|&spec| SegTable::build(spec, slots.fps, lo, &live, tuning))
            .collect();
        Self {
            lo,
            hi,
            len: live.len(),
            heavy_min: tuning.heavy_min,
            tables,
        }
    }

    /// First slot covered.
    pub fn lo(&self) -> usize {
        self.lo
    }

    /// One past the last slot covered.
    pub fn hi(&self) -> usize {
        self.hi
    }

    /// Number of slots indexed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.tables
            .iter()
            .map(|t| {
                t.dir.capacity() * 4
                    + t.slots.capacity() * 4
                    + t.heavy.capacity() * (size_of::<(u32, Heavy)>() + 1)
                    + t.heavy.len() * RINGS * 4
            })
            .sum::<usize>()
            + self.tables.capacity() * size_of::<SegTable>()
    }

    /// Number of oversized cells given a ring index, over all tables.
    pub fn heavy_cells(&self) -> usize {
        self.tables.iter().map(|t| t.heavy.len()).sum()
    }

    /// Offers every slot of table `t` whose cell is within the table's radius of `q`'s.
    #[inline]
    pub fn scan<S: Sink>(
        &self,
        t: usize,
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let Some(tab) = self.tables.get(t) else {
            return ControlFlow::Continue(());
        };
        let cell = tab.spec.cell(q, tab.bits);
        for_each_probe(cell, tab.bits, tab.spec.radius, |c| {
            tab.scan_cell(c, q, self.lo, self.heavy_min, slots, sink)
        })
    }

    /// The slot holding exactly `fp`, if this segment indexes one.
    pub fn find(&self, fp: u64, fps: &[u64]) -> Option<usize> {
        let tab = self.tables.first()?;
        let c = tab.spec.cell(fp, tab.bits);
        let (a, b) = tab.range(c);
        let hit = |rel: &u32| fps.get(self.lo + *rel as usize) == Some(&fp);
        if b - a > self.heavy_min {
            if let Some(h) = tab.heavy.get(&(c as u32)) {
                let r = (fp ^ h.pivot).count_ones() as usize;
                let ring = &tab.slots[h.rings[r] as usize..h.rings[r + 1] as usize];
                let i = ring.partition_point(|rel| fps[self.lo + *rel as usize] < fp);
                return ring
                    .get(i)
                    .filter(|rel| hit(rel))
                    .map(|rel| self.lo + *rel as usize);
            }
        }
        tab.slots[a..b]
            .iter()
            .find(|rel| hit(rel))
            .map(|rel| self.lo + *rel as usize)
    }
}

impl SegTable {
    fn build(spec: TableSpec, fps: &[u64], lo: usize, live: &[u32], tuning: &Tuning) -> Self {
        let bits = dir_bits(live.len(), spec.width, tuning.dir_slack, tuning.dir_cap);
        let cells: Vec<u32> = live
            .iter()
            .map(|&rel| spec.cell(fps[lo + rel as usize], bits) as u32)
            .collect();
        let ncells = 1usize << bits;
        let mut dir = vec![0u32; ncells + 1];
        for &c in &cells {
            dir[c as usize + 1] += 1;
        }
        for c in 0..ncells {
            dir[c + 1] += dir[c];
        }
        let mut cursor = dir[..ncells].to_vec();
        let mut slots = vec![0u32; live.len()];
        for (&rel, &c) in live.iter().zip(&cells) {
            let at = &mut cursor[c as usize];
            slots[*at as usize] = rel;
            *at += 1;
        }
        drop(cursor);
        let mut heavy = HashMap::new();
        for c in 0..ncells {
            let (a, b) = (dir[c] as usize, dir[c + 1] as usize);
            if b - a > tuning.heavy_min {
                let h = Heavy::build(&mut slots[a..b], a, fps, lo);
                heavy.insert(c as u32, h);
            }
        }
        heavy.shrink_to_fit();
        Self {
            spec,
            bits,
            dir,
            slots,
            heavy,
        }
    }

    #[inline]
    fn range(&self, c: usize) -> (usize, usize) {
        match (self.dir.get(c), self.dir.get(c + 1)) {
            (Some(&a), Some(&b)) => (a as usize, b as usize),
            _ => (0, 0),
        }
    }

    #[inline]
    fn scan_cell<S: Sink>(
        &self,
        c: usize,
        q: u64,
        lo: usize,
        heavy_min: usize,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let (mut a, mut b) = self.range(c);
        if b - a > heavy_min {
            if let Some(h) = self.heavy.get(&(c as u32)) {
                let dq = (q ^ h.pivot).count_ones() as usize;
                let bound = sink.bound() as usize;
                let first = dq.saturating_sub(bound);
                let last = (dq + bound).min(64);
                a = h.rings[first] as usize;
                b = h.rings[last + 1] as usize;
            }
        }
        for &rel in &self.slots[a..b] {
            slots.verify(lo + rel as usize, q, sink)?;
        }
        ControlFlow::Continue(())
    }
}

impl Heavy {
    /// Sorts `members` (which start at `base` in the table's slot array) into rings around their
    /// majority pivot, each ring by fingerprint.
    fn build(members: &mut [u32], base: usize, fps: &[u64], lo: usize) -> Self {
        let fp = |rel: u32| fps[lo + rel as usize];
        let mut ones = [0usize; 64];
        for &rel in members.iter() {
            let x = fp(rel);
            for (i, n) in ones.iter_mut().enumerate() {
                *n += ((x >> i) & 1) as usize;
            }
        }
        let pivot = ones
            .iter()
            .enumerate()
            .filter(|&(_, &n)| 2 * n > members.len())
            .fold(0u64, |p, (i, _)| p | 1 << i);
        members.sort_unstable_by_key(|&rel| ((fp(rel) ^ pivot).count_ones(), fp(rel)));
        let mut rings = Box::new([0u32; RINGS]);
        let mut i = 0;
        for (r, start) in rings.iter_mut().enumerate() {
            while i < members.len() && ((fp(members[i]) ^ pivot).count_ones() as usize) < r {
                i += 1;
            }
            *start = (base + i) as u32;
        }
        Self { pivot, rings }
    }
}
