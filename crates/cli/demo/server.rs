//! The demo site's HTTP server: hyper on its own thread, bound to 127.0.0.1 only.

use std::convert::Infallible;
use std::net::SocketAddr;

use anyhow::{Context, Result};
use bytes::Bytes;
use http_body_util::Full;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::sync::oneshot;

use super::site::respond;

/// A running demo server; stops when dropped.
#[derive(Debug)]
pub struct DemoServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for DemoServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn handle(req: Request<hyper::body::Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let target = req
        .uri()
        .path_and_query()
        .map_or("/", |pq| pq.as_str())
        .to_owned();
    let page = respond(&target);
    let mut builder = Response::builder()
        .status(page.status)
        .header("content-type", page.content_type);
    if let Some(location) = &page.location {
        builder = builder.header("location", location.as_str());
    }
    Ok(builder
        .body(Full::new(Bytes::from(page.body)))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()))))
}

/// Starts the demo site on 127.0.0.1 at `port` (0: any free port).
pub fn start(port: u16) -> Result<DemoServer> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", port))
        .with_context(|| format!("cannot start the demo server on 127.0.0.1:{port}"))?;
    listener
        .set_nonblocking(true)
        .context("cannot start the demo server")?;
    let addr = listener
        .local_addr()
        .context("cannot start the demo server")?;
    let (stop, mut stopped) = oneshot::channel::<()>();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the demo server")?;
    let thread = std::thread::spawn(move || {
        rt.block_on(async move {
            let Ok(listener) = tokio::net::TcpListener::from_std(listener) else { return };
            loop {
                tokio::select! {
                    _ = &mut stopped => break,
                    accepted = listener.accept() => {
                        let Ok((stream, _)) = accepted else { continue };
                        tokio::spawn(async move {
                            let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service_fn(handle)).await;
                        });
                    }
                }
            }
        });
    });
    Ok(DemoServer {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}
