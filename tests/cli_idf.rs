//! `silhouette idf build PATH... [-o FILE]`.

use crate::common::{run_in, scratch};

#[test]
fn idf_build_writes_a_table_from_text_files() {
    let dir = scratch(&[
        ("corpus/a.txt", b"the crawler fetches the page"),
        ("corpus/sub/b.txt", b"the index stores the page"),
        ("corpus/c.txt", b"the end"),
        ("corpus/skip.html", b"<p>not a text file</p>"),
        ("d.txt", "中文网页".as_bytes()),
    ]);
    let r = run_in(
        dir.path(),
        &["idf", "build", "corpus", "d.txt", "-o", "idf.txt"],
        b"",
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{}", r.stderr);
    assert_eq!(r.stderr, "idf: 4 documents, 9 words, tokenizer=auto\n");
    let table = std::fs::read_to_string(dir.path().join("idf.txt")).expect("written");
    // N = 4: ln(4/2) for words in 1 document, ln(4/3) in 2, ln(4/4) = 0 in 3.
    let expected = "crawler 0.6931471805599453\nend 0.6931471805599453\nfetches 0.6931471805599453\n\
                    index 0.6931471805599453\npage 0.28768207245178085\nstores 0.6931471805599453\n\
                    the 0.0\n中文 0.6931471805599453\n网页 0.6931471805599453\n";
    assert_eq!(table, expected);

    // To standard output, the same table.
    let r = run_in(dir.path(), &["idf", "build", "corpus", "d.txt"], b"");
    assert_eq!((r.code, r.stdout.as_str()), (0, expected));
}

#[test]
fn idf_build_errors_name_the_path() {
    let dir = scratch(&[("a.txt", b"word")]);
    let r = run_in(dir.path(), &["idf", "build", "a.txt", "missing.txt"], b"");
    assert_eq!((r.code, r.stdout.as_str()), (2, ""));
    assert!(
        r.stderr.starts_with("error: missing.txt: cannot read"),
        "{}",
        r.stderr
    );
    let r = run_in(dir.path(), &["idf", "build"], b"");
    assert_eq!(r.code, 2, "a PATH is required");
}
