//! Named fields in their original order, and the record types.

use std::fmt;

/// Header fields in the order they were written, repeated names allowed; names compare
/// case-insensitively.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields(Vec<(String, String)>);

impl Fields {
    /// No fields.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a field (even if one of that name exists).
    pub fn push(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.push((name.into(), value.into()));
    }

    /// The value of the first field called `name` (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every value of the fields called `name`, in order.
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> {
        self.0
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether a field called `name` is present.
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// All fields, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no fields.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The `WARC-Type` of a record; types this crate does not know are kept as [`Other`](Self::Other).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordType {
    /// `warcinfo`: describes the file and the crawl.
    Warcinfo,
    /// `response`: a full response (for HTTP, status line, headers and body).
    Response,
    /// `resource`: a resource without protocol envelope.
    Resource,
    /// `request`: the request that was sent.
    Request,
    /// `metadata`: data about another record.
    Metadata,
    /// `revisit`: a response already archived, abbreviated.
    Revisit,
    /// `conversion`: a converted form of another record.
    Conversion,
    /// `continuation`: the rest of a segmented record.
    Continuation,
    /// Any other value, as written.
    Other(String),
}

impl RecordType {
    /// Parses a `WARC-Type` value (case-insensitive).
    pub fn parse(value: &str) -> Self {
        match value.trim().to_ascii_lowercase().as_str() {
            "warcinfo" => Self::Warcinfo,
            "response" => Self::Response,
            "resource" => Self::Resource,
            "request" => Self::Request,
            "metadata" => Self::Metadata,
            "revisit" => Self::Revisit,
            "conversion" => Self::Conversion,
            "continuation" => Self::Continuation,
            _ => Self::Other(value.trim().to_owned()),
        }
    }

    /// The value as written in `WARC-Type`.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Warcinfo => "warcinfo",
            Self::Response => "response",
            Self::Resource => "resource",
            Self::Request => "request",
            Self::Metadata => "metadata",
            Self::Revisit => "revisit",
            Self::Conversion => "conversion",
            Self::Continuation => "continuation",
            Self::Other(s) => s,
        }
    }
}

impl fmt::Display for RecordType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A URI field value without the `<…>` that WARC/1.0 writers such as wget put around it.
pub fn strip_angle_brackets(value: &str) -> &str {
    let v = value.trim();
    v.strip_prefix('<')
        .and_then(|v| v.strip_suffix('>'))
        .unwrap_or(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_keep_order_and_repeats() {
        let mut f = Fields::new();
        f.push("WARC-Type", "response");
        f.push("X", "1");
        f.push("x", "2");
        assert_eq!(f.get("warc-type"), Some("response"));
        assert_eq!(f.get_all("X").collect::<Vec<_>>(), ["1", "2"]);
        assert_eq!(
            f.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            ["WARC-Type", "X", "x"]
        );
        assert_eq!((f.len(), f.is_empty(), f.contains("y")), (3, false, false));
    }

    #[test]
    fn record_types_round_trip() {
        for name in [
            "warcinfo", "response", "resource", "request", "metadata", "revisit",
        ] {
            assert_eq!(RecordType::parse(name).as_str(), name);
        }
        assert_eq!(RecordType::parse("Response"), RecordType::Response);
        assert_eq!(RecordType::parse("odd").to_string(), "odd");
    }

    #[test]
    fn angle_brackets() {
        for (input, expected) in [
            ("<http://a/>", "http://a/"),
            ("http://a/", "http://a/"),
            ("<x", "<x"),
        ] {
            assert_eq!(strip_angle_brackets(input), expected);
        }
    }
}
