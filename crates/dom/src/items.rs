//! The labels a list's items share (`class-paths`, ALGORITHM.md §3, 2.): class tokens that
//! name an item or the page, not its kind, are left out of labels.
//!
//! - **Siblings of one kind in the main content**: children of one parent inside the page's
//!   main content (`walk::main_content`) with the same tag name whose class lists share a
//!   token (directly or through other such siblings) are items of one list. Only the tokens
//!   *all* of them carry stay in their labels: what one item has and another has not (a
//!   post's `category-news tag-foo sticky`, a Markdown table cell's `leftalign`, a list item's
//!   `node`, an API page's `dl.py.method` beside `dl.py.class`) is that item's data, as its
//!   id's digits are. Where no token is carried by all (items joined only through one
//!   another, session 66, `bare-items`), none stays: Javadoc's summary tables are rows of
//!   `div`s, each cell marked with its column and its row's stripe (`col-first
//!   table-header`, `col-first even-row-color`, `col-last odd-row-color`), so a table of one
//!   row, without an odd row, had cells of its own.
//!   - **Cousins too**: children of parents *of one label* that are themselves children of
//!     one element in the main content are one list as well (session 54). A list split
//!     into groups, one per day or section, is still one list: MediaWiki's recent changes
//!     are one `table.mw-changeslist-line` per changed page, in one `div` per day, and a
//!     day with one change had kept its page's `mw-changeslist-ns0-hexdump`, its
//!     `mw-changeslist-minor` and every other flag in its label; a Sphinx module's
//!     `dl.py.class` in one `section` and `dl.py.function` in the next are one list's items
//!     as they are side by side. One level only: the parents' own siblings of one label,
//!     not their cousins.
//!   - **Nested items too** (session 70, `items=nested`): an element whose nearest
//!     ancestor of its tag name, a few levels up in the main content, shares a class token
//!     with it is an item of that ancestor's list. A blog's threaded comments are
//!     `li.comment` in `ol.comment-list`, replies `li.comment` in the comment's
//!     `ol.children`, and WordPress marks them `even`/`odd`, `thread-even`/`thread-odd` over
//!     all of them: a post whose top-level comments happened all to be `even` kept `even` in
//!     their labels, another post did not, and a blog's posts were one layout per mix of
//!     replies (held-out WordPress: 11 posts kept, 7 since).
//!   - Siblings that share no token (`td.age`, `td.author`) are not one list.
//!   - Inline elements are left alone: inside the main content they add no path anyway.
//!   - Outside the main content a list's item names are the frame's (an application's
//!     submenu `a.label.sml-all`, `a.label.sml-closed` names a page kind's actions) and stay.
//! - **The page's own tokens**: a token that `<html>` or `<body>` carries names the page
//!   (`category-news` on a category's archive); on an element below, it names the page as
//!   well and is left out of that element's label.
//! - **Tokens the page links to**: inside the main content, a token that spells one of the
//!   page's links (`paths::link_token_labels`: `category-news` beside a link to
//!   `/category/news/`, `tag-foo` beside `/tag/foo/` or `?tag=foo`) names what the element
//!   is about, not its kind: a single blog post's `<article>` carries its categories and
//!   tags, and the page links to them. It is left out of the element's label, lone or not.
//!   Only the main content's tokens with a `-` are looked for, each link's first segment
//!   against their prefixes first: most pages' links are passed over at that segment.
//!
//! - **The root's tokens the page links to**: a token of `<html>` or `<body>` that the path
//!   of one of the page's links spells (`category-news` beside a link to `/category/news/`,
//!   `tag-foo` beside `/tag/foo/`, `author-x` beside `/author/x/`) names the page's item, not
//!   its kind: it adds no path of its own (`walk.rs` gives each root token one), so a
//!   blog's archive pages are one kind. A link's query is not read here: MediaWiki's
//!   `action-history` beside `?action=history` names a kind of page.
//!
//! - **Tokens that name a page the rows link to** (`named_pages`): a token that two or more
//!   siblings carry, anywhere below the root, whose tail after a prefix is the name of a
//!   page a link inside one of them leads to (Doxygen's `pub_methods_classEigen_1_1Rotation
//!   Base` on the rows a class inherits, each linking to `classEigen_1_1RotationBase.html`)
//!   names what the rows come from, not their kind: it is left out of every label, so two
//!   classes with other bases are one layout. Only where every token of that prefix among
//!   siblings names such a page, and only names of six bytes or more (`code`, `type` and
//!   `block` are words a class uses of its own).
//!
//! Only the tokens a label holds count (the first 16 in normalised order). Deterministic in
//! the page's bytes alone, as every label is: nothing is learned across pages.

