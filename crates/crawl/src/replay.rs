//! `silhouette replay STATE --decay D --threshold K`: every decision of a crawl, recomputed
//! offline from the stored structure profiles, and what would change.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;

use crate::error::{Context, Error, Result, refuse};
use crate::replay_cascade::{Outcome, Setting};
use silhouette_dom::Profile;
use silhouette_frontier::{
    Decision, Dedup, DedupConfig, DedupScope, DropWhen, PageContent, PageSignals, Store, Verdict,
};

#[derive(Debug)]
struct Page {
    id: u64,
    url: String,
    host: String,
    old: Decision,
    old_cluster: u64,
    new: Decision,
    new_cluster: u64,
    /// Hamming distance to the kept page it now duplicates.
    distance: Option<u32>,
    /// Path-set similarity to it, when summaries confirmed the match.
    similarity: Option<f64>,
}

/// The cluster a verdict puts a page in: its own id, or the page it matched.
fn cluster_of(id: u64, v: Verdict) -> u64 {
    match v {
        Verdict::Kept { cluster } => cluster,
        Verdict::KeptUnjudged => id,
        Verdict::ExactDuplicate { of } | Verdict::NearDuplicate { of, .. } => of,
        Verdict::ContentDuplicate { cluster, .. } => cluster.unwrap_or(id),
    }
}

/// The clusters after replay, largest first, with how tight each is: what to look at before
/// moving the threshold or the similarity.
fn clusters(
    pages: &[Page],
    map: &HashMap<u64, u64>,
    url_of: &HashMap<u64, &str>,
    min_similarity: Option<f64>,
    out: &mut dyn Write,
) -> Result<()> {
    #[derive(Default)]
    struct Cluster {
        members: u64,
        kept: u64,
        max_distance: u32,
        min_similarity: Option<f64>,
    }
    let mut by_first: HashMap<u64, Cluster> = HashMap::new();
    for p in pages {
        let c = resolve(map, p.new_cluster);
        let cluster = by_first.entry(c).or_default();
        cluster.members += 1;
        cluster.kept += u64::from(p.new == Decision::Kept);
        cluster.max_distance = cluster.max_distance.max(p.distance.unwrap_or(0));
        if let Some(s) = p.similarity {
            cluster.min_similarity = Some(cluster.min_similarity.map_or(s, |m: f64| m.min(s)));
        }
    }
    let mut sizes: Vec<(&u64, &Cluster)> = by_first.iter().collect();
    sizes.sort_unstable_by(|a, b| b.1.members.cmp(&a.1.members).then(a.0.cmp(b.0)));
    let singletons = sizes.iter().filter(|(_, c)| c.members == 1).count();
    writeln!(
        out,
        "clusters now: {} ({singletons} of one page); largest (pages, kept, farthest member in bits{}, first page):",
        sizes.len(),
        if min_similarity.is_some() {
            ", least similar member"
        } else {
            ""
        }
    )?;
    for (first, c) in sizes.iter().take(10) {
        let similarity = c
            .min_similarity
            .map(|s| format!(" {s:>5.2}"))
            .unwrap_or_else(|| {
                if min_similarity.is_some() {
                    "     -".into()
                } else {
                    String::new()
                }
            });
        writeln!(
            out,
            "  {:>7} {:>5} {:>4}{similarity}  {}",
            c.members,
            c.kept,
            c.max_distance,
            url_of.get(first).unwrap_or(&"?")
        )?;
    }
    if sizes.len() > 10 {
        writeln!(out, "  … and {} more clusters", sizes.len() - 10)?;
    }
    if let Some(min) = min_similarity {
        let borderline = pages
            .iter()
            .filter(|p| p.similarity.is_some_and(|s| s < min + 0.05))
            .count();
        writeln!(
            out,
            "borderline: {borderline} pages joined a cluster with a similarity below {:.2} (min-similarity + 0.05)",
            min + 0.05
        )?;
    }
    Ok(())
}

