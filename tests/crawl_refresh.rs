//! Redirects by `<meta http-equiv=refresh>` end to end: a stub that sends the browser on at
//! once is recorded as `redirect`, never kept, and its target is crawled though no `<a>`
//! links to it; a page that refreshes itself, or only after a long delay, is a page; a stub
//! pointing off the crawl's host is no way out of scope (127.0.0.2). The same with one
//! process and with a shared crawl on a real redis-server.

use std::collections::BTreeMap;

use crate::crawl_redis::{finish, redis_server::Server as Redis, worker};
use crate::crawl_support::{config, crawl, field, jsonl};
use crate::sites::{self, Response, Server, templates};

/// The site: the home links to five stubs (each to a product page nothing else links to),
/// a self-refreshing live page, a page that sends the reader on after ten minutes, and a
/// stub to 127.0.0.2.
fn site(port: u16, target: &str) -> Response {
    let stub = |to: &str| {
        Response::html(format!(
            "<!DOCTYPE html><html><head><meta http-equiv=\"refresh\" content=\"0;URL={to}\">\
             <title>Redirection</title></head><body><p>Redirecting...</p></body></html>"
        ))
    };
    match target {
        "/" => {
            let mut links: Vec<String> = (1..=5).map(|i| format!("/old/{i}.html")).collect();
            links.extend(["/live.html", "/later.html", "/away.html"].map(String::from));
            Response::html(templates::home(&links))
        }
        t if t.starts_with("/old/") => {
            stub(&t.replace("/old/", "/new/").replace(".html", ".html#top"))
        }
        "/away.html" => stub(&format!("http://127.0.0.2:{port}/elsewhere")),
        "/live.html" => Response::html(templates::listing("live", &["/".to_owned()]).replace(
            "<head>",
            "<head><meta http-equiv=refresh content='30; url=live.html'>",
        )),
        "/later.html" => Response::html(templates::article("later", &["/".to_owned()]).replace(
            "<head>",
            "<head><meta http-equiv=refresh content='600;url=new/9.html'>",
        )),
        t if t.starts_with("/new/") => Response::html(templates::product(t, &["/".to_owned()])),
        _ => sites::not_found(),
    }
}

/// Decisions by path, from the records of a crawl of `server`.
fn decisions(records: &[serde_json::Value], server: &Server) -> BTreeMap<String, String> {
    records
        .iter()
        .filter_map(|r| {
            let path = field(r, "url")?.strip_prefix(&server.url(""))?;
            Some((path.to_owned(), field(r, "decision")?.to_owned()))
        })
        .collect()
}

fn check(got: &BTreeMap<String, String>, sentinels: &[Server]) {
    let of = |p: &str| got.get(p).map_or("(not crawled)", String::as_str);
    for i in 1..=5 {
        assert_eq!(of(&format!("/old/{i}.html")), "redirect", "{got:?}");
        // Reached through the stub alone, judged as a page (one of them is kept).
        assert!(
            matches!(of(&format!("/new/{i}.html")), "kept" | "near-duplicate"),
            "{got:?}"
        );
    }
    assert_eq!(of("/away.html"), "redirect", "{got:?}");
    // A live page reloading itself, and a page read first and sent on later, are pages; the
    // later one's target is a link like any other.
    assert_eq!(of("/live.html"), "kept", "{got:?}");
    assert!(
        matches!(of("/later.html"), "kept" | "near-duplicate"),
        "{got:?}"
    );
    assert!(
        matches!(of("/new/9.html"), "kept" | "near-duplicate"),
        "{got:?}"
    );
    assert!(
        got.values().filter(|d| *d == "kept").count() >= 3,
        "{got:?}"
    );
    for s in sentinels {
        assert!(s.hits().is_empty(), "{:?} was contacted", s.addr);
    }
}

fn start() -> (Server, Vec<Server>) {
    let server = Server::start(|port| move |target: &str| site(port, target));
    let sentinels: Vec<Server> = sites::off_scope_ips()
        .into_iter()
        .filter_map(|ip| Server::sentinel(ip, server.addr.port()))
        .collect();
    assert!(!sentinels.is_empty(), "127.0.0.2 cannot be bound");
    (server, sentinels)
}

#[test]
fn a_meta_refresh_stub_is_a_redirect_and_its_target_is_crawled() {
    let (server, sentinels) = start();
    let dir = tempfile::tempdir().expect("tempdir");
    let r = crawl(dir.path(), &config("", ""), &[&server.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got = decisions(&jsonl(&dir.path().join("state/decisions.jsonl")), &server);
    check(&got, &sentinels);
    // The stubs' targets were requested once each, without the fragment.
    let hits: Vec<String> = server.hits().into_iter().map(|h| h.target).collect();
    for i in 1..=5 {
        let t = format!("/new/{i}.html");
        assert_eq!(hits.iter().filter(|h| **h == t).count(), 1, "{hits:?}");
    }
}

#[test]
fn a_shared_crawl_records_the_same_redirects() {
    let (server, sentinels) = start();
    let redis = Redis::start();
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("c.toml"), config("", "")).expect("config");
    finish(worker(dir.path(), &redis.url(), &[server.url("/")]));
    crate::crawl_redis::export_run(dir.path(), &redis.url());
    let got = decisions(&jsonl(&dir.path().join("out.jsonl")), &server);
    check(&got, &sentinels);
    // One process decides the same.
    let one = tempfile::tempdir().expect("tempdir");
    let r = crawl(one.path(), &config("", ""), &[&server.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        got,
        decisions(&jsonl(&one.path().join("state/decisions.jsonl")), &server)
    );
}

#[test]
fn dedup_of_a_wget_warc_skips_the_stubs() {
    let (server, _sentinels) = start();
    let dir = tempfile::tempdir().expect("tempdir");
    crate::dedup_warc::wget_site(dir.path(), &server.url("/"));
    let r = crate::dedup_warc::dedup(dir.path(), &["--output", "d.jsonl", "site.warc.gz"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let got = decisions(&jsonl(&dir.path().join("d.jsonl")), &server);
    // wget followed the stubs to their targets; only the targets are judged.
    for i in 1..=5 {
        assert!(!got.contains_key(&format!("/old/{i}.html")), "{got:?}");
        assert!(got.contains_key(&format!("/new/{i}.html")), "{got:?}");
    }
    assert!(got.contains_key("/live.html"), "{got:?}");
}
