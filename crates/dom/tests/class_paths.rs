//! The `class-paths` model (ALGORITHM.md §3): reference values, what counts as a path, its
//! bounds, and its properties over generated pages.

mod support;

use proptest::prelude::*;
use silhouette_dom::{FeatureSet, HasherConfig, MAX_PATHS, Profile, StructureHasher};
use support::{
    check_differ, check_levels, check_reference, check_same, hash, hasher, paths, prose_count,
};

#[test]
fn reference_values() {
    // ALGORITHM.md §3 quotes these: a change to any convention changes them.
    check_reference("", "08bac8a836048585", 3, 3);
    check_reference("<p>hi</p>", "08bac8a836048585", 4, 4);
    check_reference(
        "<div class=\"b a\"><p class=x>1</p></div>",
        "0abbe0a836048595",
        5,
        5,
    );
    // A main content that holds two paragraphs (the toc's wrapped one and its own) is a
    // flow: its table, a template block, at level 1; the `div.toc` that holds prose and all
    // below the main two levels lighter, labelled under the main (the two `p` one path).
    check_reference(
        "<body><nav><ul><li>x</li></ul></nav><main><div class=toc><p>1</p></div><p>2</p>\
         <table class=index><tr><td>3</td></tr></table></main>",
        "899888a0b64e84a5",
        13,
        14,
    );
    assert_eq!(
        hasher().params(),
        "structure/class-paths/depth=12/main-level=1/main-inline/p-inline/p-flow=paths/body-flow=p/main-flow=2/main-p=prose/flow-level=+2/prose=tags/amid=prose/article=blocks/flow-amid/body-text=prose/section-level=tag/sections=nested/sections=titled/root-class=paths/hex-ids/colon-ids/fields=any-depth/inline-fields/item-inline/form-rows/p-tables/empty-p=text/div-p/table-heads/th-rows/tables=any-depth/flow-tables=thin/keys=columns/head=pair/items=cousins/items=nested/bare-items/linked/root-linked/page-names/marks=current/mix64/seed=0/decay=0.76"
    );
}

#[test]
fn template_blocks_in_the_main_content_are_at_level_1() {
    // html 1, head 2, body 2, main 3; main's div.toc and table.index at 1, the bare h2 at 4;
    // below them, depths (ul 5, li 6, tbody 5, tr 6, td 7).
    let main = "<main><div class=toc><ul><li>1</li></ul></div><h2>2</h2>\
                <table class=index><tr><td>3</td></tr></table></main>";
    check_levels(main, &[1, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7]);
    // role=main marks it as well, at any depth, without text collection.
    check_levels(
        "<div role=\"main banner\"><section>1</section><h2>2</h2><aside class=x>3</aside></div>",
        &[1, 1, 1, 2, 2, 3, 4],
    );
    // The first `role` attribute wins, as in the tokenizer.
    check_levels(
        "<div role=navigation role=main><section>1</section></div>",
        &[1, 2, 2, 3, 4],
    );
    check_levels(
        "<div role=main role=navigation><section>1</section></div>",
        &[1, 1, 2, 2, 3],
    );
    // Bare blocks that are not a flow (no paragraph) keep their depth.
    check_levels(
        "<main><h1>t</h1><pre>2</pre><ul><li>3</li></ul></main>",
        &[1, 2, 2, 3, 4, 4, 4, 5],
    );
    // Only the first main content counts; one inside a <template> is not rendered.
    check_levels(
        "<main><div>1</div></main><main class=b><div>2</div></main>",
        &[1, 1, 2, 2, 3, 3, 4],
    );
    check_levels(
        "<template><main><div>1</div></main></template><div>x</div>",
        &[1, 2, 2, 3, 3, 4, 5],
    );
}

