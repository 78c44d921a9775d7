//! URL canonicalisation: one spelling per resource, so the seen set and the
//! scope rules compare like with like.
//!
//! The `url` crate's WHATWG parser already does the safe half: it lowercases
//! the scheme and host, punycodes internationalised hosts, drops the default
//! port, resolves `.`/`..` segments (also their `%2e` spellings) and gives an
//! empty path a `/`. [`canonicalize`] adds the crawler's half: no fragment,
//! no tracking or session parameters (query and `;name=value` path
//! parameters), query pairs sorted, escapes of unreserved characters decoded
//! and the hex of the other escapes upper-cased. Paths are never case-folded.

use std::borrow::Cow;

use thiserror::Error;
use url::Url;

/// Parameters removed by default: analytics tags and session ids.
///
/// A trailing `*` makes a prefix pattern; names compare ASCII
/// case-insensitively.
pub const DEFAULT_STRIP_PARAMS: &[&str] = &[
    "utm_*",
    "gclid",
    "fbclid",
    "msclkid",
    "mc_cid",
    "mc_eid",
    "_ga",
    "yclid",
    "igshid",
    "jsessionid",
    "phpsessid",
    "sid",
    "sessionid",
    "aspsessionid*",
];

/// How URLs are canonicalised. Plain data; see [`CanonConfig::validate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonConfig {
    /// Names of query parameters (and `;name=value` path parameters) to
    /// remove. `name` matches that name, `prefix*` every name starting with
    /// `prefix`; both ASCII case-insensitively, against the percent-decoded
    /// name. Default: [`DEFAULT_STRIP_PARAMS`].
    pub strip_params: Vec<String>,
    /// Sort query pairs by key, then value (byte order of their encoded
    /// form; pairs with equal key and value keep their order). Default: true.
    pub sort_query: bool,
}

impl Default for CanonConfig {
    fn default() -> Self {
        Self {
            strip_params: DEFAULT_STRIP_PARAMS
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            sort_query: true,
        }
    }
}

impl CanonConfig {
    /// Checks the patterns: none is empty, and `*` appears only at the end.
    ///
    /// [`canonicalize`] works with any config (a `*` elsewhere is then a
    /// literal character); this catches the likely mistakes of a user.
    pub fn validate(&self) -> Result<(), CanonConfigError> {
        for pattern in &self.strip_params {
            let body = pattern.strip_suffix('*').unwrap_or(pattern);
            if pattern.is_empty() {
                return Err(CanonConfigError::EmptyPattern);
            }
            if body.contains('*') {
                return Err(CanonConfigError::MisplacedWildcard {
                    pattern: pattern.clone(),
                });
            }
        }
        Ok(())
    }
}

/// A [`CanonConfig`] that does not make sense.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CanonConfigError {
    /// An empty parameter pattern.
    #[error("strip-params: an empty pattern matches nothing; remove it")]
    EmptyPattern,
    /// A `*` somewhere other than at the end of a pattern.
    #[error(
        "strip-params: pattern {pattern:?} has a `*` that is not at the end (only `prefix*` is supported)"
    )]
    MisplacedWildcard {
        /// The pattern as given.
        pattern: String,
    },
}

/// A URL that cannot be canonicalised (and so is not crawled).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CanonError {
    /// The text is not a URL.
    #[error("not a valid URL: {input:?}: {source}")]
    Parse {
        /// The text as given.
        input: String,
        /// What the parser said.
        source: url::ParseError,
    },
    /// Not `http` or `https`.
    #[error("unsupported scheme {scheme:?} in {url} (only http and https are crawled)")]
    UnsupportedScheme {
        /// The URL.
        url: String,
        /// Its scheme.
        scheme: String,
    },
    /// No host (cannot happen for a parsed `http(s)` URL; kept for safety).
    #[error("URL has no host: {url}")]
    MissingHost {
        /// The URL.
        url: String,
    },
}

/// Parses `input` and canonicalises it (for seeds and other text input).
pub fn parse_canonical(input: &str, config: &CanonConfig) -> Result<Url, CanonError> {
    let url = Url::parse(input.trim()).map_err(|source| CanonError::Parse {
        input: input.to_owned(),
        source,
    })?;
    canonicalize(&url, config)
}

/// The canonical form of `url`.
///
/// On top of what parsing already did (see the module docs): drops the
/// fragment; removes `;name=value` path parameters and query pairs whose
/// name matches [`CanonConfig::strip_params`]; drops empty query pairs and
/// an empty query; sorts the pairs ([`CanonConfig::sort_query`]), keeping
/// each pair's bytes; decodes escapes of unreserved characters (`%7E` →
/// `~`) and upper-cases the hex of the other escapes (`%2f` → `%2F`).
///
/// Idempotent: canonicalising a canonical URL returns it unchanged.
pub fn canonicalize(url: &Url, config: &CanonConfig) -> Result<Url, CanonError> {
    let scheme = url.scheme();
    if scheme != "http" && scheme != "https" {
        return Err(CanonError::UnsupportedScheme {
            url: url.as_str().to_owned(),
            scheme: scheme.to_owned(),
        });
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(CanonError::MissingHost {
            url: url.as_str().to_owned(),
        });
    }
    let mut out = url.clone();
    out.set_fragment(None);

    let path = url.path();
    let stripped = strip_path_params(path, &config.strip_params);
    let normalized = normalize_escapes(&stripped);
    if normalized != path {
        out.set_path(&normalized);
    }

    match url.query() {
        None => {}
        Some(query) => {
            let query = canonical_query(query, config);
            out.set_query((!query.is_empty()).then_some(query.as_str()));
        }
    }
    Ok(out)
}

