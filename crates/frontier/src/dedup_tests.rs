use super::*;

fn fp(bits: u64) -> Option<Fingerprint> {
    Some(Fingerprint::new(bits))
}

/// Pages (host, body hash, fingerprint bits, elements) judged in order; the verdicts.
fn check(config: DedupConfig, pages: &[(&str, u128, u64, u64)], expected: &[Verdict]) {
    let mut d = Dedup::new(config, "test").expect("valid");
    let got: Vec<Verdict> = pages
        .iter()
        .enumerate()
        .map(|(i, &(host, body, bits, elements))| {
            d.judge(i as u64 + 1, host, body, fp(bits), elements, None)
        })
        .collect();
    assert_eq!(got, expected);
}

const BASE: u64 = 0x8c3a_5f7e_9ecb_3f35;

/// Summary id of fixture `8p + marks`: path `p` with `marks` (its lowest three bits: prose, a
/// field, a column) and bit 8 (an article's block, `articles.rs`) clear; increasing.
const fn template_id(n: u32) -> u32 {
    (n & 7) | ((n >> 3) << 4)
}

/// Judges pages 1..=`n` on host `h`, page `k + 1` with summary `summary(k)` and a fingerprint
/// far from the others': each is kept and starts a cluster.
fn keep_far_apart(d: &mut Dedup, n: u32, summary: impl Fn(u32) -> Vec<u32>) {
    for k in 0..n {
        let bits = u64::from(k + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let id = u64::from(k) + 1;
        let v = d.judge(id, "h", u128::from(k), fp(bits), 50, Some(&summary(k)));
        assert_eq!(v, Verdict::Kept { cluster: id });
    }
}

/// Dedup state that confirms near matches by summaries: threshold 8, min-similarity 0.7.
fn confirming() -> Dedup {
    let config = DedupConfig {
        threshold: 8,
        min_similarity: Some(0.7),
        ..DedupConfig::default()
    };
    Dedup::new(config, "t").expect("valid")
}

/// As [`confirming`], with paths learned to vary after one confirmed match.
fn confirming_after_one() -> Dedup {
    let config = DedupConfig {
        threshold: 8,
        min_similarity: Some(0.7),
        varying_after: 1,
        ..DedupConfig::default()
    };
    Dedup::new(config, "t").expect("valid")
}

/// Page `id` on host `h` (its body hash `id`, 50 elements) with fingerprint `bits` and `summary`.
fn signals_of<'a>(
    id: u64,
    bits: u64,
    summary: &'a [u32],
    content: &'a PageContent,
) -> PageSignals<'a> {
    PageSignals {
        id,
        host: "h",
        body_hash: u128::from(id),
        fingerprint: fp(bits),
        elements: 50,
        summary: Some(summary),
        content,
    }
}

#[test]
fn order_of_checks() {
    use Verdict::*;
    let c = DedupConfig {
        scope: DedupScope::Global,
        ..DedupConfig::default()
    };
    check(
        c,
        &[
            ("a", 1, BASE, 50),
            ("a", 1, BASE ^ 0xffff, 50), // same bytes: exact, whatever the structure
            ("a", 2, BASE ^ 0b11111, 50), // 5 bits: near
            ("a", 3, BASE ^ 0b111111, 50), // 6 bits: a new cluster
            ("b", 4, BASE ^ 0b1, 50),    // global scope: other hosts count
            ("a", 5, BASE, 3),           // too few elements: kept unjudged
            ("a", 5, BASE ^ 0xff00, 3),  // ... but still exact-checked
        ],
        &[
            Kept { cluster: 1 },
            ExactDuplicate { of: 1 },
            NearDuplicate { of: 1, distance: 5 },
            Kept { cluster: 4 },
            NearDuplicate { of: 1, distance: 1 },
            KeptUnjudged,
            ExactDuplicate { of: 6 },
        ],
    );
}

