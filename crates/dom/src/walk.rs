//! The one walk over the final tree: iterative, document pre-order, template contents first.

use crate::features::{ElementInfo, FeatureModel, Features};
use crate::flow::{
    BodyText, MAIN_FLOW_PARAGRAPHS, Paragraphs, amid_prose, class_of, flow_paths,
    has_bare_paragraph, is_prose_block, is_prose_paragraph, own_text, paragraphs, section_level,
};
use crate::paths::{
    PathCollector, child_path, is_field, is_phrasing, is_root, is_template_block, table_label,
    tag_label,
};
use crate::table_rows::{header_row, key_rows};
use crate::tree::{DOCUMENT, Kind, NONE, NodeId, Ns, TreeArena};

/// Walks every element under the document, feeding `model`; returns the element count.
///
/// The contents of a `<template>` (the node right after it in the arena) are walked as its
/// children, before its own children, as ALGORITHM.md §2 and the reference implementation do.
/// Never recursive: a tree of any depth walks in constant stack.
pub(crate) fn walk(arena: &TreeArena, model: &dyn FeatureModel, out: &mut Features) -> u64 {
    // (node, depth, parent element or NONE)
    let mut stack: Vec<(NodeId, u32, NodeId)> = Vec::with_capacity(64);
    push_children(arena, DOCUMENT, 1, NONE, &mut stack);
    let mut elements = 0u64;
    while let Some((id, depth, parent)) = stack.pop() {
        let Some(node) = arena.node(id) else { continue };
        if node.kind != Kind::Element {
            continue;
        }
        elements += 1;
        let info = ElementInfo {
            name: &node.name,
            parent: arena.node(parent).map(|p| &*p.name),
            depth,
        };
        model.element(&info, out);
        push_all_children(arena, id, depth.saturating_add(1), id, &mut stack);
    }
    elements
}

/// Pushes the children of `id` in reverse order, so they pop in document order, each with
/// `depth` and what the walk carries from the parent (`up`).
pub(crate) fn push_children<T: Copy>(
    arena: &TreeArena,
    id: NodeId,
    depth: u32,
    up: T,
    stack: &mut Vec<(NodeId, u32, T)>,
) {
    let mut child = arena.node(id).map_or(NONE, |n| n.last);
    while child != NONE {
        stack.push((child, depth, up));
        child = arena.node(child).map_or(NONE, |n| n.prev);
    }
}

