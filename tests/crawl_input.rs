//! Bad input to `silhouette crawl`: seeds files, config keys, a state made with other
//! settings, a full disk.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{run_in, scratch};
use crate::crawl_support::{check_consistent, config, crawl};
use crate::sites::{Server, dedup_site, tree_site};

fn site() -> Server {
    Server::start(|port| move |target: &str| dedup_site(port, target))
}

/// The one `error:` line of a failed run.
fn one_error_line(stderr: &str) -> &str {
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].starts_with("error: "), "{stderr}");
    lines[0]
}

#[test]
fn unreadable_seeds_file_is_a_usage_error() {
    let dir = scratch(&[("sub/x", b"")]);
    let toml = config("", "max-depth = 0");
    let r = crawl(dir.path(), &toml, &["missing.txt"]);
    assert_eq!(r.code, 2);
    let line = one_error_line(&r.stderr);
    assert!(
        line.starts_with(
            "error: cannot read the seeds file missing.txt (a seed URL starts with http:// or https://): No such file"
        ),
        "{line}"
    );
    let r = crawl(dir.path(), &toml, &["sub"]);
    assert_eq!(r.code, 2);
    assert!(
        one_error_line(&r.stderr).starts_with("error: cannot read the seeds file sub (a seed URL"),
        "{}",
        r.stderr
    );
    assert!(!dir.path().join("state").exists());
}

