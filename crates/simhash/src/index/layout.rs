//! Which substrings of the 64 bits each table keys on, at which probe radius, for a given `k`;
//! and the enumeration of the cells a query probes.
//!
//! Exactness rests on the generalised pigeonhole principle (Norouzi et al. 2012): split the 64
//! bits into substrings `1..=m` and give table `i` a probe radius `r_i`. If every substring of
//! `a` and `b` differed in more than `r_i` bits, then `d(a, b) >= Σ (r_i + 1)`. So as long as
//! `Σ (r_i + 1) >= k + 1`, every pair within `k` agrees to within `r_i` bits on some substring
//! `i`, and probing every key within `r_i` of the query's substring in table `i` finds it.

use std::ops::ControlFlow;

/// The largest threshold `k` a [`NearIndex`](crate::NearIndex) supports.
pub const MAX_K: u32 = 8;

/// One table: bits `offset..offset + width` of the fingerprint, probed at `radius`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TableSpec {
    /// Lowest bit of the substring.
    pub offset: u32,
    /// Number of bits, 1..=64.
    pub width: u32,
    /// Probe radius within the substring.
    pub radius: u32,
}

impl TableSpec {
    /// The substring as an integer of `width` bits.
    #[inline]
    pub fn substring(self, fp: u64) -> u64 {
        let shifted = fp >> self.offset;
        if self.width >= 64 {
            shifted
        } else {
            shifted & ((1u64 << self.width) - 1)
        }
    }

    /// The cell of `fp` in a directory of `bits` bits: the top `bits` bits of the substring.
    #[inline]
    pub fn cell(self, fp: u64, bits: u32) -> usize {
        self.cell_of_substring(self.substring(fp), bits)
    }

    /// The cell of a substring value in a directory of `bits` bits.
    #[inline]
    pub fn cell_of_substring(self, sub: u64, bits: u32) -> usize {
        if bits == 0 {
            return 0;
        }
        // `bits <= width` is an invariant of every directory, so the shift is below 64.
        (sub >> (self.width - bits)) as usize
    }
}

/// The tables for one `k`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    tables: Vec<TableSpec>,
}

const fn t(offset: u32, width: u32, radius: u32) -> TableSpec {
    TableSpec {
        offset,
        width,
        radius,
    }
}

impl Layout {
    /// The layout for `k`, or `None` above [`MAX_K`].
    ///
    /// | k | substrings (bits) | radii | Σ(r+1) | cells probed at full width |
    /// |---|---|---|---|---|
    /// | 0 | 64 | 0 | 1 | 1 |
    /// | 1 | 32/32 | 0/0 | 2 | 2 |
    /// | 2 | 21/21/22 | 0/0/0 | 3 | 3 |
    /// | 3 | 32/32 | 1/1 | 4 | 66 |
    /// | 4 | 21/21/22 | 1/1/0 | 5 | 45 |
    /// | 5 | 21/21/22 | 1/1/1 | 6 | 67 |
    /// | 6 | 21/21/22 | 2/1/1 | 7 | 277 |
    /// | 7 | 21/21/22 | 2/2/1 | 8 | 487 |
    /// | 8 | 21/21/22 | 2/2/2 | 9 | 718 |
    pub fn for_k(k: u32) -> Option<Self> {
        let tables = match k {
            0 => vec![t(0, 64, 0)],
            1 => vec![t(0, 32, 0), t(32, 32, 0)],
            2 => vec![t(0, 21, 0), t(21, 21, 0), t(42, 22, 0)],
            3 => vec![t(0, 32, 1), t(32, 32, 1)],
            4 => vec![t(0, 21, 1), t(21, 21, 1), t(42, 22, 0)],
            5 => vec![t(0, 21, 1), t(21, 21, 1), t(42, 22, 1)],
            6 => vec![t(0, 21, 2), t(21, 21, 1), t(42, 22, 1)],
            7 => vec![t(0, 21, 2), t(21, 21, 2), t(42, 22, 1)],
            8 => vec![t(0, 21, 2), t(21, 21, 2), t(42, 22, 2)],
            _ => return None,
        };
        Some(Self { tables })
    }

    /// The tables, in probe order. Table 0 doubles as the exact-match layer.
    pub fn tables(&self) -> &[TableSpec] {
        &self.tables
    }

    /// The 32 bits that table `t >= 1` stores of each fingerprint instead of a slot number: all
    /// of substring 0 (so the primary table's cell can be found from them), then the top bits
    /// of the remaining substring. Substring 0 sits in the low bits.
    #[inline]
    pub fn part(&self, t: usize, fp: u64) -> u32 {
        let Some(first) = self.tables.first() else {
            return 0;
        };
        let low = first.substring(fp) as u32;
        let rest = 32u32.saturating_sub(first.width);
        if rest == 0 {
            return low;
        }
        match self
            .tables
            .iter()
            .enumerate()
            .find(|&(i, _)| i != 0 && i != t)
        {
            Some((_, other)) => {
                let top = (other.substring(fp) >> (other.width - rest)) as u32;
                low | top << first.width
            }
            None => low,
        }
    }

