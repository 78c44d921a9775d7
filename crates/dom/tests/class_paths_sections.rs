//! The `class-paths` model's page-wide sections named by their level (ALGORITHM.md §3, 18.):
//! a flow of prose right in `<body>` whose first heading repeats its class (Texinfo's
//! `div.chapter` around `h2.chapter`) is labelled by its tag alone, and its blocks below it,
//! so a manual's nodes of two levels differ in their heading only.

mod support;

use support::{check_differ, paths};

/// The names of the paths of `a` that `b` lacks, sorted.
fn only_in(a: &str, b: &str) -> Vec<String> {
    let explain = |html: &str| {
        support::hasher()
            .explain(html.as_bytes(), None)
            .expect("explains")
    };
    let ((_, names), (theirs, _)) = (explain(a), explain(b));
    let theirs = paths(&theirs).ids();
    let mut only: Vec<String> = names
        .into_iter()
        .filter(|p| !theirs.contains(&p.id))
        .map(|p| p.name)
        .collect();
    only.sort();
    only
}

/// A Texinfo node of level `class`, its heading `<h{rank}>` carrying `heading`'s class.
fn node(class: &str, rank: u32, heading: &str) -> String {
    format!(
        "<body><div class={class}><div class=header><p>Next: <a href=n>n</a></p></div><hr>\
         <h{rank} class={heading}>1.2 Title</h{rank}><p>Some words.</p>\
         <dl><dt>-q</dt><dd><p>Quiet.</p></dd></dl><div class=example><pre>x</pre></div>\
         <p>More words.</p></div></body>"
    )
}

fn check(a: &str, b: &str, expected: &[&str]) {
    assert_eq!(only_in(a, b), expected, "{a:?} vs {b:?}");
}

#[test]
fn a_sections_level_names_no_template() {
    // A chapter's node and a subsection's: the same blocks, their headings' ranks apart.
    let chapter = node("chapter", 2, "chapter");
    let subsection = node("subsection", 4, "subsection");
    check(&chapter, &subsection, &["html/body/div[level]/h2"]);
    check(&subsection, &chapter, &["html/body/div[level]/h4"]);
    // A newer `makeinfo`'s section: its class begins with the heading's.
    let extent = node("section-level-extent", 3, "section");
    check(&extent, &node("section", 3, "section"), &[]);
    // Among other class tokens, in any case.
    check(&node("\"top Chapter\"", 2, "\"x chapter\""), &chapter, &[]);
}

#[test]
fn a_class_the_heading_does_not_repeat_is_the_templates() {
    // `div.document` around `h1.title` (docutils), an application's `div.content` around
    // a bare `h1`: the class keys the section and its blocks (their tags alone, as in any
    // flow of prose) as before.
    let document = node("document", 1, "title");
    let other = node("other", 1, "title");
    check(
        &document,
        &other,
        &[
            "html/body/div.document",
            "html/body/div.document/dd",
            "html/body/div.document/div",
            "html/body/div.document/dl",
            "html/body/div.document/dt",
            "html/body/div.document/h1",
            "html/body/div.document/hr",
            "html/body/div.document/p",
            "html/body/div.document/pre",
        ],
    );
    check_differ(&node("content", 1, "x"), &node("main-content", 1, "x"));
    // A token that only begins like the heading's is no level (`sectionbody`, `chapters`).
    check_differ(
        &node("sectionbody", 2, "section"),
        &node("chapters", 2, "chapter"),
    );
}

#[test]
fn only_a_page_wide_section_of_prose() {
    // Inside another element the section's class stays.
    let nested = |class: &str| format!("<div class=page>{}</div>", node(class, 2, class));
    check_differ(&nested("chapter"), &nested("section"));
    // A section without a paragraph of prose is no flow of prose: its classes stay.
    let list = |class: &str| {
        format!("<div class={class}><h2 class={class}>T</h2><ul class=x><li>a</li></ul></div>")
    };
    check_differ(&list("chapter"), &list("section"));
    // The main content is its own flow (ALGORITHM.md §3, 7.).
    let main = |class: &str| {
        format!("<main class={class}><h2 class={class}>T</h2><p>x</p><p>y</p></main>")
    };
    check_differ(&main("chapter"), &main("section"));
}

/// A DocBook page: a `div.sect1` with a title, and `body` in it (its text, its subsections).
fn sect1(body: &str) -> String {
    format!(
        "<body><div class=navheader><a href=p>Prev</a></div><div class=sect1>\
         <div class=titlepage><h2 class=title>19.1 Title</h2></div>{body}</div>\
         <div class=navfooter><a href=n>Next</a></div></body>"
    )
}

