//! The texts of the tokenizer benchmarks: the first 2 MB of the Chinese Debian Reference
//! (`debian-reference-zh-cn`'s plain-text edition) and of the Python 3.11 documentation's
//! reStructuredText sources (`python3.11-doc`).

use std::io::Read;

const CAP: usize = 2 << 20;

pub fn chinese() -> String {
    let path = "/usr/share/debian-reference/debian-reference.zh-cn.txt.gz";
    let file = std::fs::File::open(path).expect("debian-reference-zh-cn is installed");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("UTF-8 text");
    cut(text)
}

pub fn english() -> String {
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(
        "/usr/share/doc/python3.11-doc/html/_sources",
    )];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("python3.11-doc is installed")
            .flatten()
        {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "txt") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut text = String::new();
    for f in files {
        text.push_str(&std::fs::read_to_string(f).unwrap_or_default());
        if text.len() >= CAP {
            break;
        }
    }
    cut(text)
}

fn cut(mut text: String) -> String {
    if text.len() > CAP {
        let mut end = CAP;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}
