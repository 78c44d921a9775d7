//! `[output]`: the WARC files a crawl writes (`crawl --warc DIR`).

use std::path::PathBuf;

use anyhow::{Result, bail};
use serde::Deserialize;

use crate::settings::Options;

/// `[output]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct OutputOptions {
    /// Write the fetched pages as WARC files into this directory.
    pub warc_dir: Option<String>,
    /// `kept` (kept pages, revisits for exact duplicates) or `all` (every fetched page).
    pub warc_records: Option<String>,
    /// A WARC file is closed and the next one started beyond this size.
    pub warc_max_bytes: Option<i64>,
    /// A CDXJ index beside each WARC file.
    pub warc_cdxj: Option<bool>,
}

/// Which fetched pages go to the WARC files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarcRecords {
    /// Kept pages (request + response) and exact duplicates of them (request + revisit).
    Kept,
    /// Every page fetched with its body: near-duplicates as plain responses too.
    All,
}

impl std::fmt::Display for WarcRecords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Kept => "kept",
            Self::All => "all",
        })
    }
}

/// Checked `[output]` WARC settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarcSettings {
    /// Where the files go.
    pub dir: PathBuf,
    /// Which pages.
    pub records: WarcRecords,
    /// Rotation size.
    pub max_bytes: u64,
    /// A CDXJ index beside each file.
    pub cdxj: bool,
}

/// Default `warc-max-bytes`: 1 GB.
pub const DEFAULT_MAX_BYTES: u64 = 1_000_000_000;

impl WarcSettings {
    /// The WARC settings of `options` (`None` without `warc-dir`); errors name key, value
    /// and what is allowed.
    pub fn resolve(options: &Options) -> Result<Option<Self>> {
        let default = OutputOptions::default();
        let o = options.output.as_ref().unwrap_or(&default);
        let records = match o.warc_records.as_deref() {
            None | Some("kept") => WarcRecords::Kept,
            Some("all") => WarcRecords::All,
            Some(other) => bail!("output.warc-records = {other:?}: must be \"kept\" or \"all\""),
        };
        let max_bytes = match o.warc_max_bytes {
            None => DEFAULT_MAX_BYTES,
            Some(n) if n >= 1024 => n.unsigned_abs(),
            Some(n) => {
                bail!("output.warc-max-bytes = {n}: must be a whole number of at least 1024")
            }
        };
        let Some(dir) = o.warc_dir.as_deref() else {
            return Ok(None);
        };
        if dir.trim().is_empty() {
            bail!("output.warc-dir = {dir:?}: must be a directory path");
        }
        Ok(Some(Self {
            dir: PathBuf::from(dir),
            records,
            max_bytes,
            cdxj: o.warc_cdxj.unwrap_or(false),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(toml_text: &str, expected: std::result::Result<Option<WarcSettings>, &str>) {
        let options: Options = toml::from_str(toml_text).expect("parses");
        match (WarcSettings::resolve(&options), expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{toml_text}"),
            (Err(e), Err(want)) => assert_eq!(e.to_string(), want, "{toml_text}"),
            (got, want) => panic!("{toml_text}: got {got:?}, expected {want:?}"),
        }
    }

    #[test]
    fn output_section() {
        let dir = |records, max_bytes, cdxj| {
            Ok(Some(WarcSettings {
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
            dir(WarcRecords::Kept, DEFAULT_MAX_BYTES, false),
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
