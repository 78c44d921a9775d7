use std::collections::BTreeSet;

use proptest::prelude::*;

use super::*;

/// A page of the toy crawl: a 6-bit fingerprint and a position on a line (two pages are
/// `1 - |a - b|` alike).
type Toy = (u64, f64);

/// Leader clustering, as a crawl decides: a page judged at `setting` is a near duplicate of
/// the first kept page within the threshold (and, with a similarity, at least that alike).
fn toy_judge(
    pages: &[Toy],
) -> impl FnMut(Setting, &dyn Fn(usize) -> bool) -> Result<Vec<Option<Outcome>>> + '_ {
    move |setting, among| {
        let mut leaders: Vec<usize> = Vec::new();
        Ok(pages
            .iter()
            .enumerate()
            .map(|(i, &(bits, at))| {
                if !among(i) {
                    return None;
                }
                let near = leaders.iter().copied().find(|&l| {
                    let (lbits, lat) = pages[l];
                    (bits ^ lbits).count_ones() <= setting.threshold
                        && setting
                            .min_similarity
                            .is_none_or(|s| 1.0 - (at - lat).abs() >= s)
                });
                Some(match near {
                    Some(l) => Outcome {
                        id: i as u64,
                        decision: Decision::NearDuplicate,
                        cluster: l as u64,
                        distance: Some((bits ^ pages[l].0).count_ones()),
                        similarity: None,
                    },
                    None => {
                        leaders.push(i);
                        Outcome {
                            id: i as u64,
                            decision: Decision::Kept,
                            cluster: i as u64,
                            distance: None,
                            similarity: None,
                        }
                    }
                })
            })
            .collect())
    }
}

fn kept(cell: &[Outcome]) -> BTreeSet<u64> {
    cell.iter().filter(|o| o.kept()).map(|o| o.id).collect()
}

/// The pages kept by a walk from `start` to `to`.
fn walked(pages: &[Toy], start: Setting, to: Setting) -> BTreeSet<u64> {
    let mut judge = toy_judge(pages);
    kept(&walk(start, to, &mut judge, &mut |_, _| {}).expect("walks"))
}

/// The pages kept when judged from scratch at `at`.
fn scratch(pages: &[Toy], at: Setting) -> BTreeSet<u64> {
    walked(pages, at, at)
}

fn at(threshold: u32, similarity: Option<f64>) -> Setting {
    Setting {
        threshold,
        min_similarity: similarity,
    }
}

/// Found by search: judged from scratch, threshold 3 keeps 4 pages and threshold 2 keeps 3.
const LOOSER_KEEPS_MORE: [u64; 8] = [0, 28, 1, 30, 63, 51, 45, 61];

#[test]
fn a_looser_threshold_from_scratch_can_keep_more_and_a_walk_never_does() {
    let pages: Vec<Toy> = LOOSER_KEEPS_MORE.iter().map(|&b| (b, 0.0)).collect();
    assert_eq!(scratch(&pages, at(2, None)).len(), 3);
    assert_eq!(scratch(&pages, at(3, None)).len(), 4);
    // From a crawl at 2, threshold 3 keeps a subset of the crawl's pages.
    let from_2 = walked(&pages, at(2, None), at(3, None));
    assert!(
        from_2.is_subset(&scratch(&pages, at(2, None))),
        "{from_2:?}"
    );
    // From a crawl at 3, threshold 2 keeps every page the crawl kept, and more.
    let from_3 = walked(&pages, at(3, None), at(2, None));
    assert!(
        from_3.is_superset(&scratch(&pages, at(3, None))),
        "{from_3:?}"
    );
}

#[test]
fn dropped_pages_point_at_a_page_kept_in_their_cell() {
    let pages: Vec<Toy> = LOOSER_KEEPS_MORE.iter().map(|&b| (b, 0.0)).collect();
    for (from, to) in [(0, 6), (2, 3), (6, 0), (3, 2)] {
        let mut judge = toy_judge(&pages);
        let cell = walk(at(from, None), at(to, None), &mut judge, &mut |_, _| {}).expect("walks");
        let kept = kept(&cell);
        for o in cell.iter().filter(|o| !o.kept()) {
            assert!(kept.contains(&o.cluster), "{from} -> {to}: {o:?}");
        }
    }
}

#[test]
fn similarities_snap_to_hundredths_or_the_crawls_own() {
    for (from, to, expected) in [
        (0.6, 0.6, 0.6),
        (0.6, 0.55, 0.55),
        (0.6, 0.554, 0.55),
        (0.555, 0.556, 0.555),
        (0.555, 0.5575, 0.555),
        (0.555, 0.559, 0.56),
        (0.6, -0.5, 0.0),
        (0.6, 7.0, 1.0),
    ] {
        assert_eq!(snap(from, to), expected, "{from} -> {to}");
    }
    assert_eq!(similarity_steps(0.6, 0.57), [0.6, 0.59, 0.58, 0.57]);
    assert_eq!(similarity_steps(0.555, 0.57), [0.555, 0.56, 0.57]);
    assert_eq!(similarity_steps(0.5, 0.5), [0.5]);
    assert_eq!(threshold_steps(3, 1), [3, 2, 1]);
    assert_eq!(threshold_steps(1, 1), [1]);
}

#[test]
fn every_cell_of_the_lattice_is_visited_once() {
    let pages: Vec<Toy> = LOOSER_KEEPS_MORE.iter().map(|&b| (b, 0.5)).collect();
    let mut seen = Vec::new();
    let mut judge = toy_judge(&pages);
    walk(
        at(2, Some(0.6)),
        at(4, Some(0.58)),
        &mut judge,
        &mut |s, _| seen.push((s.threshold, s.min_similarity)),
    )
    .expect("walks");
    let (a, b, c) = (Some(0.6), Some(0.59), Some(0.58));
    assert_eq!(
        seen,
        [
            (2, a),
            (2, b),
            (2, c),
            (3, a),
            (3, b),
            (3, c),
            (4, a),
            (4, b),
            (4, c)
        ]
    );
}

fn toy_pages() -> impl Strategy<Value = Vec<Toy>> {
    prop::collection::vec((0u64..64, 0.0f64..1.0), 1..24)
}

proptest! {
    /// The property: on a replay of the same crawl, a looser threshold or
    /// min-similarity never keeps more pages (it keeps a subset), and at the crawl's own
    /// settings the replay is the crawl.
    #[test]
    fn a_looser_setting_never_keeps_more_pages(
        pages in toy_pages(),
        start in (0u32..7, 0.3f64..1.0),
        a in (0u32..7, 0.3f64..1.0),
        b in (0u32..7, 0.3f64..1.0),
    ) {
        let start = at(start.0, Some(start.1));
        // `looser` is at least as loose as `stricter` in both settings.
        let stricter = at(a.0.min(b.0), Some(a.1.max(b.1)));
        let looser = at(a.0.max(b.0), Some(a.1.min(b.1)));
        let k_stricter = walked(&pages, start, stricter);
        let k_looser = walked(&pages, start, looser);
        prop_assert!(k_looser.is_subset(&k_stricter), "{k_looser:?} ⊄ {k_stricter:?}");
        prop_assert_eq!(walked(&pages, start, start), scratch(&pages, start));
        // A walk along the threshold alone, without similarities, too.
        let (t0, t1) = (a.0.min(b.0), a.0.max(b.0));
        let plain = at(start.threshold, None);
        prop_assert!(walked(&pages, plain, at(t1, None)).is_subset(&walked(&pages, plain, at(t0, None))));
    }
}
