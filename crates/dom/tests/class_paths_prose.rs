//! `class-paths`: flows of prose (ALGORITHM.md §3, 3. and 5.): which elements make a flow,
//! how the blocks inside one are labelled, which paragraphs are no prose (a form's row,
//! a layout table's wrapper, an empty `<p>`) and which `<div>`s are.

mod support;

use silhouette_dom::Profile;
use support::{
    check_differ, check_levels, check_reference, check_same, hash, path_set, paths, prose_count,
};

#[test]
fn blocks_in_a_flow_of_prose_are_labelled_under_the_flow() {
    // A page without a main content: below an element with a `<p>` child, how blocks nest is
    // the author's (AsciiDoc's definition lists holding listings, DocBook's examples).
    check_same(
        "<div class=sect1><h2>t</h2><p>x</p><dl><dd><div class=listing><pre>a</pre></div>\
         </dd></dl><div class=listing><pre>b</pre></div></div>",
        "<div class=sect1><h2>t</h2><p>y</p><div class=listing><pre>c</pre></div>\
         <dl><dd><pre>d</pre></dd></dl></div>",
        (12, 11),
    );
    // A wrapper around one paragraph is part of it (AsciiDoc's `div.paragraph`): its parent
    // holds the flow.
    check_same(
        "<div class=body><div class=para><p>x</p></div><div class=listing><pre>a</pre></div>\
         <ul><li><div class=listing><pre>a</pre></div></li></ul></div>",
        "<div class=body><div class=para><p>y</p></div><div class=listing><pre>b</pre></div>\
         <ul><li></li></ul></div>",
        (12, 10),
    );
    // Which kinds of block the flow holds still count.
    check_differ(
        "<div class=sect1><p>x</p><table><tr><td>1</td></tr></table></div>",
        "<div class=sect1><p>x</p></div>",
    );
    // Without a paragraph, nesting is the template's (an application's list view).
    check_differ(
        "<div class=list><ul><li><div class=item>a</div></li></ul></div>",
        "<div class=list><div class=item>a</div><ul><li>b</li></ul></div>",
    );
    // A flow's blocks weigh as if two levels deeper than their depth: html 1, head 2, body
    // 2, div.s 3 (the flow itself is the template's); p 4 + 2, ul 4 + 2, li 5 + 2.
    check_levels(
        "<div class=s><p>x</p><ul><li>y</li></ul></div>",
        &[1, 2, 2, 3, 6, 6, 7],
    );
    // With a main content, its rules apply instead and nothing is flattened.
    check_differ(
        "<main><p>x</p><dl><dd><pre>a</pre></dd></dl></main>",
        "<main><p>x</p><pre>a</pre><dl><dd></dd></dl></main>",
    );
}

#[test]
fn an_element_at_the_path_of_a_flow_is_a_flow() {
    // A man page's sections are all `div.sectionbody`: one that opens with a list or a
    // listing, and holds no paragraph of its own, is prose like its siblings, so its blocks
    // are labelled under it whichever section of the page they are in (the same paths;
    // each at the lowest level it is met at).
    let a = "<div class=sect><div class=body><p>x</p><p>y</p></div>\
             <div class=body><div class=ulist><ul><li><pre>a</pre></li></ul></div></div></div>";
    let b = "<div class=sect><div class=body><p>x</p><ul><li></li></ul></div>\
             <div class=body><div class=ulist><pre>b</pre></div></div></div>";
    assert_eq!(paths(&hash(a)).ids(), paths(&hash(b)).ids());
    // One path, not one label: a list view's `div.body` elsewhere on the page keeps its
    // nesting.
    check_differ(
        "<div class=sect><div class=body><p>x</p></div></div>\
         <div class=list><div class=body><ul><li>a</li></ul></div></div>",
        "<div class=sect><div class=body><p>x</p></div></div>\
         <div class=list><div class=body><li>a</li><ul></ul></div></div>",
    );
}

