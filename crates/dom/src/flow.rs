//! Where a page's prose lies: its flows of prose (a paragraph of its own, a section of
//! sections), its paragraphs, the text a `<body>` holds itself, and the headings that title
//! and level its sections. [`crate::walk`] reads them to label and level the paths below a
//! flow (ALGORITHM.md §3, 13.–19.).

use crate::paths::{child_path, is_phrasing, is_root, tag_label};
use crate::tree::{DOCUMENT, Kind, NONE, NodeId, Ns, TreeArena};
use crate::walk::{Classes, arena_label, element_label, push_all_children, push_children};

/// The paragraphs a main content must hold itself to be a flow of prose (`main-flow`): one
/// line of text above a search form or an index (Sphinx's `genindex`, `search`) is not
/// prose; measured at 1 and 2, ALGORITHM.md §3 "Session 35".
pub(crate) const MAIN_FLOW_PARAGRAPHS: usize = 2;

/// The paths that hold a flow of prose on a page without a main content: those of the
/// elements, outside any flow, that [`has_paragraph`]. An element at one of these paths is a
/// flow even without a paragraph of its own: the sections of one page (`div.sectionbody`
/// of a man page) are all prose or none, whichever of them opens with a list or a listing.
/// So are the elements whose sections of their own label hold one ([`nested_section`]).
pub(crate) fn flow_paths(arena: &TreeArena) -> (fnv::FnvHashSet<u64>, fnv::FnvHashSet<u64>) {
    let mut flows = fnv::FnvHashSet::default();
    let mut prose = fnv::FnvHashSet::default();
    let mut stack: Vec<(NodeId, u32, u64)> = Vec::with_capacity(64);
    push_children(arena, DOCUMENT, 0, 0, &mut stack);
    while let Some((id, _, parent)) = stack.pop() {
        let Some(node) = arena.node(id) else { continue };
        if node.kind != Kind::Element || is_phrasing(&node.name) {
            continue;
        }
        let path = child_path(parent, element_label(arena, id, node, false, Classes::Kept));
        if has_paragraph(arena, id) {
            flows.insert(path);
            if has_bare_paragraph(arena, id) {
                prose.insert(path);
            }
            continue;
        }
        // A section of sections is the flow its sections' prose is in (`sections=nested`).
        if let Some(bare) = nested_section(arena, id) {
            flows.insert(path);
            if bare {
                prose.insert(path);
            }
            continue;
        }
        push_all_children(arena, id, 0, path, &mut stack);
    }
    (flows, prose)
}

/// Whether classed element `id`, without a paragraph of its own, holds a section that holds
/// one: `Some(bare)`, `bare` whether one such section's paragraph is bare. Such an element
/// is a flow of prose itself (ALGORITHM.md §3, 19.): a section that opens with a paragraph
/// and one that opens with its subsections are one template's, as are their blocks below.
/// A section is a child that holds a paragraph and
/// - carries `id`'s label (a section of sections: DocBook's `div.sect1` around its
///   `div.sect2`s, one label once digits are masked; `sections=nested`, session 67), or
/// - is classed and titled ([`titled`]), where `id` is a titled child of `<body>` whose
///   title is not that child's (a page-wide titled section of titled sections: DocBook's
///   `div.chapter` around its `div.section`s, docutils' `div.document` around its
///   `div.section`s; `sections=titled`, session 68).
pub(crate) fn nested_section(arena: &TreeArena, id: NodeId) -> Option<bool> {
    let node = arena.node(id)?;
    let own = arena_label(arena, id);
    if own == tag_label(&node.name) || is_root(&node.name) {
        return None;
    }
    // A page-wide titled section: its titled, classed children that are not its title are
    // sections too.
    let page_wide = arena.node(node.parent).is_some_and(|p| {
        p.kind == Kind::Element && p.ns == Ns::Html && p.name == html5ever::local_name!("body")
    }) && titled(arena, id);
    let title = if page_wide {
        first_element(arena, id)
    } else {
        NONE
    };
    let mut child = node.first;
    let mut found = None;
    while let Some(c) = arena.node(child) {
        if c.kind == Kind::Element
            && (arena_label(arena, child) == own
                || (page_wide
                    && child != title
                    && arena_label(arena, child) != tag_label(&c.name)
                    && titled(arena, child)))
            && has_paragraph(arena, child)
        {
            found = Some(found.unwrap_or(false) || has_bare_paragraph(arena, child));
        }
        child = c.next;
    }
    found
}

