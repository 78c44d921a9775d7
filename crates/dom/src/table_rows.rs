//! A table's header cells as the walk reads them (ALGORITHM.md §3, 2.): the row that names
//! a table's columns, and the rows of a key-value table, whose keys are its columns turned
//! on their side.

use crate::tree::{Kind, NONE, NodeId, Ns, TreeArena};

/// The header texts of table `id`'s header row, in column order (a cell without text as
/// `None`): the first row of its `<thead>`, where a generator of data tables declares the
/// row that names the columns; or, for a table outside a flow of prose (`in_flow` false)
/// without one, its first row where that row holds [`MIN_BARE_COLUMNS`] header cells or
/// more (a report generator's tables, AWStats', name their columns so). `None` otherwise,
/// unless that row's cells are all header cells, one of them with text, and for a table
/// whose head is the first pair of a key-value record ([`key_rows`]).
pub(crate) fn header_row(
    arena: &TreeArena,
    id: NodeId,
    in_flow: bool,
) -> Option<(NodeId, Vec<Option<u64>>)> {
    let children = |id: NodeId| children(arena, id);
    let name = |id: NodeId| name(arena, id);
    let first_row = |group: NodeId| children(group).find(|&r| name(r) == Some("tr"));
    let (row, min_columns) = match children(id).find(|&c| name(c) == Some("thead")) {
        // A head row of a key and its value above rows of keys and values is the record's
        // first pair (CUPS's `Header | cups/ppd.h`), not two columns' names.
        Some(_) if !key_rows(arena, id).is_empty() => return None,
        Some(head) => (first_row(head)?, 1),
        // In a flow of prose a table is the text's (a manual's table of options), and a
        // row with one header cell is a title (DocBook's navigation header names the page).
        None if !in_flow => {
            match children(id).find(|&c| matches!(name(c), Some("tbody" | "tr")))? {
                row if name(row) == Some("tr") => (row, MIN_BARE_COLUMNS),
                body => (first_row(body)?, MIN_BARE_COLUMNS),
            }
        }
        None => return None,
    };
    let mut named = false;
    let mut columns = Vec::new();
    for cell in children(row) {
        match name(cell) {
            Some("th") => {
                let text = arena.header_text(cell);
                named |= text.is_some();
                columns.push(text);
            }
            // A data cell: the row's header cells name rows (a key-value table), not columns.
            Some("td") => return None,
            _ => {}
        }
    }
    (named && columns.len() >= min_columns).then_some((row, columns))
}

/// The rows of key-value table `id`: two rows or more, every row of it a header cell with
/// letters followed by data cells only. Empty otherwise. A `<thead>` of one row of two
/// header cells, a key and its value, counts as a row of the record (`head=pair`), though
/// it is not returned: what its second cell says is the record's value, not a key.
pub(crate) fn key_rows(arena: &TreeArena, id: NodeId) -> Vec<NodeId> {
    let children = |id: NodeId| children(arena, id);
    let name = |id: NodeId| name(arena, id);
    let mut rows = Vec::new();
    let mut head_pair = false;
    for group in children(id) {
        let group_rows: Vec<NodeId> = match name(group) {
            Some("tr") => vec![group],
            Some("tbody") => children(group).filter(|&r| name(r) == Some("tr")).collect(),
            Some("thead") if !head_pair && rows.is_empty() && head_is_pair(arena, group) => {
                head_pair = true;
                continue;
            }
            Some("thead" | "tfoot") => return Vec::new(),
            _ => continue,
        };
        for row in group_rows {
            let mut cells = children(row).filter(|&c| matches!(name(c), Some("th" | "td")));
            let key = cells.next();
            if !key.is_some_and(|k| name(k) == Some("th") && arena.header_text(k).is_some()) {
                return Vec::new();
            }
            let mut values = 0;
            for cell in cells {
                if name(cell) != Some("td") {
                    return Vec::new();
                }
                values += 1;
            }
            // Under a head of a key and its value, a row of one key and one value.
            if values == 0 || (head_pair && values > 1) {
                return Vec::new();
            }
            rows.push(row);
        }
    }
    if rows.len() + usize::from(head_pair) < 2 {
        rows.clear();
    }
    rows
}

/// Whether table head `head` is one row of two header cells, the first with letters: a key
/// and its value, where the rows below are keys and values too ([`key_rows`]).
fn head_is_pair(arena: &TreeArena, head: NodeId) -> bool {
    let mut rows = children(arena, head).filter(|&r| name(arena, r) == Some("tr"));
    let (Some(row), None) = (rows.next(), rows.next()) else {
        return false;
    };
    let mut cells = children(arena, row).filter(|&c| matches!(name(arena, c), Some("th" | "td")));
    matches!((cells.next(), cells.next(), cells.next()), (Some(key), Some(value), None)
        if name(arena, key) == Some("th")
            && name(arena, value) == Some("th")
            && arena.header_text(key).is_some())
}

/// The header cells a table's first row needs to name its columns without a `<thead>`
/// ([`header_row`]): two. One header cell across a table is its title, and DocBook's
/// navigation header puts the page's title there: read as a column, every page of a manual
/// was another kind (held-out PostgreSQL 15: 20 → 1,103 kept of 1,169; ALGORITHM.md §3,
/// "Session 63").
pub(crate) const MIN_BARE_COLUMNS: usize = 2;

/// The HTML element children of `id`.
fn children(arena: &TreeArena, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    std::iter::successors(
        arena.node(id).map(|n| n.first).filter(|&c| c != NONE),
        |&c| arena.node(c).map(|n| n.next).filter(|&n| n != NONE),
    )
    .filter(|&c| {
        arena
            .node(c)
            .is_some_and(|n| n.kind == Kind::Element && n.ns == Ns::Html)
    })
}

/// The tag name of `id`.
fn name(arena: &TreeArena, id: NodeId) -> Option<&str> {
    arena.node(id).map(|n| &*n.name)
}