use crate::paths::{
    MAX_CLASS_TOKENS, MIN_NAME_BYTES, bytes_hash, class_token_labels, class_tokens,
    label_of_tokens, link_name_label, link_token_labels, linkable_tokens, token_label, token_tails,
};
use crate::tree::{Kind, NONE, NodeId, TreeArena};
use fnv::{FnvHashMap, FnvHashSet};

/// One classed element: its parent if that is in the main content (else `NONE`: no list),
/// the list it is in, its class in `TreeArena::class_text`, and the tokens of its label (each as
/// `Token::root_label`, sorted by that hash) as an index into the page's distinct classes'
/// tokens ([`Classes`]).
struct Item {
    parent: NodeId,
    /// The list it is an item of, with the items of its tag name: its grandparent and its
    /// parent's label, or its parent alone (see [`share_item_labels`]).
    group: (NodeId, bool, u64),
    id: NodeId,
    span: (u32, u32),
    tokens: u32,
}

/// The tokens of each distinct class value of a page (`paths::class_token_labels`), made
/// once per value: most of a page's classed elements repeat a few values (a table's
/// `t-dsc` rows), and tokenising each again was most of this module's work.
#[derive(Default)]
struct Classes<'a> {
    index: FnvHashMap<&'a str, u32>,
    tokens: Vec<Vec<u64>>,
}

impl<'a> Classes<'a> {
    /// The index of `class`'s tokens, made if new.
    fn of(&mut self, class: &'a str) -> u32 {
        let next = u32::try_from(self.tokens.len()).unwrap_or(u32::MAX);
        *self.index.entry(class).or_insert_with(|| {
            self.tokens.push(class_token_labels(class));
            next
        })
    }

    /// The tokens at `index`, from [`of`](Self::of).
    fn get(&self, index: u32) -> &[u64] {
        self.tokens.get(index as usize).map_or(&[], Vec::as_slice)
    }
}

