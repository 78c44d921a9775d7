//! `[content]`: how a page's main-content text becomes a content fingerprint. Options (all
//! optional, as written in `config.toml`) → a validated [`ContentConfig`].

use std::sync::Arc;

use anyhow::{Context, Result};
use silhouette_frontier::DropWhen;
use silhouette_text::{Bits, ContentConfig, IdfTable};

use super::check::{Invalid, range};
use super::options::{ContentOptions, key};

/// Command-line values that override `[content]`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ContentOverrides {
    pub bits: Option<u32>,
}

/// Validates `[content]` (defaults: [`ContentConfig::default`]); every error names the key,
/// the value and what is allowed.
pub fn resolve(
    options: Option<&ContentOptions>,
    overrides: ContentOverrides,
) -> Result<ContentConfig> {
    let default = ContentOptions::default();
    let o = options.unwrap_or(&default);
    let mut config = ContentConfig::default();
    let named = |e: silhouette_text::TextError| anyhow::anyhow!("content.{}", plain(&e));
    if let Some(m) = &o.mode {
        config.mode = m.parse().map_err(named)?;
    }
    if let Some(t) = &o.tokenizer {
        config.tokenizer = t.parse().map_err(named)?;
    }
    if let Some(v) = o.shingles {
        config.shingles = range("content.shingles", v, 1, 16)?;
    }
    if let Some(v) = o.stop_words {
        config.stop_words = v;
    }
    if let Some(w) = &o.weights {
        config.weights = w.parse().map_err(named)?;
    }
    if let Some(v) = o.top_n {
        let n: usize = range("content.top-n", v, 0, 1_000_000)?;
        config.top_n = (n > 0).then_some(n);
    }
    let bits = match (overrides.bits, o.bits) {
        (Some(b), _) => Some(i64::from(b)),
        (None, b) => b,
    };
    if let Some(b) = bits {
        config.bits = match b {
            64 => Bits::B64,
            128 => Bits::B128,
            _ => anyhow::bail!("content.bits = {b}: must be 64 or 128"),
        };
    }
    if let Some(v) = o.min_words {
        config.min_words = range("content.min-words", v, 1, 1_000_000)?;
    }
    if let Some(v) = o.signature_top_n {
        config.signature_top_n = range("content.signature-top-n", v, 0, 1000)?;
    }
    if let Some(v) = o.max_text_bytes {
        config.max_text_bytes = Some(range(
            "content.max-text-bytes",
            v,
            1024,
            silhouette_dom::DEFAULT_MAX_TEXT_BYTES as i64,
        )?);
    }
    if let Some(path) = o.idf.as_ref().filter(|p| !p.as_os_str().is_empty()) {
        let named = format!("content.idf = {:?}", path.display());
        let text =
            std::fs::read_to_string(path).with_context(|| format!("{named}: cannot read"))?;
        let table = IdfTable::parse(&text).map_err(|e| anyhow::anyhow!("{named}: {e}"))?;
        config.idf = Some(Arc::new(table));
    }
    Ok(config)
}

/// `[content] threshold`: the largest Hamming distance between two pages' content
/// fingerprints still called near in a crawl. Default 3 for 64 bits (Manku et al.), 6 for
/// 128 (the same share of the bits); 0 to 8 for 64 bits (the structure index's range), 0 to 16
/// for 128.
pub fn threshold(options: Option<&ContentOptions>) -> Result<u32> {
    let bits = if options.and_then(|o| o.bits) == Some(128) {
        128
    } else {
        64
    };
    let default = if bits == 128 { 6 } else { 3 };
    match options.and_then(|o| o.threshold) {
        None => Ok(default),
        Some(v) => threshold_in_range(v, bits),
    }
}

/// A content threshold for fingerprints of `bits`: 0 to 8 for 64 bits (the structure index's
/// range), 0 to 16 for 128. Every command checks it here, so every one says the same (an
/// [`Invalid`] `content.threshold`, which `replay` names by its `--content-threshold`).
pub fn threshold_in_range(value: i64, bits: u32) -> Result<u32> {
    let max = if bits == 128 { 16 } else { 8 };
    u32::try_from(value)
        .ok()
        .filter(|&k| k <= max)
        .ok_or_else(|| {
            let problem = format!(
                "must be a whole number from 0 to {max} ({bits}-bit content fingerprints; 0 to 8 for 64 bits, 0 to 16 for 128, content.bits)"
            );
            Invalid::new(key::CONTENT_THRESHOLD, value, problem).into()
        })
}

/// `[content] enabled`: whether a crawl (or `silhouette dedup`) computes and records content
/// fingerprints. Off by default, since collecting the text costs parse time on every page,
/// unless `drop-when` needs them; an explicit `false` with such a `drop-when` is an error.
pub fn enabled(options: Option<&ContentOptions>, drop_when: DropWhen) -> Result<bool> {
    let needed = drop_when != DropWhen::Structure;
    match options.and_then(|o| o.enabled) {
        None => Ok(needed),
        Some(true) => Ok(true),
        Some(false) if needed => anyhow::bail!(
            "content.enabled = false: dedup.drop-when = \"{drop_when}\" needs content fingerprints (set content.enabled = true, or drop-when = \"structure\")"
        ),
        Some(false) => Ok(false),
    }
}

