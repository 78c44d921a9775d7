//! `silhouette dedup --drop-when MODE --content-threshold K`: the flags override the
//! configuration's policy, as `crawl`'s and `replay`'s do, and bad values are refused.

use std::path::Path;

use crate::common::run_in;
use crate::crawl_content::{archive_site, site};
use crate::crawl_support::{config, field, jsonl};
use crate::sites::Server;

/// What a run must give: exit status, a fragment of stderr, the content duplicates.
type Expected<'a> = (i32, &'a str, &'a [(&'a str, &'a str)]);

/// `dedup` over `DIR/site.warc.gz` with the config (drop-when = "structure") and `flags`:
/// the exit status, a fragment of stderr, and the content duplicates (url path, of path).
fn check(dir: &Path, base: &str, flags: &[&str], expected: Expected<'_>) {
    let _ = std::fs::remove_file(dir.join("d.jsonl"));
    let mut args = vec!["--config", "c.toml", "dedup", "--output", "d.jsonl"];
    args.extend_from_slice(flags);
    args.push("site.warc.gz");
    let r = run_in(dir, &args, b"");
    assert_eq!(r.code, expected.0, "{flags:?}: {}", r.stderr);
    assert!(r.stderr.contains(expected.1), "{flags:?}: {}", r.stderr);
    let dropped: Vec<(String, String)> = if r.code == 0 {
        jsonl(&dir.join("d.jsonl"))
            .iter()
            .filter(|l| field(l, "decision") == Some("content-duplicate"))
            .filter_map(|l| {
                let path = |u: &str| u.strip_prefix(base).map(str::to_owned);
                Some((
                    path(field(l, "url")?)?,
                    path(field(l, "content_duplicate_of")?)?,
                ))
            })
            .collect()
    } else {
        Vec::new()
    };
    let expected: Vec<(String, String)> = expected
        .2
        .iter()
        .map(|&(a, b)| (a.to_owned(), b.to_owned()))
        .collect();
    assert_eq!(dropped, expected, "{flags:?}");
}

#[test]
fn dedup_flags_override_the_configured_policy() {
    let server = Server::start(|_| site);
    let dir = tempfile::tempdir().expect("tempdir");
    archive_site(&server, dir.path());
    std::fs::write(
        dir.path().join("c.toml"),
        config("drop-when = \"structure\"", ""),
    )
    .expect("write the config");
    let base = server.url("");
    let copies: &[(&str, &str)] = &[("/print/1", "/a/1"), ("/mirror/a/1", "/a/1")];
    let cases: [(&[&str], Expected<'_>); 6] = [
        (&[], (0, ", 0 content duplicates;", &[])),
        (
            &["--drop-when", "content"],
            (0, ", 2 content duplicates;", copies),
        ),
        (
            &[
                "--drop-when",
                "structure-or-content",
                "--content-threshold",
                "3",
            ],
            (0, ", 2 content duplicates;", copies),
        ),
        (
            &["--content-threshold", "5"],
            (0, ", 0 content duplicates;", &[]),
        ),
        (
            &["--drop-when", "sometimes"],
            (2, "--drop-when = \"sometimes\": must be one of", &[]),
        ),
        (
            &["--drop-when", "content", "--content-threshold", "17"],
            (
                2,
                "--content-threshold 17: must be a whole number from 0 to 8 (64-bit content fingerprints",
                &[],
            ),
        ),
    ];
    for (flags, expected) in cases {
        check(dir.path(), base.trim_end_matches('/'), flags, expected);
    }

    // The same run kept as a state: its report draws the content distances of the two copies
    // (absent from the report of a run that dropped no page by content).
    for (policy, chart) in [("structure", false), ("content", true)] {
        let state = format!("state-{policy}");
        check(
            dir.path(),
            base.trim_end_matches('/'),
            &["--drop-when", policy, "--state", &state],
            (0, "", if chart { copies } else { &[] }),
        );
        let r = run_in(
            dir.path(),
            &["--config", "c.toml", "report", &state, "-o", "-"],
            b"",
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            r.stdout.contains("<svg id=\"content-histogram-svg\""),
            chart,
            "{policy}"
        );
        assert_eq!(
            r.stdout
                .contains("2 content duplicates by the distance in bits"),
            chart,
            "{policy}"
        );
    }
}