    /// Substring 0 of a fingerprint, recovered from its [`part`](Self::part).
    #[inline]
    pub fn substring0_of_part(&self, part: u32) -> u64 {
        let w = self.tables.first().map_or(32, |t| t.width).min(32);
        if w >= 32 {
            u64::from(part)
        } else {
            u64::from(part & ((1u32 << w) - 1))
        }
    }
}

/// Calls `visit` for every cell within `radius` bit flips of `cell` in a `bits`-bit directory.
///
/// Flips below the directory's resolution land in the query's own cell, which is visited once.
/// Stops early when `visit` breaks.
#[inline]
pub(crate) fn for_each_probe(
    cell: usize,
    bits: u32,
    radius: u32,
    mut visit: impl FnMut(usize) -> ControlFlow<()>,
) -> ControlFlow<()> {
    visit(cell)?;
    if radius >= 1 {
        for i in 0..bits {
            let a = cell ^ (1usize << i);
            visit(a)?;
            if radius >= 2 {
                for j in 0..i {
                    visit(a ^ (1usize << j))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// Directory bits for a structure of `n` entries over a `width`-bit substring: about 4 to 8
/// entries per cell, at most `width` and at most `cap`.
pub(crate) fn dir_bits(n: usize, width: u32, slack: u32, cap: u32) -> u32 {
    let log = usize::BITS - 1 - n.max(1).leading_zeros();
    log.saturating_sub(slack).min(width).min(cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(k: u32, probes: usize) {
        let layout = Layout::for_k(k).expect("supported k");
        let covered: u32 = layout.tables().iter().map(|t| t.width).sum();
        assert_eq!(covered, 64, "k={k} covers every bit once");
        let mut end = 0;
        for t in layout.tables() {
            assert_eq!(t.offset, end, "k={k}: contiguous substrings");
            end += t.width;
        }
        let slack: u32 = layout.tables().iter().map(|t| t.radius + 1).sum();
        assert!(
            slack > k,
            "k={k}: pigeonhole Σ(r+1) = {slack} must exceed k"
        );
        let mut n = 0;
        for t in layout.tables() {
            let bits = t.width.min(22);
            let _ = for_each_probe(0, bits, t.radius, |_| {
                n += 1;
                ControlFlow::Continue(())
            });
        }
        let full: usize = layout
            .tables()
            .iter()
            .map(|t| {
                let w = t.width as usize;
                match t.radius {
                    0 => 1,
                    1 => 1 + w,
                    _ => 1 + w + w * (w - 1) / 2,
                }
            })
            .sum();
        assert_eq!(full, probes, "k={k}: probes at full width");
        assert!(n <= full);
    }

    #[test]
    fn layouts_are_exact_and_probe_counts_match_the_docs() {
        for (k, probes) in [
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 66),
            (4, 45),
            (5, 67),
            (6, 277),
            (7, 487),
            (8, 718),
        ] {
            check(k, probes);
        }
        assert_eq!(Layout::for_k(9), None);
    }

    #[test]
    fn parts_hold_substring_0_and_32_bits_in_all() {
        for k in 1..=8 {
            let layout = Layout::for_k(k).expect("supported k");
            let first = layout.tables()[0];
            for t in 1..layout.tables().len() {
                // Each bit of the fingerprint changes at most one bit of the part; 32 do.
                let moved = (0..64)
                    .filter(|&b| layout.part(t, 1 << b) != 0)
                    .inspect(|&b| assert_eq!(layout.part(t, 1 << b).count_ones(), 1))
                    .count();
                assert_eq!(moved, 32, "k={k} t={t}");
                let fp = 0x0123_4567_89ab_cdefu64;
                let sub0 = layout.substring0_of_part(layout.part(t, fp));
                assert_eq!(sub0, first.substring(fp), "k={k} t={t}");
                // No bit of table t's own substring is stored.
                let own = layout.tables()[t];
                assert_eq!(
                    layout.part(t, fp & !(((1u64 << own.width) - 1) << own.offset)),
                    layout.part(t, fp)
                );
            }
        }
    }

    #[test]
    fn probes_are_distinct_and_within_radius() {
        let mut seen = Vec::new();
        let _ = for_each_probe(0b1011, 6, 2, |c| {
            seen.push(c);
            ControlFlow::Continue(())
        });
        assert_eq!(seen.len(), 1 + 6 + 15);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 22);
        assert!(
            seen.iter()
                .all(|c| (c ^ 0b1011).count_ones() <= 2 && *c < 64)
        );
    }

    #[test]
    fn cells_take_the_top_bits_of_the_substring() {
        let spec = t(21, 21, 1);
        let fp = 0x1f_ffffu64 << 21 | 0x15;
        assert_eq!(spec.substring(fp), 0x1f_ffff);
        assert_eq!(spec.cell(fp, 3), 0b111);
        assert_eq!(spec.cell(fp, 0), 0);
        assert_eq!(t(0, 64, 0).cell(u64::MAX, 20), (1 << 20) - 1);
        assert_eq!(dir_bits(10_000_000, 21, 2, 30), 21);
        assert_eq!(dir_bits(1_000_000, 21, 2, 30), 17);
        assert_eq!(dir_bits(0, 21, 2, 30), 0);
    }
}
