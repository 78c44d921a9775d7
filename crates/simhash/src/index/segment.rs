//! An immutable segment over a contiguous slot range: one CSR array per table (a directory of
//! `u32` offsets by cell, entries grouped by cell), built by counting sort, verified in place.
//!
//! - The primary table (table 0) stores each fingerprint in full (`u64`) with its slot (`u32`),
//!   so its candidates are verified without touching any other array, and it is the segment's
//!   exact-match layer.
//! - Every other table stores 32 bits of the fingerprint instead of a slot (see
//!   [`Layout::part`]). With the cell's bits they give a lower bound on the distance; the rare
//!   entry within the bound is resolved through the primary table's cell, found from those bits
//!   (and skipped when that cell is probed anyway).
//!
//! No candidate costs a random memory access of its own: random reads are in a VM the cost that
//! matters (25 to 55 ns each, measured), so a query reads cells, not slots.
//!
//! Skew: a cell holding more than `heavy_min` entries gets a ring index. Its members are sorted
//! by their distance to a pivot (the bitwise majority of the cell, over the bits the table
//! stores), then by value. A query at distance `dq` from the pivot can only match members whose
//! distance to the pivot lies in `dq - bound ..= dq + bound` (triangle inequality, which holds on
//! any subset of the bits), so it scans only those rings, and an exact lookup binary-searches
//! one ring. A query far from a dense cluster of near-identical fingerprints skips the cluster.

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::Tuning;
use super::layout::{Layout, TableSpec, dir_bits, for_each_probe};
use super::search::{Sink, Slots};

/// Ring index of one oversized cell: ring `r` is `rings[r]..rings[r + 1]` (absolute offsets).
#[derive(Debug, Clone)]
struct Heavy {
    pivot: u64,
    rings: Box<[u32; 66]>,
}

impl Heavy {
    /// Sorts `members` (at offset `base` of the table) into rings around their majority pivot,
    /// each ring by value, and reorders `payload` alongside.
    fn build<V: Copy + Ord + Into<u64>, P: Copy>(
        values: &mut [V],
        payload: &mut [P],
        base: usize,
    ) -> Self {
        let mut ones = [0usize; 64];
        for &x in values.iter() {
            let x: u64 = x.into();
            for (i, n) in ones.iter_mut().enumerate() {
                *n += ((x >> i) & 1) as usize;
            }
        }
        let pivot = ones
            .iter()
            .enumerate()
            .filter(|&(_, &n)| 2 * n > values.len())
            .fold(0u64, |p, (i, _)| p | 1 << i);
        let mut order: Vec<(u32, V, P)> = values
            .iter()
            .zip(payload.iter())
            .map(|(&v, &p)| ((v.into() ^ pivot).count_ones(), v, p))
            .collect();
        order.sort_unstable_by_key(|&(r, v, _)| (r, v));
        let mut rings = Box::new([0u32; 66]);
        let mut i = 0;
        for (r, start) in rings.iter_mut().enumerate() {
            while i < order.len() && (order[i].0 as usize) < r {
                i += 1;
            }
            *start = (base + i) as u32;
        }
        for (j, (_, v, p)) in order.into_iter().enumerate() {
            values[j] = v;
            payload[j] = p;
        }
        Self { pivot, rings }
    }