/// Relabels the classed elements of `arena` (labelled, parsed) as the module docs say.
/// `main` is the page's main content (`walk::main_content`).
pub(crate) fn share_item_labels(arena: &mut TreeArena, main: Option<NodeId>) {
    let mut page: Vec<u64> = arena
        .root_classes
        .iter()
        .flat_map(|(_, tokens)| tokens.iter().copied())
        .collect();
    page.sort_unstable();
    drop_linked_root_tokens(arena);
    let named = named_pages(arena);
    let current = crate::markers::current_marks(arena);
    if arena.classes.is_empty()
        || (page.is_empty() && main.is_none() && named.is_empty() && current.marks.is_empty())
    {
        return;
    }
    // Whether a node is the main content or inside it, found by walking up from it and
    // remembered for every node on the way (0 not known yet, 1 inside, 2 not): each node is
    // walked through once, whatever the depth.
    let mut known = vec![0u8; if main.is_some() { arena.nodes.len() } else { 0 }];
    let mut path: Vec<NodeId> = Vec::new();
    let mut in_main = |arena: &TreeArena, id: NodeId| -> bool {
        let Some(main) = main else { return false };
        let mut at = id;
        let state = loop {
            match known.get(at as usize) {
                None => break 2,
                Some(&k) if k != 0 => break k,
                Some(_) if at == main => break 1,
                Some(_) => {
                    path.push(at);
                    // A template's contents lie right after it and have no parent.
                    at = match arena.node(at) {
                        Some(n) if n.kind == Kind::TemplateContents => at - 1,
                        _ => arena.parent(at),
                    };
                }
            }
        };
        for &n in &path {
            known[n as usize] = state;
        }
        path.clear();
        state == 1
    };
    let mut items: Vec<Item> = Vec::new();
    let mut classes = Classes::default();
    // Each classed element of the main content met so far: its list and its tokens.
    let mut nested: FnvHashMap<NodeId, ((NodeId, bool, u64), u32)> = FnvHashMap::default();
    let text = arena.class_text.as_str();
    for &(id, start, end) in &arena.classes {
        let parent = arena.parent(id);
        if parent == NONE {
            continue;
        }
        let in_list = in_main(arena, parent);
        if !in_list && page.is_empty() && named.is_empty() && current.marks.is_empty() {
            continue;
        }
        let class = text.get(start as usize..end as usize).unwrap_or("");
        // Cousins under parents of one label are one list: a grandparent in the main content
        // and the parent's label; a parent without such a grandparent is a list of its own
        // children.
        let tokens = classes.of(class);
        let group = if !in_list {
            (NONE, false, 0)
        } else if let Some(&group) = nesting(arena, id, main, &nested, &classes, tokens) {
            group
        } else {
            let grandparent = arena.parent(parent);
            if grandparent == NONE || !in_main(arena, grandparent) {
                (parent, false, 0)
            } else {
                let label = arena.labels.get(parent as usize).copied().unwrap_or(0);
                (grandparent, true, label)
            }
        };
        if in_list {
            nested.insert(id, (group, tokens));
        }
        items.push(Item {
            parent: if in_list { parent } else { NONE },
            group,
            id,
            span: (start, end),
            tokens,
        });
    }
    let linked = linked_tokens(arena, &items);
    let name = |id: NodeId| arena.node(id).map(|n| &n.name);
    // Items of one list and one name in the main content next to each other, in creation
    // order; the elements outside it (no list: `parent` NONE, each alone) after them, as
    // they come. Names are ordered by their atoms' hashes first: only which items are
    // together matters, not in which order the lists come.
    let lists = items.iter().filter(|i| i.parent != NONE).count();
    items.sort_by_key(|i| i.parent == NONE);
    items[..lists].sort_unstable_by(|a, b| {
        a.group
            .cmp(&b.group)
            .then_with(|| match (name(a.id), name(b.id)) {
                (Some(x), Some(y)) if x != y => (x.get_hash(), &**x).cmp(&(y.get_hash(), &**y)),
                (x, y) => x.is_some().cmp(&y.is_some()),
            })
            .then(a.id.cmp(&b.id))
    });
    let mut relabel: Vec<(NodeId, u64)> = Vec::new();
    let mut start = 0;
    while start < items.len() {
        let (parent, group, first) = (
            items[start].parent,
            items[start].group,
            name(items[start].id),
        );
        let end = if parent == NONE {
            start + 1
        } else {
            start
                + items[start..]
                    .iter()
                    .take_while(|i| i.group == group && name(i.id) == first)
                    .count()
        };
        let group = &items[start..end];
        let shared = shared_tokens(group, &classes);
        for (item, shared) in group.iter().zip(shared) {
            let keep = |t: &u64| {
                (page.binary_search(t).is_err()
                    || current.names.binary_search(&(item.id, *t)).is_ok())
                    && named.binary_search(t).is_err()
                    && current.marks.binary_search(&(item.id, *t)).is_err()
                    && (parent == NONE || linked.binary_search(t).is_err())
                    && shared.as_ref().is_none_or(|s| s.binary_search(t).is_ok())
            };
            if classes.get(item.tokens).iter().all(keep) {
                continue;
            }
            let (s, e) = item.span;
            let class = arena.class_text.get(s as usize..e as usize).unwrap_or("");
            let mut kept = class_tokens(class);
            kept.truncate(MAX_CLASS_TOKENS);
            kept.retain(|t| keep(&t.root_label()));
            relabel.push((
                item.id,
                label_of_tokens(name(item.id).map_or("", |n| &**n), &kept),
            ));
        }
        start = end;
    }
    for (id, label) in relabel {
        if let Some(slot) = arena.labels.get_mut(id as usize) {
            *slot = label;
        }
    }
}

