//! `silhouette compare A B`.

use crate::common::{fixtures, run, run_in, scratch};
use crate::sites::fixture_site;

#[test]
fn compare_prints_both_fingerprints_distance_and_verdict() {
    let r = run(&["compare", "--features", "classic", "p.html", "div.html"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let expected = "A  f123317ed83fa3c7       4 elements  p.html\n\
                    B  f132317ed83fa3c6       7 elements  div.html\n\
                    distance: 3 bits (structure/classic/fnv1-64/decay=0.45)\n\
                    content distance: none (A and B too little text)\n\
                    verdict: same structure (distance 3 <= threshold 5)\n";
    let (verdict, note) = r.stdout.split_at(expected.len());
    assert_eq!(verdict, expected);
    assert!(
        note.starts_with("note: a crawl can decide otherwise: ")
            && note.ends_with("what it kept\n"),
        "{note}"
    );

    let r = run(&[
        "compare",
        "--features",
        "classic",
        "--threshold",
        "2",
        "p.html",
        "div.html",
    ]);
    assert!(
        r.stdout
            .contains("\nverdict: different structure (distance 3 > threshold 2)\n"),
        "{}",
        r.stdout
    );

    let r = run_in(
        &fixtures(),
        &["compare", "-", "p.html"],
        b"<p>other text</p>",
    );
    assert!(r.stdout.contains("distance: 0 bits"), "{}", r.stdout);
}

#[test]
fn compare_errors_name_the_file() {
    let r = run(&["compare", "p.html", "nope.html"]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""));
    assert!(
        r.stderr
            .starts_with("error: nope.html: cannot read: No such file"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1);
}

/// A MediaWiki-style article: the skin names the page in `<body class>` (`page-Main_Page`).
fn wiki_article(name: &str) -> String {
    format!(
        "<!DOCTYPE html><html class=client-nojs lang=en><head><title>{name}</title>\
         <link rel=stylesheet href=/s.css></head>\
         <body class=\"mediawiki ltr sitedir-ltr ns-0 ns-subject page-{name} skin-vector action-view\">\
         <div id=mw-page-base class=noprint></div><div id=content class=mw-body role=main>\
         <h1 class=firstHeading>{name}</h1><div id=bodyContent class=mw-body-content>\
         <div id=mw-content-text class=mw-content-ltr><div class=mw-parser-output>\
         <p>Some text about {name}.</p><div id=toc class=toc><ul><li class=toclevel-1>\
         <a href=#a>A</a></li></ul></div><h2><span class=mw-headline>History</span></h2>\
         <p>More text.</p><table class=wikitable><tr><th>x</th></tr><tr><td>1</td></tr></table>\
         </div></div></div></div><div id=mw-navigation><div id=mw-panel><div class=portal>\
         <h3>Navigation</h3><div class=body><ul><li><a href=/>Main</a></li></ul></div></div></div></div>\
         <div id=footer role=contentinfo><ul id=footer-info><li>Last edited</li></ul></div></body></html>"
    )
}

/// Two articles of one MediaWiki skin are one structure: the page's name in `<body class>` is
/// a path of its own, not part of every path below `<body>`.
#[test]
fn a_page_name_in_the_body_class_does_not_split_a_template() {
    let (a, b) = (wiki_article("Main_Page"), wiki_article("Other_Article"));
    let dir = scratch(&[("a.html", a.as_bytes()), ("b.html", b.as_bytes())]);
    let r = run_in(dir.path(), &["compare", "a.html", "b.html"], b"");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let verdict = r
        .stdout
        .lines()
        .find(|l| l.starts_with("verdict: "))
        .unwrap_or_default();
    assert!(
        verdict.starts_with("verdict: same structure (distance "),
        "{}",
        r.stdout
    );
    let similarity = r
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("similarity: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or_default();
    assert!(similarity > 0.9, "{}", r.stdout);
}

#[test]
fn compare_fetches_urls_as_the_crawl_does() {
    let site = fixture_site();
    // A fetched page against the same page read from a file: the same fingerprint.
    let url = site.url("/p.html");
    let r = run_in(
        &fixtures(),
        &["compare", "--features", "classic", &url, "p.html"],
        b"",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first: Vec<&str> = r.stdout.lines().take(3).collect();
    assert_eq!(
        first,
        [
            format!("A  f123317ed83fa3c7       4 elements  {url}"),
            "B  f123317ed83fa3c7       4 elements  p.html".to_owned(),
            "distance: 0 bits (structure/classic/fnv1-64/decay=0.45)".to_owned(),
        ]
    );
    // A page that cannot be fetched is an error (2), naming its URL.
    let missing = site.url("/missing.html");
    let r = run_in(&fixtures(), &["compare", &missing, "p.html"], b"");
    assert_eq!(r.code, 2, "{}", r.stdout);
    assert!(
        r.stderr.contains(&format!("{missing}: http_status: ")),
        "{}",
        r.stderr
    );
}

/// `--paths` names the paths each page has and the other has not, with their levels and the
/// weight they add: where two pages differ.
#[test]
fn compare_paths_shows_where_two_pages_differ() {
    let page = |extra: &str| {
        format!(
            "<body><div class=nav><a href=/>h</a></div><main><h1>t</h1>\
             <table class=list><tr><td>1</td></tr></table>{extra}</main></body>"
        )
    };
    let (a, b) = (page(""), page("<form class=search><input name=q></form>"));
    let dir = scratch(&[("a.html", a.as_bytes()), ("b.html", b.as_bytes())]);
    let r = run_in(dir.path(), &["compare", "--paths", "a.html", "b.html"], b"");
    assert_eq!(r.stderr, "");
    let listed: Vec<&str> = r
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("paths only in A"))
        .take_while(|l| !l.starts_with("note: "))
        .collect();
    assert_eq!(
        listed,
        [
            "paths only in A: 0 of 11 (weight 0.00 of 4.81 at decay 0.76)",
            "paths only in B: 2 of 13 (weight 1.01 of 5.83 at decay 0.76)",
            "    1    html/body/main/form.search",
            "    5    html/body/main/form.search/input[field]",
        ]
    );
    // Without the flag, no path is listed.
    let r = run_in(dir.path(), &["compare", "a.html", "b.html"], b"");
    assert!(!r.stdout.contains("paths only in"), "{}", r.stdout);
}

/// `compare` of pages A and B (`[a, b, c]`) exits 1 with `verdict`, and of A and C exits 0:
/// B is another kind of page, C the same kind. Returns A and B's output.
fn check_apart([a, b, c]: [String; 3], verdict: &str) -> String {
    let dir = scratch(&[
        ("a.html", a.as_bytes()),
        ("b.html", b.as_bytes()),
        ("c.html", c.as_bytes()),
    ]);
    let r = run_in(dir.path(), &["compare", "a.html", "b.html"], b"");
    assert_eq!(r.code, 1, "{a}\n{}", r.stdout);
    assert!(r.stdout.contains(verdict), "{a}\n{}", r.stdout);
    let same = run_in(dir.path(), &["compare", "a.html", "c.html"], b"");
    assert_eq!(same.code, 0, "{a}\n{}", same.stdout);
    r.stdout
}

/// Two pages alike but for the fields their form asks for are two kinds of page, as a crawl
/// judges them: `compare` says why. So it does when a widget toolkit nests the form's fields
/// below the depth limit of the paths (14 wrappers here).
#[test]
fn compare_says_when_two_forms_ask_for_other_fields() {
    for wrappers in [0, 14] {
        let page = |fields: &str| {
            let wrap = "<div class=widget>".repeat(wrappers);
            format!(
                "<body><div class=nav><a href=/>h</a><a href=/a>a</a></div><main><h1>Settings</h1>\
                 <form class=prefs><fieldset><legend>x</legend>{wrap}{fields}</fieldset>\
                 <input type=hidden name=token><button>Save</button></form></main></body>"
            )
        };
        let (a, b, c) = (
            page("<input name=email><input name=name><select name=lang></select>"),
            page(
                "<input name=tz><input name=dateformat type=checkbox><select name=theme></select>",
            ),
            page("<input name=email><input name=name><select name=lang></select><input name=nick>"),
        );
        check_apart(
            [a, b, c],
            "verdict: different structure (their forms ask for other fields: 1 of 7 shared)",
        );
    }
}

/// A form whose fields are one path (two checkboxes of one name) is another form than one
/// with two fields it is not among, and the same form as one that holds it too.
#[test]
fn compare_tells_a_one_field_form_from_another_form() {
    let page = |fields: &str| {
        format!(
            "<body><div class=nav><a href=/>h</a><a href=/a>a</a></div><main><h1>Roadmap</h1>\
             <form class=filter><fieldset><legend>x</legend>{fields}</fieldset></form>\
             <ul><li>one<li>two</ul></main></body>"
        )
    };
    let (a, b, c) = (
        page("<input name=show type=checkbox><input name=show type=checkbox>"),
        page("<select name=by><option>x</option></select><input name=showempty type=checkbox>"),
        page("<input name=show type=checkbox><select name=by><option>x</option></select>"),
    );
    check_apart(
        [a, b, c],
        "verdict: different structure (their forms ask for other fields: 0 of 3 shared)",
    );
}

/// Two pages alike but for the columns of the list they show are two kinds of page, as a
/// crawl judges them: `compare` says why; a list with one column less is the same list. So
/// it does when an application's frame nests the list below the depth limit of the paths
/// (12 wrappers here).
#[test]
fn compare_says_when_two_tables_show_other_columns() {
    for wrappers in [0, 12] {
        let page = |columns: &[&str]| {
            let head: String = columns.iter().map(|c| format!("<th>{c}</th>")).collect();
            let nav: String = ('a'..='j')
                .map(|i| format!("<li class=i{i}><a href=/x{i}>x</a></li>"))
                .collect();
            let wrap = "<div class=card>".repeat(wrappers);
            // A heavy frame: the two lists' pages are 0.778 alike, above min-similarity.
            format!(
                "<body><div class=nav><ul>{nav}</ul><a href=/>h</a></div><div class=side>\
                 <h3>s</h3><ul><li>a</li></ul></div><div id=content><h2>List</h2>{wrap}\
                 <table class=list><thead><tr>{head}</tr></thead><tbody><tr><td>1</td></tr>\
                 </tbody></table></div><div class=footer><p class=f>f</p></div></body>"
            )
        };
        let (a, b, c) = (
            page(&["Forum", "Topics", "Messages", "Last message"]),
            page(&["Subject", "Author", "Replies", "Last message"]),
            page(&["Forum", "Topics", "Last message"]),
        );
        let apart = check_apart(
            [a, b, c],
            "verdict: different structure (their tables are other tables: 1 of 7 columns shared)",
        );
        if wrappers == 0 {
            assert!(apart.contains("similarity: 0.778"), "{apart}");
        }
    }
}

/// Two records' pages alike but for the keys of their attributes (a site's and a cable's,
/// an application's detail views a dozen levels deep) are two kinds of page, as a crawl
/// judges them: `compare` says why; a record of the same model is the same page.
#[test]
fn compare_says_when_two_records_show_other_keys() {
    let page = |keys: &[&str]| {
        let rows: String = keys
            .iter()
            .map(|k| format!("<tr><th scope=row>{k}</th><td><a href=/v>v</a></td></tr>"))
            .collect();
        let nav: String = ('a'..='j')
            .map(|i| format!("<li class=i{i}><a href=/x{i}>x</a></li>"))
            .collect();
        format!(
            "<body><div class=nav><ul>{nav}</ul><a href=/>h</a></div><div class=page>{}\
             <div class=card><h2 class=card-header>Record</h2><table class=attr-table>{rows}\
             </table></div></div><div class=footer><span class=f>f</span></div></body>",
            "<div class=wrapper>".repeat(8)
        )
    };
    check_apart(
        [
            page(&["Region", "Group", "Status", "Tenant", "Facility"]),
            page(&["Type", "Status", "Tenant", "Label", "Length"]),
            page(&["region", "GROUP", "Status", "Tenant", "Facility"]),
        ],
        "verdict: different structure (their tables are other tables: 2 of 8 columns shared)",
    );
}

/// Two pages of one skin, no articles, each with a block the other lacks (a history list,
/// a diff) are two kinds of page, as a crawl judges them before it learns that those paths
/// vary: `compare` says why; a history with a pager more is the same list.
#[test]
fn compare_says_when_each_page_holds_a_block_the_other_lacks() {
    let page = |region: &str| {
        let nav: String = ('a'..='p')
            .map(|i| format!("<li class=i{i}><a href=/x{i}>x</a></li>"))
            .collect();
        format!(
            "<body><div class=nav><ul>{nav}</ul><a href=/>h</a></div><div class=side><h3>s</h3>\
             <ul class=tools><li>a</li></ul></div><div id=content><h1 class=title>T</h1>\
             {region}</div><div class=footer><span class=f>f</span></div></body>"
        )
    };
    let history = "<ul class=history><li class=rev><span class=date>d</span>\
                   <span class=author>a</span><a href=/r1>r</a></li></ul>";
    let (a, b, c) = (
        page(history),
        page(
            "<h2 class=revision>r</h2><pre class=diff><span class=added>+</span>\
              <span class=deleted>-</span></pre>",
        ),
        page(&format!(
            "{history}<div class=pager><a class=next href=/p2>2</a></div>"
        )),
    );
    check_apart(
        [a, b, c],
        "verdict: different structure (each holds a block the other lacks (their articles' blocks aside): 5 and 4 paths of its own)",
    );
}

/// Pages beyond the threshold, within `far-reach` × it, are the same structure only at
/// `min-similarity` + `far-margin`, as the crawl judges them (ALGORITHM.md §3, 13.).
#[test]
fn compare_judges_pages_beyond_the_threshold_at_a_higher_similarity() {
    // One chain of nested landmarks, and the same chain one or three elements shorter.
    let page = |n: usize| {
        let tags = [
            "header", "section", "aside", "article", "nav", "footer", "figure", "address",
        ];
        let open: String = tags[..n].iter().map(|t| format!("<{t}>")).collect();
        let close: String = tags[..n].iter().rev().map(|t| format!("</{t}>")).collect();
        format!("<html><body>{open}x{close}</body></html>")
    };
    let (all, one_less, three_less) = (page(8), page(7), page(5));
    let off = "[dedup]\nfar-reach = 1\n";
    let dir = scratch(&[
        ("a.html", all.as_bytes()),
        ("b.html", one_less.as_bytes()),
        ("c.html", three_less.as_bytes()),
        ("off.toml", off.as_bytes()),
    ]);
    // (page B, extra arguments, exit code, verdict)
    let cases: [(&str, &[&str], i32, &str); 3] = [
        (
            "b.html",
            &[],
            0,
            "verdict: same structure (distance 3 > threshold 2, within far-reach (6): similarity 0.909 >= 0.80 (min-similarity + far-margin))",
        ),
        (
            "c.html",
            &[],
            1,
            "verdict: different structure (distance 3 > threshold 2, within far-reach (6): similarity 0.727 < 0.80 (min-similarity + far-margin))",
        ),
        (
            "b.html",
            &["--config", "off.toml"],
            1,
            "verdict: different structure (distance 3 > threshold 2)",
        ),
    ];
    for (b, extra, code, verdict) in cases {
        let mut args = vec!["compare", "--threshold", "2"];
        args.extend_from_slice(extra);
        args.extend(["a.html", b]);
        let r = run_in(dir.path(), &args, b"");
        assert_eq!(r.code, code, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.lines().any(|l| l == verdict),
            "{args:?}: {}",
            r.stdout
        );
    }
}

/// Two articles of one template whose authors wrote other blocks between their paragraphs
/// (a definition list, a nested section, a listing) are compared without those blocks, as a
/// crawl compares them: `compare` prints that similarity and judges by it.
#[test]
fn compare_judges_two_articles_without_their_articles_blocks() {
    let page = |blocks: &str| {
        format!(
            "<body><div class=related><ul><li><a href=/>index</a></li></ul></div>\
             <div class=sidebar><h3>Contents</h3><p>q</p><form class=search><input name=q></form></div>\
             <div role=main class=body><section><h1>T</h1><p>one</p><blockquote><p>q</p></blockquote>{blocks}</section></div>\
             <div class=footer>f</div></body>"
        )
    };
    let (a, b) = (
        page(
            "<dl class=simple><dt>a</dt><dd><ul class=simple><li><p>x</p></li></ul></dd></dl>\
             <div class=highlight-console><div class=highlight><pre>$ x</pre></div></div>",
        ),
        page(
            "<section><h2>S</h2><p>y</p><ol class=arabic><li><p>z</p></li></ol>\
             <table class=docutils><tr><td>c</td></tr></table></section>",
        ),
    );
    let dir = scratch(&[("a.html", a.as_bytes()), ("b.html", b.as_bytes())]);
    let r = run_in(dir.path(), &["compare", "a.html", "b.html"], b"");
    assert!(
        r.stdout
            .contains("without their articles' blocks (two articles:"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("verdict: same structure"), "{}", r.stdout);
    assert_eq!(r.code, 0, "{}", r.stdout);
    // `--paths` marks them `A` (and prose `P`).
    let r = run_in(dir.path(), &["compare", "--paths", "a.html", "b.html"], b"");
    for marked in [
        " A html/body/div.body/section/dl.simple",
        " PA html/body/div.body/section/section/p",
    ] {
        assert!(
            r.stdout.lines().any(|l| l.ends_with(marked)),
            "{marked}\n{}",
            r.stdout
        );
    }
}