    /// Keeps the pivot and merges into the rings the members after the first `old` of
    /// `values` (the first `old` being in ring order already): only the new members are sorted,
    /// then both runs are merged in one pass; no majority to recompute.
    fn extend<V: Copy + Ord + Into<u64>, P: Copy>(
        &mut self,
        values: &mut [V],
        payload: &mut [P],
        base: usize,
        old: usize,
    ) {
        #[cfg(test)]
        EXTENDED.with(|n| n.set(n.get() + 1));
        let pivot = self.pivot;
        let mut items: Vec<(u32, V, P)> = values
            .iter()
            .zip(payload.iter())
            .map(|(&v, &p)| ((v.into() ^ pivot).count_ones(), v, p))
            .collect();
        items[old..].sort_unstable_by_key(|&(r, v, _)| (r, v));
        let (first, second) = items.split_at(old);
        let (mut i, mut j) = (0, 0);
        for k in 0..values.len() {
            let take_first = match (first.get(i), second.get(j)) {
                (Some(x), Some(y)) => (x.0, x.1) <= (y.0, y.1),
                (x, _) => x.is_some(),
            };
            let (_, v, p) = if take_first {
                i += 1;
                first[i - 1]
            } else {
                j += 1;
                second[j - 1]
            };
            values[k] = v;
            payload[k] = p;
        }
        let mut at = 0;
        for (r, start) in self.rings.iter_mut().enumerate() {
            while at < values.len() && ((values[at].into() ^ pivot).count_ones() as usize) < r {
                at += 1;
            }
            *start = (base + at) as u32;
        }
    }

