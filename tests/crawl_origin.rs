//! Sites are told apart by host and port: two servers on 127.0.0.1 are two sites for scope,
//! page budgets, queues and politeness, and `stats` names them with their ports.

use crate::common::run_in;
use crate::crawl_support::{config, crawl};
use crate::sites::{Response, Server, tree_site};

/// A small site whose pages link to each other and to `other` (another port, same IP).
fn site_linking_to(other: String) -> impl Fn(&str) -> Response {
    move |target: &str| {
        let links: String = (1..=5)
            .map(|i| format!("<li><a href=\"/p/{i}\">page {i}</a></li>"))
            .collect();
        let body = format!(
            "<!doctype html><html><head><title>{target}</title></head><body><ul>{links}</ul>\
             <p><a href=\"{other}/n/1\">the other site</a> <a href=\"{other}/\">its home</a></p>\
             </body></html>"
        );
        Response::html(body)
    }
}

/// Two sites on 127.0.0.1: (one linking to the other, the other).
fn two_sites() -> (Server, Server) {
    let other = Server::start(|_| |target: &str| tree_site(30, target));
    let base = other.url("");
    (Server::start(|_| site_linking_to(base)), other)
}

#[test]
fn same_host_scope_keeps_to_the_seeds_port() {
    let (site, other) = two_sites();
    let dir = tempfile::tempdir().expect("tempdir");
    let r = crawl(dir.path(), &config("", ""), &[&site.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(site.served() >= 6, "the seed's site was crawled");
    assert_eq!(other.hits(), [], "the other port is another site");
}

#[test]
fn budgets_and_stats_are_per_host_and_port() {
    let (site, other) = two_sites();
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = config("on-duplicate = \"keep\"", "max-pages-per-host = 3");
    let r = crawl(dir.path(), &toml, &[&site.url("/"), &other.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let pages = |s: &Server| {
        s.hits()
            .iter()
            .filter(|h| h.target != "/robots.txt")
            .count()
    };
    // One budget per site: each got its 3 pages (one shared budget would give 3 in all).
    assert_eq!((pages(&site), pages(&other)), (3, 3));
    let stats = run_in(dir.path(), &["stats", "state"], b"");
    for server in [&site, &other] {
        let line = format!("  {}", server.addr);
        assert!(
            stats
                .stdout
                .lines()
                .any(|l| l.starts_with(&line) && l.split_whitespace().nth(2) == Some("3")),
            "{line} in {}",
            stats.stdout
        );
    }
}
