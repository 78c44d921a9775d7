//! A throwaway `redis-server` on a free loopback port: `--save ''`, and either no
//! persistence or `appendonly yes` (then it can be restarted on the same port and data).

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running redis-server, killed on drop.
#[derive(Debug)]
pub struct Server {
    child: Child,
    pub port: u16,
    appendonly: bool,
    extra: Vec<String>,
    dir: tempfile::TempDir,
}

/// A free loopback port.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn spawn(port: u16, appendonly: bool, extra: &[String], dir: &Path) -> Child {
    let child = Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
        ])
        .args(["--appendonly", if appendonly { "yes" } else { "no" }])
        .args(extra)
        .arg("--dir")
        .arg(dir)
        .current_dir(dir)
        .stdout(Stdio::null())
        .spawn()
        .expect("redis-server (scripts/test.sh installs it)");
    // Wait until it answers.
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

impl Server {
    /// No persistence.
    pub fn start() -> Self {
        Self::start_with(false, &[])
    }

    /// `appendonly`, and more arguments (e.g. `--cluster-enabled yes`).
    pub fn start_with(appendonly: bool, extra: &[&str]) -> Self {
        let port = free_port();
        let dir = tempfile::tempdir().expect("temp dir");
        let extra: Vec<String> = extra.iter().map(|s| (*s).to_owned()).collect();
        let child = spawn(port, appendonly, &extra, dir.path());
        Self {
            child,
            port,
            appendonly,
            extra,
            dir,
        }
    }

    /// Stops it (SIGTERM: the append-only file is written out) and starts it again on the
    /// same port and data.
    pub fn restart(&mut self) {
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let _ = self.child.wait();
        self.child = spawn(self.port, self.appendonly, &self.extra, self.dir.path());
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
