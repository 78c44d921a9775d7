//! A small generated site served on 127.0.0.1 (a thread per connection, `Connection:
//! close`): a home page linking to `products` pages of one template and an about page of
//! another.

use std::io::{BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// A running site; stops when dropped.
#[derive(Debug)]
pub struct Site {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Site {
    /// Serves a home page, `products` product pages (one template) and an about page.
    pub fn start(products: usize) -> Self {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local address");
        listener.set_nonblocking(true).expect("nonblocking");
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        std::thread::spawn(move || answer(&stream, products));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        });
        Self {
            addr,
            stop,
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn page(path: &str, products: usize) -> Option<String> {
    let nav = "<nav><a href=\"/\">Home</a> <a href=\"/about\">About</a></nav>";
    if path == "/" {
        let links: String = (0..products)
            .map(|i| format!("<li><a href=\"/product/{i}\">Product {i}</a></li>"))
            .collect();
        return Some(format!(
            "<html><body>{nav}<h1>Shop</h1><ul>{links}</ul></body></html>"
        ));
    }
    if path == "/about" {
        return Some(format!(
            "<html><body>{nav}<main><h1>About</h1><p>We sell things.</p><form><input name=q>\
             <button>Go</button></form><table><tr><td>a</td><td>b</td></tr></table></main>\
             <footer><p>Contact</p></footer></body></html>"
        ));
    }
    let i: usize = path.strip_prefix("/product/")?.parse().ok()?;
    (i < products).then(|| {
        format!(
            "<html><body>{nav}<div class=\"product\"><h2>Product {i}</h2><img src=\"/{i}.png\">\
             <p>Price {i}.00</p><ul><li>size</li><li>colour</li></ul></div></body></html>"
        )
    })
}

fn answer(stream: &TcpStream, products: usize) {
    let _ = stream.set_nonblocking(false);
    let mut reader = BufReader::new(stream);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let (status, body) = match page(path, products) {
        Some(body) => ("200 OK", body),
        None => ("404 Not Found", "not found".to_owned()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut out = stream;
    let _ = out.write_all(head.as_bytes());
    let _ = out.write_all(body.as_bytes());
}