#[test]
fn prose_blocks_are_labelled_by_their_tag() {
    // Below a flow with a bare paragraph, which classes the prose's blocks carry is the
    // author's vocabulary: Doxygen's `dl.params` or `dl.retval`, an admonition's kind.
    check_same(
        "<div class=memdoc><p>x</p><dl class=params><dd><table class=params><tr><td>a</td>\
         </tr></table></dd></dl></div>",
        "<div class=memdoc><p>y</p><dl class=retval><dd><table class=retval><tr><td>b</td>\
         </tr></table></dd></dl></div>",
        (11, 11),
    );
    // Which blocks it holds still count.
    check_differ(
        "<div class=memdoc><p>x</p><dl class=params><dd>a</dd></dl></div>",
        "<div class=memdoc><p>x</p><table class=params><tr><td>a</td></tr></table></div>",
    );
    // A table keeps its column headers (an application's list below a line of text).
    check_differ(
        "<div class=c><p>x</p><table><thead><tr><th>tag</th></tr></thead></table></div>",
        "<div class=c><p>x</p><table><thead><tr><th>branch</th></tr></thead></table></div>",
    );
    check_same(
        "<div class=c><p>x</p><table class=a><thead><tr><th>tag</th></tr></thead></table></div>",
        "<div class=c><p>x</p><table class=b><thead><tr><th>tag</th></tr></thead></table></div>",
        (9, 9),
    );
    // A form field keeps its name.
    check_differ(
        "<div class=c><p>x</p><form><input name=user></form></div>",
        "<div class=c><p>x</p><form><input name=email></form></div>",
    );
    // Those paths are prose (html, head, body, the flow's `div`: not; `p`, `dl`, `dd`,
    // `table`, the parser's `tbody`, `tr`, `td`: prose); the profile keeps the mark.
    let doc = "<div class=memdoc><p>x</p><dl class=params><dd><table><tr><td>a</td></tr>\
               </table></dd></dl></div>";
    assert_eq!(prose_count(doc), (11, 7));
    let s = hash(doc);
    let back = Profile::from_bytes(&s.profile.to_bytes()).expect("round trip");
    let summary = |p: &Profile| p.paths().expect("class-paths").summary();
    assert_eq!(summary(&back), summary(&s.profile));
    // The mark moves no fingerprint: levels read without it.
    assert_eq!(back.fingerprint(0.76), s.fingerprint);
    // An application's classed paragraph (`p.buttons`, `p.other-formats`) folds the nesting
    // below its parent, but the blocks keep their classes and are not prose.
    check_differ(
        "<div class=content><p class=buttons>x</p><table class=issues><tr><td>a</td></tr>\
         </table></div>",
        "<div class=content><p class=buttons>x</p><table class=timelog><tr><td>a</td></tr>\
         </table></div>",
    );
    assert_eq!(
        prose_count(
            "<div class=content><p class=buttons>x</p><table class=issues><tr><td>a</td>\
             </tr></table></div>"
        ),
        (9, 0)
    );
    // So does a `<body>` that holds a paragraph itself (a footer's `div` around one `p`).
    check_differ(
        "<table class=issues><tr><td>a</td></tr></table><div class=footer><p>f</p></div>",
        "<table class=timelog><tr><td>a</td></tr></table><div class=footer><p>f</p></div>",
    );
    // In a main content that is a flow, a template block keeps its classes; the prose's
    // own blocks do not.
    check_differ(
        "<main><p>a</p><p>b</p><table class=contents><tr><td>1</td></tr></table></main>",
        "<main><p>a</p><p>b</p><table class=download><tr><td>1</td></tr></table></main>",
    );
    check_same(
        "<main><p>a</p><p>b</p><div class=note><p>c</p></div></main>",
        "<main><p>a</p><p>b</p><div class=warning><p>c</p></div></main>",
        (8, 8),
    );
}

#[test]
fn a_paragraph_that_holds_a_form_field_is_a_form_row_not_prose() {
    // An application's form laid out in `<p>` rows (Rails' tabular forms, Django's
    // `as_p`): the rows are not prose, so the form's blocks keep their classes and nesting
    // and are not marked prose (a lost-password form and a welcome page's news box were
    // both "prose" below one bare `p`, and a page mostly frame was not told so).
    let form = "<div class=content><h2>t</h2><form><div class=\"box tabular\"><p>\
                <label>Email</label><input type=text name=mail></p></div></form></div>";
    assert_eq!(prose_count(form), (10, 0));
    check_differ(
        "<div class=content><form><div class=box><p><input name=mail></p></div></form></div>",
        "<div class=content><form><div class=panel><p><input name=mail></p></div></form></div>",
    );
    // A field deeper in the row (inside its label) makes it a row too; a hidden field does
    // not (it carries state, not what a user fills in).
    assert_eq!(
        prose_count("<div class=c><form><p><label>E <input name=m></label></p></form></div>"),
        (8, 0)
    );
    assert_eq!(
        prose_count("<div class=c><form><p>x<input type=hidden name=t></p></form></div>"),
        (7, 3)
    );
    // A paragraph of text beside the form still makes its parent a flow.
    assert_eq!(
        prose_count("<div class=c><p>x</p><p><input name=m></p><table></table></div>"),
        (7, 3)
    );
}

