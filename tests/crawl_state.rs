//! A state belongs to one crawl: other seeds or other deciding settings are refused (and say
//! what differs), `--add-seeds` adds seeds on purpose, and resuming needs no seeds.

use crate::common::{run_in, scratch};
use crate::crawl_support::{check_consistent, config, crawl};
use crate::sites::{Server, dedup_site};

fn site() -> Server {
    Server::start(|port| move |target: &str| dedup_site(port, target))
}

/// The one `error:` line of a refused run (exit 2).
fn refused(r: &crate::common::Run) -> &str {
    assert_eq!(r.code, 2, "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", r.stderr);
    lines[0]
}

#[test]
fn other_seeds_are_refused_unless_added() {
    let (a, b) = (site(), site());
    let dir = scratch(&[]);
    let toml = config("", "max-depth = 1");
    let r = crawl(dir.path(), &toml, &[&a.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let before = check_consistent(dir.path()).rows;

    let r = crawl(dir.path(), &toml, &[&b.url("/")]);
    let err = refused(&r);
    assert!(
        err.contains(&format!(
            "was started from other seeds ({}); this run adds {}: give --add-seeds",
            a.url("/"),
            b.url("/")
        )),
        "{err}"
    );
    assert_eq!(b.hits(), [], "nothing fetched from the other seed");
    assert_eq!(check_consistent(dir.path()).rows, before);

    // No seeds: resume. The same seeds: resume.
    for args in [&[][..], &[a.url("/")][..]] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = crawl(dir.path(), &toml, &args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stderr.contains("resuming the crawl"), "{}", r.stderr);
    }

    let r = crawl(dir.path(), &toml, &["--add-seeds", &b.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!b.hits().is_empty(), "the added seed is crawled");
    check_consistent(dir.path());
}

#[test]
fn the_default_state_directory_is_not_shared_by_two_crawls() {
    let (a, b) = (site(), site());
    let dir = scratch(&[]);
    std::fs::write(dir.path().join("c.toml"), config("", "max-depth = 0")).expect("config");
    let run = |seed: &str| run_in(dir.path(), &["--config", "c.toml", "crawl", seed], b"");
    assert_eq!(run(&a.url("/")).code, 0);
    let r = run(&b.url("/"));
    let err = refused(&r);
    assert!(
        err.contains("the crawl state in silhouette-state was started from other seeds")
            && err.contains("or --state DIR for a new crawl"),
        "{err}"
    );
    assert_eq!(b.hits(), []);
}

#[test]
fn changed_deciding_settings_are_refused_and_named() {
    let server = site();
    let dir = scratch(&[]);
    let seed = server.url("/");
    let r = crawl(dir.path(), &config("", "max-depth = 1"), &[&seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let hits = server.hits().len();

    let r = crawl(
        dir.path(),
        &config("on-duplicate = \"keep\"", "max-depth = 1"),
        &[&seed],
    );
    let err = refused(&r);
    assert!(
        err.contains("was made with other settings: dedup.on-duplicate = \"drop\" there, \"keep\" in this run: "),
        "{err}"
    );
    let r = crawl(
        dir.path(),
        &config("cluster-budget = 2", "max-depth = 2\nscope = \"any\""),
        &[&seed],
    );
    let err = refused(&r);
    for difference in [
        "dedup.cluster-budget = \"1\" there, \"2\" in this run",
        "crawl.scope = \"same-host\" there, \"any\" in this run",
        "crawl.max-depth = \"1\" there, \"2\" in this run",
    ] {
        assert!(err.contains(difference), "{difference} in {err}");
    }
    assert_eq!(server.hits().len(), hits, "nothing fetched");
    // Settings that decide nothing may change: more fetches in flight, another interval.
    let r = crawl(
        dir.path(),
        &config("", "max-depth = 1\nconcurrency = 2"),
        &[&seed],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}