/// The settings a crawl state was made with, as far as replay needs them.
#[derive(Debug, Default)]
pub struct Recorded {
    /// The feature model's name.
    pub model: Option<String>,
    /// The decay.
    pub decay: Option<f64>,
    /// The dedup threshold.
    pub threshold: Option<i64>,
    /// The dedup scope.
    pub scope: Option<DedupScope>,
    /// The path-set similarity near matches had to reach.
    pub min_similarity: Option<f64>,
    /// Which signal dropped pages.
    pub drop_when: Option<DropWhen>,
    /// The content threshold.
    pub content_threshold: Option<i64>,
    /// After how many confirmed matches a differing path stopped counting (states written
    /// before the setting existed have none: the configuration's, or the default, applies).
    pub varying_after: Option<u32>,
    /// How far beyond the threshold kept pages were compared (states written before the
    /// setting existed have none: they compared none, `far-reach = 1`).
    pub far_reach: Option<u32>,
    /// What a kept page beyond the threshold needed above the min-similarity.
    pub far_margin: Option<f64>,
}

impl Recorded {
    /// Reads them from the state's records: `fingerprint` (`structure/MODEL/.../decay=D`),
    /// `dedup.threshold`, `dedup.dedup-scope`, `dedup.min-similarity`,
    /// `dedup.varying-after`, `dedup.far-reach` and `dedup.far-margin`.
    pub fn of(store: &Store) -> Result<Self> {
        let fingerprint = store.meta("fingerprint")?.unwrap_or_default();
        let parsed = |key: &str| -> Result<Option<String>> { Ok(store.meta(key)?) };
        Ok(Self {
            model: fingerprint
                .strip_prefix("structure/")
                .and_then(|rest| rest.split('/').next())
                .map(str::to_owned),
            decay: fingerprint
                .split('/')
                .find_map(|part| part.strip_prefix("decay="))
                .and_then(|v| v.parse().ok()),
            threshold: parsed("dedup.threshold")?.and_then(|v| v.parse().ok()),
            scope: parsed("dedup.dedup-scope")?.and_then(|v| v.parse().ok()),
            min_similarity: parsed("dedup.min-similarity")?.and_then(|v| v.parse().ok()),
            drop_when: parsed("dedup.drop-when")?.and_then(|v| v.parse().ok()),
            content_threshold: parsed("content.threshold")?.and_then(|v| v.parse().ok()),
            varying_after: parsed("dedup.varying-after")?.and_then(|v| v.parse().ok()),
            far_reach: parsed("dedup.far-reach")?.and_then(|v| v.parse().ok()),
            far_margin: parsed("dedup.far-margin")?.and_then(|v| v.parse().ok()),
        })
    }
}

/// A judged page as the crawl recorded it, with what judging it again needs.
#[derive(Debug)]
pub(crate) struct Stored {
    pub(crate) id: u64,
    pub(crate) url: String,
    pub(crate) host: String,
    pub(crate) decision: Decision,
    cluster: u64,
    pub(crate) hash: u128,
    pub(crate) profile: Option<Profile>,
    /// The profile's structure summary ([`silhouette_dom::PathSet::summary`]), made once.
    pub(crate) summary: Option<Vec<u32>>,
    pub(crate) elements: u64,
    pub(crate) content: PageContent,
}

impl Stored {
    /// What the dedup judges of the page, with its `fingerprint` at the replay's decay.
    pub(crate) fn signals(
        &self,
        fingerprint: Option<silhouette_simhash::Fingerprint>,
    ) -> PageSignals<'_> {
        PageSignals {
            id: self.id,
            host: &self.host,
            body_hash: self.hash,
            fingerprint,
            elements: self.elements,
            summary: self.summary.as_deref(),
            content: &self.content,
        }
    }
}

/// The judged pages of a crawl state, read once and judged again at any settings.
#[derive(Debug)]
pub struct Judged {
    pub(crate) pages: Vec<Stored>,
    /// Pages whose structure profile could not be read (judged on their bytes only).
    unreadable: u64,
}

/// What a replay at some settings keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Pages kept.
    pub kept: u64,
    /// Structure clusters the judged pages fall in.
    pub clusters: u64,
}

impl Judged {
    /// Reads the judged pages (kept, near- and exact duplicates) of `store`, in crawl order.
    pub fn load(store: &Store) -> Result<Self> {
        let mut pages = Vec::new();
        let mut unreadable = 0u64;
        store
            .records(None, |r| {
                if !r.page.decision.is_judged() {
                    return;
                }
                let Some(hash) = r.page.body_hash else { return };
                let profile = match r.page.profile.as_deref().map(Profile::from_bytes) {
                    Some(Ok(p)) if r.page.fingerprint.is_some() => Some(p),
                    Some(Err(_)) => {
                        unreadable += 1;
                        None
                    }
                    _ => None,
                };
                let summary = profile
                    .as_ref()
                    .and_then(Profile::paths)
                    .map(silhouette_dom::PathSet::summary);
                pages.push(Stored {
                    id: r.page.id,
                    cluster: match r.page.content_duplicate_of {
                        Some(_) => r.page.cluster.unwrap_or(r.page.id),
                        None => r.page.duplicate_of.unwrap_or(r.page.id),
                    },
                    content: r.page.content,
                    url: r.url,
                    host: r.host,
                    decision: r.page.decision,
                    hash,
                    profile,
                    summary,
                    elements: r.page.elements.unwrap_or(0),
                });
            })
            .context("cannot read the crawl state")?;
        Ok(Self { pages, unreadable })
    }

