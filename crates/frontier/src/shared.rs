//! The backend seam of dedup: one [`Dedup`] decision, many processes.
//!
//! A single-process crawl judges pages with [`Dedup::judge`] in the order it fetched them.
//! Workers that share a crawl (the Redis backend) must reach the same decisions as if one
//! process had judged every page of a dedup scope in one order. They do it without copying
//! the decision logic: each worker keeps a **replica** of each scope's [`Dedup`], and a
//! [`DecisionLog`] (the backend) holds, per scope, the ordered list of the judged pages that
//! changed the dedup state: kept pages, and the duplicates that taught the scope which paths
//! vary within clusters ([`Dedup::last_learned`], `varying-after`); other duplicates change
//! nothing.
//!
//! [`SharedDedup::judge`] takes the scope ([`DecisionLog::begin`]: exclusive, and the log
//! entries this replica has not applied yet), replays those entries through
//! [`Dedup::judge_page`], judges the page with the same function, and appends it if it was kept
//! ([`DecisionLog::commit`]). While a worker holds a scope no other worker judges in it, so
//! the log order is a crawl order and every verdict is the verdict of one `Dedup` judging
//! the log in that order: no two kept pages within `threshold` of each other in one scope,
//! and cluster budgets hold, across any number of workers. A worker that lost the scope
//! before committing (its hold expired) rebuilds its replica from the log and judges again.
//!
//! Scopes are independent: in host scope each host's replica is a `Dedup` of its own, so
//! unlike the single-process crawl (one `Dedup` for every host, whose exact-duplicate map
//! spans hosts), byte-identical pages on two hosts are both kept. That is what lets each
//! host's log live in its own Redis Cluster slot.
//!
//! [`LocalLog`] is the single-process backend: nothing to share, nothing to replay.

use std::collections::HashMap;
use std::future::Future;

use silhouette_simhash::Fingerprint;

use crate::{Dedup, DedupConfig, DedupError, DedupScope, PageContent, Verdict};

/// What [`Dedup::judge`] reads of a page, as a [`DecisionLog`] stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedPage {
    /// The page's id (unique in the crawl).
    pub id: u64,
    /// Its URL (kept pages are the clusters' names in records).
    pub url: String,
    /// Its host (`host:port`), the dedup scope in host scope.
    pub host: String,
    /// Its body hash.
    pub body_hash: u128,
    /// Its structure fingerprint.
    pub fingerprint: Option<u64>,
    /// Its element count.
    pub elements: u64,
    /// Its structure summary, if any.
    pub summary: Option<Vec<u32>>,
    /// Its content signal (none: structure alone, as [`Dedup::judge`]).
    pub content: PageContent,
}

/// The shared dedup state of a crawl, as the backend keeps it.
///
/// Implementations must make [`begin`](Self::begin) exclusive per scope (until
/// [`commit`](Self::commit) or a hold time), and keep each scope's entries in append order.
pub trait DecisionLog {
    /// The backend's error.
    type Error;

    /// Waits until this worker holds `scope`, then returns the scope's entries from
    /// position `from` (0-based) on.
    fn begin(
        &mut self,
        scope: &str,
        from: u64,
    ) -> impl Future<Output = Result<Vec<JudgedPage>, Self::Error>> + Send;

    /// Appends `entry` (a kept page) to `scope`, if any, and lets the scope go. `false`: this
    /// worker no longer held the scope (its hold expired), nothing was appended.
    fn commit(
        &mut self,
        scope: &str,
        entry: Option<&JudgedPage>,
    ) -> impl Future<Output = Result<bool, Self::Error>> + Send;
}

/// The single-process backend: one process judges everything, the log is its own order.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalLog;

impl DecisionLog for LocalLog {
    type Error = std::convert::Infallible;

    async fn begin(&mut self, _: &str, _: u64) -> Result<Vec<JudgedPage>, Self::Error> {
        Ok(Vec::new())
    }

    async fn commit(&mut self, _: &str, _: Option<&JudgedPage>) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// One scope's replica: its `Dedup`, how much of the log it holds, and the kept pages.
#[derive(Debug)]
struct Replica {
    dedup: Dedup,
    applied: u64,
    /// Kept pages: id → (URL, cluster).
    kept: HashMap<u64, (String, Option<u64>)>,
    /// Duplicates in the log (they changed the state): id → verdict and similarity.
    logged: HashMap<u64, (Verdict, Option<f64>)>,
}

/// A verdict reached against the shared state.
#[derive(Clone, Debug, PartialEq)]
pub struct SharedVerdict {
    /// The verdict, as [`Dedup::judge`] gives it.
    pub verdict: Verdict,
    /// The path-set similarity behind a confirmed near match.
    pub similarity: Option<f64>,
    /// The URL of the page it duplicates (exact or near).
    pub duplicate_of_url: Option<String>,
    /// Its cluster (the id of the cluster's first page) and that page's URL.
    pub cluster: Option<(u64, String)>,
}

/// Dedup decisions shared through a [`DecisionLog`] (see the module docs).
#[derive(Debug)]
pub struct SharedDedup {
    config: DedupConfig,
    params: String,
    scopes: HashMap<String, Replica>,
}

impl SharedDedup {
    /// No scope replicated yet; `params` as for [`Dedup::new`].
    ///
    /// # Errors
    /// As [`Dedup::new`].
    pub fn new(config: DedupConfig, params: &str) -> Result<Self, DedupError> {
        Dedup::new(config, params)?;
        Ok(Self {
            config,
            params: params.to_owned(),
            scopes: HashMap::new(),
        })
    }