    /// Calls `scan` on rings `dq, dq - 1, dq + 1, dq - 2, …` (`dq` being `value`'s ring) while
    /// their distance from `dq` is within the sink's bound less `slack`, a bound that may shrink
    /// as matches are found: the nearest members are met first and cut the search short.
    #[inline]
    fn outward<S: Sink>(
        &self,
        value: u64,
        slack: u32,
        sink: &mut S,
        mut scan: impl FnMut(usize, usize, &mut S) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let dq = (value ^ self.pivot).count_ones() as usize;
        let ring = |r: usize| (self.rings[r] as usize, self.rings[r + 1] as usize);
        for step in 0..=64 {
            if step > sink.bound().saturating_sub(slack) as usize {
                break;
            }
            if let Some(r) = dq.checked_sub(step) {
                let (a, b) = ring(r);
                scan(a, b, sink)?;
            }
            if step > 0 && dq + step <= 64 {
                let (a, b) = ring(dq + step);
                scan(a, b, sink)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The offsets of rings `dq - bound ..= dq + bound`, `dq` being `value`'s ring.
    #[inline]
    fn window(&self, value: u64, bound: u32) -> (usize, usize) {
        let dq = (value ^ self.pivot).count_ones() as usize;
        let first = dq.saturating_sub(bound as usize);
        let last = (dq + bound as usize).min(64);
        (self.rings[first] as usize, self.rings[last + 1] as usize)
    }
}

/// Directory, entries and ring indexes of one table.
#[derive(Debug, Clone)]
struct Table<V> {
    spec: TableSpec,
    bits: u32,
    /// Cells with more entries than this have a ring index.
    heavy_min: usize,
    dir: Vec<u32>,
    /// Every [`COARSE`]-th entry of `dir`, small enough to stay in cache: predicts where a cell
    /// starts before its directory entry arrives.
    coarse: Vec<u32>,
    values: Vec<V>,
    heavy: HashMap<u32, Heavy>,
}

/// The coarse directory samples every `2^COARSE`-th cell.
const COARSE: u32 = 6;

/// Every `2^COARSE`-th entry of `dir`, and its last.
fn coarse_of(dir: &[u32]) -> Vec<u32> {
    let mut coarse: Vec<u32> = dir.iter().step_by(1 << COARSE).copied().collect();
    if !(dir.len() - 1).is_multiple_of(1 << COARSE)
        && let Some(&last) = dir.last()
    {
        coarse.push(last);
    }
    coarse.shrink_to_fit();
    coarse
}

impl<V> Table<V> {
    /// Where cell `c` probably starts: interpolated between the coarse directory entries
    /// around it (exact for evenly filled cells up to a few entries).
    #[inline]
    fn predict(&self, c: usize) -> usize {
        let i = c >> COARSE;
        match (self.coarse.get(i), self.coarse.get(i + 1)) {
            (Some(&a), Some(&b)) => {
                let frac = (c & ((1 << COARSE) - 1)) as u64;
                a as usize + ((u64::from(b - a) * frac) >> COARSE) as usize
            }
            _ => 0,
        }
    }

    #[inline]
    fn range(&self, c: usize) -> (usize, usize) {
        match (self.dir.get(c), self.dir.get(c + 1)) {
            (Some(&a), Some(&b)) => (a as usize, b as usize),
            _ => (0, 0),
        }
    }

    fn memory_bytes(&self) -> usize {
        (self.dir.capacity() + self.coarse.capacity()) * 4
            + self.values.capacity() * size_of::<V>()
            + self.heavy.capacity() * (size_of::<(u32, Heavy)>() + 1)
            + self.heavy.len() * 66 * 4
    }
}

/// Groups `(value, payload)` pairs by `cell` with a counting sort; oversized cells get rings.
fn csr<P: Copy + Default>(
    cells: &[u32],
    values: &[u64],
    payload: &[P],
    bits: u32,
    heavy_min: usize,
) -> (Vec<u32>, Vec<u64>, Vec<P>, HashMap<u32, Heavy>) {
    let ncells = 1usize << bits;
    let mut dir = vec![0u32; ncells + 1];
    for &c in cells {
        dir[c as usize + 1] += 1;
    }
    for c in 0..ncells {
        dir[c + 1] += dir[c];
    }
    let mut cursor = dir[..ncells].to_vec();
    let mut out_v = vec![0u64; values.len()];
    let mut out_p = vec![P::default(); values.len()];
    for ((&c, &v), &p) in cells.iter().zip(values).zip(payload) {
        let at = &mut cursor[c as usize];
        out_v[*at as usize] = v;
        out_p[*at as usize] = p;
        *at += 1;
    }
    drop(cursor);
    let mut heavy = HashMap::new();
    for c in 0..ncells {
        let (a, b) = (dir[c] as usize, dir[c + 1] as usize);
        if b - a > heavy_min {
            let h = Heavy::build(&mut out_v[a..b], &mut out_p[a..b], a);
            heavy.insert(c as u32, h);
        }
    }
    heavy.shrink_to_fit();
    (dir, out_v, out_p, heavy)
}

/// Sorts `(cell, …)` items by cell, stably, with a least-significant-digit radix sort of 11-bit
/// digits (two sequential passes for the 21- and 22-bit cells of `k = 5`): several times faster
/// than a comparison sort on the million entries of a large merge.
fn sort_by_cell<V: Copy, P: Copy>(mut items: Vec<(u32, V, P)>, bits: u32) -> Vec<(u32, V, P)> {
    const DIGIT: u32 = 11;
    let mut out = items.clone();
    let mut shift = 0;
    while shift < bits {
        let mut at = vec![0usize; (1 << DIGIT) + 1];
        let digit = |c: u32| ((c >> shift) & ((1 << DIGIT) - 1)) as usize;
        for x in &items {
            at[digit(x.0) + 1] += 1;
        }
        for d in 0..1 << DIGIT {
            at[d + 1] += at[d];
        }
        for &x in &items {
            let slot = &mut at[digit(x.0)];
            out[*slot] = x;
            *slot += 1;
        }
        std::mem::swap(&mut items, &mut out);
        shift += DIGIT;
    }
    items
}

impl<V: Copy + Default + Ord + Into<u64>> Table<V> {
    /// Adds `add` (`(cell, value, payload)`, sorted by cell) to this table and its `payload`
    /// column, in place and in one backward pass: each cell keeps its entries, followed by its
    /// new ones, and the entries between two new ones move up together (one `memmove`). The
    /// directory is shifted in one forward pass. Cells that received entries and now hold more
    /// than `heavy_min` get their rings rebuilt; the other rings are moved with their cells.
    fn merge_in_place<P: Copy + Default>(
        &mut self,
        payload: &mut Vec<P>,
        add: &[(u32, V, P)],
        heavy_min: usize,
    ) {
        let old = self.values.len();
        let total = old + add.len();
        self.values.reserve_exact(add.len());
        self.values.resize(total, V::default());
        payload.reserve_exact(add.len());
        payload.resize(total, P::default());
        let (mut w, mut r) = (total, old);
        for &(c, v, p) in add.iter().rev() {
            let end = self.dir[c as usize + 1] as usize;
            let n = r - end;
            self.values.copy_within(end..r, w - n);
            payload.copy_within(end..r, w - n);
            w -= n + 1;
            r = end;
            self.values[w] = v;
            payload[w] = p;
        }
        // Cell `c` starts `j` entries later, `j` the number of new entries of cells below `c`:
        // one constant added to each run of cells between two cells that received entries.
        let mut from = 0;
        for (j, &(c, _, _)) in add.iter().enumerate() {
            let to = (c as usize + 1).min(self.dir.len());
            for d in self.dir.get_mut(from..to).unwrap_or_default() {
                *d += j as u32;
            }
            from = from.max(to);
        }
        for d in self.dir.get_mut(from..).unwrap_or_default() {
            *d += add.len() as u32;
        }
        self.heavy_min = heavy_min;
        let dir = &self.dir;
        let grown = |c: u32| add.binary_search_by_key(&c, |a| a.0).is_ok();
        // Rings move with their cells; those of cells that grew are set aside to be extended.
        let mut extend = HashMap::new();
        self.heavy.retain(|&c, h| {
            let (a, b) = (dir[c as usize] as usize, dir[c as usize + 1] as usize);
            let shift = a as u32 - h.rings[0];
            for x in h.rings.iter_mut() {
                *x += shift;
            }
            if b - a <= heavy_min {
                return false;
            }
            if grown(c) {
                extend.insert(c, h.clone());
                return false;
            }
            true
        });
        let mut j = 0;
        while let Some(&(c, _, _)) = add.get(j) {
            let added = add[j..].iter().take_while(|x| x.0 == c).count();
            j += added;
            let (a, b) = (
                self.dir[c as usize] as usize,
                self.dir[c as usize + 1] as usize,
            );
            if b - a > heavy_min {
                let (values, payload) = (&mut self.values[a..b], &mut payload[a..b]);
                let h = match extend.remove(&c) {
                    Some(mut h) => {
                        h.extend(values, payload, a, b - a - added);
                        h
                    }
                    None => Heavy::build(values, payload, a),
                };
                self.heavy.insert(c, h);
            }
        }
        self.heavy.shrink_to_fit();
        self.coarse = coarse_of(&self.dir);
    }
}

#[cfg(test)]
thread_local! {
    /// Merges done cell by cell by [`Segment::absorb`] on this thread, so tests can check that
    /// they happen.
    pub(crate) static ABSORBED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Rings extended in place by a merge (rather than rebuilt), likewise.
    pub(crate) static EXTENDED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Tables other than the primary, at most.
const MAX_TABLES: usize = 3;

/// Tables of a segment, the primary included, at most.
pub(crate) const TABLES: usize = MAX_TABLES + 1;

/// One probed cell: segment (within a batch), table, cell, and its range of entries once the
/// directory has been read.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Probe {
    pub seg: u8,
    pub t: u8,
    pub c: u32,
    pub a: u32,
    pub b: u32,
}

/// Primary cells already scanned to resolve matches of the other tables, for one query and
/// segment: scanning one again would offer nothing new. Past its capacity it forgets, which
/// costs time, never answers.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Resolved {
    cells: [usize; 16],
    n: usize,
}

impl Resolved {
    /// Whether `c` is to be scanned (and remembers it).
    #[inline]
    fn first_visit(&mut self, c: usize) -> bool {
        if self.cells[..self.n].contains(&c) {
            return false;
        }
        if self.n < self.cells.len() {
            self.cells[self.n] = c;
            self.n += 1;
        }
        true
    }
}

/// What scanning a segment's cells for one query needs besides the sink.
#[derive(Debug)]
pub(crate) struct ScanContext<'a> {
    /// The query, as the segment derives it.
    pub qa: &'a Query,
    /// The primary cells already scanned to resolve other tables' matches.
    pub resolved: &'a mut Resolved,
    /// The index's tables.
    pub layout: &'a Layout,
    /// The dead bits.
    pub slots: Slots<'a>,
}

/// The query and what every table of a segment derives from it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Query {
    q: u64,
    qcell0: usize,
    qcells: [usize; MAX_TABLES],
    qparts: [u32; MAX_TABLES],
}

