//! Hostile inputs (ALGORITHM.md §4), all generated here: each one ends with a fingerprint,
//! truncated by the guard that applies, or a clear error; never a panic, a hang or a stack
//! overflow. Where the outcome depends on the input only, the guard that stops it is
//! asserted, with `time_budget: None` so the machine's speed cannot change it.

use silhouette_dom::{
    FeatureSet, HasherConfig, Limits, Structure, StructureHasher, TimeBudget, Truncation,
};

/// Default limits without the time budget: results depend on the input only.
fn no_clock() -> Limits {
    Limits {
        time_budget: None,
        ..Limits::default()
    }
}

fn hash_with(limits: Limits, bytes: &[u8]) -> Structure {
    let hasher = StructureHasher::new(HasherConfig {
        limits,
        ..HasherConfig::for_model(FeatureSet::Classic)
    })
    .expect("valid config");
    hasher.hash(bytes).expect("no input is rejected")
}

/// What a case must end with: the truncation kind (`None`: parsed to the end) and, for a
/// complete parse, the element count when the case knows it.
#[derive(Debug)]
struct Expect {
    truncated: Option<&'static str>,
    elements: Option<u64>,
}

const fn truncated(kind: &'static str) -> Expect {
    Expect {
        truncated: Some(kind),
        elements: None,
    }
}

const fn complete(elements: u64) -> Expect {
    Expect {
        truncated: None,
        elements: Some(elements),
    }
}

fn check(name: &str, limits: Limits, input: &[u8], expected: &Expect) -> Structure {
    let s = hash_with(limits, input);
    // The default model parses the same tree (it also keeps `class`), so the same guard stops
    // it at the same place, and its path set stays bounded.
    let paths = StructureHasher::new(HasherConfig {
        limits,
        ..HasherConfig::default()
    })
    .expect("valid config")
    .hash(input)
    .expect("no input is rejected");
    assert_eq!(
        (paths.truncated.map(|t| t.kind()), paths.elements),
        (s.truncated.map(|t| t.kind()), s.elements),
        "{name}: class-paths"
    );
    assert!(paths.profile.paths().expect("class-paths").len() <= silhouette_dom::MAX_PATHS);
    assert_eq!(
        s.truncated.map(|t| t.kind()),
        expected.truncated,
        "{name}: truncated = {:?}",
        s.truncated
    );
    if let Some(elements) = expected.elements {
        assert_eq!(s.elements, elements, "{name}: element count");
    }
    // Whatever stopped it, the guard bounded the tree it had to walk.
    assert!(
        s.elements <= limits.max_nodes as u64 + 1_000_000,
        "{name}: {} elements",
        s.elements
    );
    s
}

fn repeat(s: &str, n: usize) -> Vec<u8> {
    s.repeat(n).into_bytes()
}

/// Deep nesting: html5ever's work grows with the depth squared, so the depth guard must stop
/// it after the first chunk past depth 512 (ALGORITHM.md §4: 300k nested tags hang).
#[test]
fn deep_nesting_ends_on_the_depth_guard() {
    let depth = |s: &Structure| match s.truncated {
        Some(Truncation::Depth { limit }) => limit,
        other => panic!("expected a depth truncation, got {other:?}"),
    };
    let cases: [(&str, Vec<u8>); 9] = [
        ("div x 300k", repeat("<div>", 300_000)),
        // Two siblings at every level whose token names the page their links lead to
        // (`items.rs`): each level's links are looked for once, not once per level below.
        (
            "named siblings nested x 150k",
            repeat(
                "<div class=\"a-bcdefgh\"><a href=bcdefgh.html>x</a></div><div class=\"a-bcdefgh\">",
                150_000,
            ),
        ),
        ("b x 300k", repeat("<b>", 300_000)),
        ("nested tables x 100k", repeat("<table><tr><td>", 100_000)),
        ("span with text x 300k", repeat("<span>t", 300_000)),
        (
            "svg g x 300k",
            [b"<svg>".as_slice(), &repeat("<g>", 300_000)].concat(),
        ),
        (
            "math mrow x 300k",
            [b"<math>".as_slice(), &repeat("<mrow>", 300_000)].concat(),
        ),
        ("ul li x 300k", repeat("<ul><li>", 150_000)),
        ("template x 300k", repeat("<template>", 300_000)),
    ];
    for (name, input) in &cases {
        let s = check(name, no_clock(), input, &truncated("depth"));
        assert_eq!(depth(&s), 512, "{name}");
        // One 4 KiB chunk holds at most 4096 elements: the guard stopped it within a
        // chunk or two of crossing depth 512, not after parsing the whole input.
        assert!(s.elements < 10_000, "{name}: {} elements", s.elements);
    }
    // A lower limit stops earlier.
    let shallow = Limits {
        max_depth: 20,
        ..no_clock()
    };
    let s = check(
        "div x 300k, depth 20",
        shallow,
        &cases[0].1,
        &truncated("depth"),
    );
    assert_eq!(depth(&s), 20);
}

