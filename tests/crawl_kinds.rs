//! `silhouette crawl` end to end on two manuals. A hand-written one: pages of one site
//! frame whose text lies right in `<body>`, each author writing other blocks between the
//! paragraphs. They are one kind; the crawl keeps about one of them (ALGORITHM.md §3, 17.),
//! and the site's other kinds do not take them in. A generated one (Texinfo's node pages):
//! each node in a section named by its level, which is no other kind (18.). And an API
//! reference as Javadoc writes one: each class page's summary tables are `div` cells marked
//! with their column and their row's stripe, a table of one row without odd rows (2.,
//! `bare-items`).

use std::fmt::Write as _;

use crate::crawl_support::{config, crawl, field, jsonl};
use crate::sites::{Response, Rng, Server};

/// How many pages of text the manual has.
const PAGES: u32 = 16;

/// The site's `<head>`.
const HEAD: &str = "<head><meta charset=utf-8><title>Manual</title>\
    <meta name=viewport content=width=device-width><link rel=stylesheet href=/s.css></head>";

/// The site's frame above the text: a logo, a menu and a search form, classed as a
/// hand-written site's header is.
const HEADER: &str = "<div class=nosearch><a href=/><img class=logo src=/logo.png alt=logo></a>\
    <div class=tagline>Small. Fast. Reliable.</div><div class=\"menu mainmenu\"><ul>\
    <li><a href=/>Home</a></li><li class=desktoponly><a href=/p/1>About</a></li>\
    <li class=wideonly><a href=/k/download>Download</a></li><li class=mobileonly>\
    <a href=/>Menu</a></li><li class=search><a href=/k/search>Search</a></li></ul></div>\
    <div class=\"menu submenu\"><ul><li><a href=/>Features</a></li></ul></div>\
    <div class=searchmenu><form method=GET action=/search><select name=s><option value=d>Docs\
    </option></select><input type=text name=q><input type=submit value=Go></form></div></div>\
    <script>function toggle(){}</script>";

/// The line below every page.
const FOOTER: &str = "<p align=center><small><i>This page last modified in 2024</i></small></p>";

/// The site's other kinds of page, in the frame: each is kept, and together they teach
/// the crawl the host's frame before the first page of text comes.
const KINDS: [(&str, &str); 5] = [
    (
        "search",
        "<form class=query action=/k/search><input name=term><select name=scope><option>all\
         </option></select><input type=checkbox name=exact><button>Find</button></form>",
    ),
    (
        "download",
        "<table class=downloads><thead><tr><th>File</th><th>Size</th><th>Checksum</th></tr>\
         </thead><tr><td><a href=/>a.zip</a></td><td>1</td><td>x</td></tr></table>",
    ),
    (
        "index",
        "<div class=columns><div class=col><ul class=links><li><a href=/>a</a></li></ul></div>\
         <div class=col><ul class=links><li><a href=/>b</a></li></ul></div></div>",
    ),
    (
        "chronology",
        "<table class=chrono><thead><tr><th>Date</th><th>Version</th></tr></thead>\
         <tr><td>2024</td><td><a href=/>3.45</a></td></tr></table>",
    ),
    (
        "login",
        "<form class=login method=POST action=/k/login><label>User <input name=user></label>\
         <label>Password <input type=password name=pass></label><button>Log in</button></form>",
    ),
];

/// Page `n`: the frame, then its text right in `<body>`, with blocks drawn for the page.
fn page(n: u32) -> String {
    const BLOCKS: [&str; 8] = [
        "<h2>Section</h2>",
        "<blockquote><pre>CREATE TABLE t(x);</pre></blockquote>",
        "<ol><li>first<li>second</ol>",
        "<ul><li><p>an item with a paragraph</p></li></ul>",
        "<hr>",
        "<dl><dt>term</dt><dd>what it means</dd></dl>",
        "<table border=1><tr><th>name</th><th>value</th></tr><tr><td>a</td><td>1</td></tr></table>",
        "<h3>Subsection</h3><p>more <b>bold</b> text</p>",
    ];
    let mut rng = Rng::new(&format!("{n}: a manual page"));
    let mut body = format!("{HEADER}<h1 align=center>Page {n}</h1><p>The page's first words.</p>");
    for _ in 0..rng.range(1, 2) {
        body.push_str(BLOCKS[rng.range(0, 7) as usize]);
        let _ = write!(body, "<p>A paragraph of page {n}.</p>");
    }
    let next = n % PAGES + 1;
    let _ = write!(
        body,
        "<p>See <a href=/p/{next}>the next page</a>.</p>\
         {FOOTER}"
    );
    format!("<!DOCTYPE html><html>{HEAD}<body>{body}</body></html>")
}

