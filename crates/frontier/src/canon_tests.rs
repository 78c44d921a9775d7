use proptest::prelude::*;

use super::*;

fn canon(input: &str) -> Result<String, CanonError> {
    parse_canonical(input, &CanonConfig::default()).map(String::from)
}

#[track_caller]
fn check(input: &str, expected: &str) {
    match canon(input) {
        Ok(got) => assert_eq!(got, expected, "canonicalize({input:?})"),
        Err(err) => panic!("canonicalize({input:?}) failed: {err}"),
    }
    // Canonical forms are fixed points.
    assert_eq!(
        canon(expected).ok().as_deref(),
        Some(expected),
        "not idempotent: {expected:?}"
    );
}

#[test]
fn what_the_url_crate_already_does() {
    for (input, expected) in [
        // Scheme and host case; the path keeps its case.
        (
            "HTTP://Example.COM/Path/File.HTML",
            "http://example.com/Path/File.HTML",
        ),
        ("hTtPs://WWW.example.org", "https://www.example.org/"),
        // Default ports go, others stay.
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:443/a", "http://example.com:443/a"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("http://example.com:080/", "http://example.com/"),
        // Dot segments, also percent-encoded ones.
        ("http://example.com/a/./b/../c", "http://example.com/a/c"),
        ("http://example.com/../../a", "http://example.com/a"),
        ("http://example.com/a/%2e%2E/b", "http://example.com/b"),
        ("http://example.com/a/.%2e/b/%2e/", "http://example.com/b/"),
        // Empty path.
        ("http://example.com", "http://example.com/"),
        // IDN hosts are punycoded; already-punycoded ones stay.
        (
            "http://Bücher.example/Ä",
            "http://xn--bcher-kva.example/%C3%84",
        ),
        (
            "http://xn--bcher-kva.example/",
            "http://xn--bcher-kva.example/",
        ),
        // IP hosts.
        ("http://192.168.0.1:80/", "http://192.168.0.1/"),
        ("http://[0:0::1]:80/x", "http://[::1]/x"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        // Surrounding whitespace and tabs/newlines inside.
        ("  http://example.com/a\tb\n ", "http://example.com/ab"),
        // Credentials are kept (canonicalisation never changes the resource).
        ("http://User:Pw@Example.com/", "http://User:Pw@example.com/"),
        // A trailing dot in the host is kept: it is another name for HTTP.
        ("http://Example.com./a", "http://example.com./a"),
        // Spaces and non-ASCII in the path are escaped.
        (
            "http://example.com/a b/é",
            "http://example.com/a%20b/%C3%A9",
        ),
    ] {
        check(input, expected);
    }
}

#[test]
fn fragments_and_queries() {
    for (input, expected) in [
        ("http://example.com/a#frag", "http://example.com/a"),
        ("http://example.com/a?#", "http://example.com/a"),
        ("http://example.com/a?", "http://example.com/a"),
        ("http://example.com/?&&", "http://example.com/"),
        ("http://example.com/?b=2&a=1", "http://example.com/?a=1&b=2"),
        (
            "http://example.com/?a=2&a=1&a=10",
            "http://example.com/?a=1&a=10&a=2",
        ),
        (
            "http://example.com/?a=1&&b=2&",
            "http://example.com/?a=1&b=2",
        ),
        // A bare key sorts before the same key with a value.
        ("http://example.com/?a=&a&b", "http://example.com/?a&a=&b"),
        // Keys sort before values: `a=z` < `ab=a`.
        (
            "http://example.com/?ab=a&a=z",
            "http://example.com/?a=z&ab=a",
        ),
        // Each pair keeps its bytes: `+`, escapes, `=` inside values.
        (
            "http://example.com/?q=a+b&p=x%26y=z",
            "http://example.com/?p=x%26y=z&q=a+b",
        ),
        ("http://example.com/?q=a%20b", "http://example.com/?q=a%20b"),
        // Duplicates stay (they may mean something to the server).
        ("http://example.com/?a=1&a=1", "http://example.com/?a=1&a=1"),
    ] {
        check(input, expected);
    }
}

#[test]
fn tracking_and_session_parameters() {
    for (input, expected) in [
        (
            "http://example.com/?utm_source=x&id=3",
            "http://example.com/?id=3",
        ),
        (
            "http://example.com/?UTM_Source=x&Utm_medium=y",
            "http://example.com/",
        ),
        ("http://example.com/?utm_=1", "http://example.com/"),
        ("http://example.com/?utm=1", "http://example.com/?utm=1"),
        (
            "http://example.com/?utm%5Fsource=x&k=v",
            "http://example.com/?k=v",
        ),
        (
            "http://example.com/?gclid=1&fbclid=2&msclkid=3",
            "http://example.com/",
        ),
        (
            "http://example.com/?mc_cid=1&mc_eid=2&_ga=3&yclid=4&igshid=5",
            "http://example.com/",
        ),
        (
            "http://example.com/?PHPSESSID=1&page=2",
            "http://example.com/?page=2",
        ),
        (
            "http://example.com/?JSESSIONID=1&sessionid=2&sid=3",
            "http://example.com/",
        ),
        (
            "http://example.com/?ASPSESSIONIDQQ=1&x",
            "http://example.com/?x",
        ),
        // Only whole names match (or a pattern's prefix).
        (
            "http://example.com/?side=1&xsid=2&sid_x=3",
            "http://example.com/?sid_x=3&side=1&xsid=2",
        ),
        (
            "http://example.com/?a=utm_source",
            "http://example.com/?a=utm_source",
        ),
        // Path parameters.
        (
            "http://example.com/a;jsessionid=ABC?x=1",
            "http://example.com/a?x=1",
        ),
        (
            "http://example.com/a;JSESSIONID=ABC/b;v=1",
            "http://example.com/a/b;v=1",
        ),
        (
            "http://example.com/a;v=1;phpsessid=2;w",
            "http://example.com/a;v=1;w",
        ),
        ("http://example.com/;jsessionid=1", "http://example.com/"),
        // Removing a parameter can leave a dot segment: it is resolved.
        (
            "http://example.com/a/b/..;jsessionid=1/c",
            "http://example.com/a/c",
        ),
    ] {
        check(input, expected);
    }
}

#[test]
fn percent_encoding_normalisation() {
    for (input, expected) in [
        (
            "http://example.com/%7Euser/%41%62%2D%2e%5F",
            "http://example.com/~user/Ab-._",
        ),
        ("http://example.com/a%2fb%3a", "http://example.com/a%2Fb%3A"),
        ("http://example.com/%c3%a9", "http://example.com/%C3%A9"),
        (
            "http://example.com/?q=%7e%2f&%61=1",
            "http://example.com/?a=1&q=~%2F",
        ),
        // Decoding never makes a new escape out of what precedes it.
        (
            "http://example.com/%0%61/%%41b",
            "http://example.com/%0%61/%%41b",
        ),
        (
            "http://example.com/?q=%2%62%63",
            "http://example.com/?q=%2%62c",
        ),
        // Malformed escapes are left alone.
        ("http://example.com/%zz%4", "http://example.com/%zz%4"),
        ("http://example.com/?q=%", "http://example.com/?q=%"),
        // Escaped reserved characters stay escaped: they differ from the raw ones.
        (
            "http://example.com/?a=%3D%26",
            "http://example.com/?a=%3D%26",
        ),
    ] {
        check(input, expected);
    }
}

#[test]
fn configuration() {
    let keep_order = CanonConfig {
        strip_params: vec!["ref".into(), "x-*".into()],
        sort_query: false,
    };
    for (input, expected) in [
        (
            "http://example.com/?b=1&ref=2&a=3",
            "http://example.com/?b=1&a=3",
        ),
        (
            "http://example.com/?X-Trace=1&utm_source=2",
            "http://example.com/?utm_source=2",
        ),
    ] {
        let got = parse_canonical(input, &keep_order).map(String::from);
        assert_eq!(got.as_deref(), Ok(expected), "{input:?}");
    }
    let nothing = CanonConfig {
        strip_params: Vec::new(),
        sort_query: true,
    };
    let got = parse_canonical("http://example.com/a;jsessionid=1?sid=2", &nothing);
    assert_eq!(
        got.map(String::from).as_deref(),
        Ok("http://example.com/a;jsessionid=1?sid=2")
    );
}

#[test]
fn config_validation() {
    assert_eq!(CanonConfig::default().validate(), Ok(()));
    let with = |p: &str| CanonConfig {
        strip_params: vec![p.to_owned()],
        sort_query: true,
    };
    assert_eq!(with("*").validate(), Ok(()));
    assert_eq!(with("").validate(), Err(CanonConfigError::EmptyPattern));
    assert_eq!(
        with("utm_*_id").validate(),
        Err(CanonConfigError::MisplacedWildcard {
            pattern: "utm_*_id".into()
        })
    );
    // `*` strips every parameter.
    let got = parse_canonical("http://example.com/?a=1&b", &with("*"));
    assert_eq!(got.map(String::from).as_deref(), Ok("http://example.com/"));
}

#[test]
fn unsupported_urls() {
    for input in [
        "ftp://example.com/",
        "mailto:a@example.com",
        "file:///etc/passwd",
        "data:,x",
        "javascript:alert(1)",
        "ws://example.com/",
    ] {
        match canon(input) {
            Err(CanonError::UnsupportedScheme { url, scheme }) => {
                assert!(input.starts_with(&scheme), "{input:?} → {scheme:?}");
                assert!(!url.is_empty());
            }
            other => panic!("{input:?}: {other:?}"),
        }
    }
    for input in [
        "",
        "not a url",
        "http://",
        "http://exa mple.com/",
        "http://[::1/",
    ] {
        assert!(
            matches!(canon(input), Err(CanonError::Parse { .. })),
            "{input:?}: {:?}",
            canon(input)
        );
    }
    let err = canon("gopher://h/").err().map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some("unsupported scheme \"gopher\" in gopher://h/ (only http and https are crawled)")
    );
}

