//! Dedup decisions: exact duplicate → structure near-duplicate → kept (ALGORITHM.md §5).
//!
//! A page is compared with the **representatives** of the clusters of its scope: the first
//! page of each cluster, which never changes. Without summaries, a page within `threshold`
//! bits of a representative joins the nearest one (the earliest among equal distances).
//! With [`DedupConfig::min_similarity`] set and a structure summary for the page (the
//! `class-paths` model's path ids), the fingerprint only proposes: every representative
//! within `threshold` bits is a candidate, and the page joins the candidate whose summary is
//! most similar (Jaccard), provided that similarity is at least `min_similarity`; ties go to
//! the smaller distance, then the earlier representative. With
//! [`DedupConfig::varying_after`] set, the Jaccard leaves out the paths learned to vary
//! within clusters of the scope (`varying.rs`); where the page and a candidate are both
//! mostly the scope's frame (the paths on nearly every representative, `frame.rs`), it
//! leaves the frame out too. A candidate whose form of its own asks for other fields than
//! the page's is no candidate (`forms.rs`), nor one whose table of its own shows other
//! columns (`tables.rs`), nor, between an article and a page that holds no prose or a
//! line or two beside a block of its own, the other (`prose.rs`). When no candidate is confirmed, the nearest representatives up to
//! [`DedupConfig::far_reach`] × `threshold` bits are candidates too, at `min_similarity` +
//! [`DedupConfig::far_margin`] (`far.rs`). A page that joins no cluster starts one and
//! is kept. A page closer to a later cluster than to the one it joined stays where it
//! was judged: decisions are final, in crawl order.
//!
//! With [`DedupConfig::drop_when`] other than `structure`, the content signal takes part as
//! [`DropWhen`] defines: [`Dedup::judge_page`] is the one place where both signals decide.

use std::collections::HashMap;

use silhouette_simhash::{Fingerprint, IndexError, MAX_K128, Match, NearIndex};

use crate::content::ContentIndex;
pub use crate::dedup_config::{DedupConfig, DedupError, DedupScope, OnDuplicate};
use crate::far::Far;
use crate::frame::Frame;
use crate::varying::Varying;
use crate::{DropWhen, PageContent};

#[path = "confirm.rs"]
mod confirm;

use confirm::Seen;
pub use confirm::{Candidate, Compared};

/// The verdict on one page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Kept: the first pages of cluster `cluster` (the id of its first page).
    Kept {
        /// The cluster's first page.
        cluster: u64,
    },
    /// Kept without a structure judgement: fewer than `min-elements` elements.
    KeptUnjudged,
    /// Byte-identical to a kept page.
    ExactDuplicate {
        /// That page.
        of: u64,
    },
    /// Within `threshold` bits of a cluster that has used its budget (and, with summaries,
    /// at least `min-similarity` alike).
    NearDuplicate {
        /// The cluster's first page.
        of: u64,
        /// Hamming distance to it.
        distance: u32,
    },
    /// Its content is near a kept page's (or has the same signature), as
    /// [`DedupConfig::drop_when`] asks.
    ContentDuplicate {
        /// That page.
        of: u64,
        /// The content fingerprints' Hamming distance.
        distance: u32,
        /// The structure cluster the page's structure joins, if any.
        cluster: Option<u64>,
    },
}

impl crate::PageRecord {
    /// Writes `verdict` into the record: the decision, the page it duplicates with the
    /// distance (structure or content), and the cluster where the verdict names it. An exact
    /// duplicate's cluster is its original's, which only the caller knows: it is left as is.
    pub const fn set_verdict(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::ExactDuplicate { of } => self.duplicate_of = Some(of),
            Verdict::NearDuplicate { of, distance } => {
                self.duplicate_of = Some(of);
                self.distance = Some(distance);
                self.cluster = Some(of);
            }
            Verdict::ContentDuplicate {
                of,
                distance,
                cluster,
            } => {
                self.duplicate_of = Some(of);
                self.content_duplicate_of = Some(of);
                self.content_distance = Some(distance);
                self.cluster = cluster;
            }
            Verdict::Kept { cluster } => self.cluster = Some(cluster),
            Verdict::KeptUnjudged => {}
        }
    }
}

