//! The one description of every C/C++ test program: what it is built from and
//! how, and in which modes it runs on the host (cargo tests, sanitizers) and in
//! the real-kernel VM suite. Every builder and runner reads [`PROGRAMS`].
//!
//! Arguments and environment values may hold placeholders, replaced when a
//! run is prepared:
//! `{dir}` (a scratch directory of the run), `{path:NAME}` (the build of
//! program NAME in the same configuration: a shared library the program
//! loads, a helper it starts), `{stress_seconds}`, `{stress_rate}`,
//! `{dl_loops}` (set per runner, see [`crate::run::Vars`]), and in the VM suite
//! `{results}` (the guest's results directory), `{reference}` (the
//! reference capture file) and `{eventheader}` (the command-line tool,
//! [`crate::cli_binary`]).

use crate::checks;

/// A C or C++ test program.
#[derive(Debug)]
pub struct Program {
    /// Unique name; its builds are `NAME` (executables) or `libNAME.so`.
    pub name: &'static str,
    /// Sources, relative to the repository root. `.cpp` files are C++; `.c`
    /// files are C, or C++ when built with a C++ standard in [`Standard::c`].
    pub sources: &'static [&'static str],
    pub output: Output,
    pub link: Link,
    /// Extra compiler flags (defines).
    pub flags: &'static [&'static str],
    /// Include directories, relative to the repository root, searched before
    /// `include/` (e.g. `include/windows-compat` for ported Windows code).
    pub include_dirs: &'static [&'static str],
    /// The standards the cargo tests build it with. The first is the one of
    /// the sanitizer, benchmark and VM builds.
    pub standards: &'static [Standard],
    /// The compilers the cargo tests build it with.
    pub compilers: Compilers,
    /// Modes on the host: the cargo tests run them by name, the sanitizer
    /// runs run every one of them (see [`Run::threads`], [`Run::not_under`]).
    pub runs: &'static [Run],
    /// Runs in the real-kernel VM suite, in manifest order.
    pub vm: &'static [VmRun],
}

/// What a program's build is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Executable,
    SharedLibrary,
}

/// How a program gets the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// `libeventheader_tracepoint.so`, found through DT_RPATH.
    Shared,
    /// `libeventheader_tracepoint.a` (only glibc shared).
    Static,
    /// Not at all.
    None,
    /// Not linked: the program loads the library itself with `dlopen`, from
    /// the path in the macro `TEST_LIBRARY_PATH` (the library directory's
    /// `libeventheader_tracepoint.so`).
    Loaded,
}

/// A language standard for `.c` and one for `.cpp` sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Standard {
    pub c: &'static str,
    pub cxx: &'static str,
}

/// The compilers of the cargo tests' builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compilers {
    /// gcc, and clang when installed (`REQUIRE_CLANG=1` makes it required).
    All,
    Gcc,
}

/// What a build is for: its optimization and instrumentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavour {
    /// The cargo tests: `-g`, no optimization.
    Plain,
    /// `-fsanitize=address,undefined -fno-sanitize-recover=all`.
    Asan,
    /// `-fsanitize=thread`.
    Tsan,
    /// Run under valgrind memcheck; `-gdwarf-4` (valgrind 3.19 cannot read
    /// clang's DWARF 5).
    Valgrind,
    /// `-O2`: the benchmarks and the VM suite.
    Optimized,
}

impl Flavour {
    /// The sanitizer flavours, in the order `testkit sanitize` runs them.
    pub const SANITIZERS: [Flavour; 3] = [Flavour::Asan, Flavour::Tsan, Flavour::Valgrind];

    pub fn name(self) -> &'static str {
        match self {
            Flavour::Plain => "plain",
            Flavour::Asan => "asan",
            Flavour::Tsan => "tsan",
            Flavour::Valgrind => "valgrind",
            Flavour::Optimized => "optimized",
        }
    }

    pub fn from_name(name: &str) -> Option<Flavour> {
        [
            Flavour::Plain,
            Flavour::Asan,
            Flavour::Tsan,
            Flavour::Valgrind,
            Flavour::Optimized,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }
}