/// The list of the nearest ancestor of element `id` (below `main`, at most [`MAX_NEST`]
/// levels up) with its tag name that shares a class token with it (`tokens`, its index in
/// `classes`): a reply nested in a comment is an item of the comment's thread.
fn nesting<'m>(
    arena: &TreeArena,
    id: NodeId,
    main: Option<NodeId>,
    nested: &'m FnvHashMap<NodeId, ((NodeId, bool, u64), u32)>,
    classes: &Classes<'_>,
    tokens: u32,
) -> Option<&'m (NodeId, bool, u64)> {
    let name = &arena.node(id)?.name;
    let mine = classes.get(tokens);
    let mut at = arena.parent(id);
    for _ in 0..MAX_NEST {
        if at == NONE || Some(at) == main {
            return None;
        }
        if let Some((group, theirs)) = nested.get(&at)
            && arena.node(at).is_some_and(|n| n.name == *name)
            && classes
                .get(*theirs)
                .iter()
                .any(|t| mine.binary_search(t).is_ok())
        {
            return Some(group);
        }
        at = arena.parent(at);
    }
    None
}

/// The most levels [`nesting`] looks up for an item's list.
const MAX_NEST: usize = 8;

/// Leaves out of `arena.root_classes` the tokens that the path of one of the page's links
/// spells (the link's query is not read; see the module docs).
fn drop_linked_root_tokens(arena: &mut TreeArena) {
    let (tokens, prefixes) = std::mem::take(&mut arena.root_linkable);
    let linked = spelled_by_links(arena, tokens, prefixes, Query::Left);
    if !linked.is_empty() {
        for (_, root) in &mut arena.root_classes {
            root.retain(|t| linked.binary_search(t).is_err());
        }
    }
}

