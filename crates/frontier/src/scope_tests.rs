use super::*;

fn url(s: &str) -> Url {
    match Url::parse(s) {
        Ok(url) => url,
        Err(err) => panic!("{s:?}: {err}"),
    }
}

fn scope(config: ScopeConfig) -> Scope {
    match Scope::new(&config) {
        Ok(scope) => scope,
        Err(err) => panic!("{err}"),
    }
}

#[track_caller]
fn check(scope: &Scope, seed: &str, target: &str, depth: u32, expected: Result<(), OutOfScope>) {
    assert_eq!(
        scope.check(&url(target), &url(seed), depth),
        expected,
        "{:?} seed {seed} url {target} depth {depth}",
        scope.mode()
    );
}

fn other_host(host: &str, seed_host: &str) -> Result<(), OutOfScope> {
    Err(OutOfScope::OtherHost {
        host: host.into(),
        seed_host: seed_host.into(),
    })
}

fn other_domain(host: &str, seed_domain: &str) -> Result<(), OutOfScope> {
    Err(OutOfScope::OtherDomain {
        host: host.into(),
        seed_domain: seed_domain.into(),
    })
}

#[test]
fn same_host_is_the_default() {
    let s = scope(ScopeConfig::default());
    assert_eq!(s.mode(), ScopeMode::SameHost);
    for (seed, target, expected) in [
        ("http://example.com/", "http://example.com/a/b?c", Ok(())),
        // Another port is another site; another scheme on the default port is not.
        (
            "http://example.com/",
            "https://example.com:8443/",
            other_host("example.com:8443", "example.com"),
        ),
        ("http://example.com/", "https://example.com/x", Ok(())),
        (
            "http://example.com/",
            "http://www.example.com/",
            other_host("www.example.com", "example.com"),
        ),
        (
            "http://www.example.com/",
            "http://example.com/",
            other_host("example.com", "www.example.com"),
        ),
        (
            "http://example.com/",
            "http://example.org/",
            other_host("example.org", "example.com"),
        ),
        (
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:9090/x",
            other_host("127.0.0.1:9090", "127.0.0.1:8080"),
        ),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/x", Ok(())),
        (
            "http://127.0.0.1/",
            "http://127.0.0.2/",
            other_host("127.0.0.2", "127.0.0.1"),
        ),
        ("http://[::1]/", "http://[::1]/x", Ok(())),
    ] {
        check(&s, seed, target, 1, expected);
    }
}

#[test]
fn same_domain_uses_the_public_suffix_list() {
    let s = scope(ScopeConfig {
        mode: ScopeMode::SameDomain,
        ..ScopeConfig::default()
    });
    for (seed, target, expected) in [
        ("http://www.example.com/", "http://example.com/", Ok(())),
        (
            "http://www.example.com/",
            "https://a.b.example.com/",
            Ok(()),
        ),
        (
            "http://www.example.com/",
            "http://example.org/",
            other_domain("example.org", "example.com"),
        ),
        (
            "http://www.example.com/",
            "http://notexample.com/",
            other_domain("notexample.com", "example.com"),
        ),
        (
            "http://www.example.co.uk/",
            "http://blog.example.co.uk/",
            Ok(()),
        ),
        (
            "http://www.example.co.uk/",
            "http://other.co.uk/",
            other_domain("other.co.uk", "example.co.uk"),
        ),
        // Private suffixes: each github.io site is its own domain.
        (
            "https://mine.github.io/",
            "https://mine.github.io/x",
            Ok(()),
        ),
        (
            "https://mine.github.io/",
            "https://other.github.io/",
            other_domain("other.github.io", "mine.github.io"),
        ),
        // Punycoded IDNs.
        (
            "http://www.bücher.de/",
            "http://shop.xn--bcher-kva.de/",
            Ok(()),
        ),
        // Trailing dots.
        ("http://www.example.com./", "http://example.com/", Ok(())),
        // IP addresses and single-label hosts compare exactly.
        (
            "http://127.0.0.1/",
            "http://127.0.0.1:81/",
            other_domain("127.0.0.1:81", "127.0.0.1"),
        ),
        (
            "http://127.0.0.1/",
            "http://127.0.0.2/",
            other_domain("127.0.0.2", "127.0.0.1"),
        ),
        ("http://localhost/", "http://localhost/x", Ok(())),
        (
            "http://localhost/",
            "http://127.0.0.1/",
            other_domain("127.0.0.1", "localhost"),
        ),
        (
            "http://127.0.0.1/",
            "http://localhost/",
            other_domain("localhost", "127.0.0.1"),
        ),
        (
            "http://a.localhost/",
            "http://b.localhost/",
            other_domain("b.localhost", "a.localhost"),
        ),
    ] {
        check(&s, seed, target, 1, expected);
    }
}

