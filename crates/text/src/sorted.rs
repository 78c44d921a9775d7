//! [`SortedLines`]: a table of `word value` lines sorted by the words' bytes, embedded in the
//! binary with where each line starts, searched by bisection: no map is built at run time, and
//! only the pages of the table a search reads are ever loaded.

/// A table of `word value` lines (one space between), sorted by word bytes, each word once,
/// and the start of each line as little-endian `u32`s (both written by the build script).
pub(crate) struct SortedLines {
    text: &'static str,
    starts: &'static [u8],
}

impl SortedLines {
    pub(crate) const fn new(text: &'static str, starts: &'static [u8]) -> Self {
        Self { text, starts }
    }

    /// The number of lines.
    pub(crate) const fn len(&self) -> usize {
        self.starts.len() / 4
    }

    /// Where line `i` starts.
    fn start(&self, i: usize) -> Option<usize> {
        let b = self.starts.get(4 * i..4 * i + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    /// Line `i`: (word, value).
    pub(crate) fn entry(&self, i: usize) -> Option<(&'static str, &'static str)> {
        let start = self.start(i)?;
        let end = self.start(i + 1).unwrap_or(self.text.len());
        self.text.get(start..end)?.trim_end().split_once(' ')
    }

    /// The first line whose word is not below `word` (`len()` when there is none).
    pub(crate) fn lower_bound(&self, word: &str) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.entry(mid) {
                Some((w, _)) if w < word => lo = mid + 1,
                _ => hi = mid,
            }
        }
        lo
    }

    /// The value of `word`, if the table has it.
    pub(crate) fn get(&self, word: &str) -> Option<&'static str> {
        self.entry(self.lower_bound(word))
            .and_then(|(w, v)| (w == word).then_some(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bisection() {
        let text = "a 1\nab 2\nb 3\n";
        let starts: Vec<u8> = [0u32, 4, 9].iter().flat_map(|s| s.to_le_bytes()).collect();
        let table = SortedLines::new(text, starts.leak());
        assert_eq!(table.len(), 3);
        for (word, bound, value) in [
            ("", 0, None),
            ("a", 0, Some("1")),
            ("aa", 1, None),
            ("ab", 1, Some("2")),
            ("b", 2, Some("3")),
            ("c", 3, None),
        ] {
            assert_eq!(
                (table.lower_bound(word), table.get(word)),
                (bound, value),
                "{word:?}"
            );
        }
        assert_eq!(table.entry(3), None);
    }
}