#[test]
fn host_scope_and_budget() {
    use Verdict::*;
    let host = DedupConfig {
        scope: DedupScope::Host,
        ..DedupConfig::default()
    };
    check(
        host,
        &[
            ("a", 1, BASE, 50),
            ("b", 2, BASE, 50),
            ("b", 3, BASE ^ 1, 50),
        ],
        &[
            Kept { cluster: 1 },
            Kept { cluster: 2 },
            NearDuplicate { of: 2, distance: 1 },
        ],
    );
    let budget = DedupConfig {
        cluster_budget: 3,
        scope: DedupScope::Global,
        ..DedupConfig::default()
    };
    check(
        budget,
        &[
            ("a", 1, BASE, 50),
            ("a", 2, BASE ^ 1, 50),
            ("a", 3, BASE ^ 2, 50),
            ("a", 4, BASE ^ 4, 50),
        ],
        &[
            Kept { cluster: 1 },
            Kept { cluster: 1 },
            Kept { cluster: 1 },
            NearDuplicate { of: 1, distance: 1 },
        ],
    );
}

/// The rules of `judge`, by brute force: every verdict must agree.
fn oracle(config: DedupConfig, pages: &[(String, u128, u64, u64)]) -> Vec<Verdict> {
    let mut reps: Vec<(String, u64, u64)> = Vec::new(); // (host, fingerprint, id)
    let mut bodies: Vec<(u128, u64)> = Vec::new();
    let mut budget: HashMap<u64, u32> = HashMap::new();
    let mut out = Vec::new();
    for (i, (host, body, bits, elements)) in pages.iter().enumerate() {
        let id = i as u64 + 1;
        if let Some(&(_, of)) = bodies.iter().find(|(b, _)| b == body) {
            out.push(Verdict::ExactDuplicate { of });
            continue;
        }
        let v = if *elements < config.min_elements {
            Verdict::KeptUnjudged
        } else {
            let nearest = reps
                .iter()
                .filter(|(h, _, _)| config.scope == DedupScope::Global || h == host)
                .map(|&(_, f, rep)| ((f ^ bits).count_ones(), rep))
                .filter(|&(d, _)| d <= config.threshold)
                .min();
            match nearest {
                None => {
                    reps.push((host.clone(), *bits, id));
                    Verdict::Kept { cluster: id }
                }
                Some((distance, of)) => {
                    let n = budget.entry(of).or_insert(1);
                    if *n < config.cluster_budget {
                        *n += 1;
                        Verdict::Kept { cluster: of }
                    } else {
                        Verdict::NearDuplicate { of, distance }
                    }
                }
            }
        };
        if !v.is_duplicate() {
            bodies.push((*body, id));
        }
        out.push(v);
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// Skewed pages (a few structures, bit flips, repeated bodies, few hosts) judged by
    /// `Dedup` and by brute force agree, in both scopes, across the host list's growth.
    #[test]
    fn agrees_with_brute_force(
        seed_fps in proptest::collection::vec(proptest::prelude::any::<u64>(), 1..6),
        picks in proptest::collection::vec((0usize..6, 0u32..64, 0u32..64, 0u8..3, 0u8..40, 0u64..20), 1..300),
        host_scope in proptest::prelude::any::<bool>(),
        budget in 1u32..3,
    ) {
        let config = DedupConfig {
            scope: if host_scope { DedupScope::Host } else { DedupScope::Global },
            cluster_budget: budget,
            ..DedupConfig::default()
        };
        let pages: Vec<(String, u128, u64, u64)> = picks
            .iter()
            .map(|&(s, b1, b2, host, body, elements)| {
                let bits = seed_fps[s % seed_fps.len()] ^ (1 << b1) ^ (1 << b2);
                (format!("h{host}"), u128::from(body), bits, elements * 3)
            })
            .collect();
        let mut d = Dedup::new(config, "t").expect("valid");
        let got: Vec<Verdict> = pages
            .iter()
            .enumerate()
            .map(|(i, (h, body, bits, el))| d.judge(i as u64 + 1, h, *body, fp(*bits), *el, None))
            .collect();
        proptest::prop_assert_eq!(got, oracle(config, &pages));
    }
}

#[test]
fn host_lists_grow_into_an_index() {
    // 200 structures far apart on one host: past the list size, judged like brute force.
    let config = DedupConfig {
        scope: DedupScope::Host,
        ..DedupConfig::default()
    };
    let base = |i: u64| i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut pages: Vec<(String, u128, u64, u64)> = (0..200)
        .map(|i| ("h".to_owned(), u128::from(i), base(i), 50))
        .collect();
    pages.extend((0..200).map(|i| ("h".to_owned(), 1000 + u128::from(i), base(i) ^ 0b101, 50)));
    let mut d = Dedup::new(config, "t").expect("valid");
    let got: Vec<Verdict> = pages
        .iter()
        .enumerate()
        .map(|(i, (h, body, bits, el))| d.judge(i as u64 + 1, h, *body, fp(*bits), *el, None))
        .collect();
    assert_eq!(got, oracle(config, &pages));
    assert!(matches!(d.per_host.get("h"), Some(HostIndex::Large(_))));
}

#[test]
fn summaries_confirm_near_matches() {
    use Verdict::*;
    let mut d = confirming();
    // Ids with their three low bits clear: no prose, no form field, no table column.
    let set = |ids: std::ops::Range<u32>| ids.map(|i| i * 16).collect::<Vec<u32>>();
    let mut judge = |id: u64, body: u128, bits: u64, summary: &[u32]| {
        let v = d.judge(id, "h", body, fp(bits), 50, Some(summary));
        (v, d.last_similarity())
    };
    // Kept, then a page 1 bit away with the same paths: its duplicate, similarity 1.
    assert_eq!(judge(1, 1, BASE, &set(0..10)), (Kept { cluster: 1 }, None));
    assert_eq!(
        judge(2, 2, BASE ^ 1, &set(0..10)),
        (NearDuplicate { of: 1, distance: 1 }, Some(1.0))
    );
    // 1 bit away but only 5 of 15 paths shared: not confirmed, a cluster of its own.
    assert_eq!(
        judge(3, 3, BASE ^ 2, &set(5..15)),
        (Kept { cluster: 3 }, None)
    );
    // Near both, more alike to the second: the most similar candidate wins, not the nearest.
    let v = judge(4, 4, BASE ^ 1, &set(5..14));
    assert_eq!(v.0, NearDuplicate { of: 3, distance: 2 });
    assert!((v.1.expect("confirmed") - 0.9).abs() < 1e-9);
    // A page without a summary is judged by its fingerprint alone.
    assert_eq!(
        d.judge(5, "h", 5, fp(BASE), 50, None),
        NearDuplicate { of: 1, distance: 0 }
    );
    // Out-of-range similarities are refused.
    let bad = DedupConfig {
        min_similarity: Some(1.5),
        ..DedupConfig::default()
    };
    assert_eq!(
        Dedup::new(bad, "t").map(|_| ()),
        Err(DedupError::Similarity { value: 1.5 })
    );
}

/// `candidates` names every representative within the threshold, nearest first, with the
/// similarity the confirmation reads and how, and changes nothing.
#[test]
fn candidates_say_how_a_page_is_compared() {
    let mut d = confirming();
    // Ids with their three low bits clear: no prose, no form field, no table column.
    let set = |ids: std::ops::Range<u32>| ids.map(|i| i * 16).collect::<Vec<u32>>();
    d.judge(1, "h", 1, fp(BASE), 50, Some(&set(0..10)));
    d.judge(3, "h", 3, fp(BASE ^ 2), 50, Some(&set(5..15)));
    let summary = set(5..14);
    let none = PageContent::default();
    let page = signals_of(4, BASE ^ 1, &summary, &none);
    type Note = (u64, u32, Option<String>, Compared, Option<(usize, usize)>);
    let notes = |d: &Dedup, page: &PageSignals<'_>| -> Vec<Note> {
        d.candidates(page)
            .iter()
            .map(|c| {
                (
                    c.id,
                    c.distance,
                    c.similarity.map(|s| format!("{s:.3}")),
                    c.compared,
                    c.paths,
                )
            })
            .collect()
    };
    // Neither an article, each with paths the other lacks (4 and 5): no candidate
    // (`blocks.rs`). Read on all paths of the two: 9 of 10.
    let expected = [
        (1, 1, None, Compared::EachOwn, None),
        (3, 2, Some("0.900".into()), Compared::Whole, Some((10, 10))),
    ];
    assert_eq!(notes(&d, &page), expected);
    assert_eq!(notes(&d, &page), expected);
    assert_eq!(
        d.judge_page(&page),
        Verdict::NearDuplicate { of: 3, distance: 2 }
    );
    // Two own forms with other fields: no candidate, and said so.
    let form = [1u32 << 20 | 2, 2u32 << 20 | 2];
    d.judge(5, "h", 5, fp(!BASE), 50, Some(&form));
    let other = [3u32 << 20 | 2, 4u32 << 20 | 2];
    let asks = PageSignals {
        id: 6,
        body_hash: 6,
        fingerprint: fp(!BASE ^ 1),
        summary: Some(&other),
        ..page
    };
    assert_eq!(
        notes(&d, &asks),
        [(5, 1, None, Compared::FormsDiffer, None)]
    );
    // Two own tables with other columns: no candidate either, and said so.
    let table = [1u32 << 20 | 4, 2u32 << 20 | 4];
    d.judge(7, "h", 7, fp(BASE ^ 0xffff_0000_0000), 50, Some(&table));
    let columns = [3u32 << 20 | 4, 4u32 << 20 | 4];
    let shows = PageSignals {
        id: 8,
        body_hash: 8,
        fingerprint: fp(BASE ^ 0xffff_0000_0001),
        summary: Some(&columns),
        ..page
    };
    assert_eq!(
        notes(&d, &shows),
        [(7, 1, None, Compared::TablesDiffer, None)]
    );
    // Under min-elements, or without a summary: none.
    let few = PageSignals {
        elements: 3,
        ..page
    };
    assert!(d.candidates(&few).is_empty());
    let bare = PageSignals {
        summary: None,
        ..page
    };
    assert!(d.candidates(&bare).is_empty());
}

