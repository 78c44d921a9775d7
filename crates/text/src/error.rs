//! The crate's error type.

/// Why a configuration, an IDF table or a winnowing setting was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TextError {
    /// A configuration value outside its range, or a name that is not one of the choices.
    #[error("content setting `{key}` = {value:?}: {reason}")]
    Config {
        /// The setting, as `params()` names it (e.g. `shingles`).
        key: &'static str,
        /// The rejected value, as given.
        value: String,
        /// What is allowed.
        reason: String,
    },
    /// A line of an IDF table that is not `word idf` with a finite number.
    #[error("IDF table line {line}: {reason} in {text:?}")]
    IdfLine {
        /// 1-based line number.
        line: usize,
        /// The line (cut to 80 characters).
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An IDF table that could not be read (the reader failed or the bytes are not UTF-8).
    #[error("IDF table unreadable after line {line}: {reason}")]
    IdfRead {
        /// The last line read completely.
        line: usize,
        /// The reader's error.
        reason: String,
    },
}

impl TextError {
    pub(crate) fn config(
        key: &'static str,
        value: impl ToString,
        reason: impl Into<String>,
    ) -> Self {
        Self::Config {
            key,
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}
