//! Which encoding the page bytes are in: BOM, then the caller's content-type, then
//! `<meta charset>` in the first 1024 bytes, then UTF-8.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// Where the encoding of a page came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodingSource {
    /// A byte-order mark.
    Bom,
    /// The `charset` of the content type the caller passed (e.g. the HTTP header).
    ContentType,
    /// A `<meta charset>` or `<meta http-equiv=content-type>` in the first 1024 bytes.
    Meta,
    /// Nothing said: UTF-8, invalid sequences replaced.
    Default,
}

/// The encoding of `bytes` and the length of its BOM (0 if none).
pub(crate) fn sniff(
    bytes: &[u8],
    content_type: Option<&str>,
) -> (&'static Encoding, EncodingSource, usize) {
    if let Some((enc, bom)) = Encoding::for_bom(bytes) {
        return (enc, EncodingSource::Bom, bom);
    }
    if let Some(enc) = content_type.and_then(charset_param).and_then(label) {
        return (enc, EncodingSource::ContentType, 0);
    }
    if let Some(enc) = prescan(&bytes[..bytes.len().min(1024)]) {
        return (enc, EncodingSource::Meta, 0);
    }
    (UTF_8, EncodingSource::Default, 0)
}

/// An encoding label, with WHATWG's overrides for labels met in a document.
fn label(name: &[u8]) -> Option<&'static Encoding> {
    let enc = Encoding::for_label(trim(name))?;
    // A page that reached us as bytes and says UTF-16 in ASCII is not UTF-16.
    Some(if enc == UTF_16BE || enc == UTF_16LE {
        UTF_8
    } else if enc == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        enc
    })
}

fn trim(s: &[u8]) -> &[u8] {
    let s = s.trim_ascii();
    let s = s.strip_prefix(b"\"").unwrap_or(s);
    let s = s.strip_suffix(b"\"").unwrap_or(s);
    let s = s.strip_prefix(b"'").unwrap_or(s);
    s.strip_suffix(b"'").unwrap_or(s).trim_ascii()
}

/// The value of `charset=` in a content-type-like string.
fn charset_param(content_type: &str) -> Option<&[u8]> {
    let bytes = content_type.as_bytes();
    let lower = content_type.to_ascii_lowercase();
    let at = lower.find("charset")?;
    let rest = &bytes[at + "charset".len()..];
    let rest = rest.trim_ascii_start().strip_prefix(b"=")?;
    let end = rest.iter().position(|&b| b == b';').unwrap_or(rest.len());
    let value = &rest[..end];
    (!trim(value).is_empty()).then_some(value)
}

/// A simplified WHATWG prescan: the first `<meta>` tag that names a charset.
fn prescan(head: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    while let Some(off) = find_ci(&head[i..], b"<meta") {
        let start = i + off + 5;
        // `<meta` must be followed by whitespace or `/`.
        if !head
            .get(start)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            i = start;
            continue;
        }
        let end = head[start..]
            .iter()
            .position(|&b| b == b'>')
            .map_or(head.len(), |p| start + p);
        if let Some(enc) = meta_charset(&head[start..end]) {
            return Some(enc);
        }
        i = end;
    }
    None
}

fn meta_charset(attrs: &[u8]) -> Option<&'static Encoding> {
    let mut charset = None;
    let mut http_equiv_ct = false;
    let mut content = None;
    for (name, value) in attributes(attrs) {
        if name.eq_ignore_ascii_case(b"charset") {
            charset = charset.or(Some(value));
        } else if name.eq_ignore_ascii_case(b"http-equiv") {
            http_equiv_ct = value.eq_ignore_ascii_case(b"content-type");
        } else if name.eq_ignore_ascii_case(b"content") {
            content = Some(value);
        }
    }
    if let Some(enc) = charset.and_then(label) {
        return Some(enc);
    }
    if http_equiv_ct {
        let content = std::str::from_utf8(content?).ok()?;
        return charset_param(content).and_then(label);
    }
    None
}

/// `name=value` pairs of a tag's attribute text (quoted or not); bare names get `""`.
fn attributes(mut s: &[u8]) -> Vec<(&[u8], &[u8])> {
    let mut out = Vec::new();
    loop {
        s = s.trim_ascii_start();
        while let Some(rest) = s.strip_prefix(b"/") {
            s = rest.trim_ascii_start();
        }
        if s.is_empty() {
            return out;
        }
        let name_end = s
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b'=' || b == b'/')
            .unwrap_or(s.len());
        let name = &s[..name_end.max(1).min(s.len())];
        s = s[name.len()..].trim_ascii_start();
        let Some(rest) = s.strip_prefix(b"=") else {
            out.push((name, &b""[..]));
            continue;
        };
        let rest = rest.trim_ascii_start();
        let (value, after) = match rest.first() {
            Some(&q @ (b'"' | b'\'')) => {
                let body = &rest[1..];
                let end = body.iter().position(|&b| b == q).unwrap_or(body.len());
                (&body[..end], body.get(end + 1..).unwrap_or(&[]))
            }
            _ => {
                let end = rest
                    .iter()
                    .position(u8::is_ascii_whitespace)
                    .unwrap_or(rest.len());
                (&rest[..end], &rest[end..])
            }
        };
        out.push((name, value));
        s = after;
    }
}

fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(bytes: &[u8], content_type: Option<&str>, expected: (&str, EncodingSource)) {
        let (enc, source, _) = sniff(bytes, content_type);
        assert_eq!(
            (enc.name(), source),
            expected,
            "{:?} / {content_type:?}",
            String::from_utf8_lossy(bytes)
        );
    }

    #[test]
    fn sniffing_order() {
        use EncodingSource::*;
        check(
            b"\xef\xbb\xbf<p>",
            Some("text/html; charset=latin1"),
            ("UTF-8", Bom),
        );
        check(b"\xff\xfe<\0p\0>\0", None, ("UTF-16LE", Bom));
        check(b"\xfe\xff\0<\0p\0>", None, ("UTF-16BE", Bom));
        check(
            b"<meta charset=utf-8>",
            Some("text/html; charset=ISO-8859-2"),
            ("ISO-8859-2", ContentType),
        );
        check(
            b"<meta charset=utf-8>",
            Some("text/html; charset=\"koi8-r\""),
            ("KOI8-R", ContentType),
        );
        check(
            b"<meta charset=shift_jis>",
            Some("text/html"),
            ("Shift_JIS", Meta),
        );
        check(
            b"<html><head><META CHARSET='windows-1251'>",
            None,
            ("windows-1251", Meta),
        );
        check(
            b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=euc-jp\">",
            None,
            ("EUC-JP", Meta),
        );
        check(
            b"<meta content=\"text/html; charset=gbk\" http-equiv=content-type>",
            None,
            ("GBK", Meta),
        );
        // content without http-equiv names nothing; a bogus label is skipped.
        check(
            b"<meta content=\"text/html; charset=gbk\">",
            None,
            ("UTF-8", Default),
        );
        check(
            b"<meta charset=bogus><meta charset=latin1>",
            None,
            ("windows-1252", Meta),
        );
        check(b"<meta charset=utf-16le>", None, ("UTF-8", Meta));
        check(b"<metadata charset=gbk>", None, ("UTF-8", Default));
        check(b"", Some("text/html; charset="), ("UTF-8", Default));
        check(b"<p>plain", None, ("UTF-8", Default));
    }

    #[test]
    fn meta_past_1024_bytes_is_not_read() {
        let mut page = vec![b' '; 1100];
        page.extend_from_slice(b"<meta charset=gbk>");
        check(&page, None, ("UTF-8", EncodingSource::Default));
    }
}
