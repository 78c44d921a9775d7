use super::*;

fn url(s: &str) -> Url {
    match Url::parse(s) {
        Ok(url) => url,
        Err(err) => panic!("{s:?}: {err}"),
    }
}

#[track_caller]
fn check(guard: &TrapGuard, input: &str, expected: Result<(), Trap>) {
    assert_eq!(guard.check(&url(input)), expected, "{input}");
}

fn run(run: &str, repeats: usize) -> Result<(), Trap> {
    Err(Trap::RepeatingRun {
        run: run.into(),
        repeats,
        max: 2,
    })
}

fn segment(segment: &str, count: usize) -> Result<(), Trap> {
    Err(Trap::RepeatedSegment {
        segment: segment.into(),
        count,
        max: 3,
    })
}

#[test]
fn default_limits() {
    let guard = TrapGuard::default();
    let long = format!("http://example.com/{}", "a".repeat(2048 - 19));
    let too_long = format!("{long}b");
    let deep = format!(
        "http://example.com/{}",
        (0..32).map(|i| i.to_string()).collect::<Vec<_>>().join("/")
    );
    let too_deep = format!("{deep}/x/");
    let params = |n: usize| {
        let pairs: Vec<String> = (0..n).map(|i| format!("p{i}=1")).collect();
        format!("http://example.com/?{}", pairs.join("&"))
    };
    for (input, expected) in [
        ("http://example.com/", Ok(())),
        ("http://example.com/a/b/c/", Ok(())),
        (long.as_str(), Ok(())),
        (
            too_long.as_str(),
            Err(Trap::TooLong {
                length: 2049,
                max: 2048,
            }),
        ),
        (deep.as_str(), Ok(())),
        (too_deep.as_str(), Err(Trap::TooDeep { depth: 33, max: 32 })),
        (params(16).as_str(), Ok(())),
        (
            params(17).as_str(),
            Err(Trap::TooManyQueryParams { count: 17, max: 16 }),
        ),
        // A calendar trap looks fine one URL at a time: depth and budgets contain it.
        (
            "http://example.com/calendar?month=2999-12&view=month",
            Ok(()),
        ),
        // Empty pairs are not parameters.
        ("http://example.com/?a&&&b&", Ok(())),
    ] {
        check(&guard, input, expected);
    }
}

#[test]
fn repeated_segments_and_runs() {
    let guard = TrapGuard::default();
    for (input, expected) in [
        // A segment may occur 3 times, not 4.
        ("http://example.com/x/a/x/b/x/c", Ok(())),
        ("http://example.com/x/a/x/b/x/c/x", segment("x", 4)),
        ("http://example.com/a/x/b/x/c/x/d/x/e/x", segment("x", 5)),
        // A run may repeat twice in a row, not three times.
        ("http://example.com/a/a", Ok(())),
        ("http://example.com/a/a/a", run("a", 3)),
        ("http://example.com/a/b/a/b", Ok(())),
        ("http://example.com/a/b/a/b/a/b", run("a/b", 3)),
        (
            "http://example.com/top/a/b/c/a/b/c/a/b/c/a/b/c/end",
            run("a/b/c", 4),
        ),
        (
            "http://example.com/docs/img/docs/img/docs/img/x.png",
            run("docs/img", 3),
        ),
        // Not back to back: the occurrence limit applies instead.
        ("http://example.com/a/b/a/c/a/b", Ok(())),
        // Empty segments count (`//` loops), a trailing slash does not.
        ("http://example.com/x////", run("", 3)),
        ("http://example.com/a//b/", Ok(())),
        // Case matters: paths are never case-folded.
        ("http://example.com/A/a/a", Ok(())),
    ] {
        check(&guard, input, expected);
    }
}

