//! `testkit sanitize FLAVOUR...`: builds every program a sanitizer flavour
//! runs (clang when installed, else gcc, said so; `REQUIRE_CLANG=1` makes
//! that an error), runs each of its host runs under the flavour with a
//! per-run timeout, and counts a run as failed when it exits non-zero or its
//! output has a sanitizer or valgrind report.
//!
//! - asan: `-fsanitize=address,undefined`, every run, against the library
//!   instrumented by rustc with `-Zsanitizer=address` (see below): ASan sees
//!   the library's own reads and writes (a read past a caller's array inside
//!   `tracepoint_write` is reported where it happens), and LeakSanitizer the
//!   leaks of the whole process.
//! - tsan: `-fsanitize=thread`, the runs with threads, against the library
//!   instrumented with `-Zsanitizer=thread`: TSan sees the library's memory
//!   accesses and its atomics, so its own synchronization is checked too.
//!   `tests/tsan.supp` holds the suppressions (none are needed now).
//! - valgrind: memcheck over every run (`--error-exitcode`, definite leaks
//!   are errors), against the plain release library: valgrind instruments
//!   all code itself.
//!
//! The instrumented library: `-Zsanitizer` is unstable and this machine's
//! toolchain is stable only (no nightly can be fetched), so the test-only
//! build sets `RUSTC_BOOTSTRAP=1`, as `fuzz/run.sh` does for cargo-fuzz. It
//! is a `cargo rustc --release --crate-type cdylib` of the library with its
//! own `--target-dir` (`OUT/rust-asan`, `OUT/rust-tsan`): the shipped
//! library (CMake, `cargo build`) never sees the flag and builds on stable.
//! `-Cunsafe-allow-abi-mismatch=sanitizer`: Rust's precompiled `core` is
//! not instrumented (the library uses only its inlined parts: atomics,
//! slices, `memcpy`-like intrinsics, which are instrumented in the
//! library). ASan programs keep clang's runtime (LLVM 14), which serves the
//! library's instrumentation (rustc's LLVM) as well and has the UBSan
//! handlers of C++ (`-fsanitize=vptr`) that rustc's ASan runtime lacks.
//! Rustc's TSan instrumentation calls an entry point clang 14's TSan runtime
//! does not have (`__tsan_memmove`), so the TSan programs are linked with
//! rustc's runtime archive (`librustc-*_rt.tsan.a` of the toolchain's
//! sysroot) instead ([`SanitizerRuntime`]); their own instrumentation is
//! clang's. Without clang (gcc, whose runtimes are different ones) the
//! library is not instrumented, and the session's title says so.
//!
//! Environment: `SAN_RUN_TIMEOUT` (seconds per run, default 300),
//! `SAN_STRESS_SECONDS` (3), `VG_STRESS_SECONDS` (2), `DL_LOOPS` (1000),
//! `VG_DL_LOOPS` (200).

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::build::{self, Config, SanitizerRuntime};
use crate::manifest::{self, Flavour, Program, Run};
use crate::run::{self, env_or, Vars};
use crate::Toolchain;

/// For the ASan and valgrind runs: the dlopen/dlclose programs print their
/// RSS instead of bounding it (those allocators keep freed memory in
/// quarantine; leaks are theirs to report).
fn rss_unchecked() -> (&'static str, String) {
    ("HARDENING_RSS_UNCHECKED", "1".into())
}

/// Whether `flavour` runs `run`.
pub fn runs_under(run: &Run, flavour: Flavour) -> bool {
    let applies = match flavour {
        Flavour::Asan | Flavour::Valgrind => true,
        Flavour::Tsan => run.threads,
        Flavour::Plain | Flavour::Optimized => false,
    };
    applies && !run.not_under.iter().any(|(f, _)| *f == flavour)
}

/// The runs the passes of `flavours` run, in their order.
pub fn list(flavours: &[Flavour]) -> Vec<(Flavour, &'static Program, &'static Run)> {
    flavours
        .iter()
        .flat_map(|&f| {
            manifest::programs().flat_map(move |p| {
                p.runs
                    .iter()
                    .filter(move |r| runs_under(r, f))
                    .map(move |r| (f, p, r))
            })
        })
        .collect()
}

/// Counts of a sanitizer session.
#[derive(Default)]
pub struct Tally {
    pub runs: usize,
    pub reports: usize,
    pub failed: usize,
}

/// Whether a line of a run's output is a sanitizer or valgrind report.
pub fn is_report(line: &str) -> bool {
    let nonzero_after = |key: &str| {
        line.find(key).is_some_and(|i| {
            line[i + key.len()..]
                .chars()
                .next()
                .is_some_and(|c| ('1'..='9').contains(&c))
        })
    };
    ["Address", "Leak", "Thread", "UndefinedBehavior"]
        .iter()
        .any(|k| line.contains(&format!("ERROR: {k}Sanitizer")))
        || line.contains("WARNING: ThreadSanitizer")
        || line.contains("runtime error:")
        || nonzero_after("ERROR SUMMARY: ")
        || nonzero_after("definitely lost: ")
}