impl Verdict {
    /// Whether the page is a duplicate (exact or near).
    #[must_use]
    pub const fn is_duplicate(self) -> bool {
        matches!(
            self,
            Self::ExactDuplicate { .. }
                | Self::NearDuplicate { .. }
                | Self::ContentDuplicate { .. }
        )
    }

    /// The decision's name in records: `kept`, `exact-duplicate`, `near-duplicate` or
    /// `content-duplicate`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.decision().as_str()
    }

    /// The decision it records.
    #[must_use]
    pub const fn decision(self) -> crate::Decision {
        match self {
            Self::Kept { .. } | Self::KeptUnjudged => crate::Decision::Kept,
            Self::ExactDuplicate { .. } => crate::Decision::ExactDuplicate,
            Self::NearDuplicate { .. } => crate::Decision::NearDuplicate,
            Self::ContentDuplicate { .. } => crate::Decision::ContentDuplicate,
        }
    }
}

/// The dedup state of a crawl: kept bodies, cluster representatives and budgets.
#[derive(Debug)]
pub struct Dedup {
    config: DedupConfig,
    params: String,
    exact: HashMap<u128, u64>,
    global: Option<NearIndex>,
    per_host: HashMap<String, HostIndex>,
    /// The representatives of each scope, for the comparison beyond the threshold (`far.rs`).
    far: Far,
    kept_in_cluster: HashMap<u64, u32>,
    /// The structure summaries of the representatives that have one.
    summaries: HashMap<u64, Box<[u32]>>,
    /// Of those, the paths of an article's blocks (`articles.rs`), where there are some.
    articles: HashMap<u64, Box<[u32]>>,
    /// The paths learned to vary within clusters, per host ("" in global scope).
    varying: HashMap<String, Varying>,
    /// The frame each host's representatives teach ("" in global scope, `frame.rs`).
    frames: HashMap<String, Frame>,
    /// Per host, the representatives with a form of their own (`forms.rs`, `MAX_FORMS`).
    forms: HashMap<String, u32>,
    /// Per host, the representatives with a table of their own (`tables.rs`, `MAX_TABLES`).
    tables: HashMap<String, u32>,
    /// The similarity of the last near match confirmed by summaries.
    last_similarity: Option<f64>,
    /// Whether the last verdict taught the scope varying paths (a duplicate that changed
    /// the dedup state: shared backends must log it, see `replica.rs`).
    last_learned: bool,
    /// Kept pages' content (not kept with `drop-when = "structure"`).
    content: ContentIndex,
    /// Kept pages' structure clusters (`drop-when = "structure-and-content"` only).
    clusters: HashMap<u64, u64>,
}

/// What [`Dedup`] reads of one page: everything [`Dedup::judge_page`] decides on.
#[derive(Clone, Copy, Debug)]
pub struct PageSignals<'a> {
    /// The page's id (its URL's, in crawl order).
    pub id: u64,
    /// Its host (`host:port`): the dedup scope when it is per host, and what a host teaches.
    pub host: &'a str,
    /// Hash of its bytes ([`body_hash`](crate::body_hash)): exact duplicates.
    pub body_hash: u128,
    /// Its structure fingerprint; `None` for a page that could not be fingerprinted (it is
    /// then judged on its bytes and content only).
    pub fingerprint: Option<Fingerprint>,
    /// Elements parsed ([`DedupConfig::min_elements`]).
    pub elements: u64,
    /// Its structure summary (sorted, distinct feature ids), used when
    /// [`DedupConfig::min_similarity`] is set.
    pub summary: Option<&'a [u32]>,
    /// Its content signal, used as [`DedupConfig::drop_when`] says.
    pub content: &'a PageContent,
}

/// A verdict reached by [`Dedup::decide`], with what [`Dedup::learn`] records of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reached {
    pub(crate) verdict: Verdict,
    /// The path-set similarity of a confirmed near match.
    similarity: Option<f64>,
    /// The kept page whose summary teaches the scope which paths vary.
    learn_from: Option<u64>,
    /// A page that starts a cluster: its fingerprint, to represent it.
    new_cluster: Option<Fingerprint>,
}

impl Reached {
    /// Whether learning it changes the dedup state: a kept page, or a duplicate that teaches
    /// its scope varying paths (shared backends log exactly these).
    pub(crate) const fn changes_state(&self) -> bool {
        !self.verdict.is_duplicate() || self.learn_from.is_some()
    }