/// Wide, not deep: 300k sibling tables, anchors (each `<a>` closes the previous one through
/// the adoption agency) and paragraphs parse to the end, one element each.
#[test]
fn many_siblings_parse_to_the_end() {
    let cases: [(&str, Vec<u8>, u64); 8] = [
        // Tables with a header row, each header cell a column at the tables' place
        // (`walk.rs`): each row looked up once per cell.
        (
            "headed tables x 60k",
            repeat("<table><thead><tr><th>name<th>age</thead></table>", 60_000),
            300_000,
        ),
        (
            "header cells x 300k",
            [
                b"<table><thead><tr>".as_slice(),
                &repeat("<th>column", 300_000),
            ]
            .concat(),
            300_003,
        ),
        // Siblings whose token names the page their link leads to (`items.rs`): each link
        // is read once.
        (
            "named siblings x 100k",
            repeat(
                "<div class=\"a-bcdefgh\"><a href=bcdefgh.html>x</a></div>",
                100_000,
            ),
            200_000,
        ),
        // A <table> inside a table closes it: siblings, each with no implied tbody.
        ("table x 300k", repeat("<table>", 300_000), 300_000),
        ("a x 300k", repeat("<a>x", 300_000), 300_000),
        ("p x 300k", repeat("<p>x", 300_000), 300_000),
        ("br x 300k", repeat("<br>", 300_000), 300_000),
        // Refreshes that name no URL: each is read (its attributes kept), none is one.
        (
            "meta refresh x 300k",
            repeat("<meta http-equiv=refresh content='5 ;'>", 300_000),
            300_000,
        ),
    ];
    for (name, input, n) in &cases {
        // html, head, body and the siblings.
        check(name, no_clock(), input, &complete(3 + n));
    }
}

/// 200k attributes on one tag. html5ever's own tokenizer checks each new attribute name
/// against all the previous ones (quadratic: ~13 s in release, inside one tag, where neither
/// the depth nor the node guard can see it). The parse keeps only the attributes the tree can
/// depend on, and checks repeats of many through a set: the page parses to the end, with no
/// clock to stop it. `<b>` is a formatting element, which keeps all its attributes.
#[test]
fn many_attributes_parse_to_the_end() {
    for tag in ["div", "b"] {
        let mut input = format!("<{tag}").into_bytes();
        for i in 0..200_000 {
            input.extend_from_slice(format!(" a{i}=v{i}").as_bytes());
        }
        input.extend_from_slice(format!(">x</{tag}>").as_bytes());
        // html, head, body, the tag.
        check(
            &format!("200k attributes on <{tag}>"),
            no_clock(),
            &input,
            &complete(4),
        );
    }

    // Duplicates and a few thousand attributes are fine and complete.
    let mut few = b"<div".to_vec();
    for i in 0..2_000 {
        few.extend_from_slice(format!(" a{} b=\"{i}\" a{}", i % 50, i % 7).as_bytes());
    }
    few.extend_from_slice(b">x</div>");
    check("2k attributes", no_clock(), &few, &complete(4));
}

/// The CPU-time budget: with a budget of zero, any parse longer than a few dozen tokens stops
/// at the first reading of the clock, with what it parsed so far.
#[test]
fn zero_time_budget_stops_the_parse() {
    let page = repeat(BLOCK, 100);
    let zero = Limits {
        time_budget: Some(TimeBudget {
            base: std::time::Duration::ZERO,
            per_byte: std::time::Duration::ZERO,
        }),
        ..Limits::default()
    };
    let cut = check("zero budget", zero, &page, &truncated("time"));
    let whole = check("no clock", no_clock(), &page, &complete(3 + 100 * 17));
    assert!(
        cut.elements < whole.elements / 10,
        "{} elements",
        cut.elements
    );
}

