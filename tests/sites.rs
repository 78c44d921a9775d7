//! Generated test sites served on 127.0.0.1 by a minimal HTTP/1.1 server (a thread per
//! connection, `Connection: close`), with a log of every request it answered.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// One response.
#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub location: Option<String>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn html(body: String) -> Self {
        Self {
            status: 200,
            content_type: "text/html; charset=utf-8",
            location: None,
            body: body.into_bytes(),
        }
    }

    pub fn text(status: u16, body: &str) -> Self {
        Self {
            status,
            content_type: "text/plain",
            location: None,
            body: body.as_bytes().to_vec(),
        }
    }
}

/// One request the server answered: its `Host` header, request target and every header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub host: String,
    pub target: String,
    /// (lower-case name, value), in order.
    pub headers: Vec<(String, String)>,
}

type Handler = Arc<dyn Fn(&str) -> Response + Send + Sync>;

/// A running server; stops when dropped.
pub struct Server {
    pub addr: SocketAddr,
    hits: Arc<Mutex<Vec<Hit>>>,
    served: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("addr", &self.addr).finish()
    }
}

impl Server {
    /// Serves `make(port)` on 127.0.0.1 at a free port.
    pub fn start<F>(make: impl FnOnce(u16) -> F) -> Self
    where
        F: Fn(&str) -> Response + Send + Sync + 'static,
    {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind 127.0.0.1:0");
        let port = listener.local_addr().expect("local address").port();
        Self::serve(listener, Arc::new(make(port)))
    }

    /// Listens on `ip:port` too (an off-scope address that must never be contacted); `None`
    /// if that address cannot be bound here.
    pub fn sentinel(ip: IpAddr, port: u16) -> Option<Self> {
        let listener = TcpListener::bind((ip, port)).ok()?;
        Some(Self::serve(
            listener,
            Arc::new(|_: &str| Response::text(200, "sentinel")),
        ))
    }

    fn serve(listener: TcpListener, handler: Handler) -> Self {
        let addr = listener.local_addr().expect("local address");
        let hits = Arc::new(Mutex::new(Vec::new()));
        let served = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (hits, served, stop) = (Arc::clone(&hits), Arc::clone(&served), Arc::clone(&stop));
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (handler, hits, served) =
                        (Arc::clone(&handler), Arc::clone(&hits), Arc::clone(&served));
                    std::thread::spawn(move || {
                        let _ = answer(stream, &*handler, &hits, &served);
                    });
                }
            })
        };
        Self {
            addr,
            hits,
            served,
            stop,
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Every request answered so far.
    pub fn hits(&self) -> Vec<Hit> {
        self.hits.lock().expect("the log").clone()
    }

    /// Requests answered so far.
    pub fn served(&self) -> usize {
        self.served.load(Ordering::SeqCst)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn answer(
    stream: TcpStream,
    handler: &(dyn Fn(&str) -> Response + Send + Sync),
    hits: &Mutex<Vec<Hit>>,
    served: &AtomicUsize,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line)? == 0 {
        return Ok(());
    }
    let mut host = String::new();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("host") {
                value.trim().clone_into(&mut host);
            }
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let target = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_owned();
    let response = handler(&target);
    hits.lock().expect("the log").push(Hit {
        host,
        target: target.clone(),
        headers,
    });
    let mut head = format!(
        "HTTP/1.1 {} X\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        response.status,
        response.content_type,
        response.body.len()
    );
    if let Some(location) = &response.location {
        let _ = write!(head, "Location: {location}\r\n");
    }
    if matches!(response.status, 429 | 503) {
        // Every "come back later" asks for one second.
        head.push_str("Retry-After: 1\r\n");
    }
    head.push_str("\r\n");
    let mut stream = stream;
    stream.write_all(head.as_bytes())?;
    stream.write_all(&response.body)?;
    stream.flush()?;
    served.fetch_add(1, Ordering::SeqCst);
    Ok(())
}

/// The off-scope addresses a site links to (same port as the server, other loopback IPs).
pub fn off_scope_ips() -> [IpAddr; 2] {
    [
        IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)),
        IpAddr::V6(Ipv6Addr::LOCALHOST),
    ]
}

