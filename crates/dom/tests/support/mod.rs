//! What the `class_paths*` tests share: the default hasher without its clock, so results
//! depend on the input only, and checks on two pages' paths.
// Each test crate that includes this module uses some of it.
#![allow(dead_code)]

use silhouette_dom::{HasherConfig, Limits, PathSet, Structure, StructureHasher};

/// The default configuration (class-paths, decay 0.76) without the clock.
pub fn hasher() -> StructureHasher {
    StructureHasher::new(HasherConfig {
        limits: Limits {
            time_budget: None,
            ..Limits::default()
        },
        ..HasherConfig::default()
    })
    .expect("valid config")
}

/// The structure of `html` with [`hasher`].
pub fn hash(html: &str) -> Structure {
    hasher()
        .hash(html.as_bytes())
        .expect("no input is rejected")
}

/// A class-paths structure's path set.
pub fn paths(s: &Structure) -> &PathSet {
    s.profile.paths().expect("a class-paths profile")
}

/// `a` and `b` have the same paths (and so the same fingerprint), with `elements` each.
pub fn check_same(a: &str, b: &str, elements: (u64, u64)) {
    let (x, y) = (hash(a), hash(b));
    assert_eq!(paths(&x), paths(&y), "{a:?} vs {b:?}");
    assert_eq!(x.fingerprint, y.fingerprint, "{a:?} vs {b:?}");
    assert_eq!((x.elements, y.elements), elements, "{a:?} vs {b:?}");
}

/// `a` and `b` have different paths.
pub fn check_differ(a: &str, b: &str) {
    assert_ne!(paths(&hash(a)), paths(&hash(b)), "{a:?} vs {b:?}");
}

/// The path set of `html` with [`hasher`].
pub fn path_set(html: &str) -> PathSet {
    paths(&hash(html)).clone()
}

/// Whether pages `a` and `b` have the same path set (`true`) or not, with their Jaccard
/// similarity in the message.
pub fn check_paths(a: &str, b: &str, same: bool) {
    let (pa, pb) = (path_set(a), path_set(b));
    assert_eq!(pa == pb, same, "{a:?}\n{b:?}\njaccard {}", pa.jaccard(&pb));
}

/// The levels of a page's paths, in document order of their first element (`(depth, level)`
/// is not kept, so compare the multiset of levels).
pub fn check_levels(html: &str, expected: &[u8]) {
    let s = hash(html);
    let mut levels: Vec<u8> = paths(&s).paths().map(|(_, level)| level).collect();
    levels.sort_unstable();
    assert_eq!(levels, expected, "{html:?}");
}

/// A page's fingerprint, path count and element count.
pub fn check_reference(
    html: &str,
    expected_fp: &str,
    expected_paths: usize,
    expected_elements: u64,
) {
    let s = hash(html);
    assert_eq!(
        (s.fingerprint.to_string(), paths(&s).len(), s.elements),
        (expected_fp.to_owned(), expected_paths, expected_elements),
        "{html:?}"
    );
}

/// Whether each of `html`'s paths is prose, by its summary id's lowest bit: (paths, prose).
/// (An id with bit 8 set marks the one beside it as an article's block: not a path.)
pub fn prose_count(html: &str) -> (usize, usize) {
    let mut summary = paths(&hash(html)).summary();
    summary.retain(|&id| id & 8 == 0);
    (
        summary.len(),
        summary.iter().filter(|&&id| id & 1 == 1).count(),
    )
}
