//! A replay that moves one way: from the crawl's own threshold and min-similarity to the
//! settings asked for, one step at a time, each step judging again only what the step before
//! it (toward the crawl) kept, or keeping all of that and adding what it keeps itself.
//!
//! A crawl decides by leader clustering: a page joins the first page kept of a cluster, in
//! crawl order, with what its host has learned by then. Judged from scratch, a looser setting
//! can merge two clusters early and leave later pages near neither first page, so it can keep
//! *more* pages (ALGORITHM.md §3, "Session 32"). Walked step by step from the crawl's settings,
//! a looser step keeps a subset of the stricter step before it and a stricter step a superset
//! of the looser one, whatever each step learns: the kept pages move one way, and at the
//! crawl's own settings the replay is the crawl.
//!
//! The settings form a lattice: every whole threshold, and min-similarities in steps of 0.01
//! (plus the crawl's own value). A cell is judged from its neighbours one step nearer the
//! crawl's cell: the stricter ones bound what it may keep (it judges only pages they all
//! kept), the looser ones what it must keep (every page one of them kept).

use std::collections::HashMap;

use silhouette_frontier::Decision;

use crate::error::{Error, Result};

/// One page's decision at one setting of a replay.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Outcome {
    /// The page.
    pub id: u64,
    /// What it is now.
    pub decision: Decision,
    /// The page whose cluster it is in: its own id, its cluster's first page, or the kept
    /// page it duplicates.
    pub cluster: u64,
    /// Hamming distance to the kept page it duplicates, for a near duplicate.
    pub distance: Option<u32>,
    /// Path-set similarity to it, when summaries confirmed the match.
    pub similarity: Option<f64>,
}

impl Outcome {
    fn kept(&self) -> bool {
        self.decision == Decision::Kept
    }
}

/// A threshold and a min-similarity: the crawl's, where a replay starts
/// ([`Setting::of_recorded`]), or one cell of the lattice it walks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    /// The dedup threshold in bits.
    pub threshold: u32,
    /// The path-set similarity a near match must reach (none: not confirmed).
    pub min_similarity: Option<f64>,
}

impl Setting {
    /// The threshold and min-similarity of `config`.
    pub const fn of(config: &silhouette_frontier::DedupConfig) -> Self {
        Self {
            threshold: config.threshold,
            min_similarity: config.min_similarity,
        }
    }
}

/// Steps of the min-similarity lattice per unit.
const SIMILARITY_STEPS: i64 = 100;

/// The lattice's similarity nearest `to`: a multiple of 0.01, or `from` itself when that is
/// nearer (ties go to `from`). Nondecreasing in `to`, so a lower value asked never lands on a
/// higher one.
pub(crate) fn snap(from: f64, to: f64) -> f64 {
    let k = (to * SIMILARITY_STEPS as f64)
        .round()
        .clamp(0.0, SIMILARITY_STEPS as f64);
    let grid = k / SIMILARITY_STEPS as f64;
    if (to - from).abs() <= (to - grid).abs() {
        from
    } else {
        grid
    }
}

/// The similarities from `from` to `to` (snapped), both ends included, in order.
fn similarity_steps(from: f64, to: f64) -> Vec<f64> {
    let to = snap(from, to);
    let between = |x: f64| {
        let (lo, hi) = if from < to { (from, to) } else { (to, from) };
        x > lo + 1e-9 && x < hi - 1e-9
    };
    let mut inner: Vec<f64> = (0..=SIMILARITY_STEPS)
        .map(|k| k as f64 / SIMILARITY_STEPS as f64)
        .filter(|&x| between(x))
        .collect();
    if to < from {
        inner.reverse();
    }
    let mut steps = vec![from];
    steps.extend(inner);
    if (to - from).abs() > 1e-9 {
        steps.push(to);
    }
    steps
}

/// The thresholds from `from` to `to`, both ends included, in order.
fn threshold_steps(from: u32, to: u32) -> Vec<u32> {
    if from <= to {
        (from..=to).collect()
    } else {
        (to..=from).rev().collect()
    }
}

/// The setting a walk from `start` toward `to` ends on: `to`, its similarity snapped to the
/// lattice.
pub(crate) fn landing(start: Setting, to: Setting) -> Setting {
    Setting {
        threshold: to.threshold,
        min_similarity: match (start.min_similarity, to.min_similarity) {
            (Some(from), Some(to)) => Some(snap(from, to)),
            (_, to) => to,
        },
    }
}

