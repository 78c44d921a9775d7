//! The end-of-crawl summary, also printed by `silhouette stats STATE`.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;
use silhouette_frontier::{Decision, StateError, Store};

/// Rows of a list printed in the summary before it is cut (the rest is counted).
const HOSTS_SHOWN: usize = 20;
const CLUSTERS_SHOWN: usize = 10;

/// Totals of one host.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HostRow {
    /// Pages recorded.
    pub pages: u64,
    /// Kept.
    pub kept: u64,
    /// Duplicates.
    pub dropped: u64,
    /// Errors.
    pub errors: u64,
}

/// One page of a structure cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Member {
    /// Its URL.
    pub url: String,
    /// Its decision (`kept`, `near-duplicate`, …).
    pub decision: String,
    /// Bits from the cluster's first page (near-duplicates only).
    pub distance: Option<u32>,
}

/// A structure cluster: its first page and how many pages fell into it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cluster {
    /// The URL of its first (kept) page.
    pub first: String,
    /// Pages in it.
    pub pages: u64,
    /// Pages of it kept.
    pub kept: u64,
    /// Every page, in crawl order (only when asked for: `stats --clusters`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Member>,
}

/// A seed that was fetched but not crawled: its decision and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FailedSeed {
    /// The seed.
    pub url: String,
    /// Its decision.
    pub decision: String,
    /// Why.
    pub error: Option<String>,
}

/// What a crawl state holds, summed up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Pages recorded.
    pub pages: u64,
    /// Pages per decision.
    pub per_decision: BTreeMap<String, u64>,
    /// Totals per host.
    pub per_host: BTreeMap<String, HostRow>,
    /// Errors per error code.
    pub errors: BTreeMap<String, u64>,
    /// URLs found beyond a page limit, kept for a run with a higher one.
    pub deferred: u64,
    /// URLs queued and not yet fetched (the crawl was stopped before its end).
    pub queued: u64,
    /// How many seeds the crawl has.
    pub seeds: u64,
    /// Seeds whose fetch ended in an error, a robots.txt refusal or a redirect out of scope.
    pub failed_seeds: Vec<FailedSeed>,
    /// Pages judged out of the order their URLs were found in (a stuck fetch).
    pub out_of_order: u64,
    /// Every structure cluster, largest first.
    pub clusters: Vec<Cluster>,
}

/// Sums up the records of `store`; `members`: list every cluster's pages too.
pub fn summarize(store: &Store, members: bool) -> Result<Summary, StateError> {
    let mut s = Summary::default();
    let mut clusters: Vec<Cluster> = Vec::new();
    let mut cluster_index: HashMap<String, usize> = HashMap::new();
    let seeds: Vec<String> = store
        .meta("seeds")?
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect();
    s.seeds = seeds.len() as u64;
    store.records(None, |r| {
        s.pages += 1;
        s.out_of_order += u64::from(r.page.out_of_order);
        if !r.page.decision.is_judged() && seeds.contains(&r.url) {
            s.failed_seeds.push(FailedSeed {
                url: r.url.clone(),
                decision: r.page.decision.to_string(),
                error: r.page.error.clone(),
            });
        }
        let d = r.page.decision.to_string();
        *s.per_decision.entry(d.clone()).or_insert(0) += 1;
        let host = s.per_host.entry(r.host.clone()).or_default();
        host.pages += 1;
        match r.page.decision {
            Decision::Kept => host.kept += 1,
            dup if dup.is_duplicate() => host.dropped += 1,
            Decision::Error => {
                host.errors += 1;
                let class = r
                    .page
                    .error
                    .as_deref()
                    .and_then(|e| e.split(':').next())
                    .unwrap_or("unknown");
                *s.errors.entry(class.to_owned()).or_insert(0) += 1;
            }
            _ => {}
        }
        if let Some(first) = r.cluster_url {
            let i = *cluster_index.entry(first.clone()).or_insert_with(|| {
                clusters.push(Cluster {
                    first,
                    pages: 0,
                    kept: 0,
                    members: Vec::new(),
                });
                clusters.len() - 1
            });
            let c = &mut clusters[i];
            c.pages += 1;
            c.kept += u64::from(r.page.decision == Decision::Kept);
            if members {
                c.members.push(Member {
                    url: r.url,
                    decision: d,
                    distance: r.page.distance,
                });
            }
        }
    })?;
    clusters.sort_by(|a, b| b.pages.cmp(&a.pages).then_with(|| a.first.cmp(&b.first)));
    s.clusters = clusters;
    s.deferred = store.deferred_count()?;
    s.queued = store.queued_count()?;
    Ok(s)
}

impl Summary {
    /// Every seed was fetched and none could be crawled.
    pub fn no_seed_crawled(&self) -> bool {
        self.seeds > 0 && self.failed_seeds.len() as u64 == self.seeds
    }
}

