//! Helpers shared by the CLI's integration tests: where the binary and the
//! shared reference data are, running the binary, and writing capture files.
//! perf.data files are written by testkit (`testkit::synth`), JSON with
//! ordered, possibly repeated members is read by testkit (`testkit::json`).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

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

/// `../shared/testdata/reference` beside the repository; the tests fail (not
/// skip) without it.
pub fn reference_dir() -> PathBuf {
    let dir = testkit::reference_dir();
    assert!(
        dir.join("perf.data").is_file(),
        "the shared reference data is missing: expected {} (the repository's ../shared/testdata/reference)",
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