#[test]
fn a_wrapped_line_right_in_the_body_makes_no_flow_of_it() {
    // Texinfo's node pages: a `div.header` around one navigation paragraph right in
    // `<body>` at the foot of a long node and not of a short one, and the node itself in a
    // `div` named by its level. Beside that `div`, which holds prose itself, the line is not
    // the page's prose: the body is no flow, the node's `div` is, and the long node is the
    // short one and its footer.
    let node = "<div class=section><div class=header><p>Next: <a href=n>n</a></p></div>\
                <h3 class=section>T</h3><p>x</p><dl><dt>a</dt><dd><p>b</p></dd></dl></div>";
    let footer = "<hr><div class=header><p>Next: <a href=n>n</a></p></div>";
    let (short, long) = (hash(node), hash(&format!("{node}{footer}")));
    let (short, long) = (paths(&short).summary(), paths(&long).summary());
    assert!(
        short.iter().all(|id| long.binary_search(id).is_ok()),
        "{short:?} {long:?}"
    );
    // Three paths more: the `hr`, the `div.header` and its paragraph.
    assert_eq!(long.len(), short.len() + 3, "{short:?} {long:?}");
    // The node's blocks are prose (the lowest bit): the flow is its `div`, not the body.
    assert_eq!(prose_count(node), (10, 6));
    // Beside no child that holds prose, the wrapped line still makes the body a flow (an
    // older Texinfo's node without a paragraph, its blocks right in `<body>`): how they
    // nest is the author's.
    check_same(
        "<div class=header><p>Next</p></div><hr><h2 class=chapter>T</h2>\
         <dl><dd><pre>a</pre></dd></dl><pre>c</pre>",
        "<div class=header><p>Next</p></div><hr><h2 class=chapter>U</h2>\
         <pre>b</pre><dl><dd><pre>d</pre></dd></dl>",
        (11, 11),
    );
    // A paragraph of its own still makes the body a flow (a bare man page: every block
    // under the body, none of them prose), and so does a wrapper around one in any other
    // element (AsciiDoc's `div.paragraph`).
    assert_eq!(prose_count(&format!("<p>x</p>{node}")), (10, 0));
    assert_eq!(
        prose_count("<div class=c><div class=para><p>x</p></div><ul><li>y</li></ul></div>"),
        (8, 4)
    );
}

#[test]
fn a_bare_paragraph_in_sections_of_the_main_content_is_marked_prose() {
    // A Sphinx article: its paragraphs lie in sections, so the main content is no flow and
    // its blocks keep their nesting and classes; the bare paragraphs are still the page's
    // text (the crawl never counts them in the host's frame), marked and nothing more.
    let article = "<div role=main><section><h1>T</h1><p>x</p><section><h2>U</h2><p>y</p>\
                   <div class=highlight-c><pre>z</pre></div></section></section></div>";
    // The two paragraphs' paths (one per section depth) are marked; nothing else is.
    assert_eq!(prose_count(article), (12, 2));
    // A paragraph with a class, a form's row or a layout table's wrapper is no text; nor
    // is a paragraph outside the main content.
    assert_eq!(
        prose_count(
            "<div role=main><section><p class=caption>x</p><form><p><input name=q></p>\
             </form><p><table></table></p></section></div><div class=foot><p>f</p></div>"
        )
        .1,
        0
    );
    // The mark moves no fingerprint (a path's weight reads its level, not its marks): the
    // article's is what it was before paragraphs in the main content were marked.
    check_reference(article, "49bbf8e923889186", 12, 12);
}

