//! Helpers shared by the CLI's integration tests: where the binary and the
//! reference data are, running the binary, and writing capture files.
//! perf.data files are written by testkit (`testkit::synth`), JSON with
//! ordered, possibly repeated members is read by testkit (`testkit::json`).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{ChildStdout, Command, Output, Stdio};

/// The `eventheader` binary cargo built for these tests.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_eventheader"))
}

/// Runs `eventheader ARGS` and returns its output.
pub fn run(args: &[&str]) -> Output {
    bin()
        .args(args)
        .output()
        .expect("running the eventheader binary")
}

/// The binary's standard output for `args`, after checking that it
/// succeeded.
pub fn stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?} failed ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// How a run of the binary ended, and its peak memory.
pub struct Usage {
    pub code: i32,
    pub stderr: String,
    /// Maximum resident set size (KiB, from wait4).
    pub max_rss_kib: i64,
}

/// Runs `eventheader ARGS`, hands its standard output to `read` (stderr is
/// collected meanwhile) and reaps it with wait4 for its peak memory.
// The child is reaped with wait4 (for its resource usage), not Child::wait.
#[allow(clippy::zombie_processes)]
pub fn run_measured<T>(args: &[&str], read: impl FnOnce(ChildStdout) -> T) -> (T, Usage) {
    let mut child = bin()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running eventheader");
    let mut stderr = child.stderr.take().unwrap();
    let err = std::thread::spawn(move || {
        let mut err = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut err);
        err
    });
    let value = read(child.stdout.take().unwrap());
    let stderr = err.join().unwrap();
    let mut status = 0;
    // SAFETY: rusage is plain old data (all-zero is valid).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our child's and not yet reaped (std's Child is not
    // waited on); `status` and `usage` are valid for writes.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    assert!(
        libc::WIFEXITED(status),
        "eventheader {args:?} did not exit: status {status:#x}\n{stderr}"
    );
    let usage = Usage {
        code: libc::WEXITSTATUS(status),
        stderr,
        max_rss_kib: usage.ru_maxrss,
    };
    (value, usage)
}

/// [`run_measured`], its standard output discarded: (exit status, usage).
pub fn run_with_usage(args: &[&str]) -> (i32, Usage) {
    let ((), usage) = run_measured(args, |mut out| {
        std::io::copy(&mut out, &mut std::io::sink()).unwrap();
    });
    (usage.code, usage)
}

/// The reference data the repository carries (`tests/data/reference`); the
/// tests fail (not skip) without it.
pub fn reference_dir() -> PathBuf {
    let dir = testkit::reference_dir();
    assert!(
        dir.join("perf.data").is_file(),
        "the reference data is missing: expected {} (tests/data/reference of the repository)",
        dir.display()
    );
    dir
}

/// Writes a capture file record: u32 size, name, NUL, event bytes.
pub fn capture_record(out: &mut Vec<u8>, name: &str, event: &[u8]) {
    let size = (4 + name.len() + 1 + event.len()) as u32;
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out.push(0);
    out.extend_from_slice(event);
}

/// The reference's capture file (374 EventHeader events) as (name, event
/// bytes).
pub fn reference_records() -> Vec<(String, Vec<u8>)> {
    testkit::capture::read(&reference_dir().join("EventHeaderInterceptorLE64.dat"))
        .unwrap()
        .into_iter()
        .map(|r| (r.name, r.event))
        .collect()
}

/// A deterministic pseudo-random sequence (xorshift64*): the same test
/// inputs on every machine.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (0 for 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
