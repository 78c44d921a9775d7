//! `silhouette crawl` end to end on a generated site: per-template budgets, templates kept
//! apart, traps bounded, the `on-duplicate` modes, robots and scope, JSONL vs state.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::crawl_support::{Left, check_consistent, config, crawl, field};
use crate::sites::{self, PER, Response, Server, dedup_site, template};

/// A crawl of the dedup site with these `[dedup]`/`[crawl]` lines.
struct SiteCrawl {
    server: Server,
    sentinels: Vec<Server>,
    left: Left,
    stderr: String,
    _dir: tempfile::TempDir,
}

impl SiteCrawl {
    fn run(dedup: &str, crawl_lines: &str) -> Self {
        let server = Server::start(|port| move |target: &str| dedup_site(port, target));
        let sentinels: Vec<Server> = sites::off_scope_ips()
            .into_iter()
            .filter_map(|ip| Server::sentinel(ip, server.addr.port()))
            .collect();
        assert!(!sentinels.is_empty(), "127.0.0.2 cannot be bound");
        let dir = tempfile::tempdir().expect("a temporary directory");
        let seed = server.url("/");
        let r = crawl(dir.path(), &config(dedup, crawl_lines), &[&seed]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let left = check_consistent(dir.path());
        Self {
            server,
            sentinels,
            left,
            stderr: r.stderr,
            _dir: dir,
        }
    }

    /// The path of a URL of the site.
    fn path<'a>(&self, url: &'a str) -> &'a str {
        url.strip_prefix(&self.server.url(""))
            .unwrap_or_else(|| panic!("{url} is not on the site"))
    }

    /// Recorded paths with their decisions.
    fn decisions(&self) -> BTreeMap<String, String> {
        self.left
            .recorded()
            .into_iter()
            .map(|(url, row)| {
                (
                    self.path(url).to_owned(),
                    row.decision.clone().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// Paths of a template with a decision.
    fn with(&self, tmpl: &str, decision: &str) -> BTreeSet<String> {
        self.decisions()
            .into_iter()
            .filter(|(p, d)| template(p) == tmpl && d == decision)
            .map(|(p, _)| p)
            .collect()
    }

    fn count(&self, tmpl: &str) -> usize {
        self.decisions()
            .keys()
            .filter(|p| template(p) == tmpl)
            .count()
    }

    /// What holds in every mode: budgets per template, duplicates within their template,
    /// robots, scope, session ids, each URL requested once.
    fn check_common(&self, budget: usize) {
        let d = self.decisions();
        for tmpl in ["article", "product", "listing", "help"] {
            assert_eq!(
                self.with(tmpl, "kept").len(),
                budget,
                "{tmpl} kept: {:?}",
                self.with(tmpl, "kept")
            );
        }
        assert_eq!(self.with("home", "kept").len(), 1);
        let cal_kept = self.with("calendar", "kept").len();
        assert_eq!(cal_kept, budget.min(self.count("calendar")), "calendar");
        // Every template page is linked from the home page: all fetched.
        for t in ["a", "p", "l"] {
            for n in 1..=PER {
                assert!(d.contains_key(&format!("/{t}/{n}")), "/{t}/{n} not crawled");
            }
        }
        // Duplicates point into their own template, within the threshold; templates are
        // never merged.
        for (url, row) in self.left.recorded() {
            if let Some(of) = &row.duplicate_of {
                let (p, q) = (self.path(url), self.path(of));
                assert_eq!(template(p), template(q), "{p} judged a duplicate of {q}");
                if row.decision.as_deref() == Some("near-duplicate") {
                    assert_eq!(d[q], "kept", "{p} duplicates {q}, which was not kept");
                    assert!(row.distance.is_some_and(|k| (0..=5).contains(&k)), "{p}");
                } else {
                    // An exact duplicate may copy a page that is itself a near-duplicate
                    // (the exact-body map holds every judged page).
                    assert_eq!(row.decision.as_deref(), Some("exact-duplicate"), "{p}");
                    assert!(d[q] == "kept" || d[q] == "near-duplicate", "{p} copies {q}");
                }
            }
        }
        // The odd ones.
        assert_eq!(d["/doc.txt"], "not-html");
        assert_eq!(d["/gone"], "error");
        assert_eq!(d["/private/secret"], "robots-disallowed");
        assert_eq!(d["/away"], "out-of-scope");
        // Session ids and tracking parameters: one URL per page.
        for url in self.left.rows.iter().map(|r| &r.url) {
            let lower = url.to_ascii_lowercase();
            assert!(
                !["session", "sid=", "utm_", "#"]
                    .iter()
                    .any(|s| lower.contains(s)),
                "{url} kept a session id, tracking parameter or fragment"
            );
        }
        // Every request went to 127.0.0.1, never to a disallowed path, each URL once.
        let hits = self.server.hits();
        let mut targets = BTreeMap::new();
        for h in &hits {
            assert_eq!(h.host, self.server.addr.to_string(), "{h:?}");
            assert!(!h.target.starts_with("/private/"), "{h:?}");
            *targets.entry(h.target.as_str()).or_insert(0) += 1;
        }
        assert!(
            targets.iter().all(|(_, &n)| n == 1),
            "URLs requested more than once: {:?}",
            targets.iter().filter(|(_, n)| **n > 1).collect::<Vec<_>>()
        );
        // Off-scope hosts are neither recorded nor contacted.
        for r in &self.left.rows {
            assert!(
                r.url.starts_with(&self.server.url("/")),
                "off-scope {} in the state",
                r.url
            );
        }
        for s in &self.sentinels {
            assert_eq!(s.hits(), [], "{s:?} was contacted");
        }
        assert!(!self.stderr.contains("127.0.0.2"), "{}", self.stderr);
    }

    /// JSONL records by decision.
    fn emitted(&self) -> BTreeMap<String, usize> {
        let mut m = BTreeMap::new();
        for r in &self.left.records {
            *m.entry(field(r, "decision").unwrap_or("").to_owned())
                .or_insert(0) += 1;
        }
        m
    }
}

/// `drop`: duplicates are recorded but neither emitted nor followed, so a help page `/h/T/N`
/// (linked only from `/T/N`) is fetched exactly when `/T/N` was kept; the calendar trap
/// stops after its kept months.
#[test]
fn drop_keeps_the_cluster_budget_and_follows_kept_pages_only() {
    for budget in [1, 2] {
        let c = SiteCrawl::run(&format!("cluster-budget = {budget}"), "");
        c.check_common(budget);
        let d = c.decisions();
        let kept_template_pages: BTreeSet<String> = ["article", "product", "listing"]
            .iter()
            .flat_map(|t| c.with(t, "kept"))
            .collect();
        let help: BTreeSet<String> = d
            .keys()
            .filter(|p| template(p) == "help")
            .cloned()
            .collect();
        let expected: BTreeSet<String> = kept_template_pages
            .iter()
            .map(|p| format!("/h{p}"))
            .collect();
        assert_eq!(help, expected, "budget {budget}");
        for (url, row) in c.left.recorded() {
            if template(c.path(url)) == "help" {
                let referrer = row.referrer.as_deref().map(|r| c.path(r));
                assert_eq!(referrer, Some(&c.path(url)[2..]), "{url}");
            }
        }
        // The calendar: each kept month links two more; duplicates end it.
        assert!(c.count("calendar") <= 1 + 2 * budget, "{d:?}");
        assert!(c.count("loop") <= 1 + budget, "{d:?}");
        // Nothing dropped is emitted.
        let e = c.emitted();
        assert!(!e.contains_key("near-duplicate") && !e.contains_key("exact-duplicate"));
        let dropped = c
            .left
            .rows
            .iter()
            .filter(|r| {
                matches!(
                    r.decision.as_deref(),
                    Some("near-duplicate" | "exact-duplicate")
                )
            })
            .count();
        assert!(dropped > 0);
        assert_eq!(c.left.records.len() + dropped, d.len());
    }
}

/// `follow-links`: every reachable page is fetched, only non-duplicates are emitted; the
/// calendar is bounded by max-depth and the relative-link loop by the trap guards.
#[test]
fn follow_links_fetches_everything_and_emits_non_duplicates() {
    let max_depth = 10;
    let c = SiteCrawl::run(
        "cluster-budget = 2\non-duplicate = \"follow-links\"",
        &format!("max-depth = {max_depth}"),
    );
    c.check_common(2);
    let d = c.decisions();
    for t in ["a", "p", "l"] {
        for n in 1..=PER {
            assert!(d.contains_key(&format!("/h/{t}/{n}")), "/h/{t}/{n}");
        }
    }
    // /cal/2026/1 is at depth 1; each further level adds a month on either side.
    assert_eq!(c.count("calendar"), 1 + 2 * (max_depth - 1), "{d:?}");
    let loops = c.count("loop");
    assert!((2..=4).contains(&loops), "{loops} loop pages: {d:?}");
    let e = c.emitted();
    assert!(!e.contains_key("near-duplicate") && !e.contains_key("exact-duplicate"));
    let kept = d.values().filter(|v| *v == "kept").count();
    assert_eq!(e.get("kept").copied().unwrap_or(0), kept);
}

/// `keep`: every record is emitted; duplicates carry duplicate_of and distance; the same
/// pages are fetched as with `follow-links`.
#[test]
fn keep_emits_duplicates_with_their_cluster() {
    let c = SiteCrawl::run(
        "cluster-budget = 1\non-duplicate = \"keep\"",
        "max-depth = 10",
    );
    c.check_common(1);
    let d = c.decisions();
    assert_eq!(c.left.records.len(), d.len(), "every record emitted");
    let mut near = 0;
    for r in &c.left.records {
        let url = field(r, "url").expect("url");
        if field(r, "decision") == Some("near-duplicate") {
            near += 1;
            let of = field(r, "duplicate_of").expect("duplicate_of");
            assert_eq!(template(c.path(url)), template(c.path(of)));
            let k = r.get("distance").and_then(Value::as_u64).expect("distance");
            assert!(k <= 5, "{r}");
            assert!(
                field(r, "fingerprint").is_some_and(|f| f.len() == 16),
                "{r}"
            );
        } else {
            assert!(r.get("distance").is_some_and(Value::is_null), "{r}");
        }
    }
    // 8 pages of each of 4 templates, one kept each; 19 calendar months, one kept.
    assert!(near >= 4 * 7 + 18, "{near} near-duplicates: {d:?}");
    for t in ["a", "p", "l"] {
        for n in 1..=PER {
            assert!(d.contains_key(&format!("/h/{t}/{n}")), "/h/{t}/{n}");
        }
    }
}

/// Pages up to 256 KB are parsed on the async workers, larger ones on the blocking pool: a
/// 400 KB page is fingerprinted in full like the others and its links are followed.
#[test]
fn a_large_page_is_parsed_and_its_links_followed() {
    let block =
        "<div class=row><p>Some text <a href=/x>in</a> a paragraph.</p><span>more</span></div>\n";
    let big = format!(
        "<!DOCTYPE html><title>big</title><ul><li><a href=/after>after</a></ul>{}",
        block.repeat(400 * 1024 / block.len() + 1)
    );
    assert!(big.len() > 400 * 1024);
    let server = Server::start(move |_port| {
        move |target: &str| match target {
            "/" => Response::html(
                "<title>home</title><ul><li><a href=/big>big</a><li><a href=/small>small</a></ul>"
                    .to_owned(),
            ),
            "/big" => Response::html(big.clone()),
            "/small" => Response::html(
                "<title>small</title><table><tr><td>1<td>2</table><form><input></form>".to_owned(),
            ),
            "/after" => {
                Response::html("<title>after</title><h1>after</h1><pre>text</pre>".to_owned())
            }
            _ => sites::not_found(),
        }
    });
    let dir = tempfile::tempdir().expect("a temporary directory");
    let seed = server.url("/");
    let r = crawl(dir.path(), &config("", ""), &[&seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let left = check_consistent(dir.path());
    for path in ["/", "/big", "/small", "/after"] {
        assert_eq!(
            left.decision(&server.url(path)),
            Some("kept"),
            "{path}: {left:?}"
        );
    }
    let big = left
        .records
        .iter()
        .find(|r| field(r, "url") == Some(server.url("/big").as_str()))
        .expect("/big in the JSONL");
    assert!(big.get("truncated").is_some_and(Value::is_null), "{big}");
    let elements = big
        .get("elements")
        .and_then(Value::as_u64)
        .expect("elements");
    // html, head, title, body, ul, li, a + div, p, a, span per block.
    assert_eq!(
        elements,
        7 + 4 * (400 * 1024 / block.len() as u64 + 1),
        "{big}"
    );
}