#[test]
fn resolving_links() {
    let base = Url::parse("http://example.com/dir/page.html?x=1#top").ok();
    let Some(base) = base else {
        panic!("base URL");
    };
    let check_link = |href: &str, expected: Option<&str>| {
        let got = resolve_link(&base, href).map(String::from);
        assert_eq!(got.as_deref(), expected, "resolve_link({href:?})");
    };
    for (href, expected) in [
        ("other.html", Some("http://example.com/dir/other.html")),
        ("  other.html\n", Some("http://example.com/dir/other.html")),
        ("../up.html", Some("http://example.com/up.html")),
        ("/abs?q=1#frag", Some("http://example.com/abs?q=1")),
        ("?y=2", Some("http://example.com/dir/page.html?y=2")),
        ("//other.org/x", Some("http://other.org/x")),
        ("HTTPS://Other.org", Some("https://other.org/")),
        ("page.html#sec", Some("http://example.com/dir/page.html")),
        ("\tjava\nscript:alert(1)", None),
        ("javascript:void(0)", None),
        (" JavaScript:void(0)", None),
        ("mailto:someone@example.com", None),
        ("tel:+123", None),
        ("data:text/html,<p>", None),
        ("ftp://example.com/f", None),
        ("#", None),
        ("#section", None),
        ("  #section", None),
        ("", None),
        ("   ", None),
        ("http://", None),
        ("http://[bad", None),
    ] {
        check_link(href, expected);
    }
}

