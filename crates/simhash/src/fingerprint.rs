//! The 64-bit fingerprint value: formatting, parsing and Hamming distance.

use std::fmt;
use std::str::FromStr;

/// A 64-bit simhash. Bit `i` is `(fp >> i) & 1`; it prints as 16 lower-case hex digits.
///
/// ```
/// use silhouette_simhash::Fingerprint;
/// let a: Fingerprint = "8c3a5f7e9ecb3f35".parse().unwrap();
/// let b = Fingerprint::new(0x8c3a_5f7e_9ecb_3f21);
/// assert_eq!(a.distance(b), 2);
/// assert!(a.is_near(b, 2) && !a.is_near(b, 1));
/// assert_eq!(b.to_string(), "8c3a5f7e9ecb3f21");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Fingerprint(u64);

impl Fingerprint {
    /// Wraps a raw 64-bit value.
    #[must_use]
    pub const fn new(bits: u64) -> Self {
        Self(bits)
    }

    /// The raw 64-bit value.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Hamming distance: the number of bits in which the two fingerprints differ (0..=64).
    #[must_use]
    pub const fn distance(self, other: Self) -> u32 {
        (self.0 ^ other.0).count_ones()
    }

    /// Whether the two lie within `k` bits of each other; a distance of exactly `k` counts.
    #[must_use]
    pub const fn is_near(self, other: Self, k: u32) -> bool {
        self.distance(other) <= k
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({:016x})", self.0)
    }
}

impl From<u64> for Fingerprint {
    fn from(bits: u64) -> Self {
        Self(bits)
    }
}

impl From<Fingerprint> for u64 {
    fn from(fp: Fingerprint) -> Self {
        fp.0
    }
}

/// Why a string is not a fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseFingerprintError {
    /// Not exactly 16 (or, for a [`Fingerprint128`](crate::Fingerprint128), 32) characters.
    #[error("a fingerprint is {digits} hex digits, got {len} characters in {input:?}")]
    Length {
        /// The rejected input.
        input: String,
        /// Its length in characters.
        len: usize,
        /// The number of hex digits expected (16 or 32).
        digits: usize,
    },
    /// A character that is not a hex digit.
    #[error("a fingerprint is {digits} hex digits, {input:?} has a non-hex character")]
    NotHex {
        /// The rejected input.
        input: String,
        /// The number of hex digits expected (16 or 32).
        digits: usize,
    },
}

impl FromStr for Fingerprint {
    type Err = ParseFingerprintError;

    /// Parses 16 hex digits (either case), as [`Display`](fmt::Display) prints them.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        check_hex(s, 16)?;
        u64::from_str_radix(s, 16)
            .map(Self)
            .map_err(|_| ParseFingerprintError::NotHex {
                input: s.to_owned(),
                digits: 16,
            })
    }
}

/// Checks that `s` is exactly `digits` hex digits (either case).
pub(crate) fn check_hex(s: &str, digits: usize) -> Result<(), ParseFingerprintError> {
    let len = s.chars().count();
    if len != digits {
        return Err(ParseFingerprintError::Length {
            input: s.to_owned(),
            len,
            digits,
        });
    }
    if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(ParseFingerprintError::NotHex {
            input: s.to_owned(),
            digits,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Result<u64, &str>) {
        let got = input
            .parse::<Fingerprint>()
            .map(Fingerprint::bits)
            .map_err(|e| e.to_string());
        match expected {
            Ok(bits) => assert_eq!(got, Ok(bits), "{input:?}"),
            Err(fragment) => {
                let err = got.expect_err(input);
                assert!(err.contains(fragment), "{input:?}: {err}");
            }
        }
    }

    #[test]
    fn parsing() {
        check("0000000000000000", Ok(0));
        check("ffffffffffffffff", Ok(u64::MAX));
        check("F123317ED83FA3C7", Ok(0xf123_317e_d83f_a3c7));
        check("f123317ed83fa3c", Err("got 15 characters"));
        check("+123317ed83fa3c7", Err("non-hex"));
        check("f123317ed83fa3cg", Err("non-hex"));
        check("", Err("got 0 characters"));
    }

    #[test]
    fn display_round_trips() {
        for bits in [0, 1, 0xf123_317e_d83f_a3c7, u64::MAX] {
            let fp = Fingerprint::new(bits);
            assert_eq!(fp.to_string().parse::<Fingerprint>(), Ok(fp));
            assert_eq!(fp.to_string().len(), 16);
        }
    }
}
