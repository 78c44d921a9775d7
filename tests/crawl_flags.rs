//! The flags of `crawl`: they win over config.toml, a bad value names the flag, a seed without
//! a scheme is taken as http://, and requests carry the headers, user agent and proxy given.

use std::collections::BTreeSet;

use crate::common::{run_in, scratch};
use crate::crawl_support::{check_consistent, config, crawl};
use crate::sites::{Server, tree_site};

fn tree() -> Server {
    Server::start(|_| |target: &str| tree_site(200, target))
}

#[test]
fn flags_win_over_the_config() {
    let server = tree();
    let dir = scratch(&[]);
    // The config says: no page limit, drop duplicates, everything in scope, a slow interval.
    let toml = config("on-duplicate = \"drop\"", "max-pages = 0\nmax-depth = 30")
        .replace("request-interval-ms = 0", "request-interval-ms = 60000");
    let r = crawl(
        dir.path(),
        &toml,
        &[
            "--max-pages",
            "12",
            "--max-depth",
            "2",
            "--concurrency",
            "2",
            "--delay",
            "0",
            "--on-duplicate",
            "keep",
            "--scope",
            "same-host",
            "--exclude",
            "/n/1$",
            "--exclude",
            "/d/",
            "--include",
            "/$|/n/",
            "--header",
            "X-Probe: one",
            "--header",
            "Accept-Language: fr",
            "--user-agent",
            "probe/1.0 (+mailto:me@example.invalid)",
            &server.url("/"),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let left = check_consistent(dir.path());
    let urls: BTreeSet<&str> = left.recorded().keys().copied().collect();
    assert_eq!(urls.len(), 12, "--max-pages: {urls:?}");
    assert!(!urls.contains(server.url("/n/1").as_str()), "--exclude");
    assert!(urls.iter().all(|u| !u.contains("/d/")), "--exclude twice");
    // --on-duplicate keep: duplicates are in the output too.
    assert_eq!(left.records.len(), 12);
    let header = |h: &crate::sites::Hit, name: &str| {
        h.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    for hit in server.hits() {
        assert_eq!(header(&hit, "x-probe").as_deref(), Some("one"), "{hit:?}");
        assert_eq!(header(&hit, "accept-language").as_deref(), Some("fr"));
        assert_eq!(
            header(&hit, "user-agent").as_deref(),
            Some("probe/1.0 (+mailto:me@example.invalid)")
        );
    }
}

#[test]
fn bad_flag_values_name_the_flag_and_what_is_allowed() {
    let dir = scratch(&[]);
    let seed = "http://127.0.0.1:9/";
    for (flags, expected) in [
        (
            &["--max-pages", "-1"][..],
            "error: --max-pages -1: must be a whole number from 0 to",
        ),
        (
            &["--concurrency", "0"],
            "error: --concurrency 0: must be a whole number from 1 to 4096",
        ),
        (
            &["--delay", "-5"],
            "error: --request-interval-ms -5: must be a whole number from 0 to",
        ),
        (
            &["--on-duplicate", "skip"],
            "error: --on-duplicate \"skip\": must be one of \"drop\", \"follow-links\", \"keep\"",
        ),
        (
            &["--scope", "site"],
            "error: --scope \"site\": must be one of \"same-host\", \"same-domain\", \"any\"",
        ),
        (
            &["--exclude", "("],
            "error: --exclude \"(\": not a valid regular expression",
        ),
        (
            &["--header", "no colon"],
            "error: --header \"no colon\": each must be \"Name: value\"",
        ),
        (
            &["--proxy", "ftp://x"],
            "error: --proxy \"ftp://x\": must be an http(s) URL",
        ),
        (
            &["--threshold", "9"],
            "error: --threshold 9: must be a whole number from 0 to 8",
        ),
    ] {
        let mut args = vec!["crawl"];
        args.extend_from_slice(flags);
        args.push(seed);
        let r = run_in(dir.path(), &args, b"");
        assert_eq!(r.code, 2, "{flags:?}: {}", r.stderr);
        assert!(r.stderr.starts_with(expected), "{flags:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    }
    assert!(!dir.path().join("silhouette-state").exists());
}

#[test]
fn a_seed_without_a_scheme_is_http() {
    let server = tree();
    let dir = scratch(&[]);
    let bare = format!("{}/n/1", server.addr);
    let r = crawl(dir.path(), &config("", "max-depth = 0"), &[&bare]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "note: seed {bare:?} has no scheme: crawling http://{bare}"
        )),
        "{}",
        r.stderr
    );
    let left = check_consistent(dir.path());
    assert_eq!(
        left.recorded().keys().copied().collect::<Vec<_>>(),
        [server.url("/n/1").as_str()]
    );
    // A name that looks like a file is a file: a clear error, not a host.
    let r = crawl(dir.path(), &config("", ""), &["seeds.txt"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with(
            "error: cannot read the seeds file seeds.txt (a seed URL starts with http:// or https://)"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn requests_go_through_the_proxy() {
    // The "proxy" serves the tree site for any absolute-form target of http://site.test.
    let proxy = Server::start(|_| {
        |target: &str| {
            let path = target
                .strip_prefix("http://site.test")
                .unwrap_or("/not-proxied");
            tree_site(20, path)
        }
    });
    let dir = scratch(&[]);
    let r = crawl(
        dir.path(),
        &config("", "max-depth = 1"),
        &["--proxy", &proxy.url(""), "http://site.test/"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let hits = proxy.hits();
    assert!(hits.len() > 3, "{hits:?}");
    assert!(
        hits.iter()
            .all(|h| h.target.starts_with("http://site.test/") && h.host == "site.test"),
        "{hits:?}"
    );
    let left = check_consistent(dir.path());
    assert!(
        left.decision("http://site.test/") == Some("kept"),
        "{:?}",
        left.rows
    );
}