/// The class tokens that name a page the page links to (`pub_methods_classEigen_1_1Rotation
/// Base` on Doxygen's rows of what a class inherits, each row or its list holding a link to
/// `classEigen_1_1RotationBase.html`):
/// - two or more siblings of one tag carry the token (not a root: a site's wrapper
///   `tpl_dokuwiki` is no page's name, even where a page links to a page `dokuwiki`);
/// - its tail after a prefix (`paths::token_tails`) is the name of a page
///   (`paths::link_name_label`) that a link inside one of those siblings leads to (Sphinx's
///   `dt.sig-object` is no page's name, even on a page that links to `object.html`);
/// - and so is the tail of every other such token with that prefix: MediaWiki's API help
///   marks its blocks `apihelp-block`, `apihelp-flags`, `apihelp-examples`, and the block
///   about its module `block` links to that module's page (a name under six bytes as well,
///   `paths::link_name_label`).
///
/// Sorted and distinct; none without such a token.
fn named_pages(arena: &TreeArena) -> Vec<u64> {
    /// The most ancestors of a link looked at for a sibling that carries the token.
    const MAX_UP: usize = 32;
    let mut named = Vec::new();
    if arena.links.is_empty() {
        return named;
    }
    // The classed elements whose class has a separator, by parent: only siblings matter.
    let mut elements: Vec<(NodeId, NodeId, &str)> = arena
        .classes
        .iter()
        .filter_map(|&(id, s, e)| {
            let class = arena.class_text.get(s as usize..e as usize)?;
            class
                .bytes()
                .any(|b| b == b'_' || b == b'-')
                .then(|| (arena.parent(id), id, class))
        })
        .collect();
    elements.sort_unstable_by_key(|e| (e.0, e.1));
    // Each token with a tail that two or more siblings could carry, with the element that
    // carries it: (the token's bytes hashed, parent, tag, element, the token as written).
    // A tail that names no page still speaks for its prefix.
    let mut carried: Vec<(u64, NodeId, u64, NodeId, &str)> = Vec::new();
    for siblings in elements.chunk_by(|a, b| a.0 == b.0) {
        if siblings.len() < 2 {
            continue;
        }
        for &(parent, id, class) in siblings {
            let tag = arena.node(id).map_or(0, |n| n.name.get_hash());
            for token in class.split_ascii_whitespace().take(MAX_CLASS_TOKENS) {
                let bytes = token.as_bytes();
                if bytes.len() > 2
                    && bytes[1..bytes.len() - 1]
                        .iter()
                        .any(|&b| b == b'_' || b == b'-')
                {
                    carried.push((bytes_hash(bytes), parent, tag, id, token));
                }
            }
        }
    }
    carried.sort_unstable_by_key(|c| (c.0, c.1, c.2, c.3));
    // A token written twice in one class is carried once.
    carried.dedup_by_key(|c| (c.0, c.3));
    // The names of the pages that links inside each token's carriers lead to:
    // (token, name), and each link's name once computed (most links are in no carrier).
    let mut linked: Vec<(u64, u64)> = Vec::new();
    let mut names: Vec<Option<Option<u64>>> = Vec::new();
    let mut shared: Vec<&str> = Vec::new();
    let mut buf = String::new();
    // Links looked at, bounded: nested carriers see their links again.
    let mut budget = 4 * arena.links.len() + 64;
    for siblings in carried.chunk_by(|a, b| (a.0, a.1, a.2) == (b.0, b.1, b.2)) {
        if siblings.len() < 2 {
            continue;
        }
        let written = siblings[0].4;
        shared.push(written);
        // A token whose longest tail (after its first separator) is too short for a name
        // (`toctree-l1`) only speaks for its prefix: its links are not read.
        let first = written.bytes().skip(1).position(|b| b == b'_' || b == b'-');
        if first.is_none_or(|at| written.len() < at + 2 + MIN_NAME_BYTES) {
            continue;
        }
        let token = token_label(written);
        if names.is_empty() {
            names = vec![None; arena.links.len()];
        }
        for &(_, _, _, carrier, _) in siblings {
            // Its descendants were created after it, up to its last descendant (a node the
            // tree builder moved may lie outside: each link found is checked by its parents).
            // Deeper than a link's parents are read, the rest of the page is looked at,
            // within the budget: a deep nest of such siblings costs no walk per sibling.
            let mut end = carrier;
            for _ in 0..MAX_UP {
                match arena.node(end) {
                    Some(n) if n.last != NONE => end = n.last,
                    _ => break,
                }
            }
            if arena.node(end).is_some_and(|n| n.last != NONE) {
                end = NodeId::MAX;
            }
            let from = arena.links.partition_point(|l| l.0 <= carrier);
            for (k, &(link, s, e)) in arena.links[from..].iter().enumerate() {
                if link > end || budget == 0 {
                    break;
                }
                budget -= 1;
                let mut up = arena.parent(link);
                let mut steps = 0;
                while up != carrier && up != NONE && steps < MAX_UP {
                    up = arena.parent(up);
                    steps += 1;
                }
                if up != carrier {
                    continue;
                }
                let name = *names[from + k].get_or_insert_with(|| {
                    let href = arena.link_text.get(s as usize..e as usize).unwrap_or("");
                    link_name_label(href, &mut buf)
                });
                if let Some(name) = name {
                    linked.push((token, name));
                }
            }
        }
    }
    if shared.is_empty() || linked.is_empty() {
        return named;
    }
    linked.sort_unstable();
    linked.dedup();
    shared.sort_unstable();
    shared.dedup();
    let mut tails: Vec<(u64, u64, u64)> = Vec::new();
    for token in shared {
        token_tails(token, &mut tails);
    }
    tails.sort_unstable();
    tails.dedup();
    let found: Vec<bool> = tails
        .iter()
        .map(|&(_, tail, token)| linked.binary_search(&(token, tail)).is_ok())
        .collect();
    let mut start = 0;
    for group in tails.chunk_by(|a, b| a.0 == b.0) {
        let end = start + group.len();
        if found[start..end].iter().all(|&f| f) {
            named.extend(group.iter().map(|&(_, _, token)| token));
        }
        start = end;
    }
    named.sort_unstable();
    named.dedup();
    named
}

