//! Seed lists: one URL per line, `#` starts a comment.

use std::path::Path;

use crate::error::{Context, Result};

/// A seed and where it came from (for error messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The URL as written.
    pub url: String,
    /// `FILE:LINE`, or `argument N`.
    pub origin: String,
}

impl Seed {
    /// A seed given by a program (its origin is `argument`).
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            origin: "argument".to_owned(),
        }
    }
}

/// Whether a command-line argument is a URL rather than a seeds file.
pub fn looks_like_url(arg: &str) -> bool {
    let lower = arg.to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Seeds from a list's text: blank lines and `#` comments skipped.
pub fn parse(text: &str, name: &str) -> Vec<Seed> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.split('#').next().unwrap_or("").trim();
            (!line.is_empty()).then(|| Seed {
                url: line.to_owned(),
                origin: format!("{name}:{}", i + 1),
            })
        })
        .collect()
}

/// What a command-line argument that is not an http(s) URL stands for.
#[derive(Debug, PartialEq, Eq)]
enum Arg {
    /// A seeds file (it exists, or its name looks like a file's).
    File,
    /// A host name or address without a scheme: `http://` + it.
    Schemeless(String),
}

/// File name endings of seed lists: such an argument is never taken for a host name.
const LIST_ENDINGS: [&str; 8] = ["txt", "lst", "list", "csv", "tsv", "json", "xml", "urls"];

fn classify(arg: &str) -> Arg {
    if Path::new(arg).exists() || arg.contains(char::is_whitespace) || arg.contains("://") {
        return Arg::File;
    }
    let host = arg.split(['/', '?', '#']).next().unwrap_or("");
    let Ok(url) = url::Url::parse(&format!("http://{arg}")) else {
        return Arg::File;
    };
    let file_like = host
        .rsplit('.')
        .next()
        .is_some_and(|last| LIST_ENDINGS.contains(&last.to_ascii_lowercase().as_str()));
    let hostish = match url.host() {
        Some(url::Host::Domain(d)) => {
            (d.contains('.') && !file_like) || d == "localhost" || url.port().is_some()
        }
        Some(_) => true,
        None => false,
    };
    if hostish {
        Arg::Schemeless(url.to_string())
    } else {
        Arg::File
    }
}

/// Seeds from the command line: URLs, and files of URLs. An argument without a scheme that
/// is no file but looks like a host (`example.com`, `127.0.0.1:8080/docs`) is taken as
/// `http://` + it, with a note in the second list.
pub fn from_args(args: &[String]) -> Result<(Vec<Seed>, Vec<String>)> {
    let mut seeds = Vec::new();
    let mut notes = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        let origin = format!("argument {}", i + 1);
        if looks_like_url(arg) {
            seeds.push(Seed {
                url: arg.clone(),
                origin,
            });
            continue;
        }
        match classify(arg) {
            Arg::Schemeless(url) => {
                notes.push(format!(
                    "note: seed {arg:?} has no scheme: crawling {url} (write https://{arg} for https)"
                ));
                seeds.push(Seed { url, origin });
            }
            Arg::File => {
                let text = std::fs::read_to_string(Path::new(arg)).with_context(|| {
                    format!("cannot read the seeds file {arg} (a seed URL starts with http:// or https://)")
                })?;
                seeds.extend(parse(&text, arg));
            }
        }
    }
    Ok((seeds, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_blanks_and_line_numbers() {
        let seeds = parse(
            "# list\nhttp://a.test/\n\n  https://b.test/x  # the b site\n#http://c.test/\n",
            "s.txt",
        );
        let got: Vec<(&str, &str)> = seeds
            .iter()
            .map(|s| (s.url.as_str(), s.origin.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("http://a.test/", "s.txt:2"),
                ("https://b.test/x", "s.txt:4")
            ]
        );
        assert!(looks_like_url("HTTPS://x") && !looks_like_url("seeds/list.txt"));
    }

    #[test]
    fn arguments_without_a_scheme() {
        let url = |s: &str| Arg::Schemeless(s.to_owned());
        for (arg, expected) in [
            ("example.com", url("http://example.com/")),
            ("Example.com/docs?x=1", url("http://example.com/docs?x=1")),
            ("127.0.0.1:8080", url("http://127.0.0.1:8080/")),
            ("localhost", url("http://localhost/")),
            ("[::1]:81/a", url("http://[::1]:81/a")),
            ("seeds.txt", Arg::File),
            ("dir/seeds.txt", Arg::File),
            ("urls", Arg::File),
            ("my seeds", Arg::File),
            ("ftp://x", Arg::File),
            ("", Arg::File),
        ] {
            assert_eq!(classify(arg), expected, "{arg:?}");
        }
    }
}
