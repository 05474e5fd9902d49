//! The Windows porting suite's programs, part of the test-program manifest
//! (`tests/testkit/src/manifest.rs`); driven by `main.rs`.

use super::*;

/// The porting suite's sources: one program.
const WINPORT_SOURCES: &[&str] = &[
    "c-tests/windows-port/wp_main.c",
    "c-tests/windows-port/wp_helpers.c",
    "c-tests/windows-port/wp_harness.c",
];

/// The only change a Windows TraceLogging program needs to build here.
const WINPORT_INCLUDE: &[&str] = &["include/windows-compat"];

pub(super) static PROGRAMS: &[Program] = &[
    // The porting suite is Windows-style TraceLogging code built with only
    // include/windows-compat added to the include path: as C (winport_c) and,
    // the same .c files, as C++ (winport_cpp; also its templates). In the VM perf attaches only
    // to what its registration created, before its first write.
    Program {
        name: "winport_c",
        pedantic: true,
        sources: WINPORT_SOURCES,
        include_dirs: WINPORT_INCLUDE,
        standards: &[std("c11", "c++17"), std("gnu17", "c++17")],
        runs: &[RUN],
        vm: &[VmRun {
            name: "winport_c",
            check: VmCheck::IdentityAfterRegistration,
            ..VM
        }],
        ..BASE
    },
    // winport_cpp with UNICODE defined (TCHAR is WCHAR, TEXT("x") is L"x").
    Program {
        name: "winport_cpp",
        pedantic: true,
        sources: WINPORT_SOURCES,
        include_dirs: WINPORT_INCLUDE,
        flags: &["-DUNICODE"],
        standards: &[
            std("c++17", "c++17"),
            std("c++11", "c++11"),
            std("c++20", "c++20"),
        ],
        runs: &[RUN],
        vm: &[VmRun {
            name: "winport_cpp",
            check: VmCheck::IdentityAfterRegistration,
            ..VM
        }],
        ..BASE
    },
    // The activity classes of <TraceLoggingActivity.h>: C++ (C++11, 14, 17
    // and 20) calling C code (C11) that writes while its thread is in an
    // activity; two threads at once, in a fixed order.
    Program {
        name: "winport_activity",
        pedantic: true,
        sources: &[
            "c-tests/windows-port/wp_activity.cpp",
            "c-tests/windows-port/wp_activity_c.c",
            "c-tests/windows-port/wp_harness.c",
        ],
        include_dirs: WINPORT_INCLUDE,
        standards: &[
            std("c11", "c++17"),
            std("c11", "c++14"),
            std("gnu17", "c++20"),
            std("c11", "c++11"),
        ],
        runs: &[Run {
            threads: true,
            ..RUN
        }],
        vm: &[VmRun {
            name: "winport_activity",
            check: VmCheck::IdentityAfterRegistrationRandomIds,
            ..VM
        }],
        ..BASE
    },
    // Thread activities stopped out of nesting order, and an exception in a
    // start event's fields (c-tests/windows-port/wp_activity_edges.cpp).
    Program {
        name: "winport_activity_edges",
        sources: &["c-tests/windows-port/wp_activity_edges.cpp"],
        include_dirs: WINPORT_INCLUDE,
        standards: &[
            std("c11", "c++11"),
            std("c11", "c++17"),
            std("gnu17", "c++20"),
        ],
        runs: &[RUN],
        ..BASE
    },
    // Provider handles under racing threads: 8 threads, one provider each,
    // 2000 writes each through one handle call site; C and (-x c++) C++.
    Program {
        name: "winport_handles",
        pedantic: true,
        sources: &["c-tests/windows-port/wp_handles.c"],
        standards: &[std("c11", "c++17"), std("c++17", "c++17")],
        runs: &[Run {
            args: &["8", "2000"],
            threads: true,
            ..RUN
        }],
        ..BASE
    },
    // EventActivityIdControl (windows-compat evntprov.h): every control and
    // refusal, and events carrying the thread's id set through it; the same
    // .c file as C and as C++.
    Program {
        name: "winport_activity_control",
        pedantic: true,
        sources: &["c-tests/windows-port/wp_activity_control.c"],
        include_dirs: WINPORT_INCLUDE,
        standards: &[
            std("c11", "c++17"),
            std("gnu11", "c++17"),
            std("c++11", "c++11"),
            std("c++17", "c++17"),
            std("c++20", "c++20"),
        ],
        runs: &[RUN],
        ..BASE
    },
    // Pointer arrays of every element type Windows code passes (void*,
    // const void*, void* const, char*, function pointers) to every
    // pointer-array macro; the same .c file as C and as C++.
    Program {
        name: "winport_pointer_arrays",
        pedantic: true,
        sources: &["c-tests/windows-port/wp_pointer_arrays.c"],
        include_dirs: WINPORT_INCLUDE,
        standards: &[
            std("c11", "c++17"),
            std("gnu11", "c++17"),
            std("c++11", "c++11"),
            std("c++17", "c++17"),
            std("c++20", "c++20"),
        ],
        runs: &[RUN],
        ..BASE
    },
    // samples/activity, run by main.rs.
    // Windows code with activities (TraceLoggingActivity.h), built with
    // include/windows-compat, C++14 and C++17.
    Program {
        name: "activity_sample",
        pedantic: true,
        sources: &["samples/activity/activity.cpp"],
        include_dirs: WINPORT_INCLUDE,
        standards: &[std("c11", "c++17"), std("c11", "c++14")],
        runs: &[Run {
            threads: true,
            ..RUN
        }],
        ..BASE
    },
];
