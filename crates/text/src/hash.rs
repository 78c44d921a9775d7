//! Feature hashes: FNV-1 (64 and 128 bits) and SipHash-1-3 128.

use std::fmt;
use std::hash::Hasher;
use std::str::FromStr;

use siphasher::sip128::{Hasher128, SipHasher13};

use crate::TextError;

/// The hash of a feature's UTF-8 bytes.
///
/// | name | 64 bits | 128 bits |
/// |---|---|---|
/// | `fnv1` | FNV-1 64 (ALGORITHM.md §1; mfonda's) | FNV-1 128 (offset `6c62272e07bb014262b821756295c58d`, prime 2^88 + 0x13b) |
/// | `sip13` | the low 64 bits of the 128-bit value | SipHash-1-3 128 with key 0 (the `siphasher` crate) |
///
/// FNV-1 xors each byte in *after* the last multiplication, so the final byte of a feature only
/// reaches its low 8 bits: `phrase` and `phrass` differ in 2 bits. SipHash-1-3 mixes every
/// input bit into every output bit, which a 128-bit simhash needs (its high bits would otherwise
/// barely move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum FeatureHash {
    /// FNV-1, multiply then xor.
    Fnv1,
    /// SipHash-1-3, 128 bits, key 0.
    #[default]
    Sip13,
}

const FNV128_OFFSET: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
const FNV128_PRIME: u128 = (1 << 88) | 0x13b;

impl FeatureHash {
    /// The 64-bit hash of `bytes`.
    #[must_use]
    pub fn hash64(self, bytes: &[u8]) -> u64 {
        match self {
            Self::Fnv1 => silhouette_simhash::fnv1_64(bytes),
            #[allow(
                clippy::cast_possible_truncation,
                reason = "the low 64 bits, by definition"
            )]
            Self::Sip13 => sip13_low64(bytes),
        }
    }

    /// The 128-bit hash of `bytes`.
    ///
    /// ```
    /// use silhouette_text::FeatureHash;
    /// assert_eq!(FeatureHash::Fnv1.hash128(b""), 0x6c62272e07bb014262b821756295c58d);
    /// assert_eq!(FeatureHash::Fnv1.hash128(b"a"), 0xd228cb69101a8caf78912b704e4a141e);
    /// assert_eq!(FeatureHash::Sip13.hash128(b"a") as u64, FeatureHash::Sip13.hash64(b"a"));
    /// ```
    #[must_use]
    pub fn hash128(self, bytes: &[u8]) -> u128 {
        match self {
            Self::Fnv1 => bytes.iter().fold(FNV128_OFFSET, |h, &b| {
                h.wrapping_mul(FNV128_PRIME) ^ u128::from(b)
            }),
            Self::Sip13 => {
                let mut h = SipHasher13::new();
                h.write(bytes);
                h.finish128().as_u128()
            }
        }
    }

    /// The name `FromStr` reads and `params()` records.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Fnv1 => "fnv1",
            Self::Sip13 => "sip13",
        }
    }
}

/// The low 64 bits of SipHash-1-3 128 with key 0 (`h1` of the `siphasher` crate's
/// `finish128`), without computing the high half (three of the six finalisation rounds) and
/// without the streaming hasher's buffer: one pass over `msg`. A property test checks it
/// against `siphasher`.
fn sip13_low64(msg: &[u8]) -> u64 {
    #[inline(always)]
    const fn round(v: &mut [u64; 4]) {
        v[0] = v[0].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(13) ^ v[0];
        v[0] = v[0].rotate_left(32);
        v[2] = v[2].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(16) ^ v[2];
        v[0] = v[0].wrapping_add(v[3]);
        v[3] = v[3].rotate_left(21) ^ v[0];
        v[2] = v[2].wrapping_add(v[1]);
        v[1] = v[1].rotate_left(17) ^ v[2];
        v[2] = v[2].rotate_left(32);
    }
    // Key 0; `v1` holds the 128-bit variant's 0xee.
    let mut v = [
        0x736f_6d65_7073_6575,
        0x646f_7261_6e64_6f83,
        0x6c79_6765_6e65_7261,
        0x7465_6462_7974_6573,
    ];
    let mut chunks = msg.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let m = u64::from_le_bytes(word);
        v[3] ^= m;
        round(&mut v);
        v[0] ^= m;
    }
    let mut tail = [0; 8];
    let rest = chunks.remainder();
    tail[..rest.len()].copy_from_slice(rest);
    let b = ((msg.len() as u64 & 0xff) << 56) | u64::from_le_bytes(tail);
    v[3] ^= b;
    round(&mut v);
    v[0] ^= b;
    v[2] ^= 0xee;
    round(&mut v);
    round(&mut v);
    round(&mut v);
    v[0] ^ v[1] ^ v[2] ^ v[3]
}

impl fmt::Display for FeatureHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FeatureHash {
    type Err = TextError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Self::Fnv1, Self::Sip13]
            .into_iter()
            .find(|h| h.name() == s)
            .ok_or_else(|| TextError::config("hash", s, "one of fnv1, sip13"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(hash: FeatureHash, input: &str, expected: u128) {
        assert_eq!(
            hash.hash128(input.as_bytes()),
            expected,
            "{hash} of {input:?}"
        );
    }

    #[test]
    fn reference_values() {
        // FNV-1 128 of "" and "a" are the published vectors; "foobar" checked with Python.
        check(
            FeatureHash::Fnv1,
            "",
            0x6c62_272e_07bb_0142_62b8_2175_6295_c58d,
        );
        check(
            FeatureHash::Fnv1,
            "a",
            0xd228_cb69_101a_8caf_7891_2b70_4e4a_141e,
        );
        check(
            FeatureHash::Fnv1,
            "foobar",
            0x7896_bfea_9c3c_64bf_6dc5_8353_d2c2_93aa,
        );
        assert_eq!(FeatureHash::Fnv1.hash64(b"a"), 0xaf63_bd4c_8601_b7be);
        // SipHash-1-3 is pinned: stored fingerprints depend on it.
        let h = FeatureHash::Sip13.hash128(b"simhash");
        assert_eq!(FeatureHash::Sip13.hash128(b"simhash"), h);
        assert_ne!(h >> 64, 0);
        assert_eq!(FeatureHash::Sip13.hash64(b"simhash"), h as u64);
    }

    proptest::proptest! {
        #[test]
        fn sip13_low_half_is_siphashers(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..40)) {
            let mut h = SipHasher13::new();
            h.write(&bytes);
            proptest::prop_assert_eq!(sip13_low64(&bytes), h.finish128().as_u128() as u64);
        }
    }

    #[test]
    fn names_round_trip() {
        for h in [FeatureHash::Fnv1, FeatureHash::Sip13] {
            assert_eq!(h.to_string().parse::<FeatureHash>(), Ok(h));
        }
        assert!("md5".parse::<FeatureHash>().is_err());
    }
}