#[test]
fn a_main_content_that_holds_paragraphs_is_a_flow() {
    // A Markdown page's blocks right in `<main>`: depth + 2 (main 3, its children 6).
    check_levels(
        "<main><h1>t</h1><p>1</p><pre>2</pre><p>3</p><ul><li>4</li></ul></main>",
        &[1, 2, 2, 3, 6, 6, 6, 6, 7],
    );
    // One paragraph is not prose: a line of text above a search form or an index.
    check_levels(
        "<main><h1>t</h1><p>1</p><pre>2</pre><ul><li>3</li></ul></main>",
        &[1, 2, 2, 3, 4, 4, 4, 4, 5],
    );
    check_levels(
        "<main><p>Search:</p><form class=search><input name=q></form></main>",
        &[1, 1, 2, 2, 3, 4, 5],
    );
    // Prose blocks are not template blocks there: an admonition (it holds a paragraph), a
    // listing (a `pre`, or a wrapper down to one); a form still is (level 1). Below the main,
    // everything is labelled under it and, but for a template block and a form field, by its
    // tag alone: the admonition's `p` is the main's `p`, `div.note`, `div.highlight` and its
    // `div` are `main/div`, the wrapped `pre` and `pre.x` are `main/pre`; the form keeps its
    // class and the field its name.
    check_levels(
        "<main><p>1</p><div class=note><p>2</p></div><div class=highlight><div><pre>3</pre>\
         </div></div><pre class=x>4</pre><form class=search><input name=q></form></main>",
        &[1, 1, 2, 2, 3, 6, 6, 6, 7],
    );
    // How an author nests the blocks does not matter; which blocks the prose holds does.
    let nested = hash("<main><p>a</p><p>a</p><ul><li><p>b</p><ol><li>c</li></ol></li></ul></main>");
    let flat = hash("<main><p>a</p><ol><li>c</li></ol><ul><li>x</li></ul><p>b</p></main>");
    // (The same paths; a path keeps its lowest level, so the weights may differ.)
    assert_eq!(paths(&nested).jaccard(paths(&flat)), 1.0);
    let table =
        hash("<main><p>a</p><p>b</p><ul><li>x</li></ul><table><tr><td>1</td></tr></table></main>");
    assert!(paths(&nested).jaccard(paths(&table)) < 1.0);
    // A block between two of the main's bare paragraphs is the article's (a disclosure, a
    // rendered API block): labelled by its tag under the main, at its depth + 2, as if it held
    // prose; the same block before them, and a table or a form between them, are the
    // template's (level 1, their classes kept).
    check_levels(
        "<main><p>1</p><details class=card><summary>s</summary><svg></svg></details><p>2</p>\
         </main>",
        &[1, 2, 2, 3, 6, 6, 7, 7],
    );
    let amid = hash(
        "<main><p>1</p><div class=\"doc doc-class\"><h3>f</h3></div><p>2</p>\
         <div class=x><h3>g</h3></div></main>",
    );
    let other = hash(
        "<main><p>1</p><div class=\"doc doc-function\"><h3>f</h3></div><p>2</p>\
         <div class=x><h3>g</h3></div></main>",
    );
    assert_eq!(paths(&amid).jaccard(paths(&other)), 1.0);
    check_levels(
        "<main><details class=card><summary>s</summary></details><p>1</p><p>2</p></main>",
        &[1, 1, 2, 2, 3, 6, 7],
    );
    check_levels(
        "<main><p>1</p><table class=t><tr><td>3</td></tr></table>\
         <form class=f><input name=q></form><p>2</p></main>",
        &[1, 1, 1, 2, 2, 3, 6, 7, 7, 8, 9],
    );
    // Only the main content's own paragraphs make it a flow (or children that wrap one and
    // nothing else): those of a section do not (Sphinx's sections keep their nesting).
    check_levels(
        "<main><section><h2>1</h2><p>1</p></section><h2>2</h2></main>",
        &[1, 1, 2, 2, 3, 4, 5, 5],
    );
}