    /// How many pages there are.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// Judges the pages `among` holds (by index, in crawl order) again at `decay` with
    /// `config`; `None` for the others.
    fn judge_among(
        &self,
        fingerprints: &[Option<silhouette_simhash::Fingerprint>],
        decay: f64,
        config: DedupConfig,
        among: &dyn Fn(usize) -> bool,
    ) -> Result<Vec<Option<Outcome>>> {
        let params = format!("replay/decay={decay}");
        let mut dedup =
            Dedup::new(config, &params).map_err(|e| Error::Refused(format!("dedup.{e}")))?;
        Ok(self
            .pages
            .iter()
            .zip(fingerprints)
            .enumerate()
            .map(|(i, (s, &fingerprint))| {
                if !among(i) {
                    return None;
                }
                let v = dedup.judge_page(&s.signals(fingerprint));
                Some(Outcome {
                    id: s.id,
                    decision: v.decision(),
                    cluster: cluster_of(s.id, v),
                    distance: match v {
                        Verdict::NearDuplicate { distance, .. } => Some(distance),
                        _ => None,
                    },
                    similarity: dedup.last_similarity(),
                })
            })
            .collect())
    }

    /// Walks from `start` (the crawl's threshold and min-similarity; `None`: judge from
    /// scratch) to `config`'s at `decay`, calling `visit` on every step (see
    /// `replay_cascade`); the outcomes of the last.
    fn walk(
        &self,
        decay: f64,
        config: DedupConfig,
        start: Option<Setting>,
        visit: &mut dyn FnMut(Setting, &[Outcome]),
    ) -> Result<Vec<Outcome>> {
        self.walk_with(&self.fingerprints(decay), decay, config, start, visit)
    }

    /// Every page's fingerprint at `decay`, in crawl order.
    fn fingerprints(&self, decay: f64) -> Vec<Option<silhouette_simhash::Fingerprint>> {
        self.pages
            .iter()
            .map(|s| s.profile.as_ref().map(|p| p.fingerprint(decay)))
            .collect()
    }

    /// [`walk`](Self::walk) with the pages' `fingerprints` at `decay` already made.
    fn walk_with(
        &self,
        fingerprints: &[Option<silhouette_simhash::Fingerprint>],
        decay: f64,
        config: DedupConfig,
        start: Option<Setting>,
        visit: &mut dyn FnMut(Setting, &[Outcome]),
    ) -> Result<Vec<Outcome>> {
        let to = Setting::of(&config);
        let start = start.unwrap_or(to);
        let mut judge = |setting: Setting, among: &dyn Fn(usize) -> bool| {
            let config = DedupConfig {
                threshold: setting.threshold,
                min_similarity: setting.min_similarity,
                ..config
            };
            self.judge_among(fingerprints, decay, config, among)
        };
        crate::replay_cascade::walk(start, to, &mut judge, visit)
    }

    /// The pages as [`replay`] lists them, from their outcomes.
    fn pages(&self, outcomes: &[Outcome]) -> Vec<Page> {
        self.pages
            .iter()
            .zip(outcomes)
            .map(|(s, o)| Page {
                id: s.id,
                old_cluster: s.cluster,
                url: s.url.clone(),
                host: s.host.clone(),
                old: s.decision,
                new: o.decision,
                new_cluster: o.cluster,
                distance: o.distance,
                similarity: o.similarity,
            })
            .collect()
    }