#[test]
fn registrable_domains() {
    for (input, expected) in [
        ("http://www.example.com/", Some("example.com")),
        ("http://example.com/", Some("example.com")),
        ("http://a.b.example.co.uk/", Some("example.co.uk")),
        ("http://co.uk/", None),
        ("http://localhost/", None),
        ("http://127.0.0.1/", None),
        ("http://[::1]/", None),
        ("http://foo.unknowntld/", Some("foo.unknowntld")),
    ] {
        assert_eq!(registrable_domain(&url(input)), expected, "{input}");
    }
}

#[test]
fn any_mode_depth_and_patterns() {
    let s = scope(ScopeConfig {
        mode: ScopeMode::Any,
        include: vec![r"^https?://[^/]+/(docs|blog)/".into()],
        exclude: vec![r"\.pdf$".into(), r"[?&]print=".into()],
        max_depth: Some(3),
        ..ScopeConfig::default()
    });
    let seed = "http://example.com/";
    for (target, depth, expected) in [
        ("http://elsewhere.org/docs/a", 3, Ok(())),
        ("http://example.com/docs/a", 0, Ok(())),
        (
            "http://example.com/docs/a",
            4,
            Err(OutOfScope::TooDeep { depth: 4, max: 3 }),
        ),
        ("http://example.com/shop/a", 1, Err(OutOfScope::NotIncluded)),
        (
            "http://example.com/docs/a.pdf",
            1,
            Err(OutOfScope::Excluded {
                pattern: r"\.pdf$".into(),
            }),
        ),
        (
            "http://example.com/blog/a?print=1",
            1,
            Err(OutOfScope::Excluded {
                pattern: r"[?&]print=".into(),
            }),
        ),
        // Depth is checked first.
        (
            "http://example.com/shop/a.pdf",
            9,
            Err(OutOfScope::TooDeep { depth: 9, max: 3 }),
        ),
    ] {
        check(&s, seed, target, depth, expected);
    }
}

#[test]
fn bad_patterns_are_named() {
    for (include, exclude, list, pattern) in [
        (
            vec!["ok".to_owned(), "(unclosed".to_owned()],
            vec![],
            "include",
            "(unclosed",
        ),
        (vec![], vec!["[z-a]".to_owned()], "exclude", "[z-a]"),
    ] {
        let config = ScopeConfig {
            include,
            exclude,
            ..ScopeConfig::default()
        };
        let err = Scope::new(&config).err();
        let message = err.as_ref().map(ToString::to_string).unwrap_or_default();
        match err {
            Some(ScopeError::BadPattern {
                list: l,
                pattern: p,
                ..
            }) => assert_eq!((l, p.as_str()), (list, pattern)),
            other => panic!("{pattern:?}: {other:?}"),
        }
        assert!(message.contains(pattern), "{message}");
    }
}

#[test]
fn budgets() {
    let mut budget = Budget::new(&ScopeConfig {
        max_pages: Some(5),
        max_pages_per_host: Some(2),
        ..ScopeConfig::default()
    });
    let a = url("http://a.example/");
    let b = url("http://b.example/x");
    let c = url("http://c.example/");
    let steps = [
        (&a, Ok(())),
        (&a, Ok(())),
        (
            &a,
            Err(OutOfScope::HostBudget {
                host: "a.example".into(),
                max: 2,
            }),
        ),
        (&b, Ok(())),
        (&b, Ok(())),
        (&c, Ok(())),
        (&c, Err(OutOfScope::PageBudget { max: 5 })),
    ];
    for (i, (target, expected)) in steps.into_iter().enumerate() {
        assert_eq!(budget.try_take(target), expected, "step {i}: {target}");
    }
    assert_eq!((budget.pages(), budget.pages_for("a.example")), (5, 2));
    assert!(budget.is_spent());
    budget.give_back(&a);
    assert!(!budget.is_spent());
    assert_eq!(budget.try_take(&a), Ok(()));

    let mut unlimited = Budget::new(&ScopeConfig::default());
    for _ in 0..1000 {
        assert_eq!(unlimited.try_take(&a), Ok(()));
    }
    assert_eq!(unlimited.pages(), 1000);
    assert!(!unlimited.is_spent());
}

#[test]
fn mode_names() {
    for mode in [ScopeMode::SameHost, ScopeMode::SameDomain, ScopeMode::Any] {
        assert_eq!(mode.as_str().parse::<ScopeMode>().ok(), Some(mode));
        assert_eq!(mode.to_string(), mode.as_str());
    }
    match "same_host".parse::<ScopeMode>() {
        Err(err @ ScopeError::UnknownMode { .. }) => assert_eq!(
            err.to_string(),
            "scope: unknown mode \"same_host\" (expected same-host, same-domain or any)"
        ),
        other => panic!("{other:?}"),
    }
}