#[test]
fn paths_that_vary_within_clusters_stop_counting() {
    use Verdict::*;
    // Shared chrome 0..10; content blocks 100.. that differ from page to page (path `n`
    // is summary id `16n`).
    let page = |content: &[u32]| -> Vec<u32> {
        (0..10)
            .chain(content.iter().copied())
            .map(|n| n * 16)
            .collect()
    };
    let run = |varying_after: u32| -> Vec<Verdict> {
        let config = DedupConfig {
            threshold: 8,
            min_similarity: Some(0.7),
            varying_after,
            ..DedupConfig::default()
        };
        let mut d = Dedup::new(config, "t").expect("valid");
        let pages = [
            page(&[100, 101]),
            page(&[102]),           // 10/13: joins, 100-102 vary once
            page(&[101, 103]),      // 11/13: joins, 100, 103 vary (100 twice)
            page(&[100, 102, 104]), // 12/13: joins, 100-104 have varied (101 twice)
            page(&[102, 103, 105, 106, 107]),
        ];
        let mut verdicts: Vec<Verdict> = pages
            .iter()
            .zip(1u64..)
            .map(|(p, id)| d.judge(id, "h", u128::from(id), fp(BASE), 50, Some(p)))
            .collect();
        // Another host learned nothing: the same page there starts its own cluster.
        d.judge(9, "other", 9, fp(BASE), 50, Some(&page(&[100, 101])));
        verdicts.push(d.judge(
            10,
            "other",
            10,
            fp(BASE),
            50,
            Some(&page(&[102, 103, 105, 106, 107])),
        ));
        verdicts
    };
    let joined = NearDuplicate { of: 1, distance: 0 };
    // Without learning the last page shares 10 of 17 paths (0.59): a cluster of its own.
    assert_eq!(
        run(0),
        [
            Kept { cluster: 1 },
            joined,
            joined,
            joined,
            Kept { cluster: 5 },
            Kept { cluster: 10 }
        ]
    );
    // After 2: 100, 101 and 102 have varied twice and leave the comparison: 10 of 14 (0.71).
    assert_eq!(
        run(2),
        [
            Kept { cluster: 1 },
            joined,
            joined,
            joined,
            joined,
            Kept { cluster: 10 }
        ]
    );
}

