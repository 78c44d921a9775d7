//! `silhouette compare A B`.

use crate::common::{fixtures, run, run_in};

#[test]
fn compare_prints_both_fingerprints_distance_and_verdict() {
    let r = run(&["compare", "--features", "classic", "p.html", "div.html"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let expected = "A  f123317ed83fa3c7       4 elements  p.html\n\
                    B  f132317ed83fa3c6       7 elements  div.html\n\
                    distance: 3 bits (structure/classic/fnv1-64/decay=0.45)\n\
                    content distance: none (A and B too little text)\n\
                    verdict: same structure (distance 3 <= threshold 5)\n";
    assert_eq!(r.stdout, expected);

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
            .ends_with("verdict: different structure (distance 3 > threshold 2)\n"),
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