/// Runs the flavours in order, printing one line per run; the tally of all.
pub fn sanitize(flavours: &[Flavour], lib_dir: &Path, out: &Path) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for &flavour in flavours {
        session(flavour, lib_dir, out, &mut tally)?;
    }
    Ok(tally)
}

fn session(flavour: Flavour, lib_dir: &Path, out: &Path, tally: &mut Tally) -> Result<(), String> {
    let toolchain = if crate::clang_available("sanitizer builds with gcc") {
        Toolchain::CLANG
    } else {
        Toolchain::GCC
    };
    let root = crate::repo_root();
    let (title, vars, prefix, env): (String, Vars, Vec<OsString>, Vec<(&str, String)>) =
        match flavour {
            Flavour::Asan => (
                format!("asan+ubsan ({})", toolchain.cc),
                sanitizer_vars("SAN_STRESS_SECONDS", "3", "DL_LOOPS", "1000"),
                Vec::new(),
                vec![
                    // Leak checking covers the whole process (the Rust library too).
                    (
                        "ASAN_OPTIONS",
                        "detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1".into(),
                    ),
                    ("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1".into()),
                    rss_unchecked(),
                ],
            ),
            Flavour::Tsan => (
                format!("tsan ({})", toolchain.cc),
                sanitizer_vars("SAN_STRESS_SECONDS", "3", "DL_LOOPS", "1000"),
                Vec::new(),
                vec![(
                    "TSAN_OPTIONS",
                    format!(
                        "halt_on_error=1:second_deadlock_stack=1:suppressions={}",
                        root.join("tests/tsan.supp").display()
                    ),
                )],
            ),
            Flavour::Valgrind => {
                if !crate::available("valgrind") {
                    return Err("valgrind is not installed".into());
                }
                (
                    "valgrind memcheck".into(),
                    sanitizer_vars("VG_STRESS_SECONDS", "2", "VG_DL_LOOPS", "200"),
                    [
                        "valgrind",
                        "-q",
                        "--error-exitcode=99",
                        "--leak-check=full",
                        "--errors-for-leak-kinds=definite",
                        "--trace-children=no",
                    ]
                    .iter()
                    .map(OsString::from)
                    .collect(),
                    vec![rss_unchecked()],
                )
            }
            other => return Err(format!("{} is not a sanitizer flavour", other.name())),
        };
    // The library as rustc instruments it, with rustc's runtime (clang only).
    let instrumented = match flavour {
        Flavour::Asan | Flavour::Tsan if toolchain == Toolchain::CLANG => {
            Some(instrumented_library(flavour, out)?)
        }
        _ => None,
    };
    let (lib_dir, runtime) = match (&instrumented, flavour) {
        (Some((dir, archive)), Flavour::Tsan) => {
            (dir.as_path(), SanitizerRuntime::Archive(archive))
        }
        (Some((dir, _)), _) => (dir.as_path(), SanitizerRuntime::Compiler),
        (None, _) => (lib_dir, SanitizerRuntime::Compiler),
    };
    let library = match (&instrumented, flavour) {
        (Some(_), _) => "library instrumented by rustc",
        (None, Flavour::Valgrind) => "release library",
        (None, _) => "library not instrumented",
    };
    println!("=== {title}, {library}: {}", lib_dir.display());
    let bin = out.join(flavour.name());
    let selected: Vec<&'static Program> = manifest::programs()
        .filter(|p| p.runs.iter().any(|r| runs_under(r, flavour)))
        .collect();
    let jobs: Vec<(&Program, Config)> = build::with_dependencies(&selected)
        .into_iter()
        .map(|p| (p, Config::first(p, toolchain, flavour)))
        .collect();
    build::build_many(&jobs, lib_dir, &bin, runtime)?;
    let timeout = env_or("SAN_RUN_TIMEOUT", "300");
    let mut limit: Vec<OsString> = ["timeout", "--kill-after=10", &timeout]
        .iter()
        .map(OsString::from)
        .collect();
    limit.extend(prefix);
    for program in &selected {
        for run in program.runs.iter().filter(|r| runs_under(r, flavour)) {
            let label = format!("{} {} {}", flavour.name(), program.name, run.name);
            let stem = format!("{}-{}", program.name, run.name);
            let dir = bin.join(&stem);
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let exe = bin.join(program.file_name());
            let prepared = run::prepare(&exe, run, &dir, &vars, &mut |name| {
                Ok(bin.join(crate::manifest::program(name).file_name()))
            })?;
            let log = bin.join(format!("{stem}.log"));
            let (status, text) = run_logged(&prepared, &limit, &env, &log)?;
            let reports = text.lines().filter(|l| is_report(l)).count();
            tally.runs += 1;
            tally.reports += reports;
            if status == Some(0) && reports == 0 {
                println!("ok   {label}");
            } else {
                tally.failed += 1;
                let status = status.map_or("signal".into(), |s| s.to_string());
                println!(
                    "FAIL {label} (exit {status}, {reports} report lines): {}",
                    log.display()
                );
                for line in text.lines().take(60) {
                    println!("{line}");
                }
            }
        }
    }
    Ok(())
}

