//! The checks every resolver shares: a value in range, or an [`Invalid`] error that names the
//! key, the value and what is allowed.

use std::fmt;

use anyhow::Result;

/// A value a key cannot take. It reads `KEY = VALUE: PROBLEM` (`KEY: PROBLEM` without a
/// value), or, once [`named_by`](Self::named_by) the flag that set it, `--FLAG VALUE: PROBLEM`
/// (`--FLAG (KEY): PROBLEM`): the flag is a field, not a rewrite of the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    key: String,
    value: Option<String>,
    problem: String,
    flag: Option<&'static str>,
}

impl Invalid {
    /// `key = value: problem`.
    pub fn new(
        key: impl Into<String>,
        value: impl fmt::Display,
        problem: impl Into<String>,
    ) -> Self {
        Self {
            key: key.into(),
            value: Some(value.to_string()),
            problem: problem.into(),
            flag: None,
        }
    }

    /// A library's error about a setting of `section`: its message reads `NAME = VALUE:
    /// PROBLEM` (the form of every config error of the silhouette crates), which becomes the
    /// key `SECTION.NAME`; any other message is a problem of the section as a whole.
    pub fn setting(section: &str, error: &impl fmt::Display) -> Self {
        let message = error.to_string();
        let parts = message
            .split_once(": ")
            .and_then(|(lhs, problem)| Some((lhs.split_once(" = ")?, problem)));
        match parts {
            Some(((name, value), problem)) if !name.contains(' ') => {
                Self::new(format!("{section}.{name}"), value, problem)
            }
            _ => Self {
                key: section.to_owned(),
                value: None,
                problem: message,
                flag: None,
            },
        }
    }

    /// The key.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The same error, told in terms of `flag`, which set the key.
    #[must_use]
    pub fn named_by(mut self, flag: &'static str) -> Self {
        self.flag = Some(flag);
        self
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (key, problem) = (&self.key, &self.problem);
        match (self.flag, &self.value) {
            (None, Some(value)) => write!(f, "{key} = {value}: {problem}"),
            (None, None) => write!(f, "{key}: {problem}"),
            (Some(flag), Some(value)) => write!(f, "{flag} {value}: {problem}"),
            (Some(flag), None) => write!(f, "{flag} ({key}): {problem}"),
        }
    }
}

impl std::error::Error for Invalid {}

/// `value` as a `T` when it is within `min..=max`; otherwise `KEY = VALUE: must be a whole
/// number from MIN to MAX`.
pub fn range<T: TryFrom<i64>>(key: &str, value: i64, min: i64, max: i64) -> Result<T> {
    if value < min || value > max {
        let problem = format!("must be a whole number from {min} to {max}");
        return Err(Invalid::new(key, value, problem).into());
    }
    T::try_from(value).map_err(|_| Invalid::new(key, value, "out of range").into())
}

#[cfg(test)]
mod tests {
    use super::{Invalid, range};

    #[test]
    fn ranges_name_key_value_and_bounds() {
        assert_eq!(range::<u32>("k", 3, 0, 8).expect("in range"), 3);
        let e = range::<u32>("crawl.max-depth", -1, 0, 9).expect_err("out of range");
        assert_eq!(
            e.to_string(),
            "crawl.max-depth = -1: must be a whole number from 0 to 9"
        );
    }

    #[test]
    fn errors_read_with_their_key_or_their_flag() {
        // (error, as read, as read once named by --flag)
        for (e, plain, flagged) in [
            (
                Invalid::new("crawl.max-pages", -1, "must be a whole number from 0 to 9"),
                "crawl.max-pages = -1: must be a whole number from 0 to 9",
                "--flag -1: must be a whole number from 0 to 9",
            ),
            (
                Invalid::setting("dedup", &"on-duplicate = \"skip\": must be one of \"drop\""),
                "dedup.on-duplicate = \"skip\": must be one of \"drop\"",
                "--flag \"skip\": must be one of \"drop\"",
            ),
            (
                Invalid::setting("crawl", &"something: is wrong"),
                "crawl: something: is wrong",
                "--flag (crawl): something: is wrong",
            ),
        ] {
            assert_eq!(e.to_string(), plain);
            assert_eq!(e.named_by("--flag").to_string(), flagged);
        }
    }
}
