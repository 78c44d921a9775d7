//! A deliberately hostile HTTP/1.1 server on 127.0.0.1, written on raw tokio
//! sockets so it can misbehave in ways a well-behaved server library won't:
//! drip bytes, stall, never end, reset mid-body, send huge headers, or not
//! speak TLS. It binds `127.0.0.1:0` only.

#![allow(dead_code, reason = "each test binary uses a different subset")]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// How the server answers one request.
pub enum Reply {
    /// Head (status line and header lines, no blank line) and body, then close.
    Full { head: String, body: Vec<u8> },
    /// Head, then the body one byte per `every`.
    Drip {
        head: String,
        body: Vec<u8>,
        every: Duration,
    },
    /// Head and a partial body, then silence until the client gives up.
    Stall { head: String, partial: Vec<u8> },
    /// A chunked body that never ends (16 KiB chunks, as fast as possible).
    Endless { head: String },
    /// Head and a partial body, then a TCP reset.
    Reset { head: String, partial: Vec<u8> },
    /// Head and the body in `Transfer-Encoding: chunked` chunks of `size` bytes.
    Chunked {
        head: String,
        body: Vec<u8>,
        size: usize,
    },
    /// Read the request, never answer.
    Silent,
    /// Read the request and reset the connection, answering nothing.
    ResetNow,
    /// Answer after a pause (to observe concurrency).
    Delayed {
        head: String,
        body: Vec<u8>,
        pause: Duration,
    },
}

/// What a connection does after its first answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The answer closes it.
    Close,
    /// It serves the next request too.
    KeepAlive,
    /// It reads the next request and resets.
    OnePerConnection,
}

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Hit {
    pub path: String,
    pub at: Instant,
}

type Handler = dyn Fn(&str) -> Reply + Send + Sync;

/// A running hostile server; stops when dropped.
pub struct Server {
    pub addr: SocketAddr,
    hits: Arc<Mutex<Vec<Hit>>>,
    max_in_flight: Arc<AtomicUsize>,
    connections: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn head(status: &str, headers: &[(&str, &str)]) -> String {
    format!("{}Connection: close\r\n", keep_alive_head(status, headers))
}

/// A response head without `Connection: close`.
pub fn keep_alive_head(status: &str, headers: &[(&str, &str)]) -> String {
    let mut head = format!("HTTP/1.1 {status}\r\n");
    for (name, value) in headers {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    }
    head
}

/// A complete response with a Content-Length.
pub fn full(status: &str, headers: &[(&str, &str)], body: impl Into<Vec<u8>>) -> Reply {
    Reply::Full {
        head: head(status, headers),
        body: body.into(),
    }
}

pub fn html(body: &str) -> Reply {
    full(
        "200 OK",
        &[("Content-Type", "text/html; charset=utf-8")],
        body,
    )
}

pub fn not_found() -> Reply {
    full("404 Not Found", &[("Content-Type", "text/plain")], "no")
}

pub fn redirect(status: &str, location: &str) -> Reply {
    full(status, &[("Location", location)], "")
}

impl Server {
    /// Starts a server answering each request with `handler(path)`.
    pub async fn start(handler: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Self {
        Self::start_arc(Arc::new(handler)).await
    }

    /// Like [`Server::start`], but serves many requests per connection
    /// (replies must be `Full` with a head built by [`keep_alive_head`]).
    pub async fn start_keep_alive(handler: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Self {
        Self::start_with(Arc::new(handler), Mode::KeepAlive).await
    }

    /// Like [`Server::start_keep_alive`], but a connection answers one request only: the
    /// next request on it is read and the connection reset, unanswered (a server that drops
    /// a kept-alive connection without `Connection: close`). Every request is a hit.
    pub async fn start_one_per_connection(
        handler: impl Fn(&str) -> Reply + Send + Sync + 'static,
    ) -> Self {
        Self::start_with(Arc::new(handler), Mode::OnePerConnection).await
    }

    async fn start_arc(handler: Arc<Handler>) -> Self {
        Self::start_with(handler, Mode::Close).await
    }

    async fn start_with(handler: Arc<Handler>, mode: Mode) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let hits = Arc::new(Mutex::new(Vec::new()));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let max_in_flight = Arc::new(AtomicUsize::new(0));
        let connections = Arc::new(AtomicUsize::new(0));
        let (h, i, m, c) = (
            hits.clone(),
            in_flight,
            max_in_flight.clone(),
            connections.clone(),
        );
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                c.fetch_add(1, Ordering::SeqCst);
                let (handler, hits, in_flight, max) =
                    (handler.clone(), h.clone(), i.clone(), m.clone());
                tokio::spawn(async move {
                    serve(stream, handler, hits, in_flight, max, mode).await;
                });
            }
        });
        Self {
            addr,
            hits,
            max_in_flight,
            connections,
            task,
        }
    }

    /// TCP connections accepted so far.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// Starts a server that writes a plain HTTP response as soon as a client
    /// connects, without reading: a TLS client gets garbage.
    pub async fn not_tls() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let _ = stream
                    .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
                    .await;
            }
        });
        Self {
            addr,
            hits: Arc::default(),
            max_in_flight: Arc::default(),
            connections: Arc::default(),
            task,
        }
    }

    pub fn url(&self, path: &str) -> url::Url {
        url::Url::parse(&format!("http://{}{path}", self.addr)).expect("url")
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().expect("hits").clone()
    }

    /// Times of the requests for `path`, in order.
    pub fn times(&self, path: &str) -> Vec<Instant> {
        self.hits()
            .into_iter()
            .filter(|h| h.path == path)
            .map(|h| h.at)
            .collect()
    }

    pub fn count(&self, path: &str) -> usize {
        self.times(path).len()
    }

    pub fn max_in_flight(&self) -> usize {
        self.max_in_flight.load(Ordering::SeqCst)
    }
}

