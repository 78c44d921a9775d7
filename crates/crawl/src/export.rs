//! `silhouette export --redis URL --crawl NAME --output OUT.jsonl`: every record of a shared
//! crawl, once. Run again on the same file, it appends only the records the file does not
//! have (a cut-off last line is removed first): an export can be resumed, or repeated while
//! the crawl goes on.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::error::{Context, Result, refuse};
use silhouette_redis::SharedCrawl;

/// The URLs of the complete lines of `path`'s file (cutting off a partial last line).
fn exported(file: &mut std::fs::File, path: &Path) -> Result<HashSet<String>> {
    let mut text = Vec::new();
    file.read_to_end(&mut text)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    file.set_len(keep as u64)
        .with_context(|| format!("cannot repair {}", path.display()))?;
    file.seek(SeekFrom::Start(keep as u64))
        .with_context(|| format!("cannot seek in {}", path.display()))?;
    let mut urls = HashSet::new();
    for (n, line) in text[..keep].split(|&b| b == b'\n').enumerate() {
        if line.is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_slice(line).with_context(|| {
            format!(
                "{} line {}: not a record of this crawl",
                path.display(),
                n + 1
            )
        })?;
        let url = value.get("url").and_then(|u| u.as_str()).with_context(|| {
            format!("{} line {}: a record without a url", path.display(), n + 1)
        })?;
        urls.insert(url.to_owned());
    }
    Ok(urls)
}

/// Appends to `output` the records it does not have yet. Returns (written now, there before).
pub fn run(url: &str, crawl: &str, output: &Path) -> Result<(u64, u64)> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    rt.block_on(async {
        let mut shared = SharedCrawl::attach(url, crawl).await?;
        let params = shared.params().await?;
        if params.is_empty() {
            refuse!("there is no shared crawl {crawl:?} at {url}");
        }
        super::export_replay::write_params(output, &params)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(output)
            .with_context(|| format!("cannot open {}", output.display()))?;
        let mut done = exported(&mut file, output)?;
        let before = done.len() as u64;
        let mut out = BufWriter::new(file);
        let mut written = 0;
        for host in shared.hosts().await? {
            let mut cursor = 0;
            loop {
                let (next, records) = shared.records(&host, cursor).await?;
                for json in records {
                    let value: serde_json::Value = serde_json::from_str(&json)
                        .with_context(|| format!("a record of {host} is not JSON"))?;
                    let Some(url) = value.get("url").and_then(|u| u.as_str()) else {
                        continue;
                    };
                    if done.insert(url.to_owned()) {
                        writeln!(out, "{json}")
                            .with_context(|| format!("cannot write to {}", output.display()))?;
                        written += 1;
                    }
                }
                if next == 0 {
                    break;
                }
                cursor = next;
            }
            out.flush()
                .with_context(|| format!("cannot write to {}", output.display()))?;
        }
        Ok((written, before))
    })
}
