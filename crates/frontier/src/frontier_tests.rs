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
    page_with(url, fp, body, links, None)
}

/// [`page`] with a structure summary (its profile: the ids, little-endian: [`summary_of`]).
fn page_with(url: &Job, fp: u64, body: u128, links: &[&str], summary: Option<Vec<u32>>) -> Fetched {
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
            profile: summary
                .iter()
                .flatten()
                .flat_map(|id| id.to_le_bytes())
                .collect(),
            summary,
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

/// A site whose list pages look alike: `/list/2` is dropped as a near-duplicate of
/// `/list/1`, and only `/list/2` links to the notes and the archive.
fn hub_site(path: &str) -> FakePage {
    match path {
        "/" => (T1 ^ 0xffff_0000, 1, vec!["/list/1", "/list/2"]),
        "/list/1" => (T1, 2, vec!["/item/1"]),
        // Near /list/1. Its links: an old shape (/item/0), two notes (one new shape), the
        // archive (another), and the other host.
        "/list/2" => (
            T1 ^ 0b11,
            3,
            vec![
                "/item/2",
                "/note/aa11",
                "/note/bb22",
                "/archive?year=1",
                "http://other.test/x",
            ],
        ),
        "/item/1" | "/item/2" => (T1 ^ 0xff00_0000_0000, 4, vec![]),
        "/note/aa11" | "/note/bb22" => (T1 ^ 0xffff_ffff_0000_0000, 5, vec![]),
        _ => (T1 ^ 0x00ff_ff00_00ff_ff00, 6, vec![]),
    }
}

/// The URLs a drop-mode crawl of `hub_site` fetches with `explore`, and, for a crawl cut
/// after 2, 3 or 4 pages and resumed, the same.
fn check_explore(explore: u32, expected: &[&str]) {
    check_explore_on(&hub_site, explore, expected);
}

/// [`check_explore`] on `site`.
fn check_explore_on(site: &dyn Fn(&str) -> FakePage, explore: u32, expected: &[&str]) {
    let mut config = config();
    config.dedup.on_duplicate = OnDuplicate::Drop;
    config.explore = explore;
    let urls = |got: Vec<(String, String, Option<String>)>| -> Vec<String> {
        got.into_iter()
            .map(|(u, _, _)| u.trim_start_matches("http://site.test").to_owned())
            .collect()
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut f, _) = Frontier::open(dir.path(), config.clone(), &params()).expect("opens");
    f.add_seed("http://site.test/").expect("valid");
    assert_eq!(urls(crawl(&mut f, site)), expected, "explore = {explore}");
    // Cut after 2, 3 or 4 pages and resumed: the rest is what the uncut crawl fetched (the
    // host's shapes and its exploration count come back from the state).
    for cut in 2..=4 {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut f, _) = Frontier::open(dir.path(), config.clone(), &params()).expect("opens");
        f.add_seed("http://site.test/").expect("valid");
        let mut first = Vec::new();
        while first.len() < cut {
            let job = f.next_job(Instant::now()).expect("a job");
            let (fp, body, links) = site(job.url.path());
            let done = f
                .complete(job.clone(), page(&job, fp, body, &links), Instant::now())
                .expect("records");
            first.extend(
                done.records
                    .into_iter()
                    .map(|r| (r.url, String::new(), None)),
            );
        }
        f.commit().expect("commits");
        drop(f);
        let (mut f, resumed) =
            Frontier::open(dir.path(), config.clone(), &params()).expect("reopens");
        assert!(resumed);
        let mut all = urls(first);
        all.extend(urls(crawl(&mut f, site)));
        assert_eq!(all, expected, "explore = {explore}, cut after {cut}");
    }
}

#[test]
fn drop_mode_explores_new_url_shapes_of_a_dropped_page() {
    // Off: what only the dropped /list/2 links to is never fetched.
    check_explore(0, &["/", "/list/1", "/list/2", "/item/1"]);
    // On: its links of a shape the host never linked to, the first of each shape, on its
    // own host only; /item/2 has /item/1's shape.
    let all = [
        "/",
        "/list/1",
        "/list/2",
        "/item/1",
        "/note/aa11",
        "/archive?year=1",
    ];
    check_explore(64, &all);
    // At most `explore` per host that keep nothing: /note/aa11 is another kind (kept), so
    // the archive, held for want of room, is fetched after it.
    check_explore(1, &all);
}

/// `hub_site`'s dropped `/list/2` linking to four new shapes: `/a/x` and `/c/x` are items
/// (near-duplicates of `/item/1`), `/b/x` and `/d/x` other kinds.
fn refund_site(path: &str) -> FakePage {
    let item = T1 ^ 0xff00_0000_0000;
    match path {
        "/list/2" => (T1 ^ 0b11, 3, vec!["/a/x", "/b/x", "/c/x", "/d/x"]),
        "/a/x" => (item, 10, vec![]),
        "/b/x" => (T1 ^ 0xffff_ffff_0000_0000, 11, vec![]),
        "/c/x" => (item, 12, vec![]),
        "/d/x" => (T1 ^ 0x00ff_ff00_00ff_ff00, 13, vec![]),
        _ => hub_site(path),
    }
}