/// The first element child of `id` (`NONE` if it has none).
pub(crate) fn first_element(arena: &TreeArena, id: NodeId) -> NodeId {
    let mut child = arena.node(id).map_or(NONE, |n| n.first);
    while let Some(c) = arena.node(child) {
        if c.kind == Kind::Element {
            return child;
        }
        child = c.next;
    }
    NONE
}

/// How many first children down a heading may lie below the element it titles: DocBook
/// writes a section's heading four levels below it (`div.section` > `div.titlepage` >
/// `div` > `div` > `h2.title`).
pub(crate) const TITLE_DEPTH: usize = 4;

/// Whether element `id` is titled: its first element child is a heading, or that child's
/// first element child, down to [`TITLE_DEPTH`] levels.
pub(crate) fn titled(arena: &TreeArena, id: NodeId) -> bool {
    let mut at = id;
    for _ in 0..TITLE_DEPTH {
        at = first_element(arena, at);
        match arena.node(at) {
            Some(n) if is_heading(n) => return true,
            Some(_) => {}
            None => return false,
        }
    }
    false
}

/// Whether `id` holds a flow of prose: a paragraph of its own ([`paragraphs`]).
pub(crate) fn has_paragraph(arena: &TreeArena, id: NodeId) -> bool {
    paragraphs(arena, id, 1, Paragraphs::Any) == 1
}

/// Whether `id` holds a bare paragraph of its own ([`Paragraphs::Bare`]): what a generator
/// of prose writes; an application's classed `p` lines (`p.buttons`, `p.pagination`) are
/// its template's.
pub(crate) fn has_bare_paragraph(arena: &TreeArena, id: NodeId) -> bool {
    paragraphs(arena, id, 1, Paragraphs::Bare) == 1
}

/// Which paragraphs [`paragraphs`] counts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Paragraphs {
    /// Every `<p>`.
    Any,
    /// A `<p>` without a class token.
    Bare,
}

/// How many paragraphs (of `kind`) `id` holds itself, counted up to `at_most`: `<p>`
/// children, and children other than `<body>` that wrap one paragraph and nothing else
/// (AsciiDoc's `div.paragraph`: a wrapper around a paragraph is part of it), but in a
/// `<body>` with a child that holds prose itself ([`wrappers_count`]).
pub(crate) fn paragraphs(arena: &TreeArena, id: NodeId, at_most: usize, kind: Paragraphs) -> usize {
    let (first, wrapped) = arena
        .node(id)
        .map_or((NONE, false), |n| (n.first, wrappers_count(arena, id)));
    let mut child = first;
    let mut found = 0;
    while let Some(node) = arena.node(child)
        && found < at_most
    {
        if is_own_paragraph(arena, child, kind, wrapped) {
            found += 1;
        }
        child = node.next;
    }
    found
}

/// Whether the wrappers around one paragraph among `id`'s children are paragraphs of `id`:
/// always, but in a `<body>` with a child that holds a paragraph of its own and is no such
/// wrapper (`body-flow=p`). There a wrapped paragraph is a navigation line's or a footer's
/// (Texinfo's `div.header` at the foot of a long node, whose text is in the node's `div`),
/// and taken for the page's prose it made the whole `<body>` one flow, folding the nesting
/// of every page with the footer and of none without it.
pub(crate) fn wrappers_count(arena: &TreeArena, id: NodeId) -> bool {
    let Some(node) = arena.node(id) else {
        return false;
    };
    if !is_root(&node.name) {
        return true;
    }
    let mut child = node.first;
    while let Some(c) = arena.node(child) {
        if c.kind == Kind::Element
            && !is_root(&c.name)
            && !is_own_paragraph(arena, child, Paragraphs::Any, true)
            && has_paragraph(arena, child)
        {
            return false;
        }
        child = c.next;
    }
    true
}