/// A small deterministic generator seeded by a path (splitmix64 over FNV-1).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: &str) -> Self {
        Self(silhouette_simhash::fnv1_64(seed.as_bytes()) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }

    fn words(&mut self, n: u32) -> String {
        const WORDS: [&str; 12] = [
            "oak", "linen", "quiet", "corner", "warm", "shelf", "morning", "studio", "brass",
            "garden", "reading", "table",
        ];
        (0..n)
            .map(|_| WORDS[(self.next() % 12) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn page(title: &str, head: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{title}</title>{head}</head><body>{body}</body></html>"
    )
}

/// The page templates. Each has its own `<head>` furniture and body-level layout (the outer
/// frame dominates a classic fingerprint), so pages of one template lie within 5 bits of each
/// other and pages of different templates further apart (`templates_are_tight_and_apart`).
pub mod templates {
    use super::{Rng, page};
    use std::fmt::Write as _;

    /// `links` go in a plain list inside the template's own frame.
    fn list(links: &[String]) -> String {
        let mut s = String::from("<ul class=links>");
        for l in links {
            if l.is_empty() {
                s.push_str("<li>-</li>");
            } else {
                let _ = write!(s, "<li><a href=\"{l}\">{l}</a></li>");
            }
        }
        s.push_str("</ul>");
        s
    }

    pub fn home(links: &[String]) -> String {
        let head = "<meta name=description content=Site><meta name=author content=us>";
        let body = format!(
            "<section class=top><h1>Site</h1></section><section class=hero><b>Welcome</b></section>\
             <section class=content>{}</section><section class=news><p>news</p></section>\
             <section class=more><p>more</p></section>",
            list(links)
        );
        page("Home", head, &body)
    }

    pub fn article(seed: &str, links: &[String]) -> String {
        let mut rng = Rng::new(seed);
        let mut body = format!(
            "<div class=wrapper><main class=post><article><h1>{}</h1><p class=byline>by us</p>",
            rng.words(4)
        );
        for _ in 0..rng.range(3, 6) {
            let _ = write!(body, "<h2>{}</h2>", rng.words(3));
            for _ in 0..rng.range(2, 4) {
                let _ = write!(
                    body,
                    "<p>{}. <em>{}</em> {}.</p>",
                    rng.words(12),
                    rng.words(2),
                    rng.words(9)
                );
            }
        }
        let _ = write!(
            body,
            "</article><aside><h2>Related</h2>{}</aside></main></div>",
            list(links)
        );
        let head = "<meta name=viewport content='width=device-width'><meta name=description content=Journal>\
                    <meta property=og:title content=Post><meta property=og:type content=article>\
                    <meta property=og:image content=/img/og.jpg><meta name=twitter:card content=summary>\
                    <link rel=stylesheet href=/static/journal.css><script src=/static/journal.js defer></script>";
        page(
            seed,
            head,
            &format!(
                "<header class=masthead><a href=/>Site</a><nav><ul><li>one</li><li>two</li></ul></nav></header>\
                 {body}<footer><p>footer</p></footer><script src=/static/comments.js></script>"
            ),
        )
    }

    pub fn product(seed: &str, links: &[String]) -> String {
        let mut rng = Rng::new(seed);
        let mut body = String::from("<div class=gallery>");
        for i in 0..rng.range(2, 4) {
            let _ = write!(body, "<img src=/img/{i}.jpg alt=''>");
        }
        let _ = write!(
            body,
            "</div><div class=buy><h1>{}</h1><span class=price>{}.00</span><form action=/cart method=post><select name=finish>",
            rng.words(3),
            rng.range(40, 900)
        );
        for _ in 0..rng.range(2, 4) {
            let _ = write!(body, "<option>{}</option>", rng.words(1));
        }
        body.push_str("</select><button>Add</button></form></div><table class=specs><tbody>");
        for _ in 0..rng.range(4, 7) {
            let _ = write!(
                body,
                "<tr><th>{}</th><td>{}</td></tr>",
                rng.words(1),
                rng.words(2)
            );
        }
        let _ = write!(body, "</tbody></table>{}", list(links));
        let head = "<link rel=stylesheet href=/static/shop.css><script src=/static/shop.js></script>\
                    <script type=application/ld+json>{}</script><script src=/static/gallery.js></script>";
        page(
            seed,
            head,
            &format!(
                "<div class=promo><p>Free delivery</p></div><header><a class=logo href=/>S</a>\
                 <form class=search action=/search><input name=q><button>Search</button></form></header>\
                 <nav class=crumbs><ol><li>Home</li><li>Shop</li></ol></nav><main class=product>{body}</main>\
                 <div class=drawer hidden></div><footer><div class=cols><div>a</div><div>b</div></div></footer>\
                 <script src=/static/cart.js></script>"
            ),
        )
    }

    pub fn listing(seed: &str, links: &[String]) -> String {
        let mut rng = Rng::new(seed);
        let mut body = String::from("<h1>Listing</h1><div class=grid>");
        for _ in 0..rng.range(6, 9) {
            let _ = write!(
                body,
                "<div class=card><img src=/img/x.jpg alt=''><h3>{}</h3><span>{}.00</span></div>",
                rng.words(2),
                rng.range(40, 900)
            );
        }
        let _ = write!(body, "</div><nav class=pages>{}</nav>", list(links));
        let head = "<link rel=stylesheet href=/static/shop.css><link rel=next href=?page=2>\
                    <meta name=robots content=noindex>";
        page(
            seed,
            head,
            &format!(
                "<div class=promo><p>Free delivery</p></div><header><a class=logo href=/>S</a>\
                 <form class=search action=/search><input name=q><button>Search</button></form></header>\
                 <aside class=filters><form><select name=sort><option>Price</option></select>\
                 <label><input type=checkbox name=stock> In stock</label><button>Filter</button></form></aside>\
                 <main class=listing>{body}</main><footer><div class=cols><div>a</div></div></footer>\
                 <script src=/static/cart.js></script>"
            ),
        )
    }

    pub fn calendar(title: &str, links: &[String]) -> String {
        let mut body = format!(
            "<main class=calendar><h1>Events {title}</h1><p>{}</p><table><thead><tr>",
            list(links)
        );
        for d in ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"] {
            let _ = write!(body, "<th>{d}</th>");
        }
        body.push_str("</tr></thead><tbody>");
        for week in 0..5 {
            body.push_str("<tr>");
            for day in 1..=7 {
                let _ = write!(body, "<td>{}</td>", week * 7 + day);
            }
            body.push_str("</tr>");
        }
        body.push_str("</tbody></table></main>");
        let head = "<link rel=stylesheet href=/static/events.css><link rel=alternate type=text/calendar href=/events.ics>\
                    <style>td{width:3em}</style><meta name=viewport content='width=device-width'><meta name=description content=Events>";
        page(
            "Events",
            head,
            &format!("{body}<footer><a href=/>Back home</a></footer>"),
        )
    }

    pub fn help(seed: &str, links: &[String]) -> String {
        let mut rng = Rng::new(seed);
        let mut body = format!(
            "<nav class=toc>{}</nav><h1>{}</h1>",
            list(links),
            rng.words(3)
        );
        for _ in 0..rng.range(3, 6) {
            let _ = write!(
                body,
                "<details><summary>{}?</summary><p>{}</p></details>",
                rng.words(5),
                rng.words(14)
            );
        }
        let head =
            "<link rel=stylesheet href=/static/help.css><link rel=search href=/help/search.xml>";
        page(
            seed,
            head,
            &format!(
                "<header class=masthead><a href=/>Site</a><nav><ul><li>one</li><li>two</li></ul></nav></header>\
                 <main class=help>{body}</main><footer><p>footer</p></footer>"
            ),
        )
    }

    pub fn plain(title: &str, links: &[String]) -> String {
        page(
            title,
            "",
            &format!(
                "<h1>{title}</h1><p>Nothing much.</p><p>Really.</p><pre>x</pre><pre>y</pre><p>{}</p><hr>",
                list(links)
            ),
        )
    }
}

/// The dedup test site.
///
/// - `/` links to every article `/a/N`, product `/p/N` and listing `/l/N` (N in 1..=PER), to
///   the calendar trap, the relative-link loop, a robots-disallowed page, a text file, a 404, a
///   redirect off the host, off-scope hosts and session-id spellings of `/a/3` and `/p/2`.
/// - Every template page `/T/N` links to `/h/T/N` (a help page), reachable from it only: in
///   `drop` mode only the kept template pages' help pages are ever fetched.
/// - `/cal/Y/M` links to the next and previous months forever.
/// - `/loop/` links `x/` (relative): `/loop/x/`, `/loop/x/x/`, … until the trap guards stop it.
/// - `robots.txt` disallows `/private/`.
pub const PER: u32 = 8;

/// The template of a path of the dedup test site.
pub fn template(path: &str) -> &'static str {
    let path = path.split(['?', ';']).next().unwrap_or(path);
    match path.trim_start_matches('/').split('/').next().unwrap_or("") {
        "" => "home",
        "a" => "article",
        "p" => "product",
        "l" => "listing",
        "h" => "help",
        "cal" => "calendar",
        "loop" => "loop",
        _ => "other",
    }
}

