//! The figures of the report that the summary does not have: the distance histogram and the
//! replayed decay x threshold grid.

use anyhow::Result;
use silhouette_frontier::{DedupConfig, Store};

use crate::crawl::replay::{Counts, Judged};

/// How far each judged page is from the kept page it was matched to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    /// Near-duplicates by stored distance in bits (index = distance, 0 to 64).
    pub near: Vec<u64>,
    /// Exact duplicates (byte-identical: distance 0, drawn in bucket 0).
    pub exact: u64,
    /// Kept pages (counted apart: they were matched to no page).
    pub kept: u64,
    /// The crawl's threshold in bits.
    pub threshold: u32,
}

impl Histogram {
    /// Reads the stored decisions and distances of `store`.
    pub fn read(store: &Store, threshold: u32) -> Result<Self> {
        let mut h = Self {
            near: vec![0; 65],
            threshold,
            ..Self::default()
        };
        store.records(None, |r| match &*r.page.decision {
            "kept" => h.kept += 1,
            "exact-duplicate" => h.exact += 1,
            "near-duplicate" => {
                let d = r.page.distance.unwrap_or(0).min(64) as usize;
                h.near[d] += 1;
            }
            _ => {}
        })?;
        Ok(h)
    }

    /// The bars to draw: bucket 0 holds the exact duplicates too; up to the farthest distance
    /// seen or twice the threshold, whichever is more.
    pub fn bars(&self) -> Vec<u64> {
        let last = self.near.iter().rposition(|&n| n > 0).unwrap_or(0);
        let len = (last + 1).max(2 * self.threshold as usize + 2).min(65);
        let mut bars = self.near[..len].to_vec();
        bars[0] += self.exact;
        bars
    }
}

/// Pages kept and clusters at each decay and threshold, replayed offline.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Row labels.
    pub decays: Vec<f64>,
    /// Column labels.
    pub thresholds: Vec<u32>,
    /// `cells[row][column]`.
    pub cells: Vec<Vec<Counts>>,
    /// The crawl's decay and threshold (the marked cell).
    pub current: (f64, u32),
    /// Pages judged in each cell.
    pub pages: usize,
}

impl Grid {
    /// Replays `judged` at every decay of `decays` and threshold of `thresholds`, plus the
    /// crawl's own (`decay`, `config.threshold`) when they are not among them.
    pub fn replay(
        judged: &Judged,
        decay: f64,
        config: DedupConfig,
        decays: &[f64],
        thresholds: &[u32],
    ) -> Result<Self> {
        let mut decays = decays.to_vec();
        if !decays.contains(&decay) {
            decays.push(decay);
        }
        decays.sort_by(f64::total_cmp);
        let mut thresholds = thresholds.to_vec();
        if !thresholds.contains(&config.threshold) {
            thresholds.push(config.threshold);
        }
        thresholds.sort_unstable();
        let cells = decays
            .iter()
            .map(|&d| {
                thresholds
                    .iter()
                    .map(|&threshold| {
                        judged.counts(
                            d,
                            DedupConfig {
                                threshold,
                                ..config
                            },
                        )
                    })
                    .collect::<Result<Vec<_>>>()
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            decays,
            thresholds,
            cells,
            current: (decay, config.threshold),
            pages: judged.len(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(near: &[(usize, u64)], exact: u64, threshold: u32, expected: &[u64]) {
        let mut h = Histogram {
            near: vec![0; 65],
            exact,
            kept: 3,
            threshold,
        };
        for &(d, n) in near {
            h.near[d] = n;
        }
        assert_eq!(h.bars(), expected);
    }

    #[test]
    fn bars_reach_the_farthest_page_or_twice_the_threshold() {
        check(&[], 0, 2, &[0, 0, 0, 0, 0, 0]);
        check(&[(1, 4)], 2, 1, &[2, 4, 0, 0]);
        check(&[(7, 1)], 0, 1, &[0, 0, 0, 0, 0, 0, 0, 1]);
        check(&[(64, 1)], 0, 8, &{
            let mut v = vec![0; 65];
            v[64] = 1;
            v
        });
    }
}
