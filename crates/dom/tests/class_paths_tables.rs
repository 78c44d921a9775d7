//! The `class-paths` model's tables (ALGORITHM.md §3, 2. and 12.): a table's column headers
//! name its kind, its named columns are marked where the table is, and a header cell's text
//! is its own.

mod support;

use proptest::prelude::*;
use silhouette_dom::PathSet;
use support::{check_differ, check_same, hash, paths};

/// A table of `rows` body rows under a `<thead>` row of header cells `heads`, in a page
/// without a main content (an application's list page).
fn listing(heads: &[&str], rows: usize) -> String {
    let head: String = heads.iter().map(|h| format!("<th>{h}</th>")).collect();
    let body: String = (0..rows)
        .map(|i| format!("<tr class=entry><td><a href=\"/r/{i}\">r{i}</a></td></tr>"))
        .collect();
    format!(
        "<div class=menu><a href=/>home</a></div><div class=main><h3>list</h3>\
         <table class=big><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )
}

#[test]
fn a_tables_column_headers_name_its_kind() {
    // Two lists of one markup under other column headers are two kinds of page: every
    // path below the table differs.
    let (tags, branches) = (
        hash(&listing(&["tag", "node"], 3)),
        hash(&listing(&["branch", "node"], 3)),
    );
    assert!(paths(&tags).jaccard(paths(&branches)) < 0.7);
    // Only the headers' letters count: case, digits, punctuation, white space, entities.
    check_same(
        &listing(&["tag", "node"], 3),
        &listing(&[" Tag&nbsp;(2)", "NO&#45;DE:"], 3),
        (22, 22),
    );
    // A word with a digit is data (a revision, a date, a count): left out.
    check_same(
        &listing(&["1000:0418da4d0597", "1001:4c74e7820d50"], 1),
        &listing(&["0:1f2e3d4c", "(1) a1"], 1),
        (16, 16),
    );
    check_same(
        &listing(&["Age (3 days)"], 1),
        &listing(&["age days"], 1),
        (15, 15),
    );
    check_differ(&listing(&["Age (3 days)"], 1), &listing(&["age"], 1));
    // Letters of any script count, lowercased; a no-break space is white space.
    check_same(
        &listing(&["Étiquette"], 1),
        &listing(&["é&nbsp;tiquette"], 1),
        (15, 15),
    );
    check_differ(&listing(&["名称"], 1), &listing(&["类型"], 1));
    // The rows are data: how many, and what they say, does not matter.
    check_same(
        &listing(&["tag", "node"], 1),
        &listing(&["tag", "node"], 9),
        (16, 40),
    );
    // The column order does.
    check_differ(&listing(&["tag", "node"], 1), &listing(&["node", "tag"], 1));
    // Only the first 32 letters of a header count.
    check_same(
        &listing(&[&"x".repeat(32), "node"], 1),
        &listing(&[&format!("{}y", "x".repeat(32)), "node"], 1),
        (16, 16),
    );
    // Inside the main content, an article's tables are its content.
    let article = |h: &str| {
        format!("<main><p>t</p><table><thead><tr><th>{h}</th></tr></thead></table></main>")
    };
    check_same(&article("name"), &article("expression"), (9, 9));
    // No `<thead>` (a wiki's tables), or a row whose headers name rows: no column names.
    let plain = |h: &str| format!("<table><tr><th>{h}</th></tr><tr><td>1</td></tr></table>");
    check_same(&plain("name"), &plain("expression"), (9, 9));
    // Without `<thead>`, a first row of two header cells or more names the columns (a
    // report generator's tables), outside a flow of prose: there a table is the text's.
    let report = |a: &str, b: &str| {
        format!("<table><tr><th>{a}</th><th>{b}</th></tr><tr><td>1</td><td>2</td></tr></table>")
    };
    check_differ(&report("Hosts", "Pages"), &report("URL", "Error hits"));
    let in_text = |a: &str, b: &str| format!("<div><p>text</p>{}</div>", report(a, b));
    check_same(
        &in_text("Hosts", "Pages"),
        &in_text("URL", "Error hits"),
        (13, 13),
    );
    let keys = |h: &str| format!("<table><thead><tr><th>{h}</th><td>1</td></tr></thead></table>");
    check_same(&keys("hash"), &keys("date"), (8, 8));
    // Header cells without letters name nothing either.
    check_same(&listing(&["1", "-"], 1), &listing(&["", ""], 1), (16, 16));
    check_differ(&listing(&["1", "-"], 1), &listing(&["tag", ""], 1));
}

/// The ids of a page's summary whose bits under `mask` are `bits`.
fn summary_ids(html: &str, mask: u32, bits: u32) -> Vec<u32> {
    paths(&hash(html))
        .summary()
        .into_iter()
        .filter(|id| id & mask == bits)
        .collect()
}

/// The marked column ids of a page's summary (third bit, not below prose: `PathSet::TABLE`).
fn columns(html: &str) -> Vec<u32> {
    summary_ids(html, 5, 4)
}

#[test]
fn a_tables_named_columns_are_marked_where_the_table_is() {
    let list = |class: &str, heads: &[&str]| {
        let head: String = heads.iter().map(|h| format!("<th>{h}</th>")).collect();
        format!(
            "<div class=menu><a href=/>home</a></div><div class=main>\
             <table class=\"{class}\"><thead><tr>{head}</tr></thead>\
             <tbody><tr><td>1</td></tr></tbody></table></div>"
        )
    };
    let tickets = columns(&list("listing", &["Ticket", "Summary", "Owner"]));
    assert_eq!(tickets.len(), 3);
    // One column less (a query that filters on it), a sort class on the table, other
    // letter case: the same columns where both show them.
    let fewer = columns(&list("listing sort-desc", &["ticket", "SUMMARY"]));
    assert_eq!(fewer.len(), 2);
    assert!(fewer.iter().all(|c| tickets.contains(c)));
    // Another list at the same place: other columns, none shared.
    let files = columns(&list("listing", &["Name", "Size", "Age"]));
    assert!(files.iter().all(|c| !tickets.contains(c)));
    // The same names elsewhere on the page are other columns.
    let elsewhere = columns(&format!(
        "<div class=side>{}</div>",
        list("listing", &["Ticket", "Summary", "Owner"])
    ));
    assert!(elsewhere.iter().all(|c| !tickets.contains(c)));
    // A header cell without letters is a column without a name: one such column at a place.
    let unnamed = columns(&list("listing", &["1", "Ticket"]));
    assert_eq!(unnamed.len(), 2);
    assert_eq!(columns(&list("listing", &["", "Ticket"])), unnamed);
    assert!(unnamed.iter().any(|c| tickets.contains(c)));
    // A table without a header row, a key-value table and an article's table in the main
    // content have no columns.
    assert!(columns("<table><tr><th>name</th></tr><tr><td>1</td></tr></table>").is_empty());
    assert!(columns("<table><thead><tr><th>hash</th><td>1</td></tr></thead></table>").is_empty());
    assert!(
        columns(
            "<main><p>t</p><table><thead><tr><th>name</th><th>age</th></tr></thead></table></main>"
        )
        .is_empty()
    );
    // The mark is in the summary only: the fingerprint does not read it.
    let s = hash(&list("listing", &["Ticket", "Summary"]));
    let unmarked = PathSet::from_paths(paths(&s).seed(), paths(&s).paths().collect());
    assert_eq!(unmarked.fingerprint(0.76), s.fingerprint);
    assert_ne!(unmarked.summary(), paths(&s).summary());
}

/// An application's list page without a main content: a title, `lines` paragraphs of text
/// and a table under a `<thead>` row of `heads`, all in one `div` (a flow of prose).
fn list_below_text(heads: &[&str], lines: usize) -> String {
    let head: String = heads.iter().map(|h| format!("<th>{h}</th>")).collect();
    let text: String = (0..lines).map(|i| format!("<p>Line {i}.</p>")).collect();
    format!(
        "<div class=menu><a href=/>home</a></div><div class=row><h1>List</h1>{text}\
         <table class=list><thead><tr>{head}</tr></thead><tbody><tr><td>x</td></tr></tbody>\
         </table></div>"
    )
}

/// The ids of a page's summary that carry the column mark (`PathSet::TABLE`), prose or not.
fn columns_in_prose_too(html: &str) -> Vec<u32> {
    summary_ids(html, 4, 4)
}

#[test]
fn a_table_below_a_line_of_text_names_its_columns() {
    // One line of text ("Showing 3 of 3 printers.") makes its `div` a flow of prose; the
    // list below it still names its columns, as outside a flow.
    let printers = columns_in_prose_too(&list_below_text(&["Queue", "Location", "Status"], 1));
    assert_eq!(printers.len(), 3);
    let jobs = columns_in_prose_too(&list_below_text(&["ID", "User", "Size", "State"], 1));
    assert_eq!(jobs.len(), 4);
    assert!(jobs.iter().all(|c| !printers.contains(c)));
    let (a, b) = (
        hash(&list_below_text(&["Queue", "Location", "Status"], 1)),
        hash(&list_below_text(&["ID", "User", "Size", "State"], 1)),
    );
    assert!(paths(&a).jaccard(paths(&b)) < 0.7);
    // Below two paragraphs of its own or more the flow is an article, and its table is the
    // article's text (a manual's table of options): no columns.
    assert!(columns_in_prose_too(&list_below_text(&["Option", "Meaning"], 2)).is_empty());
    assert!(columns_in_prose_too(&list_below_text(&["Option", "Meaning"], 5)).is_empty());
}

#[test]
fn columns_below_the_depth_limit_are_kept_and_nothing_else_there_is_a_path() {
    // An application's frame (a sidebar layout, a tab pane, a card, a scrolling wrapper)
    // puts its lists a dozen levels deep: the columns still tell one model's list from
    // another's, the rows and cells below the limit add no path, as anywhere else.
    let deep = |heads: &[&str]| {
        let head: String = heads.iter().map(|h| format!("<th>{h}</th>")).collect();
        let rows = (0..3)
            .map(|i| format!("<tr><td><a href=\"/r/{i}\">r{i}</a></td><td>x</td></tr>"))
            .collect::<String>();
        format!(
            "<div class=menu><a href=/>home</a></div>{}\
             <table class=list><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>",
            "<div class=w>".repeat(12)
        )
    };
    let sites = columns(&deep(&["Name", "Status", "Region"]));
    assert_eq!(sites.len(), 3);
    let devices = columns(&deep(&["Name", "Role", "Rack", "Serial"]));
    assert_eq!(devices.len(), 4);
    assert_eq!(devices.iter().filter(|c| sites.contains(c)).count(), 1);
    // The columns are the only paths the deep table adds.
    let total = |html: &str| paths(&hash(html)).len();
    assert_eq!(
        total(&deep(&["Name", "Status", "Region"])),
        total(&deep(&[])) + 3
    );
    // Two lists of other columns at that depth are two kinds; of the same columns, one.
    check_differ(
        &deep(&["Name", "Status", "Region"]),
        &deep(&["Name", "Role", "Rack", "Serial"]),
    );
    assert_eq!(
        paths(&hash(&deep(&["Name", "Status"]))),
        paths(&hash(&deep(&["name", "STATUS"])))
    );
}

#[test]
fn a_key_value_tables_keys_are_its_columns() {
    // A record's page (an application's detail view) shows its attributes as rows of a
    // header cell and a value, a dozen levels deep: its keys are columns turned on their
    // side, where the table is.
    let record = |keys: &[&str]| {
        let rows: String = keys
            .iter()
            .map(|k| format!("<tr><th scope=row>{k}</th><td><a href=/v>v</a></td></tr>"))
            .collect();
        format!(
            "<div class=menu><a href=/>home</a></div>{}<div class=card><h2>Record</h2>\
             <table class=attrs>{rows}</table></div>",
            "<div class=w>".repeat(8)
        )
    };
    let site = columns(&record(&["Region", "Status", "Facility", "Time Zone"]));
    assert_eq!(site.len(), 4);
    let cable = columns(&record(&["Type", "Status", "Length", "Color", "Label"]));
    assert_eq!(cable.len(), 5);
    assert_eq!(cable.iter().filter(|c| site.contains(c)).count(), 1);
    // The values are data: two records of one model have the same paths.
    assert_eq!(
        paths(&hash(&record(&["Region", "Status"]))),
        paths(&hash(&record(&["region", "STATUS"])))
    );
    // Every row a key and its values, two rows or more; else no keys: one row (a title),
    // a row of values only, a header row (the table has columns), a `<thead>`.
    assert!(columns(&record(&["Region"])).is_empty());
    for table in [
        "<table><tr><th>a</th><td>1</td></tr><tr><td>b</td><td>2</td></tr></table>",
        "<table><tr><th>a</th><td>1</td></tr><tr><th>b</th></tr></table>",
        "<table><tr><th>a</th><td>1</td></tr><tr><th>b</th><td>2</td><th>c</th></tr></table>",
    ] {
        assert!(columns(table).is_empty(), "{table}");
    }
    // A head of a key and its value above keys and values is the record's first pair, not
    // two columns' names (`Header | cups/ppd.h`): the keys below are the table's columns,
    // whatever the head says.
    let pairs =
        |head: &str, rows: &str| columns(&format!("<table><thead>{head}</thead>{rows}</table>"));
    let keyed = "<tr><th>a</th><td>1</td></tr><tr><th>b</th><td>2</td></tr>";
    let cups = pairs("<tr><th>Header</th><th>cups/ppd.h</th></tr>", keyed);
    assert_eq!(cups.len(), 2);
    assert_eq!(
        cups,
        pairs("<tr><th>Header</th><th>cups/adminutil.h</th></tr>", keyed)
    );
    assert_eq!(
        cups,
        pairs(
            "<tr><th>Headers</th><th>x.h<br>y.h</th></tr>",
            "<tr><th>a</th><td>1</td></tr><tr><th>b</th><td>2</td></tr>"
        )
    );
    // One pair below the head is a record of two rows.
    assert_eq!(
        pairs(
            "<tr><th>k</th><th>v</th></tr>",
            "<tr><th>a</th><td>1</td></tr>"
        )
        .len(),
        1
    );
    // A head of three names, or rows of a key and two values, name columns.
    for (head, rows, named) in [
        ("<tr><th>k</th><th>v</th><th>w</th></tr>", keyed, 3),
        (
            "<tr><th>k</th><th>v</th></tr>",
            "<tr><th>a</th><td>1</td><td>2</td></tr><tr><th>b</th><td>2</td><td>3</td></tr>",
            2,
        ),
        (
            "<tr><th>k</th><th>v</th></tr>",
            "<tr><td>a</td><td>1</td></tr><tr><td>b</td><td>2</td></tr>",
            2,
        ),
        (
            "<tr><th>k</th><th>v</th></tr><tr><th>l</th><th>w</th></tr>",
            keyed,
            2,
        ),
    ] {
        let found = pairs(head, rows);
        assert_eq!(found.len(), named, "{head} {rows}");
        assert!(found.iter().all(|c| !cups.contains(c)), "{head} {rows}");
    }
    // An article's table (in the main content, or in a flow of prose) keeps its keys.
    assert!(columns(&format!("<main><p>t</p>{}</main>", record(&["a", "b"]))).is_empty());
    assert!(
        columns(&format!(
            "<div><p>t</p><p>u</p>{}</div>",
            record(&["a", "b"])
        ))
        .is_empty()
    );
}

#[test]
fn header_text_goes_to_its_own_cell() {
    // A `<th>` the tree builder ignores (outside a table) leaves no text to an earlier one.
    check_same(
        &format!("{}<th>stray</th>", listing(&["tag"], 1)),
        &listing(&["tag"], 1),
        (15, 15),
    );
    // A cell left open ends at the next cell, row or the table's end.
    check_same(
        "<table><thead><tr><th>tag<th>node</thead></table>",
        "<table><thead><tr><th>tag</th><th>node</th></tr></thead></table>",
        (8, 8),
    );
    check_differ(
        "<table><thead><tr><th>tag<th>node</thead></table>",
        "<table><thead><tr><th>tagnode</thead></table>",
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Column headers that differ in their letters give tables of other paths; the rest of
    /// their text (numbers, punctuation, white space, case) never matters.
    #[test]
    fn column_headers_are_their_letters(
        a in "[a-z]{1,8}",
        b in "[a-z]{1,8}",
        noise in "[0-9 ():#-]{0,6}",
    ) {
        let x = hash(&listing(&[&a, "node"], 2));
        let y = hash(&listing(&[&b, "node"], 2));
        prop_assert_eq!(a == b, paths(&x) == paths(&y));
        let z = hash(&listing(&[&format!("{noise} {} {noise}", a.to_uppercase()), "node"], 2));
        prop_assert_eq!(paths(&x), paths(&z));
    }
}