/// Builds the library instrumented by rustc for `flavour` (asan: address,
/// tsan: thread) in `out/rust-FLAVOUR` (see the module's documentation);
/// returns its directory and rustc's runtime archive for it.
fn instrumented_library(flavour: Flavour, out: &Path) -> Result<(PathBuf, PathBuf), String> {
    let sanitizer = match flavour {
        Flavour::Asan => "address",
        Flavour::Tsan => "thread",
        other => return Err(format!("no rustc sanitizer for {}", other.name())),
    };
    let rustc = |args: &[&str]| -> Result<String, String> {
        let output = std::process::Command::new("rustc")
            .args(args)
            .output()
            .map_err(|e| format!("running rustc: {e}"))?;
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let host = rustc(&["-vV"])?
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or("rustc -vV names no host")?;
    let sysroot = PathBuf::from(rustc(&["--print", "sysroot"])?.trim());
    let rustlib = sysroot.join("lib/rustlib").join(&host).join("lib");
    let suffix = format!("_rt.{}.a", flavour.name());
    let archive = std::fs::read_dir(&rustlib)
        .map_err(|e| format!("{}: {e}", rustlib.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("librustc-") && n.ends_with(&suffix))
        })
        .ok_or_else(|| format!("no librustc-*{suffix} in {}", rustlib.display()))?;
    let target_dir = out.join(format!("rust-{}", flavour.name()));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .args(["rustc", "--quiet", "--locked", "--release", "--lib"])
        .args(["--crate-type", "cdylib", "--target", &host])
        .arg("--manifest-path")
        .arg(crate::repo_root().join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .env("RUSTC_BOOTSTRAP", "1")
        .env(
            "RUSTFLAGS",
            format!("-Zsanitizer={sanitizer} -Cunsafe-allow-abi-mismatch=sanitizer"),
        )
        .status()
        .map_err(|e| format!("running cargo: {e}"))?;
    if !status.success() {
        return Err(format!(
            "building the library with -Zsanitizer={sanitizer} failed"
        ));
    }
    Ok((target_dir.join(&host).join("release"), archive))
}

fn sanitizer_vars(seconds: &str, seconds_default: &str, loops: &str, loops_default: &str) -> Vars {
    Vars {
        stress_seconds: env_or(seconds, seconds_default),
        stress_rate: "500".into(),
        dl_loops: env_or(loops, loops_default),
    }
}

/// Runs with stdout and stderr in `log`; its exit code and the log's text.
fn run_logged(
    prepared: &run::Prepared,
    prefix: &[OsString],
    env: &[(&str, String)],
    log: &PathBuf,
) -> Result<(Option<i32>, String), String> {
    let file = File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = file
        .try_clone()
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let status = prepared
        .command(prefix)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdout(file)
        .stderr(err)
        .status()
        .map_err(|e| format!("running {:?}: {e}", prepared.argv))?;
    let bytes = std::fs::read(log).map_err(|e| format!("{}: {e}", log.display()))?;
    Ok((status.code(), String::from_utf8_lossy(&bytes).into_owned()))
}

/// Prints the closing lines; whether every run passed.
pub fn report(tally: &Tally, started: Instant) -> bool {
    println!(
        "sanitizers: {} runs, {} reports, {} failed, {} s",
        tally.runs,
        tally.reports,
        tally.failed,
        started.elapsed().as_secs()
    );
    println!(
        "sanitizers: {} passed, {} failed",
        tally.runs - tally.failed,
        tally.failed
    );
    tally.failed == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_are_recognised() {
        assert!(is_report(
            "==1==ERROR: AddressSanitizer: heap-use-after-free"
        ));
        assert!(is_report("x.c:3:5: runtime error: signed integer overflow"));
        assert!(is_report("==9== ERROR SUMMARY: 2 errors from 2 contexts"));
        assert!(!is_report("==9== ERROR SUMMARY: 0 errors from 0 contexts"));
        assert!(is_report("==9==    definitely lost: 16 bytes in 1 blocks"));
        assert!(!is_report("==9==    definitely lost: 0 bytes in 0 blocks"));
        assert!(!is_report("ok"));
    }
}