/// Cells larger than this get a ring index: `tuning.heavy_min`, or `heavy_factor` (8) times the
/// average cell when the cells are that full anyway (uniform fingerprints past 2^23 fill every
/// cell evenly, and rings around a meaningless pivot would cost memory for nothing).
fn heavy_threshold(n: usize, bits: u32, tuning: &Tuning) -> usize {
    tuning.heavy_min.max(tuning.heavy_factor * (n >> bits))
}

/// The tables over the live slots of `lo..hi`.
#[derive(Debug, Clone)]
pub(crate) struct Segment {
    lo: usize,
    hi: usize,
    /// Table 0: full fingerprints and their slots (relative to `lo`).
    primary: Table<u64>,
    rels: Vec<u32>,
    /// Tables 1..: 32 stored bits per entry.
    others: Vec<Table<u32>>,
}

impl Segment {
    /// Indexes `entries`, the `(fingerprint, slot)` pairs of the live slots of `lo..hi`
    /// (`hi - lo` must fit in a `u32`).
    pub fn build(
        entries: &[(u64, usize)],
        lo: usize,
        hi: usize,
        layout: &Layout,
        tuning: &Tuning,
    ) -> Self {
        let n = entries.len();
        let fps: Vec<u64> = entries.iter().map(|e| e.0).collect();
        let rels: Vec<u32> = entries.iter().map(|e| (e.1 - lo) as u32).collect();
        let mut specs = layout.tables().iter().copied();
        let spec0 = specs.next().unwrap_or(TableSpec {
            offset: 0,
            width: 64,
            radius: 0,
        });
        let bits = dir_bits(n, spec0.width, tuning.dir_slack, tuning.dir_cap);
        let cells: Vec<u32> = fps.iter().map(|&f| spec0.cell(f, bits) as u32).collect();
        let heavy_min = heavy_threshold(n, bits, tuning);
        let (dir, values, rels, heavy) = csr(&cells, &fps, &rels, bits, heavy_min);
        let primary = Table {
            spec: spec0,
            bits,
            heavy_min,
            coarse: coarse_of(&dir),
            dir,
            values,
            heavy,
        };
        let others = specs
            .enumerate()
            .map(|(i, spec)| {
                let t = i + 1;
                let bits = dir_bits(n, spec.width, tuning.dir_slack, tuning.dir_cap);
                let cells: Vec<u32> = fps.iter().map(|&f| spec.cell(f, bits) as u32).collect();
                let parts: Vec<u64> = fps.iter().map(|&f| u64::from(layout.part(t, f))).collect();
                let heavy_min = heavy_threshold(n, bits, tuning);
                let (dir, values, _, heavy) = csr(&cells, &parts, &vec![(); n], bits, heavy_min);
                Table {
                    spec,
                    bits,
                    heavy_min,
                    coarse: coarse_of(&dir),
                    dir,
                    values: values.into_iter().map(|v| v as u32).collect(),
                    heavy,
                }
            })
            .collect();
        Self {
            lo,
            hi,
            primary,
            rels,
            others,
        }
    }

