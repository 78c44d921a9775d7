//! What `silhouette report` shows: the summary, and the figures it does not have — the
//! distance histograms, the replayed decay x threshold grid, the rate over time.

use std::path::Path;

use silhouette_frontier::{Decision, DedupConfig, Store};

use crate::error::{Context, Result};
use crate::replay::{Counts, Judged};
use crate::replay_gaps::Gaps;
use crate::summary::Summary;

/// The decays of the replayed grid (the crawl's own is added when it is not among them).
const GRID_DECAYS: [f64; 5] = [0.6, 0.7, 0.76, 0.8, 0.9];
/// The thresholds of the replayed grid (likewise).
const GRID_THRESHOLDS: [u32; 5] = [4, 5, 6, 7, 8];

/// Everything the report shows.
#[derive(Debug)]
pub struct Report {
    /// The state directory, as given.
    pub state: String,
    /// The crawl's fingerprint parameters (`structure/MODEL/.../decay=D`).
    pub fingerprint: String,
    /// The crawl's `on-duplicate` mode, if recorded.
    pub on_duplicate: Option<String>,
    /// Decisions, hosts, errors and every cluster with its pages.
    pub summary: Summary,
    /// Distances of the judged pages to their kept page.
    pub histogram: Histogram,
    /// Content distances of the content duplicates to their kept page, when there are any.
    pub content_histogram: Option<Histogram>,
    /// Pages kept and clusters at other settings.
    pub grid: Grid,
    /// What the grid could not judge.
    pub gaps: Gaps,
    /// Pages recorded over time.
    pub rate: Rate,
}

impl Report {
    /// Reads `store` (of the state `state`); `decay` and `config` are the crawl's settings.
    pub fn read(store: &Store, state: &Path, decay: f64, config: DedupConfig) -> Result<Self> {
        let summary = crate::summary::summarize(store, true)?;
        let histogram = Histogram::read(store, config.threshold)?;
        let judged = Judged::load(store)?;
        let grid = Grid::replay(&judged, decay, config, &GRID_DECAYS, &GRID_THRESHOLDS)
            .context("cannot replay the crawl for the grid")?;
        Ok(Self {
            state: state.display().to_string(),
            fingerprint: store
                .meta("fingerprint")?
                .unwrap_or_else(|| "unknown".into()),
            on_duplicate: store.meta("dedup.on-duplicate")?,
            summary,
            histogram,
            content_histogram: Histogram::read_content(store, config.content_threshold)?,
            grid,
            gaps: Gaps::of(store)?,
            rate: Rate::read(store)?,
        })
    }
}

/// Records per time bucket, from each record's timestamp: pages per second over the crawl.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rate {
    /// Seconds per bucket (1, or more for long crawls: at most [`Rate::MAX_BUCKETS`] buckets).
    pub bucket_secs: u64,
    /// Records made in each bucket, from the first record on.
    pub counts: Vec<u64>,
}

impl Rate {
    /// Buckets drawn at most.
    pub const MAX_BUCKETS: u64 = 600;

    /// Reads the records' timestamps (`recorded_ms`) of `store`; empty when it has none.
    pub fn read(store: &Store) -> Result<Self> {
        let mut times = Vec::new();
        store.records(None, |r| times.extend(r.page.recorded_ms))?;
        Ok(Self::of(&times))
    }

    /// Buckets the timestamps (ms).
    pub fn of(times: &[u64]) -> Self {
        let (Some(&first), Some(&last)) = (times.iter().min(), times.iter().max()) else {
            return Self::default();
        };
        let span_secs = (last - first) / 1000 + 1;
        let bucket_secs = span_secs.div_ceil(Self::MAX_BUCKETS).max(1);
        let buckets = span_secs.div_ceil(bucket_secs);
        let mut counts = vec![0u64; usize::try_from(buckets).unwrap_or(1).max(1)];
        for &t in times {
            let i = usize::try_from((t - first) / 1000 / bucket_secs).unwrap_or(0);
            if let Some(c) = counts.get_mut(i) {
                *c += 1;
            }
        }
        Self {
            bucket_secs,
            counts,
        }
    }
}

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
        store.records(None, |r| match r.page.decision {
            Decision::Kept => h.kept += 1,
            Decision::ExactDuplicate => h.exact += 1,
            Decision::NearDuplicate => {
                let d = r.page.distance.unwrap_or(0).min(64) as usize;
                h.near[d] += 1;
            }
            _ => {}
        })?;
        Ok(h)
    }

    /// The content duplicates by their content distance (`content_distance`, 0 to 128) to the
    /// kept page whose content they repeat, at the crawl's content threshold; `None` when no
    /// record has one (no content duplicate, or a crawl from before the content signal).
    pub fn read_content(store: &Store, threshold: u32) -> Result<Option<Self>> {
        let mut h = Self {
            near: vec![0; 129],
            threshold,
            ..Self::default()
        };
        let mut any = false;
        store.records(None, |r| {
            if r.page.decision == Decision::Kept {
                h.kept += 1;
            }
            if let Some(d) = r.page.content_distance {
                h.near[d.min(128) as usize] += 1;
                any = true;
            }
        })?;
        Ok(any.then_some(h))
    }

    /// The bars to draw: bucket 0 holds the exact duplicates too; up to the threshold, or
    /// the farthest distance seen (a duplicate beyond the threshold, `far-reach`, or one a
    /// crawl at another threshold recorded).
    pub fn bars(&self) -> Vec<u64> {
        let last = self.near.iter().rposition(|&n| n > 0).unwrap_or(0);
        let len = (last + 1)
            .max(self.threshold as usize + 1)
            .min(self.near.len());
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
    /// crawl's own (`decay`, `config.threshold`) when they are not among them. Each row is
    /// walked from the crawl's threshold ([`Judged::counts`]): a looser threshold keeps a
    /// subset of the pages a stricter one keeps.
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
            .map(|&d| judged.counts(d, config, &thresholds))
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
    fn rate_buckets() {
        assert_eq!(Rate::of(&[]), Rate::default());
        let r = Rate::of(&[1_000, 1_500, 2_100, 4_999]);
        assert_eq!((r.bucket_secs, r.counts), (1, vec![2, 1, 0, 1]));
        // A long crawl: at most MAX_BUCKETS buckets of whole seconds.
        let r = Rate::of(&[0, 3_600_000]);
        assert_eq!(r.bucket_secs, 7);
        assert!(r.counts.len() as u64 <= Rate::MAX_BUCKETS);
        assert_eq!(r.counts.iter().sum::<u64>(), 2);
    }

    #[test]
    fn bars_reach_the_farthest_page_or_the_threshold() {
        check(&[], 0, 2, &[0, 0, 0]);
        check(&[(1, 4)], 2, 1, &[2, 4]);
        check(&[(1, 4)], 2, 3, &[2, 4, 0, 0]);
        check(&[(7, 1)], 0, 1, &[0, 0, 0, 0, 0, 0, 0, 1]);
        check(&[(64, 1)], 0, 8, &{
            let mut v = vec![0; 65];
            v[64] = 1;
            v
        });
        // Content distances reach 128 bits.
        let mut h = Histogram {
            near: vec![0; 129],
            threshold: 6,
            ..Histogram::default()
        };
        h.near[100] = 2;
        assert_eq!(h.bars().len(), 101);
        h.near[100] = 0;
        assert_eq!(h.bars(), vec![0; 7]);
    }
}
