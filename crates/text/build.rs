//! Decompresses jieba's dictionary and IDF table (`data/*.txt.gz`) into `OUT_DIR`, so that the
//! crate embeds them as text: a process that meets Han text no longer inflates 4–6 MB first
//! (tens of milliseconds, a few percent of a short crawl with `--content`). Both are written
//! sorted by their words' bytes (the IDF table as `jieba-idf.sorted.txt`, one line per word,
//! the last of a word's lines winning as in a map), with where each line starts: they are
//! searched by bisection over their lines, with no map built at run time.

use std::io::Read;
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    for name in ["jieba-dict.txt", "jieba-idf.txt"] {
        let source = format!("data/{name}.gz");
        println!("cargo:rerun-if-changed={source}");
        let mut text = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&source)?).read_to_string(&mut text)?;
        let stem = name.trim_end_matches(".txt");
        if name == "jieba-idf.txt" {
            // `word value` lines sorted by word, each word once (the last line of a word wins).
            let mut lines: std::collections::BTreeMap<&str, &str> = Default::default();
            for line in text.lines() {
                let mut fields = line.split_whitespace();
                if let (Some(word), Some(value)) = (fields.next(), fields.next()) {
                    lines.insert(word, value);
                }
            }
            let sorted: String = lines.iter().map(|(w, v)| format!("{w} {v}\n")).collect();
            write_sorted(&out, &format!("{stem}.sorted"), &sorted)?;
        } else {
            // The dictionary's copy is sorted already.
            write_sorted(&out, stem, &text)?;
        }
    }
    Ok(())
}

/// Writes `text` (sorted lines) as `NAME.txt` and where each of its lines starts
/// (little-endian u32s) as `NAME.starts`.
fn write_sorted(out: &std::path::Path, name: &str, text: &str) -> std::io::Result<()> {
    let mut starts = Vec::with_capacity(4 * 360_000);
    let mut at = 0u32;
    for line in text.split_inclusive('\n') {
        starts.extend_from_slice(&at.to_le_bytes());
        at += u32::try_from(line.len()).map_err(std::io::Error::other)?;
    }
    std::fs::write(out.join(format!("{name}.starts")), starts)?;
    std::fs::write(out.join(format!("{name}.txt")), text)
}
