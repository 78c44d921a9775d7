//! The end-of-crawl summary, also printed by `silhouette stats STATE`.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};

use silhouette_frontier::{StateError, Store};

/// Totals of one host.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostRow {
    pub pages: u64,
    pub kept: u64,
    pub dropped: u64,
    pub errors: u64,
}

/// What a crawl state holds, summed up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub pages: u64,
    pub per_decision: BTreeMap<String, u64>,
    pub per_host: BTreeMap<String, HostRow>,
    pub errors: BTreeMap<String, u64>,
    /// (pages, representative URL), largest first.
    pub clusters: Vec<(u64, String)>,
}

/// Sums up the records of `store`.
pub fn summarize(store: &Store) -> Result<Summary, StateError> {
    let mut s = Summary::default();
    let mut cluster_size: HashMap<String, u64> = HashMap::new();
    store.records(None, |r| {
        s.pages += 1;
        let d = r.page.decision.clone();
        *s.per_decision.entry(d.clone()).or_insert(0) += 1;
        let host = s.per_host.entry(r.host.clone()).or_default();
        host.pages += 1;
        match d.as_str() {
            "kept" => {
                host.kept += 1;
                if r.page.fingerprint.is_some() {
                    *cluster_size.entry(r.url.clone()).or_insert(0) += 1;
                }
            }
            "near-duplicate" | "exact-duplicate" => {
                host.dropped += 1;
                if let Some(of) = &r.duplicate_of_url {
                    *cluster_size.entry(of.clone()).or_insert(0) += 1;
                }
            }
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
    })?;
    let mut clusters: Vec<(u64, String)> = cluster_size.into_iter().map(|(u, n)| (n, u)).collect();
    clusters.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    clusters.truncate(10);
    s.clusters = clusters;
    Ok(s)
}

/// Prints the summary.
pub fn print(s: &Summary, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{} URLs recorded", s.pages)?;
    for (decision, n) in &s.per_decision {
        writeln!(out, "  {decision:<18} {n:>8}")?;
    }
    if !s.per_host.is_empty() {
        writeln!(out, "hosts:")?;
        let mut hosts: Vec<(&String, &HostRow)> = s.per_host.iter().collect();
        hosts.sort_by(|a, b| b.1.pages.cmp(&a.1.pages).then_with(|| a.0.cmp(b.0)));
        for (host, h) in hosts.iter().take(20) {
            writeln!(
                out,
                "  {host:<30} pages {:>7}  kept {:>7}  dropped {:>7}  errors {:>5}",
                h.pages, h.kept, h.dropped, h.errors
            )?;
        }
        if hosts.len() > 20 {
            writeln!(out, "  … and {} more hosts", hosts.len() - 20)?;
        }
    }
    if !s.errors.is_empty() {
        writeln!(out, "errors:")?;
        for (class, n) in &s.errors {
            writeln!(out, "  {class:<18} {n:>8}")?;
        }
    }
    if !s.clusters.is_empty() {
        writeln!(out, "largest structure clusters (pages, first page):")?;
        for (n, url) in &s.clusters {
            writeln!(out, "  {n:>7}  {url}")?;
        }
    }
    Ok(())
}
