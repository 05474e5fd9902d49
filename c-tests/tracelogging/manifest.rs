//! The TraceLogging suite's programs (TraceLoggingProvider.h), part of the
//! test-program manifest (`tests/testkit/src/manifest.rs`); driven by `main.rs`.

use super::*;

/// Each function and object in a section of its own, for the linker to
/// collect (the builds linked with --gc-sections); optimized, since GNU ld
/// 2.40 with -z start-stop-gc keeps the unmarked sections of the
/// unoptimized objects (measured) and drops those of optimized ones.
pub(super) const GC_COMPILE: &[&str] = &["-O2", "-ffunction-sections", "-fdata-sections"];

/// The sanitizer runs build the programs their own way: a variant of a
/// program's flags or link adds nothing there.
pub(super) const VARIANT_NOT_UNDER: &[(Flavour, &str)] = &[
    (
        Flavour::Asan,
        "a build variant: its program runs under ASan as built by default",
    ),
    (Flavour::Tsan, "a build variant, single-threaded"),
    (
        Flavour::Valgrind,
        "a build variant: its program runs under valgrind as built by default",
    ),
];

/// tl_test's sources, C and C++ (one standard each), with its reference run:
/// the base of its build variants.
const TL_VARIANT: Program = Program {
    name: "",
    sources: &[
        "c-tests/tracelogging/tl_c.c",
        "c-tests/tracelogging/tl_main.c",
        "c-tests/tracelogging/tl_cpp.cpp",
    ],
    standards: &[std("c11", "c++17")],
    runs: &[Run {
        name: "reference",
        args: &["reference"],
        not_under: VARIANT_NOT_UNDER,
        ..RUN
    }],
    ..BASE
};

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
    // tl_test again in other code and relocation models, and linked with
    // section garbage collection that drops what nothing refers to, even
    // sections with __start_/__stop_ symbols: lld's --gc-sections (its
    // default -z start-stop-gc) and GNU ld's -z start-stop-gc. Its reference
    // run must give the same events (main.rs). Large with PIE is x86_64's
    // alone (aarch64 has no large PIC model); the rest build on every
    // architecture of the cross suites.
    Program {
        name: "tl_large_pie",
        flags: &["-mcmodel=large", "-fPIE"],
        link_flags: &["-pie"],
        ..TL_VARIANT
    },
    Program {
        name: "tl_large_nopie",
        flags: &["-mcmodel=large", "-fno-pic"],
        link_flags: &["-no-pie"],
        ..TL_VARIANT
    },
    Program {
        name: "tl_gc_lld",
        flags: GC_COMPILE,
        link_flags: &["-fuse-ld=lld", "-Wl,--gc-sections"],
        ..TL_VARIANT
    },
    Program {
        name: "tl_gc_bfd",
        flags: GC_COMPILE,
        link_flags: &["-Wl,--gc-sections", "-Wl,-z,start-stop-gc"],
        ..TL_VARIANT
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