/// A config error as `key = "value": what is allowed`.
fn plain(e: &silhouette_text::TextError) -> String {
    match e {
        silhouette_text::TextError::Config { key, value, reason } => {
            format!("{key} = {value:?}: must be {reason}")
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::options::{DEFAULT_CONFIG, Options};

    fn check(toml: &str, bits: Option<u32>, expected: Result<&str, &str>) {
        let got = Options::parse(toml, "c.toml")
            .and_then(|o| resolve(o.content.as_ref(), ContentOverrides { bits }));
        match (got, expected) {
            (Ok(c), Ok(fragment)) => {
                let shown = format!("{c:?}");
                assert!(shown.contains(fragment), "{toml:?}: {shown}");
            }
            (Err(e), Err(msg)) => assert_eq!(e.to_string(), msg, "{toml:?}"),
            (got, _) => panic!("{toml:?}: unexpected {got:?}"),
        }
    }

    #[test]
    fn enabled_follows_drop_when() {
        let check = |toml: &str, drop: DropWhen, expected: Result<bool, &str>| {
            let options = Options::parse(toml, "c.toml").expect("parses");
            let got = enabled(options.content.as_ref(), drop).map_err(|e| e.to_string());
            assert_eq!(got, expected.map_err(str::to_owned), "{toml:?} {drop}");
        };
        check("", DropWhen::Structure, Ok(false));
        check("", DropWhen::StructureOrContent, Ok(true));
        check("[content]\nenabled = true", DropWhen::Structure, Ok(true));
        check("[content]\nenabled = false", DropWhen::Structure, Ok(false));
        check(
            "[content]\nenabled = false",
            DropWhen::Content,
            Err(
                "content.enabled = false: dedup.drop-when = \"content\" needs content fingerprints (set content.enabled = true, or drop-when = \"structure\")",
            ),
        );
    }

    #[test]
    fn embedded_defaults_are_the_defaults() {
        let options = Options::parse(DEFAULT_CONFIG, "built-in").expect("parses");
        let embedded =
            resolve(options.content.as_ref(), ContentOverrides::default()).expect("valid");
        assert_eq!(embedded, ContentConfig::default());
    }

    #[test]
    fn values_and_errors() {
        check("", None, Ok("bits: B64"));
        check("", None, Ok("mode: Minhash"));
        check("[content]\nmode = \"weighted\"", None, Ok("mode: Weighted"));
        check(
            "[content]\nmode = \"simhash\"",
            None,
            Err("content.mode = \"simhash\": must be one of weighted, seed-002, minhash"),
        );
        check("[content]\nbits = 128", None, Ok("bits: B128"));
        check("[content]\nbits = 128", Some(64), Ok("bits: B64"));
        check("[content]\ntop-n = 0", None, Ok("top_n: None"));
        check("[content]\ntop-n = 20", None, Ok("top_n: Some(20)"));
        check(
            "[content]\nshingles = 3\nweights = \"tf\"",
            None,
            Ok("shingles: 3"),
        );
        check(
            "[content]\ntokenizer = \"jieba\"",
            None,
            Ok("tokenizer: Jieba"),
        );
        check(
            "[content]\nbits = 32",
            None,
            Err("content.bits = 32: must be 64 or 128"),
        );
        check(
            "[content]\nshingles = 0",
            None,
            Err("content.shingles = 0: must be a whole number from 1 to 16"),
        );
        check(
            "[content]\ntokenizer = \"words\"",
            None,
            Err("content.tokenizer = \"words\": must be one of mfonda, unicode, jieba, auto"),
        );
        check(
            "[content]\nweights = \"bm25\"",
            None,
            Err("content.weights = \"bm25\": must be one of equal, tf, tf-idf"),
        );
        check(
            "[content]\nmin-words = 0",
            None,
            Err("content.min-words = 0: must be a whole number from 1 to 1000000"),
        );
        check(
            "[content]\nmax-text-bytes = 65536",
            None,
            Ok("max_text_bytes: Some(65536)"),
        );
        check(
            "[content]\nmax-text-bytes = 100",
            None,
            Err("content.max-text-bytes = 100: must be a whole number from 1024 to 4194304"),
        );
        check(
            "[content]\nidf = \"/nonexistent/idf.txt\"",
            None,
            Err("content.idf = \"/nonexistent/idf.txt\": cannot read"),
        );
        check(
            "[content]\nthresh = 3",
            None,
            Err(
                "c.toml:2: unknown field `thresh`, expected one of `enabled`, `mode`, `tokenizer`, \
                 `shingles`, `stop-words`, `weights`, `top-n`, `bits`, `min-words`, \
                 `signature-top-n`, `max-text-bytes`, `idf`, `threshold`",
            ),
        );
    }

    #[test]
    fn crawl_threshold() {
        let check = |toml: &str, expected: Result<u32, &str>| {
            let got = Options::parse(toml, "c.toml")
                .and_then(|o| threshold(o.content.as_ref()))
                .map_err(|e| e.to_string());
            assert_eq!(got, expected.map_err(str::to_owned), "{toml:?}");
        };
        check("", Ok(3));
        check("[content]\nbits = 128", Ok(6));
        check("[content]\nthreshold = 8", Ok(8));
        check(
            "[content]\nthreshold = 9",
            Err(
                "content.threshold = 9: must be a whole number from 0 to 8 (64-bit content fingerprints; 0 to 8 for 64 bits, 0 to 16 for 128, content.bits)",
            ),
        );
        check("[content]\nbits = 128\nthreshold = 16", Ok(16));
    }
}