fn url_strategy() -> impl Strategy<Value = (String, Vec<String>)> {
    let scheme = prop_oneof![Just("http"), Just("https"), Just("HTTP")];
    let host = prop_oneof![
        Just("example.com"),
        Just("Example.COM"),
        Just("127.0.0.1"),
        Just("[::1]"),
        Just("bücher.de")
    ];
    let port = prop_oneof![Just(""), Just(":80"), Just(":443"), Just(":8080")];
    let segment = "([a-zA-Z0-9._~;=-]|%[0-9a-fA-F]{2}|%|\\.\\.|\\.){0,6}";
    let path = prop::collection::vec(segment, 0..5);
    let pair = "([a-zA-Z0-9_%+=]|%[0-9a-fA-F]{2}){0,6}";
    let pairs = prop::collection::vec(pair, 0..6);
    let fragment = prop_oneof![Just(""), Just("#x"), Just("#")];
    (scheme, host, port, path, pairs, fragment).prop_map(
        |(scheme, host, port, path, pairs, fragment)| {
            let head = format!("{scheme}://{host}{port}/{}", path.join("/"));
            (format!("{head}{fragment}"), pairs)
        },
    )
}

fn with_query(url: &str, pairs: &[String]) -> String {
    match url.split_once('#') {
        Some((head, fragment)) => format!("{head}?{}#{fragment}", pairs.join("&")),
        None => format!("{url}?{}", pairs.join("&")),
    }
}

proptest! {
    #[test]
    fn canonicalisation_is_idempotent((url, pairs) in url_strategy()) {
        let input = with_query(&url, &pairs);
        let config = CanonConfig::default();
        if let Ok(once) = parse_canonical(&input, &config) {
            let twice = canonicalize(&once, &config);
            prop_assert_eq!(twice.as_ref().map(Url::as_str), Ok(once.as_str()));
            prop_assert!(once.fragment().is_none());
            prop_assert!(once.query() != Some(""));
        }
    }

    #[test]
    fn query_order_never_matters(
        (url, pairs) in url_strategy(),
        seed in any::<u64>(),
    ) {
        let mut shuffled = pairs.clone();
        // A deterministic shuffle driven by the seed.
        let mut state = seed | 1;
        for i in (1..shuffled.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let j = usize::try_from(state % (i as u64 + 1)).unwrap_or(0);
            shuffled.swap(i, j);
        }
        let config = CanonConfig::default();
        let a = parse_canonical(&with_query(&url, &pairs), &config);
        let b = parse_canonical(&with_query(&url, &shuffled), &config);
        prop_assert_eq!(a, b);
    }

    #[test]
    fn arbitrary_text_never_panics(input in "\\PC{0,40}", href in "\\PC{0,20}") {
        let config = CanonConfig::default();
        let _ = parse_canonical(&input, &config);
        if let Ok(base) = Url::parse("http://example.com/a/b")
            && let Some(url) = resolve_link(&base, &href)
        {
            prop_assert!(canonicalize(&url, &config).is_ok(), "{}", url);
        }
    }
}
