//! Turning the PATH arguments and `--files-from` lists into a list of pages.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// One page to fingerprint, named as the user wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
    /// A page to fetch (`fingerprint URL`): `crate::web_page`, not [`read`](Self::read).
    Url(url::Url),
}

impl Input {
    /// The name printed in the output: the path as given, or `-`.
    pub fn name(&self) -> String {
        match self {
            Self::Stdin => "-".to_owned(),
            Self::File(p) => p.display().to_string(),
            Self::Url(u) => u.to_string(),
        }
    }

    /// The page's bytes.
    pub fn read(&self) -> std::io::Result<Vec<u8>> {
        match self {
            Self::Stdin => {
                let mut buf = Vec::new();
                std::io::stdin().lock().read_to_end(&mut buf)?;
                Ok(buf)
            }
            Self::File(p) => std::fs::read(p),
            Self::Url(_) => Err(std::io::Error::other("a URL is fetched, not read")),
        }
    }
}

/// Where a page's bytes show it is not text: the offset of a NUL byte in its first 8 KiB
/// (git's test). Pages with a UTF-16 byte-order mark are text with NULs in them.
pub fn binary_at(bytes: &[u8]) -> Option<usize> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return None;
    }
    bytes.iter().take(8192).position(|&b| b == 0)
}

/// The warning for a page that is not text, if it is not.
pub fn binary_warning(name: &str, bytes: &[u8]) -> Option<String> {
    binary_at(bytes).map(|at| {
        format!(
            "warning: {name}: not text (a NUL byte at offset {at}): this is not an HTML page, its fingerprint means nothing"
        )
    })
}

fn is_html(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
}

/// Expands one argument: `-`, an `http://` or `https://` URL, a file (taken whatever its
/// name), or a directory (its `*.html`/`*.htm` files, recursively, sorted; symbolic links to
/// directories are not followed, so a link loop cannot trap the walk). A missing path is
/// kept, to be reported when it is read.
pub fn expand(arg: &Path, out: &mut Vec<Input>, warnings: &mut Vec<String>) {
    if let Some(url) = crate::web_page::url_of(arg) {
        out.push(Input::Url(url));
        return;
    }
    expand_matching(arg, is_html, out, warnings);
}

/// As [`expand`], with `accept` choosing the files taken from directories.
pub fn expand_matching(
    arg: &Path,
    accept: fn(&Path) -> bool,
    out: &mut Vec<Input>,
    warnings: &mut Vec<String>,
) {
    if arg.as_os_str() == "-" {
        out.push(Input::Stdin);
        return;
    }
    if !arg.is_dir() {
        out.push(Input::File(arg.to_path_buf()));
        return;
    }
    let mut stack = vec![arg.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                warnings.push(format!("{}: {e}", dir.display()));
                continue;
            }
        };
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => dirs.push(path),
                Ok(t) if t.is_symlink() && path.is_dir() => {}
                Ok(_) if accept(&path) => files.push(path),
                _ => {}
            }
        }
        files.sort();
        dirs.sort();
        out.extend(files.into_iter().map(Input::File));
        // Reverse, so the stack pops them in order.
        stack.extend(dirs.into_iter().rev());
    }
}

/// Reads a `--files-from` list: one path or URL per line; blank lines are skipped; a
/// trailing CR is dropped.
pub fn read_list(list: &Path) -> Result<Vec<Input>> {
    let text = if list.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .lock()
            .read_to_string(&mut s)
            .context("cannot read the path list from standard input")?;
        s
    } else {
        std::fs::read_to_string(list)
            .with_context(|| format!("cannot read the path list {}", list.display()))?
    };
    Ok(text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.is_empty())
        .map(|l| {
            let path = PathBuf::from(l);
            crate::web_page::url_of(&path).map_or(Input::File(path), Input::Url)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::binary_at;

    #[test]
    fn binary_pages() {
        for (bytes, expected) in [
            (&b"<p>text</p>"[..], None),
            (b"", None),
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", Some(8)),
            (b"\xff\xfe<\0p\0>\0", None),
            (b"\xfe\xff\0<\0p", None),
        ] {
            assert_eq!(binary_at(bytes), expected, "{bytes:?}");
        }
        let mut late = vec![b'x'; 9000];
        late.push(0);
        assert_eq!(binary_at(&late), None);
    }
}