    /// The path-set similarity of a confirmed near match.
    pub(crate) const fn similarity(&self) -> Option<f64> {
        self.similarity
    }
}

/// Fingerprints a host keeps in a plain list before it gets a [`NearIndex`]: most hosts of a
/// broad crawl have few structures, and an index has a fixed cost of its own.
const SMALL_HOST: usize = 64;

/// The cluster representatives of one host (`dedup-scope = "host"`).
#[derive(Debug)]
enum HostIndex {
    /// Up to [`SMALL_HOST`] fingerprints, in insertion order, scanned in full.
    Small(Vec<(Fingerprint, u64)>),
    /// More: the exact index (boxed: most hosts never get one).
    Large(Box<NearIndex>),
}

impl HostIndex {
    /// As [`NearIndex::within`].
    fn within(&self, fp: Fingerprint, k: u32) -> Vec<Match> {
        match self {
            Self::Large(index) => index.within(fp),
            Self::Small(list) => crate::far::nearest(list, fp, 0..=k, usize::MAX),
        }
    }

    /// Stores `fp` under `id` (a small list grows into an index past [`SMALL_HOST`]).
    fn insert(&mut self, fp: Fingerprint, id: u64, k: u32, params: &str) {
        match self {
            Self::Large(index) => index.insert(fp, id),
            Self::Small(list) => {
                list.push((fp, id));
                if list.len() > SMALL_HOST
                    && let Ok(mut index) = NearIndex::with_params(k, params.as_bytes())
                {
                    for &(f, i) in list.iter() {
                        index.insert(f, i);
                    }
                    *self = Self::Large(Box::new(index));
                }
            }
        }
    }
}

impl Dedup {
    /// Empty dedup state; `params` names the fingerprint parameters (ALGORITHM.md §6).
    ///
    /// # Errors
    /// A threshold above 8 or a cluster budget of 0.
    pub fn new(config: DedupConfig, params: &str) -> Result<Self, DedupError> {
        if config.cluster_budget == 0 {
            return Err(DedupError::ClusterBudget);
        }
        if let Some(value) = config.min_similarity
            && !(0.0..=1.0).contains(&value)
        {
            return Err(DedupError::Similarity { value });
        }
        if !(1..=8).contains(&config.far_reach) {
            return Err(DedupError::FarReach {
                value: config.far_reach,
            });
        }
        if !(0.0..=1.0).contains(&config.far_margin) {
            return Err(DedupError::FarMargin {
                value: config.far_margin,
            });
        }
        if config.content_threshold > MAX_K128 {
            return Err(DedupError::ContentThreshold {
                value: config.content_threshold,
            });
        }
        // Built in both scopes: it checks the threshold once, here.
        let index = Self::index(config.threshold, params)?;
        let global = (config.scope == DedupScope::Global).then_some(index);
        Ok(Self {
            config,
            params: params.to_owned(),
            exact: HashMap::new(),
            global,
            per_host: HashMap::new(),
            far: Far::default(),
            kept_in_cluster: HashMap::new(),
            summaries: HashMap::new(),
            articles: HashMap::new(),
            varying: HashMap::new(),
            frames: HashMap::new(),
            forms: HashMap::new(),
            tables: HashMap::new(),
            last_similarity: None,
            last_learned: false,
            content: ContentIndex::default(),
            clusters: HashMap::new(),
        })
    }

    fn index(threshold: u32, params: &str) -> Result<NearIndex, DedupError> {
        NearIndex::with_params(threshold, params.as_bytes())
            .map_err(|_: IndexError| DedupError::Threshold { value: threshold })
    }

    /// The settings.
    #[must_use]
    pub const fn config(&self) -> &DedupConfig {
        &self.config
    }

    /// Judges page `id` by structure alone (as [`judge_page`](Self::judge_page) without
    /// content).
    pub fn judge(
        &mut self,
        id: u64,
        host: &str,
        body_hash: u128,
        fingerprint: Option<Fingerprint>,
        elements: u64,
        summary: Option<&[u32]>,
    ) -> Verdict {
        self.judge_page(&PageSignals {
            id,
            host,
            body_hash,
            fingerprint,
            elements,
            summary,
            content: &PageContent::default(),
        })
    }