    /// The scope a page on `host` is judged in: its host, or `""` in global scope.
    #[must_use]
    pub fn scope_of<'a>(&self, host: &'a str) -> &'a str {
        match self.config.scope {
            DedupScope::Global => "",
            _ => host,
        }
    }

    fn replica(&mut self, scope: &str) -> &mut Replica {
        let (config, params) = (self.config, &self.params);
        self.scopes
            .entry(scope.to_owned())
            .or_insert_with(|| Replica {
                // `new` checked the settings: the same ones cannot fail here.
                dedup: Dedup::new(config, params).unwrap_or_else(|_| unreachable!()),
                applied: 0,
                kept: HashMap::new(),
                logged: HashMap::new(),
            })
    }

    /// Judges `page` against every kept page of its scope, across all workers.
    ///
    /// # Errors
    /// The backend's.
    pub async fn judge<L: DecisionLog>(
        &mut self,
        log: &mut L,
        page: &JudgedPage,
    ) -> Result<SharedVerdict, L::Error> {
        let scope = self.scope_of(&page.host).to_owned();
        loop {
            let from = self.replica(&scope).applied;
            let missing = log.begin(&scope, from).await?;
            let replica = self.replica(&scope);
            for entry in &missing {
                replica.apply(entry);
            }
            replica.applied += missing.len() as u64;
            if let Some(&(verdict, similarity)) = replica.logged.get(&page.id) {
                // A duplicate judged and logged before by a worker whose lease then expired:
                // the same verdict, and judging it again would teach the scope twice.
                if log.commit(&scope, None).await? {
                    return Ok(replica.describe(verdict, similarity));
                }
                self.scopes.remove(&scope);
                continue;
            }
            let mut verdict = replica.apply(page);
            let mut known = false;
            if let (Verdict::ExactDuplicate { of }, Some((_, cluster))) =
                (verdict, replica.kept.get(&page.id))
                && of == page.id
            {
                // Judged and kept before by a worker whose lease then expired: same verdict.
                verdict =
                    cluster.map_or(Verdict::KeptUnjudged, |cluster| Verdict::Kept { cluster });
                known = true;
            }
            let similarity = replica.dedup.last_similarity();
            let logged = !known && (!verdict.is_duplicate() || replica.dedup.last_learned());
            if log.commit(&scope, logged.then_some(page)).await? {
                if logged {
                    replica.applied += 1;
                }
                return Ok(replica.describe(verdict, similarity));
            }
            // Our hold expired: someone else may have judged meanwhile. Start over.
            self.scopes.remove(&scope);
        }
    }

    /// Kept pages known to this replica's scopes.
    #[must_use]
    pub fn kept(&self) -> usize {
        self.scopes.values().map(|r| r.kept.len()).sum()
    }
}

impl Replica {
    /// Judges `page` (an entry of the log or the page being judged) into this replica.
    fn apply(&mut self, page: &JudgedPage) -> Verdict {
        let verdict = self.dedup.judge_page(
            page.id,
            &page.host,
            page.body_hash,
            page.fingerprint.map(Fingerprint::new),
            page.elements,
            page.summary.as_deref(),
            &page.content,
        );
        if !verdict.is_duplicate() {
            let cluster = match verdict {
                Verdict::Kept { cluster } => Some(cluster),
                _ => None,
            };
            self.kept.insert(page.id, (page.url.clone(), cluster));
        } else if self.dedup.last_learned() {
            self.logged
                .insert(page.id, (verdict, self.dedup.last_similarity()));
        }
        verdict
    }

    fn describe(&self, verdict: Verdict, similarity: Option<f64>) -> SharedVerdict {
        let url = |id: u64| self.kept.get(&id).map(|(u, _)| u.clone());
        let (duplicate_of, cluster) = match verdict {
            Verdict::Kept { cluster } => (None, Some(cluster)),
            Verdict::KeptUnjudged => (None, None),
            Verdict::ExactDuplicate { of } => (Some(of), self.kept.get(&of).and_then(|k| k.1)),
            Verdict::NearDuplicate { of, .. } => (Some(of), Some(of)),
            Verdict::ContentDuplicate { of, cluster, .. } => (Some(of), cluster),
        };
        SharedVerdict {
            verdict,
            similarity,
            duplicate_of_url: duplicate_of.and_then(url),
            cluster: cluster.and_then(|c| url(c).map(|u| (c, u))),
        }
    }
}

#[cfg(test)]
#[path = "shared_tests.rs"]
mod tests;
