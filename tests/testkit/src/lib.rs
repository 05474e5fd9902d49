//! testkit: the C/C++ test programs described once and built, run and judged
//! from that description.
//!
//! - [`manifest`]: every test program — sources, standards, compilers,
//!   linkage, host run modes (cargo tests, sanitizers) and VM runs — suite
//!   by suite, each suite's entries in its own folder's `programs.toml`;
//! - [`build`]: compiles a program for a toolchain, standard and flavour
//!   (plain, ASan+UBSan, TSan, valgrind, optimized) against a library
//!   directory;
//! - [`run`]: prepares a run of a build (arguments, environment, capture
//!   file);
//! - [`cross`]: cross mode, the programs built for another architecture
//!   and run under an emulator (`TESTKIT_TARGET`, `TESTKIT_RUN`,
//!   `TESTKIT_LIB_DIR`);
//! - [`capture`]: capture files; [`decode`]: EventHeader events as text for
//!   tests; [`layout`]: plain tracepoint payloads against their declared
//!   fields; [`perf`]: perf.data files (EventHeader and plain tracepoints);
//!   [`synth`]: perf.data recordings of given events, written without a
//!   kernel; [`checks`]: every judge of the VM suite's runs (in
//!   [`checks::cli`]: of the command-line tool's, in [`checks::tpp`]: of
//!   the tracepoint-provider.h programs');
//!   [`tpp`]: what the tracepoint-provider.h programs declare and write;
//! - [`callgrind`]: a run's total instructions under callgrind (the
//!   benchmarks' smoke test, the CLI's cost bounds);
//! - [`json`]: JSON with ordered, possibly repeated members (decoders' output);
//! - [`sanitize`], [`kernel`]: what the `testkit` binary's `sanitize`,
//!   `kernel-plan` and `kernel-judge` do;
//! - [`skips`]: what a test binary skipped ([`optional`]), listed when it
//!   exits.
//!
//! Users: the cargo tests (`c-tests/*/main.rs` and `tests/*.rs`, through
//! `tests/support`), `tests/sanitizers.sh`, `tests/kernel/run.sh` and `guest.sh`,
//! and `benches/c/build.sh`. `cargo run -p testkit -- help` lists the
//! commands.
//!
//! # How to add a test program
//!
//! In the suite's folder (docs/testing.md, "Where each suite lives"): the
//! program's sources, one `[[program]]` entry in the folder's
//! `programs.toml` ([`manifest::Program`]: its sources (C and C++ mixed),
//! include directories beyond `include/`, standards, compilers, linkage,
//! and its runs — host modes by name (arguments, environment, capture file
//! or not; every sanitizer flavour runs them unless the run says why not)
//! and VM runs with how they are judged (self-checking, perf byte identity
//! against capture mode (the tracepoints pre-registered by the guest, or
//! registered only by the program itself), perf counts against the
//! program's expectation file, perf fields judged by a check in [`checks`],
//! or a guest script)), and the judge of each of its runs in the table of
//! the folder's `main.rs` (in a suite of [`trials`]; in the others, a
//! `#[test]` that gets its builds with `support::builds("NAME")` and runs a
//! mode with `build.run("MODE")`); the sanitizer and VM suites pick the new
//! runs up without further changes. A new suite is a folder with those
//! three parts, one [`manifest::SUITES`] entry and one `[[test]]` in
//! Cargo.toml. A new kind of VM check is one function in [`checks`], named
//! in the judges' table of `manifest/load.rs`.

pub mod activity_ids;
pub mod build;
pub mod callgrind;
/// Capture files, read by a crate of their own (std only: the fuzz targets
/// use it too).
pub use capture_file as capture;
pub mod cargo_tests;
pub mod checks;
pub mod cross;
pub mod decode;
pub mod json;
pub mod kernel;
pub mod layout;
pub mod manifest;
pub mod perf;
pub mod pool;
pub mod run;
pub mod sanitize;
pub mod skips;
pub mod synth;
pub mod tpp;
pub mod trace_event;
pub mod trials;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository root.
pub fn repo_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = here.join("../..");
    root.canonicalize().unwrap_or(root)
}

/// `include/` of the repository.
pub fn include_dir() -> PathBuf {
    repo_root().join("include")
}

/// The reference outputs (byte oracles), carried by the repository:
/// `tests/data/reference/` (origin and licence in its README).
pub fn reference_dir() -> PathBuf {
    repo_root().join("tests/data/reference")
}

/// The reference implementation's capture file of its test suite (374
/// events): `EventHeaderInterceptorLE64.dat` in [`reference_dir`].
pub fn reference_capture() -> PathBuf {
    reference_dir().join("EventHeaderInterceptorLE64.dat")
}

/// The command-line tool `eventheader` (`cli/`) of the cargo build the
/// running program belongs to: `cargo build -p testkit -p eventheader-cli`
/// puts it beside the `testkit` binary (`tests/kernel/run.sh` builds both so;
/// the VM suite runs it and judges its recordings with it).
pub fn cli_binary() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("the running program's path: {e}"))?;
    let cli = exe.with_file_name("eventheader");
    if cli.is_file() {
        Ok(cli)
    } else {
        Err(format!(
            "no {} (build it with `cargo build -p testkit -p eventheader-cli`)",
            cli.display()
        ))
    }
}

/// A C and C++ compiler pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Toolchain {
    pub cc: &'static str,
    pub cxx: &'static str,
}

impl Toolchain {
    pub const GCC: Toolchain = Toolchain {
        cc: "gcc",
        cxx: "g++",
    };
    pub const CLANG: Toolchain = Toolchain {
        cc: "clang",
        cxx: "clang++",
    };

    /// The toolchain whose C compiler is `cc` (`gcc` or `clang`).
    pub fn by_cc(cc: &str) -> Option<Toolchain> {
        [Toolchain::GCC, Toolchain::CLANG]
            .into_iter()
            .find(|t| t.cc == cc)
    }
}

/// Whether `tool --version` runs.
pub fn available(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Whether an optional capability of the machine is there. When it is not,
/// this panics if the environment variable `require` is set (as
/// `scripts/test.sh` sets them all), and otherwise prints one line saying
/// what is skipped and returns false; the test binary lists its skips again
/// when it exits, after its summary line ([`skips`]).
pub fn optional(have: bool, require: &str, what: &str) -> bool {
    if !have {
        assert!(
            std::env::var_os(require).is_none(),
            "{require} is set but {what} is not available"
        );
        eprintln!("SKIPPED: {what} is not available (set {require}=1 to fail instead)");
        skips::record(require, what);
    }
    have
}

/// Whether clang and clang++ are installed; when not, a panic with
/// `REQUIRE_CLANG` set, else one line saying what `without` means.
pub fn clang_available(without: &str) -> bool {
    static HAVE: OnceLock<bool> = OnceLock::new();
    let have = *HAVE.get_or_init(|| available("clang") && available("clang++"));
    optional(have, "REQUIRE_CLANG", &format!("clang/clang++ ({without})"))
}

/// gcc always; clang too when installed (`REQUIRE_CLANG=1` makes a missing
/// clang an error instead of a skip).
pub fn toolchains() -> Vec<Toolchain> {
    let mut out = vec![Toolchain::GCC];
    if clang_available("testing with gcc only") {
        out.push(Toolchain::CLANG);
    }
    out
}
