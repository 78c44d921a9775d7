//! A scripted crawl through the frontier: no network, pages made up by the test.

use std::time::Instant;

use super::*;
use crate::OnDuplicate;

const T1: u64 = 0x8c3a_5f7e_9ecb_3f35;

/// A made-up page: (fingerprint bits, body hash, links).
type FakePage = (u64, u128, Vec<&'static str>);

fn config() -> FrontierConfig {
    FrontierConfig {
        per_host_in_flight: 2,
        max_requeues: 2,
        ..FrontierConfig::default()
    }
}

fn params() -> Vec<(&'static str, String)> {
    vec![("fingerprint", "test".to_owned())]
}

fn page(url: &Job, fp: u64, body: u128, links: &[&str]) -> Fetched {
    Fetched::Page {
        final_url: url.url.clone(),
        status: 200,
        content_type: Some("text/html".into()),
        bytes: 100,
        fetch_ms: 1,
        body_hash: body,
        html: Some(HtmlPage {
            fingerprint: Some(Fingerprint::new(fp)),
            elements: 50,
            links: links.iter().map(|s| (*s).to_owned()).collect(),
            ..HtmlPage::default()
        }),
    }
}

/// Runs a crawl where `site(path)` gives (fingerprint, body id, links) for each path; returns
/// (url, decision, duplicate_of) in crawl order.
fn crawl(
    f: &mut Frontier,
    site: &dyn Fn(&str) -> FakePage,
) -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    while let Some(job) = f.next_job(Instant::now()) {
        let (fp, body, links) = site(job.url.path());
        let done = f
            .complete(job.clone(), page(&job, fp, body, &links), Instant::now())
            .expect("records");
        for r in done.records {
            out.push((r.url, r.page.decision.to_string(), r.duplicate_of_url));
        }
    }
    f.commit().expect("commits");
    out
}

fn demo_site(path: &str) -> FakePage {
    match path {
        "/" => (
            T1 ^ 0xffff_0000,
            1,
            vec![
                "/a",
                "/b",
                "/c#frag",
                "/c",
                "http://other.example/x",
                "mailto:x@y",
            ],
        ),
        "/a" => (T1, 2, vec!["/b?utm_source=x", "/d"]),
        "/b" => (T1 ^ 0b111, 3, vec!["/e"]), // near /a: its links are not followed (drop)
        "/c" => (T1, 2, vec![]),             // same body as /a
        "/d" => (T1 ^ 0xff, 4, vec![]),      // 8 bits from /a: kept
        _ => (0, 99, vec![]),
    }
}

#[test]
fn decisions_links_and_scope() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut f, resumed) = Frontier::open(dir.path(), config(), &params()).expect("opens");
    assert!(!resumed);
    assert!(f.add_seed("http://site.test/").expect("valid"));
    assert!(
        !f.add_seed("HTTP://SITE.test:80/#x").expect("valid"),
        "the same seed, canonically"
    );
    let got = crawl(&mut f, &demo_site);
    let show: Vec<(&str, &str, Option<&str>)> = got
        .iter()
        .map(|(u, d, of)| (u.as_str(), d.as_str(), of.as_deref()))
        .collect();
    assert_eq!(
        show,
        [
            ("http://site.test/", "kept", None),
            ("http://site.test/a", "kept", None),
            (
                "http://site.test/b",
                "near-duplicate",
                Some("http://site.test/a")
            ),
            (
                "http://site.test/c",
                "exact-duplicate",
                Some("http://site.test/a")
            ),
            ("http://site.test/d", "kept", None),
        ]
    );
    assert_eq!(f.decision_counts().get("kept"), Some(&3));
}

#[test]
fn follow_links_mode_fetches_what_duplicates_link_to() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut c = config();
    c.dedup.on_duplicate = OnDuplicate::FollowLinks;
    let (mut f, _) = Frontier::open(dir.path(), c, &params()).expect("opens");
    f.add_seed("http://site.test/").expect("valid");
    let got = crawl(&mut f, &demo_site);
    assert!(
        got.iter()
            .any(|(u, d, _)| u == "http://site.test/e" && d == "kept"),
        "{got:?}"
    );
}

