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
//! CMake build's archive members).

#[path = "../../tests/support/mod.rs"]
mod support;

use support::{Build, Record};

/// The records of `interpose_capture` in the configuration of `build`.
fn expected(build: &Build) -> Vec<Record> {
    support::builds("interpose_capture")
        .into_iter()
        .find(|b| b.config == build.config)
        .unwrap_or_else(|| panic!("no interpose_capture build like {}", build.label))
        .run("capture")
        .records
}

/// Every build of `program` (see `support::check_interposed`).
fn check(program: &str) {
    for build in support::builds(program) {
        let want = expected(&build);
        support::check_interposed(&build.label, &build.run("record"), &want);
    }
}

#[test]
fn every_event_reaches_the_program_s_tracepoint_layer_with_the_shared_library() {
    check("interpose_shared");
}

#[test]
fn every_event_reaches_the_program_s_tracepoint_layer_with_the_static_library() {
    check("interpose_static");
}

/// A program that defines only some of the four functions the EventHeader
/// layer calls (`c-tests/interpose/partial.c`) gets ENOSYS and EBADF (see
/// `support::check_partly_replaced`; the static library's case is in
/// `c-tests/install/main.rs`: only the CMake build's archive of members links
/// it).
#[test]
fn a_partly_replaced_tracepoint_layer_is_refused_with_the_shared_library() {
    for program in [
        "interpose_partial_shared",
        "interpose_partial_connect_shared",
    ] {
        for build in support::builds(program) {
            support::check_partly_replaced(&build);
        }
    }
}