/// Whether child `id` counts as a paragraph (of `kind`) of its parent: a `<p>`, or, when
/// `wrapped` ones count, an element other than `<body>` that wraps one paragraph and
/// nothing else.
pub(crate) fn is_own_paragraph(
    arena: &TreeArena,
    id: NodeId,
    kind: Paragraphs,
    wrapped: bool,
) -> bool {
    let counts = |p: NodeId| {
        is_prose_paragraph(arena, p)
            && (kind == Paragraphs::Any
                || arena_label(arena, p) == tag_label("p")
                || arena.div_paragraphs.binary_search(&p).is_ok())
    };
    counts(id)
        || wrapped
            && arena.node(id).is_some_and(|node| {
                node.kind == Kind::Element
                    && !is_root(&node.name)
                    && only_element_child(arena, id).is_some_and(counts)
            })
}

/// Whether `id` is a paragraph of prose: a `<p>`, or a `<div>` that is one in all but its
/// tag ([`find_paragraphs`], session 73, `div-p`). A `<p>` is one when it holds text (session
/// 71, `empty-p`: a legacy application's `<P>` before a `<DIV>` or a `<TABLE>` is closed by
/// it in standards mode and left empty, a separator, not a paragraph: Nagios's CGIs put four
/// in `<body>`, which made every page one flow of prose and its tables' columns nameless;
/// session 73, `empty-p=text`: a `<p>` of images or links without a word, a header's line
/// of logos, is no more a paragraph than an empty one, but among paragraphs with words,
/// where it is a figure: [`find_paragraphs`]), is not a form's
/// row (it holds a visible field, [`TreeArena::form_rows`]) and not a layout wrapper around
/// a table (a quirks-mode page's `<P><TABLE>…</TABLE></P>`: in quirks mode a table does not
/// close an open paragraph, and legacy applications wrap their layout tables in one). Only
/// a paragraph of prose makes a flow, and hides the paths of the inline elements inside it
/// on a page without a main content.
pub(crate) fn is_prose_paragraph(arena: &TreeArena, id: NodeId) -> bool {
    let Some(node) = arena.node(id) else {
        return false;
    };
    if !is_paragraph(node) {
        return arena.div_paragraphs.binary_search(&id).is_ok();
    }
    (node.text || node.first != NONE && arena.wordless.binary_search(&id).is_err())
        && arena.form_rows.binary_search(&id).is_err()
        && !has_table_child(arena, id)
}

/// Whether a `<p>` with text of its own is among the [`P_NEAR`] elements before and after
/// `id`: there a `<p>` of an image is a figure among a text's paragraphs (Markdown writes a
/// picture so), and one of them.
fn near_worded_p(arena: &TreeArena, id: NodeId) -> bool {
    [false, true]
        .into_iter()
        .any(|forward| siblings(arena, id, forward, P_NEAR).any(|(_, n)| is_paragraph(n) && n.text))
}

/// The most descendants [`has_text_below`] reads: past them, an element counts as holding
/// text (as every `<p>` with a child did before `empty-p=text`).
const TEXT_BELOW_READ: usize = 64;

/// Whether an element below `id` holds text of its own, among the first
/// [`TEXT_BELOW_READ`] descendants in document order (and when there are more), or `id`
/// holds only line breaks (a blank line of a wiki's text, as it was before `empty-p=text`).
fn has_text_below(arena: &TreeArena, id: NodeId) -> bool {
    let mut at = arena.node(id).map_or(NONE, |n| n.first);
    let mut read = 0;
    let mut only_breaks = true;
    while let Some(node) = arena.node(at) {
        read += 1;
        if node.text || read > TEXT_BELOW_READ {
            return true;
        }
        only_breaks &= node.kind != Kind::Element || is_html(node, &html5ever::local_name!("br"));
        if node.first != NONE {
            at = node.first;
            continue;
        }
        // The next node in document order inside `id`: the next sibling of the node or of
        // its nearest ancestor below `id` that has one.
        let mut up = node;
        loop {
            if up.next != NONE {
                at = up.next;
                break;
            }
            if up.parent == id {
                return only_breaks;
            }
            match arena.node(up.parent) {
                Some(parent) => up = parent,
                None => return only_breaks,
            }
        }
    }
    only_breaks
}

