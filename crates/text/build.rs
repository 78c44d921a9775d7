//! Decompresses jieba's dictionary and IDF table (`data/*.txt.gz`) into `OUT_DIR`, so that the
//! crate embeds them as text: a process that meets Han text no longer inflates 4–6 MB first
//! (tens of milliseconds, a few percent of a short crawl with `--content`). For the dictionary,
//! also where each of its lines starts.

use std::io::Read;
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    for name in ["jieba-dict.txt", "jieba-idf.txt"] {
        let source = format!("data/{name}.gz");
        println!("cargo:rerun-if-changed={source}");
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&source)?).read_to_string(&mut text)?;
        if name == "jieba-dict.txt" {
            // Where each line starts (little-endian u32s): the dictionary is searched by
            // bisection over its lines without first finding them at run time.
            let mut starts = Vec::with_capacity(4 * 360_000);
            let mut at = 0u32;
            for line in text.split_inclusive('\n') {
                starts.extend_from_slice(&at.to_le_bytes());
                at += u32::try_from(line.len()).map_err(std::io::Error::other)?;
            }
            std::fs::write(out.join("jieba-dict.starts"), starts)?;
        }
        std::fs::write(out.join(name), text)?;
    }
    Ok(())
}
