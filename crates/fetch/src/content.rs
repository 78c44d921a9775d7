//! Content-Type interpretation: media type, charset, "is this HTML".

/// What the `Content-Type` header says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ContentType {
    pub(crate) raw: Option<String>,
    pub(crate) media_type: Option<String>,
    pub(crate) charset: Option<String>,
}

impl ContentType {
    /// Parses a raw header value (`text/html; charset="UTF-8"`).
    pub(crate) fn parse(raw: Option<&str>) -> Self {
        let Some(raw) = raw else {
            return Self::default();
        };
        let mut parts = raw.split(';');
        let media_type = parts
            .next()
            .map(|m| m.trim().to_ascii_lowercase())
            .filter(|m| !m.is_empty());
        let charset = parts.find_map(|param| {
            let (name, value) = param.split_once('=')?;
            if !name.trim().eq_ignore_ascii_case("charset") {
                return None;
            }
            let value = value.trim().trim_matches(|c| c == '"' || c == '\'').trim();
            (!value.is_empty()).then(|| value.to_ascii_lowercase())
        });
        Self {
            raw: Some(raw.to_owned()),
            media_type,
            charset,
        }
    }

    /// `Some(true)` for HTML/XHTML, `Some(false)` for anything else, `None`
    /// when there is no media type (the body must be sniffed).
    pub(crate) fn is_html(&self) -> Option<bool> {
        self.media_type
            .as_deref()
            .map(|m| m == "text/html" || m == "application/xhtml+xml")
    }
}

/// Sniffs an untyped body: HTML if, after whitespace and a BOM, it starts
/// with a doctype, `<html`, `<head`, `<body` or a comment (WHATWG-style).
pub fn sniff_html(body: &[u8]) -> bool {
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let start = body
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(body.len());
    let head: Vec<u8> = body[start..]
        .iter()
        .take(16)
        .map(u8::to_ascii_lowercase)
        .collect();
    [
        &b"<!doctype html"[..],
        b"<html",
        b"<head",
        b"<body",
        b"<!--",
    ]
    .iter()
    .any(|p| head.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_content_type() {
        let ct = ContentType::parse(Some("Text/HTML; Charset=\"ISO-8859-1\""));
        assert_eq!(ct.media_type.as_deref(), Some("text/html"));
        assert_eq!(ct.charset.as_deref(), Some("iso-8859-1"));
        assert_eq!(ct.is_html(), Some(true));
        let xhtml = ContentType::parse(Some("application/xhtml+xml"));
        assert_eq!(xhtml.is_html(), Some(true));
        assert_eq!(xhtml.charset, None);
        assert_eq!(ContentType::parse(Some("image/png")).is_html(), Some(false));
        assert_eq!(ContentType::parse(None).is_html(), None);
        assert_eq!(ContentType::parse(Some(";charset=")).is_html(), None);
    }

    #[test]
    fn sniffs() {
        assert!(sniff_html(b"\xEF\xBB\xBF  <!DOCTYPE html><p>"));
        assert!(sniff_html(b"<HTML>"));
        assert!(!sniff_html(b"%PDF-1.4"));
        assert!(!sniff_html(b""));
    }
}