/// Whether element `id` has a `<table>` child.
pub(crate) fn has_table_child(arena: &TreeArena, id: NodeId) -> bool {
    let mut child = arena.node(id).map_or(NONE, |n| n.first);
    while let Some(node) = arena.node(child) {
        if is_html(node, &html5ever::local_name!("table")) {
            return true;
        }
        child = node.next;
    }
    false
}

/// Whether `node` is an HTML `<p>` element.
pub(crate) fn is_paragraph(node: &crate::tree::Node) -> bool {
    is_html(node, &html5ever::local_name!("p"))
}

/// Whether `node` is an HTML `<pre>` element.
pub(crate) fn is_pre(node: &crate::tree::Node) -> bool {
    is_html(node, &html5ever::local_name!("pre"))
}

/// Whether `node` is the HTML element `name`.
pub(crate) fn is_html(node: &crate::tree::Node, name: &html5ever::LocalName) -> bool {
    node.kind == Kind::Element && node.ns == Ns::Html && node.name == *name
}

/// The element child of `id`, when it has exactly one.
pub(crate) fn only_element_child(arena: &TreeArena, id: NodeId) -> Option<NodeId> {
    let mut child = arena.node(id).map_or(NONE, |n| n.first);
    let mut only = None;
    while let Some(node) = arena.node(child) {
        if node.kind == Kind::Element {
            if only.is_some() {
                return None;
            }
            only = Some(child);
        }
        child = node.next;
    }
    only
}

/// The children of `parent` that lie between its first and its last child that is (or
/// wraps, as [`paragraphs`] counts) a bare paragraph, but forms, and but tables unless
/// `tables`: what an author puts between two paragraphs of an article (a disclosure, a
/// diagram, a block an API renderer wrote) is the article's, not its template's. In the
/// main content a table there still tells one page kind from another (`amid=prose`, with
/// `tables` false); in a flow of prose other than the main content (a DocBook section, a
/// Texinfo node) a table is the text's, as it names no columns there (session 74,
/// `flow-amid`, with `tables` true). None when `parent` has fewer than two such children.
pub(crate) fn amid_prose(
    arena: &TreeArena,
    parent: NodeId,
    tables: bool,
) -> impl Iterator<Item = NodeId> + '_ {
    let mut span = paragraph_span(arena, parent).unwrap_or_default();
    // Neither the last paragraph nor (`skip`) the first.
    span.pop();
    span.into_iter()
        .skip(1)
        .map(|(id, _)| id)
        .filter(move |&id| {
            arena.node(id).is_some_and(|n| {
                !is_html(n, &html5ever::local_name!("form"))
                    && (tables || !is_html(n, &html5ever::local_name!("table")))
            })
        })
}

/// Whether element `id` is a `<table>` or a `<form>`: among the paragraphs of a text, still
/// the template's.
pub(crate) fn is_table_or_form(arena: &TreeArena, id: NodeId) -> bool {
    arena.node(id).is_none_or(|n| {
        is_html(n, &html5ever::local_name!("table")) || is_html(n, &html5ever::local_name!("form"))
    })
}