#[test]
fn html_and_body_classes_are_paths_of_their_own() {
    // MediaWiki names the page in `<body class>`: one path differs, not every path.
    let a =
        hash("<body class=\"mediawiki page-Main_Page action-view\"><div class=c><p>1</p></div>");
    let b =
        hash("<body class=\"mediawiki page-Other_Page action-view\"><div class=c><p>2</p></div>");
    // html, head, body, its 3 tokens, div.c, p: 8 paths each, 7 of them shared.
    assert_eq!(paths(&a).len(), 8);
    assert_eq!(paths(&a).jaccard(paths(&b)), 7.0 / 9.0);
    assert_eq!(a.elements, 5);
    // Each token one level below its element; normalised and deduplicated as in labels.
    check_levels(
        "<html class=client-nojs><body class=\"a B b\">",
        &[1, 2, 2, 2, 3, 3],
    );
    // At most 16 tokens each.
    let many: String = (0u8..100)
        .map(|i| {
            format!(
                "t{}{} ",
                char::from(b'a' + i / 26),
                char::from(b'a' + i % 26)
            )
        })
        .collect();
    assert_eq!(
        paths(&hash(&format!("<body class=\"{many}\">"))).len(),
        3 + 16
    );
}

#[test]
fn a_set_not_counts() {
    let one = hash("<table class=list><tr><td class=age>1</td></tr></table>");
    let fifty = hash(&format!(
        "<table class=list>{}</table>",
        "<tr><td class=age>1</td></tr>".repeat(50)
    ));
    assert_eq!(one.fingerprint, fifty.fingerprint);
    assert_eq!(one.profile.similarity(&fifty.profile), Some(1.0));
    assert_eq!(fifty.elements, 3 + 1 + 1 + 100);
}

#[test]
fn classes_matter_their_order_case_and_digits_do_not() {
    let page = |class: &str| hash(&format!("<div class=\"{class}\"><p>x</p><p>y</p></div>"));
    let base = page("post postid-123 Single");
    assert_eq!(
        base.fingerprint,
        page("single  postid-4567 post").fingerprint
    );
    assert_ne!(base.fingerprint, page("post postid-123 page").fingerprint);
    // A class on an ancestor is part of every path below it.
    let (a, b) = (page("a"), page("b"));
    assert_eq!(paths(&a).jaccard(paths(&b)), 3.0 / 7.0); // html, head, body shared; div and p differ
}

#[test]
fn inline_contents_are_text_markup() {
    // What lies inside <a>, <span>, <code>… is not walked for paths, but counts as elements.
    let a = hash("<li><a class=ref><span class=k>x</span><b>y</b></a></li>");
    let b = hash("<li><a class=ref><em>x</em></a></li>");
    assert_eq!(a.fingerprint, b.fingerprint);
    assert_eq!((a.elements, b.elements), (7, 6));
    // The tree builder moves a block out of <p> and <a>: body/div and body/div/a.ref count.
    // The a.ref left in the paragraph does not while a word stays beside it (a paragraph's
    // inline markup is its prose's); with none, the `<p>` is no paragraph (`empty-p=text`)
    // and its empty link counts too.
    let c = hash("<p>w<a class=ref><div>x</div></a></p>");
    let d = hash("<p><a class=ref><div>x</div></a></p>");
    assert_eq!(
        (paths(&a).len(), paths(&c).len(), paths(&d).len()),
        (5, 6, 7)
    );
}

#[test]
fn depth_limit() {
    let nested = |n: usize| hash(&format!("{}x", "<div><section>".repeat(n)));
    // html, head, body, then div/section from depth 3 down to the limit 12.
    assert_eq!(paths(&nested(5)).len(), 13);
    assert_eq!(paths(&nested(30)).len(), 13);
    assert_eq!(nested(30).fingerprint, nested(40).fingerprint);
    let shallow = StructureHasher::new(HasherConfig {
        path_depth: 4,
        ..HasherConfig::default()
    })
    .expect("valid");
    let s = shallow
        .hash(b"<div><section><div>x</div></section></div>")
        .expect("parses");
    assert_eq!(paths(&s).len(), 5); // html, head, body, div, section
}

