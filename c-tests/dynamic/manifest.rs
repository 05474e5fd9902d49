//! The runtime-defined events suite's programs (eventheader-dynamic.h,
//! EventHeaderDynamic.h), part of the test-program manifest
//! (`tests/testkit/src/manifest.rs`); driven by `main.rs`.

use super::*;

/// The runtime-defined event programs: C11 and gnu11 for C, C++17 (the
/// reference's EventHeaderDynamic.h requires it) and C++20 for C++.
const DYNAMIC: &[Standard] = &[std("c11", "c++17"), std("gnu11", "c++20")];

/// Runs whose program interposes malloc and realloc (c-tests/dynamic/alloc_hook.h).
const ALLOC_HOOK: &[(Flavour, &str)] = &[
    (
        Flavour::Asan,
        "the program replaces malloc and realloc (alloc_hook.h), which ASan's allocator owns",
    ),
    (
        Flavour::Valgrind,
        "the program replaces malloc and realloc (alloc_hook.h), which valgrind's allocator owns",
    ),
];

/// A runtime-defined event program: its standards, and one capture run
/// unless it says otherwise.
const DYN: Program = Program {
    standards: DYNAMIC,
    runs: &[RUN],
    ..BASE
};

/// The capture run of a program that interposes malloc and realloc.
const ALLOC_HOOK_RUNS: &[Run] = &[Run {
    not_under: ALLOC_HOOK,
    ..RUN
}];

pub(super) static PROGRAMS: &[Program] = &[
    // C programs as C11 and gnu11, C++ as C++17 and 20.
    Program {
        name: "dyn_reference",
        pedantic: true,
        sources: &["c-tests/dynamic/dyn_reference.c"],
        vm: &[VmRun {
            name: "dynamic_c",
            check: VmCheck::Identity { reference: false },
            ..VM
        }],
        ..DYN
    },
    Program {
        name: "dyn_reference_cpp",
        pedantic: true,
        sources: &["c-tests/dynamic/dyn_reference.cpp"],
        vm: &[VmRun {
            name: "dynamic_cpp",
            check: VmCheck::Identity { reference: false },
            ..VM
        }],
        ..DYN
    },
    // The C programs again with EHD_NO_INLINE: through the exported
    // functions alone (as other languages call them), not the header's
    // inline fast paths; the same events and errors.
    Program {
        name: "dyn_reference_exports",
        sources: &["c-tests/dynamic/dyn_reference.c"],
        flags: &["-DEHD_NO_INLINE"],
        ..DYN
    },
    Program {
        name: "dyn_features",
        pedantic: true,
        sources: &["c-tests/dynamic/dyn_features.c"],
        ..DYN
    },
    Program {
        name: "dyn_features_exports",
        sources: &["c-tests/dynamic/dyn_features.c"],
        flags: &["-DEHD_NO_INLINE"],
        ..DYN
    },
    Program {
        name: "dyn_features_cpp",
        pedantic: true,
        sources: &["c-tests/dynamic/dyn_features.cpp"],
        ..DYN
    },
    Program {
        name: "dyn_errors",
        sources: &["c-tests/dynamic/dyn_errors.c"],
        runs: ALLOC_HOOK_RUNS,
        ..DYN
    },
    Program {
        name: "dyn_errors_exports",
        sources: &["c-tests/dynamic/dyn_errors.c"],
        flags: &["-DEHD_NO_INLINE"],
        runs: ALLOC_HOOK_RUNS,
        ..DYN
    },
    // The field-array exports against the per-field functions (inline and
    // exported).
    Program {
        name: "dyn_field_array",
        sources: &["c-tests/dynamic/dyn_field_array.c"],
        ..DYN
    },
    Program {
        name: "dyn_field_array_exports",
        sources: &["c-tests/dynamic/dyn_field_array.c"],
        flags: &["-DEHD_NO_INLINE"],
        ..DYN
    },
    // Event definitions against the builder.
    Program {
        name: "dyn_event_def",
        sources: &["c-tests/dynamic/dyn_event_def.c"],
        ..DYN
    },
    Program {
        name: "dyn_errors_cpp",
        sources: &["c-tests/dynamic/dyn_errors_cpp.cpp"],
        runs: ALLOC_HOOK_RUNS,
        ..DYN
    },
    Program {
        name: "dyn_memory",
        sources: &["c-tests/dynamic/dyn_memory.c"],
        runs: ALLOC_HOOK_RUNS,
        ..BASE
    },
    Program {
        name: "dyn_threads",
        sources: &["c-tests/dynamic/dyn_threads.c"],
        runs: &[Run {
            threads: true,
            ..RUN
        }],
        ..BASE
    },
    // samples/dynamic, run by main.rs.
    Program {
        name: "dyn_sample_c",
        pedantic: true,
        sources: &["samples/dynamic/sample.c"],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "dyn_sample_cpp",
        pedantic: true,
        sources: &["samples/dynamic/sample.cpp"],
        runs: &[RUN],
        ..BASE
    },
    // The README's runtime-defined example (tests/docs.rs checks that it is this
    // file and runs it).
    Program {
        name: "dyn_hello_c",
        pedantic: true,
        sources: &["samples/dynamic/hello.c"],
        runs: &[RUN],
        ..BASE
    },
];