    /// Pages kept and clusters at `decay` with `config` at each of `thresholds`, walked from
    /// `config`'s threshold (the crawl's; see [`Setting::of_recorded`]), nothing printed: a looser
    /// threshold keeps a subset of a stricter one's pages.
    pub fn counts(
        &self,
        decay: f64,
        config: DedupConfig,
        thresholds: &[u32],
    ) -> Result<Vec<Counts>> {
        let start = Setting::of(&config);
        let mut found: HashMap<u32, Counts> = HashMap::new();
        let (lo, hi) = (
            thresholds.iter().copied().min().unwrap_or(config.threshold),
            thresholds.iter().copied().max().unwrap_or(config.threshold),
        );
        let fingerprints = self.fingerprints(decay);
        for end in [lo, hi] {
            let to = DedupConfig {
                threshold: end,
                ..config
            };
            self.walk_with(&fingerprints, decay, to, Some(start), &mut |s, cell| {
                found.entry(s.threshold).or_insert_with(|| counts_of(cell));
            })?;
        }
        Ok(thresholds
            .iter()
            .map(|t| {
                found.get(t).copied().unwrap_or(Counts {
                    kept: 0,
                    clusters: 0,
                })
            })
            .collect())
    }
}

/// Pages kept and clusters of one step's outcomes.
fn counts_of(cell: &[Outcome]) -> Counts {
    let map: HashMap<u64, u64> = cell.iter().map(|o| (o.id, o.cluster)).collect();
    let clusters: HashSet<u64> = cell.iter().map(|o| resolve(&map, o.cluster)).collect();
    Counts {
        kept: cell.iter().filter(|o| o.decision == Decision::Kept).count() as u64,
        clusters: clusters.len() as u64,
    }
}

impl Setting {
    /// The crawl's own threshold and min-similarity as `recorded` holds them, when it holds a
    /// threshold: where a replay starts. Walked from there, a looser setting keeps a subset
    /// of the crawl's kept pages and a stricter one a superset (`replay_cascade`).
    pub fn of_recorded(recorded: &Recorded) -> Option<Self> {
        Some(Self {
            threshold: recorded.threshold.and_then(|t| u32::try_from(t).ok())?,
            min_similarity: recorded.min_similarity,
        })
    }
}

/// The cluster `c` ends in, following exact duplicates to the page they copy (a few steps).
fn resolve(map: &HashMap<u64, u64>, mut c: u64) -> u64 {
    for _ in 0..4 {
        match map.get(&c) {
            Some(&next) if next != c => c = next,
            _ => break,
        }
    }
    c
}

/// Changed decisions listed by `replay` before the rest is counted.
const CHANGES_SHOWN: usize = 10;