#[test]
fn inline_elements_in_the_main_content_add_no_path() {
    // Which links, code and highlighter tokens an article's text holds is its content.
    check_same(
        "<main><p>see <a class=ref><code class=xref>f</code></a> and <em>g</em></p></main>",
        "<main><p>plain text</p></main>",
        (8, 5),
    );
    // Outside the main content they are the template's (a navigation's links).
    check_differ(
        "<nav><a class=home>h</a></nav><main><p>x</p></main>",
        "<nav>h</nav><main><p>x</p></main>",
    );
    // Form fields are not inline text markup: they stay (`paths.rs`, fields).
    check_differ(
        "<main><form><p><input name=q></p></form></main>",
        "<main><form><p></p></form></main>",
    );
}

#[test]
fn a_list_items_classed_inline_elements_are_the_templates() {
    // A blog's archive of a month lists posts (a date and a title, classed), its archive of a
    // year lists months (a bare link): two lists of other items.
    let list =
        |item: &str| format!("<main><h1>Posts</h1><ul class=postlist><li>{item}</li></ul></main>");
    check_differ(
        &list("<time class=listdate>2024-03-21</time><a class=listtitle href=/p/>P</a>"),
        &list("<a href=/2024/03/>March</a> (2)"),
    );
    // By their tag alone: which parts an item shows varies between items of one list.
    check_same(
        &list("<a class=date href=/a>a</a> <span class=size-up>+5</span>"),
        &list("<a class=date href=/b>b</a> <span class=size-down>-2</span>"),
        (9, 9),
    );
    // Unclassed, they are the item's text.
    check_same(
        &list("<a href=/2024/03/>March</a> (2)"),
        &list("March (2)"),
        (8, 7),
    );
    // Below a paragraph of the item, or in a flow of prose, they are the text's markup.
    check_same(
        &list("<p>see <code class=xref>f</code></p>"),
        &list("<p>see f</p>"),
        (9, 8),
    );
    let flow = |item: &str| format!("<main><p>One.</p><p>Two.</p><ul><li>{item}</li></ul></main>");
    check_same(&flow("<code class=literal>f</code>"), &flow("f"), (9, 8));
}

#[test]
fn inline_elements_in_paragraphs_of_a_page_without_main_content_add_no_path() {
    // DocBook, Texinfo or a man page marks no main content; its paragraphs' links, literals
    // and emphasis are the prose's own markup.
    check_same(
        "<div class=sect1><p>see <a class=xref>x</a>, <code class=literal>y</code></p>\
         <dl><dd><p><em>z</em> <span class=quote>q</span></p></dd></dl></div>",
        "<div class=sect1><p>plain</p><dl><dd><p>text</p></dd></dl></div>",
        (12, 8),
    );
    // Anywhere else they stay the template's: a list view's cells, a heading.
    check_differ(
        "<table><tr><td><a class=rev>1</a></td></tr></table>",
        "<table><tr><td>1</td></tr></table>",
    );
    check_differ("<h2><code>f</code></h2>", "<h2>f</h2>");
    // With a main content, a paragraph outside it is the frame's (a sidebar's "next topic").
    check_differ(
        "<div class=side><p><a class=next>n</a></p></div><main><p>x</p></main>",
        "<div class=side><p>n</p></div><main><p>x</p></main>",
    );
    // Form fields in a paragraph are not text markup: they stay.
    check_differ("<form><p><input name=q></p></form>", "<form><p></p></form>");
}

#[test]
fn huge_class_lists_and_many_paths_are_bounded() {
    // 10k tokens on one element: only the first 16 sorted ones count.
    let tokens: String = (0..10_000).map(|i| format!("t{i:05}x ")).collect();
    let s = hash(&format!("<div class=\"{tokens}\">x</div>"));
    assert_eq!(paths(&s).len(), 4);
    // 10k distinct paths: the set keeps the first MAX_PATHS.
    let page: String = (0..10_000)
        .map(|i| format!("<div class=c{}><p class=q>x</p></div>", to_letters(i)))
        .collect();
    let s = hash(&page);
    assert_eq!(paths(&s).len(), MAX_PATHS);
    assert_eq!(s.elements, 3 + 20_000);
    let bytes = s.profile.to_bytes();
    assert!(bytes.len() < MAX_PATHS * 6 + 16, "{} bytes", bytes.len());
}

