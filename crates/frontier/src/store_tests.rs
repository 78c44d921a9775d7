use super::*;

fn params() -> Vec<(&'static str, String)> {
    vec![(
        "fingerprint",
        "structure/classic/fnv1-64/decay=0.45".to_owned(),
    )]
}

#[test]
fn urls_records_and_resume() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut s, resumed) = Store::open(dir.path(), &params()).expect("opens");
    assert!(!resumed);
    let a = s
        .add_url("http://a/", "a", 0, None)
        .expect("ok")
        .expect("new");
    let b = s
        .add_url("http://a/b", "a", 1, Some(a))
        .expect("ok")
        .expect("new");
    assert_eq!(s.add_url("http://a/b", "a", 1, Some(a)).expect("ok"), None);
    let rec = PageRecord {
        id: a,
        decision: Decision::Kept,
        emitted: true,
        body_hash: Some(7 << 100),
        ..PageRecord::default()
    };
    assert_eq!(s.record(&rec).expect("ok"), (1, Some(1)));
    s.commit().expect("commits");
    // Uncommitted work is lost when the process dies: simulate by dropping mid-transaction.
    let c = s
        .add_url("http://a/c", "a", 1, Some(a))
        .expect("ok")
        .expect("new");
    assert!(c > b);
    drop(s);

    let (s, resumed) = Store::open(dir.path(), &params()).expect("reopens");
    assert!(resumed);
    let queued: Vec<String> = s.queued().expect("ok").into_iter().map(|q| q.url).collect();
    assert_eq!(queued, ["http://a/b"]);
    let mut got = Vec::new();
    s.records(None, |r| got.push(r)).expect("ok");
    assert_eq!(got.len(), 1);
    assert_eq!(
        (got[0].url.as_str(), got[0].out_seq, got[0].page.body_hash),
        ("http://a/", Some(1), Some(7 << 100))
    );
    assert_eq!(s.counts().expect("ok"), (2, 1));
}

/// Reading a state leaves it as the crawl did: one file, no `-wal`/`-shm` beside it,
/// and nothing written.
#[test]
fn reading_a_state_leaves_no_wal_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut s, _) = Store::open(dir.path(), &params()).expect("opens");
    s.add_url("http://a/", "a", 0, None).expect("ok");
    s.commit().expect("commits");
    drop(s);
    let read = Store::open_existing(dir.path()).expect("opens");
    assert_eq!(read.counts().expect("reads"), (1, 0));
    assert!(
        read.conn.execute("DELETE FROM urls", []).is_err(),
        "query only"
    );
    drop(read);
    for leftover in ["crawl.sqlite-wal", "crawl.sqlite-shm"] {
        assert!(!dir.path().join(leftover).exists(), "{leftover}");
    }
}

#[test]
fn other_parameters_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    drop(Store::open(dir.path(), &params()).expect("opens"));
    let other = vec![(
        "fingerprint",
        "structure/classic/fnv1-64/decay=0.6".to_owned(),
    )];
    let err = Store::open(dir.path(), &other)
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains(
            "was made with other settings: fingerprint = \"structure/classic/fnv1-64/decay=0.45\" there, \"structure/classic/fnv1-64/decay=0.6\" in this run: "
        ),
        "{err}"
    );
}

#[test]
fn unusable_directory_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("file");
    std::fs::write(&file, b"x").expect("write");
    let err = Store::open(&file.join("state"), &params())
        .expect_err("not a directory")
        .to_string();
    assert!(err.starts_with("crawl state directory "), "{err}");
}