/// The walk of the `class-paths` model: every element's path (its label under its parent's
/// path, or under its flow of prose's, `paths.rs`) goes to `out` with its level (its depth,
/// or 1 for a template block right in the main content); the contents of inline elements
/// are not walked. Same order and template handling as [`walk`]; returns the element count.
/// The arena must be labelled; `main_id` is its [`main_content`].
pub(crate) fn walk_paths(
    arena: &TreeArena,
    out: &mut PathCollector,
    main_id: Option<NodeId>,
) -> u64 {
    // (node, depth, what the parent hands down)
    let mut stack: Vec<(NodeId, u32, Up)> = Vec::with_capacity(64);
    push_children(arena, DOCUMENT, 1, Up::default(), &mut stack);
    let mut elements = 0u64;
    // A main content that holds paragraphs itself (a Markdown page's blocks right in
    // `<main>`) is a flow of prose, as on a page without one; one line of text above a form
    // or an index is not.
    let main_flow = main_id.is_some_and(|id| {
        paragraphs(arena, id, MAIN_FLOW_PARAGRAPHS, Paragraphs::Any) == MAIN_FLOW_PARAGRAPHS
    });
    // A page that marks no main content: its paragraphs say where the prose is.
    let prose_rules = main_id.is_none();
    let (flows, prose_flows) = if prose_rules {
        flow_paths(arena)
    } else {
        Default::default()
    };
    let main_prose = main_flow && main_id.is_some_and(|id| has_bare_paragraph(arena, id));
    // The header rows of the tables met whose labels read their column headers, with the
    // path of each table's parent: where their columns are.
    let mut columns: fnv::FnvHashMap<NodeId, u64> = fnv::FnvHashMap::default();
    // The rows of the key-value tables met, with the path of each table's parent.
    let mut keys: fnv::FnvHashMap<NodeId, u64> = fnv::FnvHashMap::default();
    // The main content's children between its first and its last bare paragraph.
    let amid = match main_id {
        Some(id) if main_flow => amid_prose(arena, id, false).collect(),
        _ => fnv::FnvHashSet::default(),
    };
    // On a page that marks no main content, the children of a `<body>` that holds its text
    // itself (`body_text`), filled in when the walk meets `<body>`.
    let mut body_text = BodyText::default();
    // The children of the flows of prose met (other than the main content) between their
    // first and last paragraph (`amid_prose`): an article's blocks.
    let mut flow_amid: fnv::FnvHashSet<NodeId> = fnv::FnvHashSet::default();
    while let Some((id, depth, up)) = stack.pop() {
        let Some(node) = arena.node(id) else { continue };
        if node.kind != Kind::Element {
            continue;
        }
        elements += 1;
        let phrasing = is_phrasing(&node.name);
        let item_markup = phrasing && is_item_markup(arena, id, up);
        if (up.in_main || up.in_prose) && phrasing && !item_markup {
            // Inside the main content, inline elements are the text's own markup (links,
            // code, emphasis, a highlighter's tokens): which of them an article uses is its
            // content, not its template. They count as elements and add no path. So do those
            // in a paragraph of a page that marks no main content (DocBook, Texinfo, a man
            // page): there the paragraph is what says "prose".
            // The form fields a wrapper holds are the template's all the same.
            let parent = up.flow.unwrap_or(up.path);
            elements += inline_descendants(arena, id, (parent, depth), out);
            continue;
        }
        // In a main content that is a flow, the prose's own blocks (a listing, an
        // admonition, a block between two of its paragraphs) are its content, not the
        // template's. (In the main content an element's label is the arena's: column
        // headers count outside it only.)
        let block = up.main
            && is_template_block(&node.name, arena_label(arena, id))
            && !(main_flow && (is_prose_block(arena, id) || amid.contains(&id)));
        // Below a flow of prose, the classes a block carries (a definition list's kind, an
        // admonition's, a listing's language, a parameter table's) are the prose's
        // vocabulary, not the template's: such an element is labelled by its tag alone (a
        // table outside the main content keeps its column headers), but for a template
        // block of the main content and a form field.
        let prose = up.prose;
        // Below the text a `<body>` holds itself: its content, marked so, its labels kept.
        // (Only `<body>`'s children are looked up.)
        let of_body = node.parent == body_text.body;
        let in_text = up.text || (of_body && body_text.text.contains(&id));
        let classes = if item_markup || (prose && !block && !is_field(node.name.as_bytes())) {
            Classes::Left
        } else {
            Classes::Kept
        };
        let (label, head) = labelled(arena, id, node, up.in_main, classes, up.flow.is_some());
        // In a flow of prose, how the blocks nest (a list in a definition in a section) is
        // the author's: an element is labelled under the flow, whatever lies between.
        let parent = up.flow.unwrap_or(up.path);
        let path = child_path(parent, label);
        let main = main_id == Some(id);
        let starts_flow = up.flow.is_none() && (flows.contains(&path) || (main && main_flow));
        // A flow of prose begun here; a page-wide section named by its level is labelled by
        // its tag alone, and so are its blocks below it (`section_level`).
        let prose_flow = starts_flow
            && !is_root(&node.name)
            && (prose_flows.contains(&path) || (main && main_prose));
        let by_level = prose_flow && !main && section_level(arena, id, node);
        if prose_flow && !main {
            flow_amid.extend(amid_prose(arena, id, true));
        }
        let path = if by_level {
            child_path(parent, tag_label(&node.name))
        } else {
            path
        };
        // A header cell of a table whose column headers its label reads is a column of that
        // name at the table's place (a cell without letters, a column without a name),
        // whatever the table's classes and other columns: two lists of one kind share their
        // columns (one column more, a sort class), two kinds of list do not (the crawl
        // compares pages' own columns, `tables.rs`).
        let column = (node.name == html5ever::local_name!("th"))
            .then(|| columns.get(&node.parent).copied())
            .flatten();
        let (path, table) = match column {
            Some(at) => (column_path(arena, at, id, node), crate::PathSet::TABLE),
            None => (path, 0),
        };
        // (Below a flow of prose a table is the article's: its cells stay under it; but
        // below a line of text, a flow with fewer than `ARTICLE_PARAGRAPHS` paragraphs of its
        // own, an application's list: `thin_flow`.)
        if let Some(row) = head.filter(|_| !prose || up.thin_flow) {
            columns.insert(row, parent);
        } else if !prose
            && !up.in_main
            && up.flow.is_none()
            && node.name == html5ever::local_name!("table")
        {
            // A key-value table (a record's attributes, each row a header cell and its
            // values; `keys`): its keys are its columns turned on their side, what a record
            // of one model shows and another's does not. As for columns, outside the main
            // content and a flow only: there a table is the article's (an infobox, a
            // field list).
            for row in key_rows(arena, id) {
                keys.insert(row, parent);
            }
        }
        // A flow's blocks are its content: lighter than the template's elements at their
        // depth (`FLOW_LEVELS`), so what a page's prose holds moves its fingerprint less.
        let level = if block {
            1
        } else if up.flow.is_some() {
            depth.saturating_add(FLOW_LEVELS)
        } else {
            depth
        };
        let field = arena.fields.binary_search(&id).is_ok();
        // In the main content, outside a flow, a bare paragraph (no class, not a form's row
        // nor a layout table's wrapper) is the page's text as well: its path is marked prose
        // (`main-p=prose`), never the host's frame, though it keeps its place and label
        // (the fingerprint does not read the mark). A Sphinx article's paragraphs lie in its
        // sections, which are no flow; unmarked, every article of a host was mostly frame.
        let text = prose
            || in_text
            || (up.in_main
                && is_prose_paragraph(arena, id)
                && arena_label(arena, id) == tag_label(&node.name));
        let marks = if text { crate::PathSet::PROSE } else { 0 }
            | if field { crate::PathSet::FIELD } else { 0 }
            | table;
        out.add(path, depth, level, marks);
        // A key of a key-value table is a column too, at the table's place and marked so,
        // beside its own path in its row (the key cell's classes, a code browser's
        // `th.author`, still tell its page).
        if let Some(&at) = (node.name == html5ever::local_name!("th") && !keys.is_empty())
            .then(|| keys.get(&node.parent))
            .flatten()
        {
            let key = column_path(arena, at, id, node);
            out.add(key, depth, level, crate::PathSet::TABLE);
            if let Some(names) = out.names.as_mut() {
                names.add(key, at, &format!("{}[key]", node.name));
            }
        }
        // What an author puts beside a paragraph is the article's (a list, a definition, a
        // nested section); the main content's own template blocks are not (an index table,
        // a form, a diff beside the text).
        let article = (up.article
            || (of_body && body_text.articles.contains(&id))
            || flow_amid.contains(&id))
            && !block;
        out.note_article(path, article);
        if let Some(names) = out.names.as_mut() {
            let step = if by_level {
                format!("{}[level]", node.name)
            } else {
                step_name(arena, id, node, up.in_main, classes, up.flow.is_some())
            };
            match column {
                Some(at) => names.add(path, at, &format!("{step}[column]")),
                None => names.add(path, parent, &step),
            }
        }
        if let Some((_, tokens)) = is_root(&node.name)
            .then(|| arena.root_classes.iter().find(|(root, _)| *root == id))
            .flatten()
        {
            // `<html>` and `<body>` classes: each token a path of its own under the element.
            for &token in tokens {
                out.add(child_path(path, token), depth + 1, level + 1, 0);
                if let Some(names) = out.names.as_mut() {
                    names.add(child_path(path, token), path, "(a class)");
                }
            }
        }
        if phrasing {
            // What lies inside inline elements is the text's own markup, not the template's;
            // it still counts as elements. A form field there is the template's (`<b><input
            // name=host></b>`): it is a path under the inline element.
            elements += inline_descendants(arena, id, (path, depth + 1), out);
            continue;
        }
        if prose_rules && node.name == html5ever::local_name!("body") {
            body_text = own_text(arena, id);
        }
        let down = Up {
            flow: if starts_flow { Some(path) } else { up.flow },
            thin_flow: if starts_flow {
                paragraphs(arena, id, ARTICLE_PARAGRAPHS, Paragraphs::Bare) < ARTICLE_PARAGRAPHS
            } else {
                up.thin_flow
            },
            // A flow is prose when a paragraph of its own (or of an element at its path) is
            // bare, with no class: an application's `p.buttons`, `p.author` or
            // `p.other-formats` line in its content area folds the nesting below it, but the
            // page's blocks keep their classes and may be its frame; so do those of a
            // `<body>` that holds paragraphs itself (a footer's, a bare man page's).
            prose: up.prose || prose_flow,
            path,
            main,
            in_main: up.in_main || main,
            in_prose: up.in_prose || (prose_rules && is_prose_paragraph(arena, id)),
            text: in_text,
            article: article
                || ((up.in_main || main || up.prose)
                    && !is_root(&node.name)
                    && has_bare_paragraph(arena, id)),
        };
        push_all_children(arena, id, depth.saturating_add(1), down, &mut stack);
    }
    elements
}

