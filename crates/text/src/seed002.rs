//! The `seed-002` compatibility mode: the Python class of design note 002, bit-exactly.

use silhouette_simhash::{Fingerprint, Fingerprint128};

/// The note's `_string_hash` over `bits` bits (64 or 128): Python's old string hash on Unicode
/// code points, `x = ord(s[0]) << 7`, then per character `x = ((x * 1000003) ^ ord(c)) & mask`,
/// then `x ^= len(s)` (in characters); the empty string hashes to 0.
#[must_use]
pub fn seed002_string_hash(s: &str, bits: u32) -> u128 {
    let mask = if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    let Some(first) = s.chars().next() else {
        return 0;
    };
    let mut x = (u128::from(u32::from(first)) << 7) & mask;
    let mut len: u128 = 0;
    for c in s.chars() {
        x = (x.wrapping_mul(1_000_003) ^ u128::from(u32::from(c))) & mask;
        len += 1;
    }
    x ^ len
}

/// Python's `str.split()`: runs of white space (`str.isspace`, which also counts the
/// separators U+001C..U+001F that Rust's `char::is_whitespace` does not).
pub(crate) fn python_split(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
        .filter(|t| !t.is_empty())
}

/// The note's `Simhash(text.split(), hashbits=bits)`: every token weighs 1, bit `i` is 1 iff the
/// count of tokens with bit `i` set minus the count without is `>= 0`. Returns the raw value
/// (the low `bits` bits).
fn seed002_bits(text: &str, bits: u32) -> u128 {
    let mut v = [0i64; 128];
    for token in python_split(text) {
        let t = seed002_string_hash(token, bits);
        for (i, total) in v.iter_mut().enumerate().take(bits as usize) {
            *total += if (t >> i) & 1 == 1 { 1 } else { -1 };
        }
    }
    v.iter()
        .take(bits as usize)
        .enumerate()
        .filter(|(_, t)| **t >= 0)
        .fold(0, |acc, (i, _)| acc | (1 << i))
}

/// The 128-bit fingerprint of note 002's Python class (ALGORITHM.md §7).
///
/// Its short tokens never reach the high bits, so those are almost always 0: kept for
/// compatibility only.
///
/// ```
/// use silhouette_text::seed002_simhash128;
/// let a = seed002_simhash128("This is a test string for testing");
/// assert_eq!(a.to_string(), "0000000020302202800d8e90e45cc488");
/// assert_eq!(a.distance(seed002_simhash128("This is a string testing 11")), 13);
/// ```
#[must_use]
pub fn seed002_simhash128(text: &str) -> Fingerprint128 {
    Fingerprint128::new(seed002_bits(text, 128))
}

/// The same class with `hashbits=64`.
///
/// ```
/// use silhouette_text::seed002_simhash64;
/// assert_eq!(seed002_simhash64("This is a test string for testing").to_string(), "800d8e90e45cc488");
/// ```
#[must_use]
pub fn seed002_simhash64(text: &str) -> Fingerprint {
    #[allow(
        clippy::cast_possible_truncation,
        reason = "only the low 64 bits are set"
    )]
    Fingerprint::new(seed002_bits(text, 64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, b128: &str, b64: Option<&str>) {
        assert_eq!(seed002_simhash128(text).to_string(), b128, "{text:?}");
        if let Some(b64) = b64 {
            assert_eq!(seed002_simhash64(text).to_string(), b64, "{text:?}");
        }
    }

    #[test]
    fn reference_values() {
        check(
            "This is a test string for testing",
            "0000000020302202800d8e90e45cc488",
            Some("800d8e90e45cc488"),
        );
        check(
            "This is a string testing 11",
            "0000000020342200801d8ecea45cc9c8",
            Some("801d8ecea45cc9c8"),
        );
        check("上海 北京 广州", "000000000000000023f8ff3cc59a946b", None);
        let (a, b) = (
            "This is a test string for testing",
            "This is a string testing 11",
        );
        assert_eq!(seed002_simhash128(a).distance(seed002_simhash128(b)), 13);
        assert_eq!(seed002_simhash64(a).distance(seed002_simhash64(b)), 11);
    }

    #[test]
    fn string_hash_edges() {
        assert_eq!(seed002_string_hash("", 128), 0);
        // One character: ((c << 7) * 1000003 ^ c) ^ 1.
        assert_eq!(
            seed002_string_hash("a", 64),
            (((97u128 << 7) * 1_000_003) ^ 97) ^ 1
        );
        assert_eq!(
            seed002_simhash128("").bits(),
            u128::MAX,
            "no tokens: all ones"
        );
        assert_eq!(
            python_split("a\u{1c}b\u{a0}c  d\n").collect::<Vec<_>>(),
            ["a", "b", "c", "d"]
        );
    }
}