/// Replays the judged pages of `store` with `config` at `decay`, printing the comparison.
/// From `start` (the crawl's own threshold and min-similarity, [`Setting::of_recorded`]) the replay walks
/// to `config`'s one step at a time, so a looser setting keeps a subset of the crawl's kept
/// pages and a stricter one a superset; with `None` it judges every page from scratch at
/// `config`'s.
pub fn replay(
    store: &Store,
    decay: f64,
    config: DedupConfig,
    start: Option<Setting>,
    out: &mut dyn Write,
) -> Result<()> {
    let original = store
        .meta("fingerprint")?
        .unwrap_or_else(|| "unknown".to_owned());
    let content = store.meta("content")?.filter(|c| c != "none");
    if content.is_none() && config.drop_when != DropWhen::Structure {
        refuse!(
            "drop-when = \"{}\" needs content fingerprints, and this crawl recorded none (content.enabled was off): crawl with --content (content.enabled = true) to compare content policies",
            config.drop_when
        );
    }
    let judged = Judged::load(store)?;
    let outcomes = judged.walk(decay, config, start, &mut |_, _| {})?;
    let pages = judged.pages(&outcomes);
    let unreadable = judged.unreadable;
    let landed = start.map(|s| crate::replay_cascade::landing(s, Setting::of(&config)));
    let old_map: HashMap<u64, u64> = pages.iter().map(|p| (p.id, p.old_cluster)).collect();
    let new_map: HashMap<u64, u64> = pages.iter().map(|p| (p.id, p.new_cluster)).collect();
    let url_of: HashMap<u64, &str> = pages.iter().map(|p| (p.id, p.url.as_str())).collect();

    let similarity = landed.map_or(config.min_similarity, |l| l.min_similarity);
    writeln!(
        out,
        "replay of {} judged pages: recorded with {original}; now decay={decay}, threshold={}{}, drop-when={}, content-threshold={}",
        pages.len(),
        config.threshold,
        similarity
            .map(|m| format!(", min-similarity={m}"))
            .unwrap_or_default(),
        config.drop_when,
        config.content_threshold,
    )?;
    if let (Some(asked), Some(used)) = (config.min_similarity, similarity)
        && asked != used
    {
        writeln!(
            out,
            "min-similarity {asked} was replayed as {used}: a replay steps from the crawl's in hundredths"
        )?;
    }
    match start {
        Some(s) => writeln!(
            out,
            "walked from the crawl's threshold={}{} one step at a time: a looser setting keeps a subset of the pages a stricter one keeps (--from-scratch: judge every page at these settings alone)",
            s.threshold,
            s.min_similarity
                .map(|m| format!(", min-similarity={m}"))
                .unwrap_or_default()
        )?,
        None => writeln!(
            out,
            "judged from scratch at these settings: a looser setting can keep more pages than a stricter one"
        )?,
    }
    let kept = |d: Decision| d == Decision::Kept;
    let (old_kept, new_kept) = (
        pages.iter().filter(|p| kept(p.old)).count(),
        pages.iter().filter(|p| kept(p.new)).count(),
    );
    writeln!(
        out,
        "kept: {old_kept} -> {new_kept}; dropped: {} -> {}",
        pages.len() - old_kept,
        pages.len() - new_kept
    )?;

    let mut decisions: BTreeMap<&str, u64> = BTreeMap::new();
    for p in &pages {
        *decisions.entry(p.new.as_str()).or_default() += 1;
    }
    let listed: Vec<String> = decisions.iter().map(|(d, n)| format!("{d} {n}")).collect();
    writeln!(out, "decisions now: {}", listed.join(", "))?;

    let mut per_host: BTreeMap<&str, (u64, u64, u64)> = BTreeMap::new();
    for p in &pages {
        let row = per_host.entry(&p.host).or_default();
        row.0 += 1;
        row.1 += u64::from(kept(p.old));
        row.2 += u64::from(kept(p.new));
    }
    writeln!(out, "per host (pages, kept before -> after):")?;
    for (host, (n, before, after)) in &per_host {
        writeln!(out, "  {host:<30} {n:>7}  {before:>7} -> {after:<7}")?;
    }

    let mut old_members: HashMap<u64, HashSet<u64>> = HashMap::new();
    let mut new_members: HashMap<u64, HashSet<u64>> = HashMap::new();
    for p in &pages {
        let (o, n) = (
            resolve(&old_map, p.old_cluster),
            resolve(&new_map, p.new_cluster),
        );
        old_members.entry(n).or_default().insert(o);
        new_members.entry(o).or_default().insert(n);
    }
    let mut merged: Vec<(usize, u64)> = old_members
        .iter()
        .filter(|(_, olds)| olds.len() > 1)
        .map(|(c, olds)| (olds.len(), *c))
        .collect();
    let mut split: Vec<(usize, u64)> = new_members
        .iter()
        .filter(|(_, news)| news.len() > 1)
        .map(|(c, news)| (news.len(), *c))
        .collect();
    merged.sort_unstable_by(|a, b| b.cmp(a));
    split.sort_unstable_by(|a, b| b.cmp(a));
    writeln!(
        out,
        "clusters merged: {} (a new cluster holding pages of several old ones)",
        merged.len()
    )?;
    for (n, c) in merged.iter().take(5) {
        writeln!(
            out,
            "  {n} old clusters now one, first page {}",
            url_of.get(c).unwrap_or(&"?")
        )?;
    }
    if merged.len() > 5 {
        writeln!(out, "  … and {} more", merged.len() - 5)?;
    }
    writeln!(
        out,
        "clusters split: {} (an old cluster whose pages now fall in several)",
        split.len()
    )?;
    for (n, c) in split.iter().take(5) {
        writeln!(
            out,
            "  into {n}: old cluster of {}",
            url_of.get(c).unwrap_or(&"?")
        )?;
    }
    if split.len() > 5 {
        writeln!(out, "  … and {} more", split.len() - 5)?;
    }
    let changed: Vec<&Page> = pages
        .iter()
        .filter(|p| kept(p.old) != kept(p.new))
        .collect();
    writeln!(out, "decisions changed: {}", changed.len())?;
    for p in changed.iter().take(CHANGES_SHOWN) {
        writeln!(out, "  {} -> {}  {}", p.old, p.new, p.url)?;
    }
    if changed.len() > CHANGES_SHOWN {
        writeln!(out, "  … and {} more", changed.len() - CHANGES_SHOWN)?;
    }
    clusters(&pages, &new_map, &url_of, similarity, out)?;
    super::replay_gaps::Gaps::of(store)?.print(out)?;
    if unreadable > 0 {
        writeln!(
            out,
            "warning: {unreadable} pages had an unreadable structure profile and were judged on their bytes only"
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use silhouette_dom::StructureHasher;
    use silhouette_frontier::{PageRecord, body_hash};

    use super::*;

    /// A state whose pages were judged at decay 0.45, threshold 5, in this order.
    fn state(dir: &std::path::Path, pages: &[&str]) -> Store {
        judged(
            dir,
            pages,
            &StructureHasher::classic(),
            DedupConfig::default(),
        )
    }

    /// A state whose pages were fingerprinted by `hasher` and judged with `config` (and their
    /// path sets, when the model has them), in this order.
    fn judged(
        dir: &std::path::Path,
        pages: &[&str],
        hasher: &StructureHasher,
        config: DedupConfig,
    ) -> Store {
        let mut dedup = Dedup::new(config, "t").expect("valid");
        let (mut store, _) = Store::open(dir, &[]).expect("opens");
        for (i, html) in pages.iter().enumerate() {
            let s = hasher.hash(html.as_bytes()).expect("parses");
            let id = store
                .add_url(&format!("http://t/{i}"), "t", 0, None)
                .expect("ok")
                .expect("new");
            let hash = body_hash(html.as_bytes());
            let summary = s.profile.paths().map(silhouette_dom::PathSet::summary);
            let v = dedup.judge(
                id,
                "t",
                hash,
                Some(s.fingerprint),
                s.elements,
                summary.as_deref(),
            );
            let (of, distance) = match v {
                Verdict::NearDuplicate { of, distance } => (Some(of), Some(distance)),
                Verdict::ExactDuplicate { of } => (Some(of), None),
                _ => (None, None),
            };
            let rec = PageRecord {
                id,
                decision: v.decision(),
                fingerprint: Some(s.fingerprint.bits()),
                elements: Some(s.elements),
                body_hash: Some(hash),
                profile: Some(s.profile.to_bytes()),
                duplicate_of: of,
                distance,
                ..PageRecord::default()
            };
            store.record(&rec).expect("ok");
        }
        store.commit().expect("commits");
        store
    }

    /// The replay's output at `threshold`, walked from `start` (`None`: from scratch).
    fn run(store: &Store, decay: f64, threshold: u32, start: Option<u32>) -> String {
        let mut out = Vec::new();
        let config = DedupConfig {
            threshold,
            ..DedupConfig::default()
        };
        let start = start.map(|threshold| Setting {
            threshold,
            min_similarity: None,
        });
        replay(store, decay, config, start, &mut out).expect("replays");
        String::from_utf8(out).expect("utf-8")
    }

    /// The `kept: A -> B` figures of a replay's output.
    fn kept(out: &str) -> (u64, u64) {
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix("kept: "))
            .expect("a kept line");
        let (a, b) = line
            .split_once(';')
            .expect("two parts")
            .0
            .split_once(" -> ")
            .expect("arrow");
        (a.parse().expect("a number"), b.parse().expect("a number"))
    }

    #[test]
    fn same_settings_change_nothing_and_a_tighter_threshold_splits() {
        let dir = tempfile::tempdir().expect("tempdir");
        let list = |n: usize| {
            format!(
                "<!doctype html><title>t</title><main><ul>{}</ul></main>",
                "<li><a href=x>x</a></li>".repeat(n)
            )
        };
        let pages: Vec<String> = (1..=12).map(list).collect();
        let refs: Vec<&str> = pages.iter().map(String::as_str).collect();
        let store = state(dir.path(), &refs);
        for start in [None, Some(5)] {
            let same = run(&store, 0.45, 5, start);
            assert!(same.contains("decisions changed: 0"), "{same}");
            assert!(
                same.contains("clusters merged: 0") && same.contains("clusters split: 0"),
                "{same}"
            );
            let strict = run(&store, 0.45, 0, start);
            assert!(!strict.contains("decisions changed: 0"), "{strict}");
            assert!(strict.contains("clusters split: 1"), "{strict}");
        }
        assert!(run(&store, 0.45, 5, None).contains("judged from scratch"));
        assert!(run(&store, 0.45, 5, Some(5)).contains("walked from the crawl's threshold=5"));
    }

    #[test]
    fn a_walked_replay_keeps_fewer_pages_as_the_threshold_loosens() {
        // Lists and tables of every length: many kinds at a strict threshold, few at a loose one.
        let dir = tempfile::tempdir().expect("tempdir");
        let pages: Vec<String> = (1..=24)
            .map(|n| {
                let (outer, inner) = if n % 2 == 0 {
                    ("ul", "li")
                } else {
                    ("ol", "li")
                };
                format!(
                    "<!doctype html><title>t</title><main><{outer}>{}</{outer}>{}</main>",
                    format!("<{inner}><a href=x>x</a></{inner}>").repeat(n),
                    "<table><tr><td>x</td></tr></table>".repeat(n % 5)
                )
            })
            .collect();
        let refs: Vec<&str> = pages.iter().map(String::as_str).collect();
        let store = state(dir.path(), &refs);
        let (recorded, at_5) = kept(&run(&store, 0.45, 5, Some(5)));
        assert_eq!(recorded, at_5);
        let ladder: Vec<u64> = (0..=8)
            .map(|t| kept(&run(&store, 0.45, t, Some(5))).1)
            .collect();
        assert!(ladder.windows(2).all(|w| w[1] <= w[0]), "{ladder:?}");
        assert!(ladder[0] > ladder[8], "{ladder:?}");
    }

    #[test]
    fn class_paths_confirmation_is_replayed() {
        // Two page kinds within the threshold of each other: with confirmation they stay
        // apart; replayed without it (similarity 0) they merge.
        let dir = tempfile::tempdir().expect("tempdir");
        // 60 shallow blocks shared, then 10 deep chains of each class: the third page holds
        // the first's and 20 more, path sets about half alike, fingerprints a bit apart (deep
        // paths weigh little at decay 0.75). (Two pages each with a block of its own are
        // never joined, `blocks.rs`, at any similarity: the first holds none.)
        let page = |classes: &[&str], extra: &str| {
            let letter = |i: u8| char::from(b'a' + i % 26);
            let chrome: String = (0..60u8)
                .map(|i| format!("<div class=c{}{}>x</div>", letter(i), letter(i / 26)))
                .collect();
            let chains: String = classes
                .iter()
                .flat_map(|class| (0..10u8).map(move |j| (class, j)))
                .map(|(class, j)| {
                    // Each level's class its own: a level that repeats its parent's would fold.
                    let open: String = (0..5u8)
                        .map(|k| format!("<div class={class}{}{}>", letter(j), letter(k)))
                        .collect();
                    format!("{open}x{}", "</div>".repeat(5))
                })
                .collect();
            let wrap: String = (0..5u8)
                .map(|k| format!("<div class=w{}>", letter(k)))
                .collect();
            let article = "<main><p>a</p><p>b</p><h2>c</h2><ul><li>d</li></ul></main>";
            format!(
                "{chrome}{wrap}{chains}{}{extra}{article}",
                "</div>".repeat(5)
            )
        };
        let pages = [
            page(&["p"], ""),
            page(&["p"], "<div>more</div>"),
            page(&["p", "q", "r"], ""),
        ];
        let config = |min_similarity| DedupConfig {
            threshold: 8,
            min_similarity: Some(min_similarity),
            ..DedupConfig::default()
        };
        let refs: Vec<&str> = pages.iter().map(String::as_str).collect();
        let store = judged(dir.path(), &refs, &StructureHasher::default(), config(0.7));
        let mut out = Vec::new();
        replay(&store, 0.75, config(0.7), None, &mut out).expect("replays");
        let same = String::from_utf8(out).expect("utf-8");
        assert!(same.contains("decisions changed: 0"), "{same}");
        assert!(same.contains("kept: 2 -> 2"), "{same}");
        let mut out = Vec::new();
        replay(&store, 0.75, config(0.0), None, &mut out).expect("replays");
        let loose = String::from_utf8(out).expect("utf-8");
        assert!(loose.contains("kept: 2 -> 1"), "{loose}");
        // Walked from the crawl's 0.7 in hundredths: the same pages merge.
        let start = Some(Setting {
            threshold: 8,
            min_similarity: Some(0.7),
        });
        let mut out = Vec::new();
        replay(&store, 0.75, config(0.0), start, &mut out).expect("replays");
        let walked = String::from_utf8(out).expect("utf-8");
        assert!(walked.contains("kept: 2 -> 1"), "{walked}");
        assert!(walked.contains("min-similarity=0,"), "{walked}");
    }
}
