//! The built-in demo site: a small shop-and-blog with the traps real crawls meet.
//!
//! Every page is generated from its path, deterministically. Templates: home, blog index,
//! articles, product pages, category listings (paginated), an endless event calendar, help
//! pages whose missing ones answer 200 with a "not found" page (soft-404s), links carrying
//! session ids and tracking parameters, and a few broken pages (cut-off HTML, binary bytes
//! served as HTML, a server error, a PDF, a redirect loop). `robots.txt` disallows `/private/`.

use std::fmt::Write as _;

/// Articles, products, categories and help pages that exist.
pub const ARTICLES: u32 = 24;
pub const PRODUCTS: u32 = 36;
pub const CATEGORIES: [&str; 3] = ["lamps", "chairs", "tables"];
pub const CATEGORY_PAGES: u32 = 4;
pub const HELP_PAGES: u32 = 6;

/// One response of the demo server.
#[derive(Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub location: Option<String>,
    pub body: Vec<u8>,
}

impl Response {
    fn html(status: u16, body: String) -> Self {
        Self {
            status,
            content_type: "text/html; charset=utf-8",
            location: None,
            body: body.into_bytes(),
        }
    }
}

/// A small deterministic generator, seeded by the page path.
struct Rng(u64);

impl Rng {
    fn new(seed: &str) -> Self {
        Self(silhouette_simhash::fnv1_64(seed.as_bytes()) | 1)
    }

    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % u64::from(hi - lo + 1)) as u32
    }

    fn words(&mut self, n: u32) -> String {
        const WORDS: [&str; 16] = [
            "oak", "linen", "bright", "quiet", "corner", "warm", "handmade", "shelf", "morning",
            "studio", "simple", "brass", "garden", "reading", "soft", "table",
        ];
        (0..n)
            .map(|_| WORDS[(self.next() % 16) as usize])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A whole page: each template brings its own `<head>` extras and body furniture, as real
/// sites do (articles carry social tags, the shop its scripts, the calendar a feed).
fn html_page(title: &str, head: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>{title} · Hearth &amp; Oak</title>{head}</head>\
         <body>{body}</body></html>"
    )
}

const MASTHEAD: &str = "<header class=masthead><a class=logo href=/>Hearth &amp; Oak</a><nav><ul>\
    <li><a href=/blog/>Journal</a></li><li><a href='/shop/lamps?page=1&amp;utm_source=journal'>Shop</a></li>\
    <li><a href=/events/calendar/2026/11>Events</a></li><li><a href=/help/1>Help</a></li></ul></nav></header>";
const FOOTER: &str = "<footer><p>© Hearth &amp; Oak</p><a href=/private/admin>Staff</a></footer>";
const SHOP_TOP: &str = "<div class=promo><p>Free delivery this week</p></div><header><a class=logo href=/>H&amp;O</a>\
    <form class=search action=/search><input name=q><button>Search</button></form><a class=cart href=/cart>Cart</a></header>";
const SHOP_BOTTOM: &str = "<footer><div class=cols><div><a href=/help/1>Help</a></div><div><a href=/blog/>Journal</a></div>\
    <div><a href=/private/admin>Staff</a></div></div></footer><script src=/static/cart.js></script>";

