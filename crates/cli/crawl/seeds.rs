//! Seed lists: one URL per line, `#` starts a comment.

use std::path::Path;

use anyhow::{Context, Result};

/// A seed and where it came from (for error messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The URL as written.
    pub url: String,
    /// `FILE:LINE`, or `argument N`.
    pub origin: String,
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

/// Seeds from the command line: URLs, and files of URLs.
pub fn from_args(args: &[String]) -> Result<Vec<Seed>> {
    let mut seeds = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        if looks_like_url(arg) {
            seeds.push(Seed {
                url: arg.clone(),
                origin: format!("argument {}", i + 1),
            });
        } else {
            let path = Path::new(arg);
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the seeds file {arg}"))?;
            seeds.extend(parse(&text, arg));
        }
    }
    Ok(seeds)
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
}