/// A DocBook subsection, `div.sect2`, of `paragraphs` paragraphs and a variable list.
fn sect2(paragraphs: usize) -> String {
    format!(
        "<div class=sect2><div class=titlepage><h3 class=title>19.1.1 Sub</h3></div>{}\
         <div class=variablelist><dl class=variablelist><dt>x</dt><dd><p>y</p></dd></dl>\
         </div></div>",
        "<p>Words.</p>".repeat(paragraphs)
    )
}

#[test]
fn a_section_of_sections_is_the_flow_its_sections_text_is_in() {
    // A section whose text opens with a paragraph and one whose text lies in its
    // subsections (`div.sect1` around `div.sect2`s, one label once digits are masked):
    // their blocks lie below the section either way, labelled by their tags.
    let flat = sect1(
        "<p>Words.</p><p>More.</p><div class=variablelist><dl class=variablelist><dt>x</dt>\
         <dd><p>y</p></dd></dl></div>",
    );
    let nested = sect1(&format!(
        "<div class=toc><dl class=toc><dt><a href=a>a</a></dt></dl></div>{}{}",
        sect2(2),
        sect2(1)
    ));
    // What the nested one has of its own: its table of contents' link and its
    // subsections' headings, at the section's place; the flat one has nothing of its own.
    check(
        &nested,
        &flat,
        &["html/body/div.sect0/a", "html/body/div.sect0/h3"],
    );
    check(&flat, &nested, &[]);
    // Untitled sections of another label are no section's sections (titled ones are, in a
    // section right in `<body>`: below): the outer one keeps its class and nests its blocks
    // below each section.
    let other = sect1(&sect2(2).replace("sect2", "part").replace(
        "<div class=titlepage><h3 class=title>19.1.1 Sub</h3></div>",
        "",
    ));
    assert!(only_in(&other, &flat).contains(&"html/body/div.sect0/div.part".to_owned()));
}

/// A DocBook chapter right in `<body>` (its title four levels down, as DocBook writes it)
/// around `body`, inside `wrap` (`{}` for none).
fn chapter(wrap: &str, body: &str) -> String {
    let chapter = format!(
        "<div class=chapter><div class=titlepage><div><div><h2 class=title>3. Title</h2>\
         </div></div></div><div class=toc><dl class=toc><dt><a href=s>s</a></dt></dl></div>\
         {body}</div>"
    );
    format!(
        "<body><div class=navheader><a href=p>Prev</a></div>{}</body>",
        wrap.replace("{}", &chapter)
    )
}

/// A DocBook section, titled, of two paragraphs and `blocks`.
fn section(blocks: &str) -> String {
    format!(
        "<div class=section><div class=titlepage><div><div><h2 class=title>3.1 Sub</h2>\
         </div></div></div><p>Words.</p><p>More.</p>{blocks}</div>"
    )
}

#[test]
fn a_page_wide_titled_section_of_titled_sections_is_the_flow() {
    // A chapter whose text lies in its one section, and one with a table of its own beside
    // its section's listing: the table and the listing are blocks of one flow, the
    // chapter, labelled by their tags.
    let table = "<div class=table><p class=title>Table 1</p><table><tr><td>x</td></tr></table>\
                 </div>";
    let plain = chapter("{}", &section(""));
    let more = chapter("{}", &format!("{table}{}", section("<pre>x</pre>")));
    check(
        &more,
        &plain,
        &[
            "html/body/div.chapter/pre",
            "html/body/div.chapter/table",
            "html/body/div.chapter/tbody",
            "html/body/div.chapter/td",
            "html/body/div.chapter/tr",
        ],
    );
    check(&plain, &more, &[]);
    // Not a child of `<body>` (an application's layout around its content), a section
    // that is its container's title (a text block opening on its heading), or a container
    // without a title of its own (a sidebar): the container keeps its class, and the table
    // its place below it.
    let wrapped = |body: &str| chapter("<div class=layout>{}</div>", body);
    let untitled = |body: &str| {
        chapter("{}", body).replace(
            "<div class=titlepage><div><div><h2 class=title>3. Title</h2></div></div></div>",
            "",
        )
    };
    let first = |body: &str| {
        untitled(body)
            .replace(
                "<div class=toc><dl class=toc><dt><a href=s>s</a></dt></dl></div>",
                "",
            )
            .replace(
                "<div class=titlepage><div><div><h2 class=title>3.1 Sub</h2></div></div></div>",
                "<h2>3.1 Sub</h2>",
            )
    };
    let cases: [&dyn Fn(&str) -> String; 3] = [&wrapped, &untitled, &first];
    for make in cases {
        let more = make(&format!("{}{table}", section("")));
        assert!(
            only_in(&more, &make(&section("")))
                .iter()
                .any(|p| p.ends_with("div.chapter/div.table")),
            "{more:?}"
        );
    }
}
