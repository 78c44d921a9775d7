//! `silhouette demo`: serve the built-in site on 127.0.0.1, crawl it, show what was kept.

pub mod command;
pub mod server;
pub mod site;

use std::collections::BTreeMap;
use std::io::Write;

/// The template a demo URL path belongs to (for the demo's report).
pub fn template(url: &str) -> &'static str {
    let path = url
        .split_once("//")
        .map_or(url, |(_, rest)| rest.find('/').map_or("/", |i| &rest[i..]));
    let path = path.split('?').next().unwrap_or(path);
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let number_in = |s: &str, max: u32| s.parse::<u32>().is_ok_and(|n| (1..=max).contains(&n));
    match segments.as_slice() {
        [""] => "home",
        ["blog", ""] => "journal index",
        ["blog", post] => {
            let n = post
                .strip_prefix("post-")
                .and_then(|p| p.strip_suffix(".html"))
                .unwrap_or("");
            if number_in(n, site::ARTICLES) {
                "article"
            } else {
                "soft-404"
            }
        }
        ["shop", "item", n] if number_in(n, site::PRODUCTS) => "product",
        ["shop", c] if site::CATEGORIES.contains(c) => "listing",
        ["events", "calendar", ..] => "calendar",
        ["help", n] if number_in(n, site::HELP_PAGES) => "help",
        ["broken", _] | ["files", _] => "broken/other",
        _ => "soft-404",
    }
}

/// Per template: (fetched, kept, dropped, other).
pub type TemplateRows = BTreeMap<&'static str, (u64, u64, u64, u64)>;

/// Prints the per-template table.
pub fn print_templates(rows: &TemplateRows, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<16} {:>8} {:>6} {:>8} {:>6}",
        "template", "fetched", "kept", "dropped", "other"
    )?;
    for (t, (n, k, d, o)) in rows {
        writeln!(out, "{t:<16} {n:>8} {k:>6} {d:>8} {o:>6}")?;
    }
    Ok(())
}
