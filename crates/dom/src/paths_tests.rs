//! Unit tests of `paths.rs`: tokens, labels, field labels, path sets.

use super::*;

fn check_token(input: &str, expected: &str) {
    let got = Token::new(input);
    assert_eq!(
        std::str::from_utf8(got.as_bytes()),
        Ok(expected),
        "{input:?}"
    );
}

#[test]
fn tokens() {
    check_token("Content", "content");
    check_token("postid-123", "postid-0");
    check_token("col-md-6", "col-md-0");
    check_token("a1b22c333", "0");
    check_token("x1b22c3z", "x0b0c0z");
    // Hex ids (8+ hex digits, 2+ of them decimal, 2+ letters) are one run of digits.
    check_token("x-gadbe68a06c448dfb62da16443d251a78b", "x-g0");
    check_token("css-1a2b3c4d", "css-0");
    // What follows an inner colon names an item: Doxygen's anchors, hashed or named.
    check_token("memitem:gadbe68a06c448dfb62da16443d251a78b", "memitem:0");
    check_token("memitem:group__errors", "memitem:0");
    check_token("Separator:structMDB__stat", "separator:0");
    check_token("md:flex", "md:0");
    check_token(":root", ":root");
    check_token("label:", "label:");
    check_token("a::b", "a:0");
    check_token("e1234567", "e0");
    check_token("deadbeefcafe", "deadbeefcafe");
    check_token("facade12", "0");
    check_token("sc-ab12cdef34-x9", "sc-0-x0");
    check_token("\u{c9}t\u{c9}", "\u{c9}t\u{c9}");
    check_token(&"x".repeat(100), &"x".repeat(48));
    // Whole characters only: 47 bytes, then a 2-byte character that would end at 49.
    check_token(&format!("{}\u{e9}z", "x".repeat(47)), &"x".repeat(47));
}

#[test]
fn field_labels() {
    let input = label("input", None);
    let check = |a: (Option<&str>, Option<&str>), b: (Option<&str>, Option<&str>), same: bool| {
        let (x, y) = (field_label(input, a.0, a.1), field_label(input, b.0, b.1));
        assert_eq!(x == y, same, "{a:?} {b:?}");
    };
    // The name and the type tell fields apart; ids in names and case do not.
    check(
        (Some("user"), Some("text")),
        (Some("email"), Some("text")),
        false,
    );
    check(
        (Some("user"), Some("text")),
        (Some("user"), Some("password")),
        false,
    );
    check((Some("row-12"), None), (Some("row-345"), None), true);
    // A name keeps what follows a colon (JSF writes `form:field`), a class does not.
    check(
        (Some("login:user"), None),
        (Some("login:password"), None),
        false,
    );
    assert_eq!(
        label("tr", Some("memitem:a_b")),
        label("tr", Some("memitem:c"))
    );
    check((Some("Q"), Some("TEXT")), (Some("q"), Some("text")), true);
    check((Some("q"), None), (Some("q"), Some("")), true);
    // Name and type are not interchangeable, and a field differs from a plain input.
    check((Some("a"), None), (None, Some("a")), false);
    assert_ne!(field_label(input, None, None), input);
    assert!(is_field(b"textarea") && !is_field(b"form"));
}

#[test]
fn labels() {
    // Order, case, repeats and digits of tokens do not matter; the tag name does.
    assert_eq!(label("div", Some("b a")), label("DIV", Some(" A  b a ")));
    assert_eq!(label("div", Some("post-1")), label("div", Some("post-22")));
    assert_ne!(label("div", Some("a")), label("div", Some("b")));
    assert_ne!(label("div", Some("a")), label("span", Some("a")));
    assert_eq!(label("div", Some("")), label("div", None));
    // Only the first 16 tokens in normalised order count.
    let many: String = (b'a'..=b'z')
        .rev()
        .map(|c| format!("T{} ", c as char))
        .collect();
    let first16: String = (b'a'..b'a' + 16)
        .map(|c| format!("t{} ", c as char))
        .collect();
    let first15: String = (b'a'..b'a' + 15)
        .map(|c| format!("t{} ", c as char))
        .collect();
    assert_eq!(label("p", Some(&many)), label("p", Some(&first16)));
    assert_ne!(label("p", Some(&many)), label("p", Some(&first15)));
}

