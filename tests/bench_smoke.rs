//! Keeps the benchmarks from rotting and guards the one property that is a
//! pass/fail matter: a disabled `TraceLoggingWrite` is a load and a branch.
//!
//! Builds `benches/c/bench.c` (public API only; the manifest's `bench`) with
//! each available C compiler, optimized flavour (-O2), and counts its instructions under callgrind by the
//! iteration-difference method of `benches/run-callgrind.sh` (small N): the
//! disabled 5-field event must cost at most 10 instructions per iteration
//! including the loop. An enabled event is measured too, so a broken
//! measurement (nothing written, nothing counted) fails instead of passing.
//! `benches/c/handles.c` (the manifest's `handles`) measures the same
//! disabled event through a provider handle beside the provider symbol.
//!
//! Skipped with a message when valgrind is not installed, unless
//! `REQUIRE_VALGRIND=1`.

mod support;

use std::path::Path;
use std::process::Command;

use support::Flavour;

/// The bound on the disabled path, instructions per loop iteration.
const DISABLED_MAX: f64 = 10.0;
/// Iterations of the short run; the long run does twice as many.
const N: u32 = 1000;

/// Total Ir of `exe mode n` under callgrind, in capture mode to `capture`.
fn total_ir(exe: &Path, mode: &str, n: u32, capture: &Path, out: &Path) -> u64 {
    let mut cmd = Command::new(exe);
    cmd.arg(mode)
        .arg(n.to_string())
        .env("TRACEPOINT_CAPTURE_FILE", capture);
    testkit::callgrind::total_instructions(&cmd, out)
}

/// Instructions per iteration: (Ir(2N) - Ir(N)) / N.
/// Capture-mode events go to `DIR/<exe name>.<mode>.cap`.
fn per_iteration(exe: &Path, mode: &str, dir: &Path) -> f64 {
    let stem = format!("{}.{mode}", exe.file_name().unwrap().to_string_lossy());
    let capture = dir.join(format!("{stem}.cap"));
    let short = total_ir(exe, mode, N, &capture, &dir.join(format!("{stem}.1.out")));
    let long = total_ir(
        exe,
        mode,
        2 * N,
        &capture,
        &dir.join(format!("{stem}.2.out")),
    );
    (long as f64 - short as f64) / f64::from(N)
}

#[test]
fn disabled_event_is_branch_only() {
    if !support::optional(
        testkit::available("valgrind"),
        "REQUIRE_VALGRIND",
        "valgrind (bench_smoke)",
    ) {
        return;
    }
    for tc in support::toolchains() {
        let dir = support::temp_dir();
        let build = support::build_flavour("bench", tc, Flavour::Optimized);
        let exe = &build.exe;
        let disabled = per_iteration(exe, "disabled", dir.path());
        let enabled = per_iteration(exe, "enabled5", dir.path());
        eprintln!(
            "{}: disabled {disabled:.2} instr/iteration, enabled 5-field {enabled:.2} (capture mode)",
            tc.cc
        );

        // The enabled run wrote every event: 2N + 1 per run, two runs.
        let records = support::read_capture(&dir.path().join("bench.enabled5.cap"));
        assert_eq!(
            records.len() as u32,
            3 * N + 2,
            "{}: capture records of the enabled runs",
            tc.cc
        );
        assert!(
            records.iter().all(|r| r.name == "EhtBench_L5K1"),
            "{}: unexpected tracepoint names in the capture",
            tc.cc
        );
        assert!(
            enabled > 30.0,
            "{}: enabled event costs only {enabled:.2} instructions: the measurement is broken",
            tc.cc
        );
        assert!(
            disabled > 0.5,
            "{}: disabled loop costs {disabled:.2} instructions: the loop was optimised away",
            tc.cc
        );
        assert!(
            disabled <= DISABLED_MAX,
            "{}: a disabled TraceLoggingWrite costs {disabled:.2} instructions per iteration \
             (bound {DISABLED_MAX}): the disabled path is no longer a load and a branch",
            tc.cc
        );
    }
}

/// The bound on a disabled write through a provider handle (a function
/// parameter), instructions per loop iteration: the symbol path's bound plus
/// the handle check (a load, a compare, a branch).
const HANDLE_DISABLED_MAX: f64 = DISABLED_MAX + 4.0;

/// `benches/c/handles.c`: the same disabled event through the provider
/// symbol and through a provider handle, side by side.
#[test]
fn disabled_handle_write_is_a_few_instructions() {
    if !support::optional(
        testkit::available("valgrind"),
        "REQUIRE_VALGRIND",
        "valgrind (bench_smoke)",
    ) {
        return;
    }
    for tc in support::toolchains() {
        let dir = support::temp_dir();
        let build = support::build_flavour("handles", tc, Flavour::Optimized);
        let symbol = per_iteration(&build.exe, "symbol-disabled", dir.path());
        let handle = per_iteration(&build.exe, "handle-disabled", dir.path());
        eprintln!(
            "{}: disabled write, provider symbol {symbol:.2}, provider handle {handle:.2} instr/iteration",
            tc.cc
        );
        assert!(
            symbol > 0.5 && handle > symbol,
            "{}: symbol {symbol:.2}, handle {handle:.2}: the measurement is broken",
            tc.cc
        );
        assert!(
            symbol <= DISABLED_MAX,
            "{}: a disabled write naming the provider symbol costs {symbol:.2} instructions (bound {DISABLED_MAX})",
            tc.cc
        );
        assert!(
            handle <= HANDLE_DISABLED_MAX,
            "{}: a disabled write through a handle costs {handle:.2} instructions (bound {HANDLE_DISABLED_MAX})",
            tc.cc
        );
    }
}
