//! The dedup tests of page kinds: pages mostly frame, forms, kept pages beyond the threshold,
//! articles and blocks (`dedup_tests.rs` holds the helpers).

use super::*;

#[test]
fn pages_that_are_mostly_frame_are_compared_on_their_own_paths() {
    use Verdict::*;
    // A frame 0..20 on every page; ten page kinds with a main region of 3 paths each. (Path
    // `n` is summary id `16n`: a path of the template, neither prose nor a field.)
    let page =
        |own: &[u32]| -> Vec<u32> { (0..20).chain(own.iter().copied()).map(|n| n * 16).collect() };
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
        // (Path `n` is summary id `16n`: a path of the template, not prose.)
        let mut paths: Vec<u32> = (0..40).chain(own.iter().copied()).map(|n| n * 16).collect();
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
    // (Path `n` is summary id `16n`: its content is not marked prose, so only its size keeps
    // it from being mostly frame.)
    let mut d = confirming();
    let article = |content: &mut dyn Iterator<Item = u32>| -> Vec<u32> {
        let mut paths: Vec<u32> = (0..30).chain(content).map(|n| n * 16).collect();
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
    // summary id `16n`, field `n` is `16n + 2`: `forms.rs`.)
    let page = |fields: &[u32]| -> Vec<u32> {
        let mut ids: Vec<u32> = (0..30)
            .chain(40..44)
            .map(|n| n * 16)
            .chain([90, 91].iter().chain(fields).map(|n| n * 16 + 2))
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
            .map(|n| n * 8)
            .chain((200..205).map(|n| n * 8 + 1))
            .chain([90, 1000 + i, 2000 + i].iter().map(|n| n * 8 + 2))
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
fn an_article_and_a_line_beside_a_block_of_its_own_are_two_kinds() {
    use Verdict::*;
    // A skin of 40 paths; the front page adds 7 paths of prose, a wiki's map a line of text
    // and a nested list of 6 paths. (Path `n` is summary id `16n`; `16n + 1` is prose.)
    let mut d = confirming_after_one();
    let front = page_of(40, 0..0, 700..707);
    assert_eq!(
        d.judge(1, "h", 1, fp(BASE), 50, Some(&front)),
        Kept { cluster: 1 }
    );
    // 40 of 54 paths shared (0.74): joined but for the map's block beside its one line.
    let map = page_of(40, 500..506, 700..701);
    let none = PageContent::default();
    let signals = signals_of(2, BASE ^ 0b11, &map, &none);
    assert_eq!(
        notes_on(&d, &signals, 1),
        [(1, None, Compared::BlockBesideArticle)]
    );
    assert_eq!(d.judge_page(&signals), Kept { cluster: 2 });
    // The next map joins the first; a short page (a line, two paths of its own) and an
    // article with a list more still join the front page.
    let next = page_of(40, 500..506, 700..701);
    assert_eq!(
        d.judge(3, "h", 3, fp(BASE ^ 0b11), 50, Some(&next)),
        NearDuplicate { of: 2, distance: 0 }
    );
    let short = page_of(40, 600..602, 700..701);
    assert_eq!(
        d.judge(4, "h", 4, fp(BASE ^ 1), 50, Some(&short)),
        NearDuplicate { of: 1, distance: 1 }
    );
    let longer = page_of(40, 600..603, 700..707);
    assert_eq!(
        d.judge(5, "h", 5, fp(BASE ^ 1), 50, Some(&longer)),
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
    // A page with two blocks only, all it holds the first's too: the same text with fewer
    // blocks, compared without them (session 74)...
    // ...but with 3 paths of its own too, compared as before, without the paths the host
    // learned to vary (those the second page brought)...
    let how = |own: std::ops::Range<u32>| {
        let mut page = article(200..202);
        page.extend(own.map(|n| n * 16));
        page.sort_unstable();
        notes_on(&d, &signals_of(3, BASE ^ 0b1, &page, &none), 1)[0].2
    };
    assert_eq!(how(0..0), Compared::Articles);
    assert_eq!(how(400..403), Compared::WithoutVarying);
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

/// Confirming dedup state whose host has kept ten page kinds far apart, each the frame
/// `0..frame` and 3 paths of its own (`1000 + 10k ..`): the frame is learned.
fn framed(frame: u32) -> Dedup {
    let mut d = confirming();
    keep_far_apart(&mut d, 10, |k| {
        page_of(frame, 1000 + 10 * k..1003 + 10 * k, 0..0)
    });
    d
}

/// `paths` with summary ids `extra` added, sorted.
fn adding(mut paths: Vec<u32>, extra: impl IntoIterator<Item = u32>) -> Vec<u32> {
    paths.extend(extra);
    paths.sort_unstable();
    paths
}

#[test]
fn a_page_that_brings_what_the_host_never_kept_joins_only_as_alike_as_a_far_match() {
    use Verdict::*;
    // A frame 0..10 that ten page kinds teach (3 paths of their own each), and a manual
    // page: the frame and 30 blocks 100..130, not mostly frame. (Path `n` is summary id
    // `16n`.)
    let mut d = framed(10);
    let manual = page_of(10, 100..130, 0..0);
    assert_eq!(
        d.judge(100, "h", 100, fp(BASE), 50, Some(&manual)),
        Kept { cluster: 100 }
    );
    let none = PageContent::default();
    // A module page: 28 of the manual's 30 blocks and 8 paths no kept page of the host has
    // (a synopsis table, directive sections): 38 of 48 paths shared, 0.79, below the far
    // match's 0.8 (min-similarity 0.7 + far-margin 0.1): another kind.
    let with = |new: &[u32]| adding(page_of(10, 100..128, 0..0), new.iter().map(|n| n * 16));
    let module = with(&(200..208).collect::<Vec<_>>());
    let signals = signals_of(200, BASE ^ 1, &module, &none);
    assert_eq!(
        notes_on(&d, &signals, 100),
        [(100, None, Compared::BringsNewUnlike)]
    );
    assert_eq!(d.judge_page(&signals), Kept { cluster: 200 });
    // As alike, but what it brings other kept pages have: it joins, as before.
    let known = with(&[1000, 1001, 1002, 1010, 1011, 1012, 1020, 1021]);
    assert_eq!(
        d.judge(201, "h", 201, fp(BASE ^ 2), 50, Some(&known)),
        NearDuplicate {
            of: 100,
            distance: 1
        }
    );
    // Three new paths on a page 0.93 alike (40 of 43): as alike as a far match, it joins.
    let close = adding(page_of(10, 100..130, 0..0), [300 * 16, 301 * 16, 302 * 16]);
    assert_eq!(
        d.judge(202, "h", 202, fp(BASE ^ 4), 50, Some(&close)),
        NearDuplicate {
            of: 100,
            distance: 1
        }
    );
}

#[test]
fn a_page_whose_own_part_is_a_third_new_is_another_kind_however_alike() {
    use Verdict::*;
    // A frame 0..40 that ten page kinds teach (3 paths of their own each), and an article
    // view: the frame and 30 paths of its own 100..130, not mostly frame. (Path `n` is
    // summary id `16n`.)
    let mut d = framed(40);
    let article = page_of(40, 100..130, 0..0);
    assert_eq!(
        d.judge(100, "h", 100, fp(BASE), 50, Some(&article)),
        Kept { cluster: 100 }
    );
    let none = PageContent::default();
    // The article with a table no kept page has above it (a wiki's diff view): `new` paths.
    let diff = |new: u32| {
        adding(
            page_of(40, 100..130, 0..0),
            (200..200 + new).map(|n| n * 16),
        )
    };
    // 15 new paths, a third of its own 45: another kind, although 70 of 85 paths are
    // shared (0.82, as alike as a far match).
    let (fifteen, fourteen) = (diff(15), diff(14));
    let signals = signals_of(200, BASE ^ 1, &fifteen, &none);
    assert_eq!(
        notes_on(&d, &signals, 100),
        [(100, None, Compared::BringsNewPart)]
    );
    // 14 of 44: less than a third; 70 of 84 shared (0.83) is as alike as a far match.
    let signals = signals_of(201, BASE ^ 2, &fourteen, &none);
    let notes = notes_on(&d, &signals, 100);
    assert_eq!(notes[0].2, Compared::Whole, "{notes:?}");
    assert_eq!(
        d.judge_page(&signals),
        NearDuplicate {
            of: 100,
            distance: 1
        }
    );
    // The same 15 paths as blocks of its article (an author's table between paragraphs):
    // the text's, no kind of their own; 0.82 is as alike as a far match.
    let blocks = adding(fifteen.clone(), (200..215).map(|n| n * 16 + 8));
    let signals = signals_of(203, BASE ^ 8, &blocks, &none);
    let notes = notes_on(&d, &signals, 100);
    assert_eq!(notes[0].2, Compared::Whole, "{notes:?}");
    // The first is kept: a kind of its own.
    let signals = signals_of(202, BASE ^ 4, &fifteen, &none);
    assert_eq!(d.judge_page(&signals), Kept { cluster: 202 });
}

/// A page of a frame 0..60 (path `n` is summary id `16n`) and the summary ids `own`.
fn framed_page(own: &[u32]) -> Vec<u32> {
    let mut paths: Vec<u32> = (0..60).map(|n| n * 16).chain(own.iter().copied()).collect();
    paths.sort_unstable();
    paths
}

/// A confirming dedup whose host's frame ten page kinds of [`framed_page`] taught (3 paths
/// of their own each).
fn taught_by_ten_kinds() -> Dedup {
    let mut d = confirming();
    keep_far_apart(&mut d, 10, |k| {
        framed_page(
            &(1000 + 10 * k..1003 + 10 * k)
                .map(|n| n * 16)
                .collect::<Vec<u32>>(),
        )
    });
    d
}

#[test]
fn a_form_of_its_own_never_joins_a_page_that_is_its_frame_alone() {
    use Verdict::*;
    // `| 1` marks prose, `| 2` a visible field.
    let page = framed_page;
    let mut d = taught_by_ten_kinds();
    // An empty basket: the frame and a line of text, mostly frame.
    let basket = page(&[(500 * 16) | 1]);
    assert_eq!(
        d.judge(100, "h", 100, fp(BASE), 50, Some(&basket)),
        Kept { cluster: 100 }
    );
    // A password-reset form: the frame, a form of lines of help around an email field and a
    // button (prose around its fields). 60 of 66 paths shared (0.91), 2 bits apart, and the
    // basket's own part is too small for anything else to tell them apart.
    let reset = page(&[
        (600 * 16) | 1,
        (601 * 16) | 1,
        (602 * 16) | 1,
        (603 * 16) | 3,
        (604 * 16) | 3,
    ]);
    let none = PageContent::default();
    let signals = signals_of(101, BASE ^ 0b11, &reset, &none);
    assert_eq!(
        notes_on(&d, &signals, 100),
        [(100, None, Compared::FormAgainstNone)]
    );
    assert_eq!(d.judge_page(&signals), Kept { cluster: 101 });
    // A second empty basket still joins the first.
    let v = d.judge(102, "h", 102, fp(BASE ^ 0b1), 50, Some(&basket));
    assert!(matches!(v, NearDuplicate { of: 100, .. }), "{v:?}");
}

#[test]
fn an_applications_pages_each_with_prose_of_its_own_are_two_kinds() {
    use Verdict::*;
    // `| 1` marks prose, `| 2` a visible field, `| 4` a table's column.
    let page = framed_page;
    let prose = |ids: std::ops::Range<u32>, mark: u32| ids.map(move |n| (n * 16) | 1 | mark);
    let run = |columns: u32| {
        let mut d = taught_by_ten_kinds();
        // A status page: a line of text above two tables, all prose (the line makes the
        // content a flow), the tables' columns marked or not.
        let status: Vec<u32> = prose(500..506, 0).chain(prose(510..512, columns)).collect();
        assert_eq!(
            d.judge(100, "h", 100, fp(BASE), 50, Some(&page(&status))),
            Kept { cluster: 100 }
        );
        // A search form: a sentence above its fields, all prose. 60 of 76 paths shared
        // (0.79), 2 bits apart.
        let search: Vec<u32> = prose(600..606, 0).chain(prose(610..612, 2)).collect();
        let (none, search) = (PageContent::default(), page(&search));
        let signals = signals_of(101, BASE ^ 0b11, &search, &none);
        (notes_on(&d, &signals, 100), d.judge_page(&signals))
    };
    // Each holds a form or a table of its own: their prose blocks are theirs, two kinds.
    let (notes, verdict) = run(4);
    assert_eq!(notes, [(100, None, Compared::EachOwn)]);
    assert_eq!(verdict, Kept { cluster: 101 });
    // Without the status page's columns, prose is no block of its own: they join.
    let (_, verdict) = run(0);
    assert!(
        matches!(verdict, NearDuplicate { of: 100, .. }),
        "{verdict:?}"
    );
}

#[test]
fn a_page_and_the_same_page_with_a_form_more_are_two_kinds() {
    use Verdict::*;
    // `| 1` marks prose, `| 2` a visible field.
    let page = framed_page;
    let mut d = taught_by_ten_kinds();
    // A sidebar the frame lacks (on three in four of the host's pages: 30 paths, so neither
    // page is mostly frame), below it one line of text: an object's empty history.
    let sidebar: Vec<u32> = (700..730).map(|n| n * 16).collect();
    let with = |extra: &[u32]| page(&[sidebar.as_slice(), extra].concat());
    let history = with(&[(500 * 16) | 1]);
    assert_eq!(
        d.judge(100, "h", 100, fp(BASE), 50, Some(&history)),
        Kept { cluster: 100 }
    );
    // The password form: the sidebar and a form of three fields; 90 of 96 paths shared.
    let form = with(&[
        600 * 16,
        601 * 16,
        (602 * 16) | 2,
        (603 * 16) | 2,
        (604 * 16) | 2,
    ]);
    let none = PageContent::default();
    let signals = signals_of(101, BASE ^ 0b11, &form, &none);
    assert_eq!(
        notes_on(&d, &signals, 100),
        [(100, None, Compared::FormBesideNone)]
    );
    assert_eq!(d.judge_page(&signals), Kept { cluster: 101 });
    // Another object's empty history joins the first; so does a form of one field more.
    let v = d.judge(102, "h", 102, fp(BASE ^ 0b1), 50, Some(&history));
    assert!(matches!(v, NearDuplicate { of: 100, .. }), "{v:?}");
    let more = with(&[
        600 * 16,
        601 * 16,
        (602 * 16) | 2,
        (603 * 16) | 2,
        (604 * 16) | 2,
        (605 * 16) | 2,
    ]);
    let v = d.judge(103, "h", 103, fp(BASE ^ 0b11), 50, Some(&more));
    assert!(matches!(v, NearDuplicate { of: 101, .. }), "{v:?}");
}

#[test]
fn a_path_prose_on_one_page_only_is_one_path() {
    use Verdict::*;
    // A frame 0..20 that five page kinds teach; two pages mostly frame, each with the same 8
    // paths of its own (a man page's `dl`, `b`, `table`...), two of them prose on the second
    // only: its text holds its one definition list, the first's index is one too. (Path `n`
    // is summary id `16n`, `16n + 1` where prose.)
    let page = |prose: &[u32]| -> Vec<u32> {
        (0..20)
            .chain(500..508)
            .map(|n| n * 16 + u32::from(prose.contains(&n)))
            .collect()
    };
    let mut d = confirming();
    keep_far_apart(&mut d, 5, |k| {
        (0..20)
            .chain((0..3).map(|i| 1000 + 10 * k + i))
            .map(|n| n * 16)
            .collect()
    });
    assert_eq!(
        d.judge(100, "h", 100, fp(BASE), 50, Some(&page(&[]))),
        Kept { cluster: 100 }
    );
    // Read as two ids each, the two paths left 6 of 10 shared (0.6): another kind. One path
    // each, the pages are alike.
    assert_eq!(
        d.judge(101, "h", 101, fp(BASE), 50, Some(&page(&[500, 501]))),
        NearDuplicate {
            of: 100,
            distance: 0
        }
    );
}
