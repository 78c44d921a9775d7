//! The drop-when policy matrix: one crawl's pages judged in every mode.

use super::*;
use crate::{Dedup, DedupConfig, DedupError, DedupScope, PageSignals, Verdict};

/// A page: host, body hash, structure bits, content bits (64), signature.
type Page = (&'static str, u128, u64, Option<u64>, Option<u128>);

/// Judges `pages` in order under `mode` (structure threshold 5, content threshold 3); the
/// verdicts must be `expected`.
fn check(mode: DropWhen, scope: DedupScope, pages: &[Page], expected: &[Verdict]) {
    let config = DedupConfig {
        drop_when: mode,
        scope,
        ..DedupConfig::default()
    };
    let mut d = Dedup::new(config, "t").expect("valid");
    let got: Vec<Verdict> = pages
        .iter()
        .enumerate()
        .map(|(i, &(host, body, s, c, signature))| {
            let content = PageContent {
                fingerprint: c.map(|bits| ContentBits::B64(Fingerprint::new(bits))),
                signature,
            };
            let fp = Some(Fingerprint::new(s));
            d.judge_page(&PageSignals {
                id: i as u64 + 1,
                host,
                body_hash: body,
                fingerprint: fp,
                elements: 50,
                summary: None,
                content: &content,
            })
        })
        .collect();
    assert_eq!(got, expected, "drop-when = {mode}");
}

const A: u64 = 0x8c3a_5f7e_9ecb_3f35; // template A
const B: u64 = !A; // template B, far from A
const X: u64 = 0x0123_4567_89ab_cdef; // article X
const Y: u64 = X ^ 0xffff_0000; // article Y, 16 bits from X

/// 1: A/X. 2: A/Y (same template, other text). 3: B/X (other template, same text: a print
/// view). 4: A/X 2 bits off (same template, same text: a mirror). 5: template B, text far
/// from everything but with 2's signature. 6: template B, no text.
const PAGES: [Page; 6] = [
    ("h", 1, A, Some(X), None),
    ("h", 2, A ^ 1, Some(Y), Some(7)),
    ("h", 3, B, Some(X ^ 1), None),
    ("h", 4, A ^ 2, Some(X ^ 0b11), None),
    ("h", 5, B ^ 0b1000, Some(!X), Some(7)),
    ("h", 6, B ^ 0b10, None, None),
];

#[test]
fn policy_matrix() {
    use Verdict::*;
    let near = |of, distance| NearDuplicate { of, distance };
    let content = |of, distance, cluster| ContentDuplicate {
        of,
        distance,
        cluster,
    };
    let host = DedupScope::Host;
    check(
        DropWhen::Structure,
        host,
        &PAGES,
        &[
            Kept { cluster: 1 },
            near(1, 1),
            Kept { cluster: 3 },
            near(1, 1),
            near(3, 1),
            near(3, 1),
        ],
    );
    // Content alone: 3 (print view) and 4 (mirror) go; 5 shares 2's signature; 6 has no text.
    check(
        DropWhen::Content,
        host,
        &PAGES,
        &[
            Kept { cluster: 1 },
            Kept { cluster: 1 },
            content(1, 1, None),
            content(1, 2, Some(1)),
            content(2, 48, None),
            Kept { cluster: 6 },
        ],
    );
    // Near in both to one kept page: only 4. 3 starts no cluster (it was dropped), so 5 and 6
    // start theirs.
    check(
        DropWhen::StructureAndContent,
        host,
        &PAGES,
        &[
            Kept { cluster: 1 },
            Kept { cluster: 1 },
            Kept { cluster: 3 },
            content(1, 2, Some(1)),
            Kept { cluster: 3 },
            Kept { cluster: 3 },
        ],
    );
    // Structure first, then content: 3 is a content duplicate; 5 and 6 join 3's cluster.
    check(
        DropWhen::StructureOrContent,
        host,
        &PAGES,
        &[
            Kept { cluster: 1 },
            near(1, 1),
            content(1, 1, None),
            near(1, 1),
            Kept { cluster: 5 },
            near(5, 2),
        ],
    );
}

#[test]
fn scope_signature_and_widths() {
    use Verdict::*;
    // Another host's page with the same text is not compared in host scope; it is globally.
    let pages: [Page; 2] = [("a", 1, A, Some(X), None), ("b", 2, B, Some(X), None)];
    check(
        DropWhen::Content,
        DedupScope::Host,
        &pages,
        &[Kept { cluster: 1 }, Kept { cluster: 2 }],
    );
    check(
        DropWhen::Content,
        DedupScope::Global,
        &pages,
        &[
            Kept { cluster: 1 },
            ContentDuplicate {
                of: 1,
                distance: 0,
                cluster: None,
            },
        ],
    );
    // 64- and 128-bit fingerprints are never near; 128-bit ones are indexed past the list.
    let config = DedupConfig {
        drop_when: DropWhen::Content,
        content_threshold: 10,
        ..DedupConfig::default()
    };
    let mut d = Dedup::new(config, "t").expect("valid");
    let wide = |bits: u128| PageContent {
        fingerprint: Some(ContentBits::B128(Fingerprint128::new(bits))),
        signature: None,
    };
    let mix = |i: u128| i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
    for i in 0..100u128 {
        let v = d.judge_page(&PageSignals {
            id: i as u64 + 1,
            host: "h",
            body_hash: i,
            fingerprint: None,
            elements: 0,
            summary: None,
            content: &wide(mix(i)),
        });
        assert_eq!(v, KeptUnjudged);
    }
    let v = d.judge_page(&PageSignals {
        id: 200,
        host: "h",
        body_hash: 200,
        fingerprint: None,
        elements: 0,
        summary: None,
        content: &wide(mix(42) ^ 0x3ff),
    });
    assert_eq!(
        v,
        ContentDuplicate {
            of: 43,
            distance: 10,
            cluster: None
        }
    );
    let narrow = PageContent {
        fingerprint: Some(ContentBits::B64(Fingerprint::new(mix(42) as u64))),
        signature: None,
    };
    assert_eq!(
        d.judge_page(&PageSignals {
            id: 201,
            host: "h",
            body_hash: 201,
            fingerprint: None,
            elements: 0,
            summary: None,
            content: &narrow
        }),
        KeptUnjudged
    );
    let bad = DedupConfig {
        content_threshold: 17,
        ..DedupConfig::default()
    };
    assert_eq!(
        Dedup::new(bad, "t").map(|_| ()),
        Err(DedupError::ContentThreshold { value: 17 })
    );
}

#[test]
fn names_and_bytes() {
    for (name, mode) in [
        ("structure", DropWhen::Structure),
        ("content", DropWhen::Content),
        ("structure-and-content", DropWhen::StructureAndContent),
        ("structure-or-content", DropWhen::StructureOrContent),
    ] {
        assert_eq!(name.parse::<DropWhen>(), Ok(mode));
        assert_eq!(mode.to_string(), name);
    }
    assert_eq!(
        "both".parse::<DropWhen>().map_err(|e| e.to_string()),
        Err(r#"drop-when = "both": must be one of "structure", "content", "structure-and-content", "structure-or-content""#.to_owned())
    );
    for bits in [
        ContentBits::B64(Fingerprint::new(0x0123_4567_89ab_cdef)),
        ContentBits::B128(Fingerprint128::new(u128::MAX - 5)),
    ] {
        assert_eq!(ContentBits::from_bytes(&bits.to_bytes()), Some(bits));
    }
    assert_eq!(ContentBits::from_bytes(&[1, 2, 3]), None);
    assert_eq!(
        ContentBits::B64(Fingerprint::new(255)).to_string(),
        "00000000000000ff"
    );
}

/// A generated page: host, body, structure bits, elements, content (bits, signature).
type Gen = (String, u128, u64, u64, Option<(u64, Option<u128>)>);

/// The rules of [`DropWhen`] written out by brute force over every kept page.
fn oracle(config: DedupConfig, pages: &[Gen]) -> Vec<Verdict> {
    use std::collections::HashMap;
    struct Kept {
        host: String,
        id: u64,
        content: Option<(u64, Option<u128>)>,
        cluster: Option<u64>,
    }
    let mut reps: Vec<(String, u64, u64)> = Vec::new();
    let mut kept: Vec<Kept> = Vec::new();
    let mut bodies: Vec<(u128, u64)> = Vec::new();
    let mut budget: HashMap<u64, u32> = HashMap::new();
    let in_scope = |a: &str, b: &str| config.scope == DedupScope::Global || a == b;
    let mut out = Vec::new();
    for (i, (host, body, bits, elements, content)) in pages.iter().enumerate() {
        let id = i as u64 + 1;
        if let Some(&(_, of)) = bodies.iter().find(|(b, _)| b == body) {
            out.push(Verdict::ExactDuplicate { of });
            continue;
        }
        let joins = (*elements >= config.min_elements).then(|| {
            reps.iter()
                .filter(|(h, _, _)| in_scope(h, host))
                .map(|&(_, f, rep)| ((f ^ bits).count_ones(), rep))
                .filter(|&(d, _)| d <= config.threshold)
                .min()
        });
        let used = matches!(joins, Some(Some((_, m))) if budget.get(&m).copied().unwrap_or(1) >= config.cluster_budget);
        let cluster = joins.flatten().map(|(_, m)| m);
        let near_content = |k: &&Kept| -> Option<(u32, u64)> {
            let ((mine, my_sig), (theirs, their_sig)) = ((*content)?, k.content?);
            let d = (mine ^ theirs).count_ones();
            let same = my_sig.is_some() && my_sig == their_sig;
            (in_scope(&k.host, host) && (d <= config.content_threshold || same))
                .then_some((d, k.id))
        };
        let content_match = match config.drop_when {
            DropWhen::Structure => None,
            DropWhen::Content | DropWhen::StructureOrContent => {
                kept.iter().filter_map(|k| near_content(&k)).min()
            }
            DropWhen::StructureAndContent => kept
                .iter()
                .filter(|k| cluster.is_some() && k.cluster == cluster)
                .filter_map(|k| near_content(&k))
                .min(),
        };
        let v = if config.drop_when.structure_drops() && used {
            let (distance, of) = joins.flatten().unwrap_or_default();
            Verdict::NearDuplicate { of, distance }
        } else if let Some((distance, of)) = content_match {
            Verdict::ContentDuplicate {
                of,
                distance,
                cluster,
            }
        } else {
            match joins {
                None => Verdict::KeptUnjudged,
                Some(None) => {
                    reps.push((host.clone(), *bits, id));
                    budget.insert(id, 1);
                    Verdict::Kept { cluster: id }
                }
                Some(Some((_, m))) => {
                    *budget.entry(m).or_insert(1) += 1;
                    Verdict::Kept { cluster: m }
                }
            }
        };
        if !v.is_duplicate() {
            bodies.push((*body, id));
            let cluster = match v {
                Verdict::Kept { cluster } => Some(cluster),
                _ => None,
            };
            kept.push(Kept {
                host: host.clone(),
                id,
                content: *content,
                cluster,
            });
        }
        out.push(v);
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    /// Skewed pages (few templates, few texts, bit flips, shared signatures, pages without
    /// text, few hosts) judged by `Dedup` and by brute force agree in every mode and scope.
    #[test]
    fn every_mode_agrees_with_brute_force(
        templates in proptest::collection::vec(proptest::prelude::any::<u64>(), 1..4),
        texts in proptest::collection::vec(proptest::prelude::any::<u64>(), 1..5),
        picks in proptest::collection::vec(
            (0usize..4, 0u32..64, 0usize..5, 0u32..64, 0u32..64, 0u8..4, 0u8..3, 0u8..30, 0u64..4),
            1..200,
        ),
        mode in 0usize..4,
        global in proptest::prelude::any::<bool>(),
        cluster_budget in 1u32..3,
    ) {
        let config = DedupConfig {
            drop_when: [
                DropWhen::Structure,
                DropWhen::Content,
                DropWhen::StructureAndContent,
                DropWhen::StructureOrContent,
            ][mode],
            scope: if global { DedupScope::Global } else { DedupScope::Host },
            cluster_budget,
            ..DedupConfig::default()
        };
        let pages: Vec<Gen> = picks
            .iter()
            .map(|&(t, s1, x, c1, c2, sig, host, body, elements)| {
                let bits = templates[t % templates.len()] ^ (1 << s1);
                let text = texts[x % texts.len()] ^ (1 << c1) ^ (1 << c2);
                let content = (sig != 3).then_some((text, (sig < 2).then_some(u128::from(sig))));
                (format!("h{host}"), u128::from(body), bits, elements * 5, content)
            })
            .collect();
        let mut d = Dedup::new(config, "t").expect("valid");
        let got: Vec<Verdict> = pages
            .iter()
            .enumerate()
            .map(|(i, (host, body, bits, elements, content))| {
                let content = PageContent {
                    fingerprint: content.map(|(c, _)| ContentBits::B64(Fingerprint::new(c))),
                    signature: content.and_then(|(_, s)| s),
                };
                d.judge_page(&PageSignals { id: i as u64 + 1, host, body_hash: *body, fingerprint: Some(Fingerprint::new(*bits)), elements: *elements, summary: None, content: &content })
            })
            .collect();
        proptest::prop_assert_eq!(got, oracle(config, &pages));
    }
}