/// The element children of `parent` from its first to its last child that is (or wraps,
/// as [`paragraphs`] counts) a bare paragraph, both included, each with whether it is one;
/// `None` without one.
pub(crate) fn paragraph_span(arena: &TreeArena, parent: NodeId) -> Option<Vec<(NodeId, bool)>> {
    let mut children = Vec::new();
    let (mut first, mut last) = (None, None);
    let (mut child, wrapped) = arena
        .node(parent)
        .map_or((NONE, false), |n| (n.first, wrappers_count(arena, parent)));
    while let Some(node) = arena.node(child) {
        if node.kind == Kind::Element {
            let paragraph = is_own_paragraph(arena, child, Paragraphs::Bare, wrapped);
            if paragraph {
                first.get_or_insert(children.len());
                last = Some(children.len());
            }
            children.push((child, paragraph));
        }
        child = node.next;
    }
    let (first, last) = (first?, last?);
    children.truncate(last + 1);
    children.drain(..first);
    Some(children)
}

/// The text a `<body>` holds itself ([`own_text`]).
pub(crate) struct BodyText {
    /// The `<body>` (`NONE` where it holds no text).
    pub(crate) body: NodeId,
    /// Its children from its first to its last bare paragraph: they and all below them are
    /// prose.
    pub(crate) text: fnv::FnvHashSet<NodeId>,
    /// Those of them that are an article's blocks, with all below them: the paragraphs and
    /// what lies between them, but tables and forms ([`amid_prose`]).
    pub(crate) articles: fnv::FnvHashSet<NodeId>,
}

impl Default for BodyText {
    fn default() -> Self {
        Self {
            body: NONE,
            text: fnv::FnvHashSet::default(),
            articles: fnv::FnvHashSet::default(),
        }
    }
}

/// The text `<body>` `body` holds itself, on a page that marks no main content: where it
/// holds [`MAIN_FLOW_PARAGRAPHS`] bare paragraphs itself (as [`paragraphs`] counts them),
/// its children from the first to the last. A hand-written manual page (SQLite's), a
/// Texinfo node, a man page put their text right in `<body>`, below the site's header; a
/// footer's one line is none. Its paths are prose, and its paragraphs and blocks (tables
/// and forms aside) an article's: their labels and levels stay as they are (the
/// fingerprint does not change), and the crawl compares two such pages as two articles,
/// not on which blocks each author wrote (ALGORITHM.md §3, "Session 63"). A table among
/// the paragraphs is prose as well: a man page's table of options holds paragraphs at the
/// path of the text's own, and a path is prose only where it always is.
pub(crate) fn own_text(arena: &TreeArena, body: NodeId) -> BodyText {
    let Some(span) = paragraph_span(arena, body) else {
        return BodyText::default();
    };
    if span.iter().filter(|&&(_, paragraph)| paragraph).count() < MAIN_FLOW_PARAGRAPHS {
        return BodyText::default();
    }
    let inner = 1..span.len().saturating_sub(1);
    let articles = span
        .iter()
        .enumerate()
        .filter(|&(at, &(id, paragraph))| {
            paragraph || (inner.contains(&at) && !is_table_or_form(arena, id))
        })
        .map(|(_, &(id, _))| id)
        .collect();
    let text = span.into_iter().map(|(id, _)| id).collect();
    BodyText {
        body,
        text,
        articles,
    }
}

/// Whether a child `id` of a main content that is a flow is prose itself: a listing (a
/// `<pre>`, or an element whose only element child is, down to a `<pre>`: a highlighter's
/// `div.highlight`), or an element that [`has_paragraph`] (an admonition).
pub(crate) fn is_prose_block(arena: &TreeArena, id: NodeId) -> bool {
    if has_paragraph(arena, id) {
        return true;
    }
    let mut at = Some(id);
    while let Some(element) = at {
        if arena.node(element).is_some_and(is_pre) {
            return true;
        }
        at = only_element_child(arena, element);
    }
    false
}