/// The dedup test site's response for `target`; `port` is the server's.
pub fn dedup_site(port: u16, target: &str) -> Response {
    let path = target.split('?').next().unwrap_or(target);
    let seg: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let n_ok = |n: &str| n.parse::<u32>().ok().filter(|n| (1..=PER).contains(n));
    match seg.as_slice() {
        [""] => {
            let mut links = Vec::new();
            for t in ["a", "p", "l"] {
                links.extend((1..=PER).map(|n| format!("/{t}/{n}")));
            }
            links.extend(
                [
                    "/cal/2026/1",
                    "/loop/",
                    "/private/secret",
                    "/doc.txt",
                    "/gone",
                    "/away",
                    "/a/3;jsessionid=ABC123",
                    "/a/3?sessionid=zz&utm_source=x",
                    "/p/2?sid=77#top",
                ]
                .map(String::from),
            );
            links.push(format!("http://127.0.0.2:{port}/offsite"));
            links.push(format!("http://[::1]:{port}/v6"));
            Response::html(templates::home(&links))
        }
        ["robots.txt"] => Response::text(200, "User-agent: *\nDisallow: /private/\n"),
        ["doc.txt"] => Response::text(200, "plain text"),
        ["away"] => Response {
            status: 302,
            content_type: "text/html",
            location: Some(format!("http://127.0.0.2:{port}/landing")),
            body: Vec::new(),
        },
        [t @ ("a" | "p" | "l"), n] if n_ok(n).is_some() => {
            let n = n_ok(n).unwrap_or(1);
            let mut links = vec![format!("/h/{t}/{n}"), "/".to_owned()];
            if *t == "a" {
                links.push(format!("/a/{}", n % PER + 1));
            }
            let seed = format!("/{t}/{n}");
            Response::html(match *t {
                "a" => templates::article(&seed, &links),
                "p" => templates::product(&seed, &links),
                _ => templates::listing(&seed, &links),
            })
        }
        ["h", "a" | "p" | "l", n] if n_ok(n).is_some() => {
            Response::html(templates::help(path, &["/".to_owned()]))
        }
        ["cal", y, m] => match (y.parse::<i32>(), m.parse::<u32>()) {
            (Ok(y), Ok(m)) if (1..=12).contains(&m) => {
                let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
                let (py, pm) = if m == 1 { (y - 1, 12) } else { (y, m - 1) };
                Response::html(templates::calendar(
                    &format!("{y}-{m}"),
                    &[format!("/cal/{py}/{pm}"), format!("/cal/{ny}/{nm}")],
                ))
            }
            _ => not_found(),
        },
        ["loop", ..] => Response::html(templates::plain("loop", &["x/".to_owned()])),
        ["private", ..] => Response::html(templates::plain("secret", &[])),
        _ => not_found(),
    }
}

