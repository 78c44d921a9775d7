use std::collections::HashMap;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use super::*;
use crate::{ContentBits, DedupScope, DropWhen};

/// Runs a future that never waits (the logs below answer at once).
fn now<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            return v;
        }
    }
}

/// An in-memory shared log; `lose_next` makes the next append fail with nothing new to
/// learn (the caller must judge again and reach the same verdict).
#[derive(Clone, Default)]
struct MemoryLog {
    scopes: Arc<Mutex<HashMap<String, Vec<JudgedPage>>>>,
    lose_next: Arc<Mutex<u32>>,
}

impl DecisionLog for MemoryLog {
    type Error = ();

    async fn append_at(
        &mut self,
        scope: &str,
        at: u64,
        entries: &[&JudgedPage],
    ) -> Result<Option<Vec<JudgedPage>>, ()> {
        let mut lose = self.lose_next.lock().map_err(|_| ())?;
        let mut scopes = self.scopes.lock().map_err(|_| ())?;
        let log = scopes.entry(scope.to_owned()).or_default();
        let missing = log.get(at as usize..).unwrap_or_default();
        if *lose > 0 || !missing.is_empty() {
            *lose = lose.saturating_sub(1);
            return Ok(Some(missing.to_vec()));
        }
        log.extend(entries.iter().map(|e| (*e).clone()));
        Ok(None)
    }
}

fn page(id: u64, host: &str, body: u128, bits: u64, elements: u64) -> JudgedPage {
    JudgedPage {
        id,
        url: format!("http://{host}/{id}"),
        host: host.to_owned(),
        body_hash: body,
        fingerprint: Some(bits),
        elements,
        summary: None,
        content: PageContent::default(),
    }
}

/// Pages judged by three replicas in turn (page i by worker `who[i]`), with a failed append
/// before the pages in `lost`: the verdicts equal one `Dedup` judging them in order. Judged
/// page by page, then again with each run of one worker's consecutive pages as one batch
/// ([`SharedDedup::judge_all`]).
fn check(config: DedupConfig, pages: &[JudgedPage], who: &[usize], lost: &[usize]) {
    // One process, one `Dedup` per scope.
    let mut single: HashMap<String, Dedup> = HashMap::new();
    let scope_of = SharedDedup::new(config, "t").expect("valid");
    let want: Vec<Verdict> = pages
        .iter()
        .map(|p| {
            let scope = scope_of.scope_of(&p.host).to_owned();
            let one = single
                .entry(scope)
                .or_insert_with(|| Dedup::new(config, "t").expect("valid"));
            one.judge_page(&PageSignals {
                id: p.id,
                host: &p.host,
                body_hash: p.body_hash,
                fingerprint: p.fingerprint.map(Fingerprint::new),
                elements: p.elements,
                summary: p.summary.as_deref(),
                content: &p.content,
            })
        })
        .collect();
    let owner = |i: usize| who[i % who.len()] % 3;
    for batched in [false, true] {
        let log = MemoryLog::default();
        let mut workers: Vec<(SharedDedup, MemoryLog)> = (0..3)
            .map(|_| (SharedDedup::new(config, "t").expect("valid"), log.clone()))
            .collect();
        let mut i = 0;
        while i < pages.len() {
            let end = if batched {
                (i..pages.len())
                    .find(|&j| owner(j) != owner(i))
                    .unwrap_or(pages.len())
            } else {
                i + 1
            };
            if (i..end).any(|j| lost.contains(&j)) {
                *log.lose_next.lock().expect("lock") = 1;
            }
            let (shared, log) = &mut workers[owner(i)];
            let got = now(shared.judge_all(log, &pages[i..end])).expect("memory log");
            for (j, g) in (i..end).zip(&got) {
                assert_eq!(g.verdict, want[j], "page {j}, batched {batched}");
            }
            i = end;
        }
    }
}

const BASE: u64 = 0x8c3a_5f7e_9ecb_3f35;