/// One mode of a program on the host.
#[derive(Debug)]
pub struct Run {
    /// The name the cargo tests use; unique per program.
    pub name: &'static str,
    pub args: &'static [&'static str],
    pub env: &'static [(&'static str, &'static str)],
    /// TRACEPOINT_CAPTURE_FILE names a fresh file (else it is removed from
    /// the environment).
    pub capture: bool,
    /// Threads run concurrently: TSan runs it too. ASan+UBSan and valgrind
    /// run every run.
    pub threads: bool,
    /// Sanitizer flavours that leave this run out, each with the reason.
    pub not_under: &'static [(Flavour, &'static str)],
}

/// One run of a program in the real-kernel VM suite.
#[derive(Debug)]
pub struct VmRun {
    /// Its name in the results and verdicts; unique in the suite.
    pub name: &'static str,
    pub args: &'static [&'static str],
    pub env: &'static [(&'static str, &'static str)],
    pub check: VmCheck,
}

/// How the VM suite runs and judges a [`VmRun`].
#[derive(Debug)]
pub enum VmCheck {
    /// The program checks itself: passes when it exits 0; its `NAME: N
    /// checks, M failed` lines are the summary. With `perf_summary`
    /// (`(NAME, detail)`), the program also recorded `NAME.perf.data` and
    /// wrote `NAME.expect` in `{results}`, judged as [`VmCheck::Summary`].
    SelfCheck {
        perf_summary: Option<(&'static str, &'static str)>,
    },
    /// Run in capture mode, then under `perf record` of the tracepoints it
    /// captured (both pinned to one CPU): every sample must carry exactly the
    /// bytes of its capture record; with `reference`, the capture must also
    /// equal the reference capture file.
    Identity { reference: bool },
    /// Like [`VmCheck::Identity`] without the reference, but perf attaches
    /// only to what the program registered itself: the guest pre-registers
    /// nothing and starts the program with `EHK_READY_FILE` and
    /// `EHK_GO_FILE` set; the program registers its providers, creates the
    /// READY file and waits until the GO file exists before its first write.
    /// perf, started in between on the tracepoints of the capture-mode run,
    /// fails unless every one of them was registered by then. For programs
    /// whose tracepoints exist before their first write (at least two).
    IdentityAfterRegistration,
    /// Like [`VmCheck::IdentityAfterRegistration`], for a program whose
    /// events carry random activity ids: each run has its own, so perf's
    /// samples must equal the capture records once every activity id of the
    /// capture is replaced, wherever it occurs, by the id at the same place
    /// in perf's samples, and that replacement must be one to one (an id of
    /// one run is always the same id of the other).
    IdentityAfterRegistrationRandomIds,
    /// Under `perf record` of the tracepoints `PROGRAM --names` prints,
    /// `instances` processes at once: the samples per (tracepoint, pid) must
    /// be what the program wrote to `EHK_EXPECT_FILE`; `pid` fields equal the
    /// sample's pid, `seq` fields count from 0.
    Summary {
        detail: &'static str,
        instances: u32,
    },
    /// Under `perf record` of `names` (plus `perf_opts`): `check` judges the
    /// samples' top-level 4-byte `fields` against the program's output.
    Fields {
        names: &'static [&'static str],
        perf_opts: &'static [&'static str],
        fields: &'static [&'static str],
        check: checks::FieldsCheck,
    },
    /// `bash SCRIPT PROGRAM ARGS...` (the script prepares what the run needs,
    /// e.g. users and permissions): judged like `SelfCheck`, or by `judge`.
    Script {
        script: &'static str,
        judge: Option<checks::ResultsCheck>,
    },
}

impl Program {
    /// The run named `name`; panics if there is none.
    pub fn run(&self, name: &str) -> &'static Run {
        let runs: &'static [Run] = self.runs;
        runs.iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("program {} has no run {name:?}", self.name))
    }

    /// The file name of its build.
    pub fn file_name(&self) -> String {
        match self.output {
            Output::Executable => self.name.to_string(),
            Output::SharedLibrary => format!("lib{}.so", self.name),
        }
    }

    /// The programs its runs name with `{path:NAME}`.
    pub fn dependencies(&self) -> Vec<&'static Program> {
        let args = self
            .runs
            .iter()
            .flat_map(|r| r.args)
            .chain(self.vm.iter().flat_map(|r| r.args));
        let mut out: Vec<&'static Program> = Vec::new();
        for arg in args {
            if let Some(name) = arg.strip_prefix("{path:").and_then(|a| a.strip_suffix('}')) {
                let dep = program(name);
                if !out.iter().any(|p| p.name == dep.name) {
                    out.push(dep);
                }
            }
        }
        out
    }
}