async fn read_head(stream: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        if buf.len() > 64 * 1024 {
            return None;
        }
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8_lossy(&buf);
    let line = text.lines().next()?;
    line.split_whitespace().nth(1).map(str::to_owned)
}

async fn serve(
    mut stream: TcpStream,
    handler: Arc<Handler>,
    hits: Arc<Mutex<Vec<Hit>>>,
    in_flight: Arc<AtomicUsize>,
    max: Arc<AtomicUsize>,
    mode: Mode,
) {
    let keep_alive = mode != Mode::Close;
    let mut answered = false;
    loop {
        let Some(path) = read_head(&mut stream).await else {
            return;
        };
        hits.lock().expect("hits").push(Hit {
            path: path.clone(),
            at: Instant::now(),
        });
        if answered && mode == Mode::OnePerConnection {
            let _ = stream.set_zero_linger();
            return;
        }
        answered = true;
        let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        max.fetch_max(now, Ordering::SeqCst);
        let result = match (keep_alive, handler(&path)) {
            (true, Reply::Full { head, body }) => {
                let head = format!("{head}Content-Length: {}\r\n\r\n", body.len());
                let mut bytes = head.into_bytes();
                bytes.extend_from_slice(&body);
                stream.write_all(&bytes).await
            }
            (_, reply) => respond(&mut stream, reply).await,
        };
        in_flight.fetch_sub(1, Ordering::SeqCst);
        if !keep_alive || result.is_err() {
            return;
        }
    }
}

async fn respond(stream: &mut TcpStream, reply: Reply) -> std::io::Result<()> {
    match reply {
        Reply::Full { head, body } => {
            let head = format!("{head}Content-Length: {}\r\n\r\n", body.len());
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&body).await?;
            stream.shutdown().await
        }
        Reply::Delayed { head, body, pause } => {
            tokio::time::sleep(pause).await;
            let head = format!("{head}Content-Length: {}\r\n\r\n", body.len());
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&body).await?;
            stream.shutdown().await
        }
        Reply::Chunked { head, body, size } => {
            let mut bytes = format!("{head}Transfer-Encoding: chunked\r\n\r\n").into_bytes();
            for chunk in body.chunks(size.max(1)) {
                bytes.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                bytes.extend_from_slice(chunk);
                bytes.extend_from_slice(b"\r\n");
            }
            bytes.extend_from_slice(b"0\r\n\r\n");
            stream.write_all(&bytes).await?;
            stream.shutdown().await
        }
        Reply::Drip { head, body, every } => {
            let head = format!("{head}Content-Length: {}\r\n\r\n", body.len());
            stream.write_all(head.as_bytes()).await?;
            for byte in body {
                stream.write_all(&[byte]).await?;
                stream.flush().await?;
                tokio::time::sleep(every).await;
            }
            Ok(())
        }
        Reply::Stall { head, partial } => {
            let head = format!("{head}Content-Length: {}\r\n\r\n", partial.len() * 100);
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&partial).await?;
            // Wait until the client hangs up.
            let mut sink = [0u8; 64];
            while stream.read(&mut sink).await? > 0 {}
            Ok(())
        }
        Reply::Endless { head } => {
            let head = format!("{head}Transfer-Encoding: chunked\r\n\r\n");
            stream.write_all(head.as_bytes()).await?;
            let chunk = [b'a'; 16 * 1024];
            let frame = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
            // Bounded so a broken client cannot keep this going forever:
            // 64 GiB is far beyond any limit under test.
            for _ in 0..(4 * 1024 * 1024) {
                stream.write_all(&frame).await?;
            }
            Ok(())
        }
        Reply::Reset { head, partial } => {
            let head = format!("{head}Content-Length: {}\r\n\r\n", partial.len() * 100);
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&partial).await?;
            stream.flush().await?;
            tokio::time::sleep(Duration::from_millis(50)).await;
            stream.set_zero_linger()?;
            Ok(())
        }
        Reply::ResetNow => stream.set_zero_linger(),
        Reply::Silent => {
            let mut sink = [0u8; 64];
            while stream.read(&mut sink).await? > 0 {}
            Ok(())
        }
    }
}