/// Formatting-element amplification: 400 distinct `<b id=N>` (distinct, so the "Noah's ark"
/// rule keeps them all; 400 < 512 deep, so the depth guard does not fire) opened in a `<p>`
/// and closed with it: they leave the stack of open elements but stay in the list of active
/// formatting elements. Then `<p>x` repeated: each `x` reconstructs (clones) the 400, each
/// `<p>` closes them again: ~400 elements per 4 input bytes, 40M for this 400 KB page. The
/// node guard must stop it near its limit.
#[test]
fn formatting_amplification_ends_on_the_node_guard() {
    let mut input = b"<p>".to_vec();
    for i in 0..400 {
        input.extend_from_slice(format!("<b id={i}>").as_bytes());
    }
    input.extend_from_slice(b"</p>");
    input.extend_from_slice(&repeat("<p>x", 100_000));
    assert!(input.len() < 420_000);

    let s = check(
        "b x 400 then p x 100k",
        no_clock(),
        &input,
        &truncated("nodes"),
    );
    assert_eq!(
        s.truncated,
        Some(Truncation::Nodes { limit: 2_000_000 }),
        "default node limit"
    );
    // It did amplify: far more elements than input bytes / 4, cut near the limit (the
    // guard looks after every token; one `<p>x` adds at most ~400 clones).
    assert!(s.elements > 1_000_000, "{} elements", s.elements);

    // A smaller limit stops it sooner; the prefix alone (no amplification) is complete.
    let tight = Limits {
        max_nodes: 100_000,
        ..no_clock()
    };
    let s = check("same, 100k nodes", tight, &input, &truncated("nodes"));
    assert!(s.elements < 600_000, "{} elements", s.elements);
    check(
        "the 400 <b> alone",
        no_clock(),
        &input[..input.len() - 400_000],
        &complete(404),
    );
}

/// One block of ordinary page content: header, nav list, article with a table, footer.
const BLOCK: &str = "<div class=post><h2>Title \u{e9}t\u{e9} \u{65e5}\u{672c}</h2>\
    <ul class=nav><li><a href=/a>one</a></li><li><a href=/b>two</a></li></ul>\
    <p>Some <em>text</em> with <code>code</code> &amp; an entity.</p>\
    <table><tr><th>k</th><td>v</td></tr></table>\
    <img src=x.png alt=\"\"><br><!-- comment --></div>\n";

/// 20 MB of ordinary content parses to the end with the default limits (bar the clock), and
/// an input cap cuts it at the cap.
#[test]
fn twenty_megabyte_page() {
    let per_block = hash_with(no_clock(), BLOCK.as_bytes()).elements - 3;
    let n = 20_000_000_usize.div_ceil(BLOCK.len());
    let mut page =
        b"<!DOCTYPE html><html><head><meta charset=utf-8><title>big</title></head><body>".to_vec();
    page.extend_from_slice(&repeat(BLOCK, n));
    page.extend_from_slice(b"</body></html>");
    assert!(page.len() >= 20_000_000);
    // html, head, meta, title, body and the blocks.
    let big = check(
        "20 MB",
        no_clock(),
        &page,
        &complete(5 + per_block * n as u64),
    );
    assert!(big.elements < 2_000_000);

    let capped = Limits {
        max_input_bytes: 1 << 20,
        ..no_clock()
    };
    let s = check("20 MB, 1 MiB cap", capped, &page, &truncated("input"));
    assert_eq!(
        s.truncated,
        Some(Truncation::Input {
            limit: 1 << 20,
            len: page.len()
        })
    );
    assert!(s.elements < big.elements / 10);
}

/// A small deterministic generator (xorshift64*), so the tests need no stored data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next().to_le_bytes()[3]).collect()
    }

    /// Bytes drawn from `alphabet`.
    fn from(&mut self, alphabet: &[u8], len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize])
            .collect()
    }
}

/// Random bytes, and random bytes from an alphabet dense in markup, for a few seeds: every
/// one parses (deterministically) to a fingerprint.
#[test]
fn random_bytes() {
    for seed in [1u64, 2, 0xdead_beef] {
        let mut rng = Rng(seed);
        let binary = rng.bytes(1 << 20);
        let soup = rng.from(b"<<<>>//abdipt =\"'&;#x\n\0\xff\xc3\xa9-!?", 1 << 20);
        for (name, input) in [("binary", &binary), ("tag soup", &soup)] {
            let a = hash_with(no_clock(), input);
            let b = hash_with(no_clock(), input);
            assert_eq!(
                (a.fingerprint, a.elements, a.truncated),
                (b.fingerprint, b.elements, b.truncated),
                "{name} seed {seed}: not deterministic"
            );
            assert!(a.elements >= 3, "{name} seed {seed}");
        }
    }
}

