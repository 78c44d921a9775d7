//! Running the real tools (`warcio`, `cdxj-indexer`, `wget`, python) the tests compare with,
//! and a web server on 127.0.0.1. `scripts/test.sh` installs the tools; a missing one fails the
//! test with a message saying so.
// Each test binary uses part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Output};

use silhouette_warc::{Error, Header, WarcReader};

/// Runs `program args` and returns its output; panics clearly if it is not installed.
pub fn tool(program: &str, args: &[&str], dir: &Path) -> Output {
    match Command::new(program).args(args).current_dir(dir).output() {
        Ok(out) => out,
        Err(e) => panic!(
            "cannot run `{program}` ({e}): run scripts/test.sh, which installs wget, warcio and cdxj-indexer"
        ),
    }
}

/// Runs a python script with warcio importable; panics clearly if warcio is missing.
pub fn python(script: &str, dir: &Path) -> Output {
    let out = tool("python3", &["-c", script], dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("No module named 'warcio'"),
        "python3 cannot import warcio: run scripts/test.sh, which installs it"
    );
    assert!(out.status.success(), "python failed: {stderr}");
    out
}

/// A minimal HTTP/1.1 server on 127.0.0.1 (a thread per connection, `Connection: close`)
/// serving the files of a directory, `text/html` for `.html`; it lives as long as the test
/// process.
pub struct HttpServer {
    pub port: u16,
}

impl HttpServer {
    pub fn start(dir: &Path) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().expect("a local address").port();
        let dir = dir.to_path_buf();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let dir = dir.clone();
                std::thread::spawn(move || answer(stream, &dir));
            }
        });
        Self { port }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

fn answer(stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
    }
    let target = request_line.split_whitespace().nth(1).unwrap_or("/");
    let name = target.trim_start_matches('/');
    let file =
        (!name.contains("..") && !name.is_empty()).then(|| std::fs::read(dir.join(name)).ok());
    let (status, kind, body) = match file.flatten() {
        Some(body) if name.ends_with(".html") => ("200 OK", "text/html", body),
        Some(body) => ("200 OK", "application/octet-stream", body),
        None => ("404 Not Found", "text/plain", b"not found".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut stream = stream;
    stream.write_all(head.as_bytes())?;
    stream.write_all(&body)?;
    stream.flush()
}

/// Every record of `bytes`: header and block, or the error.
pub fn read_all(bytes: &[u8]) -> Vec<Result<(Header, Vec<u8>), Error>> {
    let mut reader = WarcReader::new(bytes);
    let mut out = Vec::new();
    while let Some(next) = reader.next_record() {
        out.push(next.and_then(|mut rec| {
            let block = rec.read_block(1 << 26)?;
            Ok((rec.header().clone(), block))
        }));
    }
    out
}