#[test]
fn blocks_that_varied_in_one_other_cluster_still_tell_a_page_kind_apart() {
    use Verdict::*;
    // Chrome 0..20 on every page; blocks 200..210 the page kind P brings. (Path `n` is
    // summary id `16n`, its lowest three bits `n`'s: odd ones prose, none an article's
    // block.)
    let page = |own: &[u32]| -> Vec<u32> {
        (0..20)
            .chain(own.iter().copied())
            .map(|n| n * 16 + (n & 7))
            .collect()
    };
    let (a, b, c) = (BASE, BASE ^ 0xffff_ffff, BASE ^ 0xffff_ffff_0000_0000);
    let run = |in_two_clusters: bool| -> Verdict {
        let config = DedupConfig {
            threshold: 8,
            min_similarity: Some(0.7),
            varying_after: 2,
            ..DedupConfig::default()
        };
        let mut d = Dedup::new(config, "t").expect("valid");
        let mut id = 0;
        let mut judge = |d: &mut Dedup, bits: u64, summary: Vec<u32>| {
            id += 1;
            d.judge(id, "h", u128::from(id), fp(bits), 50, Some(&summary))
        };
        // Cluster of A (page 1): pages with half of P's blocks join it, twice each, so the
        // blocks vary within it. With `in_two_clusters` they vary within C's cluster too.
        let halves: [Vec<u32>; 2] = [(200..205).collect(), (205..210).collect()];
        let mut clusters = vec![(a, 100)];
        if in_two_clusters {
            clusters.push((c, 400));
        }
        for (bits, mark) in clusters {
            let first = judge(&mut d, bits, page(&[mark]));
            assert!(matches!(first, Kept { .. }));
            for half in &halves {
                for _ in 0..2 {
                    let joins = judge(&mut d, bits, page(&[&[mark][..], half].concat()));
                    assert!(
                        matches!(joins, NearDuplicate { distance: 0, .. }),
                        "{joins:?}"
                    );
                }
            }
        }
        // B, far from both; then P, at B's fingerprint: 20 of 31 paths shared with B when its
        // blocks count.
        assert!(matches!(judge(&mut d, b, page(&[300])), Kept { .. }));
        judge(&mut d, b, page(&(200..210).collect::<Vec<_>>()))
    };
    // Learned within A's cluster only, P's blocks count against B: a kind of its own.
    assert!(matches!(run(false), Kept { .. }), "{:?}", run(false));
    // Varying within two clusters, they are content: P joins B (20 of 21).
    assert!(
        matches!(run(true), NearDuplicate { distance: 0, .. }),
        "{:?}",
        run(true)
    );
}

#[test]
fn settings() {
    assert_eq!(
        "follow-links".parse::<OnDuplicate>(),
        Ok(OnDuplicate::FollowLinks)
    );
    assert_eq!(
        "Drop".parse::<OnDuplicate>().map_err(|e| e.to_string()),
        Err(r#"on-duplicate = "Drop": must be one of "drop", "follow-links", "keep""#.to_owned())
    );
    assert_eq!("host".parse::<DedupScope>(), Ok(DedupScope::Host));
    let bad = DedupConfig {
        threshold: 9,
        ..DedupConfig::default()
    };
    assert_eq!(
        Dedup::new(bad, "p").map(|_| ()),
        Err(DedupError::Threshold { value: 9 })
    );
    let bad = DedupConfig {
        cluster_budget: 0,
        ..DedupConfig::default()
    };
    assert_eq!(
        Dedup::new(bad, "p").map(|_| ()),
        Err(DedupError::ClusterBudget)
    );
}

#[path = "dedup_kinds_tests.rs"]
mod kinds;