/// The program named `name`; panics if there is none.
pub fn program(name: &str) -> &'static Program {
    PROGRAMS
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no program {name:?} in the manifest"))
}

// ---------------------------------------------------------------------------
// The programs
// ---------------------------------------------------------------------------

const fn std(c: &'static str, cxx: &'static str) -> Standard {
    Standard { c, cxx }
}

const C11: &[Standard] = &[std("c11", "c++17")];
const GNU11: &[Standard] = &[std("gnu11", "c++17")];

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

/// A C11 program linked to the shared library, built with every compiler,
/// with no runs: the base the entries below start from.
const BASE: Program = Program {
    name: "",
    sources: &[],
    output: Output::Executable,
    link: Link::Shared,
    flags: &[],
    include_dirs: &[],
    standards: C11,
    compilers: Compilers::All,
    runs: &[],
    vm: &[],
};

/// A run with no arguments in capture mode: the base of the runs below.
const RUN: Run = Run {
    name: "capture",
    args: &[],
    env: &[],
    capture: true,
    threads: false,
    not_under: &[],
};

/// A single-threaded run with no capture file.
const PLAIN_RUN: Run = Run {
    capture: false,
    ..RUN
};

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

/// The real-kernel suite's own programs (`tests/kernel/src`): gnu11, gcc.
const KERNEL: Program = Program {
    standards: GNU11,
    compilers: Compilers::Gcc,
    ..BASE
};

const SELF_CHECK: VmCheck = VmCheck::SelfCheck { perf_summary: None };

/// A VM run without arguments or environment: the base of the VM runs below.
const VM: VmRun = VmRun {
    name: "",
    args: &[],
    env: &[],
    check: SELF_CHECK,
};

/// The permission rows: `tests/kernel/perm.sh T_PERM MODE`.
const PERM: VmCheck = VmCheck::Script {
    script: "tests/kernel/perm.sh",
    judge: None,
};

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
const TPP_RECORDER: &str = "c-tests/tpp/recorder.c";

/// Where the recorder writes: `{dir}/rec.cmd` and `{dir}/rec.dat`.
const TPP_RECORD: &[(&str, &str)] = &[("TPP_RECORD_PREFIX", "{dir}/rec")];

/// The interposition test's program (tests/interpose.rs).
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
/// members is the CMake build's; tests/install.rs runs this program against
/// it, and the shared build runs under every sanitizer).
const INTERPOSE_STATIC_RUNS: &[Run] = &[Run {
    not_under: &[
        (Flavour::Asan, INTERPOSE_ONE_OBJECT),
        (Flavour::Valgrind, INTERPOSE_ONE_OBJECT),
    ],
    ..INTERPOSE_RUNS[0]
}];

const INTERPOSE_ONE_OBJECT: &str =
    "the sanitizer builds link cargo's release archive, one object with the tracepoint.h functions";

/// The partly replaced tracepoint layer's program (tests/interpose.rs).
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
        "links only against the CMake build's archive of members (tests/install.rs)",
    ),
    (
        Flavour::Valgrind,
        "links only against the CMake build's archive of members (tests/install.rs)",
    ),
];

/// The TPP programs' guest script: `tpp.sh PROGRAM REGS` (REGS relative to
/// the repository).
const TPP_SCRIPT: &str = "tests/kernel/tpp.sh";

/// The porting suite's sources (issue 17): one program.
const WINPORT_SOURCES: &[&str] = &[
    "c-tests/windows-port/wp_main.c",
    "c-tests/windows-port/wp_helpers.c",
    "c-tests/windows-port/wp_harness.c",
];

/// The only change a Windows TraceLogging program needs to build here.
const WINPORT_INCLUDE: &[&str] = &["include/windows-compat"];