    /// Judges `page` (in crawl order) and records it if kept.
    pub fn judge_page(&mut self, page: &PageSignals<'_>) -> Verdict {
        let decision = self.decide(page);
        self.learn(page, &decision)
    }

    /// The verdict on `page` against the state as it is, without changing it: what
    /// [`judge_page`](Self::judge_page) would say. [`learn`](Self::learn) then records it.
    /// Shared backends decide, check that the state is current, and only then learn.
    pub(crate) fn decide(&self, page: &PageSignals<'_>) -> Reached {
        if let Some(&of) = self.exact.get(&page.body_hash) {
            return Reached {
                verdict: Verdict::ExactDuplicate { of },
                similarity: None,
                learn_from: None,
                new_cluster: None,
            };
        }
        let host = page.host;
        // The summary's paths, and apart from them its article blocks (`articles.rs`).
        let split = page.summary.map(crate::articles::split_summary);
        let summary = split
            .as_ref()
            .map(|(ids, article)| (&ids[..], &article[..]));
        // Where the structure goes: unjudged (None), a new cluster (Ok) or a cluster (Err).
        let mut similarity = None;
        let mut learn_from = None;
        let structure = page
            .fingerprint
            .filter(|_| page.elements >= self.config.min_elements)
            .map(|fp| match (self.config.min_similarity, summary) {
                (Some(min), Some(summary)) => match self.confirmed(host, fp, summary, min) {
                    Err((m, sim)) => {
                        similarity = Some(sim);
                        if self.config.varying_after > 0 {
                            learn_from = Some(m.id);
                        }
                        Err(m)
                    }
                    Ok(fp) => Ok(fp),
                },
                _ => self.nearest(host, fp),
            });
        let joins = structure.and_then(|s| s.err());
        let mode = self.config.drop_when;
        let verdict = match joins {
            Some(m)
                if mode.structure_drops()
                    && self.kept_in_cluster.get(&m.id).copied().unwrap_or(1)
                        >= self.config.cluster_budget =>
            {
                Verdict::NearDuplicate {
                    of: m.id,
                    distance: m.distance,
                }
            }
            _ => match self.content_match(
                self.config.scope.of(host),
                page.content,
                joins.map(|m| m.id),
            ) {
                Some((distance, of)) => Verdict::ContentDuplicate {
                    of,
                    distance,
                    cluster: joins.map(|m| m.id),
                },
                None => match structure {
                    None => Verdict::KeptUnjudged,
                    Some(Ok(_)) => Verdict::Kept { cluster: page.id },
                    Some(Err(m)) => Verdict::Kept { cluster: m.id },
                },
            },
        };
        let new_cluster = match (structure, verdict) {
            (Some(Ok(fp)), Verdict::Kept { .. }) => Some(fp),
            _ => None,
        };
        Reached {
            verdict,
            similarity,
            learn_from,
            new_cluster,
        }
    }

    /// Records `decision` (from [`decide`](Self::decide) on this very state) and returns its
    /// verdict; [`last_similarity`](Self::last_similarity) and
    /// [`last_learned`](Self::last_learned) describe it.
    pub(crate) fn learn(&mut self, page: &PageSignals<'_>, decision: &Reached) -> Verdict {
        let (id, host, verdict) = (page.id, page.host, decision.verdict);
        self.last_similarity = decision.similarity;
        self.last_learned = false;
        // Split only when something reads the summary: what it teaches, or a new cluster.
        let split = page
            .summary
            .filter(|_| decision.learn_from.is_some() || decision.new_cluster.is_some())
            .map(crate::articles::split_summary);
        if let (Some(from), Some((summary, _))) = (decision.learn_from, &split)
            && let Some(theirs) = self.summaries.get(&from)
        {
            let scope = self.config.scope.of(host);
            self.varying
                .entry(scope.to_owned())
                .or_default()
                .learn(from, summary, theirs);
            self.last_learned = true;
        }
        match verdict {
            Verdict::Kept { cluster } if cluster == id => {
                if let Some(fp) = decision.new_cluster {
                    self.represent(host, fp, id, split.as_ref());
                }
                self.kept_in_cluster.insert(id, 1);
            }
            Verdict::Kept { cluster } => {
                *self.kept_in_cluster.entry(cluster).or_insert(1) += 1;
            }
            _ => {}
        }
        if !verdict.is_duplicate() {
            // Only kept pages: an exact duplicate always points at a kept page.
            self.exact.insert(page.body_hash, id);
            let mode = self.config.drop_when;
            if mode != DropWhen::Structure {
                let k = self.config.content_threshold;
                self.content
                    .insert(self.config.scope.of(host), id, page.content, k);
            }
            if let (DropWhen::StructureAndContent, Verdict::Kept { cluster }) = (mode, verdict) {
                self.clusters.insert(id, cluster);
            }
        }
        verdict
    }

