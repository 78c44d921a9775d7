//! Ctrl-C (SIGINT) and SIGTERM: the crawl stops cleanly with exit 130 (143 for SIGTERM),
//! without false errors, the state stays consistent, and running the same command again
//! finishes the crawl.

use std::process::{Command, Stdio};
use std::time::Duration;

use crate::crawl_support::{check_consistent, config};
use crate::sites::{Server, tree_site};

const PAGES: u32 = 400;

fn interrupt(signal: &str, pid: u32) {
    let status = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

#[test]
fn ctrl_c_stops_cleanly_and_the_crawl_resumes() {
    check(&["-INT"], 130);
}

#[test]
fn sigterm_stops_like_ctrl_c() {
    check(&["-TERM"], 143);
}

/// A second Ctrl-C while the crawl stops ends it at once (or finds it stopped already):
/// either way with the first signal's status and a state the same command resumes.
#[test]
fn a_second_ctrl_c_ends_at_once_and_the_crawl_resumes() {
    check(&["-INT", "-INT"], 130);
}

fn check(signals: &[&str], code: i32) {
    let server = Server::start(|_| |target: &str| tree_site(PAGES, target));
    let seed = server.url("/");
    let dir = tempfile::tempdir().expect("tempdir");
    // A per-host interval keeps the crawl going long enough to be interrupted mid-way.
    let toml = config("on-duplicate = \"keep\"", "concurrency = 4")
        .replace("request-interval-ms = 0", "request-interval-ms = 5");
    std::fs::write(dir.path().join("c.toml"), toml).expect("config");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_silhouette"))
            .args(["--config", "c.toml", "crawl", "--state", "state", &seed])
            .current_dir(dir.path())
            .env_remove("SILHOUETTE_CONFIG")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs")
    };

    let child = run();
    // Interrupt once a few dozen pages were served (progress, not time).
    while server.served() < 40 {
        std::thread::sleep(Duration::from_millis(2));
    }
    for signal in signals {
        interrupt(signal, child.id());
    }
    let out = child.wait_with_output().expect("it exits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{stderr}");
    assert!(stderr.contains("stopping:"), "{stderr}");
    assert!(!stderr.contains("error:"), "false errors: {stderr}");
    let at_once = stderr.contains("interrupted again: exiting now");
    assert!(
        at_once || stderr.contains("interrupted: run the same command again to resume"),
        "{stderr}"
    );
    let partial = check_consistent(dir.path());
    let recorded = partial.recorded().len();
    assert!(recorded > 0, "nothing was recorded before the interrupt");
    assert!(
        partial.rows.iter().any(|r| !r.done),
        "the crawl was not interrupted mid-way"
    );

    // The same command again: resumes and finishes.
    let out = run().wait_with_output().expect("it exits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("resuming the crawl"), "{stderr}");
    let done = check_consistent(dir.path());
    assert!(done.rows.iter().all(|r| r.done));
    assert!(done.recorded().len() > recorded);
}
