//! `class-paths`: the class tokens a list's items share, the page's own tokens, and the
//! tokens the page links to (ALGORITHM.md §3, 2., `items.rs`).

mod support;

use proptest::prelude::*;

use support::{check_paths as check, path_set};

/// A blog's archive page: `body` classes, then one post per class list.
fn archive(body: &str, posts: &[&str]) -> String {
    let posts: String = posts
        .iter()
        .map(|c| {
            format!(
                "<article class=\"{c}\"><header class=entry-header><h2 class=entry-title>\
                 <a href=#>t</a></h2></header><div class=entry-content><p>x</p></div>\
                 <footer class=entry-meta><span class=cat-links>c</span></footer></article>"
            )
        })
        .collect();
    format!("<body class=\"{body}\"><div id=page><main class=site-main>{posts}</main></div>")
}

#[test]
fn a_lists_items_are_labelled_by_what_they_share() {
    let post = "post type-post status-publish format-standard hentry";
    // Archives of other posts: the categories and tags of each post are its data, and a
    // token every post of the archive carries is the archive's (its body's) own.
    let plain = format!("post-1 {post}");
    let plain = [plain.as_str(); 3];
    for (body, posts) in [
        (
            "archive category category-news",
            vec![
                format!("post-12 {post} category-news tag-foo"),
                format!("post-13 {post} category-news category-misc"),
                format!("post-14 {post} category-news tag-bar tag-baz"),
            ],
        ),
        (
            "archive tag tag-qux",
            vec![
                format!("post-21 {post} category-sports tag-qux"),
                format!("post-22 {post} category-misc tag-qux sticky"),
            ],
        ),
        (
            "archive date",
            vec![
                format!("post-31 {post} category-sports"),
                format!("post-32 {post} category-misc tag-qux"),
                format!("post-33 {post}"),
            ],
        ),
    ] {
        let posts: Vec<&str> = posts.iter().map(String::as_str).collect();
        check(
            &archive(body, &posts),
            &archive(body, &plain[..posts.len()]),
            true,
        );
    }
    // Without the body's token, a category all posts share is the list's.
    check(
        &archive(
            "archive",
            &[
                &format!("{post} category-news"),
                &format!("{post} category-news"),
            ],
        ),
        &archive("archive", &[post, post]),
        false,
    );
    // An API page's members, a Markdown table's cell alignment: one shared token is
    // enough.
    check(
        "<div role=main><dl class=\"py method\"><dt>a</dt></dl><dl class=\"py class\"><dt>b</dt></dl></div>",
        "<div role=main><dl class=py><dt>a</dt></dl><dl class=py><dt>b</dt></dl></div>",
        true,
    );
    check(
        "<main><table><tr><td class=\"col0 leftalign\">a</td><td class=col1>b</td></tr></table></main>",
        "<main><table><tr><td class=col0>a</td><td class=\"col1 rightalign\">b</td></tr></table></main>",
        true,
    );
    // Outside the main content a list's item names are the frame's: a submenu's entries
    // name a page kind's actions, and a menu's current entry stays too.
    let menu = |current: usize, main: &str| {
        let items: String = (0..4)
            .map(|i| {
                let extra = if i == current {
                    " current-menu-item"
                } else {
                    ""
                };
                format!("<li class=\"menu-item menu-item-{i}{extra}\"><a>m</a></li>")
            })
            .collect();
        format!("<nav><ul class=menu>{items}</ul></nav><{main}><p>x</p></{main}>")
    };
    // (No entry current: another page.)
    check(&menu(0, "div"), &menu(9, "div"), false);
    check(&menu(0, "main"), &menu(9, "main"), false);
    check(
        "<div><a class=\"label sml-all\">a</a><a class=\"label sml-closed\">c</a></div>",
        "<div><a class=\"label sml-tomorrow\">a</a><a class=\"label sml-closed\">c</a></div>",
        false,
    );
    // A template's contents in the main content are in it too.
    check(
        "<main><template><ul><li class=\"x a\">a</li><li class=\"x b\">b</li></ul></template></main>",
        "<main><template><ul><li class=x>a</li><li class=x>b</li></ul></template></main>",
        true,
    );
    // Inside it, the same menu is an article's list.
    let inside = |current: usize| format!("<main>{}</main>", menu(current, "div"));
    check(&inside(0), &inside(9), true);
}