/// Whether inline element `id` of the main content is a list item's own markup, not text: a
/// classed inline element right in an `<li>`, outside a flow of prose and a paragraph
/// (session 72, `item-inline`). A list the template writes marks each item's parts (a
/// blog's archive of posts: `li > time.listdate + a.listtitle`, against its list of months,
/// `li > a`; a table of contents' `li > a.reference`): left out as an article's links are,
/// two lists of other items were one list. Such an element is labelled by its tag alone:
/// which parts an item shows (a change's size up or down, a minor edit's mark) varies from
/// item to item of one list.
fn is_item_markup(arena: &TreeArena, id: NodeId, up: Up) -> bool {
    up.in_main
        && !up.in_prose
        && up.flow.is_none()
        && arena
            .node(arena.parent(id))
            .is_some_and(|p| p.name == html5ever::local_name!("li") && p.ns == Ns::Html)
        && arena.inline_class(id).is_some()
}

/// How `explain.rs` names element `id`'s step in its path: its tag name, then, where its
/// label reads them, its class tokens, and a mark for what else the label holds.
fn step_name(
    arena: &TreeArena,
    id: NodeId,
    node: &crate::tree::Node,
    in_main: bool,
    classes: Classes,
    in_flow: bool,
) -> String {
    let mut step = node.name.to_string();
    let field = is_field(node.name.as_bytes());
    if classes == Classes::Kept && !field {
        match class_of(arena, id) {
            Some(class) => {
                step.push_str(&crate::paths::class_names(class));
                if crate::paths::label(&node.name, Some(class)) != arena_label(arena, id) {
                    // `items.rs` left some of these tokens out of the label.
                    step.push_str("[item]");
                }
            }
            // An inline element's classes, kept for its label.
            None => {
                if let Some(class) = arena.inline_class(id) {
                    step.push_str(&crate::paths::class_names(class));
                } else if arena_label(arena, id) != tag_label(&node.name) && !is_root(&node.name) {
                    step.push_str("[classes]");
                }
            }
        }
    }
    if field {
        step.push_str("[field]");
    } else if !in_main
        && node.name == html5ever::local_name!("table")
        && header_row(arena, id, in_flow).is_some()
    {
        step.push_str("[columns]");
    }
    step
}

