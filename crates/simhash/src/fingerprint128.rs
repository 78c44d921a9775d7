//! The 128-bit fingerprint value: formatting, parsing and Hamming distance.

use std::fmt;
use std::str::FromStr;

use crate::ParseFingerprintError;
use crate::fingerprint::check_hex;

/// A 128-bit simhash. Bit `i` is `(fp >> i) & 1`; it prints as 32 lower-case hex digits.
///
/// ```
/// use silhouette_simhash::Fingerprint128;
/// let a: Fingerprint128 = "0000000020302202800d8e90e45cc488".parse().unwrap();
/// let b = Fingerprint128::new(0x2034_2200_801d_8ece_a45c_c9c8);
/// assert_eq!(a.distance(b), 13);
/// assert!(a.is_near(b, 13) && !a.is_near(b, 12));
/// assert_eq!(b.to_string(), "0000000020342200801d8ecea45cc9c8");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Fingerprint128(u128);

impl Fingerprint128 {
    /// Wraps a raw 128-bit value.
    #[must_use]
    pub const fn new(bits: u128) -> Self {
        Self(bits)
    }

    /// The raw 128-bit value.
    #[must_use]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Hamming distance: the number of bits in which the two fingerprints differ (0..=128).
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

impl fmt::Display for Fingerprint128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

impl fmt::Debug for Fingerprint128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint128({:032x})", self.0)
    }
}

impl From<u128> for Fingerprint128 {
    fn from(bits: u128) -> Self {
        Self(bits)
    }
}

impl From<Fingerprint128> for u128 {
    fn from(fp: Fingerprint128) -> Self {
        fp.0
    }
}

impl FromStr for Fingerprint128 {
    type Err = ParseFingerprintError;

    /// Parses 32 hex digits (either case), as [`Display`](fmt::Display) prints them.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        check_hex(s, 32)?;
        u128::from_str_radix(s, 16)
            .map(Self)
            .map_err(|_| ParseFingerprintError::NotHex {
                input: s.to_owned(),
                digits: 32,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, expected: Result<u128, &str>) {
        let got = input
            .parse::<Fingerprint128>()
            .map(Fingerprint128::bits)
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
        check(&"0".repeat(32), Ok(0));
        check(&"f".repeat(32), Ok(u128::MAX));
        check(
            "000000000000000023F8FF3CC59A946B",
            Ok(0x23f8_ff3c_c59a_946b),
        );
        check("8c3a5f7e9ecb3f35", Err("32 hex digits, got 16 characters"));
        check(&format!("+{}", "1".repeat(31)), Err("non-hex"));
        check("", Err("got 0 characters"));
    }

    #[test]
    fn display_round_trips() {
        for bits in [0, 1, u128::from(u64::MAX) << 3, u128::MAX] {
            let fp = Fingerprint128::new(bits);
            assert_eq!(fp.to_string().parse::<Fingerprint128>(), Ok(fp));
            assert_eq!(fp.to_string().len(), 32);
        }
    }
}
