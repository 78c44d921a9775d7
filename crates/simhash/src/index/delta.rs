//! The mutable delta: the newest slots, indexed by chained hash directories (one per table), so
//! an insert costs O(tables) and never moves existing entries. When it fills up, or when one of
//! its chains grows long (skewed input), the index turns it into an immutable segment.

use std::ops::ControlFlow;

use super::layout::{Layout, TableSpec, for_each_probe};
use super::search::{Sink, Slots};

/// Non-empty probed cells read before their chains are walked.
const HEADS: usize = 64;

/// One table: `heads[c]` is 1 + the newest entry of cell `c` (0: empty); `next[i]` likewise
/// links entry `i` to the previous entry of its cell.
#[derive(Debug, Clone)]
struct DeltaTable {
    spec: TableSpec,
    bits: u32,
    heads: Vec<u32>,
    lens: Vec<u32>,
    next: Vec<u32>,
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
            .map(|&spec| {
                let bits = START_BITS.min(max_bits).min(spec.width);
                DeltaTable {
                    spec,
                    bits,
                    heads: vec![0; 1 << bits],
                    lens: vec![0; 1 << bits],
                    next: Vec::new(),
                }
            })
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
            tab.next.push(tab.heads[c]);
            tab.heads[c] = entry;
            tab.lens[c] += 1;
            self.longest = self.longest.max(tab.lens[c]);
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
            tab.bits = (tab.bits + 1).min(self.max_bits).min(tab.spec.width);
            tab.heads = vec![0; 1 << tab.bits];
            tab.lens = vec![0; 1 << tab.bits];
            for (i, &fp) in self.fps.iter().enumerate() {
                let c = tab.spec.cell(fp, tab.bits);
                tab.next[i] = tab.heads[c];
                tab.heads[c] = i as u32 + 1;
                tab.lens[c] += 1;
                self.longest = self.longest.max(tab.lens[c]);
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
                tab.heads[c] = 0;
                tab.lens[c] = 0;
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
    pub fn search<S: Sink>(&self, q: u64, slots: Slots<'_>, sink: &mut S) -> ControlFlow<()> {
        if self.len == 0 {
            return ControlFlow::Continue(());
        }
        for tab in &self.tables {
            self.scan(tab, q, slots, sink)?;
        }
        ControlFlow::Continue(())
    }

    #[inline]
    fn scan<S: Sink>(
        &self,
        tab: &DeltaTable,
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        // Read every probed head first (independent loads that overlap), then walk.
        let cell = tab.spec.cell(q, tab.bits);
        let mut heads = [0u32; HEADS];
        let mut n = 0;
        for_each_probe(cell, tab.bits, tab.spec.radius, |c| {
            let e = tab.heads[c];
            if e != 0 {
                heads[n] = e;
                n += 1;
                if n == HEADS {
                    n = 0;
                    self.walk(tab, &heads, q, slots, sink)?;
                }
            }
            ControlFlow::Continue(())
        })?;
        self.walk(tab, &heads[..n], q, slots, sink)
    }

    #[inline]
    fn walk<S: Sink>(
        &self,
        tab: &DeltaTable,
        heads: &[u32],
        q: u64,
        slots: Slots<'_>,
        sink: &mut S,
    ) -> ControlFlow<()> {
        for &head in heads {
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
        let mut e = tab.heads[tab.spec.cell(fp, tab.bits)];
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
            .map(|t| (t.heads.capacity() + t.lens.capacity() + t.next.capacity()) * 4)
            .sum::<usize>()
            + self.fps.capacity() * 8
            + self.tables.capacity() * size_of::<DeltaTable>()
    }
}