/// The label the arena gave element `id`: its tag name and class tokens.
pub(crate) fn arena_label(arena: &TreeArena, id: NodeId) -> u64 {
    arena.label(id)
}

/// Whether [`element_label`] reads an element's classes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Classes {
    /// Its tag name and class tokens (the arena's label).
    Kept,
    /// Its tag name alone: an element below a flow of prose.
    Left,
}

/// An element's label as the walk reads it: outside the main content, a table's column
/// headers are the template's words (a list of tags, a list of branches), below a flow of
/// prose too (an application's list under a line of text); inside it, an article's tables
/// are its content.
pub(crate) fn element_label(
    arena: &TreeArena,
    id: NodeId,
    node: &crate::tree::Node,
    in_main: bool,
    classes: Classes,
) -> u64 {
    labelled(arena, id, node, in_main, classes, false).0
}

/// [`element_label`], and for a table whose column headers it reads, the header row.
fn labelled(
    arena: &TreeArena,
    id: NodeId,
    node: &crate::tree::Node,
    in_main: bool,
    classes: Classes,
    in_flow: bool,
) -> (u64, Option<NodeId>) {
    let label = match classes {
        Classes::Kept => arena_label(arena, id),
        Classes::Left => tag_label(&node.name),
    };
    if !in_main && node.name == html5ever::local_name!("table") && node.ns == Ns::Html {
        header_row(arena, id, in_flow).map_or((label, None), |(row, cells)| {
            (table_label(label, cells), Some(row))
        })
    } else {
        (label, None)
    }
}

/// The page's main content: the first `<main>` or `[role=main]` element in document order,
/// outside template contents and the contents of inline elements, as for the page's text
/// (`text.rs`).
pub(crate) fn main_content(arena: &TreeArena) -> Option<NodeId> {
    if !arena.main_marked {
        return None;
    }
    let mut stack: Vec<(NodeId, u32, ())> = Vec::with_capacity(64);
    push_children(arena, DOCUMENT, 0, (), &mut stack);
    while let Some((id, _, ())) = stack.pop() {
        let Some(node) = arena.node(id) else { continue };
        if node.kind != Kind::Element || is_phrasing(&node.name) {
            continue;
        }
        if arena.is_main(id) {
            return Some(id);
        }
        push_children(arena, id, 0, (), &mut stack);
    }
    None
}

