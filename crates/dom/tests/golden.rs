//! Golden fingerprints: ALGORITHM.md §2 and the reference table of `../shared/eval-dev`,
//! whose values `ref_simhash.py --selftest` prints (html5ever edge cases included).

use silhouette_dom::{FeatureSet, HasherConfig, StructureHasher};

fn check(html: &str, decay: f64, expected_fp: &str, expected_elements: u64) {
    let hasher = StructureHasher::new(HasherConfig {
        decay,
        ..HasherConfig::for_model(FeatureSet::Classic)
    })
    .expect("valid config");
    let s = hasher.hash(html.as_bytes()).expect("parses");
    assert_eq!(
        (s.fingerprint.to_string().as_str(), s.elements),
        (expected_fp, expected_elements),
        "{html:?} at decay {decay}"
    );
    assert_eq!(s.truncated, None);
    // The profile recomputes the same fingerprint (no page here sits on a rounding tie).
    assert_eq!(
        s.profile.fingerprint(decay).to_string(),
        expected_fp,
        "profile of {html:?}"
    );
}

#[test]
fn reference_documents() {
    // The empty document is html, head, body: FNV-1("html") wins every bit.
    check("", 0.45, "f120317ed83fa3d6", 3);
    // Nine exact ties at decay 0.5: `>= 0` sets them (with `> 0` it would be f100217ed83fa3c6).
    check("", 0.5, "f133317ed87fe3d7", 3);
    check("<p>hi</p>", 0.45, "f123317ed83fa3c7", 4);
    check(
        "<!DOCTYPE html><title>x</title><div><div><span>a</span></div></div>",
        0.45,
        "f132317ed83fa3c6",
        7,
    );
}

#[test]
fn html5ever_edge_cases() {
    // Scripting on: <noscript> is raw text, so the <link> inside does not exist; implied
    // <tbody>; SVG clipPath counts as `clippath`.
    check(
        "<!DOCTYPE html><html><head><noscript><link rel=stylesheet href=a.css></noscript></head>\
         <body><table><tr><td>x</td></tr></table><svg><clipPath/></svg></body></html>",
        0.45,
        "f103217ed87fe3d7",
        10,
    );
    check(
        "<body><noscript><p>x</p></noscript><div></div>",
        0.45,
        "f100217ed83fa3c6",
        5,
    );
    check(
        "<svg><foreignObject><div></div></foreignObject><clipPath></clipPath><linearGradient/></svg>\
         <math><mi></mi></math>",
        0.45,
        "f110217ed87fa3d7",
        10,
    );
    // Template contents are walked as the template's children.
    check(
        "<template><tr><td>x</td></tr></template><p>a",
        0.45,
        "f122317ed83fa3c7",
        7,
    );
    check(
        "<table><template><tr><td>x</template></table>",
        0.45,
        "f122317ed83fa3c7",
        7,
    );
    check(
        "<template><col><col></template>",
        0.45,
        "f120317ed83fa3c7",
        6,
    );
    check(
        "<body><template><div><p>a<b>b</template><i>i</i>",
        0.45,
        "f122317ed83fa3c6",
        8,
    );
}

/// Structures html5ever's tree builder rewrites, each against the element count of the tree
/// browsers build (fingerprints cross-checked with `ref_simhash.py`).
#[test]
fn tree_builder_rewrites() {
    // <p> inside <p> closes the first: html head body p p.
    check("<p>a<p>b", 0.45, "f123317ed83fa3c7", 5);
    // Misnested formatting: <b><i></b></i> gives b>i, then a reconstructed i.
    check("<p><b>1<i>2</b>3</i>4</p>", 0.45, "f123317ed83fa3d7", 7);
    // Adoption agency: a formatting element across a block is split around it.
    check("<b><p>x</b>y</p>", 0.45, "f123317ed83fa3d7", 6);
    // Nested <a> closes the outer one, even across a <div>.
    check(
        "<a href=1><div><a href=2>x</a></div></a>",
        0.45,
        "f123317ed83fa3d6",
        7,
    );
    // <select> content model; a late <frameset> is ignored.
    check(
        "<select><option>a<option>b</select><frameset>",
        0.45,
        "f120317ed83fa3d6",
        6,
    );
    // Foster parenting: the <div> in a table moves before it.
    check(
        "<table><div>x</div><tr><td>y</table>",
        0.45,
        "f102317ed83fa3c7",
        8,
    );
}

#[test]
fn other_feature_model_differs_but_is_stable() {
    let hasher = StructureHasher::new(HasherConfig {
        features: FeatureSet::TagPairs,
        ..HasherConfig::for_model(FeatureSet::Classic)
    })
    .expect("valid");
    let a = hasher.hash(b"<div><p>x</p></div>").expect("parses");
    let b = hasher.hash(b"<div><p>y</p></div>").expect("parses");
    let classic = StructureHasher::classic()
        .hash(b"<div><p>x</p></div>")
        .expect("parses");
    assert_eq!(a.fingerprint, b.fingerprint);
    assert_ne!(a.fingerprint, classic.fingerprint);
    assert!(hasher.params().starts_with("structure/tag-pairs/"));
}

#[test]
fn links_are_collected_on_request() {
    use silhouette_dom::Limits;
    let page =
        b"<base href='/root/'><a href='a.html'>a</a><p><a href=\"b.html\">b<b>x</p>y</b></a>\
                 <area href=map.html><iframe src=frame.html></iframe><link rel='Next' href=n.html>\
                 <link rel=stylesheet href=s.css><a>no href</a><a href='a.html'>again</a>\
                 <svg><a href='svg.html'/></svg>";
    let off = StructureHasher::classic().hash(page).expect("parses");
    assert!(off.links.is_empty());
    let config = HasherConfig {
        limits: Limits {
            max_links: 100,
            ..Limits::default()
        },
        ..HasherConfig::for_model(FeatureSet::Classic)
    };
    let on = StructureHasher::new(config)
        .expect("valid")
        .hash(page)
        .expect("parses");
    assert_eq!(
        on.links,
        ["a.html", "b.html", "map.html", "frame.html", "n.html"]
    );
    assert_eq!(on.base.as_deref(), Some("/root/"));
    assert_eq!(on.fingerprint, off.fingerprint);
    let capped = HasherConfig {
        limits: Limits {
            max_links: 2,
            ..Limits::default()
        },
        ..HasherConfig::for_model(FeatureSet::Classic)
    };
    let capped = StructureHasher::new(capped)
        .expect("valid")
        .hash(page)
        .expect("parses");
    assert_eq!(capped.links, ["a.html", "b.html"]);
}