#[test]
fn a_paragraph_around_a_layout_table_is_no_prose() {
    // A quirks-mode page (no doctype: a table does not close an open `<p>`) of a legacy
    // application wraps a layout table in `<P>…</P>` right in `<body>`. That is no
    // paragraph: the body is no flow of prose, and the page's blocks keep their nesting
    // (in a flow, every element is labelled under the body, whatever lies between).
    let similarity = |before: &str| {
        let (a, b) = (
            hash(&format!(
                "{before}<div class=one><div class=two>x</div></div>"
            )),
            hash(&format!(
                "{before}<div class=two><div class=one>x</div></div>"
            )),
        );
        paths(&a).jaccard(paths(&b))
    };
    let layout = "<P><table class=t><tr><td>x</td></tr></table></P>";
    assert!(similarity(layout) < 0.75, "{}", similarity(layout));
    // A paragraph of text still makes the body a flow: the same paths.
    assert!((similarity("<p>Some words.</p>") - 1.0).abs() < 1e-9);
    // So does a paragraph beside the layout table.
    assert!((similarity(&format!("{layout}<p>Some words.</p>")) - 1.0).abs() < 1e-9);
}

#[test]
fn an_empty_paragraph_is_no_prose() {
    // A legacy application's `<P>` before a block (`<P><DIV>…`) is closed by it and left
    // empty: a separator, not a paragraph. Nagios's CGIs put four in `<body>`; taken for
    // prose they made the body one flow, every block an article's and every table's columns
    // nameless, so its lists of commands and of contacts were one page.
    let page = |before: &str, heads: &str| {
        hash(&format!(
            "<body>{before}<div class=title>T</div>{before}<div><table class=data>\
             <tr>{heads}</tr><tr><td>x</td><td>y</td></tr></table></div>{before}"
        ))
    };
    let heads = [
        "<th>Command Name</th><th>Command Line</th>",
        "<th>Contact Name</th><th>Email</th>",
    ];
    for before in ["<p></p>", "<P>", "<p> \n </p>"] {
        let (a, b) = (page(before, heads[0]), page(before, heads[1]));
        assert!(
            paths(&a).jaccard(paths(&b)) < 0.8,
            "{before}: {}",
            paths(&a).jaccard(paths(&b))
        );
        let html = format!(
            "{before}<div class=title>T</div>{before}<div><table><tr><td>x</td></tr></table></div>"
        );
        assert_eq!(prose_count(&html).1, 0, "{before}");
    }
    // Nor is a paragraph of images and links without a word (a header's line of logos).
    for before in [
        "<p><img src=x></p>",
        "<p><a href=/><img src=logo></a> <a href=/b></a></p>",
    ] {
        let (a, b) = (page(before, heads[0]), page(before, heads[1]));
        assert!(paths(&a).jaccard(paths(&b)) < 0.8, "{before}");
    }
    // A paragraph with words, or with line breaks only (a wiki's blank line), or an image
    // among paragraphs with words (a figure, as Markdown writes one), is one: the body is a
    // flow of prose, its table an article's, its columns not named.
    for before in [
        "<p>Some words.</p>",
        "<p><br></p>",
        "<p><a href=/>word</a></p>",
    ] {
        let (a, b) = (page(before, heads[0]), page(before, heads[1]));
        assert!(
            (paths(&a).jaccard(paths(&b)) - 1.0).abs() < 1e-9,
            "{before}"
        );
    }
}

#[test]
fn a_picture_among_paragraphs_is_one() {
    // Markdown writes a picture as a paragraph of one image: among paragraphs with words it
    // is a figure of the text, prose like them (a blog's excerpt that opens with one).
    let excerpt = |first: &str| {
        format!(
            "<main><ul class=posts><li><h3><a href=/a>T</a></h3>{first}\
             <p>Words of the text.</p><p>More of them.</p></li></ul></main>"
        )
    };
    let picture = excerpt("<p><img src=figure.png></p>");
    assert_eq!(
        prose_count(&picture),
        prose_count(&excerpt("<p>A <img src=figure.png></p>"))
    );
    // Alone beside other blocks, it is no paragraph.
    let alone = "<body><div class=banner><a href=/>x</a></div><p><a href=/><img src=logo></a></p>\
                 <div class=section><h2>T</h2><div><p>Words of the text.</p></div></div></body>";
    let worded = alone.replace("<img src=logo>", "Home");
    assert_ne!(prose_count(alone), prose_count(&worded));
}

