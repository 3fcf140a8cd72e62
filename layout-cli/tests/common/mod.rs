//! Running the `layout` binary from the integration tests.

use std::process::Command;

/// What one run of the binary printed and returned.
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `layout ARGS...`.
pub fn layout(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_layout"))
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        status: out.status.code().expect("exited"),
        stdout: String::from_utf8(out.stdout).expect("utf-8"),
        stderr: String::from_utf8(out.stderr).expect("utf-8"),
    }
}
