//! What the end-to-end tests share: starting the real `carc serve`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running `carc serve`, killed (SIGKILL) when dropped.
pub(crate) struct Running {
    child: Child,
    /// `http://127.0.0.1:PORT`
    pub(crate) base: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start `carc serve` on a free port with its games in `db`, and read the address it prints.
pub(crate) fn start(db: &std::path::Path) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(["serve", "--addr", "127.0.0.1:0", "--bot-threads", "2", "--db"])
        .arg(db)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("carc serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url =
        line.split_whitespace().find(|w| w.starts_with("http://")).unwrap_or_else(|| panic!("no address in `{line}`"));
    Running { child, base: url.trim_end_matches('/').to_string() }
}