#[test]
fn siblings_that_share_no_token_keep_their_classes() {
    // The cells of a row are columns of their own kinds, not a list's items.
    check(
        "<table><tr><td class=age>1</td><td class=author>a</td></tr></table>",
        "<table><tr><td class=age>1</td><td class=date>a</td></tr></table>",
        false,
    );
    // Unclassed siblings are no list for a classed one.
    check(
        "<ul><li>a</li><li class=current>b</li></ul>",
        "<ul><li>a</li><li>b</li></ul>",
        false,
    );
    // Outside the main content, siblings joined through others (a.b, b.c, c.d) are no list.
    check(
        "<div class=\"a b\"></div><div class=\"b c\"></div><div class=\"c d\"></div>",
        "<div class=\"a b\"></div><div class=\"b c\"></div><div class=\"c e\"></div>",
        false,
    );
    // Siblings of other tag names are other lists.
    check(
        "<div class=\"x current\"></div><p class=x></p>",
        "<div class=x></div><p class=x></p>",
        false,
    );
    // A lone element keeps its classes (a single post's categories still count).
    check(
        "<main><article class=\"post category-news\"><p>x</p></article></main>",
        "<main><article class=\"post category-sports\"><p>x</p></article></main>",
        false,
    );
    // Items of two parents are two lists outside the main content; inside it, items of
    // two parents of other labels too.
    check(
        "<ul><li class=\"i a\"></li></ul><ul><li class=\"i b\"></li></ul>",
        "<ul><li class=\"i\"></li></ul><ul><li class=\"i\"></li></ul>",
        false,
    );
    check(
        "<main><ul class=x><li class=\"i a\"></li></ul><ul class=y><li class=\"i b\"></li></ul></main>",
        "<main><ul class=x><li class=\"i\"></li></ul><ul class=y><li class=\"i\"></li></ul></main>",
        false,
    );
    // Items whose parents are cousins are two lists: one level only.
    check(
        "<main><div><ul><li class=\"i a\"></li></ul></div><div><ul><li class=\"i b\"></li></ul></div></main>",
        "<main><div><ul><li class=\"i\"></li></ul></div><div><ul><li class=\"i\"></li></ul></div></main>",
        false,
    );
}

/// A summary table as Javadoc writes one (`div` cells, each marked with its column and its
/// row's stripe), inside `<main>`, with `rows` rows.
fn summary(rows: usize) -> String {
    let mut cells = String::from(
        "<div class=\"table-header col-first\">Type</div>\
         <div class=\"table-header col-last\">Description</div>",
    );
    for row in 0..rows {
        let stripe = if row % 2 == 0 { "even" } else { "odd" };
        cells.push_str(&format!(
            "<div class=\"col-first {stripe}-row-color\"><code>int</code></div>\
             <div class=\"col-last {stripe}-row-color\"><div class=block>d</div></div>"
        ));
    }
    format!("<main><section><div class=summary-table>{cells}</div></section></main>")
}

#[test]
fn items_joined_only_through_one_another_keep_no_token() {
    // A table of one row (no odd row) and one of three: one kind of table.
    check(&summary(1), &summary(3), true);
    check(&summary(2), &summary(7), true);
    // Siblings joined only through others (a.b, b.c, c.d) are one list that shares no
    // token: each is a bare `div`, whatever it carries.
    check(
        "<main><div class=\"a b\"></div><div class=\"b c\"></div><div class=\"c d\"></div></main>",
        "<main><div class=\"a b\"></div><div class=\"b c\"></div><div class=\"c e\"></div></main>",
        true,
    );
    check(
        "<main><div class=\"a b\"></div><div class=\"b c\"></div><div class=\"c d\"></div></main>",
        "<main><div></div><div></div></main>",
        true,
    );
    // Two that share a token keep it.
    check(
        "<main><div class=\"a b\"></div><div class=\"b c\"></div></main>",
        "<main><div class=b></div><div class=b></div></main>",
        true,
    );
    // Siblings that share no token at all stay two kinds of block, and a lone one keeps its
    // classes.
    check(
        "<main><div class=a></div><div class=b></div></main>",
        "<main><div class=a></div><div class=c></div></main>",
        false,
    );
    check(
        "<main><div class=\"a b\"></div></main>",
        "<main><div></div></main>",
        false,
    );
}