/// The home page links the other kinds first, then every page of text.
fn manual(target: &str) -> Response {
    let path = target.split('?').next().unwrap_or(target);
    let framed = |content: &str| {
        Response::html(format!(
            "<!DOCTYPE html><html>{HEAD}<body>{HEADER}{content}{FOOTER}</body></html>"
        ))
    };
    if path == "/" {
        let links: String = KINDS
            .iter()
            .map(|(name, _)| format!("/k/{name}"))
            .chain((1..=PAGES).map(|n| format!("/p/{n}")))
            .map(|l| format!("<li><a href={l}>{l}</a></li>"))
            .collect();
        return framed(&format!("<h1>Manual</h1><ul class=toc>{links}</ul>"));
    }
    if let Some((_, content)) = path
        .strip_prefix("/k/")
        .and_then(|k| KINDS.iter().find(|(name, _)| *name == k))
    {
        return framed(content);
    }
    numbered(path, "/p/", page)
}

/// Page `n` of `page` at `path` if that is `prefix` and `n`, `n` in `1..=PAGES`; else 404.
fn numbered(path: &str, prefix: &str, page: fn(u32) -> String) -> Response {
    match path
        .strip_prefix(prefix)
        .and_then(|n| n.parse::<u32>().ok())
    {
        Some(n) if (1..=PAGES).contains(&n) => Response::html(page(n)),
        _ => crate::sites::not_found(),
    }
}

