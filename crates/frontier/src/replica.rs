//! The backend seam of dedup: one [`Dedup`] decision, many processes.
//!
//! A single-process crawl judges pages with [`Dedup::judge`] in the order their URLs were
//! found (`order.rs`).
//! Workers that share a crawl (the Redis backend) must reach the same decisions as if one
//! process had judged every page of a dedup scope in one order. They do it without copying
//! the decision logic: each worker keeps a **replica** of each scope's [`Dedup`], and a
//! [`DecisionLog`] (the backend) holds, per scope, the ordered list of the judged pages that
//! changed the dedup state: kept pages, and the duplicates that taught the scope which paths
//! vary within clusters ([`Dedup::last_learned`], `varying-after`); other duplicates change
//! nothing.
//!
//! [`SharedDedup::judge`] decides on the page against its replica without changing it
//! (`Dedup::decide`, the first half of [`Dedup::judge_page`]), then asks the backend to
//! append it if the replica is current ([`DecisionLog::append_at`]: atomic, "if the log
//! still holds exactly the entries I applied"); only then does the replica learn the page
//! (`Dedup::learn`, the other half). If other workers logged pages meanwhile, the backend
//! returns them instead: the replica learns them in log order and the page is decided
//! again. Every verdict is therefore the verdict of one `Dedup` judging the log in its
//! order: no two kept pages within `threshold` of each other in one scope, and cluster
//! budgets hold, across any number of workers; no lock is held, so a worker that dies
//! mid-decision blocks no one. A single worker is never behind: one round trip a page.
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

use crate::dedup::{PageSignals, Reached};
use crate::{Dedup, DedupConfig, DedupError, PageContent, Verdict};

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

/// The shared dedup state of a crawl, as the backend keeps it: per scope, an append-only
/// list of the judged pages that changed the scope's state.
///
/// Implementations must make [`append_at`](Self::append_at) atomic per scope (compare the
/// length, append) and keep each scope's entries in append order.
pub trait DecisionLog {
    /// The backend's error.
    type Error;

    /// If `scope`'s log holds exactly `at` entries: appends `entries` (in order, maybe
    /// none) and returns `None`. Otherwise appends nothing and returns the entries from
    /// position `at` (0-based) on, which the caller applies before it judges again.
    fn append_at(
        &mut self,
        scope: &str,
        at: u64,
        entries: &[&JudgedPage],
    ) -> impl Future<Output = Result<Option<Vec<JudgedPage>>, Self::Error>> + Send;
}

/// The single-process backend: one process judges everything, the log is its own order.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalLog;

impl DecisionLog for LocalLog {
    type Error = std::convert::Infallible;

