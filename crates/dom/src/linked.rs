//! Class tokens that name a page a link leads to (`linked`, `page-names` in the model's
//! parameters): which of an element's tokens a link spells by its path or query
//! ([`link_token_labels`]), and which tails of a token name the page a link leads to
//! ([`link_name_label`], [`token_tails`]). ALGORITHM.md §3, "Session 40" and "Session 43".

use crate::paths::{
    FNV_OFFSET, MAX_CLASS_TOKENS, MAX_TOKEN_BYTES, Token, class_tokens, fnv1, token_label,
};

/// The class tokens of `class` that [`link_token_labels`] could name (the first
/// [`MAX_CLASS_TOKENS`] in normalised order, those with a `-` after their first byte): each
/// token's [`Token::root_label`] into `labels`, and the label of each of its prefixes that
/// ends before a `-` into `prefixes`.
pub(crate) fn linkable_tokens(class: &str, labels: &mut Vec<u64>, prefixes: &mut Vec<u64>) {
    for token in class_tokens(class).iter().take(MAX_CLASS_TOKENS) {
        let bytes = token.as_bytes();
        if !bytes.iter().skip(1).any(|&b| b == b'-') {
            continue;
        }
        labels.push(token.root_label());
        let mut h = fnv1(FNV_OFFSET, b".");
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'-' && i > 0 {
                prefixes.push(h);
            }
            h = fnv1(h, &[b]);
        }
    }
}

/// The tokens of `tokens` (sorted [`Token::root_label`]s) that the link `href` names,
/// appended to `out` unless already there; `prefixes` (sorted) are their prefixes' labels
/// ([`linkable_tokens`]), which rule out most of a page's links at their first segment.
///
/// A link names every two consecutive segments of its path joined by `-` (`/category/news/`
/// → `category-news`, `/tag/foo` → `tag-foo`), its first segment joined to its last
/// (`/category/parent/child/` → `category-child`), and every query parameter `name=value` as
/// `name-value` (`?tag=foo` → `tag-foo`). Before normalising as a class token, percent-escapes
/// and the ASCII characters a class name drops (all but letters, digits, `-` and `_`) are
/// removed from each segment, as generators do when they write a slug into a class.
pub(crate) fn link_token_labels(href: &str, tokens: &[u64], prefixes: &[u64], out: &mut Vec<u64>) {
    let (path, query) = split_link(href);
    if !path.contains('/') && !query.contains('=') {
        return;
    }
    let path = link_path(path);
    let mut joined = String::new();
    let mut push = |a: &str, b: &str| {
        joined.clear();
        // Most links are ruled out here, without copying their first segment when it is
        // simple. A slug left empty names nothing.
        let prefix = slug_label(a).unwrap_or_else(|| {
            slug_into(a, &mut joined);
            (!joined.is_empty()).then(|| token_label(&joined))
        });
        if prefix.is_none_or(|p| prefixes.binary_search(&p).is_err()) {
            return;
        }
        if joined.is_empty() {
            slug_into(a, &mut joined);
        }
        let first = joined.len();
        joined.push('-');
        slug_into(b, &mut joined);
        let label = token_label(&joined);
        if joined.len() > first + 1 && tokens.binary_search(&label).is_ok() && !out.contains(&label)
        {
            out.push(label);
        }
    };
    let mut segments = path.split('/').filter(|s| !s.is_empty());
    if let Some(first) = segments.next() {
        let (mut previous, mut count) = (first, 1);
        for segment in segments {
            push(previous, segment);
            previous = segment;
            count += 1;
        }
        if count > 2 {
            push(first, previous);
        }
    }
    for param in query.split(['&', ';']) {
        if let Some((name, value)) = param.split_once('=') {
            push(name, value);
        }
    }
}

/// `href` without its fragment, split at its query: `(path, query)`.
fn split_link(href: &str) -> (&str, &str) {
    let href = href.trim_ascii();
    let href = href.split('#').next().unwrap_or("");
    href.split_once('?').unwrap_or((href, ""))
}

/// Where the scheme of link `path` ends, if it has one: the index of the colon after a
/// letter and letters, digits, `+`, `-` or `.` (`https:`, `mailto:`).
fn scheme_end(path: &str) -> Option<usize> {
    let colon = path.find(':')?;
    let scheme = &path.as_bytes()[..colon];
    (scheme.first().is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"+-.".contains(&b)))
    .then_some(colon)
}