pub fn not_found() -> Response {
    Response {
        status: 404,
        ..Response::html(templates::plain("Not found", &[]))
    }
}

/// The crash-test site: `pages` pages in a tree (`/n/K` links to its children
/// `/n/(K*FANOUT+1)..`), four templates by `K % 4`; every tenth page also links to `/d/K`, a
/// byte-identical copy of itself; a few text, 404 and robots-disallowed links.
pub const FANOUT: u32 = 12;

pub fn tree_site(pages: u32, target: &str) -> Response {
    let path = target.split('?').next().unwrap_or(target);
    if path == "/robots.txt" {
        return Response::text(200, "User-agent: *\nDisallow: /private/\n");
    }
    let k = if path == "/" {
        Some(0)
    } else {
        path.strip_prefix("/n/").and_then(|n| n.parse::<u32>().ok())
    };
    if let Some(copy) = path.strip_prefix("/d/") {
        return tree_site(pages, &format!("/n/{copy}"));
    }
    let Some(k) = k.filter(|&k| k < pages) else {
        if path.starts_with("/t/") {
            return Response::text(200, "text");
        }
        return not_found();
    };
    let mut links: Vec<String> = (1..=FANOUT)
        .map(|i| k * FANOUT + i)
        .filter(|&c| c < pages)
        .map(|c| format!("/n/{c}"))
        .collect();
    if k % 50 == 7 {
        links.push(format!("/t/{k}.txt"));
        links.push(format!("/missing/{k}"));
        links.push("/private/x".to_owned());
    }
    if k % 10 == 3 {
        // A byte-identical copy of this page at another URL.
        links.push(format!("/d/{k}"));
    }
    // A page of its template with a block the others lack: it only just joins its cluster
    // (path sets about 0.75 alike), and only it links to a page of a known URL shape.
    let marginal = k % 40 == 19;
    if marginal {
        links.push(format!("/n/{}", pages + k));
    }
    // Always the same number of list items: leaves look like inner pages.
    links.resize(FANOUT as usize + 4, String::new());
    let seed = format!("/n/{k}");
    let html = match k % 4 {
        0 => templates::article(&seed, &links),
        1 => templates::product(&seed, &links),
        2 => templates::listing(&seed, &links),
        _ => templates::help(&seed, &links),
    };
    Response::html(if marginal {
        let block: String = (0..MARGINAL_PATHS)
            .map(|i| format!("<div class=extra-{}><p>x</p></div>", char::from(b'a' + i)))
            .collect();
        html.replacen(
            "<footer>",
            &format!("<footer><div class=more><div><div><div>{block}</div></div></div></div>"),
            1,
        )
    } else {
        html
    })
}