/// The response for `path` (with its query, if any).
pub fn respond(path_and_query: &str) -> Response {
    let (path, query) = path_and_query
        .split_once('?')
        .unwrap_or((path_and_query, ""));
    let mut rng = Rng::new(path);
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match segments.as_slice() {
        [""] => Response::html(200, home()),
        ["robots.txt"] => Response {
            status: 200,
            content_type: "text/plain",
            location: None,
            body: b"User-agent: *\nDisallow: /private/\n".to_vec(),
        },
        ["blog", ""] => Response::html(200, blog_index()),
        ["blog", post] => match post
            .strip_prefix("post-")
            .and_then(|n| n.strip_suffix(".html"))
            .and_then(|n| n.parse().ok())
        {
            Some(n) if (1..=ARTICLES).contains(&n) => Response::html(200, article(n, &mut rng)),
            _ => soft_404(path),
        },
        ["shop", "item", id] => match id.parse() {
            Ok(n) if (1..=PRODUCTS).contains(&n) => Response::html(200, product(n, &mut rng)),
            _ => soft_404(path),
        },
        ["shop", category] if CATEGORIES.contains(category) => {
            let page = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("page="))
                .and_then(|p| p.parse().ok())
                .unwrap_or(1);
            if (1..=CATEGORY_PAGES).contains(&page) {
                Response::html(200, listing(category, page, &mut rng))
            } else {
                soft_404(path)
            }
        }
        ["events", "calendar", year, month] => match (year.parse::<i32>(), month.parse::<u32>()) {
            (Ok(y), Ok(m)) if (1..=12).contains(&m) => Response::html(200, calendar(y, m)),
            _ => soft_404(path),
        },
        ["help", n] => match n.parse() {
            Ok(n) if (1..=HELP_PAGES).contains(&n) => Response::html(200, help(n, &mut rng)),
            _ => soft_404(path),
        },
        ["broken", "cut-off"] => {
            let mut page = article(1, &mut rng);
            page.truncate(page.len() / 3);
            Response::html(200, page)
        }
        ["broken", "binary"] => Response {
            status: 200,
            content_type: "text/html",
            location: None,
            body: (0..4096).map(|_| rng.next() as u8).collect(),
        },
        ["broken", "error"] => Response::html(
            500,
            html_page("Server error", "", "<h1>Something broke</h1>"),
        ),
        ["broken", "loop"] => Response {
            status: 302,
            content_type: "text/html",
            location: Some("/broken/loop".into()),
            body: Vec::new(),
        },
        ["files", "catalogue.pdf"] => Response {
            status: 200,
            content_type: "application/pdf",
            location: None,
            body: b"%PDF-1.4\n% demo\n".to_vec(),
        },
        _ => soft_404(path),
    }
}

fn home() -> String {
    let mut body = String::from(
        "<main class=home><section class=hero><h1>Furniture that lasts</h1><p>Made in small batches.</p></section><section class=picks><h2>Picks</h2><ul>",
    );
    for n in [3, 7, 12] {
        // Session ids and tracking parameters: the same product under many URLs.
        let _ = write!(
            body,
            "<li><a href=/shop/item/{n}?sessionid=s{n}x9>Item {n}</a></li>"
        );
        let _ = write!(
            body,
            "<li><a href=/shop/item/{n}?ref=home>Item {n} again</a></li>"
        );
    }
    body.push_str("</ul></section><section class=more><h2>More</h2><ul>");
    for link in [
        "/blog/",
        "/help/1",
        "/help/99",
        "/blog/post-404.html",
        "/shop/item/999",
        "/files/catalogue.pdf",
        "/broken/cut-off",
        "/broken/binary",
        "/broken/error",
        "/broken/loop",
        "/nowhere",
    ] {
        let _ = write!(body, "<li><a href={link}>{link}</a></li>");
    }
    body.push_str("</ul></section></main>");
    body.push_str(FOOTER);
    let head = "<meta name=description content='Furniture'><link rel=icon href=/favicon.ico>\
                <link rel=stylesheet href=/static/home.css><link rel=preload href=/static/hero.jpg as=image>";
    html_page("Home", head, &format!("{MASTHEAD}{body}"))
}

fn blog_index() -> String {
    let mut body = String::from(
        "<div class=wrapper><h1>Journal</h1><p class=intro>Notes from the workshop.</p><ol class=posts>",
    );
    for n in 1..=ARTICLES {
        let _ = write!(
            body,
            "<li><a href=/blog/post-{n}.html>Post {n}</a><p>Notes from the workshop.</p></li>"
        );
    }
    body.push_str("</ol></div>");
    let head = "<link rel=stylesheet href=/static/journal.css><link rel=alternate type=application/rss+xml href=/blog/feed.xml>";
    html_page("Journal", head, &format!("{MASTHEAD}{body}{FOOTER}"))
}