#[test]
fn resume_rebuilds_state_and_loses_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (mut f, _) = Frontier::open(dir.path(), config(), &params()).expect("opens");
        f.add_seed("http://site.test/").expect("valid");
        let job = f.next_job(Instant::now()).expect("the seed");
        let (fp, body, links) = demo_site("/");
        f.complete(job.clone(), page(&job, fp, body, &links), Instant::now())
            .expect("records");
        f.commit().expect("commits");
        // /a is recorded but never committed: as if the process died here.
        let job = f.next_job(Instant::now()).expect("/a");
        let (fp, body, links) = demo_site("/a");
        f.complete(job.clone(), page(&job, fp, body, &links), Instant::now())
            .expect("records");
    }
    let (mut f, resumed) = Frontier::open(dir.path(), config(), &params()).expect("reopens");
    assert!(resumed);
    assert_eq!(f.queued(), 3, "/a, /b and /c are queued again");
    let got = crawl(&mut f, &demo_site);
    let urls: Vec<&str> = got.iter().map(|(u, _, _)| u.as_str()).collect();
    assert_eq!(
        urls,
        [
            "http://site.test/a",
            "http://site.test/b",
            "http://site.test/c",
            "http://site.test/d"
        ]
    );
    // The seed's record from the first run still counts as the first kept page.
    let mut all = Vec::new();
    f.store()
        .records(None, |r| all.push((r.url, r.page.decision.to_string())))
        .expect("reads");
    assert_eq!(all.len(), 5);
    assert_eq!(all[0], ("http://site.test/".to_owned(), "kept".to_owned()));

    let (_, _) = Frontier::open(dir.path(), config(), &params()).expect("reopens again");
    let other = vec![("fingerprint", "other".to_owned())];
    assert!(Frontier::open(dir.path(), config(), &other).is_err());
}

#[test]
fn waits_put_the_url_back_then_give_up() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut f, _) = Frontier::open(dir.path(), config(), &params()).expect("opens");
    f.add_seed("http://site.test/").expect("valid");
    let later = || Fetched::Later {
        after: Duration::ZERO,
        error: "host backoff".into(),
    };
    for _ in 0..2 {
        let job = f.next_job(Instant::now()).expect("queued again");
        assert!(
            f.complete(job, later(), Instant::now())
                .expect("ok")
                .records
                .is_empty()
        );
    }
    let job = f.next_job(Instant::now()).expect("queued again");
    let r = f
        .complete(job, later(), Instant::now())
        .expect("ok")
        .records
        .pop()
        .expect("recorded");
    assert_eq!(r.page.decision, Decision::Error);
    assert!(
        r.page
            .error
            .as_deref()
            .is_some_and(|e| e.contains("gave up after 3 waits")),
        "{:?}",
        r.page.error
    );
    assert!(f.next_job(Instant::now()).is_none());
}

#[test]
fn per_host_in_flight_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut f, _) = Frontier::open(dir.path(), config(), &params()).expect("opens");
    f.add_seed("http://site.test/").expect("valid");
    let job = f.next_job(Instant::now()).expect("seed");
    let (fp, body, links) = demo_site("/");
    f.complete(job.clone(), page(&job, fp, body, &links), Instant::now())
        .expect("records");
    let a = f.next_job(Instant::now()).expect("first");
    let _b = f.next_job(Instant::now()).expect("second");
    assert!(
        f.next_job(Instant::now()).is_none(),
        "two in flight on one host at most"
    );
    f.abandon(a);
    assert!(f.next_job(Instant::now()).is_some());
}

#[test]
fn body_hash_is_stable() {
    assert_eq!(body_hash(b"abc"), body_hash(b"abc"));
    assert_ne!(body_hash(b"abc"), body_hash(b"abd"));
}

#[test]
fn host_backoff_survives_a_restart() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let (mut f, _) = Frontier::open(dir.path(), config(), &params()).expect("opens");
        f.add_seed("http://site.test/").expect("valid");
        let job = f.next_job(Instant::now()).expect("the seed");
        let wait = Fetched::Later {
            after: Duration::from_secs(3600),
            error: "retry later".into(),
        };
        assert!(
            f.complete(job, wait, Instant::now())
                .expect("ok")
                .records
                .is_empty()
        );
        f.commit().expect("commits");
        assert!(f.next_job(Instant::now()).is_none(), "the host waits");
    }
    let (mut f, _) = Frontier::open(dir.path(), config(), &params()).expect("reopens");
    assert_eq!(f.queued(), 1);
    assert!(
        f.next_job(Instant::now()).is_none(),
        "still waiting after the restart"
    );
    let at = f.next_ready_at(Instant::now()).expect("a wake-up time");
    assert!(at > Instant::now() + Duration::from_secs(3000));
}