/// Judges the pages at `setting`, only those `among` holds (by their index in crawl order):
/// one entry per page, `None` for a page not judged.
pub(crate) type Judge<'a> =
    dyn FnMut(Setting, &dyn Fn(usize) -> bool) -> Result<Vec<Option<Outcome>>> + 'a;

/// Walks the lattice from `start` (the crawl's settings, judged from scratch) to `to`, calls
/// `visit` on every cell, and returns the last cell's outcomes. With no min-similarity at
/// either end, only the threshold is walked (at `to`'s similarity).
pub(crate) fn walk(
    start: Setting,
    to: Setting,
    judge: &mut Judge<'_>,
    visit: &mut dyn FnMut(Setting, &[Outcome]),
) -> Result<Vec<Outcome>> {
    let thresholds = threshold_steps(start.threshold, to.threshold);
    let similarities: Vec<Option<f64>> = match (start.min_similarity, to.min_similarity) {
        (Some(from), Some(to)) => similarity_steps(from, to).into_iter().map(Some).collect(),
        (_, to) => vec![to],
    };
    let threshold_loosens = to.threshold > start.threshold;
    let similarity_loosens = similarities.len() > 1 && similarities[1] < similarities[0];
    let mut before: Vec<Vec<Outcome>> = Vec::new();
    for (a, &threshold) in thresholds.iter().enumerate() {
        let mut row: Vec<Vec<Outcome>> = Vec::with_capacity(similarities.len());
        for (b, &similarity) in similarities.iter().enumerate() {
            let setting = Setting {
                threshold,
                min_similarity: similarity,
            };
            let mut stricter: Vec<&[Outcome]> = Vec::new();
            let mut looser: Vec<&[Outcome]> = Vec::new();
            if let Some(n) = before.get(b).filter(|_| a > 0) {
                if threshold_loosens {
                    stricter.push(n);
                } else {
                    looser.push(n);
                }
            }
            if let Some(n) = b.checked_sub(1).and_then(|b| row.get(b)) {
                if similarity_loosens {
                    stricter.push(n);
                } else {
                    looser.push(n);
                }
            }
            let cell = step(setting, judge, &stricter, &looser)?;
            visit(setting, &cell);
            row.push(cell);
        }
        before = row;
    }
    Ok(before.pop().unwrap_or_default())
}

/// One cell: the pages every stricter neighbour kept are judged again at `setting`; a page a
/// looser neighbour kept stays kept; any other page keeps its decision from a stricter
/// neighbour that dropped it. Then every dropped page points at a page kept here.
fn step(
    setting: Setting,
    judge: &mut Judge<'_>,
    stricter: &[&[Outcome]],
    looser: &[&[Outcome]],
) -> Result<Vec<Outcome>> {
    let among = |i: usize| stricter.iter().all(|s| s.get(i).is_some_and(Outcome::kept));
    let judged = judge(setting, &among)?;
    let mut cell = Vec::with_capacity(judged.len());
    for (i, now) in judged.into_iter().enumerate() {
        let outcome = looser
            .iter()
            .filter_map(|l| l.get(i))
            .find(|o| o.kept())
            .copied()
            .or(now)
            .or_else(|| {
                stricter
                    .iter()
                    .filter_map(|s| s.get(i))
                    .find(|o| !o.kept())
                    .copied()
            })
            .ok_or_else(|| {
                Error::Refused(format!(
                    "replay: page {i} was neither judged nor dropped at threshold {}",
                    setting.threshold
                ))
            })?;
        cell.push(outcome);
    }
    repoint(&mut cell);
    Ok(cell)
}

/// Makes every dropped page's cluster a page kept in `cell` (or one outside it): a page
/// dropped by an earlier step points at the page it duplicated then, which this step may have
/// dropped too. Pages only duplicate earlier ones, so one pass in crawl order does it.
fn repoint(cell: &mut [Outcome]) {
    let index: HashMap<u64, usize> = cell.iter().enumerate().map(|(i, o)| (o.id, i)).collect();
    for i in 0..cell.len() {
        if cell[i].kept() {
            continue;
        }
        if let Some(&j) = index.get(&cell[i].cluster)
            && j < i
            && !cell[j].kept()
        {
            cell[i].cluster = cell[j].cluster;
        }
    }
}

#[cfg(test)]
#[path = "replay_cascade_tests.rs"]
mod tests;