#[test]
fn names_of_linked_pages() {
    let check = |href: &str, expected: Option<&str>| {
        let mut buf = String::new();
        assert_eq!(
            link_name_label(href, &mut buf),
            expected.map(token_label),
            "{href:?}"
        );
    };
    for (href, name) in [
        (
            "classEigen_1_1RotationBase.html",
            Some("classEigen_1_1RotationBase"),
        ),
        (
            "../d1/d75/structSDL__AudioSpec.html#a1",
            Some("structSDL__AudioSpec"),
        ),
        (
            "https://blog.example/category/news-views/",
            Some("news-views"),
        ),
        (
            "//blog.example/wiki/Main_Page?action=edit",
            Some("Main_Page"),
        ),
        // As a slug: without escapes and the characters a class drops.
        ("/wiki/Caf%C3%A9_au_lait", Some("Caf_au_lait")),
        ("  releases.tar.gz ", Some("releasestar")),
        // Two slashes inside a relative path are no authority.
        ("docs//guide/install-notes.html", Some("install-notes")),
        // A link with no page: another scheme.
        ("mailto:someone@example.org", None),
        ("javascript:openAllFlips()", None),
        ("Special:Search", None),
        // Shorter than six bytes, or no letter: no page's name.
        ("code.html", None),
        ("/type/", None),
        ("/2024/05/", None),
        ("/archive/2024-05-17/", None),
        ("#top", None),
        ("?page=2", None),
        ("https://blog.example/", None),
        ("", None),
    ] {
        check(href, name);
    }
}

#[test]
fn tails_of_a_token() {
    let check = |token: &str, expected: &[(&str, &str)]| {
        let mut got = Vec::new();
        token_tails(token, &mut got);
        let expected: Vec<(u64, u64, u64)> = expected
            .iter()
            .map(|(prefix, tail)| (token_label(prefix), token_label(tail), token_label(token)))
            .collect();
        assert_eq!(got, expected, "{token:?}");
    };
    check(
        "pub_methods_classA_1_1B",
        &[
            ("pub_", "methods_classA_1_1B"),
            ("pub_methods_", "classA_1_1B"),
            ("pub_methods_classA_", "1_1B"),
            ("pub_methods_classA_1_", "1B"),
        ],
    );
    check("category-news", &[("category-", "news")]);
    // A separator that starts or ends the token starts no tail.
    check("-x_", &[]);
    check("plain", &[]);
    // At most eight.
    let long = "a-b-c-d-e-f-g-h-i-j-k";
    let mut got = Vec::new();
    token_tails(long, &mut got);
    assert_eq!(got.len(), crate::linked::MAX_TAILS);
}

proptest::proptest! {
    /// What follows an inner colon of a class token never changes a label.
    #[test]
    fn what_follows_a_colon_names_an_item(
        kind in "[a-z][a-z0-9_-]{0,8}",
        a in "[A-Za-z0-9_:-]{1,12}",
        b in "[A-Za-z0-9_:-]{1,12}",
    ) {
        proptest::prop_assert_eq!(
            label("tr", Some(&format!("{kind}:{a}"))),
            label("tr", Some(&format!("{kind}:{b}")))
        );
    }

    /// A label from a class's tokens (`items.rs`) is the label of the class.
    #[test]
    fn labels_of_tokens_are_labels(tokens in proptest::collection::vec("[a-zA-Z0-9_-]{0,6}", 0..24)) {
        let class = tokens.join(" ");
        let mut of = class_tokens(&class);
        of.truncate(MAX_CLASS_TOKENS);
        proptest::prop_assert_eq!(label_of_tokens("li", &of), label("li", Some(&class)));
    }

    /// Short class lists take a 4-token array: the same label as the 16-token one.
    #[test]
    fn short_class_lists_label_alike(tokens in proptest::collection::vec("[a-zA-Z0-9_-]{0,6}", 0..5)) {
        let class = tokens.join(" ");
        proptest::prop_assert_eq!(
            with_tokens::<4>(FNV_OFFSET, &class),
            with_tokens::<MAX_CLASS_TOKENS>(FNV_OFFSET, &class)
        );
        // And `label`'s shortcuts (no token, one token) give the sorted list's label.
        let name_only = label("div", None);
        proptest::prop_assert_eq!(
            label("div", Some(&class)),
            with_tokens::<MAX_CLASS_TOKENS>(name_only, &class)
        );
    }
}

#[test]
fn jaccard_and_fingerprint() {
    let a = PathSet::from_paths(0, vec![(3, 1), (1, 1), (2, 2), (1, 1)]);
    let b = PathSet::from_paths(0, vec![(1, 1), (2, 2), (4, 3)]);
    assert_eq!(a.len(), 3);
    assert!((a.jaccard(&b) - 0.5).abs() < 1e-12);
    assert_eq!(a.jaccard(&a), 1.0);
    assert_eq!(PathSet::default().jaccard(&PathSet::default()), 1.0);
    assert_eq!(a.jaccard(&PathSet::default()), 0.0);
    assert_eq!(a.fingerprint(1.0), a.clone().fingerprint(1.0));
    assert_ne!(
        a.fingerprint(1.0),
        PathSet::from_paths(1, a.paths().collect()).fingerprint(1.0),
        "the seed changes the feature hashes"
    );
    assert_eq!(PathSet::default().fingerprint(0.5).bits(), u64::MAX);
}
