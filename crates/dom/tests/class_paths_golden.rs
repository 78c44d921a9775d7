//! Golden `class-paths` fingerprints of fixture pages (a documentation page, a git front end's
//! log, a wiki page with an SVG icon and a `<template>`), pinned in the unoptimised test
//! profile: the release binary's `silhouette fingerprint` must print the same values
//! (BENCHMARKS.md records that check). Any change to the model's conventions changes them.

use silhouette_dom::{FeatureSet, HasherConfig, Limits, StructureHasher};

/// The fixture `name` at `decay` and `seed` (class-paths, no clock): fingerprint, path count,
/// element count.
fn check(name: &str, decay: f64, seed: u32, expected: (&str, usize, u64)) {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let html = std::fs::read(&path).expect("fixture exists");
    let hasher = StructureHasher::new(HasherConfig {
        decay,
        seed,
        limits: Limits {
            time_budget: None,
            ..Limits::default()
        },
        ..HasherConfig::for_model(FeatureSet::ClassPaths)
    })
    .expect("valid config");
    let s = hasher.hash(&html).expect("parses");
    let paths = s.profile.paths().expect("a class-paths profile");
    assert_eq!(
        (s.fingerprint.to_string().as_str(), paths.len(), s.elements),
        expected,
        "{name} at decay {decay}, seed {seed}"
    );
    assert_eq!(s.truncated, None, "{name}");
    // The stored profile recomputes the same value (what `replay` relies on).
    assert_eq!(
        paths.fingerprint(decay).to_string(),
        expected.0,
        "profile of {name}"
    );
}

/// (fixture, decay, seed, fingerprint, distinct paths, elements).
const CASES: &[(&str, f64, u32, &str, usize, u64)] = &[
    (
        "docs-page.html",
        0.76,
        0,
        "28f289517214829d",
        PATHS_DOCS,
        117,
    ),
    ("git-log.html", 0.76, 0, "cc82d8bdd6c18723", PATHS_GIT, 74),
    (
        "wiki-page.html",
        0.76,
        0,
        "4bb8e96f761c858f",
        PATHS_WIKI,
        114,
    ),
    // Another decay and another seed.
    (
        "docs-page.html",
        0.5,
        0,
        "2ab288515605809d",
        PATHS_DOCS,
        117,
    ),
    ("git-log.html", 0.5, 0, "0caac8adf68d8791", PATHS_GIT, 74),
    (
        "wiki-page.html",
        0.5,
        0,
        "0ab8e8e8661c859d",
        PATHS_WIKI,
        114,
    ),
    (
        "docs-page.html",
        0.76,
        3,
        "1199bbb21a7c58f3",
        PATHS_DOCS,
        117,
    ),
    ("git-log.html", 0.76, 3, "b16f38d22f6cd6a3", PATHS_GIT, 74),
    (
        "wiki-page.html",
        0.76,
        3,
        "d9fbbba6160c1803",
        PATHS_WIKI,
        114,
    ),
];

#[test]
fn fixture_pages() {
    for &(name, decay, seed, fp, paths, elements) in CASES {
        check(name, decay, seed, (fp, paths, elements));
    }
}

/// Distinct paths of each fixture (any decay or seed).
const PATHS_DOCS: usize = 63;
const PATHS_GIT: usize = 46;
const PATHS_WIKI: usize = 80;