/// `i` written with letters (digits would be normalised away).
fn to_letters(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'a' + (i % 26) as u8) as char);
        i /= 26;
        if i == 0 {
            return s;
        }
    }
}

#[test]
fn profile_round_trip_and_replay_at_other_decays() {
    let page = "<!doctype html><div class=nav><ul><li><a href=/>h</a></ul></div>\
                <main class=content><table class=list><tr><td class=age>1</table></main>";
    let s = hash(page);
    let bytes = s.profile.to_bytes();
    assert_eq!(Profile::from_bytes(&bytes).as_ref(), Ok(&s.profile));
    for decay in [0.2, 0.5, 0.75, 1.0] {
        let fresh = StructureHasher::new(HasherConfig {
            decay,
            ..HasherConfig::default()
        })
        .expect("valid")
        .hash(page.as_bytes())
        .expect("parses");
        assert_eq!(
            s.profile.fingerprint(decay),
            fresh.fingerprint,
            "decay {decay}"
        );
    }
    // Truncated or damaged bytes are errors or other valid profiles, never panics.
    for len in 0..bytes.len() {
        assert!(
            Profile::from_bytes(&bytes[..len]).is_err(),
            "truncated at {len}"
        );
    }
    for i in 0..bytes.len() {
        for v in [0u8, 1, 0x7f, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] = v;
            let _ = Profile::from_bytes(&b);
        }
    }
    // Another seed: other fingerprints, and no similarity across seeds.
    let other = StructureHasher::new(HasherConfig {
        seed: 7,
        ..HasherConfig::default()
    })
    .expect("valid")
    .hash(page.as_bytes())
    .expect("parses");
    assert_ne!(other.fingerprint, s.fingerprint);
    assert_eq!(other.profile.similarity(&s.profile), None);
    assert_eq!(
        StructureHasher::classic()
            .hash(page.as_bytes())
            .expect("parses")
            .profile
            .similarity(&s.profile),
        None
    );
}

