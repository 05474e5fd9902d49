//! Shared helpers for the integration tests that build and run C/C++
//! programs against the library: locating the built library, compiling with
//! each available compiler, running in capture mode, and reading capture
//! files (ours and the reference's).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `include/` of the repository.
pub fn include_dir() -> PathBuf {
    root().join("include")
}

/// The directory holding the library cargo built for this test run. The
/// test binary is `target/<profile>/deps/NAME`; `cargo test` puts the
/// freshly built cdylib beside it in `deps/` (only `cargo build` copies it up
/// to `target/<profile>/`, where it may be stale), so look there first.
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("test binary dir");
    let found = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .find(|dir| dir.join("libeventheader_tracepoint.so").exists())
        .unwrap_or_else(|| {
            panic!(
                "libeventheader_tracepoint.so not found near {}",
                exe.display()
            )
        })
        .to_path_buf();
    found
}

/// `../shared/testdata/reference/` beside the repository.
pub fn reference_dir() -> PathBuf {
    root().join("../shared/testdata/reference")
}

/// A C and C++ compiler pair.
#[derive(Clone, Copy, Debug)]
pub struct Toolchain {
    pub cc: &'static str,
    pub cxx: &'static str,
}

fn available(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Whether an optional capability of the machine is there. When it is not,
/// the test fails if the environment variable `require` is set (as
/// `scripts/test.sh` sets them all), and otherwise prints one line saying
/// what is skipped and returns false.
pub fn optional(have: bool, require: &str, what: &str) -> bool {
    if !have {
        assert!(
            std::env::var_os(require).is_none(),
            "{require} is set but {what} is not available"
        );
        eprintln!("SKIPPED: {what} is not available (set {require}=1 to fail instead)");
    }
    have
}

/// gcc always; clang too when installed (CI installs it). Set
/// `REQUIRE_CLANG=1` to make a missing clang an error instead of a skip.
pub fn toolchains() -> Vec<Toolchain> {
    let mut out = vec![Toolchain {
        cc: "gcc",
        cxx: "g++",
    }];
    if optional(
        available("clang") && available("clang++"),
        "REQUIRE_CLANG",
        "clang/clang++ (testing with gcc only)",
    ) {
        out.push(Toolchain {
            cc: "clang",
            cxx: "clang++",
        });
    }
    out
}

/// Warning flags every test program is built with.
pub const STRICT: &[&str] = &["-Wall", "-Wextra", "-Werror"];

/// Compiles and links `sources` into `out` with `compiler`, against
/// `include/` and the shared library (with an rpath). Panics with the
/// compiler's output on failure.
pub fn build(compiler: &str, std: &str, sources: &[PathBuf], out: &Path, extra: &[&str]) {
    let lib = lib_dir();
    let mut cmd = Command::new(compiler);
    cmd.arg(format!("-std={std}"))
        .args(STRICT)
        .arg("-g")
        .arg("-I")
        .arg(include_dir())
        .args(extra)
        .args(sources)
        .arg("-o")
        .arg(out)
        .arg("-L")
        .arg(&lib)
        // DT_RPATH, not RUNPATH: it outranks the LD_LIBRARY_PATH cargo sets for
        // tests, which may name a stale copy of the library in target/<profile>/.
        .arg(format!("-Wl,--disable-new-dtags,-rpath,{}", lib.display()))
        .arg("-leventheader_tracepoint")
        .args(["-lpthread", "-ldl"]);
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("running {compiler}: {e}"));
    assert!(
        output.status.success(),
        "{compiler} -std={std} failed for {sources:?}:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The path of a source file in `c-tests/`.
pub fn c_test(path: &str) -> PathBuf {
    root().join("c-tests").join(path)
}

/// Runs `exe` with TRACEPOINT_CAPTURE_FILE=`capture` and `args`; panics
/// unless it exits 0. Returns its output.
pub fn run_capture(exe: &Path, capture: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.args(args).env("TRACEPOINT_CAPTURE_FILE", capture);
    checked_output(cmd, exe, args)
}

/// Runs `exe` with `args` and no TRACEPOINT_CAPTURE_FILE in its environment;
/// panics unless it exits 0. Returns its output.
pub fn run_plain(exe: &Path, args: &[&str]) -> Output {
    let mut cmd = Command::new(exe);
    cmd.args(args).env_remove("TRACEPOINT_CAPTURE_FILE");
    checked_output(cmd, exe, args)
}

fn checked_output(mut cmd: Command, exe: &Path, args: &[&str]) -> Output {
    let output = cmd
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()));
    assert!(
        output.status.success(),
        "{} {args:?} failed ({}):\nstdout:\n{}\nstderr:\n{}",
        exe.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// One record of a capture file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tracepoint name, without the NUL.
    pub name: String,
    /// The event bytes (eventheader, extensions, payload).
    pub event: Vec<u8>,
}

/// Parses a capture file's bytes; panics with the offset of the first
/// malformed record.
pub fn parse_capture(bytes: &[u8]) -> Vec<Record> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        assert!(
            bytes.len() - pos >= 4,
            "truncated record size at offset {pos}"
        );
        let size = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap()) as usize;
        assert!(
            size > 4 && pos + size <= bytes.len(),
            "bad record size {size} at offset {pos} (file {} bytes)",
            bytes.len()
        );
        let body = &bytes[pos + 4..pos + size];
        let nul = body
            .iter()
            .position(|&b| b == 0)
            .unwrap_or_else(|| panic!("record at offset {pos} has no NUL-terminated name"));
        let name = std::str::from_utf8(&body[..nul])
            .unwrap_or_else(|_| panic!("record at offset {pos}: name is not UTF-8"))
            .to_string();
        out.push(Record {
            name,
            event: body[nul + 1..].to_vec(),
        });
        pos += size;
    }
    out
}

/// Reads and parses a capture file.
pub fn read_capture(path: &Path) -> Vec<Record> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    parse_capture(&bytes)
}

/// The reference implementation's records
/// (`EventHeaderInterceptorLE64.dat`, 374 events).
pub fn reference_records() -> Vec<Record> {
    read_capture(&reference_dir().join("EventHeaderInterceptorLE64.dat"))
}

/// The event name ("Provider:Event" style is the decoder's; here just the
/// name) from an EventHeader event's metadata extension, if it has one.
pub fn event_name(event: &[u8]) -> Option<String> {
    if event.len() < 8 || event[0] & 0x04 == 0 {
        return None;
    }
    let mut pos = 8;
    loop {
        let size = u16::from_le_bytes(event.get(pos..pos + 2)?.try_into().ok()?) as usize;
        let kind = u16::from_le_bytes(event.get(pos + 2..pos + 4)?.try_into().ok()?);
        let data = event.get(pos + 4..pos + 4 + size)?;
        if kind & 0x7fff == 1 {
            let nul = data.iter().position(|&b| b == 0)?;
            let full = std::str::from_utf8(&data[..nul]).ok()?;
            return Some(full.split(';').next().unwrap_or(full).to_string());
        }
        if kind & 0x8000 == 0 {
            return None;
        }
        pos += 4 + size;
    }
}

/// A fresh temporary directory for one test.
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}
