//! [`Words`]: a text's words in one buffer, without one allocation per word.

/// The words of a text, in order, stored end to end in one `String` (what
/// [`Tokenizer::words`](crate::Tokenizer::words) returns): the same words as
/// [`Tokenizer::tokenize`](crate::Tokenizer::tokenize), for two allocations in all instead of one
/// per word.
///
/// ```
/// use silhouette_text::Tokenizer;
/// let w = Tokenizer::Auto.words("Crawlers 抓取网页");
/// assert_eq!(w.len(), 3);
/// assert_eq!(w.get(2), Some("网页"));
/// assert_eq!(w.iter().collect::<Vec<_>>(), Tokenizer::Auto.tokenize("Crawlers 抓取网页"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Words {
    buf: String,
    ends: Vec<usize>,
}

impl Words {
    /// Room for the words of a text of `bytes` bytes (words are at most as long as the text
    /// after NFKC, which rarely grows it).
    pub(crate) fn with_capacity(bytes: usize) -> Self {
        Self {
            buf: String::with_capacity(bytes),
            ends: Vec::with_capacity(bytes / 4),
        }
    }

    /// Appends a word.
    pub(crate) fn push(&mut self, word: &str) {
        self.buf.push_str(word);
        self.ends.push(self.buf.len());
    }

    /// The number of words.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no word.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`-th word.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.buf.get(start..end)
    }

    /// The words, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.ends.len()).map(|i| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] };
            self.buf.get(start..self.ends[i]).unwrap_or_default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_get_iter() {
        let mut w = Words::with_capacity(0);
        assert!(w.is_empty() && w.get(0).is_none() && w.iter().next().is_none());
        for word in ["a", "", "中文", "bc"] {
            w.push(word);
        }
        assert_eq!(w.len(), 4);
        assert_eq!(w.iter().collect::<Vec<_>>(), ["a", "", "中文", "bc"]);
        assert_eq!(
            (w.get(0), w.get(2), w.get(3), w.get(4)),
            (Some("a"), Some("中文"), Some("bc"), None)
        );
    }
}