/// Prints the summary; `all_clusters`: every cluster with its pages, else the largest;
/// `state`: the state directory the hints name (none: a temporary one).
pub fn print(
    s: &Summary,
    all_clusters: bool,
    state: Option<&Path>,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "{} URLs recorded", s.pages)?;
    for (decision, n) in &s.per_decision {
        writeln!(out, "  {decision:<18} {n:>8}")?;
    }
    if s.out_of_order > 0 {
        writeln!(
            out,
            "{} pages judged out of order: their fetch was stuck while the pages found after \
             them waited (crawl.reorder-timeout-secs); a rerun may decide them otherwise \
             (`out_of_order` in decisions.jsonl)",
            s.out_of_order
        )?;
    }
    if s.queued > 0 {
        writeln!(
            out,
            "{} URLs queued, not yet fetched: the crawl was stopped before its end; run it \
             again with the same state to fetch them",
            s.queued
        )?;
    }
    if s.deferred > 0 {
        writeln!(
            out,
            "{} URLs found beyond the page limit are deferred: raise crawl.max-pages \
             (--max-pages) or max-pages-per-host and run the same command again to crawl them",
            s.deferred
        )?;
    }
    if !s.failed_seeds.is_empty() {
        writeln!(
            out,
            "seeds not crawled ({} of {}):",
            s.failed_seeds.len(),
            s.seeds
        )?;
        for f in &s.failed_seeds {
            let why = f.error.as_deref().unwrap_or("");
            writeln!(out, "  {}  {}: {why}", f.url, f.decision)?;
        }
    }
    if !s.per_host.is_empty() {
        writeln!(out, "hosts:")?;
        let mut hosts: Vec<(&String, &HostRow)> = s.per_host.iter().collect();
        hosts.sort_by(|a, b| b.1.pages.cmp(&a.1.pages).then_with(|| a.0.cmp(b.0)));
        for (host, h) in hosts.iter().take(HOSTS_SHOWN) {
            writeln!(
                out,
                "  {host:<30} pages {:>7}  kept {:>7}  dropped {:>7}  errors {:>5}",
                h.pages, h.kept, h.dropped, h.errors
            )?;
        }
        if hosts.len() > HOSTS_SHOWN {
            writeln!(out, "  … and {} more hosts", hosts.len() - HOSTS_SHOWN)?;
        }
    }
    if !s.errors.is_empty() {
        writeln!(out, "errors:")?;
        for (class, n) in &s.errors {
            writeln!(out, "  {class:<18} {n:>8}")?;
        }
    }
    if s.clusters.is_empty() {
        return Ok(());
    }
    if all_clusters {
        writeln!(
            out,
            "structure clusters ({}; pages, kept, first page, then every page):",
            s.clusters.len()
        )?;
        for c in &s.clusters {
            writeln!(out, "  {:>7} {:>5}  {}", c.pages, c.kept, c.first)?;
            for m in &c.members {
                let distance = m.distance.map(|d| d.to_string()).unwrap_or_default();
                writeln!(out, "      {:<15} {distance:>2}  {}", m.decision, m.url)?;
            }
        }
        return Ok(());
    }
    writeln!(out, "largest structure clusters (pages, first page):")?;
    for c in s.clusters.iter().take(CLUSTERS_SHOWN) {
        writeln!(out, "  {:>7}  {}", c.pages, c.first)?;
    }
    if s.clusters.len() > CLUSTERS_SHOWN {
        let more = s.clusters.len() - CLUSTERS_SHOWN;
        match state {
            Some(dir) => writeln!(
                out,
                "  … and {more} more clusters (`silhouette stats --clusters {}` lists them all)",
                shell_word(&dir.display().to_string())
            )?,
            None => writeln!(out, "  … and {more} more clusters")?,
        }
    }
    Ok(())
}

/// `word` as one shell word: quoted when it holds anything but plain characters.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_clusters(n: u64) -> Summary {
        Summary {
            pages: n,
            clusters: (1..=n)
                .map(|i| Cluster {
                    first: format!("http://t/{i}"),
                    pages: 100 - i,
                    kept: 1,
                    members: Vec::new(),
                })
                .collect(),
            ..Summary::default()
        }
    }

    fn check(clusters: u64, expected_tail: &str) {
        let mut out = Vec::new();
        print(
            &with_clusters(clusters),
            false,
            Some(Path::new("my state")),
            &mut out,
        )
        .expect("prints");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(text.ends_with(expected_tail), "{text}");
    }

    #[test]
    fn cut_lists_say_how_much_is_left_out() {
        check(3, "       97  http://t/3\n");
        check(10, "       90  http://t/10\n");
        check(
            12,
            "       90  http://t/10\n  … and 2 more clusters (`silhouette stats --clusters 'my state'` lists them all)\n",
        );
    }
}
