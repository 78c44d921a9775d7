//! The fetcher against a hostile server on 127.0.0.1: every misbehaviour
//! must end in the expected typed outcome, within its configured bound,
//! with bounded memory and without panicking. Politeness is asserted as
//! *minimum* spacing between requests; no test asserts a maximum duration.

mod server;
mod support;

use std::time::Duration;

use silhouette_fetch::{FetchConfig, FetchContext, FetchError, Fetcher, TimeoutKind};
use url::Url;

use server::{Reply, Server, full, head, html, not_found, redirect};
use support::{check_err, err, fetcher, get};

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

/// The shared small limits, with a 1 MiB body cap and a 32 KiB header cap.
fn config() -> FetchConfig {
    FetchConfig {
        max_body_bytes: MIB,
        max_header_bytes: 32 * KIB as usize,
        ..support::config()
    }
}

/// Peak resident memory of this test process, in bytes (Linux).
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn gaps(times: &[tokio::time::Instant]) -> Vec<Duration> {
    times.windows(2).map(|w| w[1] - w[0]).collect()
}

#[test]
fn fetcher_is_send_sync_and_fetch_is_send() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    fn assert_send<T: Send>(_: &T) {}
    assert_send_sync::<Fetcher>();
    let f = fetcher(config());
    let url = Url::parse("http://127.0.0.1:9/").expect("url");
    let ctx = FetchContext::new();
    let fut = f.fetch(&url, &ctx);
    assert_send(&fut);
}

