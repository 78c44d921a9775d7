//! The bridge against html5ever's own tokenizer: the same tree builder and the same sink,
//! fed once by html5ever's tokenizer (every character, every attribute) and once by the
//! bridge; the two element trees must be identical, element by element (namespace, name,
//! depth, order, template contents), and so must the links collected. Without text, the
//! arena is labelled (the `class-paths` model) and each element's label (tag name and class
//! tokens) must agree too: html5ever's tokenizer hands every `class` to the tree builder as
//! an attribute, the bridge hands it over through the arena (`PendingClass`).

use std::cell::RefCell;

use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{ParseOpts, parse_document};
use proptest::prelude::*;

use crate::config::Limits;
use crate::sink::{ArenaSink, Links};
use crate::tree::{DOCUMENT, Kind, NONE, NodeId, TreeArena};

/// An element tree as text: one line per element, indented by depth, `ns:name`. Without
/// text, the arena is labelled and each line carries the element's label.
fn dump(arena: &TreeArena) -> String {
    fn node(arena: &TreeArena, id: NodeId, depth: usize, out: &mut String) {
        let Some(n) = arena.node(id) else { return };
        if n.kind == Kind::Element {
            let label = if arena.labels.is_empty() {
                String::new()
            } else {
                format!(" .{:016x}", arena.label(id))
            };
            out.push_str(&format!(
                "{}{:?}:{}{label}\n",
                "  ".repeat(depth),
                n.ns,
                &*n.name
            ));
        }
        let child_depth = depth + usize::from(n.kind == Kind::Element);
        if n.kind == Kind::Element
            && let Some(contents) = arena.node(id + 1)
            && contents.kind == Kind::TemplateContents
        {
            out.push_str(&format!("{}#contents\n", "  ".repeat(child_depth)));
            children(arena, id + 1, child_depth + 1, out);
        }
        children(arena, id, child_depth, out);
    }
    fn children(arena: &TreeArena, id: NodeId, depth: usize, out: &mut String) {
        let mut child = arena.node(id).map_or(NONE, |n| n.first);
        while child != NONE {
            node(arena, child, depth, out);
            child = arena.node(child).map_or(NONE, |n| n.next);
        }
    }
    let mut out = String::new();
    children(arena, DOCUMENT, 0, &mut out);
    out
}

/// What a parse gives: the element tree, the links, the base and, when collected, the
/// main-content text.
type Built = (String, Vec<String>, Option<String>, Option<String>);

