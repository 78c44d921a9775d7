//! Properties of the structure fingerprint over generated HTML (proptest): determinism,
//! distance laws, independence from what precedes the markup (a comment of any length, which
//! moved the 4 KiB feed chunks of the earlier streaming parse), and agreement with two
//! independent trees (an rcdom walk over html5ever's own tokenizer and tree builder, and
//! scraper's element count).

#[path = "../benches/common/mod.rs"]
mod common;

use proptest::prelude::*;
use silhouette_dom::{FeatureSet, HasherConfig, Limits, Structure, StructureHasher};

/// Default configuration without the clock: results depend on the input only.
fn hasher() -> StructureHasher {
    StructureHasher::new(HasherConfig {
        limits: Limits {
            time_budget: None,
            ..Limits::default()
        },
        ..HasherConfig::for_model(FeatureSet::Classic)
    })
    .expect("valid config")
}

fn hash(bytes: &[u8]) -> Structure {
    hasher().hash(bytes).expect("no input is rejected")
}

/// Tags that nest, close, get implied, moved (tables, formatting elements), or switch the
/// tokenizer (title, textarea, script, style, noscript) or the namespace (svg, math).
#[rustfmt::skip]
const TAGS: &[&str] = &[
    "div", "p", "span", "b", "i", "em", "a", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr",
    "td", "th", "tbody", "caption", "h1", "h2", "section", "article", "nav", "form", "select",
    "option", "button", "pre", "code", "font", "nobr", "title", "textarea", "script", "style",
    "noscript", "template", "svg", "clipPath", "foreignObject", "math", "mi", "head", "body",
    "html", "frameset", "DIV", "Span",
    // Non-ASCII names (custom elements): a character split wrongly at a chunk boundary
    // would change the tag name, and so the fingerprint.
    "x-\u{e9}l\u{e9}ment", "x-\u{65e5}\u{672c}", "d\u{1f600}v",
];

/// Text with ASCII, 2-, 3- and 4-byte UTF-8, entities and markup-significant characters.
#[rustfmt::skip]
const TEXT: &[&str] = &[
    "a", "word ", " ", "\n", "\u{e9}", "\u{65e5}\u{672c}", "\u{1f600}", "&amp;", "&#x41;",
    "&eacute", "<", ">", "&", "\"", "'", "=", "\0", "\r\n", "\u{fffd}",
];

fn tag() -> impl Strategy<Value = &'static str> {
    prop::sample::select(TAGS)
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TEXT), 0..max).prop_map(|v| v.concat())
}

/// One piece of markup.
fn fragment() -> impl Strategy<Value = String> {
    let attr = (
        prop::sample::select(&["id", "class", "href", "a", "x"][..]),
        text(4),
    )
        .prop_map(|(name, value)| format!(" {name}=\"{}\"", value.replace('"', "")));
    prop_oneof![
        5 => (tag(), prop::collection::vec(attr, 0..3))
            .prop_map(|(t, attrs)| format!("<{t}{}>", attrs.concat())),
        4 => tag().prop_map(|t| format!("</{t}>")),
        5 => text(20),
        // Long runs of text: put the tags after them anywhere against the chunk boundaries.
        1 => text(1500),
        1 => prop::sample::select(&["<br>", "<img src=x>", "<hr/>", "<input>", "<col>"][..])
            .prop_map(str::to_owned),
        1 => text(10).prop_map(|t| format!("<!--{}-->", t.replace('-', ""))),
        1 => Just("<!DOCTYPE html>".to_owned()),
    ]
}

/// A generated page of 0 to ~20 KB.
fn page() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..120).prop_map(|v| v.concat())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 96,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// The same bytes give the same structure, from the same or another hasher.
    #[test]
    fn deterministic(page in page()) {
        let a = hash(page.as_bytes());
        let b = hasher().hash(page.as_bytes()).expect("parses");
        prop_assert_eq!(a.fingerprint, b.fingerprint);
        prop_assert_eq!(a.elements, b.elements);
        prop_assert_eq!(a.truncated, b.truncated);
        prop_assert_eq!(a.profile, b.profile);
    }

    /// Hamming distance: 0 on itself, symmetric, at most 64, and `is_near` agrees with it.
    #[test]
    fn distance_laws(a in page(), b in page(), k in 0u32..=64) {
        let (fa, fb) = (hash(a.as_bytes()).fingerprint, hash(b.as_bytes()).fingerprint);
        prop_assert_eq!(fa.distance(fa), 0);
        prop_assert_eq!(fa.distance(fb), fb.distance(fa));
        prop_assert!(fa.distance(fb) <= 64);
        prop_assert_eq!(fa.is_near(fb, k), fa.distance(fb) <= k);
        prop_assert_eq!(fa.distance(fb) == 0, fa == fb);
    }

    /// Where the 4 KiB chunks fall does not matter: a comment of any length in front of the
    /// page (ignored by the fingerprint) moves every chunk boundary across the page's tags and
    /// multi-byte characters, and the structure stays the same. It also equals the rcdom walk
    /// over the whole page fed at once, which has no chunks at all.
    #[test]
    fn chunk_boundaries_do_not_matter(page in page(), pad in 0usize..=4100) {
        let plain = hash(page.as_bytes());
        prop_assert_eq!(plain.truncated, None);
        let (fingerprint, elements) = common::rcdom_fingerprint_whole(&page, plain_decay());
        prop_assert_eq!((plain.fingerprint, plain.elements), (fingerprint, elements));

        let padded = format!("<!--{}-->{page}", "\u{e9}".repeat(pad / 2) + &"x".repeat(pad % 2));
        let shifted = hash(padded.as_bytes());
        prop_assert_eq!(
            (shifted.fingerprint, shifted.elements, shifted.truncated),
            (plain.fingerprint, plain.elements, None)
        );
    }

    /// Element counts agree with scraper's tree (another TreeSink over the same html5ever),
    /// template contents included.
    #[test]
    fn element_count_matches_scraper(page in page()) {
        let ours = hash(page.as_bytes());
        let html = scraper::Html::parse_document(&page);
        let theirs = html
            .tree
            .root()
            .descendants()
            .filter(|n| n.value().is_element())
            .count() as u64;
        prop_assert_eq!(ours.elements, theirs);
    }
}

fn plain_decay() -> f64 {
    hasher().decay()
}

/// Every chunk-boundary offset of one page whose markup (tag names included) is dense in
/// multi-byte characters, exhaustively rather than sampled.
#[test]
fn every_offset_around_the_first_boundary() {
    let page =
        "<div class=\u{e9}><p>\u{65e5}\u{1f600}<b>\u{e9}</b></p><table><tr><td>\u{65e5}</table>\
                <x-\u{e9}\u{65e5}\u{1f600}></x-\u{e9}\u{65e5}\u{1f600}><x-\u{1f600}\u{e9}></div>"
            .repeat(3);
    let plain = hash(page.as_bytes());
    // The first 4 KiB boundary falls at every byte of the page (~600 bytes) in turn.
    for pad in 3400..4100 {
        let padded = format!("<!--{}-->{page}", "x".repeat(pad));
        let s = hash(padded.as_bytes());
        assert_eq!(
            (s.fingerprint, s.elements),
            (plain.fingerprint, plain.elements),
            "pad {pad}"
        );
    }
}
