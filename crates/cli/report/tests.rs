//! The report of a large crawl stays bounded and says what it left out.

use super::*;
use silhouette_crawl::{Cluster, Member, Summary};
use silhouette_crawl::{Grid, ReplayCounts as Counts};

fn big(clusters: u64, members: u64) -> Report {
    let summary = Summary {
        pages: clusters * members,
        clusters: (0..clusters)
            .map(|c| Cluster {
                first: format!("http://t/{c}/0?a=1&b=<2>"),
                pages: members,
                kept: 1,
                members: (0..members)
                    .map(|m| Member {
                        url: format!("http://t/{c}/{m}?a=1&b=<2>"),
                        decision: if m == 0 { "kept" } else { "near-duplicate" }.into(),
                        distance: (m > 0).then_some((m % 5) as u32),
                    })
                    .collect(),
            })
            .collect(),
        ..Summary::default()
    };
    Report {
        state: "s<t>".into(),
        fingerprint: "structure/x".into(),
        on_duplicate: Some("drop".into()),
        summary,
        histogram: Histogram {
            near: vec![0; 65],
            exact: 0,
            kept: clusters,
            threshold: 5,
        },
        content_histogram: None,
        grid: Grid {
            decays: vec![0.75],
            thresholds: vec![5],
            cells: vec![vec![Counts {
                kept: clusters,
                clusters,
            }]],
            current: (0.75, 5),
            pages: (clusters * members) as usize,
        },
        rate: Rate::default(),
        gaps: Default::default(),
    }
}

fn check(clusters: u64, members: u64, details: usize, more_clusters: Option<&str>) {
    let html = html::page(&big(clusters, members));
    assert_eq!(html.matches("<details class=\"cluster\"").count(), details);
    assert_eq!(
        html.contains("more clusters"),
        more_clusters.is_some(),
        "more clusters"
    );
    if let Some(more) = more_clusters {
        assert!(html.contains(more), "{more}");
    }
    assert!(!html.contains("<2>"), "an unescaped URL");
    assert!(html.contains("s&lt;t&gt;"), "the state path is escaped");
    assert!(html.len() < 2_000_000, "{} bytes", html.len());
}

#[test]
fn large_crawls_are_cut_and_say_how_much() {
    check(3, 4, 3, None);
    check(500, 2, 500, None);
    check(5_000, 50, 500, Some("… and 4500 more clusters"));
    let html = html::page(&big(2, 50));
    assert_eq!(html.matches("… and 40 more pages").count(), 2);
    assert_eq!(html.matches("<td class=\"current\"").count(), 1);
}

#[test]
fn content_distances_are_drawn_when_present() {
    let mut r = big(2, 3);
    let html = html::page(&r);
    assert!(
        !html.contains("content-histogram-svg"),
        "no content duplicates: no chart"
    );
    let mut near = vec![0; 129];
    (near[0], near[2], near[40]) = (1, 3, 1);
    r.content_histogram = Some(Histogram {
        near,
        exact: 0,
        kept: 2,
        threshold: 6,
    });
    let html = html::page(&r);
    for expected in [
        "<svg id=\"content-histogram-svg\"",
        "<line id=\"content-threshold\"",
        "<title>2 bits: 3 pages</title>",
        "<title>40 bits: 1 page</title>",
        "5 content duplicates by the distance in bits",
        "the content threshold, 6 bits",
    ] {
        assert!(html.contains(expected), "{expected}");
    }
    // The structure chart keeps its ids: one of each.
    assert_eq!(html.matches("<line id=\"threshold\"").count(), 1);
    assert_eq!(html.matches("id=\"histogram-svg\"").count(), 1);
}

#[test]
fn the_grid_says_how_it_was_replayed_and_marks_the_crawls_cell() {
    let cells = |kept: &[u64]| {
        kept.iter()
            .map(|&k| Counts {
                kept: k,
                clusters: k,
            })
            .collect::<Vec<_>>()
    };
    let mut r = big(2, 3);
    r.grid = Grid {
        decays: vec![0.7, 0.76],
        thresholds: vec![4, 5, 6],
        cells: vec![cells(&[9, 7, 7]), cells(&[8, 6, 5])],
        current: (0.76, 5),
        pages: 20,
    };
    let html = html::page(&r);
    for expected in [
        "Each row is walked from the crawl's threshold one step at a time",
        "a looser threshold never keeps more pages",
        "<code>silhouette replay --from-scratch</code>",
    ] {
        assert!(html.contains(expected), "{expected}");
    }
    assert_eq!(html.matches(" ◆</td>").count(), 1, "{html}");
    assert!(html.contains("title=\"decay 0.76, threshold 5: 6 kept, 6 clusters\""));
}
