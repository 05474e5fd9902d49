//! Decoding reads its input in large blocks: at most one read system call
//! per 64 KiB of input plus a small constant, counted with strace on the
//! input's file descriptor (strace is part of the machine image the tests
//! run on; the test fails without it). Two reads per record, as a reader
//! without a buffer makes, would be 2,090 for the shared 172,700-byte
//! perf.data.

mod common;

use std::path::Path;
use std::process::Command;

use common::{reference_dir, reference_records};
use testkit::synth::write_perf_data;

/// Reads per input beyond one per 64 KiB: the format check, the header, the
/// feature table and the four feature sections of a normal-mode file, the
/// attribute table and ids, and the read that sees the end.
const CONSTANT: usize = 12;

/// (read calls, bytes read) on the descriptor of `input` while
/// `eventheader ARGS` decodes it.
fn reads_of(input: &Path, args: &[&str]) -> (usize, u64) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("strace.log");
    let out = Command::new("strace")
        .args(["-f", "-e", "trace=openat,read,pread64,readv,preadv", "-o"])
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_eventheader"))
        .args(args)
        .output()
        .expect("strace is needed (part of the machine image; scripts/install-deps.sh)");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(&log).unwrap();
    let quoted = format!("\"{}\"", input.display());
    let mut fd = None;
    let (mut calls, mut bytes) = (0, 0);
    for line in log.lines() {
        // "PID openat(AT_FDCWD, "PATH", O_RDONLY|O_CLOEXEC) = FD"
        if line.contains("openat(") && line.contains(&quoted) {
            fd = line
                .rsplit("= ")
                .next()
                .and_then(|s| s.trim().parse::<i32>().ok());
            continue;
        }
        let Some(fd) = fd else { continue };
        for call in ["read(", "pread64(", "readv(", "preadv("] {
            if let Some(rest) = line.split_once(call).map(|(_, r)| r) {
                if rest.starts_with(&format!("{fd},")) {
                    calls += 1;
                    bytes += line
                        .rsplit("= ")
                        .next()
                        .and_then(|s| s.trim().parse::<u64>().ok())
                        .unwrap_or(0);
                }
            }
        }
    }
    assert!(
        fd.is_some(),
        "strace saw no open of {}:\n{log:.3000}",
        input.display()
    );
    (calls, bytes)
}

fn check(input: &Path, args: &[&str]) {
    let size = std::fs::metadata(input).unwrap().len();
    let (calls, bytes) = reads_of(input, args);
    let bound = (size as usize).div_ceil(64 << 10) + CONSTANT;
    eprintln!(
        "{args:?}: {calls} reads, {bytes} bytes, of {} ({size} bytes; bound {bound})",
        input.display()
    );
    // Nothing read twice, except the first bytes (the format check, then
    // the header).
    assert!(
        bytes <= size + 128,
        "{}: read {bytes} bytes of {size}",
        input.display()
    );
    assert!(
        calls <= bound,
        "{}: {calls} reads for {size} bytes (bound {bound})",
        input.display()
    );
}

#[test]
fn perf_data_is_read_in_large_blocks() {
    let dir = reference_dir();
    for name in ["perf.data", "pipe.data", "EventHeaderInterceptorLE64.dat"] {
        let path = dir.join(name);
        check(
            &path,
            &["decode", "-o", "/dev/null", path.to_str().unwrap()],
        );
    }
    // 100,000 events (about 10 MB), both orders.
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("big.data");
    write_perf_data(&big, &reference_records(), 100_000, true);
    for order in ["time", "file"] {
        check(
            &big,
            &[
                "decode",
                "--jsonl",
                "--order",
                order,
                "-o",
                "/dev/null",
                big.to_str().unwrap(),
            ],
        );
    }
}