#[tokio::test]
async fn plain_and_gzip_html() {
    let page = "<!doctype html><title>hi</title><p>hello</p>".repeat(50);
    let gz = {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(page.as_bytes()).expect("gzip");
        enc.finish().expect("gzip")
    };
    let p = page.clone();
    let server = Server::start(move |path| match path {
        "/plain" => html(&p),
        "/gz" => full(
            "200 OK",
            &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
            gz.clone(),
        ),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    for path in ["/plain", "/gz"] {
        let out = get(&f, &server.url(path)).await;
        let got = out.page().expect("page");
        assert_eq!(got.status, 200);
        assert!(got.is_html && got.body_fetched);
        assert_eq!(got.body, page.as_bytes(), "{path} body decompressed intact");
        assert_eq!(out.final_url, server.url(path));
        assert!(out.redirect_chain.is_empty());
        assert_eq!(out.attempts, 1);
    }
    assert_eq!(
        f.fetch(&server.url("/plain"), &FetchContext::new())
            .await
            .page()
            .and_then(|p| p.charset.clone())
            .as_deref(),
        Some("utf-8")
    );
    // robots.txt (a 404 here: allow all) was fetched once for the origin.
    assert_eq!(server.count("/robots.txt"), 1);
}

/// `page` compressed by `encoder` (a flate2 write encoder over a `Vec`).
fn compress<W: std::io::Write>(
    mut encoder: W,
    page: &[u8],
    finish: impl FnOnce(W) -> Vec<u8>,
) -> Vec<u8> {
    encoder.write_all(page).expect("compress");
    finish(encoder)
}

/// Every coding the fetcher asks for is decoded by the fetcher itself, framed by a length
/// or chunked, and the response headers stay as the server sent them (for the WARC).
#[tokio::test]
async fn codings_decoded_and_headers_kept() {
    use flate2::Compression;
    use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
    let page = "<!doctype html><title>coded</title><p>hello, decoded world</p>".repeat(60);
    let gz = compress(
        GzEncoder::new(Vec::new(), Compression::fast()),
        page.as_bytes(),
        |e| e.finish().expect("gzip"),
    );
    let zlib = compress(
        ZlibEncoder::new(Vec::new(), Compression::fast()),
        page.as_bytes(),
        |e| e.finish().expect("zlib"),
    );
    let raw = compress(
        DeflateEncoder::new(Vec::new(), Compression::fast()),
        page.as_bytes(),
        |e| e.finish().expect("deflate"),
    );
    let mut corrupt = gz.clone();
    let mid = corrupt.len() / 2;
    corrupt[mid..].fill(0xff);
    let (g, z, r, c) = (gz.clone(), zlib.clone(), raw.clone(), corrupt);
    let server = Server::start(move |path| {
        let coded = |coding: &str, body: &[u8]| {
            full(
                "200 OK",
                &[("Content-Type", "text/html"), ("Content-Encoding", coding)],
                body,
            )
        };
        let chunked = |coding: &str, body: &[u8]| Reply::Chunked {
            head: head(
                "200 OK",
                &[("Content-Type", "text/html"), ("Content-Encoding", coding)],
            ),
            body: body.to_vec(),
            size: 100,
        };
        match path {
            "/gzip" => coded("gzip", &g),
            "/zlib" => coded("deflate", &z),
            "/raw" => coded("deflate", &r),
            "/gzip-chunked" => chunked("gzip", &g),
            "/raw-chunked" => chunked("deflate", &r),
            "/corrupt" => coded("gzip", &c),
            "/br" => coded("br", b"whatever"),
            _ => not_found(),
        }
    })
    .await;
    let f = fetcher(config());
    for (path, coding, wire, chunked) in [
        ("/gzip", "gzip", &gz, false),
        ("/zlib", "deflate", &zlib, false),
        ("/raw", "deflate", &raw, false),
        ("/gzip-chunked", "gzip", &gz, true),
        ("/raw-chunked", "deflate", &raw, true),
    ] {
        let out = get(&f, &server.url(path)).await;
        let got = out
            .page()
            .unwrap_or_else(|| panic!("{path}: {:?}", out.result));
        assert_eq!(got.body, page.as_bytes(), "{path} decoded");
        let header = |name: &str| {
            got.headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        assert_eq!(
            header("content-encoding").as_deref(),
            Some(coding),
            "{path}"
        );
        if chunked {
            assert_eq!(
                header("transfer-encoding").as_deref(),
                Some("chunked"),
                "{path}"
            );
            assert_eq!(header("content-length"), None, "{path}");
        } else {
            assert_eq!(
                header("content-length"),
                Some(wire.len().to_string()),
                "{path}"
            );
        }
    }
    for (path, says) in [
        ("/corrupt", "gzip body"),
        ("/br", "\"br\" is not supported"),
    ] {
        let out = get(&f, &server.url(path)).await;
        let error = err(&out);
        assert!(
            matches!(error, FetchError::Decode { .. }),
            "{path}: {error:?}"
        );
        let text = error.to_string();
        assert!(
            text.contains(says) && text.contains(server.url(path).as_str()),
            "{text}"
        );
        assert_eq!(error.code(), "decode");
    }
}

#[tokio::test]
async fn drip_body_hits_total_timeout() {
    let server = Server::start(|path| match path {
        "/drip" => Reply::Drip {
            head: head("200 OK", &[("Content-Type", "text/html")]),
            body: vec![b'x'; 100],
            every: Duration::from_secs(1),
        },
        _ => not_found(),
    })
    .await;
    let f = fetcher(FetchConfig {
        idle_timeout: Duration::from_secs(2),
        total_timeout: Duration::from_secs(3),
        ..config()
    });
    let out = get(&f, &server.url("/drip")).await;
    assert!(
        matches!(
            err(&out),
            FetchError::Timeout {
                kind: TimeoutKind::Total,
                ..
            }
        ),
        "{:?}",
        out.result
    );
    assert!(out.elapsed >= Duration::from_secs(3));
}

#[tokio::test]
async fn stalled_body_hits_idle_timeout_and_silent_server_first_byte() {
    let server = Server::start(|path| match path {
        "/stall" => Reply::Stall {
            head: head("200 OK", &[("Content-Type", "text/html")]),
            partial: b"<html><body>".to_vec(),
        },
        "/silent" => Reply::Silent,
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/stall")).await;
    assert!(matches!(
        err(&out),
        FetchError::Timeout {
            kind: TimeoutKind::Idle,
            ..
        }
    ));
    let out = get(&f, &server.url("/silent")).await;
    assert!(matches!(
        err(&out),
        FetchError::Timeout {
            kind: TimeoutKind::FirstByte,
            ..
        }
    ));
    assert_eq!(err(&out).code(), "timeout_first_byte");
}

#[tokio::test]
async fn endless_body_is_too_large() {
    let server = Server::start(|path| match path {
        "/endless" => Reply::Endless {
            head: head("200 OK", &[("Content-Type", "text/html")]),
        },
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/endless")).await;
    assert_eq!(
        err(&out),
        &FetchError::TooLarge {
            url: server.url("/endless"),
            limit: MIB
        }
    );
    let peak = peak_rss();
    assert!(peak < 512 * MIB, "peak RSS {peak} bytes");
}

/// A gzip stream of `blocks` MiB of zeros, built from one compressed MiB
/// repeated (sync-flushed deflate segments are byte-aligned and
/// self-contained), so making it is cheap even in a debug build. The trailer
/// carries the true CRC-32 and length.
fn gzip_of_zeros(blocks: u32) -> Vec<u8> {
    use flate2::{Compress, Compression, Crc, FlushCompress};
    let block = vec![0u8; MIB as usize];
    let mut compressor = Compress::new(Compression::best(), false);
    let mut segment = Vec::with_capacity(64 * 1024);
    compressor
        .compress_vec(&block, &mut segment, FlushCompress::Sync)
        .expect("deflate");
    assert_eq!(compressor.total_in(), MIB, "whole block consumed");
    let mut block_crc = Crc::new();
    block_crc.update(&block);
    let mut crc = Crc::new();
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    for _ in 0..blocks {
        out.extend_from_slice(&segment);
        crc.combine(&block_crc);
    }
    out.extend_from_slice(&[0x03, 0x00]); // final, empty, fixed-Huffman block
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&crc.amount().to_le_bytes());
    out
}

#[test]
fn gzip_of_zeros_is_valid() {
    use std::io::Read;
    let small = gzip_of_zeros(16);
    let mut decoded = Vec::new();
    flate2::read::GzDecoder::new(&small[..])
        .read_to_end(&mut decoded)
        .expect("valid gzip, CRC and length checked");
    assert_eq!(decoded.len() as u64, 16 * MIB);
    assert!(decoded.iter().all(|b| *b == 0));
}

#[tokio::test]
async fn gzip_bomb_stops_at_limit_with_bounded_memory() {
    let bomb = gzip_of_zeros(1024); // inflates to 1 GiB
    // Compressed, the bomb is smaller than the limit: only counting the
    // decompressed bytes can stop it.
    let limit = 4 * MIB;
    assert!(
        bomb.len() < 2 * MIB as usize,
        "bomb is {} bytes",
        bomb.len()
    );
    let server = Server::start(move |path| match path {
        "/bomb" => full(
            "200 OK",
            &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
            bomb.clone(),
        ),
        _ => not_found(),
    })
    .await;
    let f = fetcher(FetchConfig {
        max_body_bytes: limit,
        ..config()
    });
    let out = get(&f, &server.url("/bomb")).await;
    check_err(
        &out,
        |e| matches!(e, FetchError::TooLarge { limit: l, .. } if *l == limit),
    );
    let peak = peak_rss();
    assert!(peak < 512 * MIB, "peak RSS {peak} bytes");
}

#[tokio::test]
async fn redirect_loop_and_long_chain() {
    let server = Server::start(|path| {
        if path == "/a" {
            return redirect("302 Found", "/b");
        }
        if path == "/b" {
            return redirect("301 Moved Permanently", "/a#frag");
        }
        if let Some(n) = path.strip_prefix("/hop/") {
            let n: u32 = n.parse().unwrap_or(99);
            return if n < 20 {
                redirect("307 Temporary Redirect", &format!("/hop/{}", n + 1))
            } else {
                html("<html>end</html>")
            };
        }
        not_found()
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/a")).await;
    assert_eq!(
        err(&out),
        &FetchError::RedirectLoop {
            url: server.url("/a")
        }
    );
    assert_eq!(out.redirect_chain, vec![server.url("/b"), server.url("/a")]);

    // Default cap is 10: the 11th hop is refused and reported.
    let out = get(&f, &server.url("/hop/0")).await;
    assert_eq!(
        err(&out),
        &FetchError::TooManyRedirects {
            url: server.url("/hop/11"),
            limit: 10
        }
    );
    assert_eq!(out.redirect_chain.len(), 11);
    assert_eq!(out.final_url, server.url("/hop/11"));
    assert_eq!(server.count("/hop/11"), 0);

    let f = fetcher(FetchConfig {
        max_redirects: 25,
        ..config()
    });
    let out = get(&f, &server.url("/hop/0")).await;
    assert!(out.page().is_some_and(|p| p.status == 200));
    assert_eq!(out.final_url, server.url("/hop/20"));
    assert_eq!(out.redirect_chain.len(), 20);
    assert_eq!(out.attempts, 21);
}

#[tokio::test]
async fn retry_after_429_delays_the_next_request() {
    let server = Server::start(|path| match path {
        "/busy" => full("429 Too Many Requests", &[("Retry-After", "2")], ""),
        "/other" => html("<html>ok</html>"),
        _ => not_found(),
    })
    .await;
    let f = fetcher(FetchConfig {
        max_retries: 0,
        ..config()
    });
    let out = get(&f, &server.url("/busy")).await;
    assert_eq!(
        err(&out),
        &FetchError::HttpStatus {
            url: server.url("/busy"),
            status: 429,
            retry_after: Some(Duration::from_secs(2)),
        }
    );
    // A different URL on the same host waits for the host's Retry-After.
    let out = get(&f, &server.url("/other")).await;
    assert!(out.page().is_some());
    let busy = server.times("/busy");
    let other = server.times("/other");
    assert!(
        other[0] - busy[0] >= Duration::from_secs(2),
        "next request after {:?}",
        other[0] - busy[0]
    );
}

/// A page's own server error (500) is retried after a backoff of that URL's own: the host's
/// other pages are not held back. A gateway's (502, 504) backs the whole host off.
#[tokio::test]
async fn a_pages_500_backs_off_that_page_and_a_gateways_502_the_host() {
    let server = Server::start(|path| match path {
        "/broken" => full("500 Internal Server Error", &[], "oops"),
        "/gateway" => full("502 Bad Gateway", &[], ""),
        "/timeout" => full("504 Gateway Timeout", &[], ""),
        _ => html("<html>ok</html>"),
    })
    .await;
    // Backoffs of an hour and `max_host_wait` 0: any wait, the host's or the URL's own, is
    // handed back to the caller at once instead of waited (one retry allowed).
    let f = fetcher(FetchConfig {
        max_retries: 1,
        backoff_base: Duration::from_secs(3600),
        backoff_cap: Duration::from_secs(3600),
        max_host_wait: Duration::ZERO,
        ..config()
    });
    for _ in 0..3 {
        let out = get(&f, &server.url("/broken")).await;
        check_err(&out, |e| {
            matches!(e, FetchError::HttpStatus { status: 500, .. })
        });
        // Its own backoff is longer than the caller would wait: handed back, not waited.
        assert_eq!(out.attempts, 1);
    }
    let out = get(&f, &server.url("/fine")).await;
    assert!(
        out.page().is_some_and(|p| p.status == 200),
        "{:?}",
        out.result
    );
    for gateway in ["/gateway", "/timeout"] {
        let f = fetcher(FetchConfig {
            max_retries: 0,
            backoff_base: Duration::from_secs(3600),
            backoff_cap: Duration::from_secs(3600),
            max_host_wait: Duration::ZERO,
            ..config()
        });
        let out = get(&f, &server.url(gateway)).await;
        assert!(
            matches!(
                err(&out),
                FetchError::HttpStatus {
                    status: 502 | 504,
                    ..
                }
            ),
            "{:?}",
            out.result
        );
        let out = get(&f, &server.url("/fine")).await;
        assert!(
            matches!(err(&out), FetchError::HostBackoff { .. }),
            "{gateway}: {:?}",
            out.result
        );
        assert_eq!(out.attempts, 0);
    }
    assert_eq!(server.count("/fine"), 1);
}

#[tokio::test]
async fn long_retry_after_is_handed_back_not_waited() {
    let server = Server::start(|path| match path {
        "/later" => full("503 Service Unavailable", &[("Retry-After", "3600")], ""),
        _ => html("<html>ok</html>"),
    })
    .await;
    let f = fetcher(config()); // max_host_wait: 10 s, max_retries: 2
    let out = get(&f, &server.url("/later")).await;
    assert_eq!(
        err(&out),
        &FetchError::HttpStatus {
            url: server.url("/later"),
            status: 503,
            retry_after: Some(Duration::from_secs(3600)),
        }
    );
    assert_eq!(out.attempts, 1, "no retry inside the hour");
    // The whole host is now backing off: nothing is sent.
    let out = get(&f, &server.url("/fine")).await;
    match err(&out) {
        FetchError::HostBackoff { retry_after, .. } => {
            assert!(*retry_after > Duration::from_secs(3000));
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(out.attempts, 0);
    assert_eq!(server.count("/fine"), 0);
    assert_eq!(
        err(&out)
            .retry_after()
            .map(|d| d > Duration::from_secs(3000)),
        Some(true)
    );
}

#[tokio::test]
async fn retry_after_429_then_success_on_retry() {
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let server = Server::start(move |path| match path {
        "/flaky" if calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 => full(
            "429 Too Many Requests",
            &[("Retry-After", "2")],
            "slow down",
        ),
        "/flaky" => html("<html>ok</html>"),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/flaky")).await;
    assert!(out.page().is_some(), "{:?}", out.result);
    assert_eq!(out.attempts, 2);
    let times = server.times("/flaky");
    assert!(times[1] - times[0] >= Duration::from_secs(2));
}

#[tokio::test]
async fn http_date_retry_after_and_503_then_200() {
    let calls = std::sync::atomic::AtomicUsize::new(0);
    let server = Server::start(move |path| match path {
        "/unwell" if calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 => {
            let date =
                httpdate::fmt_http_date(std::time::SystemTime::now() + Duration::from_secs(1));
            full("503 Service Unavailable", &[("Retry-After", &date)], "")
        }
        "/unwell" => html("<html>better</html>"),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/unwell")).await;
    assert!(
        out.page().is_some_and(|p| p.status == 200),
        "{:?}",
        out.result
    );
    assert_eq!(out.attempts, 2);
    assert_eq!(server.count("/unwell"), 2);
}

#[tokio::test]
async fn persistent_500_ends_after_retries_with_backoff() {
    let server = Server::start(|path| match path {
        "/broken" => full("500 Internal Server Error", &[], "oops"),
        "/gone" => full("410 Gone", &[], ""),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/broken")).await;
    assert!(matches!(
        err(&out),
        FetchError::HttpStatus { status: 500, .. }
    ));
    assert_eq!(out.attempts, 3);
    let times = server.times("/broken");
    assert_eq!(times.len(), 3);
    // Backoff with equal jitter: at least half the nominal delay.
    for (i, gap) in gaps(&times).into_iter().enumerate() {
        let nominal = Duration::from_millis(100 << i).min(Duration::from_millis(400));
        assert!(gap >= nominal / 2, "gap {i}: {gap:?}");
    }
    // 4xx other than 429 is final: one request.
    let out = get(&f, &server.url("/gone")).await;
    assert!(matches!(
        err(&out),
        FetchError::HttpStatus { status: 410, .. }
    ));
    assert_eq!(out.attempts, 1);
}

#[tokio::test]
async fn reset_mid_body_is_body_interrupted() {
    let server = Server::start(|path| match path {
        "/reset" => Reply::Reset {
            head: head("200 OK", &[("Content-Type", "text/html")]),
            partial: vec![b'x'; 1000],
        },
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/reset")).await;
    check_err(&out, |e| matches!(e, FetchError::BodyInterrupted { .. }));
}

#[tokio::test]
async fn a_kept_alive_connection_the_server_dropped_is_retried_on_a_new_one() {
    // The server answers one request per connection without `Connection: close` and resets
    // the connection when the next request comes on it (a uWSGI `http-socket`): the fetcher
    // reuses the connection, sees it reset before any response, and asks again on a new one.
    let server = Server::start_one_per_connection(|path| match path {
        "/a" | "/b" | "/c" => Reply::Full {
            head: server::keep_alive_head("200 OK", &[("Content-Type", "text/html")]),
            body: b"<p>page</p>".to_vec(),
        },
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    for path in ["/a", "/b", "/c"] {
        let out = get(&f, &server.url(path)).await;
        assert_eq!(
            out.page().map(|p| p.status),
            Some(200),
            "{path}: {:?}",
            out.result
        );
    }
    // Each page after the first went out once on the dropped connection, then on a new one.
    assert_eq!(server.count("/a"), 1);
    assert_eq!(server.count("/b"), 2);
    assert_eq!(server.count("/c"), 2);
}

#[tokio::test]
async fn a_server_that_resets_every_request_ends_in_connection_closed_and_backs_off() {
    // robots.txt: reset once, then none (a 404).
    let robots = std::sync::atomic::AtomicUsize::new(0);
    let server = Server::start(move |path| match path {
        "/robots.txt" if robots.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 0 => {
            not_found()
        }
        _ => Reply::ResetNow,
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/x")).await;
    check_err(&out, |e| matches!(e, FetchError::ConnectionClosed { .. }));
    assert_eq!(err(&out).code(), "connection_closed");
    // The first try and `max_retries` more: the first retry at once (a kept-alive
    // connection the server dropped needs no wait), the next after the host's backoff
    // (closed again on a new connection, the server is dropping them all).
    assert_eq!(server.count("/x"), 3);
    assert_eq!(out.attempts, 3);
    // (A first backoff is half the base, 100 ms, and up to as much again of jitter.)
    let gaps = gaps(&server.times("/x"));
    assert!(gaps[1] >= Duration::from_millis(50), "{gaps:?}");
    // robots.txt's reset was asked again, not taken for "unavailable".
    assert_eq!(server.count("/robots.txt"), 2);
}

#[tokio::test]
async fn huge_header_is_rejected() {
    let big = "a".repeat(100 * 1024);
    let enormous = "b".repeat(1024 * 1024);
    let server = Server::start(move |path| match path {
        "/big-header" => full(
            "200 OK",
            &[("Content-Type", "text/html"), ("X-Padding", &big)],
            "<html></html>",
        ),
        "/enormous-header" => full(
            "200 OK",
            &[("Content-Type", "text/html"), ("X-Padding", &enormous)],
            "<html></html>",
        ),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/big-header")).await;
    assert_eq!(
        err(&out),
        &FetchError::HeadersTooLarge {
            url: server.url("/big-header"),
            limit: 32 * 1024
        }
    );
    // Past hyper's own head buffer (about 400 KB) the parser stops reading.
    let out = get(&f, &server.url("/enormous-header")).await;
    assert_eq!(
        err(&out),
        &FetchError::HeadersTooLarge {
            url: server.url("/enormous-header"),
            limit: 32 * 1024
        }
    );
}

#[tokio::test]
async fn content_types_and_charsets() {
    // windows-1251 bytes for "Привет", declared only in <meta>.
    let cp1251: Vec<u8> = [
        &b"<html><head><meta charset=\"windows-1251\"></head><body>"[..],
        &[0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2],
        b"</body></html>",
    ]
    .concat();
    let body = cp1251.clone();
    let server = Server::start(move |path| match path {
        "/png" => full(
            "200 OK",
            &[("Content-Type", "image/png")],
            "<html>not really a png</html>",
        ),
        "/untyped" => full("200 OK", &[], "<!DOCTYPE html><p>sniff me</p>"),
        "/xhtml" => full(
            "200 OK",
            &[("Content-Type", "application/xhtml+xml; charset=ISO-8859-1")],
            "<html/>",
        ),
        "/meta-charset" => full("200 OK", &[("Content-Type", "text/html")], body.clone()),
        _ => not_found(),
    })
    .await;
    let f = fetcher(config());
    let out = get(&f, &server.url("/png")).await;
    let page = out.page().expect("page");
    assert!(!page.is_html && !page.body_fetched && page.body.is_empty());
    assert_eq!(page.media_type.as_deref(), Some("image/png"));

    let out = get(&f, &server.url("/untyped")).await;
    let page = out.page().expect("page");
    assert!(page.is_html && page.content_type.is_none());

    let out = get(&f, &server.url("/xhtml")).await;
    let page = out.page().expect("page");
    assert!(page.is_html);
    assert_eq!(page.charset.as_deref(), Some("iso-8859-1"));

    let out = get(&f, &server.url("/meta-charset")).await;
    let page = out.page().expect("page");
    assert!(page.is_html);
    assert_eq!(page.charset, None, "no charset in the header");
    assert_eq!(page.body, cp1251, "bytes passed on untouched");

    let f = fetcher(FetchConfig {
        fetch_non_html_body: true,
        ..config()
    });
    let out = get(&f, &server.url("/png")).await;
    let page = out.page().expect("page");
    assert!(!page.is_html && page.body_fetched && !page.body.is_empty());
}