/// Paths the block of a `tree_site` page that only just joins its cluster adds.
const MARGINAL_PATHS: u8 = 2;

mod tests {
    use silhouette_dom::{Structure, StructureHasher};

    use super::*;

    fn structure(body: &[u8]) -> Structure {
        StructureHasher::default().hash(body).expect("parses")
    }

    /// The crawl's rule with the default settings: within 8 bits and path sets at least 0.7
    /// alike.
    fn same(a: &Structure, b: &Structure) -> (bool, u32, f64) {
        let d = a.fingerprint.distance(b.fingerprint);
        let j = a.profile.similarity(&b.profile).expect("class-paths");
        (d <= 8 && j >= 0.7, d, j)
    }

    fn check(groups: &[(&str, Vec<Vec<u8>>)]) {
        let all: Vec<(&str, Vec<Structure>)> = groups
            .iter()
            .map(|(name, bodies)| (*name, bodies.iter().map(|b| structure(b)).collect()))
            .collect();
        for (name, group) in &all {
            for a in group {
                for b in group {
                    let (ok, d, j) = same(a, b);
                    assert!(ok, "{name}: {d} bits apart, similarity {j:.2}");
                }
            }
        }
        for (i, (a, ga)) in all.iter().enumerate() {
            for (b, gb) in &all[i + 1..] {
                for x in ga {
                    for y in gb {
                        let (ok, d, j) = same(x, y);
                        assert!(!ok, "{a} and {b}: {d} bits, similarity {j:.2}");
                    }
                }
            }
        }
    }

    /// A `tree_site` page with the extra block joins its template's pages, only just.
    #[test]
    fn a_marginal_tree_page_only_just_joins() {
        let pages = 120;
        for (k, like) in [(19, 3), (59, 7), (99, 11)] {
            let a = structure(&tree_site(pages, &format!("/n/{k}")).body);
            let b = structure(&tree_site(pages, &format!("/n/{like}")).body);
            let (ok, d, j) = same(&a, &b);
            assert!(ok && j < 0.8, "/n/{k}: {d} bits apart, similarity {j:.2}");
        }
    }

    /// Pages of one template judged the same structure, of different templates not.
    #[test]
    fn templates_are_tight_and_apart() {
        let port = 1;
        let body = |p: &str| dedup_site(port, p).body;
        let mut groups: Vec<(&str, Vec<Vec<u8>>)> = vec![("home", vec![body("/")])];
        for t in ["a", "p", "l"] {
            groups.push((
                template(&format!("/{t}/1")),
                (1..=PER).map(|n| body(&format!("/{t}/{n}"))).collect(),
            ));
        }
        groups.push((
            "help",
            ["a", "p", "l"]
                .iter()
                .flat_map(|t| (1..=PER).map(move |n| format!("/h/{t}/{n}")))
                .map(|p| body(&p))
                .collect(),
        ));
        groups.push((
            "calendar",
            (2020..2030)
                .flat_map(|y| (1..=12).map(move |m| format!("/cal/{y}/{m}")))
                .map(|p| body(&p))
                .collect(),
        ));
        groups.push((
            "plain",
            ["/loop/", "/loop/x/x/", "/private/secret", "/gone"]
                .iter()
                .map(|p| body(p))
                .collect(),
        ));
        check(&groups);

        let pages = 3000;
        let tree: Vec<(&str, Vec<Vec<u8>>)> = (0..4)
            .map(|r| {
                (
                    ["article", "product", "listing", "help"][r as usize],
                    (0..pages)
                        .filter(|k| k % 4 == r)
                        .step_by(23)
                        .map(|k| tree_site(pages, &format!("/n/{k}")).body)
                        .collect(),
                )
            })
            .collect();
        check(&tree);
    }
}

/// The fixture `p.html` served at `/p.html`; anything else is a 404.
pub fn fixture_site() -> Server {
    let page =
        std::fs::read_to_string(crate::common::fixtures().join("p.html")).expect("the fixture");
    Server::start(move |_| {
        move |target: &str| match target {
            "/p.html" => Response::html(page.clone()),
            _ => Response::text(404, "not found"),
        }
    })
}