/// The path of `path` (a link without its query and fragment): without a scheme and an
/// authority (`scheme://host/…` or `//host/…`).
fn link_path(path: &str) -> &str {
    let authority = match path.strip_prefix("//") {
        Some(rest) => rest,
        None => match scheme_end(path) {
            Some(colon) if path[colon + 1..].starts_with("//") => &path[colon + 3..],
            _ => return path,
        },
    };
    authority.find('/').map_or("", |slash| &authority[slash..])
}

/// The fewest bytes of a page's name, normalised as a class token, that a token's tail is
/// matched against ([`link_name_label`]): shorter names (`code`, `type`, `block`) are words
/// a class uses of its own (a held-out Erlang/OTP module `code` links to itself from its
/// `bold_code` headings).
pub(crate) const MIN_NAME_BYTES: usize = 6;

/// The name of the page that link `href` leads to, as a class token's
/// [`Token::root_label`]: the last segment of its path, without an extension of one to five
/// letters or digits (`../classEigen_1_1RotationBase.html` → `classEigen_1_1RotationBase`,
/// `/category/news/` → `news`), written as a slug ([`slug_into`]) into `buf` and normalised;
/// `None` for a link without such a segment or with a name under [`MIN_NAME_BYTES`].
pub(crate) fn link_name_label(href: &str, buf: &mut String) -> Option<u64> {
    let (path, _) = split_link(href);
    let path = link_path(path);
    // A scheme left (`mailto:`, `javascript:`, `tel:`) leads to no page.
    if scheme_end(path).is_some() {
        return None;
    }
    let segment = path.rsplit('/').find(|s| !s.is_empty())?;
    // A slug is never longer than its segment.
    if segment.len() < MIN_NAME_BYTES {
        return None;
    }
    let name = match segment.rsplit_once('.') {
        Some((stem, ext))
            if !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            stem
        }
        _ => segment,
    };
    buf.clear();
    slug_into(name, buf);
    let token = Token::new(buf);
    (token.len >= MIN_NAME_BYTES && token.as_bytes().iter().any(u8::is_ascii_alphabetic))
        .then(|| token.root_label())
}

/// The tails of class token `token` that could name a page: what follows each `_` or `-`
/// that is neither its first nor its last byte (`pub_methods_classEigen_1_1RotationBase` →
/// `methods_classEigen_1_1RotationBase`, `classEigen_1_1RotationBase`, …), at most the first
/// [`MAX_TAILS`], each pushed to `out` as `(prefix, tail, token)`: the labels
/// ([`Token::root_label`]) of what comes before the tail (its separator included), of the
/// tail and of the whole token.
pub(crate) fn token_tails(token: &str, out: &mut Vec<(u64, u64, u64)>) {
    let bytes = token.as_bytes();
    let mut label = None;
    let mut tails = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if (b == b'_' || b == b'-') && i > 0 && i + 1 < bytes.len() {
            let whole = *label.get_or_insert_with(|| token_label(token));
            out.push((
                token_label(&token[..=i]),
                token_label(&token[i + 1..]),
                whole,
            ));
            tails += 1;
            if tails == MAX_TAILS {
                break;
            }
        }
    }
}

/// The most tails of one class token read by [`token_tails`].
pub(crate) const MAX_TAILS: usize = 8;

/// The [`Token::root_label`] of `segment` as a slug ([`slug_into`]), computed without
/// copying it where that is simple: `Some(None)` for an empty slug, `None` where the segment
/// has a digit, an escape or a non-ASCII character (the caller then copies and normalises).
fn slug_label(segment: &str) -> Option<Option<u64>> {
    let mut h = fnv1(FNV_OFFSET, b".");
    let mut len = 0;
    for &b in segment.as_bytes() {
        if b.is_ascii_digit() || b == b'%' || b >= 0x80 {
            return None;
        }
        if (b.is_ascii_alphabetic() || b == b'-' || b == b'_') && len < MAX_TOKEN_BYTES {
            h = fnv1(h, &[b.to_ascii_lowercase()]);
            len += 1;
        }
    }
    Some((len > 0).then_some(h))
}

/// Appends `segment` to `out` as a generator writes a slug into a class name: without
/// percent-escapes and without the ASCII characters other than letters, digits, `-` and `_`.
fn slug_into(segment: &str, out: &mut String) {
    let bytes = segment.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%'
            && bytes
                .get(i + 1..i + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
        {
            i += 3;
            continue;
        }
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' {
            out.push(char::from(b));
        } else if b >= 0x80 {
            // A whole character: `segment` is a `str`, and `i` is at a character's start.
            let c = segment[i..].chars().next().unwrap_or('\u{fffd}');
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        i += 1;
    }
}
