//! The content of each section of the report.

use std::fmt::Write;

use super::Report;
use super::html::{esc, url_link};
use silhouette_crawl::Cluster;

/// Hosts listed before the list is cut (the rest are counted).
const HOSTS_SHOWN: usize = 200;
/// Clusters listed before the list is cut: bounds the file's size on large crawls.
const CLUSTERS_SHOWN: usize = 500;
/// Clusters shown unfolded at the top.
const CLUSTERS_OPEN: usize = 3;
/// Pages listed per cluster.
const MEMBERS_SHOWN: usize = 10;

/// Writes the content of section `id`.
pub fn write(id: &str, r: &Report, out: &mut String) {
    match id {
        "totals" => totals(r, out),
        "hosts" => hosts(r, out),
        "histogram" => histogram(r, out),
        "grid" => grid(r, out),
        "clusters" => clusters(r, out),
        "errors" => errors(r, out),
        _ => rate(r, out),
    }
}

fn totals(r: &Report, out: &mut String) {
    out.push_str("<table class=\"totals\">\n<tr><th>decision</th><th>pages</th></tr>\n");
    for (decision, n) in &r.summary.per_decision {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{n}</td></tr>",
            esc(decision)
        );
    }
    let _ = writeln!(
        out,
        "<tr class=\"sum\"><td>all</td><td class=\"n\">{}</td></tr>\n</table>",
        r.summary.pages
    );
    if r.summary.queued > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} URLs are queued, not yet fetched: the crawl was stopped \
             before its end (run it again with the same state to fetch them).</p>",
            r.summary.queued
        );
    }
    if r.summary.deferred > 0 {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} URLs found beyond the page limit are deferred \
             (raise <code>--max-pages</code> and run the crawl again to fetch them).</p>",
            r.summary.deferred
        );
    }
}

fn hosts(r: &Report, out: &mut String) {
    let mut hosts: Vec<_> = r.summary.per_host.iter().collect();
    hosts.sort_by(|a, b| b.1.pages.cmp(&a.1.pages).then_with(|| a.0.cmp(b.0)));
    out.push_str(
        "<table class=\"hosts\">\n<tr><th>host</th><th>pages</th><th>kept</th>\
         <th>dropped</th><th>errors</th></tr>\n",
    );
    for (host, h) in hosts.iter().take(HOSTS_SHOWN) {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            esc(host),
            h.pages,
            h.kept,
            h.dropped,
            h.errors
        );
    }
    out.push_str("</table>\n");
    if hosts.len() > HOSTS_SHOWN {
        let _ = writeln!(
            out,
            "<p class=\"note\">… and {} more hosts (<code>silhouette stats</code> lists them).</p>",
            hosts.len() - HOSTS_SHOWN
        );
    }
}