/// Whether [`spelled_by_links`] reads a link's query parameters.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Query {
    /// `?tag=foo` spells `tag-foo`.
    Read,
    /// Only the link's path spells tokens.
    Left,
}

/// The tokens of `tokens` (with their `prefixes`, `paths::linkable_tokens`) that one of
/// the page's links spells (`paths::link_token_labels`), sorted and distinct.
fn spelled_by_links(
    arena: &TreeArena,
    mut tokens: Vec<u64>,
    mut prefixes: Vec<u64>,
    query: Query,
) -> Vec<u64> {
    let mut linked = Vec::new();
    if tokens.is_empty() {
        return linked;
    }
    for t in [&mut tokens, &mut prefixes] {
        t.sort_unstable();
        t.dedup();
    }
    for &(_, s, e) in &arena.links {
        let href = arena.link_text.get(s as usize..e as usize).unwrap_or("");
        let href = match query {
            Query::Read => href,
            Query::Left => href.split(['?', '#']).next().unwrap_or(""),
        };
        link_token_labels(href, &tokens, &prefixes, &mut linked);
        if linked.len() >= tokens.len() {
            break;
        }
    }
    linked.sort_unstable();
    linked.dedup();
    linked
}

/// The class tokens of the main content's elements that one of the page's links names
/// (`paths::link_token_labels`), sorted: none, without a link, or without a token with a
/// `-` in the main content.
fn linked_tokens(arena: &TreeArena, items: &[Item]) -> Vec<u64> {
    let (mut tokens, mut prefixes) = (Vec::new(), Vec::new());
    if !arena.links.is_empty() {
        // Most of a page's classes repeat: each distinct one is read once.
        let mut seen: FnvHashSet<&str> = FnvHashSet::default();
        for item in items.iter().filter(|i| i.parent != NONE) {
            let (s, e) = item.span;
            let class = arena.class_text.get(s as usize..e as usize).unwrap_or("");
            if class.contains('-') && seen.insert(class) {
                linkable_tokens(class, &mut tokens, &mut prefixes);
            }
        }
    }
    spelled_by_links(arena, tokens, prefixes, Query::Read)
}

/// For each sibling of `group` (one parent, one name), the tokens its list shares (sorted,
/// none if its items are joined only through one another), if it is an item of a list of two
/// or more; `None` keeps its own.
fn shared_tokens(group: &[Item], classes: &Classes<'_>) -> Vec<Option<Vec<u64>>> {
    let mut out = vec![None; group.len()];
    if group.len() < 2 {
        return out;
    }
    // Lists: siblings joined by a shared token (union-find; the smaller index is a list's
    // root, so the lists are the same in any hash order).
    let mut list: Vec<usize> = (0..group.len()).collect();
    fn find(list: &mut [usize], mut i: usize) -> usize {
        while list[i] != i {
            list[i] = list[list[i]];
            i = list[i];
        }
        i
    }
    let mut first_with: FnvHashMap<u64, usize> = FnvHashMap::default();
    for (i, item) in group.iter().enumerate() {
        for &t in classes.get(item.tokens) {
            let j = *first_with.entry(t).or_insert(i);
            let (a, b) = (find(&mut list, i), find(&mut list, j));
            list[a.max(b)] = a.min(b);
        }
    }
    let mut members: Vec<(usize, usize)> =
        (0..group.len()).map(|i| (find(&mut list, i), i)).collect();
    members.sort_unstable();
    for chunk in members.chunk_by(|a, b| a.0 == b.0) {
        if chunk.len() < 2 {
            continue;
        }
        let common: Vec<u64> = classes
            .get(group[chunk[0].1].tokens)
            .iter()
            .filter(|t| {
                chunk
                    .iter()
                    .all(|&(_, m)| classes.get(group[m].tokens).binary_search(t).is_ok())
            })
            .copied()
            .collect();
        for &(_, m) in chunk {
            out[m] = Some(common.clone());
        }
    }
    out
}
