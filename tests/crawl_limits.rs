//! Page limits: links beyond `max-pages` are kept (deferred) in the state, the summary says
//! the limit stopped the crawl, and raising the limit resumes the crawl.

use std::collections::BTreeSet;

use crate::crawl_support::{check_consistent, config, crawl};
use crate::sites::{Server, tree_site};

fn recorded(dir: &std::path::Path) -> BTreeSet<String> {
    check_consistent(dir)
        .recorded()
        .keys()
        .map(|u| (*u).to_owned())
        .collect()
}

#[test]
fn raising_max_pages_resumes_the_crawl() {
    let server = Server::start(|_| |target: &str| tree_site(120, target));
    let seed = server.url("/");
    let keep = "on-duplicate = \"keep\"";

    let capped = tempfile::tempdir().expect("tempdir");
    let r = crawl(capped.path(), &config(keep, "max-pages = 10"), &[&seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(recorded(capped.path()).len(), 10);
    assert!(
        r.stderr.contains("stopped at the page limit: ")
            && r.stderr
                .contains("URLs found beyond the page limit are deferred"),
        "{}",
        r.stderr
    );

    // A higher limit, then none: the crawl goes on where the limit stopped it.
    let r = crawl(capped.path(), &config(keep, "max-pages = 40"), &[&seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("resuming the crawl"), "{}", r.stderr);
    assert_eq!(recorded(capped.path()).len(), 40);
    let r = crawl(capped.path(), &config(keep, ""), &[&seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stderr.contains("page limit") && r.stderr.contains("finished: every URL in scope"),
        "{}",
        r.stderr
    );

    // It ends with what one crawl without a limit records.
    let whole = tempfile::tempdir().expect("tempdir");
    let r = crawl(whole.path(), &config(keep, ""), &[&seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(recorded(capped.path()), recorded(whole.path()));
}
