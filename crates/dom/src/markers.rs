//! The marks of a menu's current item (`class-paths`, ALGORITHM.md §3, 20.): class tokens
//! that say which item of a list of named items is the page's own, left out of that item's
//! label.
//!
//! An application's sidebar names each of its items with a token of one prefix (Django
//! admin's `tr.model-book`, `tr.model-author`, `div.app-auth`, `div.app-lib`) and marks the
//! item of the page's own section with one token more (`tr.model-book.current-model`,
//! `div.app-lib.current-app`). Labelled as written, the marked item is another path on each
//! section's pages, and every path below it as well: two pages of one template in two
//! sections hold a block each that the other lacks (the marked row and the row the other
//! marks), and a crawl kept one page of the template per section. A list's sort marks
//! its column the same way (`th.column-title.sorted.ascending` beside `th.column-author`).
//!
//! The rule: the element children of one parent with one tag name, two or more, are a menu
//! of named items with a current one when
//! - every one is classed and carries exactly one token of one prefix (what precedes a `-`
//!   or `_` inside the token, `linked::token_tails`), and their tails are all different:
//!   each is a named item;
//! - exactly one of them carries tokens that none of the others carries, one or two
//!   ([`MAX_MARKS`]), besides its name's tokens: those are its marks;
//! - apart from names and marks, all carry the same tokens (the items are alike);
//! - every one holds a link (`<a>`, `<area>`), itself or below: a menu's items lead
//!   somewhere. A bar's header and its collapsible body (`div.navbar-header` beside
//!   `div.navbar-collapse.collapse.card`) are no menu.
//!
//! Siblings that share their tokens (`li.toctree-l1` and `li.toctree-l1.current`) label the
//! marked item alike on every page, and stay as they are; so do siblings among which one is
//! not classed. Deterministic in the page's bytes alone: nothing is learned across pages.

use crate::linked::token_tails;
use crate::paths::{MAX_CLASS_TOKENS, token_label};
use crate::tree::{Kind, NONE, NodeId, TreeArena};

/// The most marks a current item carries (Django admin's `current-model`; a sorted
/// column's `sorted ascending`).
const MAX_MARKS: usize = 2;

/// One token a sibling carries: its label ([`crate::paths::Token::root_label`]) and the
/// labels of its prefixes (`(prefix, tail)` pairs, [`token_tails`]).
struct Carried {
    token: u64,
    tails: Vec<(u64, u64)>,
}

/// The current items of `arena`'s lists of named items: each one's marks and its name's
/// tokens, as `(element, token label)`, each sorted and distinct; none on most pages.
pub(crate) fn current_marks(arena: &TreeArena) -> Current {
    let mut current = Current::default();
    // Classed elements whose class could name an item (a separator inside a token), by
    // parent and tag: only siblings of one tag make a list.
    let mut elements: Vec<(NodeId, u64, NodeId, &str)> = arena
        .classes
        .iter()
        .filter_map(|&(id, s, e)| {
            let class = arena.class_text.get(s as usize..e as usize)?;
            if !class.bytes().any(|b| b == b'-' || b == b'_') {
                return None;
            }
            let tag = arena.node(id)?.name.get_hash();
            Some((arena.parent(id), tag, id, class))
        })
        .collect();
    elements.sort_unstable_by_key(|e| (e.0, e.1, e.2));
    let mut tails = Vec::new();
    let mut classes: Vec<&str> = Vec::new();
    for siblings in elements.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if siblings.len() < 2 {
            continue;
        }
        // Named items differ in their classes: a list of rows of one class (most lists) is
        // passed over before its tokens are read.
        classes.clear();
        classes.extend(siblings.iter().map(|s| s.3));
        classes.sort_unstable();
        if classes.windows(2).any(|w| w[0] == w[1]) {
            continue;
        }
        let carried: Vec<Vec<Carried>> = siblings
            .iter()
            .map(|&(_, _, _, class)| {
                let mut tokens: Vec<Carried> = class
                    .split_ascii_whitespace()
                    .take(MAX_CLASS_TOKENS)
                    .map(|token| {
                        tails.clear();
                        token_tails(token, &mut tails);
                        Carried {
                            token: token_label(token),
                            tails: tails.iter().map(|&(p, t, _)| (p, t)).collect(),
                        }
                    })
                    .collect();
                tokens.sort_unstable_by_key(|c| c.token);
                tokens.dedup_by_key(|c| c.token);
                tokens
            })
            .collect();
        let prefixes = naming_prefixes(&carried);
        if prefixes.is_empty() || !all_classed(arena, siblings) {
            continue;
        }
        let named = |c: &Carried| {
            c.tails
                .iter()
                .any(|(p, _)| prefixes.binary_search(p).is_ok())
        };
        let mut marked = None;
        for (at, tokens) in carried.iter().enumerate() {
            let own: Vec<u64> = tokens
                .iter()
                .filter(|c| {
                    !named(c)
                        && carried.iter().enumerate().all(|(other, theirs)| {
                            other == at
                                || theirs.binary_search_by_key(&c.token, |t| t.token).is_err()
                        })
                })
                .map(|c| c.token)
                .collect();
            if own.is_empty() {
                continue;
            }
            if marked.is_some() {
                marked = None;
                break;
            }
            marked = Some((at, own));
        }
        let Some((at, own)) = marked else { continue };
        // The items are alike but for their names and the marks.
        let rest = |tokens: &[Carried]| -> Vec<u64> {
            tokens
                .iter()
                .filter(|c| !named(c) && own.binary_search(&c.token).is_err())
                .map(|c| c.token)
                .collect()
        };
        let alike = carried.first().map(|c| rest(c));
        if own.len() > MAX_MARKS
            || !carried.iter().all(|c| Some(rest(c)) == alike)
            || !siblings.iter().all(|s| holds_link(arena, s.2))
        {
            continue;
        }
        let id = siblings[at].2;
        current.marks.extend(own.into_iter().map(|t| (id, t)));
        current.names.extend(
            carried[at]
                .iter()
                .filter(|c| named(c))
                .map(|c| (id, c.token)),
        );
    }
    for list in [&mut current.marks, &mut current.names] {
        list.sort_unstable();
        list.dedup();
    }
    current
}

