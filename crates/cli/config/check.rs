//! The checks every resolver shares: a value in range, or an error that names the key, the
//! value and what is allowed.

use anyhow::{Result, bail};

/// `value` as a `T` when it is within `min..=max`; otherwise `KEY = VALUE: must be a whole
/// number from MIN to MAX`.
pub fn range<T: TryFrom<i64>>(key: &str, value: i64, min: i64, max: i64) -> Result<T> {
    if value < min || value > max {
        bail!("{key} = {value}: must be a whole number from {min} to {max}");
    }
    T::try_from(value).map_err(|_| anyhow::anyhow!("{key} = {value}: out of range"))
}

#[cfg(test)]
mod tests {
    use super::range;

    #[test]
    fn ranges_name_key_value_and_bounds() {
        assert_eq!(range::<u32>("k", 3, 0, 8).expect("in range"), 3);
        let e = range::<u32>("crawl.max-depth", -1, 0, 9).expect_err("out of range");
        assert_eq!(
            e.to_string(),
            "crawl.max-depth = -1: must be a whole number from 0 to 9"
        );
    }
}
