//! `silhouette fingerprint --content`: the content columns, plain-text input, `[content]`.

use crate::common::{run_in, scratch};

/// A page: `chrome` around an article of `words`.
fn page(chrome: &str, words: &str) -> Vec<u8> {
    format!(
        "<html><body><nav>{chrome}</nav><header>{chrome}</header><main><h1>Title</h1><p>{words}</p></main><footer>{chrome}</footer></body></html>"
    )
    .into_bytes()
}

fn article(n: usize) -> String {
    (0..n)
        .map(|i| format!("crawler{} ", i % 37))
        .collect::<String>()
        + "duplicate pages are dropped"
}

fn check(
    files: &[(&str, &[u8])],
    args: &[&str],
    stdin: &[u8],
    expected_code: i32,
) -> Vec<Vec<String>> {
    let dir = scratch(files);
    let r = run_in(dir.path(), args, stdin);
    assert_eq!(r.code, expected_code, "{args:?}: {}", r.stderr);
    r.stdout
        .lines()
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect()
}

#[test]
fn csv_columns_and_widths() {
    let a = page("Home About Contact", &article(80));
    let b = page("Other menu entirely different words here", &article(80));
    let short = page("Home", "too short");
    let files: &[(&str, &[u8])] = &[("a.html", &a), ("b.html", &b), ("s.html", &short)];
    for (bits, digits) in [("64", 16), ("128", 32)] {
        let rows = check(
            files,
            &[
                "fingerprint",
                "--content",
                "--bits",
                bits,
                "--format",
                "csv",
                "a.html",
                "b.html",
                "s.html",
            ],
            b"",
            0,
        );
        assert_eq!(
            rows[0],
            [
                "path",
                "fingerprint",
                "elements",
                "content_fingerprint",
                "signature"
            ]
        );
        assert_eq!(rows.len(), 4);
        // Only the main content counts: different chrome, the same content fingerprint.
        assert_eq!(rows[1][3], rows[2][3]);
        assert_eq!(rows[1][3].len(), digits);
        assert!(
            rows[1][3]
                .chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert_eq!(rows[1][4].len(), 32);
        assert_eq!(rows[1][4], rows[2][4]);
        // Too little text: empty fields, never an all-ones fingerprint.
        assert_eq!(&rows[3][3..], ["", ""]);
    }
    // Without --content, the columns are the structure's only.
    let rows = check(files, &["fingerprint", "--format", "csv", "a.html"], b"", 0);
    assert_eq!(rows[0], ["path", "fingerprint", "elements"]);
}

#[test]
fn plain_text_inputs() {
    let text = article(80);
    let html = page("", &text);
    let files: &[(&str, &[u8])] = &[("a.txt", text.as_bytes()), ("a.html", &html)];
    let rows = check(
        files,
        &[
            "fingerprint",
            "--content",
            "--format",
            "csv",
            "a.txt",
            "a.html",
        ],
        b"",
        0,
    );
    // A .txt file has no structure; its text fingerprints like the page's (title aside).
    assert_eq!(&rows[1][1..3], ["", ""]);
    assert_eq!(rows[1][3].len(), 16);
    let stdin = check(
        files,
        &["fingerprint", "--content", "--text", "--format", "csv", "-"],
        text.as_bytes(),
        0,
    );
    assert_eq!(stdin[1][3], rows[1][3]);
    // Without --text, standard input is HTML.
    let html_stdin = check(
        files,
        &["fingerprint", "--content", "--format", "csv", "-"],
        text.as_bytes(),
        0,
    );
    assert_eq!(html_stdin[1][2], "3");
}

#[test]
fn json_and_config() {
    let a = page("Home", &article(80));
    let files: &[(&str, &[u8])] = &[
        ("a.html", &a),
        ("c128.toml", b"[content]\nbits = 128\nshingles = 2\n"),
        ("bad.toml", b"[content]\nbits = 32\n"),
        ("typo.toml", b"[content]\nshingle = 2\n"),
    ];
    let rows = check(
        files,
        &["fingerprint", "--content", "--format", "json", "a.html"],
        b"",
        0,
    );
    let row = rows[0].join(",");
    assert!(
        row.contains("\"content_fingerprint\":\"") && row.contains("\"words\":"),
        "{row}"
    );
    let rows = check(
        files,
        &[
            "--config",
            "c128.toml",
            "fingerprint",
            "--content",
            "--format",
            "csv",
            "a.html",
        ],
        b"",
        0,
    );
    assert_eq!(rows[1][3].len(), 32);
    let dir = scratch(files);
    let r = run_in(
        dir.path(),
        &["--config", "bad.toml", "fingerprint", "--content", "a.html"],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("content.bits = 32: must be 64 or 128"),
        "{}",
        r.stderr
    );
    let r = run_in(
        dir.path(),
        &[
            "--config",
            "typo.toml",
            "fingerprint",
            "--content",
            "a.html",
        ],
        b"",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown field `shingle`"), "{}", r.stderr);
}

#[test]
fn compare_prints_the_content_distance() {
    let a = page("Home About", &article(80));
    let b = page("Other menu", &article(80));
    let files: &[(&str, &[u8])] = &[("a.html", &a), ("b.html", &b)];
    let dir = scratch(files);
    let r = run_in(dir.path(), &["compare", "a.html", "b.html"], b"");
    assert!(
        r.stdout
            .contains("content distance: 0 bits, equal signatures (text/1 "),
        "{}",
        r.stdout
    );
}

/// `[content] max-text-bytes`: the fingerprint reads the start of the main-content text, and
/// `silhouette text` prints that start. Two pages that differ only past the bound have one
/// content fingerprint; with a larger bound they differ. (Bad values: `content_settings`.)
#[test]
fn content_reads_the_start_of_a_long_text() {
    let start = article(400);
    let a = page(
        "Home",
        &format!("{start} {}", "alpha beta gamma ".repeat(300)),
    );
    let b = page(
        "Home",
        &format!("{start} {}", "delta epsilon zeta ".repeat(300)),
    );
    let files: &[(&str, &[u8])] = &[
        ("a.html", &a),
        ("b.html", &b),
        ("small.toml", b"[content]\nmax-text-bytes = 2048\n"),
        ("all.toml", b"[content]\nmax-text-bytes = 4194304\n"),
    ];
    let content = |config: &str| {
        let rows = check(
            files,
            &[
                "--config",
                config,
                "fingerprint",
                "--content",
                "--format",
                "csv",
                "a.html",
                "b.html",
            ],
            b"",
            0,
        );
        assert_eq!(rows[0][3], "content_fingerprint");
        (rows[1][3].clone(), rows[2][3].clone())
    };
    let (x, y) = content("small.toml");
    assert_eq!(x, y, "the pages differ past 2,048 bytes only");
    let (x, y) = content("all.toml");
    assert_ne!(x, y);
    let dir = scratch(files);
    let text = |config: &str| {
        let r = run_in(dir.path(), &["--config", config, "text", "a.html"], b"");
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout
    };
    let (cut, whole) = (text("small.toml"), text("all.toml"));
    let cut = cut.trim_end_matches('\n');
    assert!(cut.len() <= 2048 && cut.len() > 2000, "{}", cut.len());
    assert!(
        whole.starts_with(cut) && whole.len() > 4000,
        "{}",
        whole.len()
    );
}