/// What [`current_marks`] finds.
#[derive(Default)]
pub(crate) struct Current {
    /// The marks of each current item, left out of its label.
    pub(crate) marks: Vec<(NodeId, u64)>,
    /// The tokens of each current item's name, which stay in its label where the page
    /// names itself by them (`<body class="model-book">`, `items.rs`): the item is labelled
    /// on its own section's pages as on every other.
    pub(crate) names: Vec<(NodeId, u64)>,
}

/// The prefixes that name each of `siblings`' items: every sibling carries exactly one
/// token of the prefix, and no two of those tokens have the same tail. Sorted.
fn naming_prefixes(siblings: &[Vec<Carried>]) -> Vec<u64> {
    let Some(first) = siblings.first() else {
        return Vec::new();
    };
    let mut candidates: Vec<u64> = first
        .iter()
        .flat_map(|c| c.tails.iter().map(|&(p, _)| p))
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    candidates.retain(|&prefix| {
        let mut tails = Vec::with_capacity(siblings.len());
        for tokens in siblings {
            let mut of_prefix = tokens
                .iter()
                .filter_map(|c| c.tails.iter().find(|&&(p, _)| p == prefix).map(|&(_, t)| t));
            match (of_prefix.next(), of_prefix.next()) {
                (Some(tail), None) => tails.push(tail),
                _ => return false,
            }
        }
        tails.sort_unstable();
        tails.windows(2).all(|w| w[0] != w[1])
    });
    candidates
}

/// Whether `siblings` (one parent's children of one tag whose class has a `-` or `_`) are all
/// of the parent's element children of that tag.
fn all_classed(arena: &TreeArena, siblings: &[(NodeId, u64, NodeId, &str)]) -> bool {
    let Some(&(parent, tag, _, _)) = siblings.first() else {
        return false;
    };
    let mut child = arena.node(parent).map_or(NONE, |n| n.first);
    let mut count = 0;
    while let Some(node) = arena.node(child) {
        if node.kind == Kind::Element && node.name.get_hash() == tag {
            count += 1;
        }
        child = node.next;
    }
    count == siblings.len()
}

/// Whether element `id` is a link or holds one: a link whose ancestors, up to
/// [`MAX_UP`] of them, reach `id`.
fn holds_link(arena: &TreeArena, id: NodeId) -> bool {
    // A link below `id` was created after it, and before its next sibling (but where the
    // tree builder moved a node: each link found is checked by its parents).
    let from = arena.links.partition_point(|l| l.0 < id);
    let end = arena.node(id).map_or(NONE, |n| n.next);
    arena.links[from..]
        .iter()
        .take_while(|l| l.0 < end)
        .any(|&(link, _, _)| {
            let mut up = link;
            for _ in 0..=MAX_UP {
                if up == id {
                    return true;
                }
                if up == NONE || up < id {
                    return false;
                }
                up = arena.parent(up);
            }
            false
        })
}

/// The most ancestors of a link [`holds_link`] walks up.
const MAX_UP: usize = 8;
