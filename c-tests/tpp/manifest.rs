//! The tracepoint-provider.h suite's programs, part of the test-program
//! manifest (`tests/testkit/src/manifest.rs`); driven by `main.rs`, judged in
//! the VM suite by `vm_checks.rs`.

use super::*;

/// The tracepoint-provider.h programs' standards: C and C++ levels as the
/// other headers are held to.
const TPP_STANDARDS: &[Standard] = &[
    std("c11", "c++17"),
    std("gnu11", "c++11"),
    std("gnu17", "c++20"),
];

/// A tracepoint-provider.h program: its standards, and one capture run
/// unless it says otherwise.
const TPP: Program = Program {
    standards: TPP_STANDARDS,
    runs: &[RUN],
    ..BASE
};

/// The reference data's tracepoint-provider.h program (every macro, C and
/// C++), compiled unchanged.
const TPP_ALL: &[&str] = &[
    "tests/data/reference/tpp/tpp_all_c.c",
    "tests/data/reference/tpp/tpp_all_cpp.cpp",
    "tests/data/reference/tpp/tpp_all_main.c",
];

const TPP_MULTI: &[&str] = &[
    "c-tests/tpp/multi_a.c",
    "c-tests/tpp/multi_b.cpp",
    "c-tests/tpp/multi_main.c",
];

/// A test-only tracepoint.h that writes down what it is handed (linked
/// instead of the library).
pub(super) const TPP_RECORDER: &str = "c-tests/tpp/recorder.c";

/// Where the recorder writes: `{dir}/rec.cmd` and `{dir}/rec.dat`.
pub(super) const TPP_RECORD: &[(&str, &str)] = &[("TPP_RECORD_PREFIX", "{dir}/rec")];

/// The TPP programs' guest script: `guest.sh PROGRAM REGS` (REGS relative to
/// the repository).
const TPP_SCRIPT: &str = "c-tests/tpp/guest.sh";

pub(super) static PROGRAMS: &[Program] = &[
    // The reference data's program, unchanged, against the library: capture
    // mode on the host; in the VM, the reference's own registration strings
    // pre-registered, then the program under perf (checks::tpp::oracle).
    Program {
        name: "tpp_all",
        pedantic: true,
        sources: TPP_ALL,
        vm: &[VmRun {
            name: "tpp_all",
            args: &["tests/data/reference/tpp/tpp_all.cmd"],
            check: VmCheck::Script {
                script: TPP_SCRIPT,
                judge: Some(checks::tpp::oracle),
            },
            ..VM
        }],
        ..TPP
    },
    // The same, linked with section garbage collection (as tl_gc_lld and
    // tl_gc_bfd): every tracepoint must still be registered and written.
    Program {
        name: "tpp_all_gc_lld",
        sources: TPP_ALL,
        standards: C11,
        flags: super::tracelogging::GC_COMPILE,
        link_flags: &["-fuse-ld=lld", "-Wl,--gc-sections"],
        runs: &[Run {
            not_under: super::tracelogging::VARIANT_NOT_UNDER,
            ..RUN
        }],
        ..BASE
    },
    Program {
        name: "tpp_all_gc_bfd",
        sources: TPP_ALL,
        standards: C11,
        flags: super::tracelogging::GC_COMPILE,
        link_flags: &["-Wl,--gc-sections", "-Wl,-z,start-stop-gc"],
        runs: &[Run {
            not_under: super::tracelogging::VARIANT_NOT_UNDER,
            ..RUN
        }],
        ..BASE
    },
    // The same sources linked with the test-only recorder instead of the
    // library: what the header hands to tracepoint.h ({dir}/rec.cmd, .dat).
    Program {
        name: "tpp_all_rec",
        sources: &[
            "tests/data/reference/tpp/tpp_all_c.c",
            "tests/data/reference/tpp/tpp_all_cpp.cpp",
            "tests/data/reference/tpp/tpp_all_main.c",
            TPP_RECORDER,
        ],
        link: Link::None,
        runs: &[Run {
            name: "record",
            env: TPP_RECORD,
            ..PLAIN_RUN
        }],
        ..TPP
    },
    // Three providers over C and C++ translation units. In the VM it
    // registers with the kernel, nobody listening.
    Program {
        name: "tpp_multi",
        pedantic: true,
        sources: TPP_MULTI,
        runs: &[
            Run {
                args: &["capture"],
                ..RUN
            },
            Run {
                name: "plain",
                args: &["plain"],
                ..PLAIN_RUN
            },
        ],
        vm: &[VmRun {
            name: "tpp_multi",
            args: &["plain"],
            env: &[("TPP_EXPECT_REGISTERED", "1")],
            check: SELF_CHECK,
        }],
        ..TPP
    },
    Program {
        name: "tpp_multi_rec",
        sources: &[
            "c-tests/tpp/multi_a.c",
            "c-tests/tpp/multi_b.cpp",
            "c-tests/tpp/multi_main.c",
            TPP_RECORDER,
        ],
        link: Link::None,
        runs: &[Run {
            name: "recorder",
            args: &["recorder", "{dir}/rec.cmd"],
            env: TPP_RECORD,
            ..PLAIN_RUN
        }],
        ..TPP
    },
    // The client layouts (.NET, OpenTelemetry); in the VM the clients' own
    // strings (c-tests/tpp/layouts.regs) are pre-registered.
    Program {
        name: "tpp_layouts",
        pedantic: true,
        sources: &["c-tests/tpp/layouts.c"],
        vm: &[VmRun {
            name: "tpp_layouts",
            args: &["c-tests/tpp/layouts.regs"],
            check: VmCheck::Script {
                script: TPP_SCRIPT,
                judge: Some(checks::tpp::layouts),
            },
            ..VM
        }],
        ..TPP
    },
    Program {
        name: "tpp_custom",
        pedantic: true,
        sources: &["c-tests/tpp/custom.c"],
        vm: &[VmRun {
            name: "tpp_custom",
            args: &["c-tests/tpp/custom.regs"],
            check: VmCheck::Script {
                script: TPP_SCRIPT,
                judge: Some(checks::tpp::custom),
            },
            ..VM
        }],
        ..TPP
    },
    // samples/tpp, run by main.rs.
    Program {
        name: "tpp_sample",
        pedantic: true,
        sources: &["samples/tpp/tpp-sample.c"],
        ..TPP
    },
];
