//! The core suite's programs (the core library's C ABI), part of the
//! test-program manifest (`tests/testkit/src/manifest.rs`); driven by `main.rs`.

use super::*;

pub(super) static PROGRAMS: &[Program] = &[
    // Also compiled as C++ (-x c++), to check the headers' layouts there.
    Program {
        name: "abi_layout",
        sources: &["c-tests/core/abi_layout.c"],
        standards: &[std("c11", "c++17"), std("c++17", "c++17")],
        runs: &[Run {
            name: "table",
            ..PLAIN_RUN
        }],
        ..BASE
    },
    Program {
        name: "encodings",
        sources: &["c-tests/core/encodings.c"],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "activity",
        sources: &["c-tests/core/activity.c"],
        compilers: Compilers::Gcc,
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "dedup",
        sources: &["c-tests/core/dedup.c"],
        compilers: Compilers::Gcc,
        runs: &[RUN],
        ..BASE
    },
    // Arrays of event and definition pointers in read-only memory: PIE
    // (RELRO) and non-PIE (.rodata), with gcc and clang.
    Program {
        name: "rodata",
        sources: &["c-tests/core/rodata.c"],
        flags: &["-fPIE"],
        link_flags: &["-pie"],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "rodata_nopie",
        sources: &["c-tests/core/rodata.c"],
        flags: &["-fno-pic"],
        link_flags: &["-no-pie"],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "oracle",
        sources: &["c-tests/core/oracle.c"],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "errors",
        sources: &["c-tests/core/errors.c"],
        compilers: Compilers::Gcc,
        runs: &[
            Run {
                args: &["capture"],
                ..RUN
            },
            Run {
                name: "nokernel",
                args: &["nokernel", "{dir}/set1.dat", "{dir}/set2.dat"],
                ..PLAIN_RUN
            },
        ],
        ..BASE
    },
    Program {
        name: "threads",
        sources: &["c-tests/core/threads.c"],
        compilers: Compilers::Gcc,
        runs: &[Run {
            threads: true,
            ..RUN
        }],
        ..BASE
    },
];