#[test]
fn an_explored_page_that_is_kept_gives_its_fetch_back() {
    let start = ["/", "/list/1", "/list/2", "/item/1"];
    // One fetch: /a/x keeps nothing; the rest stay held.
    check_explore_on(&refund_site, 1, &[&start[..], &["/a/x"]].concat());
    // Two: /b/x is kept and gives its fetch back, so /c/x, held, is fetched; it keeps
    // nothing, and with two fetches that kept nothing /d/x stays held.
    check_explore_on(
        &refund_site,
        2,
        &[&start[..], &["/a/x", "/b/x", "/c/x"]].concat(),
    );
    check_explore_on(
        &refund_site,
        3,
        &[&start[..], &["/a/x", "/b/x", "/c/x", "/d/x"]].concat(),
    );
}

/// `hub_site` with path sets: `/list/2` is as near `/list/1` by fingerprint, and its path
/// set is `similar` (Jaccard 1.0, or 17/23 ≈ 0.74: it only just joins at min-similarity 0.7).
fn marginal_hub(similar: bool) -> impl Fn(&Job) -> Fetched {
    move |job: &Job| {
        let path = job.url.path();
        let (fp, body, links) = hub_site(path);
        let summary: Vec<u32> = match path {
            "/list/2" if !similar => (0..17).chain(100..103).collect::<Vec<_>>(),
            "/list/1" | "/list/2" => (0..20).collect(),
            _ => (1000 + u32::try_from(body).unwrap_or(0) * 100..)
                .take(5)
                .collect(),
        }
        .into_iter()
        // Path `n` is summary id `16n`, its lowest three bits `n`'s (prose, a field, a
        // column).
        .map(|n| n * 16 + (n & 7))
        .collect();
        page_with(job, fp, body, &links, Some(summary))
    }
}

/// The summary a `marginal_hub` page's profile holds (its ids, little-endian).
fn summary_of(profile: &[u8]) -> Option<Vec<u32>> {
    Some(
        profile
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
    )
}

/// The URLs a drop-mode crawl of `marginal_hub(similar)` fetches with `explore`, the same
/// when cut after 2, 3 or 4 pages and resumed.
fn check_marginal(similar: bool, explore: u32, expected: &[&str]) {
    let mut config = config();
    config.dedup.on_duplicate = OnDuplicate::Drop;
    config.dedup.min_similarity = Some(0.7);
    config.summary_of = Some(summary_of);
    config.explore = explore;
    let site = marginal_hub(similar);
    for cut in [usize::MAX, 2, 3, 4] {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut f, _) = Frontier::open(dir.path(), config.clone(), &params()).expect("opens");
        f.add_seed("http://site.test/").expect("valid");
        let mut got = Vec::new();
        let mut judged = 0;
        loop {
            if judged == cut {
                f.commit().expect("commits");
                drop(f);
                f = Frontier::open(dir.path(), config.clone(), &params())
                    .expect("reopens")
                    .0;
            }
            let Some(job) = f.next_job(Instant::now()) else {
                break;
            };
            let done = f
                .complete(job.clone(), site(&job), Instant::now())
                .expect("records");
            judged += 1;
            got.extend(
                done.records
                    .into_iter()
                    .map(|r| r.url.trim_start_matches("http://site.test").to_owned()),
            );
        }
        assert_eq!(
            got, expected,
            "similar {similar}, explore {explore}, cut {cut}"
        );
    }
}

#[test]
fn drop_mode_follows_the_unseen_links_of_a_page_that_only_just_joined() {
    // Alike: only its links of new shapes.
    let new_shapes = ["/", "/list/1", "/list/2", "/item/1"];
    check_marginal(
        true,
        64,
        &[&new_shapes[..], &["/note/aa11", "/archive?year=1"]].concat(),
    );
    // Only just alike: every link not seen yet on its host (/item/2 of a known shape, both
    // notes), each counted.
    check_marginal(
        false,
        64,
        &[
            &new_shapes[..],
            &["/item/2", "/note/aa11", "/note/bb22", "/archive?year=1"],
        ]
        .concat(),
    );
    // At most half of `explore` for them that keep nothing, the rest is for new shapes:
    // /note/aa11 is kept and gives its fetch back, so /note/bb22 is fetched; it keeps
    // nothing, and the archive stays held.
    check_marginal(
        false,
        4,
        &[&new_shapes[..], &["/item/2", "/note/aa11", "/note/bb22"]].concat(),
    );
}
