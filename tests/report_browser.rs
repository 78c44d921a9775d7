//! The report in a real browser: headless Chromium (Debian's `chromium`, installed by
//! scripts/test.sh) loads it from file://, runs its script without console errors, and
//! takes a screenshot that is not blank.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::report::crawl_and_report;

const CHROMIUM: &str = "/usr/bin/chromium";

/// What headless Chromium printed for `page` with `mode` (`--dump-dom`, `--screenshot=…`).
struct Browsed {
    stdout: String,
    stderr: String,
}

fn chromium(page: &Path, mode: &str) -> Browsed {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: scripts/test.sh installs it (apt-get install chromium)"
    );
    let profile = tempfile::tempdir().expect("a profile directory");
    let out = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1200,2000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(mode)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {out:?}");
    Browsed {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Lines of Chromium's log about the page's console or a failed load.
fn complaints(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught") || l.contains("net::ERR"))
        .collect()
}

/// How many different pixels (up to `cap`) an 8-bit PNG has.
fn colours(png: &[u8], cap: usize) -> usize {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "a PNG signature");
    let (mut pos, mut width, mut bpp, mut idat) = (8, 0usize, 0usize, Vec::new());
    while pos + 8 <= png.len() {
        let len = u32::from_be_bytes(png[pos..pos + 4].try_into().expect("4 bytes")) as usize;
        let kind = &png[pos + 4..pos + 8];
        let data = &png[pos + 8..pos + 8 + len];
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(data[..4].try_into().expect("4 bytes")) as usize;
                assert_eq!(data[8], 8, "bit depth 8");
                bpp = match data[9] {
                    0 => 1,
                    2 => 3,
                    4 => 2,
                    6 => 4,
                    other => panic!("colour type {other}"),
                };
                assert_eq!(data[12], 0, "not interlaced");
            }
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        pos += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .expect("the image data inflates");
    let stride = width * bpp;
    let mut prev = vec![0u8; stride];
    let mut seen = std::collections::HashSet::new();
    for row in raw.chunks(stride + 1) {
        let (filter, data) = (row[0], &row[1..]);
        let mut cur = vec![0u8; stride];
        for i in 0..stride {
            let a = if i >= bpp { cur[i - bpp] } else { 0 };
            let (b, c) = (prev[i], if i >= bpp { prev[i - bpp] } else { 0 });
            let predictor = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                other => panic!("filter {other}"),
            };
            cur[i] = data[i].wrapping_add(predictor);
        }
        for px in cur.chunks(bpp) {
            seen.insert(px.to_vec());
            if seen.len() >= cap {
                return cap;
            }
        }
        prev = cur;
    }
    seen.len()
}

fn report_file(dir: &Path) -> PathBuf {
    crawl_and_report(dir);
    dir.join("report.html")
        .canonicalize()
        .expect("an absolute path")
}

#[test]
fn chromium_runs_the_report_without_console_errors_and_draws_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let page = report_file(dir.path());

    // The script ran (it marks the body and counts the clusters) and logged nothing.
    let dom = chromium(&page, "--dump-dom");
    assert!(dom.stdout.contains("data-ready=\"1\""), "{}", dom.stdout);
    assert!(
        dom.stdout.contains(" clusters listed</span>"),
        "{}",
        dom.stdout
    );
    assert_eq!(complaints(&dom.stderr), Vec::<&str>::new());

    // A screenshot: present, not trivially small, more than a few colours.
    let shot = dir.path().join("report.png");
    let taken = chromium(&page, &format!("--screenshot={}", shot.display()));
    assert_eq!(complaints(&taken.stderr), Vec::<&str>::new());
    let png = std::fs::read(&shot).expect("the screenshot");
    assert!(png.len() > 20_000, "{} bytes", png.len());
    assert_eq!(colours(&png, 16), 16, "the screenshot is (nearly) blank");
}

#[test]
fn the_console_check_sees_script_errors() {
    // The check above would pass vacuously if Chromium logged nothing: a page with an error
    // must be caught by it.
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("bad.html");
    std::fs::write(&page, "<!doctype html><p>x</p><script>nope();</script>").expect("write");
    let dom = chromium(&page, "--dump-dom");
    let found = complaints(&dom.stderr);
    assert!(
        found.iter().any(|l| l.contains("Uncaught ReferenceError")),
        "{}",
        dom.stderr
    );
}

#[test]
fn the_blank_check_sees_a_blank_page() {
    // Likewise the screenshot check: an empty white page has one colour.
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("blank.html");
    std::fs::write(&page, "<!doctype html><body style=\"background:#fff\">").expect("write");
    let shot = dir.path().join("blank.png");
    chromium(&page, &format!("--screenshot={}", shot.display()));
    let png = std::fs::read(&shot).expect("the screenshot");
    assert_eq!(colours(&png, 16), 1);
}
