//! Page limits: links beyond `max-pages` are kept (deferred) in the state, the summary says
//! the limit stopped the crawl, and raising the limit resumes the crawl.

use std::collections::BTreeSet;

use crate::crawl_support::{check_consistent, config, crawl};
use crate::sites::{Response, Server, not_found, templates, tree_site};

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

/// A login page that links to itself with its own URL as `?next=` makes one URL more per
/// level, forever (a held-out book catalog filled a follow-links crawl's 5,000 pages with
/// them): the trap guard lets a parameter hold itself one level deep (`traps.max-query-nesting`),
/// so two login URLs are crawled and the third is never queued.
#[test]
fn a_login_link_that_nests_its_next_is_followed_one_level() {
    fn site(target: &str) -> Response {
        let path = target.split('?').next().unwrap_or(target);
        let next = url::form_urlencoded::Serializer::new(String::new())
            .append_pair("next", target)
            .finish();
        let links = [format!("/login?{next}"), "/".to_owned()];
        match path {
            "/" | "/login" => Response::html(templates::plain(path, &links)),
            _ => not_found(),
        }
    }
    let server = Server::start(|_| |target: &str| site(target));
    let dir = tempfile::tempdir().expect("tempdir");
    let follow = "on-duplicate = \"follow-links\"";
    let r = crawl(
        dir.path(),
        &config(follow, "max-depth = 10"),
        &[&server.url("/")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut logins: Vec<String> = recorded(dir.path())
        .into_iter()
        .filter(|u| u.contains("/login"))
        .collect();
    logins.sort();
    assert_eq!(
        logins,
        [
            server.url("/login?next=%2F"),
            server.url("/login?next=%2Flogin%3Fnext%3D%252F"),
        ],
        "{}",
        r.stderr
    );
}
