//! Arbitrary bytes in, a structure out: never a panic, and always a tree or a truncation.
//!
//! The limits are small so that every input stays cheap and the guards trip often; no time
//! budget, so that each input gives the same result every run (libFuzzer's own timeout
//! catches a hang).

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use silhouette_dom::{HasherConfig, Limits, StructureHasher};

static HASHER: LazyLock<StructureHasher> = LazyLock::new(|| {
    StructureHasher::new(HasherConfig {
        limits: Limits {
            max_depth: 64,
            max_nodes: 20_000,
            time_budget: None,
            max_input_bytes: 256 * 1024,
            ..Limits::default()
        },
        ..HasherConfig::default()
    })
    .expect("valid config")
});

/// Content types to read the bytes in, chosen by the first byte.
const CONTENT_TYPES: [Option<&str>; 6] = [
    None,
    Some("text/html; charset=utf-8"),
    Some("text/html; charset=windows-1252"),
    Some("text/html; charset=shift_jis"),
    Some("text/html; charset=gb18030"),
    Some("text/html; charset=iso-2022-jp"),
];

fuzz_target!(|data: &[u8]| {
    let content_type = CONTENT_TYPES[usize::from(data.first().copied().unwrap_or(0)) % 6];
    let s = HASHER
        .hash_with_content_type(data, content_type)
        .expect("the parser failed");
    assert!(
        s.elements > 0 || s.truncated.is_some(),
        "no element and no truncation"
    );
    // Deterministic: the same bytes again give the same structure.
    let again = HASHER
        .hash_with_content_type(data, content_type)
        .expect("the parser failed");
    assert_eq!(
        (s.fingerprint, s.elements, s.truncated),
        (again.fingerprint, again.elements, again.truncated)
    );
});