/// `n` and `what`, plural unless one.
fn counted(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn histogram(r: &Report, out: &mut String) {
    let h = &r.histogram;
    out.push_str(&super::svg::histogram(h, ""));
    let near: u64 = h.near.iter().sum();
    let _ = writeln!(
        out,
        "<p class=\"note\">{} by their stored distance in bits to the kept page they \
         matched; {} drawn at 0 bits; {} counted apart (not drawn: they matched no kept page). \
         Red line: the threshold, {} bits — a page this close or closer to a kept page is a \
         duplicate (with class-paths, only if its path set is alike enough too; beyond it, \
         up to <code>far-reach</code> times the threshold, only if its path set is alike by \
         <code>min-similarity</code> + <code>far-margin</code>).</p>",
        counted(near, "near-duplicate"),
        counted(h.exact, "exact duplicate"),
        counted(h.kept, "kept page"),
        h.threshold
    );
    if let Some(c) = &r.content_histogram {
        content_histogram(c, out);
    }
}

/// The content duplicates by their content distance (the crawl's second signal).
fn content_histogram(h: &super::Histogram, out: &mut String) {
    out.push_str("<h3 id=\"content-distance\">Content distance to the kept page</h3>\n");
    out.push_str(&super::svg::histogram(h, "content-"));
    let near: u64 = h.near.iter().sum();
    let _ = writeln!(
        out,
        "<p class=\"note\">{near} content duplicates by the distance in bits between their \
         content fingerprint (main-content text) and that of the kept page whose content they \
         repeat (<code>content_distance</code>). Red line: the content threshold, {} bits \
         (<code>content.threshold</code>); a page past it was matched by its equal semantic \
         signature.</p>",
        h.threshold
    );
}

fn grid(r: &Report, out: &mut String) {
    let g = &r.grid;
    let _ = write!(
        out,
        "<p class=\"note\">Each of the {} judged pages judged again offline at every decay \
         and threshold: <b>pages kept</b> (then / clusters where they differ: a cluster \
         keeps more than one page when its budget allows). The marked cell is the crawl's \
         own setting. Each row is walked from the crawl's threshold one step at a time, \
         each step judging again only the pages the stricter step before it kept: a looser \
         threshold never keeps more pages. A new crawl at another threshold decides from \
         scratch, and can keep more (<code>silhouette replay --from-scratch</code> shows \
         it).",
        g.pages
    );
    let unjudged: u64 = r.gaps.unjudged.values().sum();
    if unjudged > 0 {
        let _ = write!(
            out,
            " Not judged: {unjudged} recorded URLs with no page to compare (errors, \
             not-html…)."
        );
    }
    if r.gaps.queued + r.gaps.deferred > 0 {
        let _ = write!(
            out,
            " Not fetched: {} URLs still queued, {} deferred by the page limit.",
            r.gaps.queued, r.gaps.deferred
        );
    }
    if let Some(n) = r.gaps.dropped_unfollowed.filter(|&n| n > 0) {
        let _ = write!(
            out,
            " <b>This crawl dropped {n} duplicates without following their links</b>, so \
             pages only they link to were never fetched and are not judged here: a looser \
             setting would reach more pages in a real crawl than this grid shows. To tune, \
             crawl with <code>--on-duplicate follow-links</code> (bounded with \
             <code>--max-pages</code>)."
        );
    }
    out.push_str("</p>\n<table class=\"grid\">\n<tr><th>decay \\ threshold</th>");
    for t in &g.thresholds {
        let _ = write!(out, "<th>{t}</th>");
    }
    out.push_str("</tr>\n");
    let most = g.pages.max(1) as f64;
    for (decay, row) in g.decays.iter().zip(&g.cells) {
        let _ = write!(out, "<tr><th>{decay}</th>");
        for (t, c) in g.thresholds.iter().zip(row) {
            let current = g.current == (*decay, *t);
            // Shade: the share of pages kept.
            let alpha = (c.kept as f64 / most * 0.6 + 0.05).min(0.65);
            let _ = write!(
                out,
                "<td{} style=\"background:rgba(46,125,200,{alpha:.2})\" title=\"decay {decay}, \
                 threshold {t}: {} kept, {} clusters\"><b>{}</b>{}{}</td>",
                if current { " class=\"current\"" } else { "" },
                c.kept,
                c.clusters,
                c.kept,
                if c.clusters == c.kept {
                    String::new()
                } else {
                    format!(" / {}", c.clusters)
                },
                if current { " ◆" } else { "" }
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// What a cluster's summary line says before its first page: its size, what it kept, and
/// the bits between its pages and its first one (`min–median–max` of its near-duplicates),
/// each only when there is something to say.
fn cluster_head(c: &Cluster) -> String {
    if c.pages == 1 {
        return format!("<span class=\"size\">1</span> page, {}", one_decision(c));
    }
    let mut head = format!(
        "<span class=\"size\">{}</span> pages, {} kept",
        c.pages, c.kept
    );
    let mut d: Vec<u32> = c.members.iter().filter_map(|m| m.distance).collect();
    if !d.is_empty() {
        d.sort_unstable();
        let _ = write!(
            head,
            ", spread {}–{}–{} bits",
            d[0],
            d[d.len() / 2],
            d[d.len() - 1]
        );
    }
    head
}

fn one_decision(c: &Cluster) -> String {
    c.members
        .first()
        .map_or_else(|| "kept".to_owned(), |m| esc(&m.decision))
}

fn clusters(r: &Report, out: &mut String) {
    let all = &r.summary.clusters;
    let _ = writeln!(
        out,
        "<p class=\"note\">{} clusters, largest first. A cluster is a kept page and the pages \
         judged like it; spread: distance in bits of its near-duplicates to it \
         (least–median–most).</p>\n<p><label>Filter by URL: <input id=\"filter\" \
         type=\"search\"></label> <span id=\"filter-count\"></span></p>",
        all.len()
    );
    for (i, c) in all.iter().take(CLUSTERS_SHOWN).enumerate() {
        let _ = writeln!(
            out,
            "<details class=\"cluster\"{}>\n<summary>{} — {}</summary>\n<ul>",
            if i < CLUSTERS_OPEN { " open" } else { "" },
            cluster_head(c),
            url_link(&c.first)
        );
        for m in c.members.iter().take(MEMBERS_SHOWN) {
            let distance = m.distance.map(|d| format!(" {d} bits")).unwrap_or_default();
            let _ = writeln!(
                out,
                "<li><span class=\"d\">{}{distance}</span> {}</li>",
                esc(&m.decision),
                url_link(&m.url)
            );
        }
        if c.members.len() > MEMBERS_SHOWN {
            let _ = writeln!(
                out,
                "<li class=\"more\">… and {} more pages</li>",
                c.members.len() - MEMBERS_SHOWN
            );
        }
        out.push_str("</ul>\n</details>\n");
    }
    if all.len() > CLUSTERS_SHOWN {
        let _ = writeln!(
            out,
            "<p class=\"note more\">… and {} more clusters (<code>silhouette stats --clusters \
             {}</code> lists them all).</p>",
            all.len() - CLUSTERS_SHOWN,
            esc(&silhouette_crawl::shell_word(&r.state))
        );
    }
}

fn errors(r: &Report, out: &mut String) {
    if r.summary.errors.is_empty() {
        out.push_str("<p class=\"note\">No errors.</p>\n");
        return;
    }
    out.push_str("<table class=\"errors\">\n<tr><th>class</th><th>pages</th></tr>\n");
    for (class, n) in &r.summary.errors {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"n\">{n}</td></tr>",
            esc(class)
        );
    }
    out.push_str("</table>\n");
}

fn rate(r: &Report, out: &mut String) {
    let rate = &r.rate;
    if rate.counts.is_empty() {
        out.push_str(
            "<p class=\"note\">Not available: this state has no record timestamps \
             (made before they were recorded).</p>\n",
        );
        return;
    }
    let total: u64 = rate.counts.iter().sum();
    let secs = rate.counts.len() as u64 * rate.bucket_secs;
    let peak = rate.counts.iter().copied().max().unwrap_or(0);
    let _ = writeln!(
        out,
        "<p>{total} pages recorded over {secs} s: {:.1} pages/s on average, at most {peak} in one \
         {} s bucket. Gaps are pauses (a resumed crawl, hosts that asked to wait).</p>",
        total as f64 / secs.max(1) as f64,
        rate.bucket_secs
    );
    out.push_str(&super::svg::rate(rate));
}