#[test]
fn malformed_seeds_are_reported_with_line_numbers_and_the_rest_crawled() {
    let server = site();
    let list = format!(
        "# seeds\nnot a url\nftp://x/\n\nhttp://\n{}   # the good one\nhttps://\n{}\n",
        server.url("/a/1"),
        server.url("/p/2"),
    );
    let dir = scratch(&[("seeds.txt", list.as_bytes())]);
    let r = crawl(dir.path(), &config("", "max-depth = 0"), &["seeds.txt"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let errors: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(errors.len(), 4, "{}", r.stderr);
    for (line, seed) in [
        (2, "not a url"),
        (3, "ftp://x/"),
        (5, "http://"),
        (7, "https://"),
    ] {
        assert!(
            errors
                .iter()
                .any(|e| e.contains(&format!("seeds.txt:{line}")) && e.contains(seed)),
            "seeds.txt:{line} ({seed}) not reported: {}",
            r.stderr
        );
    }
    let left = check_consistent(dir.path());
    let urls: BTreeSet<&str> = left.rows.iter().map(|r| r.url.as_str()).collect();
    let (a, p) = (server.url("/a/1"), server.url("/p/2"));
    assert_eq!(urls, BTreeSet::from([a.as_str(), p.as_str()]));
    assert_eq!(left.decision(&a), Some("kept"));

    // Nothing valid at all: a usage error.
    let dir = scratch(&[("bad.txt", b"not a url\n")]);
    let r = crawl(dir.path(), &config("", ""), &["bad.txt"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("bad.txt:1"), "{}", r.stderr);
    assert!(
        r.stderr
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("error: no valid seed")),
        "{}",
        r.stderr
    );
}

#[test]
fn unknown_config_keys_stop_the_crawl_before_it_starts() {
    let server = site();
    let dir = scratch(&[]);
    for (toml, key, line) in [
        ("[crawl]\nconcurency = 8\n", "concurency", 2),
        (
            "[fetch]\nrequest-interval-ms = 0\nper-host = 4\n",
            "per-host",
            3,
        ),
        ("[crawling]\nscope = \"any\"\n", "crawling", 1),
    ] {
        let r = crawl(dir.path(), toml, &[&server.url("/")]);
        assert_eq!(r.code, 2, "{toml}");
        let err = one_error_line(&r.stderr);
        assert!(
            err.starts_with(&format!("error: c.toml:{line}: unknown field `{key}`")),
            "{err}"
        );
    }
    assert_eq!(server.hits(), []);
    assert!(!dir.path().join("state").exists());
}

#[test]
fn a_state_from_other_settings_is_refused() {
    let server = site();
    let dir = scratch(&[]);
    let toml = config("", "max-depth = 1");
    let seed = server.url("/");
    let r = crawl(dir.path(), &toml, &["--decay", "0.45", &seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let before = check_consistent(dir.path());
    let hits = server.hits().len();

    let r = crawl(dir.path(), &toml, &["--decay", "0.6", &seed]);
    assert_eq!(r.code, 2);
    let err = one_error_line(&r.stderr);
    assert!(
        err.contains("decay=0.45") && err.contains("decay=0.6"),
        "{err}"
    );
    let r = crawl(dir.path(), &toml, &["--threshold", "3", &seed]);
    assert_eq!(r.code, 2);
    let err = one_error_line(&r.stderr);
    assert!(
        err.contains("dedup.threshold = \"8\" there, \"3\" in this run"),
        "{err}"
    );
    // Nothing fetched, nothing changed.
    assert_eq!(server.hits().len(), hits);
    assert_eq!(check_consistent(dir.path()).rows, before.rows);
    // The same settings resume (nothing left to do).
    let r = crawl(dir.path(), &toml, &["--decay", "0.45", &seed]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(check_consistent(dir.path()).rows, before.rows);
}

/// A tmpfs mounted for the test, unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    fn tmpfs(dir: &Path, size: &str) -> Option<Self> {
        std::fs::create_dir_all(dir).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .is_ok_and(|o| o.status.success());
        ok.then(|| Self(dir.to_owned()))
    }

    fn resize(&self, size: &str) {
        let out = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .output()
            .expect("mount runs");
        assert!(out.status.success(), "{out:?}");
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

const DISK_PAGES: u32 = 1200;

/// The crawl of the full-disk tests, run by `sh` (to set a file-size limit when asked).
fn disk_crawl(
    dir: &Path,
    state: &Path,
    seed: &str,
    file_blocks: Option<u32>,
) -> crate::common::Run {
    let toml = config("on-duplicate = \"keep\"", "");
    std::fs::write(dir.join("c.toml"), toml).expect("config");
    // SIGXFSZ ignored: a write over the limit fails with EFBIG instead of killing.
    let limit = file_blocks.map_or(String::new(), |n| format!("trap '' XFSZ; ulimit -f {n}; "));
    let script = format!("{limit}exec \"$0\" --config c.toml crawl --state \"$1\" \"$2\"");
    let out = Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_silhouette")])
        .arg(state)
        .arg(seed)
        .current_dir(dir)
        .env_remove("SILHOUETTE_CONFIG")
        .output()
        .expect("sh runs");
    crate::common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// After a full-disk failure: a clear error, a readable state; then, with room again, the
/// crawl resumes and ends with every URL recorded once and the JSONL agreeing.
fn check_full_disk(
    dir: &Path,
    state: &Path,
    fill: impl FnOnce() -> crate::common::Run,
    then: impl FnOnce() -> crate::common::Run,
) {
    let r = fill();
    assert_eq!(r.code, 2, "{}", r.stderr);
    let err = r
        .stderr
        .lines()
        .find(|l| l.starts_with("error: "))
        .unwrap_or_else(|| panic!("no error line: {}", r.stderr));
    assert!(
        err.contains("cannot")
            && (err.contains("full")
                || err.contains("large")
                || err.contains("I/O")
                || err.contains("No space left")),
        "{err}"
    );
    // What was committed before the disk filled up is there and readable.
    let stats = run_in(dir, &["stats", &state.display().to_string()], b"");
    assert_eq!(stats.code, 0, "{}", stats.stderr);
    let recorded: u32 = stats
        .stdout
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", stats.stdout));
    // How much was committed before the disk filled depends on how many pages the first
    // 200 ms batch held (machine load); what matters is that it is readable and incomplete.
    assert!(
        recorded < DISK_PAGES,
        "{recorded} URLs recorded before the disk filled up"
    );
    let r = then();
    assert_eq!(r.code, 0, "{}", r.stderr);
    // check_consistent reads DIR/state.
    if state != dir.join("state") {
        std::os::unix::fs::symlink(state, dir.join("state")).expect("symlink");
    }
    let left = check_consistent(dir);
    let pages = left.recorded().len();
    assert!(pages as u32 > DISK_PAGES, "{pages}");
    assert!(left.rows.iter().all(|r| r.done));
    assert_eq!(left.records.len(), pages);
}

#[test]
fn a_full_disk_stops_the_crawl_cleanly_and_it_resumes() {
    let server = Server::start(|_| |target: &str| tree_site(DISK_PAGES, target));
    let seed = server.url("/");

    // A file-size limit (RLIMIT_FSIZE, 512 blocks of the shell's unit: 256 or 512 KiB):
    // writes past it fail with EFBIG.
    let dir = scratch(&[]);
    let state = dir.path().join("state");
    check_full_disk(
        dir.path(),
        &state,
        || disk_crawl(dir.path(), &state, &seed, Some(512)),
        || disk_crawl(dir.path(), &state, &seed, None),
    );

    // A real full file system, if this machine lets the test mount a small tmpfs.
    let dir = scratch(&[]);
    let Some(mount) = Mount::tmpfs(&dir.path().join("fs"), "512k") else {
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "note: cannot mount a tmpfs here; the full file system case is skipped"
        );
        return;
    };
    let state = mount.0.join("state");
    check_full_disk(
        dir.path(),
        &state,
        || disk_crawl(dir.path(), &state, &seed, None),
        || {
            mount.resize("64m");
            disk_crawl(dir.path(), &state, &seed, None)
        },
    );
}
