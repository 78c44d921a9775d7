//! robots.txt, address policy, redirect policy, schemes, TLS/connect errors
//! and politeness (rate limit, Crawl-delay, concurrency caps) against a
//! local server. Spacing is asserted as a minimum only.

mod server;
mod support;

use std::time::Duration;

use silhouette_fetch::{AddressPolicy, FetchConfig, FetchContext, FetchError};
use url::Url;

use server::{Reply, Server, full, head, html, keep_alive_head, not_found, redirect};
use support::{check_err, config, err, fetcher, get};

fn robots(body: &'static str) -> Reply {
    full("200 OK", &[("Content-Type", "text/plain")], body)
}

#[tokio::test]
async fn robots_disallow_and_redirect_into_disallowed_path() {
    let server = Server::start(|path| match path {
        "/robots.txt" => robots("User-agent: *\nDisallow: /private\n"),
        "/to-private" => redirect("302 Found", "/private/page"),
        "/public" => html("<html>public</html>"),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/private/secret")).await;
    assert_eq!(
        err(&out),
        &FetchError::RobotsDisallowed {
            url: server.url("/private/secret")
        }
    );
    assert_eq!(out.attempts, 0);
    assert!(get(&f, &server.url("/public")).await.page().is_some());

    let out = get(&f, &server.url("/to-private")).await;
    assert_eq!(
        err(&out),
        &FetchError::RobotsDisallowed {
            url: server.url("/private/page")
        }
    );
    assert_eq!(out.final_url, server.url("/private/page"));
    assert_eq!(server.count("/private/secret"), 0);
    assert_eq!(server.count("/private/page"), 0);
    assert_eq!(server.count("/robots.txt"), 1, "robots.txt cached");
}

#[tokio::test]
async fn robots_agent_specific_group() {
    let server = Server::start(|path| match path {
        "/robots.txt" => robots("User-agent: silhouette\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
        _ => html("<html></html>"),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/anything")).await;
    assert!(matches!(err(&out), FetchError::RobotsDisallowed { .. }));
}

#[tokio::test]
async fn robots_timeout_means_wait_and_retry() {
    let server = Server::start(|path| match path {
        "/robots.txt" => Reply::Silent,
        _ => html("<html></html>"),
    })
    .await;
    let f = fetcher(FetchConfig {
        first_byte_timeout: Duration::from_secs(1),
        ..config()
    });
    let out = get(&f, &server.url("/page")).await;
    match err(&out) {
        FetchError::RobotsUnavailable { retry_after, .. } => {
            assert!(*retry_after > Duration::from_secs(20));
        }
        other => panic!("unexpected {other:?}"),
    }
    // Cached: the next fetch answers at once without asking the server.
    let out = get(&f, &server.url("/other")).await;
    assert!(matches!(err(&out), FetchError::RobotsUnavailable { .. }));
    assert_eq!(server.count("/robots.txt"), 1);
    assert_eq!(server.count("/page") + server.count("/other"), 0);
}

#[tokio::test]
async fn robots_5xx_waits_and_4xx_allows_all() {
    let unwell = Server::start(|path| match path {
        "/robots.txt" => full("500 Internal Server Error", &[], ""),
        _ => html("<html></html>"),
    })
    .await;
    let forbidden = Server::start(|path| match path {
        "/robots.txt" => full("403 Forbidden", &[], ""),
        _ => html("<html></html>"),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &unwell.url("/page")).await;
    assert!(matches!(err(&out), FetchError::RobotsUnavailable { .. }));
    assert_eq!(unwell.count("/page"), 0);
    let out = get(&f, &forbidden.url("/page")).await;
    assert!(out.page().is_some(), "{:?}", out.result);
}

#[tokio::test]
async fn redirects_to_private_addresses_are_blocked() {
    // Nothing listens on these other loopback addresses, so even a bug
    // could only meet a refused connection.
    let server = Server::start(|path| match path {
        "/to-v4" => redirect("302 Found", "http://127.0.0.2:9/x"),
        "/to-v6" => redirect("302 Found", "http://[::1]:9/x"),
        "/to-name" => redirect("302 Found", "http://localhost:9/x"),
        "/to-file" => redirect("302 Found", "file:///etc/passwd"),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    for (path, target) in [
        ("/to-v4", "http://127.0.0.2:9/x"),
        ("/to-v6", "http://[::1]:9/x"),
        ("/to-name", "http://localhost:9/x"),
    ] {
        let out = get(&f, &server.url(path)).await;
        assert!(
            matches!(err(&out), FetchError::BlockedAddress { url, .. } if url.as_str() == target),
            "{path}: {:?}",
            out.result
        );
        assert_eq!(out.final_url.as_str(), target);
        assert_eq!(err(&out).code(), "blocked_address");
    }
    let out = get(&f, &server.url("/to-file")).await;
    assert!(matches!(
        err(&out),
        FetchError::UnsupportedScheme { scheme, .. } if scheme == "file"
    ));
}

#[tokio::test]
async fn private_seed_needs_an_allowed_host() {
    let server = Server::start(|_| html("<html></html>")).await;
    let f = fetcher(FetchConfig {
        address_policy: AddressPolicy::default(),
        ..config()
    });
    let out = get(&f, &server.url("/")).await;
    assert!(matches!(err(&out), FetchError::BlockedAddress { .. }));
    assert!(server.hits().is_empty(), "nothing was sent");
    f.allow_host("127.0.0.1");
    assert!(get(&f, &server.url("/")).await.page().is_some());

    // The resolver path: a name resolving to loopback, allowed by name.
    let by_name = Url::parse(&format!("http://localhost:{}/", server.port())).expect("url");
    let out = get(&f, &by_name).await;
    assert!(matches!(err(&out), FetchError::BlockedAddress { .. }));
    f.allow_host("LOCALHOST");
    let out = get(&f, &by_name).await;
    assert!(out.page().is_some(), "{:?}", out.result);
}

#[tokio::test]
async fn schemes_and_redirect_policy() {
    let server = Server::start(|path| match path {
        "/out" => redirect("302 Found", "http://127.0.0.1:9/elsewhere"),
        "/no-location" => full("302 Found", &[], ""),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let ftp = Url::parse("ftp://127.0.0.1/file").expect("url");
    assert!(matches!(
        err(&get(&f, &ftp).await),
        FetchError::UnsupportedScheme { .. }
    ));
    let port = server.port();
    let ctx = FetchContext::new().with_redirect_policy(move |to: &Url| to.port() == Some(port));
    let out = f.fetch(&server.url("/out"), &ctx).await;
    assert_eq!(
        err(&out),
        &FetchError::RedirectRejected {
            url: Url::parse("http://127.0.0.1:9/elsewhere").expect("url")
        }
    );
    let out = get(&f, &server.url("/no-location")).await;
    assert!(matches!(err(&out), FetchError::InvalidRedirect { .. }));
}

#[tokio::test]
async fn tls_and_connect_errors() {
    let plain = Server::not_tls().await;
    let f = fetcher(config());
    let https = Url::parse(&format!("https://127.0.0.1:{}/", plain.port())).expect("url");
    let out = get(&f, &https).await;
    check_err(&out, |e| matches!(e, FetchError::Tls { .. }));

    // A port nobody listens on: connect errors are retried, then reported.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let refused = Url::parse(&format!("http://127.0.0.1:{port}/")).expect("url");
    let out = get(&f, &refused).await;
    check_err(&out, |e| matches!(e, FetchError::Connect { .. }));
}

#[tokio::test]
async fn per_host_rate_limit_spaces_requests() {
    let server = Server::start(|path| match path {
        "/robots.txt" => not_found(),
        _ => html("<html></html>"),
    })
    .await;
    let interval = Duration::from_millis(300);
    let f = fetcher(FetchConfig {
        host_request_interval: Some(interval),
        ..config()
    });
    let tasks: Vec<_> = (0..4)
        .map(|i| {
            let f = f.clone();
            let url = server.url(&format!("/p{i}"));
            tokio::spawn(async move { f.fetch(&url, &FetchContext::new()).await })
        })
        .collect();
    for task in tasks {
        assert!(task.await.expect("join").page().is_some());
    }
    let mut times: Vec<_> = server.hits().into_iter().map(|h| h.at).collect();
    times.sort();
    assert_eq!(times.len(), 5, "robots.txt and four pages");
    for w in times.windows(2) {
        // Server-side receipt times; allow for a little network jitter.
        assert!(w[1] - w[0] >= interval * 9 / 10, "gap {:?}", w[1] - w[0]);
    }
}

#[tokio::test]
async fn crawl_delay_is_honoured_and_capped() {
    let server = Server::start(|path| match path {
        "/robots.txt" => robots("User-agent: *\nCrawl-delay: 3600\n"),
        _ => html("<html></html>"),
    })
    .await;
    let cap = Duration::from_secs(1);
    let f = fetcher(FetchConfig {
        max_crawl_delay: cap,
        ..config()
    });
    for i in 0..3 {
        assert!(
            get(&f, &server.url(&format!("/p{i}")))
                .await
                .page()
                .is_some()
        );
    }
    let times: Vec<_> = server.hits().into_iter().map(|h| h.at).collect();
    assert_eq!(times.len(), 4);
    for w in times.windows(2) {
        assert!(w[1] - w[0] >= cap * 9 / 10, "gap {:?}", w[1] - w[0]);
    }
}

#[tokio::test]
async fn concurrency_caps_hold() {
    let server = Server::start(|path| match path {
        "/robots.txt" => not_found(),
        _ => Reply::Delayed {
            head: head("200 OK", &[("Content-Type", "text/html")]),
            body: b"<html></html>".to_vec(),
            pause: Duration::from_millis(200),
        },
    })
    .await;
    for (per_host, global, expected) in [(2, 64, 2), (8, 3, 3)] {
        let f = fetcher(FetchConfig {
            per_host_concurrency: per_host,
            global_concurrency: global,
            ..config()
        });
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let f = f.clone();
                let url = server.url(&format!("/c{per_host}-{i}"));
                tokio::spawn(async move { f.fetch(&url, &FetchContext::new()).await })
            })
            .collect();
        for task in tasks {
            assert!(task.await.expect("join").page().is_some());
        }
        assert!(
            server.max_in_flight() <= expected,
            "max in flight {}",
            server.max_in_flight()
        );
    }
}

#[tokio::test]
async fn connections_are_reused() {
    let server = Server::start_keep_alive(|path| {
        let (status, body) = if path == "/robots.txt" {
            ("404 Not Found", "")
        } else {
            ("200 OK", "<html>kept alive</html>")
        };
        Reply::Full {
            head: keep_alive_head(status, &[("Content-Type", "text/html")]),
            body: body.into(),
        }
    })
    .await;
    let f = fetcher(config());
    for i in 0..10 {
        let out = get(&f, &server.url(&format!("/k{i}"))).await;
        assert!(out.page().is_some(), "{:?}", out.result);
    }
    assert_eq!(server.hits().len(), 11, "robots.txt and ten pages");
    assert_eq!(server.connections(), 1, "one pooled connection");
}