#[test]
fn templates_apart_pages_of_one_template_together() {
    let chrome = |body: &str| {
        format!(
            "<!doctype html><html><head><title>t</title><link rel=stylesheet href=s.css></head>\
             <body><div class=header><ul class=nav><li><a href=/>a</a><li><a href=/b>b</a></ul></div>\
             <div class=page>{body}</div><div class=footer><p>f</p></div></body></html>"
        )
    };
    let log = |n: usize| {
        chrome(&format!(
            "<table class=shortlog>{}</table>",
            "<tr class=dark><td class=age>1d</td><td class=link><a href=x>c</a></td></tr>"
                .repeat(n)
        ))
    };
    let tree = chrome(
        "<div class=path>/</div><table class=tree><tr><td class=mode>-rw</td>\
         <td class=list><a href=f>f</a></td></tr></table>",
    );
    let (a, b, c) = (hash(&log(3)), hash(&log(40)), hash(&tree));
    assert_eq!(a.profile.similarity(&b.profile), Some(1.0));
    let apart = a.profile.similarity(&c.profile).expect("class-paths");
    assert!(apart < 0.7, "similarity {apart}");
    assert!(a.fingerprint.distance(b.fingerprint) <= 8);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The same bytes give the same fingerprint and paths; what precedes the markup (a comment
    /// of any length) changes nothing; the distance is symmetric.
    #[test]
    fn deterministic_and_chunk_independent(
        classes in prop::collection::vec("[a-z]{1,6}[0-9]{0,3}", 1..8),
        rows in 1usize..30,
        pad in 0usize..9000,
    ) {
        let body: String = classes
            .iter()
            .enumerate()
            .map(|(i, c)| format!("<div class=\"{c} k{i}\"><p class={c}>x</p></div>"))
            .collect();
        let page = format!("{body}<table>{}</table>", "<tr><td>1</td></tr>".repeat(rows));
        let a = hash(&page);
        let b = hash(&page);
        prop_assert_eq!(a.fingerprint, b.fingerprint);
        prop_assert_eq!(a.profile.clone(), b.profile.clone());
        let padded = hash(&format!("<!--{}-->{page}", "x".repeat(pad)));
        prop_assert_eq!(a.fingerprint, padded.fingerprint);
        let other = hash(&format!("<section>{page}</section>"));
        prop_assert_eq!(
            a.fingerprint.distance(other.fingerprint),
            other.fingerprint.distance(a.fingerprint)
        );
        prop_assert_eq!(a.profile.similarity(&other.profile), other.profile.similarity(&a.profile));
    }
}

#[test]
fn model_names() {
    assert_eq!(FeatureSet::default(), FeatureSet::ClassPaths);
    assert_eq!(
        "class-paths".parse::<FeatureSet>(),
        Ok(FeatureSet::ClassPaths)
    );
    assert_eq!(FeatureSet::ClassPaths.default_decay(), 0.76);
    assert_eq!(FeatureSet::ClassPaths.default_threshold(), 8);
    assert_eq!(FeatureSet::Classic.default_threshold(), 5);
    assert!(
        StructureHasher::new(HasherConfig {
            path_depth: 0,
            ..HasherConfig::default()
        })
        .is_err()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A form laid out in `<p>` rows, each holding a visible field at any depth (beside
    /// hidden fields and wrappers of any class), is never prose, and its classes stay: the
    /// same form with another wrapper class is another path set.
    #[test]
    fn a_form_in_p_rows_is_never_prose(
        rows in prop::collection::vec(
            (
                prop::sample::select(vec!["input", "select", "textarea", "button"]),
                "[a-z]{1,6}",
                0usize..3,
                any::<bool>(),
            ),
            1..6,
        ),
        wrapper in "[a-z]{1,6}",
    ) {
        let fields: String = rows
            .iter()
            .map(|(tag, name, depth, hidden)| {
                let field = format!("<{tag} name={name}></{tag}>");
                let state = if *hidden { "<input type=hidden name=t>" } else { "" };
                format!(
                    "<p>{state}{}{field}{}</p>",
                    "<label>".repeat(*depth),
                    "</label>".repeat(*depth),
                )
            })
            .collect();
        let page = |class: &str| {
            format!("<div class=content><h2>t</h2><form><div class=\"box {class}\">{fields}</div></form></div>")
        };
        let (_, prose) = prose_count(&page(&wrapper));
        prop_assert_eq!(prose, 0);
        let (a, b) = (hash(&page(&wrapper)), hash(&page(&format!("{wrapper}x"))));
        prop_assert_ne!(paths(&a), paths(&b));
    }

    /// Below `<body>` holding layout tables wrapped in `<P>` (a quirks-mode page), blocks
    /// keep their nesting: a chain of distinct classed blocks and the same blocks side by
    /// side are two path sets, and no path is prose.
    #[test]
    fn a_layout_table_in_a_paragraph_keeps_the_page_nested(
        classes in prop::collection::btree_set("[a-z]{1,6}", 2..6),
        wrappers in 1usize..4,
        class in "[a-z]{0,6}",
    ) {
        let layout = format!("<P><table class=\"{class}\"><tr><td>x</td></tr></table></P>")
            .repeat(wrappers);
        let chain: String = classes.iter().map(|c| format!("<div class={c}>x")).collect::<String>()
            + &"</div>".repeat(classes.len());
        let side: String = classes.iter().map(|c| format!("<div class={c}>x</div>")).collect();
        let (a, b) = (hash(&format!("{layout}{chain}")), hash(&format!("{layout}{side}")));
        prop_assert!(paths(&a).jaccard(paths(&b)) < 1.0);
        prop_assert_eq!(prose_count(&format!("{layout}{chain}")).1, 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The main content's prose may hold any inline markup without changing a path.
    #[test]
    fn any_inline_markup_in_the_main_content_leaves_the_paths(
        inline in prop::collection::vec(
            (prop::sample::select(vec!["a", "code", "em", "span", "b", "kbd"]), "[a-z]{0,5}"),
            0..8,
        ),
    ) {
        let prose: String = inline
            .iter()
            .map(|(tag, class)| format!("<{tag} class=\"{class}\">w</{tag}> "))
            .collect();
        let a = hash(&format!("<main><section><h2>t</h2><p>{prose}words</p></section></main>"));
        let b = hash("<main><section><h2>t</h2><p>plain</p></section></main>");
        prop_assert_eq!(paths(&a), paths(&b));
        prop_assert_eq!(a.fingerprint, b.fingerprint);
        // So may the paragraphs of a page without a main content.
        let a = hash(&format!("<div class=sect><h2>t</h2><p>{prose}words</p></div>"));
        let b = hash("<div class=sect><h2>t</h2><p>plain</p></div>");
        prop_assert_eq!(paths(&a), paths(&b));
        prop_assert_eq!(a.fingerprint, b.fingerprint);
    }

    /// In a flow of prose (a page without a main content), blocks nested in any order give
    /// the same paths.
    #[test]
    fn a_flows_blocks_nest_in_any_order(
        wrappers in prop::collection::vec(
            prop::sample::select(vec![
                "div class=a", "div class=b", "blockquote", "section", "aside class=note",
            ]),
            1..6,
        ),
    ) {
        let nest = |ws: &[&str]| {
            let open: String = ws.iter().map(|w| format!("<{w}>")).collect();
            let close: String = ws
                .iter()
                .rev()
                .map(|w| format!("</{}>", w.split(' ').next().unwrap_or(w)))
                .collect();
            format!("<div class=sect><p>t</p>{open}<pre>x</pre>{close}</div>")
        };
        let reversed: Vec<&str> = wrappers.iter().rev().copied().collect();
        let (a, b) = (hash(&nest(&wrappers)), hash(&nest(&reversed)));
        prop_assert_eq!(paths(&a).ids(), paths(&b).ids());
    }

    /// Below a flow of prose, any classes on the blocks give the same paths and summary, and
    /// a stored profile recomputes the page's fingerprint whatever it marks as prose.
    #[test]
    fn prose_blocks_with_any_classes_give_the_same_summary(
        classes in prop::collection::vec("[a-z]{0,6}( [a-z]{1,4})?", 3),
        rows in 1usize..5,
    ) {
        let page = |c: &[String]| {
            format!(
                "<div class=nav><a href=/>h</a></div><div class=sect><p>t</p>\
                 <dl class=\"{}\"><dd>d</dd></dl><div class=\"{}\"><pre class=\"{}\">x</pre></div>\
                 <table>{}</table></div>",
                c[0],
                c[1],
                c[2],
                "<tr><td>1</td></tr>".repeat(rows)
            )
        };
        let plain = vec![String::new(); 3];
        let (a, b) = (hash(&page(&classes)), hash(&page(&plain)));
        prop_assert_eq!(paths(&a).summary(), paths(&b).summary());
        prop_assert_eq!(a.fingerprint, b.fingerprint);
        prop_assert!(paths(&a).summary().iter().any(|&id| id & 1 == 1));
        prop_assert_eq!(paths(&a).fingerprint(0.76), a.fingerprint);
    }

    /// In a main content that holds paragraphs, the blocks between its first and its last
    /// bare paragraph are the article's: any classes, and a block or none, give the same
    /// paths; the same blocks before the paragraphs are the template's and tell pages apart.
    #[test]
    fn blocks_amid_an_articles_paragraphs_are_the_articles(
        classes in prop::collection::vec("[a-z]{1,6}( [a-z]{1,4})?", 2),
        tag in prop::sample::select(vec!["div", "details", "section", "aside", "figure"]),
    ) {
        let page = |c: &str, amid: bool| {
            let block = format!("<{tag} class=\"{c}\"><h4>x</h4><ul><li>y</li></ul></{tag}>");
            let (before, between) = if amid { ("", block.as_str()) } else { (block.as_str(), "") };
            format!(
                "<div class=nav><a href=/>h</a></div><main>{before}<p>a</p><h4>t</h4><ul><li>b</li>\
                 </ul>{between}<p>c</p></main>"
            )
        };
        let (a, b) = (hash(&page(&classes[0], true)), hash(&page(&classes[1], true)));
        prop_assert_eq!(paths(&a).summary(), paths(&b).summary());
        prop_assert_eq!(a.fingerprint, b.fingerprint);
        let tokens = |c: &str| {
            let mut t: Vec<String> = c.split(' ').map(str::to_owned).collect();
            t.sort_unstable();
            t.dedup();
            t
        };
        if tokens(&classes[0]) != tokens(&classes[1]) {
            let (c, d) = (hash(&page(&classes[0], false)), hash(&page(&classes[1], false)));
            prop_assert_ne!(paths(&c).summary(), paths(&d).summary());
        }
    }
}

#[test]
fn explain_names_every_path() {
    let html = "<body class=home><div class=\"nav x1\"><a class=k href=/>h</a></div>\
                <main><p>1</p><p class=n>2</p><ul><li>3</li></ul></main>\
                <form><input name=q class=w></form><table><thead><tr><th>Name</th></tr></thead></table></body>";
    let (s, names) = hasher()
        .explain(html.as_bytes(), None)
        .expect("no input is rejected");
    // The same structure as hashing, every path of its set named once.
    let plain = hash(html);
    assert_eq!(
        (s.fingerprint, s.elements),
        (plain.fingerprint, plain.elements)
    );
    let mut ids: Vec<u32> = names.iter().map(|n| n.id).collect();
    ids.sort_unstable();
    assert_eq!(ids, paths(&s).ids());
    let got: Vec<String> = names
        .iter()
        .map(|n| format!("{} {} {}", n.level, u8::from(n.prose), n.name))
        .collect();
    // Level, prose, and the steps: normalised class tokens (`x1` is `x0`), the main content's
    // blocks under the flow, a class of `<body>`, and marks for what a label holds beside.
    assert_eq!(
        got,
        [
            "1 0 html",
            "2 0 html/head",
            "2 0 html/body",
            "3 0 html/body/(a class)",
            "3 0 html/body/div.nav.x0",
            "4 0 html/body/div.nav.x0/a.k",
            "3 0 html/body/main",
            "6 1 html/body/main/p",
            "1 1 html/body/main/p.n",
            "6 1 html/body/main/ul",
            "7 1 html/body/main/li",
            "3 0 html/body/form",
            "4 0 html/body/form/input[field]",
            "3 0 html/body/table[columns]",
            "4 0 html/body/table[columns]/thead",
            "5 0 html/body/table[columns]/thead/tr",
            "6 0 html/body/th[column]",
        ]
    );
    // Tokens a list's items do not share are left out of their label and shown, marked.
    let (_, names) = hasher()
        .explain(
            b"<main><div class=\"post tag-a\">x</div><div class=\"post tag-b\">y</div></main>",
            None,
        )
        .expect("no input is rejected");
    assert!(
        names
            .iter()
            .any(|n| n.name == "html/body/main/div.post.tag-a[item]"),
        "{names:?}"
    );
    assert_eq!(names.len(), 5, "{names:?}");
    // Other models name nothing.
    let classic = StructureHasher::classic()
        .explain(html.as_bytes(), None)
        .expect("no input is rejected");
    assert!(classic.1.is_empty());
}
