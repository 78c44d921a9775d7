//! `crawl --sitemaps`: pages listed in the sitemaps robots.txt names (an index, a gzip'd
//! sitemap), else in /sitemap.xml, are crawled though no link leads to them; listed URLs out
//! of scope are not.

use std::collections::BTreeSet;
use std::io::Write;

use crate::crawl_support::{check_consistent, config, crawl};
use crate::sites::{Response, Server, not_found};

fn xml(body: String) -> Response {
    Response {
        status: 200,
        content_type: "application/xml",
        location: None,
        body: body.into_bytes(),
    }
}

fn page(title: &str) -> Response {
    Response::html(format!(
        "<!doctype html><title>{title}</title><body><h1>{title}</h1><p>no links here</p>"
    ))
}

fn urlset(base: &str, paths: &[&str]) -> String {
    let urls: String = paths
        .iter()
        .map(|p| format!("<url><loc>{base}{p}</loc></url>"))
        .collect();
    format!(
        "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>"
    )
}

/// A site whose robots.txt names a sitemap index (`named`), or one with /sitemap.xml only.
pub fn site(port: u16, named: bool, target: &str) -> Response {
    let base = format!("http://127.0.0.1:{port}");
    match target {
        "/robots.txt" if named => Response {
            status: 200,
            content_type: "text/plain",
            location: None,
            body: format!("User-agent: *\nDisallow: /private/\nSitemap: {base}/maps/index.xml\n")
                .into_bytes(),
        },
        "/maps/index.xml" if named => xml(format!(
            "<sitemapindex><sitemap><loc>{base}/maps/a.xml</loc></sitemap>\
             <sitemap><loc>{base}/maps/b.xml.gz</loc></sitemap></sitemapindex>"
        )),
        "/maps/a.xml" if named => xml(urlset(&base, &["/", "/orphan/1", "/orphan/2"])),
        "/maps/b.xml.gz" if named => {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            let doc = urlset(&base, &["/orphan/3", "/private/no"]).replace(
                "</urlset>",
                "<url><loc>http://127.0.0.2:9/off</loc></url></urlset>",
            );
            gz.write_all(doc.as_bytes()).expect("gzip");
            Response {
                status: 200,
                content_type: "application/gzip",
                location: None,
                body: gz.finish().expect("gzip"),
            }
        }
        "/sitemap.xml" if !named => xml(urlset(&base, &["/orphan/9"])),
        "/" => page("home"),
        t if t.starts_with("/orphan/") => page(t),
        _ => not_found(),
    }
}

fn recorded_paths(dir: &std::path::Path, server: &Server) -> BTreeSet<String> {
    let base = server.url("");
    check_consistent(dir)
        .recorded()
        .keys()
        .map(|u| u.strip_prefix(&base).unwrap_or(u).to_owned())
        .collect()
}

#[test]
fn sitemaps_named_in_robots_txt_add_pages_no_link_leads_to() {
    let server = Server::start(|port| move |t: &str| site(port, true, t));
    let dir = tempfile::tempdir().expect("tempdir");
    let toml = config("on-duplicate = \"keep\"", "max-depth = 3");
    let r = crawl(dir.path(), &toml, &["--sitemaps", &server.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("sitemaps: 6 URLs listed in 3 sitemaps, 4 of them new and in scope"),
        "{}",
        r.stderr
    );
    assert_eq!(
        recorded_paths(dir.path(), &server),
        BTreeSet::from(
            ["/", "/orphan/1", "/orphan/2", "/orphan/3", "/private/no"].map(String::from)
        )
    );
    // Listed but disallowed by robots.txt: recorded as such, like a link would be.
    let left = check_consistent(dir.path());
    assert_eq!(
        left.decision(&server.url("/private/no")),
        Some("robots-disallowed")
    );
    // Without --sitemaps: the seed only.
    let plain = tempfile::tempdir().expect("tempdir");
    let r = crawl(plain.path(), &toml, &[&server.url("/")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        recorded_paths(plain.path(), &server),
        BTreeSet::from(["/".to_owned()])
    );
}

#[test]
fn without_a_named_sitemap_sitemap_xml_is_read() {
    let server = Server::start(|port| move |t: &str| site(port, false, t));
    let dir = tempfile::tempdir().expect("tempdir");
    let r = crawl(
        dir.path(),
        &config("", ""),
        &["--sitemaps", &server.url("/")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        recorded_paths(dir.path(), &server),
        BTreeSet::from(["/", "/orphan/9"].map(String::from))
    );
}