#[test]
fn custom_limits() {
    let strict = TrapGuard::new(TrapConfig {
        max_url_length: 40,
        max_path_depth: 2,
        max_segment_occurrences: 1,
        max_run_repeats: 1,
        max_query_params: 0,
        max_query_nesting: 1,
    });
    assert_eq!(strict.config().max_path_depth, 2);
    for (input, expected) in [
        ("http://example.com/a/b", Ok(())),
        (
            "http://example.com/a/b/c",
            Err(Trap::TooDeep { depth: 3, max: 2 }),
        ),
        (
            "http://example.com/a/a",
            Err(Trap::RepeatingRun {
                run: "a".into(),
                repeats: 2,
                max: 1,
            }),
        ),
        (
            "http://example.com/?a=1",
            Err(Trap::TooManyQueryParams { count: 1, max: 0 }),
        ),
        (
            "http://example.com/aaaaaaaaaaaaaaaaaaaaaaa",
            Err(Trap::TooLong {
                length: 42,
                max: 40,
            }),
        ),
    ] {
        check(&strict, input, expected);
    }
    let no_runs = TrapGuard::new(TrapConfig {
        max_run_repeats: 0,
        ..TrapConfig::default()
    });
    check(&no_runs, "http://example.com/", Ok(()));
    check(
        &no_runs,
        "http://example.com/a",
        Err(Trap::RepeatingRun {
            run: "a".into(),
            repeats: 1,
            max: 0,
        }),
    );
}

fn nested(name: &str, levels: usize) -> Result<(), Trap> {
    Err(Trap::NestedQuery {
        name: name.into(),
        levels,
        max: 1,
    })
}

#[test]
fn a_query_parameter_that_holds_itself_level_in_level_is_a_trap() {
    let guard = TrapGuard::default();
    for (input, expected) in [
        ("http://example.com/login?next=/", Ok(())),
        // A login page's link back to a login page: one level.
        ("http://example.com/login?next=/login?next%3D/", Ok(())),
        // The next page's link: two.
        (
            "http://example.com/login?next=/login?next%3D/login%3Fnext%253D/",
            nested("next", 2),
        ),
        // However the levels are written: `?` and `=` as they are, encoded, or twice encoded.
        (
            "http://example.com/login?next=%2Flogin%3Fnext%3D%252Flogin%253Fnext%253D%25252F",
            nested("next", 2),
        ),
        (
            "http://example.com/a?back=/b%3Fx%3D1%26back%3D/c%253Fback%253D/d",
            nested("back", 2),
        ),
        // Another parameter inside is no nesting, nor a `?` with no query of that name.
        (
            "http://example.com/a?back=/b%3Fnext%3D/c%253Fnext%253D/d",
            Ok(()),
        ),
        (
            "http://example.com/r?url=http://example.com/%3Fq%3D1",
            Ok(()),
        ),
        (
            "http://example.com/index.php?title=Special:UserLogin&returnto=Main_Page",
            Ok(()),
        ),
        // A value that names the parameter but holds no query with it.
        ("http://example.com/a?next=next%3D1", Ok(())),
    ] {
        check(&guard, input, expected);
    }
}

#[test]
fn errors_read_well() {
    let err = TrapGuard::default().check(&url("http://example.com/a/b/a/b/a/b"));
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err("path segments \"a/b\" repeat 3 times in a row, over the maximum 2".to_owned())
    );
    let err = TrapGuard::default().check(&url(
        "http://example.com/login?next=/login%3Fnext%3D/login%253Fnext%253D/",
    ));
    assert_eq!(
        err.map_err(|e| e.to_string()),
        Err(
            "query parameter \"next\" holds itself 2 levels deep in its value, over the maximum 1"
                .to_owned()
        )
    );
}

proptest::proptest! {
    /// A value that holds the parameter `levels` levels deep, each level encoded once
    /// more, is a trap exactly when that is over the limit, and the error counts one level
    /// over it at most.
    #[test]
    fn nesting_is_counted_level_by_level(levels in 0usize..8, max in 1usize..4) {
        let mut value = "/home".to_owned();
        for _ in 0..levels {
            value = format!(
                "/login?{}",
                url::form_urlencoded::Serializer::new(String::new()).append_pair("next", &value).finish()
            );
        }
        let query = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("next", &value)
            .finish();
        let guard = TrapGuard::new(TrapConfig { max_query_nesting: max, ..TrapConfig::default() });
        let got = guard.check(&url(&format!("http://example.com/login?{query}")));
        let expected = if levels <= max {
            Ok(())
        } else {
            Err(Trap::NestedQuery { name: "next".into(), levels: max + 1, max })
        };
        proptest::prop_assert_eq!(got, expected);
    }

    #[test]
    fn any_path_is_checked_without_panicking(path in "(/[ab]{0,2}){0,40}", max in 0usize..5) {
        let guard = TrapGuard::new(TrapConfig {
            max_run_repeats: max,
            max_segment_occurrences: max,
            ..TrapConfig::default()
        });
        let _ = guard.check(&url(&format!("http://example.com{path}")));
    }
}
