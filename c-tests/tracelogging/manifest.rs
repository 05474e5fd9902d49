//! The TraceLogging suite's programs (TraceLoggingProvider.h), part of the
//! test-program manifest (`tests/testkit/src/manifest.rs`); driven by `main.rs`.

use super::*;

pub(super) static PROGRAMS: &[Program] = &[
    Program {
        name: "tl_test",
        pedantic: true,
        sources: &[
            "c-tests/tracelogging/tl_c.c",
            "c-tests/tracelogging/tl_main.c",
            "c-tests/tracelogging/tl_cpp.cpp",
        ],
        standards: &[
            std("c11", "c++17"),
            std("gnu11", "c++11"),
            std("gnu17", "c++20"),
        ],
        runs: &[
            Run {
                name: "reference",
                args: &["reference"],
                ..RUN
            },
            Run {
                name: "lifecycle",
                args: &["lifecycle"],
                ..RUN
            },
            Run {
                name: "cvalues",
                args: &["cvalues"],
                ..RUN
            },
        ],
        vm: &[VmRun {
            name: "tracelogging",
            args: &["reference"],
            check: VmCheck::Identity { reference: false },
            ..VM
        }],
        ..BASE
    },
    Program {
        name: "tl_autoclose",
        pedantic: true,
        sources: &["c-tests/tracelogging/tl_autoclose.c"],
        runs: &[RUN],
        ..BASE
    },
    // Counted fields at and over 65535 (docs/bad-input.md), as C and as C++.
    Program {
        name: "tl_oversize",
        pedantic: true,
        sources: &["c-tests/tracelogging/tl_oversize.c"],
        standards: &[std("c11", "c++17"), std("c++17", "c++17")],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "tl_badname",
        pedantic: true,
        sources: &["c-tests/tracelogging/tl_badname.c"],
        standards: GNU11,
        compilers: Compilers::Gcc,
        runs: &[RUN],
        ..BASE
    },
    // samples/c and samples/cpp, run by main.rs.
    Program {
        name: "c_sample",
        pedantic: true,
        sources: &["samples/c/sample.c"],
        runs: &[Run {
            name: "args",
            args: &["one", "two"],
            ..RUN
        }],
        ..BASE
    },
    Program {
        name: "cpp_sample",
        pedantic: true,
        sources: &["samples/cpp/sample.cpp"],
        runs: &[RUN],
        ..BASE
    },
    // The README's C example (tests/docs.rs checks that it is this file and runs it).
    Program {
        name: "hello_c",
        pedantic: true,
        sources: &["samples/c/hello.c"],
        runs: &[RUN],
        ..BASE
    },
];
