//! The hardening suite's programs (stress, fork, dlopen/dlclose, bad input,
//! capture files at their limits, capture writes cut off, the diagnostic
//! switch), part of the test-program manifest
//! (`tests/testkit/src/manifest.rs`); driven by `main.rs` and `capture.rs`.

use super::*;

pub(super) static PROGRAMS: &[Program] = &[
    Program {
        name: "stress",
        sources: &["c-tests/hardening/stress.c"],
        runs: &[
            Run {
                args: &["{stress_seconds}", "capture", "{stress_rate}"],
                threads: true,
                ..RUN
            },
            Run {
                name: "nokernel",
                args: &["0.5", "any"],
                threads: true,
                ..PLAIN_RUN
            },
        ],
        // 500 writes per second per writer and event: at the default 2000,
        // perf lost a third of the samples under TCG. The run's samples take
        // about 8.4 MB in all, so a 16 MiB buffer per CPU holds them even when
        // perf gets no CPU time: with 4 MiB, perf lost 2 084 to 34 096
        // samples in 3 of 44 runs on a loaded host (none in 58 with 16 MiB).
        vm: &[VmRun {
            name: "stress",
            args: &["10", "kernel", "500"],
            check: VmCheck::Fields {
                names: &["HardStress_L5K1", "HardStress_L4K2", "HardStressAlt_L4K2"],
                perf_opts: &["-m", "16M"],
                fields: &["a", "b", "c"],
                check: checks::stress,
            },
            ..VM
        }],
        ..BASE
    },
    Program {
        name: "fork",
        sources: &["c-tests/hardening/fork.c"],
        runs: &[
            Run {
                args: &["capture"],
                ..RUN
            },
            Run {
                name: "busy",
                args: &["capture", "busy"],
                threads: true,
                not_under: &[(
                    Flavour::Valgrind,
                    "valgrind runs one thread at a time and lets the thread that takes the \
                     library lock in a tight loop re-take it slice after slice: the forking \
                     thread can wait for minutes (covered by ASan, TSan, cargo test and the VM)",
                )],
                ..RUN
            },
        ],
        // HARDENING_FORK_ALARM: each busy child's deadlock alarm (default
        // 5 s), longer under TCG.
        vm: &[VmRun {
            name: "fork_busy",
            args: &["kernel", "busy"],
            env: &[
                ("HARDENING_EXPECT_ENABLED", "1"),
                ("HARDENING_FORK_ALARM", "20"),
            ],
            check: VmCheck::Fields {
                names: &["HardFork_L5K1", "HardFork_L5K2"],
                perf_opts: &[],
                fields: &["a", "b", "c"],
                check: checks::fork_busy,
            },
        }],
        ..BASE
    },
    Program {
        name: "dlprov",
        sources: &["c-tests/hardening/dlprov.c"],
        output: Output::SharedLibrary,
        ..BASE
    },
    // dlprov linked with section garbage collection (as tl_gc_lld and
    // tl_gc_bfd), loaded by dlclose_loop's runs gc_lld and gc_bfd.
    Program {
        name: "dlprov_gc_lld",
        sources: &["c-tests/hardening/dlprov.c"],
        output: Output::SharedLibrary,
        flags: super::tracelogging::GC_COMPILE,
        link_flags: &["-fuse-ld=lld", "-Wl,--gc-sections"],
        ..BASE
    },
    Program {
        name: "dlprov_gc_bfd",
        sources: &["c-tests/hardening/dlprov.c"],
        output: Output::SharedLibrary,
        flags: super::tracelogging::GC_COMPILE,
        link_flags: &["-Wl,--gc-sections", "-Wl,-z,start-stop-gc"],
        ..BASE
    },
    Program {
        name: "dlforget",
        sources: &["c-tests/hardening/dlprov.c"],
        output: Output::SharedLibrary,
        flags: &["-DHARDENING_FORGET"],
        ..BASE
    },
    Program {
        name: "dlclose_loop",
        sources: &["c-tests/hardening/dlclose_loop.c"],
        runs: &[
            Run {
                args: &["{path:dlprov}", "{dl_loops}", "capture"],
                ..RUN
            },
            Run {
                name: "forget",
                args: &["{path:dlforget}", "{dl_loops}", "capture", "forget"],
                ..RUN
            },
            Run {
                name: "gc_lld",
                args: &["{path:dlprov_gc_lld}", "100", "capture"],
                not_under: super::tracelogging::VARIANT_NOT_UNDER,
                ..RUN
            },
            Run {
                name: "gc_bfd",
                args: &["{path:dlprov_gc_bfd}", "100", "capture"],
                not_under: super::tracelogging::VARIANT_NOT_UNDER,
                ..RUN
            },
        ],
        vm: &[VmRun {
            name: "dlclose",
            args: &["{path:dlprov}", "1000", "kernel"],
            env: &[("HARDENING_EXPECT_ENABLED", "1")],
            check: VmCheck::Fields {
                names: &["HardDl_L5K1"],
                perf_opts: &[],
                fields: &["i"],
                check: checks::dlclose,
            },
        }],
        ..BASE
    },
    // The library itself loaded and unloaded (not a client of it): directly,
    // and as the dependency of a plugin, each followed by fork().
    Program {
        name: "dlunload",
        sources: &["c-tests/hardening/dlunload.c"],
        link: Link::Loaded,
        runs: &[
            Run {
                name: "self",
                args: &["self", "{dl_loops}", "capture"],
                ..RUN
            },
            Run {
                name: "plugin",
                args: &["plugin", "{path:dlprov}", "capture"],
                ..RUN
            },
        ],
        vm: &[
            VmRun {
                name: "dlunload_self",
                args: &["self", "1000", "kernel"],
                ..VM
            },
            VmRun {
                name: "dlunload_plugin",
                args: &["plugin", "{path:dlprov}", "kernel"],
                ..VM
            },
        ],
        ..BASE
    },
    Program {
        name: "badinput",
        sources: &["c-tests/hardening/badinput.c"],
        runs: &[
            Run {
                args: &["capture"],
                ..RUN
            },
            Run {
                name: "names",
                args: &["names", "capture"],
                ..RUN
            },
            Run {
                name: "nokernel",
                args: &["nokernel"],
                ..PLAIN_RUN
            },
            Run {
                name: "setfile-missing",
                args: &["setfile", "{dir}/no/such/dir/cap.dat"],
                ..PLAIN_RUN
            },
            Run {
                name: "setfile-dir",
                args: &["setfile", "{dir}"],
                ..PLAIN_RUN
            },
            Run {
                name: "full",
                args: &["writefail", "/dev/full"],
                ..PLAIN_RUN
            },
            Run {
                name: "fsize",
                args: &["fsize", "{dir}/fsize.dat", "{dir}/next.dat"],
                ..PLAIN_RUN
            },
            Run {
                name: "fdexhaust",
                args: &["fdexhaust", "{dir}/fd.dat"],
                ..PLAIN_RUN
            },
        ],
        // Every bad-name row against the real kernel, and tracefs still
        // lists afterwards.
        vm: &[VmRun {
            name: "badinput_names",
            args: &["names", "kernel"],
            ..VM
        }],
        ..BASE
    },
    // Capture files that are pipes, at their limits, and written from signal
    // handlers (capture.rs).
    Program {
        name: "capsig",
        sources: &["c-tests/hardening/capsig.c"],
        runs: &[
            Run {
                name: "reader-exits",
                args: &["reader-exits", "{dir}/fifo"],
                ..PLAIN_RUN
            },
            Run {
                name: "two-writers",
                args: &["two-writers", "{dir}/fifo", "{dir}/out.dat"],
                ..PLAIN_RUN
            },
            Run {
                name: "fsize-boundary",
                args: &["fsize-boundary", "{dir}/cap.dat"],
                ..PLAIN_RUN
            },
            Run {
                name: "huge",
                args: &["huge", "{dir}/cap.dat"],
                ..PLAIN_RUN
            },
            Run {
                name: "handler",
                args: &["handler", "{dir}/fifo"],
                ..PLAIN_RUN
            },
        ],
        ..BASE
    },
    // Capture writes cut off by pthread_cancel and by siglongjmp out of a
    // signal handler (capture.rs). Not under TSan (`threads: false`), which
    // does not follow a thread cancelled inside a system call.
    Program {
        name: "capcut",
        sources: &["c-tests/hardening/capcut.c"],
        runs: &[
            Run {
                name: "cancel",
                args: &["cancel", "{dir}/fifo"],
                ..PLAIN_RUN
            },
            Run {
                name: "longjmp",
                args: &["longjmp", "{dir}/fifo"],
                ..PLAIN_RUN
            },
        ],
        ..BASE
    },
    // The capture path's system calls (capture.rs runs the `records` modes
    // under strace) and the diagnostic switch EVENTHEADER_DEBUG.
    Program {
        name: "captimed",
        sources: &["c-tests/hardening/captimed.c"],
        standards: GNU11,
        runs: &[
            Run {
                name: "timed",
                args: &["{dir}/cap.dat", "200"],
                env: &[("TRACEPOINT_CAPTURE_LAYOUT", "timed")],
                threads: true,
                ..PLAIN_RUN
            },
            Run {
                name: "bad-layout",
                args: &["{dir}/cap.dat"],
                env: &[("TRACEPOINT_CAPTURE_LAYOUT", "Timed")],
                ..PLAIN_RUN
            },
        ],
        ..BASE
    },
    Program {
        name: "capdiag",
        sources: &["c-tests/hardening/capdiag.c"],
        runs: &[
            Run {
                name: "records",
                args: &["records", "1000", "{dir}/cap.dat"],
                ..PLAIN_RUN
            },
            Run {
                name: "records-limited",
                args: &["records-limited", "1000", "{dir}/cap.dat"],
                ..PLAIN_RUN
            },
            Run {
                name: "debug-missing-dir",
                args: &["open", "{dir}/nonexistent/ev.dat"],
                env: &[("EVENTHEADER_DEBUG", "1")],
                ..PLAIN_RUN
            },
            Run {
                name: "quiet-missing-dir",
                args: &["open", "{dir}/nonexistent/ev.dat"],
                ..PLAIN_RUN
            },
            Run {
                name: "debug-kernel",
                args: &["open", "-"],
                env: &[("EVENTHEADER_DEBUG", "1")],
                ..PLAIN_RUN
            },
            Run {
                name: "debug-write-errors",
                args: &["write-errors", "10"],
                env: &[("EVENTHEADER_DEBUG", "1")],
                ..PLAIN_RUN
            },
        ],
        ..BASE
    },
];