/// A page of recent changes: one `div` per day, one table per change, each with its flags.
fn changes(days: &[&[&str]]) -> String {
    let days: String = days
        .iter()
        .map(|day| {
            let tables: String = day
                .iter()
                .map(|c| {
                    format!("<table class=\"line {c}\"><tr><td><a href=#>p</a></td></tr></table>")
                })
                .collect();
            format!("<h4>d</h4><div>{tables}</div>")
        })
        .collect();
    format!("<body><div role=main><div class=changes>{days}</div></div></body>")
}

#[test]
fn a_list_split_in_groups_is_one_list() {
    // A day with one change is no list of its own: the flags of its change are data, as
    // they are of a day with two.
    check(
        &changes(&[&["ns0-sed minor"], &["ns0-awk major", "ns2-alice minor"]]),
        &changes(&[&[""], &["", ""]]),
        true,
    );
    check(
        &changes(&[
            &["ns0-sed minor"],
            &["ns0-awk major"],
            &["ns0-ld minor new"],
        ]),
        &changes(&[&[""], &[""], &[""]]),
        true,
    );
    // What every change carries stays (a list of logs is not a list of edits)...
    check(
        &changes(&[&["log ns0-sed"], &["log ns0-awk"]]),
        &changes(&[&[""], &[""]]),
        false,
    );
    // ...and outside the main content a day's lone change keeps its flags.
    let outside = |flags: &str| {
        format!(
            "<div class=changes><h4>d</h4><div><table class=\"line {flags}\"></table></div>\
             <h4>d</h4><div><table class=\"line\"></table></div></div>"
        )
    };
    check(&outside("minor"), &outside(""), false);
    // Two sections of an API page: a class in one, functions in the next.
    check(
        "<main><section><dl class=\"py class\"><dt>a</dt></dl></section>\
         <section><dl class=\"py function\"><dt>b</dt></dl></section></main>",
        "<main><section><dl class=py><dt>a</dt></dl></section>\
         <section><dl class=py><dt>b</dt></dl></section></main>",
        true,
    );
}

#[test]
fn the_pages_own_tokens_name_it_below_the_body_too() {
    let page = |body: &str, div: &str| {
        format!("<body class=\"{body}\"><div class=\"{div}\"><p>x</p></div><p>y</p></body>")
    };
    check(
        &page("category category-news", "widget category-news"),
        &page("category category-news", "widget"),
        true,
    );
    check(
        &page("category category-sports", "widget category-sports"),
        &page("category category-sports", "widget"),
        true,
    );
    // On `<html>` too; a token the root does not carry stays.
    check(
        "<html class=\"page-a\"><body><div class=\"page-a box\"></div></body></html>",
        "<html class=\"page-a\"><body><div class=box></div></body></html>",
        true,
    );
    check(
        &page("category", "widget category-news"),
        &page("category", "widget"),
        false,
    );
    // A token left with nothing: the tag name alone.
    check(
        &page("home", "home"),
        "<body class=home><div><p>x</p></div><p>y</p></body>",
        true,
    );
}

/// A blog's single post: its `<article>` carries its categories and tags as classes (and
/// `<body>` its own id), and the page links to them (`links`: hrefs in the post's footer).
#[test]
fn a_root_token_that_a_links_path_spells_adds_no_path() {
    // A blog's archive pages: the `<body>` names the term, and the page links to it.
    let archive = |body: &str, links: &[&str]| {
        let links: String = links
            .iter()
            .map(|href| format!("<li><a href=\"{href}\">t</a></li>"))
            .collect();
        format!("<body class=\"{body}\"><nav><ul>{links}</ul></nav><main><h1>t</h1></main></body>")
    };
    for (body, links) in [
        (
            "archive category category-food",
            vec!["/category/food/", "/category/notes/"],
        ),
        (
            "archive tag tag-books",
            vec!["https://blog.example/tag/books/#top"],
        ),
        (
            "archive author author-alice",
            vec!["/author/alice/?paged=2"],
        ),
        (
            "archive category category-child",
            vec!["/category/parent/child/"],
        ),
    ] {
        let plain = body.rsplit_once(' ').map_or("", |(kind, _)| kind);
        check(&archive(body, &links), &archive(plain, &links), true);
    }
    check(
        &archive("archive category category-food", &["/category/food/"]),
        &archive("archive category category-notes", &["/category/notes/"]),
        true,
    );
    // What no link's path spells stays: a kind of page (`action-history` beside
    // `?action=history`), a term the page does not link to.
    for (body, links) in [
        (
            "mediawiki action-history",
            vec!["/index.php?title=Main&action=history"],
        ),
        ("archive category category-food", vec!["/category/notes/"]),
        (
            "controller-wiki action-index",
            vec!["/projects/a/wiki/index"],
        ),
    ] {
        let plain = body.rsplit_once(' ').map_or("", |(kind, _)| kind);
        check(&archive(body, &links), &archive(plain, &links), false);
    }
    // On `<html>` too.
    check(
        "<html class=\"lang-en page-about\"><body><a href=/page/about/>a</a></body></html>",
        "<html class=\"lang-en\"><body><a href=/page/about/>a</a></body></html>",
        true,
    );
}

