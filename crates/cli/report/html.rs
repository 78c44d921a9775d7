//! The page around the sections: head, inline style and script, navigation; and escaping.

use std::fmt::Write;

use super::{Report, sections};

const STYLE: &str = include_str!("style.css");
const SCRIPT: &str = include_str!("script.js");

/// The sections, in page order: (id, heading).
pub const SECTIONS: [(&str, &str); 7] = [
    ("totals", "Decisions"),
    ("hosts", "Hosts"),
    ("histogram", "Distance to the kept page"),
    ("grid", "Decay × threshold (replayed)"),
    ("clusters", "Structure clusters"),
    ("errors", "Errors"),
    ("rate", "Pages per second"),
];

/// `text` with `& < > " '` escaped, for element content and quoted attributes alike.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A crawled URL: a link when it is http(s), shortened text when it is long.
pub fn url_link(url: &str) -> String {
    const SHOWN: usize = 120;
    let text = match url.char_indices().nth(SHOWN) {
        Some((i, _)) => format!("{}…", &url[..i]),
        None => url.to_owned(),
    };
    if url.starts_with("http://") || url.starts_with("https://") {
        format!(
            "<a href=\"{}\" rel=\"noreferrer\">{}</a>",
            esc(url),
            esc(&text)
        )
    } else {
        format!("<span>{}</span>", esc(&text))
    }
}

/// The whole HTML document.
pub fn page(report: &Report) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>silhouette report: {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <header>\n<h1>silhouette report</h1>\n<p>State <code>{}</code> · {} URLs recorded · \
         fingerprint <code>{}</code>{}</p>\n<nav>",
        esc(&report.state),
        esc(&report.state),
        report.summary.pages,
        esc(&report.fingerprint),
        report
            .on_duplicate
            .as_deref()
            .map(|m| format!(" · on-duplicate <code>{}</code>", esc(m)))
            .unwrap_or_default(),
    );
    for (id, title) in SECTIONS {
        let _ = write!(out, "<a href=\"#{id}\">{title}</a> ");
    }
    out.push_str("</nav>\n</header>\n<main>\n");
    for (id, title) in SECTIONS {
        let _ = writeln!(out, "<section id=\"{id}\">\n<h2>{title}</h2>");
        sections::write(id, report, &mut out);
        out.push_str("</section>\n");
    }
    let _ = write!(
        out,
        "</main>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: &str) {
        assert_eq!(esc(input), expected);
    }

    #[test]
    fn escapes_markup_and_quotes() {
        check("http://t/a?b=1&c=<2>", "http://t/a?b=1&amp;c=&lt;2&gt;");
        check("\"x\" 'y'", "&quot;x&quot; &#39;y&#39;");
        check("plain/ünï", "plain/ünï");
    }

    #[test]
    fn only_http_urls_become_links() {
        assert_eq!(
            url_link("http://t/?q=\"<x>\""),
            "<a href=\"http://t/?q=&quot;&lt;x&gt;&quot;\" rel=\"noreferrer\">http://t/?q=&quot;&lt;x&gt;&quot;</a>"
        );
        assert_eq!(
            url_link("javascript:alert(1)"),
            "<span>javascript:alert(1)</span>"
        );
        let long = format!("http://t/{}", "a".repeat(300));
        assert!(url_link(&long).contains("a…</a>"));
    }
}