/// The URL a page's links resolve against: its `<base href>` (as written, `base`) resolved
/// against the page's own URL, or that URL when it has none or it does not resolve.
#[must_use]
pub fn base_url(base: Option<&str>, page_url: &Url) -> Url {
    base.and_then(|b| page_url.join(b.trim()).ok())
        .unwrap_or_else(|| page_url.clone())
}

/// The absolute URL a link in a page at `base` points to, fragment dropped;
/// `None` for what a crawler does not follow.
///
/// Trims the ASCII whitespace HTML allows around attribute values; returns
/// `None` for an empty or fragment-only `href` (the page itself), for
/// anything that does not resolve, and for every scheme but `http` and
/// `https` (`javascript:`, `mailto:`, `data:`, `tel:`, `ftp:`, …). The
/// result is not canonical yet: pass it to [`canonicalize`].
pub fn resolve_link(base: &Url, href: &str) -> Option<Url> {
    let href = href.trim_matches(|c: char| c.is_ascii_whitespace());
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let mut url = base.join(href).ok()?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return None;
    }
    url.set_fragment(None);
    Some(url)
}

/// Whether the parameter `name` (as it appears, possibly percent-encoded)
/// matches one of `patterns`.
fn is_stripped(name: &str, patterns: &[String]) -> bool {
    if patterns.is_empty() {
        return false;
    }
    let name = percent_decode(name);
    patterns
        .iter()
        .any(|pattern| match pattern.strip_suffix('*') {
            Some(prefix) => {
                name.len() >= prefix.len()
                    && name.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
            }
            None => name.as_bytes().eq_ignore_ascii_case(pattern.as_bytes()),
        })
}

/// `path` without the `;name=value` parameters whose name is stripped.
fn strip_path_params<'a>(path: &'a str, patterns: &[String]) -> Cow<'a, str> {
    if !path.contains(';') {
        return Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len());
    for (i, segment) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut parts = segment.split(';');
        out.push_str(parts.next().unwrap_or_default());
        for param in parts {
            let name = param.split_once('=').map_or(param, |(name, _)| name);
            if !is_stripped(name, patterns) {
                out.push(';');
                out.push_str(param);
            }
        }
    }
    Cow::Owned(out)
}

/// The query with stripped and empty pairs removed, sorted if configured.
fn canonical_query(query: &str, config: &CanonConfig) -> String {
    let mut pairs: Vec<(Cow<'_, str>, usize)> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .filter(|pair| {
            let name = pair.split_once('=').map_or(*pair, |(name, _)| name);
            !is_stripped(name, &config.strip_params)
        })
        .map(|pair| {
            let pair = normalize_escapes(pair);
            let key_len = pair.find('=').unwrap_or(pair.len());
            (pair, key_len)
        })
        .collect();
    if config.sort_query {
        // Key first, then the rest (`=value`, or nothing for a bare key).
        pairs.sort_by(|(a, ak), (b, bk)| {
            a[..*ak]
                .cmp(&b[..*bk])
                .then_with(|| a[*ak..].cmp(&b[*bk..]))
        });
    }
    let mut out = String::with_capacity(query.len());
    for (i, (pair, _)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(pair);
    }
    out
}

fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// The escape `%XY` at the start of `bytes`, decoded.
fn escape_at(bytes: &[u8]) -> Option<u8> {
    match bytes {
        [b'%', hi, lo, ..] => Some((hex_value(*hi)? << 4) | hex_value(*lo)?),
        _ => None,
    }
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn is_unreserved(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')
}

/// Decodes escapes of unreserved characters; upper-cases the hex of others.
/// Everything else (including malformed escapes) is kept as is.
fn normalize_escapes(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut start = 0; // first byte not copied yet
    let mut i = 0;
    while i < bytes.len() {
        if let Some(value) = escape_at(&bytes[i..]) {
            out.push_str(&s[start..i]);
            // Decoding must not complete an escape with what precedes it
            // (`%0%61` must not become `%0a`), or a second pass would differ.
            if is_unreserved(value) && !(value.is_ascii_hexdigit() && ends_in_partial_escape(&out))
            {
                out.push(char::from(value));
            } else {
                out.push('%');
                out.push(char::from(HEX[usize::from(value >> 4)]));
                out.push(char::from(HEX[usize::from(value & 0xF)]));
            }
            i += 3;
            start = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&s[start..]);
    if out == s {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(out)
    }
}

/// Whether `s` ends with `%` or `%` and one hex digit.
fn ends_in_partial_escape(s: &str) -> bool {
    match s.as_bytes() {
        [.., b'%'] => true,
        [.., b'%', digit] => digit.is_ascii_hexdigit(),
        _ => false,
    }
}

/// Percent-decodes `s` for name matching (lossy for non-UTF-8 bytes).
fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if let Some(value) = escape_at(&bytes[i..]) {
            out.push(value);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
#[path = "canon_tests.rs"]
mod tests;
