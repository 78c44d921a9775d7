//! FNV-1 64, the feature hash of every fingerprint silhouette stores.

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1 64 of `bytes`: multiply by the prime, *then* xor the byte.
///
/// This is FNV-1, not FNV-1a (which the `fnv` crate's `FnvHasher` computes), and it hashes the
/// bytes directly: `str`'s `Hash` impl would append a `0xff` byte.
///
/// ```
/// assert_eq!(silhouette_simhash::fnv1_64(b"a"), 0xaf63_bd4c_8601_b7be);
/// ```
#[must_use]
pub const fn fnv1_64(bytes: &[u8]) -> u64 {
    let mut h = OFFSET;
    let mut i = 0;
    while i < bytes.len() {
        h = h.wrapping_mul(PRIME);
        h ^= bytes[i] as u64;
        i += 1;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::fnv1_64;

    fn check(input: &str, expected: u64) {
        assert_eq!(fnv1_64(input.as_bytes()), expected, "FNV-1 64 of {input:?}");
    }

    #[test]
    fn reference_vectors() {
        check("", 0xcbf2_9ce4_8422_2325);
        check("a", 0xaf63_bd4c_8601_b7be);
        check("foobar", 0x340d_8765_a4dd_a9c2);
        check("html", 0xf120_317e_d83f_a3d6);
    }
}
