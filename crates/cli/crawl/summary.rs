//! The end-of-crawl summary, also printed by `silhouette stats STATE`.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

use serde::Serialize;
use silhouette_frontier::{StateError, Store};

/// Rows of a list printed in the summary before it is cut (the rest is counted).
const HOSTS_SHOWN: usize = 20;
const CLUSTERS_SHOWN: usize = 10;

/// Totals of one host.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HostRow {
    pub pages: u64,
    pub kept: u64,
    pub dropped: u64,
    pub errors: u64,
}

/// One page of a structure cluster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Member {
    pub url: String,
    pub decision: String,
    /// Bits from the cluster's first page (near-duplicates only).
    pub distance: Option<u32>,
}

/// A structure cluster: its first page and how many pages fell into it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cluster {
    pub first: String,
    pub pages: u64,
    pub kept: u64,
    /// Every page, in crawl order (only when asked for: `stats --clusters`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Member>,
}

/// What a crawl state holds, summed up.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub pages: u64,
    pub per_decision: BTreeMap<String, u64>,
    pub per_host: BTreeMap<String, HostRow>,
    pub errors: BTreeMap<String, u64>,
    /// URLs found beyond a page limit, kept for a run with a higher one.
    pub deferred: u64,
    /// Every structure cluster, largest first.
    pub clusters: Vec<Cluster>,
}

/// Sums up the records of `store`; `members`: list every cluster's pages too.
pub fn summarize(store: &Store, members: bool) -> Result<Summary, StateError> {
    let mut s = Summary::default();
    let mut clusters: Vec<Cluster> = Vec::new();
    let mut cluster_index: HashMap<String, usize> = HashMap::new();
    store.records(None, |r| {
        s.pages += 1;
        let d = r.page.decision.clone();
        *s.per_decision.entry(d.clone()).or_insert(0) += 1;
        let host = s.per_host.entry(r.host.clone()).or_default();
        host.pages += 1;
        match d.as_str() {
            "kept" => host.kept += 1,
            "near-duplicate" | "exact-duplicate" | "content-duplicate" => host.dropped += 1,
            "error" => {
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
            c.kept += u64::from(d == "kept");
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
    Ok(s)
}

/// Prints the summary; `all_clusters`: every cluster with its pages, else the largest.
pub fn print(s: &Summary, all_clusters: bool, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{} URLs recorded", s.pages)?;
    for (decision, n) in &s.per_decision {
        writeln!(out, "  {decision:<18} {n:>8}")?;
    }
    if s.deferred > 0 {
        writeln!(
            out,
            "stopped by the page limit: {} more URLs found are deferred; raise crawl.max-pages \
             (--max-pages) or max-pages-per-host and run the same command again to crawl them",
            s.deferred
        )?;
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
        writeln!(
            out,
            "  … and {} more clusters (`silhouette stats --clusters STATE` lists them all)",
            s.clusters.len() - CLUSTERS_SHOWN
        )?;
    }
    Ok(())
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
        print(&with_clusters(clusters), false, &mut out).expect("prints");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(text.ends_with(expected_tail), "{text}");
    }

    #[test]
    fn cut_lists_say_how_much_is_left_out() {
        check(3, "       97  http://t/3\n");
        check(10, "       90  http://t/10\n");
        check(
            12,
            "       90  http://t/10\n  … and 2 more clusters (`silhouette stats --clusters STATE` lists them all)\n",
        );
    }
}