fn post(article: &str, links: &[&str]) -> String {
    let links: String = links
        .iter()
        .map(|href| format!("<a href=\"{href}\" rel=tag>t</a> "))
        .collect();
    format!(
        "<body class=\"single single-post postid-7\"><header class=site-header><a href=/>b</a>\
         </header><main id=main class=site-main><article class=\"{article}\">\
         <header class=entry-header><h1 class=entry-title>t</h1></header>\
         <div class=entry-content><p>x</p><figure class=wp-block-image><img></figure></div>\
         <footer class=entry-footer><span class=tags-links>{links}</span></footer></article>\
         </main><footer class=site-footer><p>f</p></footer></body>"
    )
}

#[test]
fn a_token_that_spells_one_of_the_pages_links_is_left_out_in_the_main_content() {
    let kind = "post-7 post type-post status-publish format-standard hentry";
    let plain = post(kind, &[]);
    for (tokens, links) in [
        // Two segments of a path, joined by `-`; any host, any query or fragment.
        (
            "category-news tag-foo",
            vec!["/category/news/", "https://blog.example/tag/foo?x=1#c"],
        ),
        // Deeper paths: two consecutive segments, or the first and the last.
        (
            "tag-foo category-child",
            vec!["/blog/tag/foo/", "/category/parent/child/"],
        ),
        // A query parameter's name and value; a slug's case, escapes and punctuation as a
        // generator writes them into a class.
        (
            "tag-foo category-Cafe_Bar",
            vec!["?tag=foo", "/category/caf%C3%A9.bar/", "/category/Cafe_Bar"],
        ),
        // Unicode slugs as they are.
        ("tag-日本", vec!["/tag/日本/"]),
    ] {
        check(
            &post(&format!("{kind} {tokens}"), &links),
            &post(kind, &links),
            true,
        );
        // The links alone add no path.
        assert_eq!(
            path_set(&post(kind, &links)).len(),
            path_set(&plain).len(),
            "{links:?}"
        );
    }
    // One token linked twice, then another, where they are the page's only such tokens.
    let lone = |class: &str| {
        format!(
            "<main><article class=\"{class}\"><p>x</p><a href=/tag/foo/>f</a>\
             <a href=/tag/foo/>f</a><a href=/tag/bar/>b</a></article></main>"
        )
    };
    check(&lone("post tag-foo tag-bar"), &lone("post"), true);
    // A token the page does not link to stays: it may be the element's kind.
    for (tokens, links) in [
        ("category-news", vec!["/category/sports/"]),
        ("tag-foo", vec!["/foo/"]),
        ("news", vec!["/news/"]),
        ("tag-foo", vec!["/tag/"]),
    ] {
        check(
            &post(&format!("{kind} {tokens}"), &links),
            &post(kind, &links),
            false,
        );
    }
    // Outside the main content, what the frame's classes name stays (a menu's current entry).
    let frame = |class: &str| {
        format!(
            "<body><nav><ul><li class=\"{class}\"><a href=/category/news/>n</a></li></ul></nav>\
             <main><p>x</p></main></body>"
        )
    };
    check(
        &frame("menu-item category-news"),
        &frame("menu-item"),
        false,
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any href, any class: the page is read, and a token is left out only where a link
    /// spells it (a page without links has the same paths as one with links to elsewhere).
    #[test]
    fn any_link_and_class_are_read(href in "\\PC{0,40}", class in "[a-z%/?=&;:.-]{0,24}") {
        let without = path_set(&post(&class, &[]));
        prop_assert!(!path_set(&post(&class, &[&href])).is_empty());
        let elsewhere = path_set(&post(&class, &["/x0/x0/", "?x0=x0"]));
        prop_assert_eq!(elsewhere, without);
    }

    /// Whatever slugs a post's categories and tags have, a post whose page links to them has
    /// the paths of a post without them.
    #[test]
    fn the_tokens_a_post_links_to_leave_its_paths(
        slugs in proptest::collection::vec(("(category|tag|author)", "[a-zA-Z0-9_-]{1,12}"), 1..6),
    ) {
        let kind = "post type-post hentry";
        let tokens: Vec<String> = slugs.iter().map(|(k, s)| format!("{k}-{s}")).collect();
        let hrefs: Vec<String> = slugs.iter().map(|(k, s)| format!("/{k}/{s}/")).collect();
        let hrefs: Vec<&str> = hrefs.iter().map(String::as_str).collect();
        let a = path_set(&post(&format!("{kind} {}", tokens.join(" ")), &hrefs));
        let b = path_set(&post(kind, &hrefs));
        prop_assert!(a == b, "{tokens:?}");
    }

    /// Whatever terms an archive's `<body>` names, when the page links to them by path its
    /// paths are those of the archive without them; by a query, they stay.
    #[test]
    fn the_root_tokens_a_page_links_to_leave_its_paths(
        slugs in proptest::collection::vec(("(category|tag|author)", "[a-zA-Z0-9_-]{1,12}"), 1..4),
    ) {
        let page = |body: &str, hrefs: &[String]| -> String {
            let links: String = hrefs.iter().map(|h| format!("<a href=\"{h}\">t</a>")).collect();
            format!("<body class=\"archive {body}\"><nav>{links}</nav><main><p>x</p></main></body>")
        };
        let tokens: Vec<String> = slugs.iter().map(|(k, s)| format!("{k}-{s}")).collect();
        let paths: Vec<String> = slugs.iter().map(|(k, s)| format!("/{k}/{s}/")).collect();
        let queries: Vec<String> = slugs.iter().map(|(k, s)| format!("?{k}={s}")).collect();
        let named = path_set(&page(&tokens.join(" "), &paths));
        prop_assert!(named == path_set(&page("", &paths)), "{tokens:?}");
        let queried = path_set(&page(&tokens.join(" "), &queries));
        prop_assert!(queried != path_set(&page("", &queries)), "{tokens:?}");
    }

    /// Whatever tokens the items of a list in the main content carry besides the ones they
    /// all share, in any case, order or number, the page's paths are those of the shared
    /// tokens alone.
    #[test]
    fn a_lists_extra_tokens_leave_its_paths(
        extras in proptest::collection::vec(proptest::collection::vec("[a-z]{1,6}(-[a-z0-9]{1,4})?", 0..4), 2..6),
    ) {
        let items = |extra: &dyn Fn(usize) -> String| -> String {
            (0..extras.len())
                .map(|i| format!("<li class=\"Item  kind-x {}\"><span>s</span><p>t</p></li>", extra(i)))
                .collect()
        };
        let with = items(&|i| {
            // Each item's own suffix: no extra token is on every item.
            let own = char::from(b'a' + u8::try_from(i).unwrap_or(0));
            extras[i].iter().map(|t| format!("{t}-{own}")).collect::<Vec<_>>().join(" ")
        });
        let without = items(&|_| String::new());
        let a = path_set(&format!("<main><ul>{with}</ul></main>"));
        let b = path_set(&format!("<main><ul>{without}</ul></main>"));
        prop_assert!(a == b, "{with}");
    }

    /// Whatever flags each change of a list split by day carries (none shared by all), and
    /// however the changes are split into days, the page's paths are those of a list of
    /// changes without flags split the same way.
    #[test]
    fn a_split_lists_extra_tokens_leave_its_paths(
        flags in proptest::collection::vec("[a-z]{1,6}(-[a-z0-9]{1,4})?", 2..8),
        cuts in proptest::collection::vec(any::<bool>(), 8),
    ) {
        // Each change's flag with its own suffix, then the changes cut into days.
        let mut days: Vec<Vec<String>> = vec![Vec::new()];
        let mut plain: Vec<Vec<String>> = vec![Vec::new()];
        for (i, flag) in flags.iter().enumerate() {
            if i > 0 && cuts[i] {
                days.push(Vec::new());
                plain.push(Vec::new());
            }
            days.last_mut().expect("a day").push(format!("{flag}-{i}"));
            plain.last_mut().expect("a day").push(String::new());
        }
        let page = |days: &[Vec<String>]| {
            let days: Vec<Vec<&str>> = days.iter().map(|d| d.iter().map(String::as_str).collect()).collect();
            let days: Vec<&[&str]> = days.iter().map(Vec::as_slice).collect();
            path_set(&changes(&days))
        };
        prop_assert!(page(&days) == page(&plain), "{days:?}");
    }
}

#[test]
fn long_lists_and_deep_nests_of_classed_elements_fold_in_one_pass() {
    // 20,000 items, each with a token of its own: one path for all of them.
    let items: String = (0..20_000)
        .map(|i| format!("<li class=\"item x{}\"></li>", to_letters(i)))
        .collect();
    let long = path_set(&format!("<main><ul>{items}</ul></main>"));
    assert_eq!(long, path_set("<main><ul><li class=item></li></ul></main>"));
    // 20,000 lone sections, each with a tag of its own, and 20,000 links to those tags.
    let tagged: String = (0..20_000)
        .map(|i| {
            let t = to_letters(i);
            format!("<div><section class=\"entry tag-x{t}\"><a href=\"/tag/x{t}/\">t</a></section></div>")
        })
        .collect();
    assert_eq!(
        path_set(&format!("<main>{tagged}</main>")),
        path_set("<main><div><section class=entry><a href=/>t</a></section></div></main>")
    );
    // 5,000 nested classed elements inside the main content, each alone in its parent.
    let deep = format!(
        "<body class=b><main>{}</main>",
        (0..5_000)
            .map(|i| format!("<div class=\"d{} b\">", to_letters(i)))
            .collect::<String>()
    );
    let paths = path_set(&deep);
    assert!(paths.len() > 5 && paths.len() <= silhouette_dom::MAX_PATHS);
}

/// `i` written in letters (digits would be one token).
fn to_letters(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push(char::from(b'a' + u8::try_from(i % 26).unwrap_or(0)));
        i /= 26;
        if i == 0 {
            return s;
        }
    }
}