/// A page with non-ASCII text in every plane the BMP and beyond, for the encodings below.
const PAGE: &str = "<!DOCTYPE html><html lang=ja><head><title>\u{65e5}\u{672c}\u{8a9e}</title></head>\
    <body><h1>Gr\u{fc}\u{df}e \u{1f600}</h1><p>caf\u{e9} <b>na\u{ef}ve</b></p>\
    <table><tr><td>\u{3b1}\u{3b2}\u{3b3}</td></tr></table><svg><clipPath/></svg></body></html>";

fn utf16(s: &str, bom: [u8; 2], big_endian: bool) -> Vec<u8> {
    let mut out = bom.to_vec();
    for unit in s.encode_utf16() {
        out.extend_from_slice(&if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    out
}

/// UTF-16 with a byte-order mark reads as the same page as its UTF-8 form, also when long
/// enough that code units and surrogate pairs straddle the 4 KiB chunks.
#[test]
fn utf16_with_bom_matches_utf8() {
    let long = PAGE.replace("<p>", &"<p>\u{1f600}\u{e9}x ".repeat(2_000));
    for page in [PAGE, long.as_str()] {
        let utf8 = hash_with(no_clock(), page.as_bytes());
        assert_eq!(utf8.truncated, None);
        for (name, bytes) in [
            ("UTF-16LE", utf16(page, [0xff, 0xfe], false)),
            ("UTF-16BE", utf16(page, [0xfe, 0xff], true)),
        ] {
            let s = hash_with(no_clock(), &bytes);
            assert_eq!(s.encoding.name(), name);
            assert_eq!(
                (s.fingerprint, s.elements, s.truncated),
                (utf8.fingerprint, utf8.elements, None),
                "{name} of a {}-byte page",
                page.len()
            );
        }
    }
    // An odd byte count (half a code unit at the end) is replaced, not a failure.
    let mut odd = utf16(PAGE, [0xff, 0xfe], false);
    odd.push(b'<');
    let s = hash_with(no_clock(), &odd);
    assert_eq!(s.elements, hash_with(no_clock(), PAGE.as_bytes()).elements);
}

/// Invalid UTF-8 (stray continuation bytes, overlong forms, encoded surrogates, truncated
/// sequences, 0xFF), in text, in tags, at the end and across the 4 KiB chunk boundary, reads
/// as the same page with each maximal invalid subpart replaced by U+FFFD.
#[test]
fn invalid_utf8_is_replaced() {
    let bad: [&[u8]; 8] = [
        b"\x80",
        b"\xbf\xbf",
        b"\xc0\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xe2\x82",
        b"\xff\xfe\xfd",
        b"\xf0\x9f\x98",
    ];
    for b in bad {
        let mut cases: Vec<Vec<u8>> = vec![
            [b"<p>a".as_slice(), b, b"</p><div>x</div>"].concat(),
            [b"<di".as_slice(), b, b"v><p ", b, b"=1>x"].concat(),
            [b"<ul><li>".as_slice(), b].concat(),
        ];
        // Across the first chunk boundary, at every offset around it.
        for pad in 4090..4100 {
            let mut page = b"<div>".to_vec();
            page.resize(pad, b'a');
            page.extend_from_slice(b);
            page.extend_from_slice(b"<p>\xc3\xa9</p></div>");
            cases.push(page);
        }
        for input in &cases {
            let lossy = String::from_utf8_lossy(input);
            let expected = hash_with(no_clock(), lossy.as_bytes());
            let s = hash_with(no_clock(), input);
            assert_eq!(
                (s.fingerprint, s.elements, s.truncated),
                (expected.fingerprint, expected.elements, None),
                "{lossy:?}"
            );
        }
    }
}

/// The deterministic work budget: the same bytes stop at the same place, whatever the build.
#[test]
fn work_budget_stops_the_parse_deterministically() {
    let page = "<div><p>x</p></div>".repeat(10_000);
    let limits = Limits {
        work_budget: silhouette_dom::WorkBudget {
            base: 5_000,
            per_byte: 0,
        },
        ..no_clock()
    };
    let a = hash_with(limits, page.as_bytes());
    let b = hash_with(limits, page.as_bytes());
    assert_eq!(a.truncated.map(|t| t.kind()), Some("work"));
    assert_eq!((a.fingerprint, a.elements), (b.fingerprint, b.elements));
    assert!(a.elements > 100 && a.elements < 5_000, "{}", a.elements);
    // The default budget never stops this page.
    assert_eq!(hash_with(no_clock(), page.as_bytes()).truncated, None);
}