fn article(n: u32, rng: &mut Rng) -> String {
    let mut body = format!(
        "<div class=wrapper><main class=post><article><h1>{}</h1><p class=byline>by the workshop</p>",
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
    body.push_str("</article><aside><h2>Related</h2><ul>");
    for k in 1..=3 {
        let other = (n + k * 5) % ARTICLES + 1;
        let _ = write!(
            body,
            "<li><a href=/blog/post-{other}.html?utm_campaign=related>Post {other}</a></li>"
        );
    }
    body.push_str("</ul></aside></main></div>");
    let head = "<meta name=viewport content='width=device-width'><meta name=description content=Journal>\
                <meta property=og:title content=Post><meta property=og:type content=article>\
                <meta property=og:image content=/img/og.jpg><meta name=twitter:card content=summary>\
                <link rel=stylesheet href=/static/journal.css><link rel=canonical href=/blog/>\
                <script src=/static/journal.js defer></script>";
    html_page(
        &format!("Post {n}"),
        head,
        &format!("{MASTHEAD}{body}{FOOTER}<script src=/static/comments.js></script>"),
    )
}

fn product(n: u32, rng: &mut Rng) -> String {
    let mut body = String::from("<div class=gallery>");
    for i in 0..rng.range(2, 4) {
        let _ = write!(body, "<img src=/img/{n}-{i}.jpg alt=''>");
    }
    let _ = write!(
        body,
        "</div><div class=buy><h1>{}</h1><span class=price>{}.00</span><form action=/cart method=post>\
         <select name=finish>",
        rng.words(3),
        rng.range(40, 900)
    );
    for _ in 0..rng.range(2, 4) {
        let _ = write!(body, "<option>{}</option>", rng.words(1));
    }
    body.push_str("</select><button>Add to cart</button></form></div><table class=specs><tbody>");
    for _ in 0..rng.range(4, 7) {
        let _ = write!(
            body,
            "<tr><th>{}</th><td>{}</td></tr>",
            rng.words(1),
            rng.words(2)
        );
    }
    body.push_str("</tbody></table><section class=reviews><h2>Reviews</h2><ul>");
    for _ in 0..rng.range(1, 3) {
        let _ = write!(body, "<li><p>{}</p></li>", rng.words(10));
    }
    let next = n % PRODUCTS + 1;
    let _ = write!(
        body,
        "</ul></section><a class=next href=/shop/item/{next}>Next item</a></main>"
    );
    let head = "<link rel=stylesheet href=/static/shop.css><script src=/static/shop.js></script>\
                <script type=application/ld+json>{}</script><script src=/static/gallery.js></script>";
    let crumbs = "<nav class=crumbs><ol><li><a href=/>Home</a></li><li><a href=/shop/lamps>Lamps</a></li></ol></nav>";
    html_page(
        &format!("Item {n}"),
        head,
        &format!(
            "{SHOP_TOP}{crumbs}<main class=product>{body}</main><div class=drawer hidden></div>{SHOP_BOTTOM}"
        ),
    )
}

fn listing(category: &str, page: u32, rng: &mut Rng) -> String {
    let mut body = format!("<h1>{category}</h1><div class=grid>");
    for k in 0..9 {
        let id = (page * 9 + k + category.len() as u32) % PRODUCTS + 1;
        let _ = write!(
            body,
            "<div class=card><a href=/shop/item/{id}><img src=/img/{id}-0.jpg alt=''><h3>{}</h3></a><span>{}.00</span></div>",
            rng.words(2),
            rng.range(40, 900)
        );
    }
    body.push_str("</div><nav class=pages>");
    for p in 1..=CATEGORY_PAGES {
        let _ = write!(body, "<a href=/shop/{category}?page={p}>{p}</a>");
    }
    for other in CATEGORIES {
        let _ = write!(body, "<a href=/shop/{other}?page=1>{other}</a>");
    }
    body.push_str("</nav>");
    let head = "<link rel=stylesheet href=/static/shop.css><link rel=next href=?page=2>\
                <meta name=robots content=noindex>";
    let filters = "<aside class=filters><form><select name=sort><option>Price</option><option>New</option></select>\
                   <label><input type=checkbox name=stock> In stock</label><button>Filter</button></form></aside>";
    html_page(
        category,
        head,
        &format!("{SHOP_TOP}{filters}<main class=listing>{body}</main>{SHOP_BOTTOM}"),
    )
}

fn calendar(year: i32, month: u32) -> String {
    let (py, pm) = if month == 1 {
        (year - 1, 12)
    } else {
        (year, month - 1)
    };
    let (ny, nm) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    let mut body = format!(
        "<main class=calendar><h1>Events {year}-{month:02}</h1><p><a href=/events/calendar/{py}/{pm}>Previous</a> \
         <a href=/events/calendar/{ny}/{nm}>Next</a></p><table><thead><tr>"
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
    html_page(
        "Events",
        head,
        &format!("{body}<footer><a href=/>Back home</a></footer>"),
    )
}

fn help(n: u32, rng: &mut Rng) -> String {
    let mut body = String::from("<nav class=toc><ol>");
    for k in 1..=HELP_PAGES + 2 {
        // Pages 7 and 8 do not exist: soft-404s.
        let _ = write!(body, "<li><a href=/help/{k}>Topic {k}</a></li>");
    }
    let _ = write!(body, "</ol></nav><h1>{}</h1>", rng.words(3));
    for _ in 0..rng.range(3, 6) {
        let _ = write!(
            body,
            "<details><summary>{}?</summary><p>{}</p></details>",
            rng.words(5),
            rng.words(14)
        );
    }

    let head = "<link rel=stylesheet href=/static/help.css><link rel=search href=/help/search.xml>";
    html_page(
        &format!("Help {n}"),
        head,
        &format!("{MASTHEAD}<main class=help>{body}</main>{FOOTER}"),
    )
}

/// A missing page that says so with status 200.
fn soft_404(path: &str) -> Response {
    Response::html(
        200,
        html_page(
            "Not found",
            "",
            &format!(
                "<div class=oops><h1>Sorry</h1><p>No page at <code>{path}</code>.</p>\
                 <form action=/search><input name=q><button>Search</button></form>\
                 <p>Try <a href=/>the home page</a> or <a href=/help/1>help</a>.</p></div>"
            ),
        ),
    )
}

#[cfg(test)]
mod tests {
    use silhouette_dom::StructureHasher;

    use super::*;

    fn fp(path: &str) -> silhouette_dom::Fingerprint {
        let r = respond(path);
        StructureHasher::default()
            .hash(&r.body)
            .expect("parses")
            .fingerprint
    }

    /// The demo's promise: pages of one template lie within 5 bits of each other, pages of
    /// different templates further apart.
    #[test]
    fn templates_are_tight_and_apart() {
        let mut templates: Vec<(&str, Vec<String>)> = vec![
            (
                "article",
                (1..=ARTICLES)
                    .map(|n| format!("/blog/post-{n}.html"))
                    .collect(),
            ),
            (
                "product",
                (1..=PRODUCTS).map(|n| format!("/shop/item/{n}")).collect(),
            ),
            (
                "listing",
                CATEGORIES
                    .iter()
                    .flat_map(|c| (1..=CATEGORY_PAGES).map(move |p| format!("/shop/{c}?page={p}")))
                    .collect(),
            ),
            (
                "calendar",
                (2020..2030)
                    .flat_map(|y| (1..=12).map(move |m| format!("/events/calendar/{y}/{m}")))
                    .collect(),
            ),
            (
                "help",
                (1..=HELP_PAGES).map(|n| format!("/help/{n}")).collect(),
            ),
            (
                "soft-404",
                [
                    "/help/99",
                    "/nowhere",
                    "/shop/item/999",
                    "/blog/post-77.html",
                ]
                .map(String::from)
                .to_vec(),
            ),
        ];
        templates.push(("home", vec!["/".into()]));
        templates.push(("journal", vec!["/blog/".into()]));
        let fps: Vec<(&str, Vec<silhouette_dom::Fingerprint>)> = templates
            .iter()
            .map(|(name, paths)| (*name, paths.iter().map(|p| fp(p)).collect()))
            .collect();
        for (name, group) in &fps {
            let worst = group
                .iter()
                .map(|f| f.distance(group[0]))
                .max()
                .unwrap_or(0);
            assert!(
                worst <= 5,
                "{name}: pages up to {worst} bits from the first"
            );
        }
        for (i, (a, ga)) in fps.iter().enumerate() {
            for (b, gb) in &fps[i + 1..] {
                let closest = ga
                    .iter()
                    .flat_map(|x| gb.iter().map(move |y| x.distance(*y)))
                    .min()
                    .unwrap_or(64);
                assert!(closest > 5, "{a} and {b} come within {closest} bits");
            }
        }
    }

    #[test]
    fn special_responses() {
        assert_eq!(respond("/broken/error").status, 500);
        assert_eq!(
            respond("/broken/loop").location.as_deref(),
            Some("/broken/loop")
        );
        assert_eq!(
            respond("/files/catalogue.pdf").content_type,
            "application/pdf"
        );
        assert_eq!(
            respond("/robots.txt").body,
            b"User-agent: *\nDisallow: /private/\n"
        );
        let missing = String::from_utf8(respond("/shop/lamps?page=9").body).expect("utf-8");
        assert!(
            missing.contains("<h1>Sorry</h1>") && missing.contains("/shop/lamps"),
            "{missing}"
        );
        assert_eq!(respond("/broken/binary").body.len(), 4096);
        assert!(respond("/broken/cut-off").body.len() < respond("/blog/post-1.html").body.len());
    }
}