/// Whether element `id`, a flow of prose, is a page-wide section named by its level
/// (`section-level=tag`): a child of `<body>` whose first heading carries one of its class
/// tokens, or the start of one before a `-` (Texinfo's `div.chapter` around `h2.chapter`,
/// `div.section` around `h3.section`; a newer `makeinfo`'s `div.section-level-extent`). Such
/// a section is labelled by its tag alone, and so are its blocks below it. A manual's nodes
/// are one template whatever their level, and the level's class keyed the section and
/// every block below it: two nodes of one level shared their paths, two of two levels
/// only the navigation line's (held-out Octave manual: 19 pages kept of 507, 4 since;
/// ALGORITHM.md §3, 18.). Where the heading does not repeat the class (`div.document`
/// around `h1.title`, an application's `div.content` around a bare `h1`) the class is the
/// template's.
pub(crate) fn section_level(arena: &TreeArena, id: NodeId, node: &crate::tree::Node) -> bool {
    if !arena
        .node(node.parent)
        .is_some_and(|p| is_html(p, &html5ever::local_name!("body")))
    {
        return false;
    }
    let Some(own) = class_of(arena, id) else {
        return false;
    };
    let mut child = node.first;
    while let Some(c) = arena.node(child) {
        if c.kind == Kind::Element && is_heading(c) {
            let echoes = |token: &str| {
                own.split_ascii_whitespace().any(|o| {
                    o.eq_ignore_ascii_case(token)
                        || o.get(..token.len()).is_some_and(|head| {
                            head.eq_ignore_ascii_case(token)
                                && o.as_bytes().get(token.len()) == Some(&b'-')
                        })
                })
            };
            return class_of(arena, child)
                .is_some_and(|class| class.split_ascii_whitespace().any(echoes));
        }
        child = c.next;
    }
    false
}

/// Whether `node` is a heading, `<h1>` to `<h6>`.
pub(crate) fn is_heading(node: &crate::tree::Node) -> bool {
    node.ns == Ns::Html
        && matches!(
            node.name.as_bytes(),
            b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6"
        )
}

/// The `class` of element `id` as written, when the arena keeps it (a classed element other
/// than a root, an inline element or a form field).
pub(crate) fn class_of(arena: &TreeArena, id: NodeId) -> Option<&str> {
    let at = arena
        .classes
        .binary_search_by_key(&id, |&(c, _, _)| c)
        .ok()?;
    let &(_, start, end) = arena.classes.get(at)?;
    arena.class_text.get(start as usize..end as usize)
}

/// The `<div>`s of the page that are paragraphs of prose (session 73, `div-p`), sorted: what
/// a generator that writes no `<p>` makes of an author's paragraphs (Publican's DocBook
/// `div.para`). A `<div>` is one when its own text is a sentence (5 words or more, its last
/// visible character ending a sentence: [`crate::tree::TextSummary`]), its children are
/// inline elements without a line break, an image or a field, no `<p>` is among the
/// [`P_NEAR`] elements before and after it (where a text has `<p>`s, those are its
/// paragraphs and a `<div>` of text is a block beside them), and its label is carried by
/// two such `<div>`s no more than [`RUN_NEAR`] elements apart somewhere on the page, in a
/// parent that holds an element of another label too and in which at least half of the
/// `<div>`s of that label are such: a text's paragraphs follow one another below a title or
/// beside a list, and a generator writes them all alike. A lone line of text among an
/// application's blocks (a commit's description) is none, nor are a program's lines (most
/// of them no sentence, the comments' lines that are one beside them) or a message's lines
/// (`<br>`). Such a `<div>` is a bare paragraph ([`Paragraphs::Bare`]) whatever its classes:
/// they are the generator's word for a paragraph. Run once the tree's shape is final; costs
/// one pass over the elements.
///
/// Beside them, in the same pass, the `<p>`s with elements but without a word (session 73,
/// `empty-p=text`), sorted: no text among their first [`TEXT_BELOW_READ`] descendants
/// ([`has_text_below`]) and no `<p>` with words among their neighbours ([`near_worded_p`]),
/// so that [`is_prose_paragraph`], asked for the same `<p>` by every flow test, only looks
/// it up. Returns `(divs, wordless)`.
pub(crate) fn find_paragraphs(arena: &TreeArena) -> (Vec<NodeId>, Vec<NodeId>) {
    let mut found = Vec::new();
    let mut wordless = Vec::new();
    for (i, node) in arena.nodes.iter().enumerate() {
        let Ok(id) = NodeId::try_from(i) else { break };
        if is_paragraph(node) {
            if !node.text
                && node.first != NONE
                && !has_text_below(arena, id)
                && !near_worded_p(arena, id)
            {
                wordless.push(id);
            }
        } else if is_prose_div(arena, id) && !near_p(arena, id) {
            found.push(id);
        }
    }
    let mut labels = fnv::FnvHashSet::default();
    // Whether a parent holds an element of another label than the one asked (each parent
    // and label read once).
    let mut mixed = fnv::FnvHashMap::default();
    for &id in &found {
        let label = arena_label(arena, id);
        if labels.contains(&label) || !run_of(arena, id, label, &found) {
            continue;
        }
        let parent = arena.node(id).map_or(NONE, |n| n.parent);
        let mut other = || {
            let (mut others, mut alike, mut prose) = (false, 0_usize, 0_usize);
            let mut child = arena.node(parent).map_or(NONE, |n| n.first);
            while let Some(node) = arena.node(child) {
                if node.kind == Kind::Element {
                    if arena_label(arena, child) == label {
                        alike += 1;
                        prose += usize::from(is_prose_div(arena, child));
                    } else {
                        others = true;
                    }
                }
                child = node.next;
            }
            others && 2 * prose >= alike
        };
        if *mixed.entry((parent, label)).or_insert_with(&mut other) {
            labels.insert(label);
        }
    }
    found.retain(|&id| labels.contains(&arena_label(arena, id)));
    (found, wordless)
}