#[test]
fn a_form_rows_inline_elements_are_the_templates() {
    // On a page without a main content, the inline elements inside a paragraph of prose add
    // no path (4.); a form's row is no paragraph, so its line breaks and spans do.
    check_differ(
        "<div class=c><form><p>Name<br><span class=u>x</span><input name=m></p></form></div>",
        "<div class=c><form><p>Name<input name=m></p></form></div>",
    );
    check_same(
        "<div class=c><p>Some<br><span class=u>x</span> words.</p></div>",
        "<div class=c><p>Some words.</p></div>",
        (7, 5),
    );
}

/// Whether the `<div>`s at `{i}` in `template` are paragraphs of prose: then the inline
/// element put there adds no path (4.), whichever it is.
fn div_is_paragraph(template: &str) -> bool {
    let page = |inline: &str| path_set(&template.replace("{i}", inline));
    page("<code class=command>apt</code>") == page("<a class=xref href=x>a link</a>")
}

#[test]
fn a_generators_divs_of_prose_are_paragraphs() {
    // Publican writes DocBook's paragraphs as `div.para`, never `<p>`: a section of them is
    // a flow of prose, as with `<p>`, so which inline markup an author used adds nothing.
    let section = |para: &str, more: &str| {
        format!(
            "<body><div class=section><div class=titlepage><h2 class=title>T</h2></div>\
             {para}{more}<div class=itemizedlist><ul><li>x</li></ul></div></div></body>"
        )
    };
    let para = "<div class=para>The first paragraph of the text says {i} in it.</div>";
    let second = "<div class=para>A second paragraph, with a few more words.</div>";
    let publican = section(para, second);
    assert!(div_is_paragraph(&publican));
    assert!(prose_count(&publican.replace("{i}", "")).1 > 0);
    // A run of them anywhere on the page makes every `<div>` of that label one, a
    // section's lone paragraph too; a sentence may end before a closing quote or bracket,
    // and Chinese has no spaces between its words.
    let lone = format!(
        "<body><div class=section>{para}<div class=itemizedlist><ul><li>x</li></ul></div>\
         </div>{}</body>",
        section(second, second)
            .replace("<body>", "")
            .replace("</body>", "")
    );
    assert!(div_is_paragraph(&lone));
    for ending in ["(in it.)", "\u{201c}in it.\u{201d}", "in it! ", "in it?"] {
        assert!(
            div_is_paragraph(&publican.replace("in it.", ending)),
            "{ending}"
        );
    }
    let chinese =
        "<div class=para>{i}\u{8fd9}\u{662f}\u{4e00}\u{4e2a}\u{53e5}\u{5b50}\u{3002}</div>";
    assert!(div_is_paragraph(&section(chinese, chinese)));
    // What is no paragraph: a lone line of text among an application's blocks (a commit's
    // description), a text without a sentence's end, a few words, a message's lines
    // (`<br>`), a `<div>` beside `<p>`s (there the `<p>`s are the paragraphs), and a
    // program's lines, most of them no sentence (the comments that are one beside them).
    let lone_line = "<body><div class=main><h2>T</h2><form><input name=q></form>\
                     <div class=description>Exclude the old features from {i} the matrix.</div>\
                     <table><tr><td>x</td></tr></table></div></body>";
    let no_end = section(&para.replace("in it.", "in it"), &second.replace('.', ""));
    let few = section(
        "<div class=para>Says {i} this.</div>",
        "<div class=para>Few words here.</div>",
    );
    let lines = section(
        "<div class=para>The first line of a message, {i} in it.<br>And its second line.</div>",
        &second.replace("with", "<br>with"),
    );
    let beside_p = section(para, &format!("{second}<p>A paragraph of its own.</p>"));
    let listing = format!(
        "<body><div class=fragment><div class=line>// This notice may not be removed {{i}} ever.</div>\
         <div class=line>// Nor may this line be altered in any way.</div>{}<div class=ttc>t</div>\
         </div></body>",
        "<div class=line><span class=keyword>int</span> f(int a, int b);</div>".repeat(3)
    );
    for page in [lone_line, &no_end, &few, &lines, &beside_p, &listing] {
        assert!(!div_is_paragraph(page), "{page}");
    }
}
