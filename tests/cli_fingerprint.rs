//! `silhouette fingerprint`: formats, inputs, order and failures.

use crate::common::{fixtures, run, run_in, scratch};
use crate::sites::fixture_site;

fn check(args: &[&str], stdin: &[u8], expected_code: i32, expected_stdout: &str) {
    let r = run_in(&fixtures(), args, stdin);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (expected_code, expected_stdout),
        "{args:?}; stderr: {}",
        r.stderr
    );
}

#[test]
fn formats() {
    check(
        &[
            "fingerprint",
            "--features",
            "classic",
            "--format",
            "csv",
            "p.html",
            "div.html",
        ],
        b"",
        0,
        "path,fingerprint,elements\np.html,f123317ed83fa3c7,4\ndiv.html,f132317ed83fa3c6,7\n",
    );
    check(
        &["fingerprint", "--features", "classic", "p.html"],
        b"",
        0,
        "f123317ed83fa3c7       4  p.html\n",
    );
    check(
        &[
            "fingerprint",
            "--features",
            "classic",
            "--format",
            "json",
            "p.html",
        ],
        b"",
        0,
        "{\"elements\":4,\"encoding\":\"UTF-8\",\"fingerprint\":\"f123317ed83fa3c7\",\"path\":\"p.html\",\"truncated\":null}\n",
    );
    // Standard input, and the decay override.
    check(
        &[
            "fingerprint",
            "--features",
            "classic",
            "--format",
            "csv",
            "-",
        ],
        b"<p>hi</p>",
        0,
        "path,fingerprint,elements\n-,f123317ed83fa3c7,4\n",
    );
    check(
        &[
            "fingerprint",
            "--features",
            "classic",
            "--decay",
            "0.5",
            "-",
        ],
        b"",
        0,
        "f133317ed87fe3d7       3  -\n",
    );
}

#[test]
fn directories_lists_and_order() {
    let dir = scratch(&[
        ("site/b.html", b"<p>b"),
        ("site/a.HTM", b"<p>a"),
        ("site/notes.txt", b"not html"),
        ("site/sub/c.html", b"<div>c"),
        ("odd, \"name\".html", b"<p>q"),
    ]);
    let r = run_in(
        dir.path(),
        &[
            "fingerprint",
            "--features",
            "classic",
            "--format",
            "csv",
            "site",
            "odd, \"name\".html",
        ],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let paths: Vec<&str> = r
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.rsplitn(3, ',').nth(2).unwrap_or(""))
        .collect();
    assert_eq!(
        paths,
        [
            "site/a.HTM",
            "site/b.html",
            "site/sub/c.html",
            "\"odd, \"\"name\"\".html\""
        ]
    );

    // --files-from keeps the list's order and adds to the PATH arguments.
    std::fs::write(
        dir.path().join("list"),
        "site/sub/c.html\n\nsite/b.html\r\n",
    )
    .expect("write");
    let r = run_in(
        dir.path(),
        &[
            "fingerprint",
            "--features",
            "classic",
            "--format",
            "csv",
            "--files-from",
            "list",
            "site/a.HTM",
        ],
        b"",
    );
    let paths: Vec<&str> = r
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap_or(""))
        .collect();
    assert_eq!(
        (r.code, paths),
        (0, vec!["site/a.HTM", "site/sub/c.html", "site/b.html"])
    );
}

#[test]
fn many_files_keep_input_order() {
    // More than one parallel batch, with different structures, must come out in order.
    let pages: Vec<(String, Vec<u8>)> = (0..600)
        .map(|i| {
            (
                format!("p{i:03}.html"),
                "<div>".repeat(i % 7 + 1).into_bytes(),
            )
        })
        .collect();
    let files: Vec<(&str, &[u8])> = pages
        .iter()
        .map(|(n, c)| (n.as_str(), c.as_slice()))
        .collect();
    let dir = scratch(&files);
    let r = run_in(
        dir.path(),
        &[
            "fingerprint",
            "--features",
            "classic",
            "--format",
            "csv",
            ".",
        ],
        b"",
    );
    assert_eq!(r.code, 0);
    let rows: Vec<&str> = r.stdout.lines().skip(1).collect();
    assert_eq!(rows.len(), 600);
    for (i, row) in rows.iter().enumerate() {
        assert!(
            row.starts_with(&format!("./p{i:03}.html,")),
            "row {i}: {row}"
        );
        let elements: u64 = row
            .rsplit(',')
            .next()
            .and_then(|e| e.parse().ok())
            .expect("a count");
        assert_eq!(elements, 3 + (i as u64 % 7 + 1), "row {i}");
    }
}

#[test]
fn unreadable_files_are_reported_and_the_rest_printed() {
    let r = run(&[
        "fingerprint",
        "--features",
        "classic",
        "--format",
        "csv",
        "missing.html",
        "p.html",
        "also-missing.html",
    ]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "path,fingerprint,elements\np.html,f123317ed83fa3c7,4\n"
    );
    let errors: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(errors.len(), 2, "{}", r.stderr);
    assert!(
        errors[0].starts_with("error: missing.html: cannot read: No such file"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with("error: also-missing.html: cannot read"),
        "{}",
        errors[1]
    );
}

#[test]
fn truncated_pages_are_flagged() {
    let deep = "<div>".repeat(2000);
    let r = run_in(
        &fixtures(),
        &[
            "fingerprint",
            "--features",
            "classic",
            "--format",
            "json",
            "-",
        ],
        deep.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\"truncated\":\"depth\""), "{}", r.stdout);
    assert!(
        r.stderr.contains(
            "warning: -: fingerprint covers part of the page only: nesting deeper than 512"
        )
    );
}

#[test]
fn usage_errors() {
    let r = run(&["fingerprint"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: nothing to fingerprint"),
        "{}",
        r.stderr
    );
    let r = run(&[
        "fingerprint",
        "--features",
        "classic",
        "--files-from",
        "no-such-list",
        "p.html",
    ]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""));
    assert!(
        r.stderr
            .starts_with("error: cannot read the path list no-such-list: No such file"),
        "{}",
        r.stderr
    );
    let r = run(&[
        "fingerprint",
        "--features",
        "classic",
        "--format",
        "xml",
        "p.html",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("invalid value 'xml'"), "{}", r.stderr);
}

#[test]
fn class_paths_is_the_default() {
    let r = run(&["fingerprint", "--format", "csv", "p.html"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "path,fingerprint,elements\np.html,08bac8a836048585,4\n")
    );
    let r = run(&["compare", "p.html", "p.html"]);
    assert!(
        r.stdout.contains("similarity: 1.000 (path sets, Jaccard)"),
        "{}",
        r.stdout
    );
}

#[test]
fn fingerprint_fetches_urls_as_the_crawl_does() {
    let site = fixture_site();
    let (url, missing) = (site.url("/p.html"), site.url("/missing.html"));
    // From the arguments and from a list, beside a file: rows in input order, the fetched
    // page's the file's.
    let list = format!("{missing}\n{url}\n");
    let args = ["fingerprint", "--features", "classic", "--format", "csv"];
    let inputs = ["--files-from", "-", &url, "p.html"];
    let r = run_in(
        &fixtures(),
        &[&args[..], &inputs[..]].concat(),
        list.as_bytes(),
    );
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (
            1,
            format!(
                "path,fingerprint,elements\n{url},f123317ed83fa3c7,4\np.html,f123317ed83fa3c7,4\n\
                 {url},f123317ed83fa3c7,4\n"
            )
            .as_str(),
            format!("error: {missing}: http_status: HTTP status 404 for {missing}\n").as_str()
        )
    );
}
