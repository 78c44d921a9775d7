//! Pages judged in the order their URLs were found: the same decisions whatever the order
//! fetches end in, at any number in flight, through any window.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use silhouette_simhash::Fingerprint;

use crate::{Fetched, Frontier, FrontierConfig, HtmlPage, Job};

const PAGES: u64 = 48;

/// A site whose decisions depend on the order pages are judged in: every page's structure
/// is one base with up to 4 of 20 low bits flipped (pairs 0 to 8 bits apart, threshold 5, so which
/// page of a group comes first decides which are kept), and duplicates' links are not
/// followed (on-duplicate = drop: what is found depends on what was kept).
fn page(job: &Job) -> Fetched {
    let i: u64 = job
        .url
        .path()
        .strip_prefix("/p/")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let mut h = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    let mask = (0..4).fold(0u64, |m, k| m | 1 << ((h >> (8 * k)) % 20));
    let links = [
        2 * i + 1,
        2 * i + 2,
        3 * i + 1,
        5 * i + 2,
        (i * 7 + 3) % PAGES,
        (i * 11 + 5) % PAGES,
    ]
    .into_iter()
    .filter(|&j| j < PAGES)
    .map(|j| format!("/p/{j}"))
    .collect();
    Fetched::Page {
        final_url: job.url.clone(),
        status: 200,
        content_type: Some("text/html".into()),
        bytes: 100,
        fetch_ms: 1,
        body_hash: u128::from(i) + 1,
        html: Some(HtmlPage {
            fingerprint: Some(Fingerprint::new(0xf0f0_0000_0000_0000 ^ mask)),
            elements: 50,
            links,
            ..HtmlPage::default()
        }),
    }
}

type Decisions = Vec<(String, String, Option<String>, Option<u32>, bool)>;

/// Crawls the site with at most `k` fetches in flight, `window` ids ahead, each fetch that
/// ends picked by the next of `picks` among those in flight; a restart (the state reopened,
/// what waited in memory lost and fetched again) after `restart_after` fetches if given.
fn crawl(picks: &[u8], k: usize, window: u64, restart_after: Option<usize>) -> Decisions {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = FrontierConfig {
        per_host_in_flight: 64,
        reorder_window: window,
        reorder_timeout: Duration::from_secs(3600),
        ..FrontierConfig::default()
    };
    let params = vec![("fingerprint", "test".to_owned())];
    let (mut f, _) = Frontier::open(dir.path(), config.clone(), &params).expect("opens");
    f.add_seed("http://site.test/p/0").expect("valid");
    let mut out = Decisions::new();
    let mut in_flight: Vec<Job> = Vec::new();
    let mut next = picks.iter().copied().cycle();
    let mut fetched = 0;
    loop {
        let now = Instant::now();
        while in_flight.len() < k {
            match f.next_job(now) {
                Some(job) => in_flight.push(job),
                None => break,
            }
        }
        if in_flight.is_empty() {
            let done = f.release_stuck(now, true).expect("records");
            assert!(done.records.is_empty(), "nothing can be stuck here");
            break;
        }
        let pick = usize::from(next.next().unwrap_or(0)) % in_flight.len();
        let job = in_flight.swap_remove(pick);
        let done = f.complete(job.clone(), page(&job), now).expect("records");
        for r in done.records {
            out.push((
                r.url,
                r.page.decision.to_string(),
                r.duplicate_of_url,
                r.page.distance,
                r.page.out_of_order,
            ));
        }
        fetched += 1;
        if restart_after == Some(fetched) {
            f.commit().expect("commits");
            drop(f);
            in_flight.clear();
            f = Frontier::open(dir.path(), config.clone(), &params)
                .expect("reopens")
                .0;
        }
    }
    out
}

#[test]
fn one_at_a_time_judges_every_page_in_order() {
    let d = crawl(&[0], 1, 1024, None);
    assert!(d.len() > 10, "{d:?}");
    assert!(d.iter().any(|r| r.1 == "near-duplicate"), "{d:?}");
    assert!(d.iter().all(|r| !r.4), "nothing out of order");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_completion_order_decides_the_same(
        picks in proptest::collection::vec(any::<u8>(), 1..64),
        k in 1usize..12,
        window in 1u64..64,
    ) {
        prop_assert_eq!(crawl(&picks, k, window, None), crawl(&[0], 1, 1024, None));
    }

    #[test]
    fn a_restart_midway_decides_the_same(
        picks in proptest::collection::vec(any::<u8>(), 1..64),
        k in 1usize..12,
        restart_after in 1usize..30,
    ) {
        prop_assert_eq!(
            crawl(&picks, k, 16, Some(restart_after)),
            crawl(&[0], 1, 1024, None)
        );
    }
}

#[test]
fn a_stuck_fetch_is_judged_out_of_order_after_the_timeout() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = FrontierConfig {
        per_host_in_flight: 64,
        reorder_timeout: Duration::from_millis(1),
        ..FrontierConfig::default()
    };
    let params = vec![("fingerprint", "test".to_owned())];
    let (mut f, _) = Frontier::open(dir.path(), config, &params).expect("opens");
    f.add_seed("http://site.test/p/0").expect("valid");
    let now = Instant::now();
    let seed = f.next_job(now).expect("the seed");
    let done = f.complete(seed.clone(), page(&seed), now).expect("records");
    assert_eq!(done.records.len(), 1);
    let stuck = f.next_job(now).expect("p/1");
    let after = f.next_job(now).expect("p/2");
    // p/2 ends first: it waits for p/1.
    let done = f
        .complete(after.clone(), page(&after), now)
        .expect("records");
    assert!(done.records.is_empty());
    assert_eq!(f.waiting(), 1);
    // Before the timeout nothing moves; after it, p/2 is judged without p/1.
    assert!(f.release_stuck(now, false).expect("ok").records.is_empty());
    let later = now + Duration::from_millis(5);
    let released = f.release_stuck(later, false).expect("ok").records;
    assert_eq!(released.len(), 1);
    assert_eq!(released[0].url, after.url.as_str());
    assert!(!released[0].page.out_of_order);
    // p/1 ends at last: judged at once, marked.
    let done = f
        .complete(stuck.clone(), page(&stuck), later)
        .expect("records");
    assert_eq!(done.records.len(), 1);
    assert!(done.records[0].page.out_of_order);
    let mut marked = Vec::new();
    f.commit().expect("commits");
    f.store()
        .records(None, |r| marked.push((r.url, r.page.out_of_order)))
        .expect("reads");
    assert!(
        marked.contains(&(stuck.url.to_string(), true)),
        "{marked:?}"
    );
}