#[test]
fn three_workers_decide_as_one() {
    let pages = [
        page(1, "a", 1, BASE, 50),
        page(2, "a", 2, BASE ^ 1, 50),
        page(3, "b", 3, BASE ^ 1, 50),
        page(4, "a", 1, BASE, 50),
        page(5, "a", 5, BASE ^ 0xff, 50),
    ];
    for scope in [DedupScope::Host, DedupScope::Global] {
        let config = DedupConfig {
            scope,
            ..DedupConfig::default()
        };
        check(config, &pages, &[0, 1, 2], &[]);
        check(config, &pages, &[2, 2, 0, 1, 0], &[1, 3]);
    }
}

#[test]
fn urls_of_duplicates_and_clusters() {
    let mut shared = SharedDedup::new(DedupConfig::default(), "t").expect("valid");
    let mut log = MemoryLog::default();
    let first = now(shared.judge(&mut log, &page(1, "a", 1, BASE, 50))).expect("log");
    assert_eq!(first.cluster, Some((1, "http://a/1".to_owned())));
    let mut other = SharedDedup::new(DedupConfig::default(), "t").expect("valid");
    let near = now(other.judge(&mut log, &page(2, "a", 2, BASE ^ 3, 50))).expect("log");
    assert_eq!(near.verdict, Verdict::NearDuplicate { of: 1, distance: 2 });
    assert_eq!(near.duplicate_of_url.as_deref(), Some("http://a/1"));
    // The same page judged again (a lease that expired after the first commit): kept as before.
    let again = now(other.judge(&mut log, &page(1, "a", 1, BASE, 50))).expect("log");
    assert_eq!(again.verdict, Verdict::Kept { cluster: 1 });
    assert_eq!(log.scopes.lock().expect("lock")["a"].len(), 1);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
    /// Any interleaving of three workers, with appends that fail, decides as one process would.
    #[test]
    fn any_interleaving_decides_as_one(
        seeds in proptest::collection::vec(proptest::prelude::any::<u64>(), 1..5),
        picks in proptest::collection::vec((0usize..5, 0u32..64, 0u8..3, 0u8..30, 0u64..20, 0usize..3), 1..120),
        texts in proptest::collection::vec((0u8..4, 0u32..64, 0u8..6), 120),
        lost in proptest::collection::vec(0usize..120, 0..6),
        host_scope in proptest::prelude::any::<bool>(),
        budget in 1u32..3,
        mode in 0usize..4,
        extras in proptest::collection::vec(0u16..1024, 120),
        (similarity, varying_after) in (0usize..3, 0u32..3),
    ) {
        let config = DedupConfig {
            scope: if host_scope { DedupScope::Host } else { DedupScope::Global },
            cluster_budget: budget,
            drop_when: [
                DropWhen::Structure,
                DropWhen::Content,
                DropWhen::StructureAndContent,
                DropWhen::StructureOrContent,
            ][mode],
            min_similarity: [None, Some(0.5), Some(0.7)][similarity],
            varying_after,
            ..DedupConfig::default()
        };
        let pages: Vec<JudgedPage> = picks
            .iter()
            .zip(&texts)
            .enumerate()
            .map(|(i, (&(s, bit, host, body, el, _), &(text, flip, sig)))| {
                let mut p = page(i as u64 + 1, &format!("h{host}"), u128::from(body), seeds[s % seeds.len()] ^ (1 << bit), el * 3);
                // A summary: its structure's 8 paths and some of 10 content paths, so that
                // confirmations differ and paths are learned to vary.
                let own = (s % seeds.len()) as u32 * 100;
                let mut summary: Vec<u32> = (own..own + 8).collect();
                summary.extend((0..10u32).filter(|b| extras[i] & (1 << b) != 0).map(|b| 1000 + b));
                p.summary = Some(summary);
                // Text 0: too little text (no signal); others: a content fingerprint a bit
                // or more from its text's, and a signature shared by some pages.
                if text > 0 {
                    p.content = PageContent {
                        fingerprint: Some(ContentBits::B64(Fingerprint::new(
                            seeds[usize::from(text) % seeds.len()].rotate_left(7) ^ (1 << flip),
                        ))),
                        signature: (sig < 2).then_some(u128::from(sig)),
                    };
                }
                p
            })
            .collect();
        let who: Vec<usize> = picks.iter().map(|p| p.5).collect();
        check(config, &pages, &who, &lost);
    }
}