/// Every C/C++ test program. The VM suite runs their `vm` runs in this
/// order: the benchmark last, because it leaves its tracepoint enabled.
pub static PROGRAMS: &[Program] = &[
    // --- tests/kernel/src: the real-kernel suite's own programs -------------
    Program {
        name: "uev_raw",
        sources: &["tests/kernel/src/uev_raw.c"],
        link: Link::None,
        ..KERNEL
    },
    Program {
        name: "t_basic",
        sources: &["tests/kernel/src/t_basic.c"],
        vm: &[VmRun {
            name: "basic_program",
            args: &["{path:uev_raw}", "{results}"],
            check: VmCheck::SelfCheck {
                perf_summary: Some((
                    "basic",
                    "perf toggled both words; EBADF when disabled; no kernel updates after unregister",
                )),
            },
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_coexist",
        sources: &["tests/kernel/src/t_coexist.c"],
        vm: &[VmRun {
            name: "coexist",
            args: &["{path:uev_raw}"],
            check: SELF_CHECK,
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_replay",
        sources: &["tests/kernel/src/t_replay.c"],
        vm: &[VmRun {
            name: "replay",
            args: &["{reference}"],
            check: VmCheck::Identity { reference: true },
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_fork",
        sources: &["tests/kernel/src/t_fork.c"],
        vm: &[VmRun {
            name: "fork",
            args: &[],
            check: VmCheck::Summary {
                detail: "child events carry the child's pid",
                instances: 1,
            },
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_writer",
        sources: &["tests/kernel/src/t_writer.c"],
        vm: &[VmRun {
            name: "multi",
            args: &["500"],
            check: VmCheck::Summary {
                detail: "two writer processes on one tracepoint",
                instances: 2,
            },
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_many",
        sources: &["tests/kernel/src/t_many.c"],
        vm: &[VmRun {
            name: "many",
            args: &[],
            check: VmCheck::Summary {
                detail: "50 level/keyword tracepoints, all enabled",
                instances: 1,
            },
            ..VM
        }],
        ..KERNEL
    },
    // Runs as another user from a guest tmpfs (possibly setuid), so it
    // carries the library.
    Program {
        name: "t_perm",
        sources: &["tests/kernel/src/t_perm.c"],
        link: Link::Static,
        vm: &[
            VmRun {
                name: "perm_denied",
                args: &["denied"],
                check: PERM,
                ..VM
            },
            VmRun {
                name: "perm_granted",
                args: &["granted"],
                check: PERM,
                ..VM
            },
            VmRun {
                name: "suid",
                args: &["suid"],
                check: PERM,
                ..VM
            },
        ],
        ..KERNEL
    },
    // --- c-tests/core: the core library's C ABI ------------------------------
    // Also compiled as C++ (-x c++), to check the headers' layouts there.
    Program {
        name: "abi_layout",
        sources: &["c-tests/core/abi_layout.c"],
        standards: &[
            std("c11", "c++17"),
            std("c++17", "c++17"),
        ],
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
    // --- c-tests/tracelogging: TraceLoggingProvider.h -----------------------
    Program {
        name: "tl_test",
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
        sources: &["c-tests/tracelogging/tl_autoclose.c"],
        runs: &[RUN],
        ..BASE
    },
    // Counted fields at and over 65535 (issue 28.6), as C and as C++.
    Program {
        name: "tl_oversize",
        sources: &["c-tests/tracelogging/tl_oversize.c"],
        standards: &[std("c11", "c++17"), std("c++17", "c++17")],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "tl_badname",
        sources: &["c-tests/tracelogging/tl_badname.c"],
        standards: GNU11,
        compilers: Compilers::Gcc,
        runs: &[RUN],
        ..BASE
    },
    // --- c-tests/tpp: tracepoint-provider.h ----------------------------------
    // The reference data's program, unchanged, against the library: capture
    // mode on the host; in the VM, the reference's own registration strings
    // pre-registered, then the program under perf (checks::tpp::oracle).
    Program {
        name: "tpp_all",
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
    // --- samples/ ---------------------------------------------------------------
    Program {
        name: "c_sample",
        sources: &["samples/c/sample.c"],
        runs: &[Run {
            name: "args",
            args: &["one", "two"],
            ..RUN
        }],
        ..BASE
    },
    // The README's two C examples (tests/docs.rs checks that they are these files).
    Program {
        name: "hello_c",
        sources: &["samples/c/hello.c"],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "dyn_hello_c",
        sources: &["samples/dynamic/hello.c"],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "cpp_sample",
        sources: &["samples/cpp/sample.cpp"],
        runs: &[RUN],
        ..BASE
    },
    // Windows code with activities (TraceLoggingActivity.h), built with
    // include/windows-compat, C++14 and C++17.
    Program {
        name: "activity_sample",
        sources: &["samples/activity/activity.cpp"],
        include_dirs: WINPORT_INCLUDE,
        standards: &[std("c11", "c++17"), std("c11", "c++14")],
        runs: &[Run {
            threads: true,
            ..RUN
        }],
        ..BASE
    },
    Program {
        name: "tpp_sample",
        sources: &["samples/tpp/tpp-sample.c"],
        ..TPP
    },
    Program {
        name: "dyn_sample_c",
        sources: &["samples/dynamic/sample.c"],
        runs: &[RUN],
        ..BASE
    },
    Program {
        name: "dyn_sample_cpp",
        sources: &["samples/dynamic/sample.cpp"],
        runs: &[RUN],
        ..BASE
    },
    // --- c-tests/interpose: the tracepoint layer replaced at link time -------
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
    // Only against the CMake build's archive of members (tests/install.rs):
    // cargo's archives hold the tracepoint.h functions in an object with
    // others the program needs, so the link finds tracepoint_write twice.
    Program {
        name: "interpose_partial_static",
        sources: &[INTERPOSE_PARTIAL],
        link: Link::Static,
        runs: INTERPOSE_PARTIAL_STATIC_RUNS,
        ..BASE
    },
    // --- c-tests/dynamic: runtime-defined events (eventheader-dynamic.h, ----
    // EventHeaderDynamic.h). C programs as C11 and gnu11, C++ as C++17 and 20.
    Program {
        name: "dyn_reference",
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
    // --- c-tests/hardening: stress, fork, dlopen/dlclose, bad input ----------
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
        // perf lost a third of the samples under TCG.
        vm: &[VmRun {
            name: "stress",
            args: &["10", "kernel", "500"],
            check: VmCheck::Fields {
                names: &["HardStress_L5K1", "HardStress_L4K2", "HardStressAlt_L4K2"],
                perf_opts: &["-m", "4M"],
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
    // handlers (tests/hardening_capture.rs).
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
    // --- c-tests/windows-port, benches/c/handles.c: porting from Windows ------
    // (issue 17; kept together as one block.) The porting suite is
    // Windows-style TraceLogging code built with only include/windows-compat
    // added to the include path: as C (winport_c) and, the same .c files,
    // as C++ (winport_cpp; also its templates). In the VM perf attaches only
    // to what its registration created, before its first write.
    Program {
        name: "winport_c",
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
    // The activity classes of <TraceLoggingActivity.h> (issue 24): C++ (the
    // issue's C++14/17/20, and C++11) calling C code (C11) that writes while
    // its thread is in an activity; two threads at once, in a fixed order.
    Program {
        name: "winport_activity",
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
        sources: &["c-tests/windows-port/wp_handles.c"],
        standards: &[std("c11", "c++17"), std("c++17", "c++17")],
        runs: &[Run {
            args: &["8", "2000"],
            threads: true,
            ..RUN
        }],
        ..BASE
    },
    // The disabled-cost benchmark of a provider handle beside the provider
    // symbol (benches/run-callgrind.sh modes handle-*, symbol-*).
    Program {
        name: "handles",
        sources: &["benches/c/handles.c"],
        standards: GNU11,
        ..BASE
    },
    // --- cli/tests/vm: the command-line tool (cli/) against the real kernel ---
    // The guest script drives `eventheader` (register, collect, decode, perf
    // record and script, the error cases) with this writer; checks::cli
    // judges what it left in RESULTS/cli/.
    Program {
        name: "cli_writer",
        sources: &["cli/tests/vm/cli_writer.c"],
        vm: &[VmRun {
            name: "cli",
            args: &["{eventheader}", "{reference}"],
            check: VmCheck::Script {
                script: "cli/tests/vm/guest.sh",
                judge: Some(checks::cli::judge),
            },
            ..VM
        }, VmRun {
            name: "cli_circular",
            args: &["{eventheader}"],
            check: VmCheck::Script {
                script: "cli/tests/vm/circular.sh",
                judge: Some(checks::cli_circular::judge),
            },
            ..VM
        },
        // `eventheader doctor`: all well, then the states that make events
        // go nowhere; checks::cli_doctor judges RESULTS/cli_doctor/.
        VmRun {
            name: "cli_doctor",
            args: &["{eventheader}"],
            check: VmCheck::Script {
                script: "cli/tests/vm/doctor.sh",
                judge: Some(checks::cli_doctor::judge),
            },
            ..VM
        }],
        ..KERNEL
    },
    // --- benches/c: the benchmark and its syscall floor ----------------------
    // The VM runs benches/run-callgrind.sh against user_events.
    Program {
        name: "bench",
        sources: &["benches/c/bench.c"],
        standards: GNU11,
        vm: &[VmRun {
            name: "bench",
            args: &["{path:floor}", "{path:dynamic}", "{path:exporter}"],
            check: VmCheck::Script {
                script: "tests/kernel/bench.sh",
                judge: Some(checks::bench),
            },
            ..VM
        }],
        ..BASE
    },
    // Runtime-defined events beside bench's TraceLoggingWrite modes (run by
    // benches/run-callgrind.sh, modes dynamic*; in the VM by bench.sh).
    Program {
        name: "dynamic",
        sources: &["benches/c/dynamic.cpp"],
        standards: GNU11,
        ..BASE
    },
    // A model of the OpenTelemetry user_events logs exporter's record, with a
    // new and with a reused builder (benches/run-callgrind.sh, modes
    // exporter_*; in the VM by bench.sh).
    Program {
        name: "exporter",
        sources: &["benches/c/exporter.cpp"],
        standards: GNU11,
        ..BASE
    },
    Program {
        name: "floor",
        sources: &["benches/c/floor.c"],
        standards: GNU11,
        link: Link::None,
        compilers: Compilers::Gcc,
        ..BASE
    },
];

/// The programs the cargo tests also compile with `-pedantic` (without
/// `-Werror`; tests/headers.rs): every source in every configuration of
/// [`crate::build::test_configs`]. Together they use every macro of
/// TraceLoggingProvider.h (the Windows-port programs its Windows forms),
/// TraceLoggingActivity.h, tracepoint-provider.h and the runtime-defined
/// event headers.
pub const PEDANTIC: &[&str] = &[
    "tl_test",
    "tl_autoclose",
    "tl_badname",
    "tl_oversize",
    "hello_c",
    "dyn_hello_c",
    "c_sample",
    "cpp_sample",
    "winport_c",
    "winport_cpp",
    "winport_handles",
    "winport_activity",
    "activity_sample",
    "tpp_all",
    "tpp_multi",
    "tpp_layouts",
    "tpp_custom",
    "tpp_sample",
    "dyn_reference",
    "dyn_reference_cpp",
    "dyn_features",
    "dyn_features_cpp",
    "dyn_sample_c",
    "dyn_sample_cpp",
];

/// The most warnings the [`PEDANTIC`] compilations may give, per compiler
/// and language (summed over programs, sources and standards). A change that
/// removes warnings lowers its bound; none may raise one.
pub const PEDANTIC_BOUNDS: &[(&str, &str, usize)] = &[
    ("gcc", "C", 0),
    ("gcc", "C++", 0),
    ("clang", "C", 0),
    ("clang", "C++", 0),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_sources_exist() {
        let root = crate::repo_root();
        let mut programs = HashSet::new();
        let mut vm = HashSet::new();
        for p in PROGRAMS {
            assert!(programs.insert(p.name), "program {} twice", p.name);
            assert!(
                !p.sources.is_empty() && !p.standards.is_empty(),
                "{}",
                p.name
            );
            for s in p.sources {
                assert!(root.join(s).is_file(), "{}: no {s}", p.name);
            }
            for d in p.include_dirs {
                assert!(root.join(d).is_dir(), "{}: no directory {d}", p.name);
            }
            let mut runs = HashSet::new();
            for r in p.runs {
                assert!(runs.insert(r.name), "{}: run {} twice", p.name, r.name);
            }
            for r in p.vm {
                assert!(vm.insert(r.name), "VM run {} twice", r.name);
            }
            // Every {path:NAME} names a program.
            p.dependencies();
        }
    }
}
