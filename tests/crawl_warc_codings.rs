//! `crawl --warc` of pages served gzip- and deflate-encoded (zlib and raw), framed by a
//! length or chunked: each response record stores the decoded body with a `Content-Length`
//! of the stored bytes, the headers as received under `X-Crawler-` names (Common Crawl's
//! convention), a payload digest of the stored bytes, and the files pass `warcio check -v`.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use flate2::Compression;
use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
use silhouette_warc::{WarcReader, parse_http_response, sha1_digest};

use crate::crawl_support::{config, crawl};
use crate::dedup_warc::tool;

/// The pages: path, `Content-Encoding`, chunked.
const PAGES: [(&str, &str, bool); 6] = [
    ("/gzip", "gzip", false),
    ("/zlib", "deflate", false),
    ("/raw", "deflate", false),
    ("/gzip-chunked", "gzip", true),
    ("/raw-chunked", "deflate", true),
    ("/plain-chunked", "", true),
];

fn page(path: &str) -> Vec<u8> {
    let links: String = PAGES
        .iter()
        .map(|(p, _, _)| format!("<a href=\"{p}\">{p}</a>"))
        .collect();
    let words: String = (0..200).map(|i| format!(" {path}-word{i}")).collect();
    format!("<!doctype html><title>{path}</title><nav>{links}</nav><p>{words}</p>").into_bytes()
}

fn encode(coding: &str, path: &str, body: &[u8]) -> Vec<u8> {
    let level = Compression::fast();
    let write = |mut w: Box<dyn Write>| w.write_all(body).expect("compresses");
    match (coding, path) {
        ("gzip", _) => {
            let mut e = GzEncoder::new(Vec::new(), level);
            write(Box::new(&mut e));
            e.finish().expect("gzip")
        }
        ("deflate", p) if p.starts_with("/zlib") => {
            let mut e = ZlibEncoder::new(Vec::new(), level);
            write(Box::new(&mut e));
            e.finish().expect("zlib")
        }
        ("deflate", _) => {
            let mut e = DeflateEncoder::new(Vec::new(), level);
            write(Box::new(&mut e));
            e.finish().expect("deflate")
        }
        _ => body.to_vec(),
    }
}

/// The response to `target` as bytes on the wire.
fn respond(target: &str) -> Vec<u8> {
    let home = target == "/";
    let Some((path, coding, chunked)) = PAGES
        .iter()
        .copied()
        .find(|(p, _, _)| *p == target)
        .or(home.then_some(("/", "", false)))
    else {
        return b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            .to_vec();
    };
    let wire = encode(coding, path, &page(path));
    let mut head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nConnection: close\r\n".to_owned();
    if !coding.is_empty() {
        head.push_str(&format!("Content-Encoding: {coding}\r\n"));
    }
    let mut out = Vec::new();
    if chunked {
        head.push_str("Transfer-Encoding: chunked\r\n\r\n");
        out.extend_from_slice(head.as_bytes());
        for chunk in wire.chunks(97) {
            out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
            out.extend_from_slice(chunk);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"0\r\n\r\n");
    } else {
        head.push_str(&format!("Content-Length: {}\r\n\r\n", wire.len()));
        out.extend_from_slice(head.as_bytes());
        out.extend_from_slice(&wire);
    }
    out
}

/// A server on 127.0.0.1 answering every request with [`respond`]; stops when dropped.
struct CodingServer {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl CodingServer {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binds on loopback");
        let port = listener.local_addr().expect("an address").port();
        let stop = Arc::new(AtomicBool::new(false));
        let halt = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if halt.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                std::thread::spawn(move || {
                    let _ = answer(stream);
                });
            }
        });
        Self {
            port,
            stop,
            thread: Some(thread),
        }
    }
}

fn answer(stream: TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let target = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let mut stream = stream;
    stream.write_all(&respond(&target))?;
    stream.flush()
}

impl Drop for CodingServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A response record: its HTTP header fields (names lower-cased), the stored body, the
/// payload digest.
type Stored = (Vec<(String, String)>, Vec<u8>, String);

#[test]
fn compressed_responses_are_stored_decoded_with_x_crawler_headers() {
    let server = CodingServer::start();
    let seed = format!("http://127.0.0.1:{}/", server.port);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let toml = format!(
        "{}\n[output]\nwarc-records = \"all\"\n",
        config("", "concurrency = 2")
    );
    let run = crawl(dir.path(), &toml, &["--warc", "w", &seed]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let w = dir.path().join("w");
    let names: Vec<String> = std::fs::read_dir(&w)
        .expect("the WARC directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".warc.gz"))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    let check = tool(&w, "warcio", &["check", "-v", &names[0]]);
    let report = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(
        check.status.success() && !report.contains("fail"),
        "warcio check:\n{report}{}",
        String::from_utf8_lossy(&check.stderr)
    );

    let mut seen: BTreeMap<String, Stored> = BTreeMap::new();
    let file = std::fs::File::open(w.join(&names[0])).expect("the WARC file");
    let mut reader = WarcReader::new(BufReader::new(file));
    while let Some(rec) = reader.next_record() {
        let mut rec = rec.expect("a record");
        if rec.header().fields.get("WARC-Type") != Some("response") {
            continue;
        }
        let uri = rec
            .header()
            .fields
            .get("WARC-Target-URI")
            .expect("a URI")
            .to_owned();
        let digest = rec
            .header()
            .fields
            .get("WARC-Payload-Digest")
            .expect("a digest")
            .to_owned();
        let block = rec.read_block(1 << 20).expect("the block");
        let http = parse_http_response(&block).expect("an HTTP response");
        let headers = http
            .headers
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), v.to_owned()))
            .collect();
        let path = uri.trim_start_matches(&seed[..seed.len() - 1]).to_owned();
        seen.insert(path, (headers, http.body(&block).to_vec(), digest));
    }
    for (path, coding, chunked) in PAGES {
        let (headers, body, digest) = seen
            .get(path)
            .unwrap_or_else(|| panic!("{path} not in the WARC: {:?}", seen.keys()));
        let get = |name: &str| -> Vec<&str> {
            headers
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .collect()
        };
        let decoded = page(path);
        assert_eq!(body, &decoded, "{path}: the stored body is the decoded one");
        assert_eq!(
            digest,
            &sha1_digest(&decoded),
            "{path}: digest of the stored bytes"
        );
        assert_eq!(
            get("content-length"),
            [decoded.len().to_string().as_str()],
            "{path}"
        );
        assert!(get("content-encoding").is_empty() && get("transfer-encoding").is_empty());
        let coded: &[&str] = if coding.is_empty() { &[] } else { &[coding] };
        assert_eq!(get("x-crawler-content-encoding"), coded, "{path}");
        if chunked {
            assert_eq!(get("x-crawler-transfer-encoding"), ["chunked"], "{path}");
            assert!(get("x-crawler-content-length").is_empty(), "{path}");
        } else {
            let wire = encode(coding, path, &decoded).len().to_string();
            assert_eq!(get("x-crawler-content-length"), [wire.as_str()], "{path}");
        }
    }
    // Compression in the request too: the fetcher asks only for what it decodes.
    let requests = std::fs::File::open(w.join(&names[0])).expect("the WARC file");
    let mut all = Vec::new();
    flate2::read::MultiGzDecoder::new(requests)
        .read_to_end(&mut all)
        .expect("gzip members");
    let text = String::from_utf8_lossy(&all);
    assert!(text.contains("Accept-Encoding: gzip, deflate\r\n"));
    assert!(!text.contains("br, zstd"));
}