/// How many elements before and after a `<div>` of prose [`find_paragraphs`] looks at for a
/// `<p>`.
const P_NEAR: usize = 16;

/// How far apart, in elements, two `<div>`s of prose of one label make a run of paragraphs
/// ([`find_paragraphs`]).
const RUN_NEAR: usize = 4;

/// The fewest words of a `<div>`'s own text for a sentence ([`find_paragraphs`]).
const SENTENCE_WORDS: u8 = 5;

/// Whether `id` is a `<div>` of prose ([`find_paragraphs`]) but for its neighbours.
fn is_prose_div(arena: &TreeArena, id: NodeId) -> bool {
    let Some(node) = arena.node(id) else {
        return false;
    };
    if !is_html(node, &html5ever::local_name!("div"))
        || !node.text
        || node.words < SENTENCE_WORDS
        || !node.sentence
    {
        return false;
    }
    let mut child = node.first;
    while let Some(c) = arena.node(child) {
        if c.kind == Kind::Element
            && (c.ns != Ns::Html || !is_phrasing(&c.name) || c.name == html5ever::local_name!("br"))
        {
            return false;
        }
        child = c.next;
    }
    true
}

/// Whether a `<p>` is among the [`P_NEAR`] elements before and after `id`.
fn near_p(arena: &TreeArena, id: NodeId) -> bool {
    [false, true]
        .into_iter()
        .any(|forward| siblings(arena, id, forward, P_NEAR).any(|(_, n)| is_paragraph(n)))
}

/// Whether another element of `label` in `found` is among the [`RUN_NEAR`] elements after
/// `id`.
fn run_of(arena: &TreeArena, id: NodeId, label: u64, found: &[NodeId]) -> bool {
    siblings(arena, id, true, RUN_NEAR)
        .any(|(at, _)| found.binary_search(&at).is_ok() && arena_label(arena, at) == label)
}

/// The first `count` element siblings of `id`, after it (`forward`) or before it.
fn siblings(
    arena: &TreeArena,
    id: NodeId,
    forward: bool,
    count: usize,
) -> impl Iterator<Item = (NodeId, &crate::tree::Node)> {
    let step = move |n: &crate::tree::Node| if forward { n.next } else { n.prev };
    let mut at = arena.node(id).map_or(NONE, step);
    std::iter::from_fn(move || {
        while let Some(node) = arena.node(at) {
            let here = at;
            at = step(node);
            if node.kind == Kind::Element {
                return Some((here, node));
            }
        }
        None
    })
    .take(count)
}
