//! `silhouette report`: the HTML of an end-to-end crawl, checked for structure and for being
//! self-contained.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::run_in;
use crate::crawl_support::{check_consistent, config, crawl, jsonl};
use crate::sites::{Server, dedup_site};

/// The sections of the report, in page order.
pub const SECTIONS: [&str; 7] = [
    "totals",
    "hosts",
    "histogram",
    "grid",
    "clusters",
    "errors",
    "rate",
];

/// Crawls the dedup site into `dir/state` (following the links of duplicates) and writes
/// `dir/report.html`; returns the HTML and the crawled URLs.
pub fn crawl_and_report(dir: &Path) -> (String, BTreeSet<String>) {
    let server = Server::start(|port| move |target: &str| dedup_site(port, target));
    let run = crawl(
        dir,
        &config("on-duplicate = \"follow-links\"\nthreshold = 6", ""),
        &[&server.url("/")],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    check_consistent(dir);
    let report = run_in(
        dir,
        &["--config", "c.toml", "report", "state", "-o", "report.html"],
        b"",
    );
    assert_eq!(report.code, 0, "{}", report.stderr);
    assert!(
        report.stderr.contains("wrote report.html"),
        "{}",
        report.stderr
    );
    let html = std::fs::read_to_string(dir.join("report.html")).expect("the report");
    let urls = jsonl(&dir.join("state/decisions.jsonl"))
        .iter()
        .flat_map(|d| ["url", "final_url"].map(|k| d[k].as_str().map(str::to_owned)))
        .flatten()
        .collect();
    (html, urls)
}

/// `url` as the report writes it in text and attributes.
fn escaped(url: &str) -> String {
    url.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The values of every `name="…"` attribute.
fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    html.match_indices(&key)
        .map(|(i, _)| {
            let rest = &html[i + key.len()..];
            &rest[..rest.find('"').expect("a closing quote")]
        })
        .collect()
}

#[test]
fn report_of_a_crawl_has_every_section_and_needs_nothing_from_the_network() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (html, urls) = crawl_and_report(dir.path());
    assert!(html.starts_with("<!doctype html>"), "{}", &html[..40]);
    assert!(html.trim_end().ends_with("</html>"));

    // Every section, once, in order.
    let at: Vec<usize> = SECTIONS
        .iter()
        .map(|id| {
            let tag = format!("<section id=\"{id}\">");
            assert_eq!(html.matches(&tag).count(), 1, "section {id}");
            html.find(&tag).expect("found")
        })
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");

    // Totals and clusters agree with `stats`.
    let stats = run_in(
        dir.path(),
        &["stats", "state", "--clusters", "--format", "json"],
        b"",
    );
    let stats: serde_json::Value = serde_json::from_str(&stats.stdout).expect("JSON");
    let all = format!(
        "<tr class=\"sum\"><td>all</td><td class=\"n\">{}</td></tr>",
        stats["pages"]
    );
    assert!(html.contains(&all), "no {all}");
    let clusters = stats["clusters"].as_array().expect("clusters");
    assert!(clusters.len() >= 3, "{clusters:?}");
    assert_eq!(
        html.matches("<details class=\"cluster\"").count(),
        clusters.len()
    );
    let largest = clusters[0]["pages"].as_u64().expect("a size");
    assert!(
        html.contains(&format!("<span class=\"size\">{largest}</span> pages")),
        "largest cluster"
    );
    if largest > 10 {
        let more = format!("… and {} more pages", largest - 10);
        assert!(html.contains(&more), "no {more:?}");
    }

    // The grid: 5 decays x 5 thresholds (the crawl's 0.76 and 6 are among them), one
    // marked cell; the histogram draws the threshold.
    assert_eq!(html.matches("<td class=\"current\"").count(), 1);
    let grid = &html[at[3]..at[4]];
    assert_eq!(grid.matches("<td").count(), 25, "{grid}");
    // Replayed at the crawl's own settings, the marked cell keeps what the crawl kept.
    let cell = &html[html.find("<td class=\"current\"").expect("a marked cell")..];
    let cell = &cell[cell.find("<b>").expect("a count") + 3..];
    let kept: u64 = cell[..cell.find("</b>").expect("a count")]
        .parse()
        .expect("a number");
    assert_eq!(Some(kept), stats["per_decision"]["kept"].as_u64());
    assert!(html.contains("<line id=\"threshold\""));
    assert!(html.contains("<text class=\"threshold\""));
    assert!(html.contains("threshold 6</text>"));
    // Pages per second over time, from the records' timestamps: every fetched URL counted.
    let rate = &html[html.find("id=\"rate\"").expect("rate section")..];
    assert!(rate.contains("<svg id=\"rate-svg\""), "{rate}");
    let recorded = format!(
        "{} pages recorded over ",
        stats["pages"].as_u64().unwrap_or(0)
    );
    assert!(rate.contains(&recorded), "no {recorded:?} in {rate}");

    // Self-contained: nothing loaded from anywhere (no src, no stylesheet links, no CSS
    // urls or imports); links only to sections and to crawled pages; every http(s) URL in
    // the file is a crawled one.
    for banned in [" src=", "<link", "@import", "url(", "<iframe", "<img"] {
        assert!(!html.contains(banned), "the report contains {banned:?}");
    }
    let crawled: BTreeSet<String> = urls.iter().map(|u| escaped(u)).collect();
    for href in attributes(&html, "href") {
        assert!(
            href.starts_with('#') || crawled.contains(href),
            "href {href:?} is neither a section nor a crawled URL"
        );
    }
    for (i, _) in html.match_indices("http") {
        let rest = &html[i..];
        if rest.starts_with("http://") || rest.starts_with("https://") {
            assert!(
                crawled.iter().any(|u| rest.starts_with(u.as_str())),
                "a URL that was not crawled: {}",
                &rest[..rest.len().min(80)]
            );
        }
    }
}
