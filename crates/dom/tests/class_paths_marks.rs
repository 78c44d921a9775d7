//! `class-paths`: the marks of a menu's current item (ALGORITHM.md §3, 20., `markers.rs`).
//! Two pages of one template in two sections of an application differ in which item of the
//! sidebar is marked; the mark is left out of that item's label, so the two are one layout.

mod support;

use silhouette_dom::PathSet;
use support::{check_paths as check, path_set};

/// A page whose sidebar has one row per item of `items` (`(class, link)`), then a line of
/// text.
fn page(items: &[(&str, &str)]) -> String {
    let rows: String = items
        .iter()
        .map(|(class, link)| {
            format!(
                "<tr class=\"{class}\"><th><a href=\"{link}\">{link}</a></th>\
                 <td><a class=addlink href=\"{link}add/\">Add</a></td></tr>"
            )
        })
        .collect();
    format!(
        "<body><div id=header><h1>Admin</h1></div><nav id=nav-sidebar><table>{rows}</table>\
         </nav><div class=content><p>This object has no history.</p></div></body>"
    )
}

#[test]
fn a_menus_current_item_is_labelled_as_the_others() {
    // Django admin's sidebar: one row per model, the page's own marked.
    let books = page(&[
        ("model-author", "/lib/author/"),
        ("model-book current-model", "/lib/book/"),
        ("model-tag", "/lib/tag/"),
    ]);
    let authors = page(&[
        ("model-author current-model", "/lib/author/"),
        ("model-book", "/lib/book/"),
        ("model-tag", "/lib/tag/"),
    ]);
    check(&books, &authors, true);
    // Two items: the mark is still told from the names.
    check(
        &page(&[
            ("model-group current-model", "/auth/group/"),
            ("model-user", "/auth/user/"),
        ]),
        &page(&[
            ("model-group", "/auth/group/"),
            ("model-user current-model", "/auth/user/"),
        ]),
        true,
    );
    // A sort marks its column with two tokens; what the items share stays.
    check(
        &page(&[
            ("module column-title sorted ascending", "/a/"),
            ("module column-author", "/b/"),
        ]),
        &page(&[
            ("module column-title", "/a/"),
            ("module column-author sorted ascending", "/b/"),
        ]),
        true,
    );
}

#[test]
fn what_is_no_menus_current_item_keeps_its_tokens() {
    let marked = [
        ("model-author current-model", "/lib/author/"),
        ("model-book", "/lib/book/"),
    ];
    let plain = [
        ("model-author", "/lib/author/"),
        ("model-book", "/lib/book/"),
    ];
    // The mark is left out: the marked page is the plain one.
    check(&page(&marked), &page(&plain), true);
    // Items without names of one prefix (`model-…`): a mark there is the page's.
    check(
        &page(&[("author current", "/lib/author/"), ("book", "/lib/book/")]),
        &page(&[("author", "/lib/author/"), ("book", "/lib/book/")]),
        false,
    );
    // Two names of one tail are no names.
    check(
        &page(&[("row-x current", "/a/"), ("row-x", "/b/")]),
        &page(&[("row-x", "/a/"), ("row-x", "/b/")]),
        false,
    );
    // Three tokens more are no mark (a bar's collapsible body beside its header).
    check(
        &page(&[
            ("nav-body collapse card bg-light", "/a/"),
            ("nav-head", "/b/"),
        ]),
        &page(&[("nav-body", "/a/"), ("nav-head", "/b/")]),
        false,
    );
    // Two items each with a token of its own: no one current item.
    check(
        &page(&[("model-a current", "/a/"), ("model-b new", "/b/")]),
        &page(&[("model-a", "/a/"), ("model-b", "/b/")]),
        false,
    );
    // Items that differ in more than their names and the mark are not alike.
    check(
        &page(&[
            ("model-a wide current", "/a/"),
            ("model-b wide", "/b/"),
            ("model-c", "/c/"),
        ]),
        &page(&[
            ("model-a wide", "/a/"),
            ("model-b wide", "/b/"),
            ("model-c", "/c/"),
        ]),
        false,
    );
    // An item without a link is no menu's item.
    let no_link = |class: &str| {
        format!(
            "<body><nav><div class=\"navbar-head\"><button>=</button></div>\
             <div class=\"{class}\"><a href=/a/>a</a></div></nav><p>Text.</p></body>"
        )
    };
    check(
        &no_link("navbar-body current"),
        &no_link("navbar-body"),
        false,
    );
    // A sibling without a class: the items are not all named.
    let unclassed = |class: &str| {
        format!(
            "<body><ul><li class=\"{class}\"><a href=/a/>a</a></li>\
             <li class=\"item-b\"><a href=/b/>b</a></li><li><a href=/c/>c</a></li></ul></body>"
        )
    };
    check(&unclassed("item-a current"), &unclassed("item-a"), false);
}

#[test]
fn a_current_item_the_page_is_named_after_keeps_its_name() {
    // Django admin names the page after its model (`<body class="model-book">`), which is
    // left out of the labels below `<body>`: the current row keeps its name all the same.
    let section = |model: &str| {
        let items: Vec<(String, String)> = ["author", "book", "tag"]
            .iter()
            .map(|m| {
                let mark = if *m == model { " current-model" } else { "" };
                (format!("model-{m}{mark}"), format!("/lib/{m}/"))
            })
            .collect();
        let refs: Vec<(&str, &str)> = items
            .iter()
            .map(|(c, l)| (c.as_str(), l.as_str()))
            .collect();
        page(&refs).replace("<body>", &format!("<body class=\"model-{model}\">"))
    };
    let (books, authors) = (path_set(&section("book")), path_set(&section("author")));
    // Only the root's own token differs (a path each): the sidebar is the same.
    let only = |a: &PathSet, b: &PathSet| a.ids().iter().filter(|id| !b.ids().contains(id)).count();
    assert_eq!(
        (only(&books, &authors), only(&authors, &books)),
        (1, 1),
        "jaccard {}",
        books.jaccard(&authors)
    );
}
