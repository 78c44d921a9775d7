//! The mutable delta: the newest slots, indexed by chained hash directories (one per table), so
//! an insert costs O(tables) and never moves existing entries. When it fills up, or when one of
//! its chains grows long (skewed input), the index merges it into the newest segment.
//!
//! Every query probes the delta, so its probes must be cheap: besides its chains, each table
//! keeps a bitmap of the occupied cells at a resolution [`FINE`] bits finer than its chains
//! (16 times more cells than entries, a few hundred KB at most, cache-resident). A query probes
//! the bitmap at that resolution and walks only the chains holding a set bit: for a query with
//! no near fingerprint in the delta, about 6% of probes.

use std::ops::ControlFlow;

use super::layout::{Layout, TableSpec, for_each_probe};
use super::search::{Sink, Slots};

/// Occupied probed cells whose heads are read before their chains are walked, at most.
const HEADS: usize = 64;
/// Probed fine cells whose bitmap words are read together.
const PROBES: usize = 64;

/// The occupancy bitmaps have `FINE` more bits of resolution than the chains (capped at the
/// substring's width).
const FINE: u32 = 4;

/// One table: `heads[c]` is 1 + the newest entry of cell `c` (0: empty) and the length of its
/// chain, side by side so that an insert touches one cache line; `next[i]` links entry `i` to
/// the previous entry of its cell likewise. Bit `f` of `occupied` is set when some
/// entry lies in cell `f` of the finer `fine`-bit resolution.
#[derive(Debug, Clone)]
struct DeltaTable {
    spec: TableSpec,
    bits: u32,
    heads: Vec<[u32; 2]>,
    next: Vec<u32>,
    fine: u32,
    occupied: Vec<u64>,
}

impl DeltaTable {
    fn new(spec: TableSpec, bits: u32) -> Self {
        let fine = (bits + FINE).min(spec.width);
        Self {
            spec,
            bits,
            heads: vec![[0; 2]; 1 << bits],
            next: Vec::new(),
            fine,
            occupied: vec![0; (1usize << fine).div_ceil(64)],
        }
    }

    /// Marks the fine cell of `fp` occupied.
    #[inline]
    fn occupy(&mut self, fp: u64) {
        let f = self.spec.cell(fp, self.fine);
        if let Some(w) = self.occupied.get_mut(f >> 6) {
            *w |= 1 << (f & 63);
        }
    }

    /// Whether some entry may lie in fine cell `f`.
    #[inline]
    fn is_occupied(&self, f: usize) -> bool {
        self.occupied
            .get(f >> 6)
            .is_some_and(|w| (w >> (f & 63)) & 1 == 1)
    }
}

/// Chains found by a search and not walked yet: `(1 + head entry, table)`.
#[derive(Debug)]
struct Pending {
    heads: [(u32, u8); HEADS],
    n: usize,
}

/// Directory bits of an empty delta: 3 tables of `2 × 4 × 2^8` bytes, 6 KB in all.
const START_BITS: u32 = 8;

/// Slots `lo..lo + len` of the index.
#[derive(Debug, Clone)]
pub(crate) struct Delta {
    lo: usize,
    len: usize,
    /// Directory bits never exceed this (nor a table's width).
    max_bits: u32,
    /// Fingerprints of slots `lo..lo + len`.
    fps: Vec<u64>,
    longest: u32,
    tables: Vec<DeltaTable>,
}

impl Delta {
    /// An empty delta starting at slot `lo`, with directories of at most `bits` bits. They
    /// start at 2^8 cells and double (a rehash, amortised O(1) per insert) whenever the delta
    /// holds more slots than cells, so a small index holds small directories.
    pub fn new(layout: &Layout, bits: u32, lo: usize) -> Self {
        let max_bits = bits;
        let tables = layout
            .tables()
            .iter()
            .map(|&spec| DeltaTable::new(spec, START_BITS.min(max_bits).min(spec.width)))
            .collect();
        Self {
            lo,
            len: 0,
            max_bits,
            fps: Vec::new(),
            longest: 0,
            tables,
        }
    }

    /// First slot held.
    pub fn lo(&self) -> usize {
        self.lo
    }

    /// Number of slots held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Length of the longest chain.
    pub fn longest(&self) -> u32 {
        self.longest
    }

    /// Appends slot `lo + len`, whose fingerprint is `fp`.
    pub fn push(&mut self, fp: u64) {
        let entry = self.len as u32 + 1;
        for tab in &mut self.tables {
            let c = tab.spec.cell(fp, tab.bits);
            let head = &mut tab.heads[c];
            tab.next.push(head[0]);
            *head = [entry, head[1] + 1];
            self.longest = self.longest.max(head[1]);
            tab.occupy(fp);
        }
        self.fps.push(fp);
        self.len += 1;
        let grow = self
            .tables
            .iter()
            .any(|t| self.len > 1 << t.bits && t.bits < self.max_bits.min(t.spec.width));
        if grow {
            self.grow();
        }
    }

    /// Doubles every directory that may still grow and re-links all entries.
    fn grow(&mut self) {
        self.longest = 0;
        for tab in &mut self.tables {
            let bits = (tab.bits + 1).min(self.max_bits).min(tab.spec.width);
            let next = std::mem::take(&mut tab.next);
            *tab = DeltaTable::new(tab.spec, bits);
            tab.next = next;
            for (i, &fp) in self.fps.iter().enumerate() {
                let c = tab.spec.cell(fp, tab.bits);
                let head = &mut tab.heads[c];
                tab.next[i] = head[0];
                *head = [i as u32 + 1, head[1] + 1];
                self.longest = self.longest.max(head[1]);
                tab.occupy(fp);
            }
        }
    }

