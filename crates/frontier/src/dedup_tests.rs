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

/// Summary id of fixture path `n`: its lowest three bits kept (prose, a field, a column), and
/// bit 8 (an article's block, `articles.rs`) clear; increasing in `n`.
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
    let set = |ids: std::ops::Range<u32>| ids.map(template_id).collect::<Vec<u32>>();
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
    // Shared chrome 0..10; content blocks 100.. that differ from page to page.
    let page = |content: &[u32]| -> Vec<u32> { (0..10).chain(content.iter().copied()).collect() };
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
    // summary id `template_id(n)`: odd ones prose, none an article's block.)
    let page = |own: &[u32]| -> Vec<u32> {
        (0..20)
            .chain(own.iter().copied())
            .map(template_id)
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

#[test]
fn pages_that_are_mostly_frame_are_compared_on_their_own_paths() {
    use Verdict::*;
    // A frame 0..20 on every page; ten page kinds with a main region of 3 paths each. (Path
    // `n` is summary id `2n`: a path of the template, not prose.)
    let page =
        |own: &[u32]| -> Vec<u32> { (0..20).chain(own.iter().copied()).map(|n| n * 2).collect() };
    let run = |kinds: u32, login: &[u32], register: &[u32]| -> (Verdict, Verdict) {
        let mut d = confirming();
        // Each kind's fingerprint is far from the others': each starts a cluster.
        keep_far_apart(&mut d, kinds, |k| {
            page(&(0..3).map(|i| 1000 + 10 * k + i).collect::<Vec<u32>>())
        });
        let a = d.judge(100, "h", 100, fp(BASE), 50, Some(&page(login)));
        let b = d.judge(101, "h", 101, fp(BASE ^ 0b111), 50, Some(&page(register)));
        (a, b)
    };
    let login: &[u32] = &[500, 501, 502];
    let register: &[u32] = &[500, 503, 504, 505];
    // 21 of 27 paths shared (0.78): merged while the frame is unknown (four representatives:
    // three kinds and the login page)...
    let merged = (
        Kept { cluster: 100 },
        NearDuplicate {
            of: 100,
            distance: 3,
        },
    );
    assert_eq!(run(3, login, register), merged);
    // ... apart once five representatives teach it: 1 of 6 own paths shared.
    let apart = (Kept { cluster: 100 }, Kept { cluster: 101 });
    assert_eq!(run(4, login, register), apart);
    // Pages of one kind (the same main region, a path more or less) still merge.
    let same = (
        Kept { cluster: 100 },
        NearDuplicate {
            of: 100,
            distance: 3,
        },
    );
    assert_eq!(run(10, login, &[500, 501, 502, 503]), same);
    // A page with much of its own is compared on all its paths: 20 of 26 shared (0.77)
    // with a shorter page of its kind.
    let article: Vec<u32> = (500..526).collect();
    let longer: Vec<u32> = (500..520).collect();
    let (a, b) = run(10, &article, &longer);
    assert_eq!(
        (a, b),
        (
            Kept { cluster: 100 },
            NearDuplicate {
                of: 100,
                distance: 3
            }
        )
    );
}

#[test]
fn own_parts_too_small_once_varying_paths_are_left_out_keep_them() {
    use Verdict::*;
    // A frame 0..40 that ten page kinds (3 own paths each) teach; paths learn to vary after
    // one confirmed match.
    let page = |own: &[u32]| -> Vec<u32> {
        // (Path `n` is summary id `2n`: a path of the template, not prose.)
        let mut paths: Vec<u32> = (0..40).chain(own.iter().copied()).map(|n| n * 2).collect();
        paths.sort_unstable();
        paths
    };
    let items: Vec<u32> = (600..606).collect();
    let run = |second: &[u32]| -> Verdict {
        let mut d = confirming_after_one();
        keep_far_apart(&mut d, 10, |k| {
            page(&(0..3).map(|i| 1000 + 10 * k + i).collect::<Vec<u32>>())
        });
        // Articles (half their paths their own, so compared on all of them) teach that the
        // list items 600..606 vary.
        let article =
            |part: &[u32]| page(&[&(2000..2035).collect::<Vec<u32>>()[..], part].concat());
        assert_eq!(
            d.judge(100, "h", 100, fp(BASE), 50, Some(&article(&items))),
            Kept { cluster: 100 }
        );
        for (id, part) in [(101, &items[..3]), (102, &items[3..])] {
            let v = d.judge(id, "h", u128::from(id), fp(BASE), 50, Some(&article(part)));
            assert_eq!(
                v,
                NearDuplicate {
                    of: 100,
                    distance: 0
                }
            );
        }
        // A list kind, mostly frame: the items and a path of its own.
        let list = !BASE;
        let first = page(&[&items[..], &[950]].concat());
        assert_eq!(
            d.judge(200, "h", 200, fp(list), 50, Some(&first)),
            Kept { cluster: 200 }
        );
        d.judge(201, "h", 201, fp(list ^ 0b11), 50, Some(&page(second)))
    };
    // Another list page: without the frame and the varying items, 950 and 951 are all that
    // is left (0 of 2 shared); fewer than MIN_COMPARED, so the items stay: 6 of 8 (0.75).
    let joined = NearDuplicate {
        of: 200,
        distance: 2,
    };
    assert_eq!(run(&[&items[..], &[951]].concat()), joined);
    // A page with eight paths of its own besides the items (still mostly frame): compared
    // without the varying items, it shares none of them and stays apart.
    let other: Vec<u32> = items.iter().copied().chain(960..968).collect();
    assert_eq!(run(&other), Kept { cluster: 201 });
}

#[test]
fn articles_whose_template_the_frame_learned_are_compared_on_all_their_paths() {
    use Verdict::*;
    // A documentation host whose first ten kept pages are articles of one template: the
    // template's 30 paths (0..30) become the frame, and each article has 20 paths of content.
    // (Path `n` is summary id `2n`: its content is not marked prose, so only its size keeps
    // it from being mostly frame.)
    let mut d = confirming();
    let article = |content: &mut dyn Iterator<Item = u32>| -> Vec<u32> {
        let mut paths: Vec<u32> = (0..30).chain(content).map(|n| n * 2).collect();
        paths.sort_unstable();
        paths
    };
    keep_far_apart(&mut d, 10, |k| {
        article(&mut (1000 + 100 * k..1020 + 100 * k))
    });
    let first = article(&mut (5000..5020));
    assert_eq!(
        d.judge(100, "h", 100, fp(BASE), 50, Some(&first)),
        Kept { cluster: 100 }
    );
    // Another article of the template: 44 of 52 paths shared (0.85), but only 14 of the 22
    // content paths (0.64). A third of each page is its own: not mostly frame, so the
    // whole page is compared, and it joins (two paths of its own: `blocks.rs` says nothing).
    let next = article(&mut (5000..5014).chain(6000..6002));
    assert_eq!(
        d.judge(101, "h", 101, fp(BASE ^ 0b11), 50, Some(&next)),
        NearDuplicate {
            of: 100,
            distance: 2
        }
    );
}

/// How the confirmation compares `signals`' page with representative `id`: (id, similarity,
/// how compared).
fn notes_on(d: &Dedup, signals: &PageSignals<'_>, id: u64) -> Vec<(u64, Option<f64>, Compared)> {
    d.candidates(signals)
        .iter()
        .filter(|c| c.id == id)
        .map(|c| (c.id, c.similarity, c.compared))
        .collect()
}

/// A summary: paths `0..shared` and `own` of the template (path `n` is summary id `16n`) and
/// `prose` paths of prose (summary id `16n + 1`), sorted.
fn page_of(shared: u32, own: std::ops::Range<u32>, prose: std::ops::Range<u32>) -> Vec<u32> {
    let mut paths: Vec<u32> = (0..shared)
        .chain(own)
        .map(|n| n * 16)
        .chain(prose.map(|n| n * 16 + 1))
        .collect();
    paths.sort_unstable();
    paths
}

#[test]
fn a_page_mostly_frame_that_brings_what_the_host_never_kept_is_another_kind() {
    use Verdict::*;
    // A frame 0..80 that ten page kinds teach (3 paths of their own each). (Path `n` is
    // summary id `16n`, a path of the template; `16n + 1` is prose.)
    let page = |own: std::ops::Range<u32>, prose: std::ops::Range<u32>| page_of(80, own, prose);
    let mut d = confirming_after_one();
    keep_far_apart(&mut d, 10, |k| page(1000 + 10 * k..1003 + 10 * k, 0..0));
    // A wiki page: the frame, the article's container and five paths of prose.
    let view = page(600..601, 700..705);
    assert_eq!(
        d.judge(100, "h", 100, fp(BASE), 50, Some(&view)),
        Kept { cluster: 100 }
    );
    // Its diff view: the frame, a line of prose and a `pre.diff` of three paths no kept
    // page has, where the article was. 80 of 90 paths shared (0.89), but it brings what the
    // host never kept. (Without its line it would hold no prose against an article:
    // `prose.rs` would part them first.)
    let diff = page(500..503, 800..801);
    let none = PageContent::default();
    let signals = signals_of(200, BASE ^ 1, &diff, &none);
    let notes = notes_on(&d, &signals, 100);
    assert_eq!(notes, [(100, None, Compared::BringsNew)]);
    assert_eq!(d.judge_page(&signals), Kept { cluster: 200 });
    // The next diff view brings nothing new: it joins the first.
    let next = page(500..503, 800..801);
    assert_eq!(
        d.judge(201, "h", 201, fp(BASE ^ 1), 50, Some(&next)),
        NearDuplicate {
            of: 200,
            distance: 0
        }
    );
    // A page with two paths the host never kept is compared as before (`MIN_NEW`).
    let two = page(800..802, 800..801);
    let v = d.judge(202, "h", 202, fp(BASE ^ 0b100), 50, Some(&two));
    assert!(matches!(v, NearDuplicate { .. }), "{v:?}");
}

#[test]
fn a_page_mostly_frame_never_joins_a_page_without_its_own_part() {
    use Verdict::*;
    // A frame 0..80 that ten page kinds teach (3 paths of their own each); paths learn to vary
    // after one confirmed match. (Path `n` is summary id `16n`: a path of the template, no prose, field or column.)
    let page = |own: &mut dyn Iterator<Item = u32>| -> Vec<u32> {
        let mut paths: Vec<u32> = (0..80).chain(own).map(|n| n * 16).collect();
        paths.sort_unstable();
        paths
    };
    let mut d = confirming_after_one();
    keep_far_apart(&mut d, 10, |k| page(&mut (1000 + 10 * k..1003 + 10 * k)));
    // A page's history: 45 rows of its own, not mostly frame.
    let history = page(&mut (600..645));
    assert_eq!(
        d.judge(100, "h", 100, fp(BASE), 50, Some(&history)),
        Kept { cluster: 100 }
    );
    // Other histories join it, each without five of the first's rows and with two of its
    // own: 35 of its rows learn to vary.
    for i in 0..7 {
        let rows = (600..610 + 5 * i)
            .chain(615 + 5 * i..645)
            .chain(700 + 5 * i..702 + 5 * i);
        let v = d.judge(
            101 + u64::from(i),
            "h",
            101 + u128::from(i),
            fp(BASE),
            50,
            Some(&page(&mut rows.clone())),
        );
        assert_eq!(
            v,
            NearDuplicate {
                of: 100,
                distance: 0
            },
            "history {i}"
        );
    }
    // A list of rights: mostly frame, with a table of 8 paths of its own that the history
    // lacks. On all paths but the varying ones the frame makes them 0.82 alike (80 of 98);
    // its own part is not in the history: another kind.
    let rights = page(&mut (500..508));
    let none = PageContent::default();
    let signals = signals_of(200, BASE ^ 1, &rights, &none);
    let notes = notes_on(&d, &signals, 100);
    assert_eq!(notes, [(100, None, Compared::OwnPartAbsent)]);
    assert_eq!(d.judge_page(&signals), Kept { cluster: 200 });
    // A page of the history's kind that holds the rights' table as well: it holds the table's
    // own part, and is compared as before.
    let both = page(&mut (500..508).chain(600..610));
    let v = d.judge(201, "h", 201, fp(BASE ^ 1), 50, Some(&both));
    assert!(matches!(v, NearDuplicate { .. }), "{v:?}");
}

#[test]
fn pages_whose_own_forms_ask_for_other_fields_stay_apart() {
    use Verdict::*;
    // A frame (paths 0..30) with a search box (fields 90, 91) on every page and a form's
    // container (paths 40..44); preference panels differ in their fields only. (Path `n` is
    // summary id `4n`, field `n` is `4n + 2`: `forms.rs`.)
    let page = |fields: &[u32]| -> Vec<u32> {
        let mut ids: Vec<u32> = (0..30)
            .chain(40..44)
            .map(|n| n * 4)
            .chain([90, 91].iter().chain(fields).map(|n| n * 4 + 2))
            .collect();
        ids.sort_unstable();
        ids
    };
    let mut d = confirming();
    let a = d.judge(1, "h", 1, fp(BASE), 50, Some(&page(&[1, 2, 3])));
    // 36 of 42 paths shared (0.86), 3 bits apart; but its form asks for other fields (2 of
    // 8 shared, the search box's).
    let b = d.judge(2, "h", 2, fp(BASE ^ 0b111), 50, Some(&page(&[4, 5, 6])));
    // One field more than the first panel's: the same form.
    let c = d.judge(3, "h", 3, fp(BASE ^ 0b1), 50, Some(&page(&[1, 2, 3, 7])));
    assert_eq!(
        (a, b, c),
        (
            Kept { cluster: 1 },
            Kept { cluster: 2 },
            NearDuplicate { of: 1, distance: 1 }
        )
    );
}

#[test]
fn forms_that_name_their_item_split_a_host_at_most_max_forms_times() {
    // Every page one template (with prose: never "mostly frame"), with a form whose fields'
    // names carry the page's item (`rate-<slug>`, `note-<slug>`) beside a submit button:
    // each page another form, nothing but the button (the frame's, once known) shared.
    let page = |i: u32| -> Vec<u32> {
        let mut ids: Vec<u32> = (0..30)
            .map(|n| n * 4)
            .chain((200..205).map(|n| n * 4 + 1))
            .chain([90, 1000 + i, 2000 + i].iter().map(|n| n * 4 + 2))
            .map(template_id)
            .collect();
        ids.sort_unstable();
        ids
    };
    let mut d = confirming();
    let kept = (0..100u32)
        .map(|i| {
            let bits = BASE ^ u64::from(i % 4);
            d.judge(
                u64::from(i) + 1,
                "h",
                u128::from(i),
                fp(bits),
                50,
                Some(&page(i)),
            )
        })
        .filter(|v| matches!(v, Verdict::Kept { .. }))
        .count();
    assert_eq!(kept, crate::forms::MAX_FORMS as usize);
}

/// Beyond the threshold, within `far-reach` × it, a kept page is a near match only at
/// `min-similarity` + `far-margin`, and only when none within the threshold is confirmed
/// (`far.rs`); `far-reach = 1` compares none.
#[test]
fn kept_pages_beyond_the_threshold_confirm_at_a_higher_similarity() {
    use Verdict::*;
    let set = |ids: std::ops::Range<u32>| ids.map(|i| i * 16).collect::<Vec<u32>>();
    let config = |far_reach| DedupConfig {
        threshold: 8,
        min_similarity: Some(0.7),
        far_reach,
        far_margin: 0.1,
        ..DedupConfig::default()
    };
    let ten = 0x3ff_u64; // 10 bits
    // (fingerprint bits, summary) judged in order on one host; the verdicts.
    let check = |far_reach: u32, pages: &[(u64, Vec<u32>)], expected: &[Verdict]| {
        let mut d = Dedup::new(config(far_reach), "t").expect("valid");
        let got: Vec<Verdict> = (1u64..)
            .zip(pages)
            .map(|(id, (bits, summary))| {
                d.judge(id, "h", u128::from(id), fp(*bits), 50, Some(summary))
            })
            .collect();
        assert_eq!(got, expected, "far-reach {far_reach}");
    };
    // 10 bits away, 18 of 20 paths: 0.9 >= 0.8, a duplicate; 15 of 20 (0.75): kept.
    let pages = [
        (BASE, set(0..20)),
        (BASE ^ ten, set(0..18)),
        (BASE ^ (ten << 20), set(0..15)),
    ];
    check(
        3,
        &pages,
        &[
            Kept { cluster: 1 },
            NearDuplicate {
                of: 1,
                distance: 10,
            },
            Kept { cluster: 3 },
        ],
    );
    // Off: the fingerprint proposes nothing beyond the threshold.
    check(
        1,
        &pages,
        &[
            Kept { cluster: 1 },
            Kept { cluster: 2 },
            Kept { cluster: 3 },
        ],
    );
    // 25 bits is beyond 3 × 8: kept, however alike.
    check(
        3,
        &[(BASE, set(0..20)), (BASE ^ 0x1ff_ffff, set(0..20))],
        &[Kept { cluster: 1 }, Kept { cluster: 2 }],
    );
    // A candidate within the threshold that is confirmed wins over a more similar one
    // beyond it.
    check(
        3,
        &[
            (BASE, set(0..20)),
            (BASE ^ (ten << 30), set(0..10)),
            (BASE ^ (ten << 30) ^ 1, set(0..14)),
        ],
        &[
            Kept { cluster: 1 },
            Kept { cluster: 2 },
            NearDuplicate { of: 2, distance: 1 },
        ],
    );
    // `candidates` names the ones beyond the threshold it read.
    let mut d = Dedup::new(config(3), "t").expect("valid");
    d.judge(1, "h", 1, fp(BASE), 50, Some(&set(0..20)));
    let summary = set(0..18);
    let page = PageSignals {
        id: 2,
        host: "h",
        body_hash: 2,
        fingerprint: fp(BASE ^ ten),
        elements: 50,
        summary: Some(&summary),
        content: &PageContent::default(),
    };
    let seen: Vec<(u64, u32, bool)> = d
        .candidates(&page)
        .iter()
        .map(|c| (c.id, c.distance, c.far))
        .collect();
    assert_eq!(seen, [(1, 10, true)]);
    // Settings out of range are refused.
    for (reach, margin, err) in [
        (0, 0.1, DedupError::FarReach { value: 0 }),
        (9, 0.1, DedupError::FarReach { value: 9 }),
        (3, 1.5, DedupError::FarMargin { value: 1.5 }),
    ] {
        let bad = DedupConfig {
            far_margin: margin,
            ..config(reach)
        };
        assert_eq!(Dedup::new(bad, "t").map(|_| ()), Err(err));
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Whatever the pages (of one template, their path sets 0.6 to 1 alike, 0 to 29 bits
    /// apart): a near-duplicate beyond the threshold lies within `far-reach` × it and
    /// reached `min-similarity` + `far-margin`; with `far-reach = 1` there is none.
    #[test]
    fn a_match_beyond_the_threshold_is_within_reach_and_alike_enough(
        pages in proptest::collection::vec(
            (
                0u32..30,
                proptest::collection::btree_set(0u32..30, 0..8),
                proptest::collection::btree_set(30u32..40, 0..5),
            ),
            1..60,
        ),
        reach in 1u32..4,
    ) {
        let config = DedupConfig {
            threshold: 8,
            min_similarity: Some(0.7),
            varying_after: 2,
            far_reach: reach,
            far_margin: 0.1,
            ..DedupConfig::default()
        };
        let mut d = Dedup::new(config, "t").expect("valid");
        for (id, (flips, removed, added)) in (1u64..).zip(&pages) {
            // `flips` low bits of BASE flipped: pages 0 to 29 bits from it; paths 0..30 less
            // `removed`, with `added`: from 0.6 to 1 alike.
            let bits = BASE ^ ((1u64 << flips) - 1);
            let summary: Vec<u32> = (0..30)
                .filter(|p| !removed.contains(p))
                .chain(added.iter().copied())
                .map(|p| p * 16)
                .collect();
            let v = d.judge(id, "h", u128::from(id), fp(bits), 50, Some(&summary));
            if let Verdict::NearDuplicate { distance, .. } = v
                && distance > 8
            {
                proptest::prop_assert!(reach > 1 && distance <= 8 * reach, "{v:?}");
                let s = d.last_similarity().expect("confirmed by path sets");
                proptest::prop_assert!(s >= 0.8 - 1e-9, "{v:?} at {s}");
            }
        }
    }
}

#[test]
fn an_article_and_a_page_without_prose_are_two_kinds() {
    use Verdict::*;
    // A skin of 40 paths; a page view adds its article's container and 7 paths of prose, a
    // history list 6 paths of its own. (Path `n` is summary id `16n`; `16n + 1` is prose.)
    let page = |own: std::ops::Range<u32>, prose: std::ops::Range<u32>| page_of(40, own, prose);
    let mut d = confirming_after_one();
    let view = page(600..603, 700..707);
    assert_eq!(
        d.judge(1, "h", 1, fp(BASE), 50, Some(&view)),
        Kept { cluster: 1 }
    );
    // 40 of 56 paths shared (0.71): joined but for the prose the view has and it has not.
    let history = page(500..506, 0..0);
    let none = PageContent::default();
    let signals = signals_of(2, BASE ^ 0b11, &history, &none);
    assert_eq!(
        notes_on(&d, &signals, 1),
        [(1, None, Compared::ProseDiffers)]
    );
    assert_eq!(d.judge_page(&signals), Kept { cluster: 2 });
    // The next history list joins the first; a stub (two paragraphs) still joins the view.
    let next = page(500..506, 0..0);
    assert_eq!(
        d.judge(3, "h", 3, fp(BASE ^ 0b11), 50, Some(&next)),
        NearDuplicate { of: 2, distance: 0 }
    );
    let stub = page(600..603, 700..702);
    assert_eq!(
        d.judge(4, "h", 4, fp(BASE ^ 1), 50, Some(&stub)),
        NearDuplicate { of: 1, distance: 1 }
    );
}

#[test]
fn two_pages_that_each_hold_a_block_the_other_lacks_are_two_kinds() {
    use Verdict::*;
    // A skin of 40 paths, no frame learned yet; a history list adds 6 paths of its own, a
    // diff view 5 and a line of prose. (Path `n` is summary id `16n`; `16n + 1` is prose.)
    let mut d = confirming_after_one();
    let history = page_of(40, 500..506, 0..0);
    assert_eq!(
        d.judge(1, "h", 1, fp(BASE), 50, Some(&history)),
        Kept { cluster: 1 }
    );
    // 40 of 52 paths shared (0.77), but each holds a block the other lacks.
    let diff = page_of(40, 600..605, 700..701);
    let none = PageContent::default();
    let signals = signals_of(2, BASE ^ 0b11, &diff, &none);
    assert_eq!(notes_on(&d, &signals, 1), [(1, None, Compared::EachOwn)]);
    assert_eq!(d.judge_page(&signals), Kept { cluster: 2 });
    // The next diff joins the first; a history with a pager (two paths more) joins the list.
    let next = page_of(40, 600..605, 700..701);
    assert_eq!(
        d.judge(3, "h", 3, fp(BASE ^ 0b11), 50, Some(&next)),
        NearDuplicate { of: 2, distance: 0 }
    );
    let paged = page_of(40, 500..508, 0..0);
    assert_eq!(
        d.judge(4, "h", 4, fp(BASE ^ 1), 50, Some(&paged)),
        NearDuplicate { of: 1, distance: 1 }
    );
}

#[test]
fn two_articles_are_compared_without_their_articles_blocks() {
    use Verdict::*;
    // A skin of 30 paths and 4 of prose; each article holds 12 blocks an author wrote (a
    // definition list, a nested section), 2 of them shared. (Path `n` is summary id `16n`,
    // `16n + 1` prose; `16n + 8` beside `16n` marks an article's block.)
    let article = |blocks: std::ops::Range<u32>| {
        let mut ids = page_of(30, 0..0, 100..104);
        ids.extend(blocks.flat_map(|n| [n * 16, n * 16 + 8]));
        ids.sort_unstable();
        ids
    };
    let mut d = confirming_after_one();
    let first = article(200..212);
    assert_eq!(
        d.judge(1, "h", 1, fp(BASE), 50, Some(&first)),
        Kept { cluster: 1 }
    );
    // 36 of 56 paths shared (0.64) on all paths; 34 of 34 without the blocks.
    let second = article(210..222);
    let none = PageContent::default();
    let signals = signals_of(2, BASE ^ 0b11, &second, &none);
    assert_eq!(
        notes_on(&d, &signals, 1),
        [(1, Some(1.0), Compared::Articles)]
    );
    assert_eq!(d.judge_page(&signals), NearDuplicate { of: 1, distance: 2 });
    // A page with two blocks only is no article here: compared as before, without the paths
    // the host learned to vary (those the second page brought)...
    let short = article(200..202);
    let signals = signals_of(3, BASE ^ 0b1, &short, &none);
    let notes = notes_on(&d, &signals, 1);
    assert_eq!(notes[0].2, Compared::WithoutVarying, "{notes:?}");
    // ...and a template block beside the text (a diff table, 6 paths) still counts: 34 of 40.
    let mut diff = article(300..312);
    diff.extend((500..506).map(|n| n * 16));
    diff.sort_unstable();
    let signals = signals_of(4, BASE ^ 0b1, &diff, &none);
    let notes = notes_on(&d, &signals, 1);
    assert_eq!(notes[0].2, Compared::Articles, "{notes:?}");
    assert!(
        notes[0].1.is_some_and(|j| (j - 34.0 / 40.0).abs() < 1e-9),
        "{notes:?}"
    );
}