    /// Adds `newer`, the `(fingerprint, slot)` pairs of the live slots of `self.hi()..hi`
    /// (`hi - self.lo()` must fit in a `u32`), in place. Every table keeps its directory and is
    /// merged cell by cell in one linear pass (only `newer` is sorted), several times cheaper
    /// than [`build`](Self::build). Returns `false`, unchanged, when that is not possible: the
    /// merged segment needs finer directories (it passed a power of two; the stored bits of the
    /// other tables do not hold the next cell bit), or `self` has dead slots to drop
    /// (`has_dead`).
    pub fn absorb(
        &mut self,
        newer: &[(u64, usize)],
        hi: usize,
        has_dead: bool,
        layout: &Layout,
        tuning: &Tuning,
    ) -> bool {
        let n = self.len() + newer.len();
        let same = |t: &TableSpec, bits: u32| {
            dir_bits(n, t.width, tuning.dir_slack, tuning.dir_cap) == bits
        };
        if has_dead
            || !same(&self.primary.spec, self.primary.bits)
            || !self.others.iter().all(|t| same(&t.spec, t.bits))
        {
            return false;
        }
        #[cfg(test)]
        ABSORBED.with(|n| n.set(n.get() + 1));
        let p = &mut self.primary;
        let add: Vec<(u32, u64, u32)> = newer
            .iter()
            .map(|&(f, s)| (p.spec.cell(f, p.bits) as u32, f, (s - self.lo) as u32))
            .collect();
        let add = sort_by_cell(add, p.bits);
        let heavy_min = heavy_threshold(n, p.bits, tuning);
        p.merge_in_place(&mut self.rels, &add, heavy_min);
        drop(add);
        for (i, tab) in self.others.iter_mut().enumerate() {
            let add: Vec<(u32, u32, ())> = newer
                .iter()
                .map(|&(f, _)| (tab.spec.cell(f, tab.bits) as u32, layout.part(i + 1, f), ()))
                .collect();
            let add = sort_by_cell(add, tab.bits);
            let heavy_min = heavy_threshold(n, tab.bits, tuning);
            let mut units = vec![(); tab.values.len()];
            tab.merge_in_place(&mut units, &add, heavy_min);
        }
        self.hi = hi;
        true
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
        self.rels.len()
    }