    /// The `(fingerprint, slot)` pairs held.
    pub fn entries(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        self.fps.iter().enumerate().map(|(i, &f)| (f, self.lo + i))
    }

    /// Empties the delta and restarts it at slot `lo`. Costs O(len), not O(directory).
    pub fn clear(&mut self, lo: usize) {
        for &fp in &self.fps {
            for tab in &mut self.tables {
                let c = tab.spec.cell(fp, tab.bits);
                tab.heads[c] = [0; 2];
                let f = tab.spec.cell(fp, tab.fine);
                if let Some(w) = tab.occupied.get_mut(f >> 6) {
                    *w = 0;
                }
            }
        }
        for tab in &mut self.tables {
            tab.next.clear();
        }
        self.fps.clear();
        self.lo = lo;
        self.len = 0;
        self.longest = 0;
    }

    /// Offers every slot in a cell within some table's radius of `q`'s.
    ///
    /// Probes run at the bitmaps' finer resolution (a cell within the radius at the chains'
    /// resolution holds all the fine cells within it); only the chains holding an occupied
    /// fine cell are walked. Their heads are read first, then the first entry of every chain,
    /// then the chains are walked, so that cache misses overlap.
    pub fn search<S: Sink>(&self, q: u64, slots: Slots<'_>, sink: &mut S) -> ControlFlow<()> {
        if self.len == 0 {
            return ControlFlow::Continue(());
        }
        let mut pending = Pending {
            heads: [(0, 0); HEADS],
            n: 0,
        };
        // Probed fine cells, whose bitmap words are then read in one branch-free loop so that
        // the loads overlap (a branch on each bit would be mispredicted at every set one).
        let mut fine = [0u32; PROBES];
        for (t, tab) in self.tables.iter().enumerate() {
            let mut last = usize::MAX;
            let mut m = 0;
            let fq = tab.spec.cell(q, tab.fine);
            for_each_probe(fq, tab.fine, tab.spec.radius, |f| {
                fine[m] = f as u32;
                m += 1;
                if m < PROBES {
                    return ControlFlow::Continue(());
                }
                m = 0;
                let at = (tab, t, &mut last);
                self.occupied(at, &fine, &mut pending, q, slots, sink)
            })?;
            self.occupied(
                (tab, t, &mut last),
                &fine[..m],
                &mut pending,
                q,
                slots,
                sink,
            )?;
        }
        self.walk(&pending.heads[..pending.n], q, slots, sink)
    }

    /// Adds to `pending` the chain of every fine cell of `fine` (probed in table `t`) whose bit
    /// is set, skipping `last`, the chain added just before; walks `pending` when it is full.
    #[inline]
    fn occupied<S: Sink>(
        &self,
        (tab, t, last): (&DeltaTable, usize, &mut usize),
        fine: &[u32],
        pending: &mut Pending,
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let mut words = [0u64; PROBES];
        for (w, &f) in words.iter_mut().zip(fine) {
            *w = tab.occupied.get(f as usize >> 6).copied().unwrap_or(0);
        }
        let shift = tab.fine - tab.bits;
        for (&w, &f) in words.iter().zip(fine) {
            let (f, c) = (f as usize, f as usize >> shift);
            if (w >> (f & 63)) & 1 == 0 || c == *last {
                continue;
            }
            *last = c;
            if pending.n == HEADS {
                pending.n = 0;
                self.walk(&pending.heads, q, slots, sink)?;
            }
            pending.heads[pending.n] = (tab.heads.get(c).map_or(0, |h| h[0]), t as u8);
            pending.n += 1;
        }
        ControlFlow::Continue(())
    }

    /// Walks the chains starting at `heads` (`(1 + entry, table)`, 0 for an empty cell).
    #[inline]
    fn walk<S: Sink>(
        &self,
        heads: &[(u32, u8)],
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        let mut touch = 0u64;
        for &(e, _) in heads {
            touch ^= self
                .fps
                .get((e as usize).wrapping_sub(1))
                .copied()
                .unwrap_or(0);
        }
        std::hint::black_box(touch);
        for &(head, t) in heads {
            let Some(tab) = self.tables.get(usize::from(t)) else {
                continue;
            };
            let mut e = head;
            while e != 0 {
                let i = e as usize - 1;
                let d = (self.fps[i] ^ q).count_ones();
                if d <= sink.bound() && !slots.is_dead(self.lo + i) {
                    sink.offer(self.lo + i, d)?;
                }
                e = tab.next[i];
            }
        }
        ControlFlow::Continue(())
    }

    /// The slot holding exactly `fp`, if the delta holds one.
    pub fn find(&self, fp: u64) -> Option<usize> {
        let tab = self.tables.first()?;
        if !tab.is_occupied(tab.spec.cell(fp, tab.fine)) {
            return None;
        }
        let mut e = tab.heads[tab.spec.cell(fp, tab.bits)][0];
        while e != 0 {
            let i = e as usize - 1;
            if self.fps[i] == fp {
                return Some(self.lo + i);
            }
            e = tab.next[i];
        }
        None
    }

    /// Heap bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.tables
            .iter()
            .map(|t| (2 * t.heads.capacity() + t.next.capacity()) * 4 + t.occupied.capacity() * 8)
            .sum::<usize>()
            + self.fps.capacity() * 8
            + self.tables.capacity() * size_of::<DeltaTable>()
    }
}