/// Crawls `site` (follow-links, one page at a time) and checks that every one of its
/// `PAGES` pages under `prefix` was judged and one or two of them were kept.
fn one_kind(site: fn(&str) -> Response, prefix: &str) {
    let server = Server::start(|_| site);
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = config("on-duplicate = \"keep\"", "concurrency = 1");
    let r = crawl(dir.path(), &toml, &[&server.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let records = jsonl(&dir.path().join("state/decisions.jsonl"));
    let pages: Vec<(&str, Option<&str>)> = records
        .iter()
        .filter_map(|r| field(r, "url").map(|u| (u, field(r, "decision"))))
        .filter(|(u, _)| u.contains(prefix))
        .collect();
    assert_eq!(pages.len(), PAGES as usize, "every page judged: {pages:?}");
    let kept: Vec<&str> = pages
        .iter()
        .filter(|(_, d)| *d == Some("kept"))
        .map(|(u, _)| *u)
        .collect();
    assert!(
        (1..=2).contains(&kept.len()),
        "{} of {PAGES} pages kept: {kept:?}",
        kept.len()
    );
}

#[test]
fn a_manuals_pages_whose_text_lies_in_body_are_one_kind() {
    // Their text is prose: a page or two kept, none of them merged into the frame's other
    // kinds (an article and a page without prose are two kinds), and the rest compared on
    // the frame around their text, not on which blocks each author wrote.
    one_kind(manual, "/p/");
}

/// The levels of a Texinfo manual's nodes: the class of the node's section and of its
/// heading, and the heading's rank.
const LEVELS: [(&str, u32); 4] = [
    ("chapter", 2),
    ("section", 3),
    ("subsection", 4),
    ("unnumbered", 2),
];

/// Node `n` of a Texinfo manual: a navigation line, then its heading and text in a `div`
/// named by its level: paragraphs, a definition list and an example.
fn node(n: u32) -> String {
    let (level, rank) = LEVELS[(n % 4) as usize];
    let next = n % PAGES + 1;
    format!(
        "<!DOCTYPE html><html>{HEAD}<body lang=en><div class={level} id=N{n}>\
         <div class=header><p>Next: <a href=/n/{next} rel=next>{next}</a>, \
         Up: <a href=/ rel=up>Top</a></p></div><hr><span id=index-{n}></span>\
         <h{rank} class={level}>{n} Node</h{rank}><p>The first words of node {n}.</p>\
         <dl compact=compact><dt><code>-q</code></dt><dd><p>Quiet.</p></dd></dl>\
         <p>More of node {n}.</p><div class=example><pre class=example>x = {n};</pre></div>\
         <p>The last words.</p></div></body></html>"
    )
}

/// The top node links every other node.
fn texinfo(target: &str) -> Response {
    let path = target.split('?').next().unwrap_or(target);
    if path == "/" {
        let links: String = (1..=PAGES)
            .map(|n| format!("<li><a href=/n/{n} accesskey={n}>Node {n}</a></li>"))
            .collect();
        return Response::html(format!(
            "<!DOCTYPE html><html>{HEAD}<body lang=en><div class=top id=Top>\
             <div class=header><p>Next: <a href=/n/1>1</a></p></div><hr>\
             <h1 class=top>Manual</h1><p>This manual is about nodes.</p>\
             <ul class=mini-toc>{links}</ul></div></body></html>"
        ));
    }
    numbered(path, "/n/", node)
}

#[test]
fn a_manuals_nodes_of_every_level_are_one_kind() {
    // The level's class no longer keys the section and every block below it: the nodes
    // are one kind, not one per level.
    one_kind(texinfo, "/n/");
}

/// The cells of a Javadoc summary table of `rows` rows whose name column is `name`.
fn summary_table(name: &str, rows: u32) -> String {
    let mut cells = format!(
        "<div class=\"table-header col-first\">Modifier</div>\
         <div class=\"table-header {name}\">Name</div>\
         <div class=\"table-header col-last\">Description</div>"
    );
    for row in 0..rows {
        let stripe = if row % 2 == 0 { "even" } else { "odd" };
        let _ = write!(
            cells,
            "<div class=\"col-first {stripe}-row-color\"><code>int</code></div>\
             <div class=\"{name} {stripe}-row-color\"><code><a href=#m{row}>m{row}</a></code></div>\
             <div class=\"col-last {stripe}-row-color\"><div class=block>Does {row}.</div></div>"
        );
    }
    format!("<div class=\"summary-table three-column-summary\">{cells}</div>")
}

/// Class page `n` of an API reference: one of its three summary tables has three rows,
/// the others one, so each of three pages in a row holds odd rows the other two lack.
fn class_page(n: u32) -> String {
    let rows = |table: u32| if n % 3 == table { 3 } else { 1 };
    format!(
        "<!DOCTYPE html><html>{HEAD}<body class=class-declaration-page><header class=flex-header>\
         <nav><ul class=nav-list><li><a href=/>Overview</a></li></ul></nav></header>\
         <div class=flex-content><main role=main><div class=header><h1 class=title>Class C{n}</h1>\
         </div><section class=class-description><div class=block>The class {n}.</div></section>\
         <section class=summary><ul class=summary-list>\
         <li><section class=field-summary><h2>Field Summary</h2>{}</section></li>\
         <li><section class=constructor-summary><h2>Constructor Summary</h2>{}</section></li>\
         <li><section class=method-summary><h2>Method Summary</h2>{}</section></li>\
         </ul></section></main></div></body></html>",
        summary_table("col-second", rows(0)),
        summary_table("col-constructor-name", rows(1)),
        summary_table("col-second", rows(2)),
    )
}

/// The overview page links every class page.
fn api_reference(target: &str) -> Response {
    let path = target.split('?').next().unwrap_or(target);
    if path == "/" {
        let links: String = (1..=PAGES)
            .map(|n| format!("<li><a href=/c/{n}>C{n}</a></li>"))
            .collect();
        return Response::html(format!(
            "<!DOCTYPE html><html>{HEAD}<body class=package-declaration-page><main role=main>\
             <h1>Overview</h1><ul class=class-list>{links}</ul></main></body></html>"
        ));
    }
    numbered(path, "/c/", class_page)
}

#[test]
fn an_api_references_class_pages_of_any_table_length_are_one_kind() {
    // A summary table of one row has no odd rows: cells joined only through one another
    // keep no token, so the classes are one kind, not one per combination of tables.
    one_kind(api_reference, "/c/");
}