/// A Doxygen class page's member table: its own rows, then the rows it inherits from
/// `base`, each of those carrying `inherit pub_methods_{base}` (`rows` of them).
fn inherits(base: &str, rows: usize) -> String {
    let inherited: String = (0..rows)
        .map(|i| {
            format!(
                "<tr class=\"memitem:a{i}f inherit pub_methods_{base}\"><td class=memItemLeft>int\
                 </td><td class=memItemRight><a class=el href=\"{base}.html#a{i}f\">g</a></td>\
                 </tr><tr class=\"separator:a{i}f inherit pub_methods_{base}\">\
                 <td class=memSeparator></td></tr>"
            )
        })
        .collect();
    format!(
        "<body><div class=header><div class=title>C</div></div><div class=contents>\
         <table class=memberdecls><tr class=heading><td><h2>Public Member Functions</h2></td>\
         </tr><tr class=\"memitem:a0e\"><td class=memItemLeft>void</td><td class=memItemRight>\
         <a href=\"#a0e\">f</a></td></tr><tr class=\"inherit_header pub_methods_{base}\">\
         <td>inherited from <a class=el href=\"{base}.html\">B</a></td></tr>{inherited}\
         </table></div></body>"
    )
}

#[test]
fn a_token_that_names_a_page_its_element_links_to_is_data() {
    // Two classes that inherit from two bases: one layout.
    check(
        &inherits("classEigen_1_1RotationBase", 2),
        &inherits("classEigen_1_1MatrixBase", 2),
        true,
    );
    check(
        &inherits("structSDL__AudioSpec", 1),
        &inherits("classFoo", 1),
        true,
    );
    // Without a link to the base inside the rows, the name is the rows' own.
    let unlinked = |base: &str| inherits(base, 1).replace(&format!("{base}.html"), "other.html");
    check(
        &unlinked("classEigen_1_1RotationBase"),
        &unlinked("classEigen_1_1MatrixBase"),
        false,
    );
    // What stays: the token of one element (a site's wrapper), a token whose element holds
    // no link to the page (a signature's kind on a page that links to `object.html`),
    // a prefix with another tail that names no page, and a short name.
    for (named, plain) in [
        (
            "<div class=\"site tpl_dokuwiki\"><a href=/doku.php/wiki/dokuwiki>d</a></div>",
            "<div class=\"site\"><a href=/doku.php/wiki/dokuwiki>d</a></div>",
        ),
        (
            "<dl><dt class=\"sig sig-object\">a</dt><dt class=\"sig sig-object\">b</dt></dl>\
             <p><a href=object.html#x>o</a></p>",
            "<dl><dt class=\"sig\">a</dt><dt class=\"sig\">b</dt></dl>\
             <p><a href=object.html#x>o</a></p>",
        ),
        (
            "<div class=apihelp-modules><a href=/wiki/Special:ApiHelp/modules>m</a></div>\
             <div class=apihelp-modules></div><div class=apihelp-flags></div>\
             <div class=apihelp-flags></div>",
            "<div><a href=/wiki/Special:ApiHelp/modules>m</a></div>\
             <div></div><div class=apihelp-flags></div><div class=apihelp-flags></div>",
        ),
        (
            "<h3 class=bold_code><a href=code.html#f>f</a></h3>\
             <h3 class=bold_code><a href=code.html#g>g</a></h3>",
            "<h3><a href=code.html#f>f</a></h3><h3><a href=code.html#g>g</a></h3>",
        ),
    ] {
        check(named, plain, false);
    }
    // Where it holds, the name adds nothing: the rows are labelled as without it.
    check(
        "<ul><li class=\"item ref-module_one\"><a href=/ref/module_one>a</a></li>\
         <li class=\"item ref-module_one\"><a href=/ref/module_one#x>b</a></li></ul>",
        "<ul><li class=\"item\"><a href=/ref/module_one>a</a></li>\
         <li class=\"item\"><a href=/ref/module_one#x>b</a></li></ul>",
        true,
    );
}

