//! Configuration files and overrides, as the user meets them.

use crate::common::{run_in, scratch};

fn check(config: &str, args: &[&str], expected_code: i32, expected_stderr: &str) {
    let dir = scratch(&[("c.toml", config.as_bytes()), ("p.html", b"<p>hi</p>")]);
    let mut all = vec!["--config", "c.toml"];
    all.extend_from_slice(args);
    let r = run_in(dir.path(), &all, b"");
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (expected_code, expected_stderr),
        "{config:?} {args:?}"
    );
}

#[test]
fn the_repository_config_is_the_builtin_default() {
    let root = env!("CARGO_MANIFEST_DIR");
    let a = run_in(
        root.as_ref(),
        &[
            "--config",
            "config.toml",
            "compare",
            "tests/fixtures/p.html",
            "tests/fixtures/div.html",
        ],
        b"",
    );
    let b = run_in(
        root.as_ref(),
        &[
            "compare",
            "tests/fixtures/p.html",
            "tests/fixtures/div.html",
        ],
        b"",
    );
    // p.html and div.html differ in structure: 1, like cmp(1).
    assert_eq!((a.code, &a.stdout), (1, &b.stdout), "{}", a.stderr);
    assert_eq!(b.code, 1, "{}", b.stderr);
}

#[test]
fn values_from_the_file_and_the_command_line() {
    check(
        "[fingerprint]\ndecay = 0.5\n",
        &["fingerprint", "p.html"],
        0,
        "",
    );
    let dir = scratch(&[
        (
            "c.toml",
            b"[fingerprint]\ndecay = 0.5\nfeatures = \"classic\"\n",
        ),
        ("e.html", b""),
    ]);
    let r = run_in(
        dir.path(),
        &["--config", "c.toml", "fingerprint", "e.html"],
        b"",
    );
    assert_eq!(r.stdout, "f133317ed87fe3d7       3  e.html\n");
    let r = run_in(
        dir.path(),
        &[
            "--config",
            "c.toml",
            "fingerprint",
            "--decay",
            "0.45",
            "e.html",
        ],
        b"",
    );
    assert_eq!(r.stdout, "f120317ed83fa3d6       3  e.html\n");
}

#[test]
fn bad_configs_are_one_clear_line() {
    check(
        "[fingerprint]\ndecay = 2\n",
        &["fingerprint", "p.html"],
        2,
        "error: fingerprint.decay = 2: must be a number greater than 0 and at most 1 (default 0.76 for class-paths, 0.45 for classic)\n",
    );
    check(
        "[fingerprint]\nfeature = \"classic\"\n",
        &["fingerprint", "p.html"],
        2,
        "error: c.toml:2: unknown field `feature`, expected one of `decay`, `features`, \
         `path-depth`, `seed`, `max-depth`, `max-nodes`, `work-budget`, `work-budget-per-byte`, \
         `time-limit`, `time-budget-ms`, `time-budget-ns-per-byte`, `max-input-bytes`\n",
    );
    check(
        "",
        &["fingerprint", "--features", "fancy", "p.html"],
        2,
        "error: --features \"fancy\": must be one of \"classic\", \"tag-pairs\", \"class-paths\"\n",
    );
    check(
        "",
        &["compare", "--threshold", "99", "p.html", "p.html"],
        2,
        "error: --threshold 99: must be a whole number from 0 to 8\n",
    );
    check(
        "[dedup]\nthreshold = 9\n",
        &["compare", "p.html", "p.html"],
        2,
        "error: dedup.threshold = 9: must be a whole number from 0 to 8\n",
    );
    // Caught before anything is fetched (the address is never asked).
    check(
        "[traps]\nmax-query-nesting = 0\n",
        &["crawl", "--state", "st", "http://127.0.0.1:9/"],
        2,
        "error: traps.max-query-nesting = 0: must be a whole number from 1 to 1000000\n",
    );
    let dir = scratch(&[("p.html", b"<p>")]);
    let r = run_in(
        dir.path(),
        &["--config", "missing.toml", "fingerprint", "p.html"],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("error: cannot read config file missing.toml: No such file"),
        "{}",
        r.stderr
    );
}