    /// The kept page whose content `content` duplicates under the drop-when policy, as
    /// `(content distance, id)`; `cluster` is the structure cluster the page joins.
    fn content_match(
        &self,
        scope: &str,
        content: &PageContent,
        cluster: Option<u64>,
    ) -> Option<(u32, u64)> {
        let k = self.config.content_threshold;
        match self.config.drop_when {
            DropWhen::Structure => None,
            DropWhen::Content | DropWhen::StructureOrContent => {
                self.content.matches(scope, content, k).first().copied()
            }
            DropWhen::StructureAndContent => {
                let cluster = cluster?;
                self.content
                    .matches(scope, content, k)
                    .into_iter()
                    .find(|(_, id)| self.clusters.get(id) == Some(&cluster))
            }
        }
    }

    /// The representative `fp` is near (the nearest, the earliest among equals), or `Ok(fp)`.
    fn nearest(&self, host: &str, fp: Fingerprint) -> Result<Fingerprint, Match> {
        let k = self.config.threshold;
        let found = match &self.global {
            Some(index) => index
                .nearest(fp)
                .map(|(id, distance)| Match { id, distance }),
            None => self
                .per_host
                .get(host)
                .and_then(|h| h.within(fp, k).into_iter().next()),
        };
        found.map_or(Ok(fp), Err)
    }

    /// Makes kept page `id` the representative of a new cluster.
    fn represent(
        &mut self,
        host: &str,
        fp: Fingerprint,
        id: u64,
        summary: Option<&(Vec<u32>, Vec<u32>)>,
    ) {
        let k = self.config.threshold;
        match &mut self.global {
            Some(index) => index.insert(fp, id),
            None => self
                .per_host
                .entry(host.to_owned())
                .or_insert_with(|| HostIndex::Small(Vec::new()))
                .insert(fp, id, k, &self.params),
        }
        if let (Some(_), Some((summary, article))) = (self.config.min_similarity, summary) {
            self.summaries.insert(id, summary[..].into());
            if !article.is_empty() {
                self.articles.insert(id, article[..].into());
            }
            let scope = self.config.scope.of(host);
            if self.config.far_reach > 1 {
                self.far.insert(scope, fp, id);
            }
            let frame = self.frames.entry(scope.to_owned()).or_default();
            if crate::forms::own_fields(summary, Some(frame)).len() >= crate::forms::MIN_FIELDS {
                *self.forms.entry(scope.to_owned()).or_insert(0) += 1;
            }
            if crate::tables::own_columns(summary, Some(frame)).len() >= crate::tables::MIN_COLUMNS
            {
                *self.tables.entry(scope.to_owned()).or_insert(0) += 1;
            }
            frame.learn(summary);
        }
    }

    /// The near match confirmed by summaries (see the module docs), or `Ok(fp)` when none.
    fn confirmed(
        &self,
        host: &str,
        fp: Fingerprint,
        (summary, article): (&[u32], &[u32]),
        min: f64,
    ) -> Result<Fingerprint, (Match, f64)> {
        let seen = self.seen_by(host, summary, article);
        // None within the threshold confirmed: those beyond it, at a higher similarity
        // (`far.rs`).
        let best = self
            .best_of(&seen, summary, self.within(host, fp), min)
            .or_else(|| {
                let needed = self.config.far_similarity(min);
                self.best_of(&seen, summary, self.beyond(host, fp), needed)
            });
        best.map_or(Ok(fp), |(similarity, m)| Err((m, similarity)))
    }

