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

mod entry;

pub use entry::{Compilers, Flavour, Link, Output, Program, Run, Standard, VmCheck, VmRun};

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