    /// The `(fingerprint, slot)` pairs indexed, in table-0 order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.primary
            .values
            .iter()
            .zip(&self.rels)
            .map(|(&f, &r)| (f, self.lo + r as usize))
    }

    /// Heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.primary.memory_bytes()
            + self.rels.capacity() * 4
            + self.others.iter().map(Table::memory_bytes).sum::<usize>()
            + self.others.capacity() * size_of::<Table<u32>>()
    }

    /// Number of oversized cells given a ring index, over all tables.
    pub fn heavy_cells(&self) -> usize {
        self.primary.heavy.len() + self.others.iter().map(|t| t.heavy.len()).sum::<usize>()
    }

    /// Offers every live entry of cell `c` of the primary table within the sink's bound.
    #[inline]
    fn scan_primary_cell<S: Sink>(
        &self,
        c: usize,
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let (a, b) = self.primary.range(c);
        if b - a > self.primary.heavy_min
            && let Some(h) = self.primary.heavy.get(&(c as u32))
        {
            return self.scan_primary_heavy(h, q, slots, sink);
        }
        self.scan_primary_range(a, b, q, slots, sink)
    }

    #[inline]
    fn scan_primary_range<S: Sink>(
        &self,
        a: usize,
        b: usize,
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        for i in a..b {
            let d = (self.primary.values[i] ^ q).count_ones();
            if d <= sink.bound() {
                let s = self.lo + self.rels[i] as usize;
                if !slots.is_dead(s) {
                    sink.offer(s, d)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// What every table of this segment derives from query `q`.
    pub fn query(&self, q: u64, layout: &Layout) -> Query {
        let mut qa = Query {
            q,
            qcell0: self.primary.spec.cell(q, self.primary.bits),
            qcells: [0; MAX_TABLES],
            qparts: [0; MAX_TABLES],
        };
        for (i, tab) in self.others.iter().enumerate().take(MAX_TABLES) {
            qa.qcells[i] = tab.spec.cell(q, tab.bits);
            qa.qparts[i] = layout.part(i + 1, q);
        }
        qa
    }

    /// The directory of every table, the primary first.
    pub fn dirs(&self) -> [&[u32]; TABLES] {
        let mut dirs: [&[u32]; TABLES] = [&[]; TABLES];
        dirs[0] = &self.primary.dir;
        for (d, tab) in dirs[1..].iter_mut().zip(&self.others) {
            *d = &tab.dir;
        }
        dirs
    }

    /// Passes every `(table, cell)` the query probes to `push`, the query's own primary cell
    /// first. No memory is read: the directories are read afterwards, all together.
    #[inline]
    pub fn probes(
        &self,
        qa: &Query,
        mut push: impl FnMut(usize, usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let p = &self.primary;
        for_each_probe(qa.qcell0, p.bits, p.spec.radius, |c| push(0, c))?;
        for (i, tab) in self.others.iter().enumerate().take(MAX_TABLES) {
            for_each_probe(qa.qcells[i], tab.bits, tab.spec.radius, |c| push(i + 1, c))?;
        }
        ControlFlow::Continue(())
    }

    /// Loads the first and last entries of every probed cell of table `t` in `run`, so that
    /// their cache misses overlap with one another rather than happening during the scans.
    #[inline]
    pub fn touch(&self, t: usize, run: &[Probe]) -> u64 {
        fn ends<V: Copy + Into<u64>>(values: &[V], run: &[Probe]) -> u64 {
            let mut x = 0u64;
            for pr in run {
                let (a, b) = (pr.a as usize, pr.b as usize);
                if a < b
                    && let (Some(&first), Some(&last)) = (values.get(a), values.get(b - 1))
                {
                    x ^= first.into() ^ last.into();
                }
            }
            x
        }
        match t {
            0 => ends(&self.primary.values, run),
            t => self
                .others
                .get(t - 1)
                .map_or(0, |tab| ends(&tab.values, run)),
        }
    }

    /// Scans every probed cell of table `t` in `run`, as [`scan`](Self::scan) does each: a
    /// first pass over a cell only checks, without branching on each entry, whether any entry
    /// may be within the bound (most cells have none), and only those cells are scanned.
    #[inline]
    pub fn scan_run<S: Sink>(
        &self,
        t: usize,
        run: &[Probe],
        cx: &mut ScanContext<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let qa = cx.qa;
        if t == 0 {
            let values = &self.primary.values;
            for pr in run {
                let cell = values.get(pr.a as usize..pr.b as usize).unwrap_or_default();
                // A cell with rings is scanned through them, never whole.
                let bound = sink.bound();
                if cell.len() > self.primary.heavy_min
                    || cell
                        .iter()
                        .fold(false, |any, &v| any | ((v ^ qa.q).count_ones() <= bound))
                {
                    self.scan(pr, cx, sink)?;
                }
            }
            return ControlFlow::Continue(());
        }
        let i = t - 1;
        let (Some(tab), Some(&qcell), Some(&qpart)) =
            (self.others.get(i), qa.qcells.get(i), qa.qparts.get(i))
        else {
            return ControlFlow::Continue(());
        };
        for pr in run {
            let cell = tab
                .values
                .get(pr.a as usize..pr.b as usize)
                .unwrap_or_default();
            let flipped = (pr.c as usize ^ qcell).count_ones();
            let Some(limit) = sink.bound().checked_sub(flipped) else {
                continue;
            };
            if cell.len() > tab.heavy_min
                || cell
                    .iter()
                    .fold(false, |any, &v| any | ((v ^ qpart).count_ones() <= limit))
            {
                self.scan(pr, cx, sink)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// Scans one probed cell, offering every live entry within the sink's bound that it leads
    /// to.
    #[inline]
    fn scan<S: Sink>(&self, pr: &Probe, cx: &mut ScanContext<'_>, sink: &mut S) -> ControlFlow<()> {
        let ScanContext {
            qa,
            ref mut resolved,
            layout,
            slots,
        } = *cx;
        let p = &self.primary;
        let (c, a, b) = (pr.c as usize, pr.a as usize, pr.b as usize);
        if b <= a {
            return ControlFlow::Continue(());
        }
        if pr.t == 0 {
            if b - a > p.heavy_min
                && let Some(h) = p.heavy.get(&(c as u32))
            {
                return self.scan_primary_heavy(h, qa.q, slots, sink);
            }
            return self.scan_primary_range(a, b, qa.q, slots, sink);
        }
        let i = pr.t as usize - 1;
        let (Some(tab), Some(&qcell), Some(&qpart)) =
            (self.others.get(i), qa.qcells.get(i), qa.qparts.get(i))
        else {
            return ControlFlow::Continue(());
        };
        let flipped = (c ^ qcell).count_ones();
        let mut scan = |a: usize, b: usize, sink: &mut S| {
            for &part in &tab.values[a..b] {
                if flipped + (part ^ qpart).count_ones() <= sink.bound() {
                    // A likely match: find it through the primary table, unless the primary
                    // table's probes cover its cell anyway.
                    let c0 = p
                        .spec
                        .cell_of_substring(layout.substring0_of_part(part), p.bits);
                    if (c0 ^ qa.qcell0).count_ones() > p.spec.radius && resolved.first_visit(c0) {
                        self.scan_primary_cell(c0, qa.q, slots, sink)?;
                    }
                }
            }
            ControlFlow::Continue(())
        };
        if b - a > tab.heavy_min
            && let Some(h) = tab.heavy.get(&(c as u32))
        {
            return h.outward(u64::from(qpart), flipped, sink, scan);
        }
        scan(a, b, sink)
    }

    /// Scans an oversized primary cell ring by ring, outward from the query's ring.
    fn scan_primary_heavy<S: Sink>(
        &self,
        h: &Heavy,
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        h.outward(q, 0, sink, |a, b, sink| {
            self.scan_primary_range(a, b, q, slots, sink)
        })
    }

    /// The range of cell `fp` would be in, in the primary table (the exact-match probe).
    #[inline]
    ///
    /// Also loads the entry where the cell probably starts (the coarse directory's guess), so
    /// that reading the cell after the directory costs no second full cache miss; returns it
    /// to be passed to [`std::hint::black_box`].
    pub fn exact_range(&self, fp: u64) -> ((usize, usize), u64) {
        let p = &self.primary;
        let c = p.spec.cell(fp, p.bits);
        let guess = p.values.get(p.predict(c)).copied().unwrap_or(0);
        (p.range(c), guess)
    }

    /// The slot holding exactly `fp`, if this segment indexes one; `range` is
    /// [`exact_range`](Self::exact_range)`(fp)`.
    pub fn find_in(&self, fp: u64, (a, b): (usize, usize)) -> Option<usize> {
        let p = &self.primary;
        let (a, b) = if b - a > p.heavy_min {
            match p.heavy.get(&(p.spec.cell(fp, p.bits) as u32)) {
                Some(h) => {
                    let (ra, rb) = h.window(fp, 0);
                    let i = ra + p.values[ra..rb].partition_point(|&v| v < fp);
                    (i, (i + 1).min(rb))
                }
                None => (a, b),
            }
        } else {
            (a, b)
        };
        (a..b)
            .find(|&i| p.values[i] == fp)
            .map(|i| self.lo + self.rels[i] as usize)
    }
}