/// A post's main content with threaded comments: one `li` per top-level comment, its class,
/// and the classes of its replies.
fn thread(comments: &[(&str, &[&str])]) -> String {
    let items: String = comments
        .iter()
        .map(|(class, replies)| {
            let children: String = replies
                .iter()
                .map(|r| format!("<li class=\"{r}\"><article class=comment-body><p>Yes.</p></article></li>"))
                .collect();
            let children = if children.is_empty() {
                String::new()
            } else {
                format!("<ol class=children>{children}</ol>")
            };
            format!("<li class=\"{class}\"><article class=comment-body><p>A comment.</p></article>{children}</li>")
        })
        .collect();
    format!(
        "<body><main><article class=entry><p>Text.</p><p>More.</p></article><ol class=comment-list>{items}</ol></main></body>"
    )
}

#[test]
fn replies_are_items_of_their_threads_list() {
    // WordPress alternates `even`/`odd` over every comment, replies too: here all top-level
    // comments happen to be `even`, there not; the replies tell the thread's shared tokens.
    let all_even = thread(&[
        (
            "comment even thread-even depth-1 parent",
            &["comment odd alt depth-2"],
        ),
        ("comment even thread-odd thread-alt depth-1", &[]),
    ]);
    let mixed = thread(&[
        ("comment even thread-even depth-1", &[]),
        (
            "comment odd alt thread-odd thread-alt depth-1 parent",
            &["comment even depth-2"],
        ),
    ]);
    check(&all_even, &mixed, true);
    // A reply that shares no token with its comment is an item of its own list.
    let other = thread(&[
        ("comment even thread-even depth-1 parent", &["pingback"]),
        ("comment even thread-odd thread-alt depth-1", &[]),
    ]);
    let other_mixed = thread(&[
        ("comment even thread-even depth-1", &[]),
        (
            "comment odd alt thread-odd thread-alt depth-1 parent",
            &["pingback"],
        ),
    ]);
    check(&other, &other_mixed, false);
}
