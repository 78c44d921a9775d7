//! Main-content text: selection, block boundaries, hidden text, bounds, and that collecting
//! it leaves the structure alone.

use proptest::prelude::*;

use crate::{HasherConfig, Limits, Structure, StructureHasher};

fn hash(html: &str, max_text_bytes: usize) -> Structure {
    let limits = Limits {
        max_text_bytes,
        ..Limits::default()
    };
    let hasher = StructureHasher::new(HasherConfig {
        limits,
        ..HasherConfig::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    hasher
        .hash(html.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"))
}

thread_local! {
    /// Set by a test: the text writer never stops early (`TextWriter::done`), to compare.
    pub(super) static NEVER_DONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn text(html: &str) -> String {
    hash(html, 1 << 20).text.unwrap_or_default()
}

fn check(html: &str, expected: &str) {
    assert_eq!(text(html), expected, "text of {html:?}");
}

#[test]
fn main_content_and_blocks() {
    let chrome = "<header>Site</header><nav><a href=/>Home</a></nav>";
    let foot = "<aside>Ads</aside><footer>(c) 2026</footer>";
    let cases: &[(&str, &str)] = &[
        ("", ""),
        (
            "<p>hello <b>wor</b>ld</p><p>again</p>",
            "hello world\nagain",
        ),
        (&format!("{chrome}<p>Body text</p>{foot}"), "Body text"),
        (
            &format!("{chrome}<main><p>One</p><header>Kept</header></main>{foot}"),
            "One\nKept",
        ),
        (
            &format!("<div>Menu</div><div role=main><p>A</p></div>{foot}"),
            "A",
        ),
        ("<div>x</div><div role='MAIN other'>B</div>", "B"),
        (
            "<p>intro</p><article>One<article>nested</article></article><article>Two</article>",
            "One\nnested\nTwo",
        ),
        (
            "<p>a<script>var x = '<p>';</script><style>p{}</style><noscript>js</noscript>\
             <template>t</template>b</p><title>T</title>",
            "ab",
        ),
        (
            "<ul><li>one<li>two</ul><table><tr><td>a<td>b</table>",
            "one\ntwo\na\nb",
        ),
        (
            "<h1>Title</h1>text<br>more  \n spaced\u{a0}out",
            "Title\ntext\nmore spaced out",
        ),
        ("<pre>line 1\nline 2</pre>", "line 1 line 2"),
        (
            "<p>caf\u{e9} &amp; \u{65e5}\u{672c}</p>",
            "caf\u{e9} & \u{65e5}\u{672c}",
        ),
        ("<table>foster<tr><td>cell</table>", "foster\ncell"),
        ("<frameset><frame></frameset>", ""),
    ];
    for (html, expected) in cases {
        check(html, expected);
    }
}

/// Each listed name starts at a slot of its own (so one look finds it, with no probing) and
/// gets its bits; other names get none. The one-look and the probing look-ups agree on every
/// listed name and on thousands of others.
#[test]
fn class_table() {
    use crate::text::{
        BLOCK_NAMES, CHROME_NAMES, ClassTable, HIDDEN_NAMES, IS_ARTICLE, IS_BLOCK, IS_BODY,
        IS_CHROME, IS_HIDDEN, class, class_in_one_look,
    };
    let table = ClassTable::new();
    assert!(table.perfect);
    for n in HIDDEN_NAMES.iter().chain(&CHROME_NAMES).chain(&BLOCK_NAMES) {
        let name = html5ever::LocalName::from(*n);
        let first = &table.slots[ClassTable::slot(table.mul, &name)];
        assert!(matches!(first, Some((m, _)) if *m == name), "{n}");
    }
    let check = |name: &str, expected| {
        let atom = html5ever::LocalName::from(name);
        assert_eq!(class(&atom), expected, "{name}");
        assert_eq!(class_in_one_look(&atom), expected, "{name} (one look)");
    };
    check("script", IS_HIDDEN);
    check("title", IS_HIDDEN);
    check("nav", IS_CHROME | IS_BLOCK);
    check("article", IS_BLOCK | IS_ARTICLE);
    check("body", IS_BLOCK | IS_BODY);
    check("td", IS_BLOCK);
    check("span", 0);
    check("a", 0);
    check("x-widget", 0);
    check("articles", 0);
    check("", 0);
    let others = (0..5000).map(|i| format!("x{i}"));
    let listed = HIDDEN_NAMES.iter().chain(&CHROME_NAMES).chain(&BLOCK_NAMES);
    for n in listed.map(|n| (*n).to_owned()).chain(others) {
        let atom = html5ever::LocalName::from(n.as_str());
        assert_eq!(table.get_in_one_look(&atom), table.get(&atom), "{n}");
    }
}

#[test]
fn off_by_default_and_bounded() {
    assert_eq!(hash("<p>x</p>", 0).text, None);
    let page = format!("<p>{}</p>", "word ".repeat(100_000));
    let s = hash(&page, 1000);
    let t = s.text.unwrap_or_default();
    assert!(t.len() <= 1000 && t.len() > 990, "{}", t.len());
    assert!(s.text_truncated);
    // A multi-byte character is never cut.
    let s = hash(&format!("<p>{}</p>", "\u{65e5}".repeat(1000)), 100);
    assert_eq!(s.text.map(|t| t.len()), Some(99));
}

#[test]
fn hostile_inputs_are_bounded() {
    let cases = [
        "<div>".repeat(100_000),
        "<article>a".repeat(50_000),
        "<p role=main>".repeat(50_000),
        "\0\u{fffd}<p>\0".repeat(10_000),
        "x".repeat(2_000_000),
    ];
    for html in cases {
        let s = hash(&html, 4096);
        assert!(s.text.is_some_and(|t| t.len() <= 4096));
    }
}

#[test]
fn divs_of_prose_are_read_the_same_with_text() {
    // What the tokenizer reads of a text (its words, its sentence's end) comes from the text,
    // collected or not: the same `<div>`s are paragraphs either way.
    let html = "<div class=s><h2>T</h2><div class=para>The first paragraph, <code>x</code> \
                in it.</div><div class=para>A second paragraph of some more words.</div>\
                <ul><li>x</li></ul></div>";
    let (off, on) = (hash(html, 0), hash(html, 1 << 20));
    assert_eq!(off.fingerprint, on.fingerprint);
    let plain = hash(&html.replace("<code>x</code>", "x"), 0);
    assert_eq!(
        off.fingerprint, plain.fingerprint,
        "the paragraph's inline markup counts"
    );
}

proptest! {
    /// Collecting text never changes the structure (nor what the tokenizer reads of it:
    /// `<div>`s of prose, `div-p`).
    #[test]
    fn same_structure_with_text(html in "(<(p|div|table|td|b|main|script|nav|h2|br) ?(role=main|class=para)?>|[a-z \n]{0,8}|[a-z .!\n]{0,24}|\u{8fd9}\u{53e5}\u{3002}|</(p|b|td|div)>){0,40}") {
        let off = hash(&html, 0);
        let on = hash(&html, 1 << 20);
        prop_assert_eq!(off.fingerprint, on.fingerprint);
        prop_assert_eq!(off.elements, on.elements);
        prop_assert_eq!(off.truncated, on.truncated);
    }

    /// A paragraph's text is the same whatever precedes it (chunk independence): its line
    /// ends the page's text.
    #[test]
    fn chunk_independence(
        before in prop::collection::vec("[a-z]{1,6}( [a-z]{1,6}){0,4}", 0..5),
        para in "[a-z]{1,6}( [a-z]{1,6}){0,6}",
    ) {
        let mut html: String = before.iter().map(|p| format!("<p>{p}")).collect();
        html.push_str(&format!("<p>{para}</p>"));
        let t = text(&html);
        prop_assert_eq!(t.lines().last(), Some(para.as_str()));
        prop_assert_eq!(t.lines().count(), before.len() + 1);
    }
}

/// The main-content text of `html` read from the whole tree html5ever builds
/// (`markup5ever_rcdom`, text nodes and all), by the definition in `text.rs`: the oracle of
/// the text written while parsing.
fn tree_text(html: &str) -> String {
    use html5ever::tendril::TendrilSink;
    use markup5ever_rcdom::{Handle, NodeData, RcDom};

    fn name(h: &Handle) -> Option<String> {
        match &h.data {
            NodeData::Element { name, .. } => Some(name.local.to_string()),
            _ => None,
        }
    }
    fn is_main(h: &Handle) -> bool {
        match &h.data {
            NodeData::Element { name, attrs, .. } => {
                &*name.local == "main"
                    || attrs
                        .borrow()
                        .iter()
                        .find(|a| &*a.name.local == "role")
                        .is_some_and(|a| crate::tree::is_main_role(&a.value))
            }
            _ => false,
        }
    }
    let hidden = |n: &str| crate::text::class(&n.into()) & crate::text::IS_HIDDEN != 0;
    // The main element, the outermost articles and the body, none inside hidden text.
    fn find(
        h: &Handle,
        in_article: bool,
        hidden: &dyn Fn(&str) -> bool,
        found: &mut (Option<Handle>, Vec<Handle>, Option<Handle>),
    ) {
        for c in h.children.borrow().iter() {
            let Some(n) = name(c) else { continue };
            if hidden(&n) {
                continue;
            }
            if is_main(c) && found.0.is_none() {
                found.0 = Some(c.clone());
            }
            if n == "article" && !in_article {
                found.1.push(c.clone());
            }
            if n == "body" && found.2.is_none() {
                found.2 = Some(c.clone());
            }
            find(c, in_article || n == "article", hidden, found);
        }
    }
    struct Out {
        text: String,
        space: bool,
    }
    impl Out {
        fn block(&mut self) {
            if !self.text.is_empty() && !self.text.ends_with('\n') {
                self.text.push('\n');
            }
            self.space = false;
        }
    }
    fn emit(h: &Handle, skip_chrome: bool, hidden: &dyn Fn(&str) -> bool, out: &mut Out) {
        match &h.data {
            NodeData::Text { contents } => {
                for (i, w) in contents.borrow().split(char::is_whitespace).enumerate() {
                    if i > 0 {
                        out.space = true;
                    }
                    if w.is_empty() {
                        continue;
                    }
                    if out.space && !out.text.is_empty() && !out.text.ends_with('\n') {
                        out.text.push(' ');
                    }
                    out.space = false;
                    out.text.push_str(w);
                }
            }
            NodeData::Element { name, .. } => {
                let n = &name.local;
                let class = crate::text::class(n);
                if hidden(n) || (skip_chrome && class & crate::text::IS_CHROME != 0) {
                    return;
                }
                let block = class & crate::text::IS_BLOCK != 0;
                if block {
                    out.block();
                }
                for c in h.children.borrow().iter() {
                    emit(c, skip_chrome, hidden, out);
                }
                if block {
                    out.block();
                }
            }
            _ => {}
        }
    }
    let dom =
        html5ever::parse_document(RcDom::default(), html5ever::ParseOpts::default()).one(html);
    let mut found = (None, Vec::new(), None);
    find(&dom.document, false, &hidden, &mut found);
    let (roots, skip) = match found {
        (Some(main), _, _) => (vec![main], false),
        (None, articles, _) if !articles.is_empty() => (articles, false),
        (None, _, body) => (body.into_iter().collect(), true),
    };
    let mut out = Out {
        text: String::new(),
        space: false,
    };
    for root in roots {
        out.block();
        emit(&root, skip, &hidden, &mut out);
        out.block();
    }
    out.text.trim_end_matches('\n').to_owned()
}

#[test]
fn text_as_the_tree_holds_it() {
    for html in [
        "<div>a</div>b<p>c</p>d",
        "<div>a<p></p>b</div>",
        "<b>x<p>a</b>b</p>",
        "<span>a</span><nav>menu</nav>\n<span>b</span>",
        "<main><span>a</span><nav>menu</nav>\n<span>b</span></main>",
        "<p>a<br>\n<i>b</i></p>\n\n<ul>\n <li> c </li>\n</ul>",
        "<ul><li>one<li>two</ul>three",
        "<noscript><main>x</main></noscript><p>y",
    ] {
        assert_eq!(text(html), tree_text(html), "{html:?}");
    }
    // The one difference: text the tree builder moves out of a table (foster parenting)
    // stands before the table in the tree, and where the markup has it in the text.
    let fostered = "<table>\n<tr> <td>a</td>\n</tr> x <b>y</b> </table> z";
    assert_eq!(tree_text(fostered), "x y\na\nz");
    assert_eq!(text(fostered), "a\nx y\nz");
    // And text written before the adoption agency moves its element out of a block: `</form>`
    // leaves the button open inside the form, `</em>` moves it after the form.
    let moved = "<em><form>a<button>b</form></em>";
    assert_eq!(tree_text(moved), "a\nb");
    assert_eq!(text(moved), "ab");
}

proptest! {
    /// The text written while parsing is the text of the tree the parse ends with, in
    /// whatever tree the tree builder makes (implied ends, misnested formatting, chrome).
    /// (No `</form>`: it can leave an element open that the adoption agency then moves out of
    /// the form, after its text was written, `text_as_the_tree_holds_it`.)
    #[test]
    fn text_is_the_trees(pieces in prop::collection::vec(
        "<(p|div|span|b|i|a|nav|main|article|br|li|ul|pre|h1|aside|section|header|footer|em|form|button|template|select|option|div role=main)>|</(p|div|span|b|i|a|nav|main|article|li|ul|pre|section|header|em|template|select)>|[a-c]{1,3}|[ \n\t]{1,3}|<script>x</script>",
        0..40,
    )) {
        let html: String = pieces.concat();
        prop_assert_eq!(text(&html), tree_text(&html), "{:?}", html);
    }

    /// Runs of words long enough to be closed up eight bytes at a time (`Lines::ascii_words`),
    /// with every kind of white space between and around their words, single and repeated,
    /// and pieces the tokenizer hands over on their own (a character reference, `é`), give
    /// the tree's text too.
    #[test]
    fn long_runs_are_the_trees(pieces in prop::collection::vec(
        "[a-z]{1,12}|[a-z]{1,3}|[ ]|[ \n\t\r\x0c]{1,4}|<b>|</b>|<p>|&amp;|\u{e9}",
        0..80,
    )) {
        let html: String = pieces.concat();
        prop_assert_eq!(text(&html), tree_text(&html), "{:?}", html);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]
    /// Stopping once no more text can be written (the main element left, or its text at the
    /// bound: `TextWriter::done`) writes the text a parse to the end writes, in tag soup with
    /// tables (foster parenting), templates, selects, framesets, misnested formatting and
    /// main elements, under small bounds too; and leaves the structure alone.
    #[test]
    fn stopping_early_writes_the_same_text(
        pieces in prop::collection::vec(
            "<(p|div|span|b|i|a|nav|main|article|li|pre|em|form|button|template|select|option|table|tr|td|caption|frameset|frame|body|html|head|div role=main|td role=main|b role=main)>|</(p|div|span|b|i|a|nav|main|article|li|em|form|button|template|select|table|tr|td|body|html|head)>|[a-c]{1,3}|[ \n]{1,2}|<script>x</script>|<title>t</title>",
            0..40,
        ),
        bound in prop::sample::select(vec![4usize, 9, 20, 1 << 20]),
    ) {
        let html: String = pieces.concat();
        let stopped = hash(&html, bound);
        NEVER_DONE.set(true);
        let read = hash(&html, bound);
        NEVER_DONE.set(false);
        prop_assert_eq!(&stopped.text, &read.text, "{:?}", html);
        prop_assert_eq!(stopped.fingerprint, read.fingerprint);
        prop_assert_eq!(stopped.elements, read.elements);
    }
}

/// The parse stops collecting once the main element is left or its text is at the bound:
/// the word store holds no run read after that.
#[test]
fn collection_stops_when_nothing_more_can_be_written() {
    let runs = |html: &str, bound: usize| {
        let t = hash(html, bound).text.unwrap_or_default();
        (t, crate::tree::last_store_len())
    };
    let tail = "<p>side bar</p>".repeat(50);
    assert_eq!(
        runs(&format!("<nav>menu</nav><main>one</main>{tail}"), 1 << 20),
        ("one".to_owned(), 3)
    );
    assert_eq!(
        runs(&format!("<main><p>one two</p>{tail}</main>"), 5),
        ("one t".to_owned(), 1)
    );
    // Without a main element, body text is read to the end (a main element may still come).
    assert_eq!(runs(&format!("<p>one</p>{tail}"), 1 << 20).1, 51);
}

/// Runs of every length from 1 to 24 bytes, with each kind of white space at every place,
/// so that the last bytes of a run (read as one more eight-byte chunk, `Lines::ascii_words`)
/// begin, end and fall inside every stretch of white space; and the same after a run that
/// ends in white space of its own.
#[test]
fn run_ends_at_every_place() {
    for len in 1..=24 {
        for at in 1..len {
            for ws in [" ", "\n", "  ", "\t\r\n", "\x0c"] {
                let word: String = (0..len)
                    .map(|i| char::from(b'a' + (i % 26) as u8))
                    .collect();
                let run = format!("{}{ws}{}", &word[..at], &word[at..]);
                for html in [
                    format!("<p>{run}</p>"),
                    format!("<p>x<b>{run}</b> {run}</p>"),
                ] {
                    assert_eq!(text(&html), tree_text(&html), "{html:?}");
                }
            }
        }
    }
}