/// Pushes the children of `id`, and after them the contents of a `<template>` `id` (which
/// then pop first): every walk here visits a template's contents before its children, as
/// ALGORITHM.md §2 and the reference implementation do.
pub(crate) fn push_all_children<T: Copy>(
    arena: &TreeArena,
    id: NodeId,
    depth: u32,
    down: T,
    stack: &mut Vec<(NodeId, u32, T)>,
) {
    push_children(arena, id, depth, down, stack);
    if let Some(contents) = arena.node(id.saturating_add(1))
        && contents.kind == Kind::TemplateContents
    {
        push_children(arena, id + 1, depth, down, stack);
    }
}

/// Levels added to the level of every element below a flow of prose (its weight is
/// `decay^FLOW_LEVELS` of an element's at the same depth outside a flow): measured at 1, 2,
/// 12 and at a level fixed under the flow, ALGORITHM.md §3 "Session 34".
const FLOW_LEVELS: u32 = 2;

/// The bare paragraphs a flow of prose must hold itself for its tables to be its text's
/// (an article's table of options): below fewer, a line of text above a list (CUPS's
/// "Showing 3 of 3 printers." above its printers, its classes, its jobs), a table with a
/// header row names its columns as outside a flow (ALGORITHM.md §3, "Session 66").
const ARTICLE_PARAGRAPHS: usize = 2;

/// What [`walk_paths`] hands from an element to its children.
#[derive(Clone, Copy, Default)]
struct Up {
    /// The parent's path.
    path: u64,
    /// Whether the parent is the main content (its template blocks are at level 1).
    main: bool,
    /// Whether the parent is the main content or inside it.
    in_main: bool,
    /// Whether the parent is a `<p>` or inside one, on a page without a main content.
    in_prose: bool,
    /// The path of the prose flow the parent is in: on a page without a main content, the
    /// outermost ancestor-or-self at a path of [`flow_paths`]; else the main content, when
    /// it holds [`MAIN_FLOW_PARAGRAPHS`] paragraphs itself.
    flow: Option<u64>,
    /// Whether that flow holds fewer than [`ARTICLE_PARAGRAPHS`] bare paragraphs of its own
    /// (none, where it is a flow for its path's sake): a line of text above an
    /// application's list, not an article. A table there names its columns as outside a
    /// flow (`flow-tables=thin`).
    thin_flow: bool,
    /// Whether the parent is below a flow of prose with a bare paragraph, other than
    /// `<body>`: its classes are left out of the labels, and its paths are prose
    /// ([`crate::PathSet::PROSE`]).
    prose: bool,
    /// Whether the parent is the text a `<body>` holds itself ([`own_text`]), or inside it:
    /// its paths are prose, their labels as they are.
    text: bool,
    /// Whether the parent is one of an article's blocks, or holds a bare paragraph itself in
    /// the main content or in a flow of prose: its children are an article's blocks
    /// ([`crate::PathSet::is_article_block`]), but for the main content's template blocks.
    article: bool,
}

/// The elements below inline element `id` (template contents included), counted
/// iteratively; each visible form field among them
/// (`TreeArena::fields`: its label holds its name and type) is a path of `parent` at `depth`,
/// marked a field (session 71, `inline-fields`: Nagios's command forms put every field in
/// a `<b>`, and forms that ask for other fields were one page).
fn inline_descendants(
    arena: &TreeArena,
    id: NodeId,
    (parent, depth): (u64, u32),
    out: &mut PathCollector,
) -> u64 {
    let mut stack: Vec<(NodeId, u32, ())> = Vec::new();
    push_children(arena, id, 0, (), &mut stack);
    let mut n = 0;
    while let Some((id, _, ())) = stack.pop() {
        let Some(node) = arena.node(id) else { continue };
        if node.kind != Kind::Element {
            continue;
        }
        n += 1;
        if arena.fields.binary_search(&id).is_ok() {
            let path = child_path(parent, arena_label(arena, id));
            out.add(path, depth, depth, crate::PathSet::FIELD);
            if let Some(names) = out.names.as_mut() {
                names.add(path, parent, &format!("{}[field]", node.name));
            }
        }
        push_all_children(arena, id, 0, (), &mut stack);
    }
    n
}

/// The path of header cell `id` as a column of its text at `at`, its table's place (a cell
/// without letters, the column without a name): a header row's cell or a key-value table's
/// key alike.
fn column_path(arena: &TreeArena, at: u64, id: NodeId, node: &crate::tree::Node) -> u64 {
    let text = arena.header_text(id).unwrap_or(0);
    child_path(at, crate::paths::column_label(tag_label(&node.name), text))
}