    async fn append_at(
        &mut self,
        _: &str,
        _: u64,
        _: &[&JudgedPage],
    ) -> Result<Option<Vec<JudgedPage>>, Self::Error> {
        Ok(None)
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

impl JudgedPage {
    fn signals(&self) -> PageSignals<'_> {
        PageSignals {
            id: self.id,
            host: &self.host,
            body_hash: self.body_hash,
            fingerprint: self.fingerprint.map(Fingerprint::new),
            elements: self.elements,
            summary: self.summary.as_deref(),
            content: &self.content,
        }
    }
}

/// Dedup decisions shared through a [`DecisionLog`] (see the module docs).
#[derive(Debug)]
pub struct SharedDedup {
    config: DedupConfig,
    params: String,
    scopes: HashMap<String, Replica>,
    /// Decisions still to be judged one by one since the last batch that another worker's
    /// entries made void ([`judge_all`](Self::judge_all)), and how many the next void batch
    /// sets it to (doubled by each void batch, halved by each batch that holds).
    solo: usize,
    solo_period: usize,
    /// Another worker has logged in a scope of ours: a batch first catches its replica up.
    shared: bool,
}

/// Decisions judged one by one after a void batch, at least and at most: other workers
/// are judging in the same scopes, and a void batch costs a replica rebuilt from the log.
const SOLO_MIN: usize = 1024;
const SOLO_MAX: usize = 1 << 20;

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
            solo: 0,
            solo_period: SOLO_MIN,
            shared: false,
        })
    }

    /// The scope a page on `host` is judged in: its host, or `""` in global scope.
    #[must_use]
    pub fn scope_of<'a>(&self, host: &'a str) -> &'a str {
        self.config.scope.of(host)
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
            let replica = self.replica(&scope);
            let signals = page.signals();
            let decision = match replica.decide(page, &signals) {
                Ok(decision) => decision,
                Err(settled) => return Ok(settled),
            };
            // Decided against the first `at` entries: valid only if the log has no others.
            let at = replica.applied;
            let changes = decision.changes_state();
            let entry = [page];
            let entries = if changes { &entry[..] } else { &[] };
            match log.append_at(&scope, at, entries).await? {
                None => {
                    let replica = self.replica(&scope);
                    if changes {
                        replica.record(&signals, page, &decision);
                        replica.applied += 1;
                    }
                    return Ok(replica.describe(decision.verdict, decision.similarity()));
                }
                Some(missing) => {
                    // Other workers judged meanwhile: learn their pages, then judge again.
                    self.shared = true;
                    self.replica(&scope).catch_up(&missing);
                }
            }
        }
    }

    /// Judges `pages` in order, as [`judge`](Self::judge) one after the other would, with
    /// one round trip per run of pages of one scope when no other worker logged in it
    /// meanwhile: the replica learns each page before it decides the next, and the run's
    /// entries are appended together only if the log is still as long as the replica knew
    /// it. If it is not, the run's learning is void: the scope's replica is rebuilt from the
    /// log and the pages are judged one by one, and so are the next 1,024 decisions or more
    /// (doubling with each void batch: other workers are judging in the same scopes).
    ///
    /// # Errors
    /// The backend's.
    pub async fn judge_all<L: DecisionLog>(
        &mut self,
        log: &mut L,
        pages: &[JudgedPage],
    ) -> Result<Vec<SharedVerdict>, L::Error> {
        let mut verdicts = Vec::with_capacity(pages.len());
        let mut rest = pages;
        while let Some(first) = rest.first() {
            let scope = self.scope_of(&first.host).to_owned();
            let run = rest
                .iter()
                .take_while(|p| self.scope_of(&p.host) == scope)
                .count();
            let (these, after) = rest.split_at(run);
            rest = after;
            if these.len() == 1 || self.solo > 0 {
                for page in these {
                    self.solo = self.solo.saturating_sub(1);
                    verdicts.push(self.judge(log, page).await?);
                }
                continue;
            }
            if self.shared {
                // Other workers judge too: learn what they logged before speculating, so
                // that only a race in the next round trip can void the batch.
                let at = self.replica(&scope).applied;
                if let Some(missing) = log.append_at(&scope, at, &[]).await? {
                    self.replica(&scope).catch_up(&missing);
                }
            }
            let replica = self.replica(&scope);
            let at = replica.applied;
            let mut entries: Vec<&JudgedPage> = Vec::new();
            let mut run_verdicts = Vec::with_capacity(these.len());
            for page in these {
                let signals = page.signals();
                let decision = match replica.decide(page, &signals) {
                    Ok(decision) => decision,
                    Err(settled) => {
                        run_verdicts.push(settled);
                        continue;
                    }
                };
                if decision.changes_state() {
                    replica.record(&signals, page, &decision);
                    entries.push(page);
                }
                run_verdicts.push(replica.describe(decision.verdict, decision.similarity()));
            }
            if log.append_at(&scope, at, &entries).await?.is_none() {
                self.replica(&scope).applied += entries.len() as u64;
                self.solo_period = (self.solo_period / 2).max(SOLO_MIN);
                verdicts.extend(run_verdicts);
                continue;
            }
            // Another worker logged first: what this replica learned from the run is void.
            self.scopes.remove(&scope);
            self.shared = true;
            self.solo = self.solo_period;
            self.solo_period = (self.solo_period * 2).min(SOLO_MAX);
            for page in these {
                verdicts.push(self.judge(log, page).await?);
            }
        }
        Ok(verdicts)
    }

    /// Kept pages known to this replica's scopes.
    #[must_use]
    pub fn kept(&self) -> usize {
        self.scopes.values().map(|r| r.kept.len()).sum()
    }
}

impl Replica {
    /// Learns `missing`, the log's entries after the ones applied, in order.
    fn catch_up(&mut self, missing: &[JudgedPage]) {
        for entry in missing {
            self.apply(entry);
        }
        self.applied += missing.len() as u64;
    }

    /// The decision on `page` against this replica, or `Err` with its verdict when the log
    /// already has it (a worker whose lease then expired judged it): the same verdict, and
    /// judging it again would teach the scope twice.
    fn decide(
        &self,
        page: &JudgedPage,
        signals: &PageSignals<'_>,
    ) -> Result<Reached, SharedVerdict> {
        if let Some(&(verdict, similarity)) = self.logged.get(&page.id) {
            return Err(self.describe(verdict, similarity));
        }
        let decision = self.dedup.decide(signals);
        if let (Verdict::ExactDuplicate { of }, Some((_, cluster))) =
            (decision.verdict, self.kept.get(&page.id))
            && of == page.id
        {
            let verdict =
                cluster.map_or(Verdict::KeptUnjudged, |cluster| Verdict::Kept { cluster });
            return Err(self.describe(verdict, None));
        }
        Ok(decision)
    }

    /// Judges an entry of the log into this replica.
    fn apply(&mut self, page: &JudgedPage) {
        let signals = page.signals();
        let decision = self.dedup.decide(&signals);
        self.record(&signals, page, &decision);
    }

    /// Records `decision` on `page` (decided on this replica as it is).
    fn record(&mut self, signals: &PageSignals<'_>, page: &JudgedPage, decision: &Reached) {
        let verdict = self.dedup.learn(signals, decision);
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
#[path = "replica_tests.rs"]
mod tests;
