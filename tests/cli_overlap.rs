//! `silhouette overlap A B`.

use crate::common::{run_in, scratch};

#[test]
fn overlap_prints_copied_passages_with_positions_in_both() {
    let a = "Intro words here.\nThe quick brown fox jumps over the lazy dog near the river bank today.\nEnd.";
    let b = "Something else first, then: the quick brown fox jumps over the lazy dog near the river bank. Bye";
    let dir = scratch(&[("a.txt", a.as_bytes()), ("b.txt", b.as_bytes())]);
    let r = run_in(
        dir.path(),
        &["overlap", "--k", "3", "--g", "6", "a.txt", "b.txt"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let expected = "A: a.txt (18 words)  B: b.txt (18 words)  tokenizer=auto k=3 g=6\n\
                    A 3..16  B 4..17  13 words: the quick brown fox jumps over the lazy dog near the river bank\n\
                    1 passages, 13 of A's 18 words (72.2%) copied in B\n";
    assert_eq!(r.stdout, expected);

    // Chinese, from standard input.
    let zh = "网页去重是搜索引擎的重要环节，相似的网页只保留一份。";
    let dir = scratch(&[("zh.txt", format!("前言。{zh}").as_bytes())]);
    let r = run_in(
        dir.path(),
        &["overlap", "--k", "2", "--g", "4", "-", "zh.txt"],
        zh.as_bytes(),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("A 0..13  B 1..14  13 words: 网页 去 重 是 搜索引擎"),
        "{}",
        r.stdout
    );
}

#[test]
fn overlap_compares_html_pages_by_their_main_content_text() {
    let story = "The quick brown fox jumps over the lazy dog near the river bank today";
    // The article, and its print view under other chrome: only the main content is read.
    let article = format!(
        "<html><head><title>Fox news site menu</title></head><body><nav>home news sport weather \
         contact about login</nav><main><h1>Fox</h1><p>{story}.</p></main>\
         <footer>copyright site menu</footer></body></html>"
    );
    let print = format!(
        "<html><body><header>printed from the site</header><article><p>Printed: {story}!</p>\
         </article></body></html>"
    );
    let dir = scratch(&[
        ("article.html", article.as_bytes()),
        ("print.htm", print.as_bytes()),
        ("article.txt", article.as_bytes()),
    ]);
    let overlap = |a: &str, b: &str| {
        let r = run_in(dir.path(), &["overlap", "--k", "3", "--g", "6", a, b], b"");
        assert_eq!(r.code, 0, "{a} {b}: {}", r.stderr);
        r.stdout
    };
    let expected = "A: article.html (15 words)  B: print.htm (15 words)  tokenizer=auto k=3 g=6\n\
                    A 1..15  B 1..15  14 words: the quick brown fox jumps over the lazy dog near the river bank today\n\
                    1 passages, 14 of A's 15 words (93.3%) copied in B\n";
    assert_eq!(overlap("article.html", "print.htm"), expected);
    // Named .txt, the same bytes are plain text: markup and chrome are words too.
    let out = overlap("article.txt", "print.htm");
    assert!(out.starts_with("A: article.txt (47 words)"), "{out}");
}

#[test]
fn overlap_errors() {
    let dir = scratch(&[("a.txt", b"one two three")]);
    for (args, fragment) in [
        (
            &["overlap", "a.txt", "nope.txt"][..],
            "error: nope.txt: cannot read",
        ),
        (&["overlap", "--k", "0", "a.txt", "a.txt"][..], "winnow-k"),
        (
            &["overlap", "--tokenizer", "icu", "a.txt", "a.txt"][..],
            "tokenizer",
        ),
        (
            &["overlap", "a.txt", "crawl.warc.gz"][..],
            "error: crawl.warc.gz: an archive holds many pages",
        ),
    ] {
        let r = run_in(dir.path(), args, b"");
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{args:?}");
        assert!(r.stderr.contains(fragment), "{args:?}: {}", r.stderr);
    }
}
