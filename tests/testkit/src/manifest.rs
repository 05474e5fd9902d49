//! The one description of every C/C++ test program: what it is built from and
//! how, and in which modes it runs on the host (cargo tests, sanitizers) and in
//! the real-kernel VM suite. Every builder and runner reads [`programs`].
//!
//! Here are the types and the bases the entries start from; the entries
//! themselves are in each suite's folder, `SUITE/manifest.rs` ([`SUITES`]:
//! `c-tests/<suite>/`, `tests/kernel/`, `cli/tests/vm/`, `benches/c/`), so
//! that a suite's programs, driver and description sit together.
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
    /// Extra compiler flags (defines, code model, relocation model).
    pub flags: &'static [&'static str],
    /// Extra link flags (the linker, its section garbage collection, PIE or
    /// not), given after the objects.
    pub link_flags: &'static [&'static str],
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
    /// The cargo tests also compile it with `-pedantic -Werror`
    /// (tests/headers.rs): every source in every configuration of
    /// [`crate::build::test_configs`]. Together these programs use every
    /// macro of TraceLoggingProvider.h (the Windows-port programs its Windows
    /// forms), TraceLoggingActivity.h, tracepoint-provider.h and the
    /// runtime-defined event headers.
    pub pedantic: bool,
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
    programs()
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

/// A C11 program linked to the shared library, built with every compiler,
/// with no runs: the base the entries below start from.
const BASE: Program = Program {
    name: "",
    sources: &[],
    output: Output::Executable,
    link: Link::Shared,
    flags: &[],
    link_flags: &[],
    include_dirs: &[],
    standards: C11,
    compilers: Compilers::All,
    runs: &[],
    vm: &[],
    pedantic: false,
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

// ---------------------------------------------------------------------------
// The suites: each one's programs live in its folder (docs/testing.md)
// ---------------------------------------------------------------------------

#[path = "../../../benches/c/manifest.rs"]
mod benches;
#[path = "../../../cli/tests/vm/manifest.rs"]
mod cli;
#[path = "../../../c-tests/core/manifest.rs"]
mod core_c;
#[path = "../../../c-tests/dynamic/manifest.rs"]
mod dynamic;
#[path = "../../../c-tests/hardening/manifest.rs"]
mod hardening;
#[path = "../../../c-tests/interpose/manifest.rs"]
mod interpose;
#[path = "../../../tests/kernel/manifest.rs"]
mod kernel;
#[path = "../../../c-tests/tpp/manifest.rs"]
mod tpp;
#[path = "../../../c-tests/tracelogging/manifest.rs"]
mod tracelogging;
#[path = "../../../c-tests/windows-port/manifest.rs"]
mod windows_port;

/// A suite's part of the manifest.
#[derive(Debug)]
pub struct Suite {
    /// The suite's name (its cargo test's, where it has one).
    pub name: &'static str,
    /// Its folder, relative to the repository root: its programs, its
    /// driver and its `manifest.rs`.
    pub home: &'static str,
    pub programs: &'static [Program],
}

/// Every suite's programs. The VM suite runs their `vm` runs in this order:
/// the benchmark last, because it leaves its tracepoint enabled.
pub static SUITES: &[Suite] = &[
    Suite {
        name: "kernel",
        home: "tests/kernel",
        programs: kernel::PROGRAMS,
    },
    Suite {
        name: "core",
        home: "c-tests/core",
        programs: core_c::PROGRAMS,
    },
    Suite {
        name: "tracelogging",
        home: "c-tests/tracelogging",
        programs: tracelogging::PROGRAMS,
    },
    Suite {
        name: "tpp",
        home: "c-tests/tpp",
        programs: tpp::PROGRAMS,
    },
    Suite {
        name: "interpose",
        home: "c-tests/interpose",
        programs: interpose::PROGRAMS,
    },
    Suite {
        name: "dynamic",
        home: "c-tests/dynamic",
        programs: dynamic::PROGRAMS,
    },
    Suite {
        name: "hardening",
        home: "c-tests/hardening",
        programs: hardening::PROGRAMS,
    },
    Suite {
        name: "windows_port",
        home: "c-tests/windows-port",
        programs: windows_port::PROGRAMS,
    },
    Suite {
        name: "cli",
        home: "cli/tests/vm",
        programs: cli::PROGRAMS,
    },
    Suite {
        name: "benches",
        home: "benches/c",
        programs: benches::PROGRAMS,
    },
];

/// Every C/C++ test program, suite by suite (in [`SUITES`] order).
pub fn programs() -> impl Iterator<Item = &'static Program> + Clone {
    SUITES.iter().flat_map(|s| s.programs.iter())
}

/// The suite `program` belongs to.
pub fn suite_of(program: &Program) -> &'static Suite {
    SUITES
        .iter()
        .find(|s| s.programs.iter().any(|p| std::ptr::eq(p, program)))
        .expect("every program is in a suite")
}

/// The programs the cargo tests also compile with `-pedantic -Werror`
/// (tests/headers.rs): those marked [`Program::pedantic`].
pub fn pedantic() -> impl Iterator<Item = &'static Program> {
    programs().filter(|p| p.pedantic)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_and_sources_exist() {
        let root = crate::repo_root();
        let mut names = HashSet::new();
        let mut vm = HashSet::new();
        for p in programs() {
            assert!(names.insert(p.name), "program {} twice", p.name);
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

    /// One home per suite (docs/testing.md): a program's sources are in its
    /// suite's folder, apart from the samples it runs, the reference data's
    /// programs and the test-only tracepoint layer that tpp and interpose
    /// share; a VM run's guest script is in the suite's folder or is the VM
    /// suite's own (tests/kernel/).
    #[test]
    fn every_program_lives_in_its_suite() {
        const SHARED: &[&str] = &[
            "samples/",
            "tests/data/reference/",
            "c-tests/tpp/recorder.c",
        ];
        for suite in SUITES {
            let home = format!("{}/", suite.home);
            assert!(crate::repo_root().join(&home).is_dir(), "no {home}");
            for p in suite.programs {
                assert!(std::ptr::eq(suite_of(p), suite));
                for s in p.sources {
                    assert!(
                        s.starts_with(&home) || SHARED.iter().any(|x| s.starts_with(x)),
                        "{}: {s} is outside {home}",
                        p.name
                    );
                }
                for r in p.vm {
                    if let VmCheck::Script { script, .. } = r.check {
                        assert!(
                            script.starts_with(&home) || script.starts_with("tests/kernel/"),
                            "{}: {script} is outside {home}",
                            r.name
                        );
                    }
                }
            }
        }
    }
}
