//! Exit statuses and messages of the small commands: `compare` like cmp(1), a closed pipe,
//! binary files, the demo's description of itself.

use std::io::{BufRead, BufReader};

use crate::common::{fixtures, run, run_in, scratch, spawn_in};

#[test]
fn compare_exits_1_when_the_structures_differ_and_says_so_in_help() {
    for (threshold, code) in [("5", 0), ("3", 0), ("2", 1), ("0", 1)] {
        let r = run(&[
            "compare",
            "--features",
            "classic",
            "--threshold",
            threshold,
            "p.html",
            "div.html",
        ]);
        assert_eq!(r.code, code, "threshold {threshold}: {}", r.stdout);
        assert!(r.stdout.contains("verdict: "), "{}", r.stdout);
    }
    let help = run(&["compare", "--help"]);
    assert!(
        help.stdout
            .contains("0 when the pages have the same structure")
            && help.stdout.contains("1 when they do not"),
        "{}",
        help.stdout
    );
}

#[test]
fn a_closed_pipe_ends_fingerprint_quietly() {
    // Far more rows than a pipe buffers, so the writer meets the closed pipe.
    let list = "p.html\n".repeat(20_000);
    let mut child = spawn_in(
        &fixtures(),
        &["fingerprint", "--features", "classic", "--files-from", "-"],
    );
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), list.as_bytes())
        .expect("the list is read");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a first row");
    // The reader is dropped here: like `| head -n 1`.
    assert_eq!(first, "f123317ed83fa3c7       4  p.html\n");
    let out = child.wait_with_output().expect("it exits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), stderr.as_ref()), (Some(0), ""));
}

#[test]
fn a_binary_file_named_html_gets_a_warning() {
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10";
    let dir = scratch(&[("image.html", png), ("page.html", b"<p>text</p>")]);
    let r = run_in(dir.path(), &["fingerprint", "image.html", "page.html"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    assert_eq!(
        r.stderr,
        "warning: image.html: not text (a NUL byte at offset 8): this is not an HTML page, its fingerprint means nothing\n"
    );
    let r = run_in(dir.path(), &["compare", "page.html", "image.html"], b"");
    assert!(
        r.stderr.contains("warning: image.html: not text"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_demo_names_its_settings_and_where_its_state_goes() {
    let dir = scratch(&[]);
    let r = run_in(dir.path(), &["demo"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "crawling it with decay = 0.76, threshold k = 8 bits, on-duplicate = drop; state in a temporary directory, deleted at the end (--state DIR keeps it)"
        ),
        "{}",
        r.stderr
    );
    let r = run_in(dir.path(), &["demo", "--state", "kept"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("; state in kept\n"), "{}", r.stderr);
    assert!(dir.path().join("kept/crawl.sqlite").is_file());
    let r = run_in(dir.path(), &["demo", "--state", "kept"], b"");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(
            "error: kept already holds a crawl state, from a demo site on another port"
        ),
        "{}",
        r.stderr
    );
}