/// The tree (with labels unless `text`) and links that `parse` builds through a fresh sink,
/// and the text when `text`; `literal`: the sink gets real text, not the bridge's stand-ins.
fn build(text: bool, literal: bool, parse: impl FnOnce(ArenaSink<'_>)) -> Built {
    let mut arena = TreeArena::new(64, !text);
    if literal {
        arena.literal_text();
    }
    if text {
        arena.collect_text(64, 1 << 20);
    }
    let arena = RefCell::new(arena);
    let links = RefCell::new(Links::new(10_000));
    parse(ArenaSink {
        arena: &arena,
        links: Some(&links),
        text,
    });
    let links = links.into_inner();
    let mut arena = arena.into_inner();
    let text = arena.take_text().map(|(t, _)| t);
    (dump(&arena), links.hrefs, links.base, text)
}

/// The tree and links from the bridge.
fn ours(html: &str, text: bool) -> Built {
    let limits = Limits {
        time_budget: None,
        ..Limits::default()
    };
    build(text, false, |sink| {
        let budget = super::Budget {
            work: limits.work_budget.for_len(html.len()),
            time: None,
        };
        let stop = super::parse(sink, html, &limits, budget);
        assert_eq!(stop, None, "no guard fires on these inputs");
    })
}

/// The tree and links from html5ever's own tokenizer.
fn oracle(html: &str, text: bool) -> Built {
    build(text, true, |sink| {
        parse_document(sink, ParseOpts::default()).one(StrTendril::from_slice(html))
    })
}

fn check(html: &str) {
    let (tree, hrefs, base, _) = ours(html, false);
    let (want_tree, want_hrefs, want_base, _) = oracle(html, false);
    assert_eq!(tree, want_tree, "tree of {html:?}");
    assert_eq!(hrefs, want_hrefs, "links of {html:?}");
    assert_eq!(base, want_base, "base of {html:?}");
    // Collecting text: the same elements, and the same text as from html5ever's tokenizer.
    let (with_text, _, _, text) = ours(html, true);
    let (want_with_text, _, _, want_text) = oracle(html, true);
    assert_eq!(with_text, want_with_text, "text tree of {html:?}");
    assert_eq!(text, want_text, "text of {html:?}");
    let elements_only = |t: &str| {
        t.lines()
            .map(|l| l.split(" .").next().unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        elements_only(&with_text),
        elements_only(&tree),
        "collecting changed {html:?}"
    );
}

/// Each case exercises one way the token stream can change the tree.
#[test]
fn cases() {
    let cases = [
        "",
        "x",
        "<p>hello <b>world</b></p>",
        // Tokenizer states chosen by the tree builder.
        "<title><b>not a tag</b></title><p>",
        "<textarea><p></textarea><p>",
        "<style><p></style><p>",
        "<script><p></script><p>",
        "<script><!--<script></script><p></script>--></script><div>",
        "<script><!--<p>--></script><b>",
        "<noscript><p></noscript><i>",
        "<xmp><p></xmp><p>",
        "<iframe><p></iframe><p>",
        "<noembed><p></noembed><p>",
        "<noframes><p></noframes><p>",
        "<plaintext><p></plaintext><b>",
        "<title>a</titlex></title><p>",
        "<TITLE>a</Title><P>",
        // Text that the tree builder classifies: whitespace or not.
        "<table> <tr> x <td>a</td></tr></table>",
        "<table>\n\t<tr><td>1</td></tr>x</table>",
        "<table><b>x</b><tr><td></table>",
        "<table>&nbsp;<tr></table>",
        "<table>&#32;<tr></table>",
        "<table>&Tab;<tr></table>",
        "<table>&NewLine;<tr></table>",
        "<table>\0<tr></table>",
        "<html> <head> </head> x <body>",
        "<head> x <title>t</title>",
        "<pre>\nx</pre><listing>\n\ny</listing><textarea>\n</textarea>",
        "<frameset><frame></frameset>",
        "<p>x<frameset><frame></frameset>",
        "<p> \n<frameset><frame></frameset>",
        "<body>\0<frameset><frame></frameset>",
        "\r\n<p>\r</p>\r",
        "a\0b<p>\0</p><svg>\0<desc>\0</desc></svg>",
        // Attributes the tree builder reads.
        "<table><input type=hidden><input type=text><input type=HIDDEN></table>",
        "<table><input type=hidden type=text><input type=text type=hidden></table>",
        "<svg><font color=red><p>x</p></font></svg>",
        "<svg><font><p>x</p></font></svg>",
        "<svg><font face=x size=2>y</font></svg>",
        "<math><annotation-xml encoding=text/html><p>x</p></annotation-xml></math>",
        "<math><annotation-xml encoding='APPLICATION/XHTML+XML'><div>x</div></annotation-xml></math>",
        "<math><annotation-xml><p>x</p></annotation-xml></math>",
        "<div><template shadowrootmode=open><p>x</p></template></div>",
        "<template><tr><td>x</td></tr></template><p>",
        "<form id=f></form><input form=f><form><input form=g>",
        // Formatting elements: Noah's ark compares all attributes.
        "<p><b>1<b>2<b>3<b>4</p>x",
        "<p><b c=1><b c=2><b c=3><b c=4></p>x",
        "<p><b c=1><b c=1><b c=1><b c=1></p>x",
        "<p><b c=1 d=2><b d=2 c=1><b c=1 d=2><b c=1 d=2></p>x",
        "<p><b c=1 c=2><b c=1><b c=1 c=3><b c=1></p>x",
        "<p><a href=1><a href=2><font size=1><font size=1><font size=1><font size=1></p>x",
        "<a href=x><div>y</a>z</div>",
        "<b><p>x</b>y</p>",
        "<table><a href=t>x<tr><td>y</td></tr></a></table>",
        // Links and base.
        "<base href=/b/><a href=a>1</a><a href=a>2</a><area href=c><link rel=next href=n>",
        "<a href='&amp;x=1&lt;'>e</a><a href=\"&#x41;\">f</a><a href=&notit;>g</a>",
        "<iframe src=i></iframe><frame src=f>",
        "<a HREF=up>u</a><a href=one href=two>d</a>",
        "<meta http-equiv=Refresh content='0; URL=t.html'><a href=t.html>t</a><a href=a>x</a>",
        "<noscript><meta http-equiv=refresh content='0;url=ns'></noscript><meta http-equiv=refresh content=5><meta http-equiv=refresh content='1;url=2nd'><meta http-equiv=refresh content='0;url=3rd'>",
        "<body><meta content='0;url=late' http-equiv=' refresh '><meta name=refresh content='0;url=no'>",
        // Doctypes and quirks mode (a table inside a p only in quirks mode).
        "<!DOCTYPE html><p><table></table>",
        "<p><table></table>",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"><p><table>",
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"http://www.w3.org/TR/html4/loose.dtd\"><p><table>",
        "<!DOCTYPE html SYSTEM \"about:legacy-compat\"><p><table>",
        "<!DOCTYPE><p><table>",
        "<!DOCTYPE html PUBLIC><p><table>",
        "<!doctype HTML><p><table>",
        "<!DOCTYPE foo><p><table>",
        // Comments, CDATA, bogus markup.
        "<table><!-- c --> x <tr></table>",
        "<!--x--><html><!--y--><head><!--z-->",
        "<svg><![CDATA[<p>]]></svg><p>",
        "<![CDATA[<p>]]><p>",
        "<math><mi><![CDATA[x]]></mi></math>",
        "<?pi x?><p><!x><div/ class=x><a<b>c</a<b></>",
        "</div x=1><p/><br/></br></p x>",
        "<div\0><p\0 a\0=\0>",
        "<x-\u{e9}l\u{e9}ment>\u{65e5}</x-\u{e9}l\u{e9}ment><DIV>",
        "<select><option>a<option>b<optgroup><option>c</select><p>",
        "<select><div>x</div><input></select>",
        "<image src=x><isindex><nobr>a<nobr>b",
        "<ruby>a<rt>b<rp>c</ruby>",
        "<table><caption><p>x</caption><colgroup><col></colgroup><tbody><tr><th>y</table>",
        "<svg><clippath></clippath><foreignObject><p>x</p></foreignObject></svg>",
        "<svg><title><p>x</p></title></svg>",
        "<math><mtext><b>x</b></mtext><mi><svg><desc><p>",
        "\u{feff}<p>bom",
        // Class tokens reach the element made for their tag, not the ones implied before it
        // or cloned from formatting elements (which keep `class` as an attribute).
        "<table class=t><tr class=r><td class='c d'>x<col class=k></table>",
        "<p class=p><b class=f>1<p class=q>2</b><i class=i>3",
        "<a class=a href=1><div class=d>x</a>y</div>",
        "<image class=i><svg class=s><image class=j/><clipPath class=c/></svg>",
        "<div class=x class=y><span CLASS='A 1' class=z>s</span><div class><div class=''>",
        "<html class=h><head class=e><body class=b><html class=h2><body class=b2><p class=p>",
        "<svg><p class=p>x</svg><select class=s><option class=o><select class=t>",
        // A form field's name and type join its label, however the tag carries them.
        "<form><input name=u type=TEXT><input type=password name=p class=c><input name=a name=b></form>",
        "<select name=s><option name=o></select><textarea name=t></textarea><button name=b type=submit>",
        "<table><input type=hidden name=h><input name=x></table><svg><input name=n></svg>",
        "<p><b><input name=i class=k></b></p><keygen name=k>",
    ];
    for case in cases {
        check(case);
    }
}

/// Tags that nest, close, get implied or moved, switch the tokenizer or the namespace.
#[rustfmt::skip]
const TAGS: &[&str] = &[
    "div", "p", "span", "b", "i", "a", "font", "nobr", "em", "ul", "li", "dl", "dd", "table",
    "tr", "td", "th", "tbody", "caption", "colgroup", "col", "h1", "form", "select", "option",
    "optgroup", "button", "pre", "listing", "input", "title", "textarea", "script", "style",
    "noscript", "xmp", "iframe", "plaintext", "template", "svg", "foreignObject", "desc",
    "math", "mi", "annotation-xml", "head", "body", "html", "frameset", "frame", "br", "img",
    "image", "DIV", "Table", "x-\u{e9}",
];

/// Attributes, among them every one the tree builder or the link collector reads.
#[rustfmt::skip]
const ATTRS: &[&str] = &[
    "type=hidden", "type=text", "TYPE=Hidden", "color=red", "face=x", "size=1",
    "encoding=text/html", "encoding=application/xhtml+xml", "shadowrootmode=open",
    "form=f", "href=a", "href=b", "href='&amp;c'", "src=s", "rel=next", "rel=prev",
    "id=1", "id=2", "class=c", "class='d c9'", "CLASS=E", "class", "c", "x=\"a b\"", "/",
];

#[rustfmt::skip]
const TEXT: &[&str] = &[
    "a", "word ", " ", "\n", "\t", "\r\n", "\r", "\u{c}", "\u{e9}", "\u{65e5}", "&amp;",
    "&nbsp;", "&#32;", "&Tab;", "&NewLine;", "&#0;", "&notit;", "<", ">", "&", "\0", "</",
    "<!--", "-->", "]]>", "<![CDATA[", "<!DOCTYPE html>", "<!x>", "<?x>",
];

fn fragment() -> impl Strategy<Value = String> {
    let tag = prop::sample::select(TAGS);
    let attrs = prop::collection::vec(prop::sample::select(ATTRS), 0..4);
    let text = prop::collection::vec(prop::sample::select(TEXT), 0..6).prop_map(|v| v.concat());
    prop_oneof![
        5 => (tag.clone(), attrs).prop_map(|(t, a)| {
            let a: String = a.iter().map(|a| format!(" {a}")).collect();
            format!("<{t}{a}>")
        }),
        4 => tag.prop_map(|t| format!("</{t}>")),
        5 => text,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Generated tag soup builds the same tree through either tokenizer.
    #[test]
    fn same_tree_as_html5ever_tokenizer(
        pieces in prop::collection::vec(fragment(), 0..60),
        doctype in prop::bool::ANY,
    ) {
        let mut html = if doctype { "<!DOCTYPE html>".to_owned() } else { String::new() };
        html.push_str(&pieces.concat());
        let (tree, hrefs, base, _) = ours(&html, false);
        let (want_tree, want_hrefs, want_base, _) = oracle(&html, false);
        let (with_text, _, _, text) = ours(&html, true);
        let (want_with_text, _, _, want_text) = oracle(&html, true);
        prop_assert_eq!(with_text, want_with_text, "text tree of {:?}", html);
        prop_assert_eq!(text, want_text, "text of {:?}", html);
        prop_assert_eq!(tree, want_tree, "tree of {:?}", html);
        prop_assert_eq!(hrefs, want_hrefs);
        prop_assert_eq!(base, want_base);
    }
}

/// The word store's entries once the bridge has parsed `html` with its text collected.
fn store_entries(html: &str) -> Vec<String> {
    let arena = super::parse_text(TreeArena::new(64, false), html);
    (0..arena.words.len())
        .filter_map(|n| arena.words.get_bytes(n))
        .map(|w| String::from_utf8_lossy(w).into_owned())
        .collect()
}

/// One entry (and one stand-in) per run of words between two tags, its inner white space as it
/// came (one space where the tokenizer cut the run in pieces), none at either end; text never
/// shown has none.
#[test]
fn a_run_of_words_is_one_entry() {
    for (html, want) in [
        ("<p>foo  bar\n\tbaz </p>", &["foo  bar\n\tbaz"][..]),
        ("<p> a <b>b</b>c\nd</p>", &["a", "b", "c\nd"]),
        ("<p>x&amp;y z</p>", &["x&y z"]),
        ("<p>x \n&amp; y</p>", &["x & y"]),
        ("<p>x\r\ny</p>", &["x y"]),
        ("<script>var a = 1;</script><p>shown</p>", &["shown"]),
        ("<p>a\u{a0}b  c</p>", &["a\u{a0}b  c"]),
        ("<p>a\0b c</p>", &["a", "b c"]),
    ] {
        assert_eq!(store_entries(html), want, "{html:?}");
    }
}

#[test]
fn common_names_are_the_atoms_the_table_finds() {
    let names = "span a li div code td p tr ul em script dd dt dl table h3 br pre link section input strong h4 style h2 meta form tt nav h1 img th tbody thead ol b i body head html title footer header main article aside button label option select small sup sub blockquote hr iframe noscript svg path g h5 h6 figure tfoot caption col colgroup abbr kbd var cite href id type rel src name role colspan content value alt width height charset lang dir rowspan class xyz data-x h7 spa";
    let mut common = 0;
    for name in names.split(' ') {
        if let Some(atom) = super::common_name(name.as_bytes()) {
            assert_eq!(atom, html5ever::LocalName::from(name), "{name}");
            common += 1;
        }
        assert_eq!(
            super::local_name(name.as_bytes()),
            html5ever::LocalName::from(name)
        );
    }
    assert_eq!(common, names.split(' ').count() - 5);
}