    /// Every kept representative within the threshold of `page` (nearest first), then, when
    /// none of them is confirmed, those beyond it that the confirmation reads too
    /// ([`Candidate::far`]), and how the confirmation compares each with the page, against
    /// the state as it is (nothing changes): why the page joins the one
    /// [`judge_page`](Self::judge_page) names, or none. Empty without a
    /// fingerprint, a structure summary or `min-similarity`, or under `min-elements`.
    #[must_use]
    pub fn candidates(&self, page: &PageSignals<'_>) -> Vec<Candidate> {
        let (Some(fp), Some(summary), Some(min)) =
            (page.fingerprint, page.summary, self.config.min_similarity)
        else {
            return Vec::new();
        };
        if page.elements < self.config.min_elements {
            return Vec::new();
        }
        let (summary, article) = crate::articles::split_summary(summary);
        let summary = &summary[..];
        let seen = self.seen_by(page.host, summary, &article);
        let judge = |m: Match, far: bool| {
            let compared = self.compare(&seen, summary, m.id);
            // All the paths of the two, beside those the similarity was read on.
            let all = self.summaries.get(&m.id).map_or(0, |theirs| {
                crate::same::overlap_without(summary, theirs, |_| false).1
            });
            Candidate {
                id: m.id,
                distance: m.distance,
                similarity: compared
                    .ok()
                    .map(|(overlap, _)| crate::varying::share(overlap)),
                compared: compared.map_or_else(|c| c, |(_, c)| c),
                paths: compared.ok().map(|((_, read), _)| (read, all)),
                far,
            }
        };
        let mut found: Vec<Candidate> = self
            .within(page.host, fp)
            .into_iter()
            .map(|m| judge(m, false))
            .collect();
        // Those beyond the threshold are compared only when none within it is confirmed.
        if found.iter().all(|c| c.similarity.is_none_or(|s| s < min)) {
            found.extend(
                self.beyond(page.host, fp)
                    .into_iter()
                    .map(|m| judge(m, true)),
            );
        }
        found
    }

    /// The most similar of `candidates` (nearest first) at `needed` or more, and its
    /// similarity: a strictly greater similarity is needed to move on to a farther one.
    fn best_of(
        &self,
        seen: &Seen<'_>,
        summary: &[u32],
        candidates: Vec<Match>,
        needed: f64,
    ) -> Option<(f64, Match)> {
        let mut best: Option<(f64, Match)> = None;
        for m in candidates {
            let Ok((overlap, _)) = self.compare(seen, summary, m.id) else {
                continue;
            };
            let similarity = crate::varying::share(overlap);
            if similarity >= needed && best.is_none_or(|(b, _)| similarity > b) {
                best = Some((similarity, m));
            }
        }
        best
    }

    /// The representatives beyond the threshold of `fp` the confirmation compares when none
    /// within it is confirmed (`far.rs`): none when `far-reach` is 1.
    fn beyond(&self, host: &str, fp: Fingerprint) -> Vec<Match> {
        let (near, reach) = (self.config.threshold, self.config.reach());
        if reach <= near {
            return Vec::new();
        }
        self.far.beyond(self.config.scope.of(host), fp, near, reach)
    }

    /// The kept representatives within the threshold of `fp`, nearest first.
    fn within(&self, host: &str, fp: Fingerprint) -> Vec<Match> {
        match &self.global {
            Some(index) => index.within(fp),
            None => self
                .per_host
                .get(host)
                .map(|h| h.within(fp, self.config.threshold))
                .unwrap_or_default(),
        }
    }

    /// The structure similarity behind the last verdict, when summaries confirmed a near match.
    #[must_use]
    pub const fn last_similarity(&self) -> Option<f64> {
        self.last_similarity
    }

    /// Whether the last verdict changed the dedup state although the page was a duplicate
    /// (it taught its scope which paths vary, [`DedupConfig::varying_after`]). Kept pages
    /// always change it.
    #[must_use]
    pub const fn last_learned(&self) -> bool {
        self.last_learned
    }

    /// Kept pages' bodies remembered, structure clusters started.
    #[must_use]
    pub fn counts(&self) -> (usize, usize) {
        (self.exact.len(), self.kept_in_cluster.len())
    }
}

#[cfg(test)]
#[path = "dedup_tests.rs"]
mod tests;
