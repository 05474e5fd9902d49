//! The interposition suite's programs (the tracepoint layer replaced at link
//! time), part of the test-program manifest (`tests/testkit/src/manifest.rs`);
//! driven by `main.rs` (and by `c-tests/install/main.rs` on the installed
//! libraries).

use super::tpp::{TPP_RECORD, TPP_RECORDER};
use super::*;

/// The interposition test's program (main.rs).
const INTERPOSE_EVENTS: &str = "c-tests/interpose/events.c";

/// C, and the same sources compiled as C++.
const INTERPOSE_STANDARDS: &[Standard] = &[std("c11", "c++17"), std("c++17", "c++17")];

/// The interposed builds' run: the recorder records, and a capture file is
/// selected, which must stay empty.
const INTERPOSE_RUNS: &[Run] = &[Run {
    name: "record",
    env: TPP_RECORD,
    ..RUN
}];

/// The static build's run, which the sanitizer passes leave out: they link
/// cargo's release archive, one LTO object that also holds the tracepoint.h
/// functions, which a program defining them cannot link (the archive in
/// members is the CMake build's; c-tests/install/main.rs runs this program
/// against it, and the shared build runs under every sanitizer).
const INTERPOSE_STATIC_RUNS: &[Run] = &[Run {
    not_under: &[
        (Flavour::Asan, INTERPOSE_ONE_OBJECT),
        (Flavour::Valgrind, INTERPOSE_ONE_OBJECT),
    ],
    ..INTERPOSE_RUNS[0]
}];

const INTERPOSE_ONE_OBJECT: &str =
    "the sanitizer builds link cargo's release archive, one object with the tracepoint.h functions";

/// The partly replaced tracepoint layer's program (main.rs).
const INTERPOSE_PARTIAL: &str = "c-tests/interpose/partial.c";

/// Its runs: in capture mode, and without a capture file.
const INTERPOSE_PARTIAL_RUNS: &[Run] = &[
    RUN,
    Run {
        name: "plain",
        ..PLAIN_RUN
    },
];

/// The static build's runs, which the sanitizer passes leave out (they link
/// cargo's archive).
const INTERPOSE_PARTIAL_STATIC_RUNS: &[Run] = &[
    Run {
        not_under: INTERPOSE_PARTIAL_CARGO_ARCHIVE,
        ..RUN
    },
    Run {
        name: "plain",
        not_under: INTERPOSE_PARTIAL_CARGO_ARCHIVE,
        ..PLAIN_RUN
    },
];

const INTERPOSE_PARTIAL_CARGO_ARCHIVE: &[(Flavour, &str)] = &[
    (
        Flavour::Asan,
        "links only against the CMake build's archive of members (c-tests/install/main.rs)",
    ),
    (
        Flavour::Valgrind,
        "links only against the CMake build's archive of members (c-tests/install/main.rs)",
    ),
];

pub(super) static PROGRAMS: &[Program] = &[
    // Every kind of event (TraceLogging, eventheader_write,
    // tracepoint-provider.h, runtime-defined) in capture mode: the bytes the
    // recorded builds below must hand their own tracepoint layer.
    Program {
        name: "interpose_capture",
        sources: &[INTERPOSE_EVENTS],
        standards: INTERPOSE_STANDARDS,
        runs: &[RUN],
        ..BASE
    },
    // The same program with the recorder's tracepoint.h, which the library
    // must use instead of its own for every event (its capture file stays
    // empty), against the shared and the static library.
    Program {
        name: "interpose_shared",
        sources: &[INTERPOSE_EVENTS, TPP_RECORDER],
        standards: INTERPOSE_STANDARDS,
        runs: INTERPOSE_RUNS,
        ..BASE
    },
    Program {
        name: "interpose_static",
        sources: &[INTERPOSE_EVENTS, TPP_RECORDER],
        link: Link::Static,
        standards: INTERPOSE_STANDARDS,
        runs: INTERPOSE_STATIC_RUNS,
        ..BASE
    },
    // A tracepoint layer replaced in part (c-tests/interpose/partial.c):
    // ENOSYS and EBADF, never the library's layer mixed with the program's;
    // in capture mode (the file stays empty) and without a capture file.
    Program {
        name: "interpose_partial_shared",
        sources: &[INTERPOSE_PARTIAL],
        standards: INTERPOSE_STANDARDS,
        runs: INTERPOSE_PARTIAL_RUNS,
        // Against user_events: ENOSYS and EBADF too, and the program's
        // functions never called (it checks its results and exits 0).
        vm: &[VmRun {
            name: "interpose_partial",
            ..VM
        }],
        ..BASE
    },
    Program {
        name: "interpose_partial_connect_shared",
        sources: &[INTERPOSE_PARTIAL],
        flags: &["-DPARTIAL_CONNECT"],
        runs: INTERPOSE_PARTIAL_RUNS,
        ..BASE
    },
    // Only against the CMake build's archive of members
    // (c-tests/install/main.rs): cargo's archives hold the tracepoint.h
    // functions in an object with others the program needs, so the link finds
    // tracepoint_write twice.
    Program {
        name: "interpose_partial_static",
        sources: &[INTERPOSE_PARTIAL],
        link: Link::Static,
        runs: INTERPOSE_PARTIAL_STATIC_RUNS,
        ..BASE
    },
];
