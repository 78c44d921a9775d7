//! `[output]`: the WARC files a crawl writes (`crawl --warc DIR`).

use std::path::PathBuf;

use anyhow::{Result, bail};
use silhouette_crawl::{DEFAULT_WARC_MAX_BYTES, WarcConfig, WarcRecords};

use super::check::Invalid;
use super::options::{Options, OutputOptions, key};

/// The WARC settings of `options` (`None` without `warc-dir`); errors name key, value and
/// what is allowed.
pub fn resolve(options: &Options) -> Result<Option<WarcConfig>> {
    let default = OutputOptions::default();
    let o = options.output.as_ref().unwrap_or(&default);
    let records = match o.warc_records.as_deref() {
        None | Some("kept") => WarcRecords::Kept,
        Some("all") => WarcRecords::All,
        Some(other) => bail!("output.warc-records = {other:?}: must be \"kept\" or \"all\""),
    };
    let max_bytes = match o.warc_max_bytes {
        None => DEFAULT_WARC_MAX_BYTES,
        Some(n) if n >= 1024 => n.unsigned_abs(),
        Some(n) => {
            bail!("output.warc-max-bytes = {n}: must be a whole number of at least 1024")
        }
    };
    let Some(dir) = o.warc_dir.as_deref() else {
        return Ok(None);
    };
    if dir.trim().is_empty() {
        let problem = "must be a directory path";
        return Err(Invalid::new(key::WARC_DIR, format!("{dir:?}"), problem).into());
    }
    Ok(Some(WarcConfig {
        dir: PathBuf::from(dir),
        records,
        max_bytes,
        cdxj: o.warc_cdxj.unwrap_or(false),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(toml_text: &str, expected: std::result::Result<Option<WarcConfig>, &str>) {
        let options: Options = toml::from_str(toml_text).expect("parses");
        match (resolve(&options), expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{toml_text}"),
            (Err(e), Err(want)) => assert_eq!(e.to_string(), want, "{toml_text}"),
            (got, want) => panic!("{toml_text}: got {got:?}, expected {want:?}"),
        }
    }

    #[test]
    fn output_section() {
        let dir = |records, max_bytes, cdxj| {
            Ok(Some(WarcConfig {
                dir: PathBuf::from("w"),
                records,
                max_bytes,
                cdxj,
            }))
        };
        check("", Ok(None));
        check("[output]\nwarc-records = \"all\"", Ok(None));
        check(
            "[output]\nwarc-dir = \"w\"",
            dir(WarcRecords::Kept, DEFAULT_WARC_MAX_BYTES, false),
        );
        check(
            "[output]\nwarc-dir = \"w\"\nwarc-records = \"all\"\nwarc-max-bytes = 2048\nwarc-cdxj = true",
            dir(WarcRecords::All, 2048, true),
        );
        check(
            "[output]\nwarc-dir = \"w\"\nwarc-records = \"some\"",
            Err("output.warc-records = \"some\": must be \"kept\" or \"all\""),
        );
        check(
            "[output]\nwarc-dir = \"w\"\nwarc-max-bytes = 10",
            Err("output.warc-max-bytes = 10: must be a whole number of at least 1024"),
        );
        check(
            "[output]\nwarc-dir = \" \"",
            Err("output.warc-dir = \" \": must be a directory path"),
        );
    }
}
