//! The tracepoint layer replaced at link time, as the reference documents it
//! (its interceptor sample): a program that defines the `tracepoint.h`
//! functions itself receives every event of the library's layers above them.
//!
//! `c-tests/interpose/events.c` writes every kind of event: TraceLogging (a
//! provider symbol, an activity, a provider handle), `eventheader_write`,
//! `tracepoint-provider.h` and runtime-defined events. Built alone
//! (`interpose_capture`), the library's own tracepoint layer writes them to
//! its capture file; built with `c-tests/tpp/recorder.c` (a `tracepoint.h` of
//! the program's own, on `tracepoint/tracepoint-impl.h`), against the shared
//! library (`interpose_shared`) and the static one (`interpose_static`), the
//! recorder must receive exactly those records, byte for byte, and the
//! library's capture file, selected too, must stay empty. gcc and clang, the
//! sources as C and as C++.
//!
//! The static library here is the one cargo builds;
//! `c-tests/install/main.rs` runs the same check on the installed one (the
//! CMake build's archive members). One trial per program, build and run
//! (`testkit::trials`).

use testkit::cargo_tests::{self, build_once, Build, Ran};
use testkit::manifest;
use testkit::trials::{self, judge, judged_elsewhere, Judge};

/// `interpose_capture` in capture mode: the records the interposed builds
/// must receive, one of each kind of event the program writes.
fn check_capture(build: &Build, ran: &Ran) {
    assert_eq!(ran.records.len(), 10, "{}: {:?}", build.label, ran.records);
}

/// `interpose_shared` or `interpose_static` with the recorder: every event
/// reaches the program's tracepoint layer, as `interpose_capture` in the
/// same configuration writes it (see `cargo_tests::check_interposed`).
fn check_record(build: &Build, ran: &Ran) {
    let want = build_once(manifest::program("interpose_capture"), build.config)
        .run("capture")
        .records;
    cargo_tests::check_interposed(&build.label, ran, &want);
}

/// A program that defines only some of the four functions the EventHeader
/// layer calls (`c-tests/interpose/partial.c`) with the shared library gets
/// ENOSYS and EBADF (see `cargo_tests::check_partly_replaced`).
fn check_partial(build: &Build, ran: &Ran) {
    cargo_tests::check_partly_replaced_run(&format!("{} {}", build.label, ran.mode), ran);
}

/// Only the CMake build's archive of members links the partly replaced
/// layer statically.
const STATIC_PARTIAL: &str =
    "c-tests/install/main.rs, against the CMake build's archive of members";

/// The judge of every (program, run) of the suite.
const JUDGES: &[Judge] = &[
    judge("interpose_capture", "capture", check_capture),
    judge("interpose_shared", "record", check_record),
    judge("interpose_static", "record", check_record),
    judge("interpose_partial_shared", "capture", check_partial),
    judge("interpose_partial_shared", "plain", check_partial),
    judge("interpose_partial_connect_shared", "capture", check_partial),
    judge("interpose_partial_connect_shared", "plain", check_partial),
    judged_elsewhere("interpose_partial_static", "capture", STATIC_PARTIAL),
    judged_elsewhere("interpose_partial_static", "plain", STATIC_PARTIAL),
];

fn main() {
    trials::main(env!("CARGO_TARGET_TMPDIR"), "interpose", JUDGES, Vec::new())
}
