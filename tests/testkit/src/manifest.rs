//! The one description of every C/C++ test program: what it is built from and
//! how, and in which modes it runs on the host (cargo tests, sanitizers) and in
//! the real-kernel VM suite. Every builder and runner reads [`programs`].
//!
//! Here are the types and the list of suites; the entries themselves are
//! data in each suite's folder, `SUITE/programs.toml` ([`SUITES`]:
//! `c-tests/<suite>/`, `tests/kernel/`, `cli/tests/vm/`, `benches/c/`), so
//! that a suite's programs, driver and description sit together. `load.rs`
//! reads them (the defaults an entry starts from, the judges it may name).
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

use std::ops::Deref;
use std::sync::OnceLock;

mod entry;
mod load;

pub use entry::{Compilers, Flavour, Link, Output, Program, Run, Standard, VmCheck, VmRun};

/// The program named `name`; panics if there is none.
pub fn program(name: &str) -> &'static Program {
    programs()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no program {name:?} in the manifest"))
}

/// A suite's part of the manifest.
#[derive(Debug)]
pub struct Suite {
    /// The suite's name (its cargo test's, where it has one).
    pub name: &'static str,
    /// Its folder, relative to the repository root: its programs, its
    /// driver and its `programs.toml`.
    pub home: &'static str,
    /// The entries of `HOME/programs.toml`, read on first use.
    pub programs: Programs,
}

/// The programs of one suite: a slice, read from the suite's
/// `programs.toml` the first time any suite's programs are used.
#[derive(Clone, Copy, Debug)]
pub struct Programs(usize);

impl Deref for Programs {
    type Target = [Program];
    fn deref(&self) -> &'static [Program] {
        all()[self.0]
    }
}

impl IntoIterator for Programs {
    type Item = &'static Program;
    type IntoIter = std::slice::Iter<'static, Program>;
    fn into_iter(self) -> Self::IntoIter {
        all()[self.0].iter()
    }
}

impl IntoIterator for &Programs {
    type Item = &'static Program;
    type IntoIter = std::slice::Iter<'static, Program>;
    fn into_iter(self) -> Self::IntoIter {
        all()[self.0].iter()
    }
}

const fn suite(name: &'static str, home: &'static str, index: usize) -> Suite {
    Suite {
        name,
        home,
        programs: Programs(index),
    }
}

/// Every suite. The VM suite runs their `vm` runs in this order: the
/// real-kernel suite's own first, the benchmark last, because it leaves its
/// tracepoint enabled.
pub static SUITES: &[Suite] = &[
    suite("kernel", "tests/kernel", 0),
    suite("core", "c-tests/core", 1),
    suite("tracelogging", "c-tests/tracelogging", 2),
    suite("tpp", "c-tests/tpp", 3),
    suite("interpose", "c-tests/interpose", 4),
    suite("dynamic", "c-tests/dynamic", 5),
    suite("hardening", "c-tests/hardening", 6),
    suite("windows_port", "c-tests/windows-port", 7),
    suite("cli", "cli/tests/vm", 8),
    suite("benches", "benches/c", 9),
];

/// The name of a suite's manifest file in its folder.
pub const FILE: &str = "programs.toml";

/// Every suite's programs, read from the TOML files once per process, or
/// what is wrong with them.
fn loaded() -> &'static Result<Vec<&'static [Program]>, String> {
    static ALL: OnceLock<Result<Vec<&'static [Program]>, String>> = OnceLock::new();
    ALL.get_or_init(read_all)
}

fn all() -> &'static [&'static [Program]] {
    match loaded() {
        Ok(all) => all,
        Err(e) => panic!("the test-program manifest: {e}"),
    }
}

/// Reads every suite's `programs.toml` (`load.rs`).
fn read_all() -> Result<Vec<&'static [Program]>, String> {
    let root = crate::repo_root();
    let mut out = Vec::with_capacity(SUITES.len());
    for (i, s) in SUITES.iter().enumerate() {
        assert_eq!(s.programs.0, i, "SUITES: {} out of place", s.name);
        let file = format!("{}/{FILE}", s.home);
        let text = std::fs::read_to_string(root.join(&file)).map_err(|e| format!("{file}: {e}"))?;
        out.push(load::parse(&file, &text)?);
    }
    Ok(out)
}

/// Reads the manifest: Err says which file and entry is wrong, and how
/// ([`programs`] and the rest panic with that message).
pub fn check() -> Result<(), String> {
    loaded().as_ref().map(|_| ()).map_err(Clone::clone)
}

/// Every C/C++ test program, suite by suite (in [`SUITES`] order).
pub fn programs() -> impl Iterator<Item = &'static Program> + Clone {
    SUITES.iter().flat_map(|s| s.programs.into_iter())
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

    /// Every suite's `programs.toml` reads without error: no unknown key, no
    /// unknown judge, every value of its type.
    #[test]
    fn every_programs_toml_reads() {
        check().unwrap();
        assert!(SUITES.iter().all(|s| !s.programs.is_empty()));
    }

    fn parse_err(text: &str) -> String {
        match load::parse("x/programs.toml", text) {
            Ok(_) => panic!("no error for:\n{text}"),
            Err(e) => e,
        }
    }

    const ENTRY: &str = "[[program]]\nname = \"p\"\nsources = [\"p.c\"]\n";

    #[test]
    fn an_unknown_key_is_an_error_with_file_and_line() {
        for (extra, key) in [
            ("soruces = [\"q.c\"]\n", "soruces"),
            ("[[program.run]]\nthread = true\n", "thread"),
            ("[[program.vm]]\nname = \"v\"\nenvs = {}\n", "envs"),
            (
                "[[program.vm]]\nname = \"v\"\ncheck = { kind = \"identity\", refrence = true }\n",
                "refrence",
            ),
        ] {
            let e = parse_err(&format!("{ENTRY}{extra}"));
            assert!(
                e.starts_with("x/programs.toml: ")
                    && e.contains("unknown field")
                    && e.contains(key)
                    && e.contains("line "),
                "{e}"
            );
        }
        let e = parse_err("[[programs]]\nname = \"p\"\n");
        assert!(e.contains("unknown field") && e.contains("programs"), "{e}");
    }

    #[test]
    fn malformed_toml_is_an_error_with_file_line_and_what() {
        let e = parse_err(&format!("{ENTRY}link = static\n"));
        assert!(
            e.starts_with("x/programs.toml: ") && e.contains("line 4"),
            "{e}"
        );
        let e = parse_err(&format!("{ENTRY}link = \"dynamic\"\n"));
        assert!(e.contains("line 4") && e.contains("dynamic"), "{e}");
        let e = parse_err("[[program]]\nname = \"p\"\n");
        assert!(e.contains("missing field") && e.contains("sources"), "{e}");
    }

    #[test]
    fn an_unknown_judge_is_an_error_naming_file_and_entry() {
        let e = parse_err(&format!(
            "{ENTRY}[[program.vm]]\nname = \"v\"\n\
             check = {{ kind = \"script\", script = \"s.sh\", judge = \"nosuch\" }}\n"
        ));
        assert!(
            e.starts_with("x/programs.toml: program \"p\": VM run \"v\": no judge \"nosuch\""),
            "{e}"
        );
        // A perf-fields judge where a script's results judge belongs.
        let e = parse_err(&format!(
            "{ENTRY}[[program.vm]]\nname = \"v\"\n\
             check = {{ kind = \"script\", script = \"s.sh\", judge = \"stress\" }}\n"
        ));
        assert!(
            e.contains("VM run \"v\"") && e.contains("perf fields"),
            "{e}"
        );
    }

    /// An entry that states nothing but its name and sources is the default
    /// program; tables keep the order they are written in.
    #[test]
    fn defaults_and_order() {
        let text = format!(
            "{ENTRY}[[program.run]]\n\
             [[program.run]]\nname = \"b\"\ncapture = false\nenv = {{ Z = \"1\", A = \"2\" }}\n\
             [program.run.not_under]\nvalgrind = \"v\"\nasan = \"a\"\n\
             [[program.vm]]\nname = \"v\"\n"
        );
        let ps = load::parse("x/programs.toml", &text).unwrap();
        let p = &ps[0];
        assert_eq!(p.output, Output::Executable);
        assert_eq!(p.link, Link::Shared);
        assert_eq!(p.compilers, Compilers::All);
        assert_eq!(
            p.standards,
            [Standard {
                c: "c11",
                cxx: "c++17"
            }]
        );
        assert!(p.flags.is_empty() && p.link_flags.is_empty() && p.include_dirs.is_empty());
        assert!(!p.pedantic);
        assert!(p.arches.is_empty() && p.triple.is_none());
        assert!(p.built_for("x86_64") && p.built_for("aarch64"));
        let (a, b) = (&p.runs[0], &p.runs[1]);
        assert_eq!((a.name, a.capture, a.threads), ("capture", true, false));
        assert!(a.args.is_empty() && a.env.is_empty() && a.not_under.is_empty());
        assert_eq!((b.name, b.capture), ("b", false));
        assert_eq!(b.env, [("Z", "1"), ("A", "2")]);
        assert_eq!(
            b.not_under,
            [(Flavour::Valgrind, "v"), (Flavour::Asan, "a")]
        );
        assert!(matches!(
            p.vm[0].check,
            VmCheck::SelfCheck { perf_summary: None }
        ));
    }

    /// A file's `[defaults]` stand for the keys its entries leave out; an
    /// entry's own value wins; `[defaults]` takes only the shared keys.
    #[test]
    fn file_defaults() {
        let text = format!(
            "[defaults]\ncompilers = \"gcc\"\nstandards = [{{ c = \"gnu11\", cxx = \"c++20\" }}]\n\
             [[defaults.run]]\nname = \"d\"\n\
             {ENTRY}\
             [[program]]\nname = \"q\"\nsources = [\"q.c\"]\ncompilers = \"all\"\n\
             [[program.run]]\nname = \"own\"\n"
        );
        let ps = load::parse("x/programs.toml", &text).unwrap();
        let (p, q) = (&ps[0], &ps[1]);
        assert_eq!((p.compilers, q.compilers), (Compilers::Gcc, Compilers::All));
        let gnu = [Standard {
            c: "gnu11",
            cxx: "c++20",
        }];
        assert_eq!((p.standards, q.standards), (&gnu[..], &gnu[..]));
        assert_eq!(p.runs.iter().map(|r| r.name).collect::<Vec<_>>(), ["d"]);
        assert_eq!(q.runs.iter().map(|r| r.name).collect::<Vec<_>>(), ["own"]);
        assert_eq!(p.link, Link::Shared);
        let e = parse_err(&format!("[defaults]\nname = \"n\"\n{ENTRY}"));
        assert!(e.contains("unknown field") && e.contains("line 2"), "{e}");
    }

    /// `arches` limits the architectures a program is built for; `triple`
    /// names the compilers of a 32-bit program of a 64-bit target. The arm64
    /// VM suite's programs are the kernel suite's, for aarch64 alone.
    #[test]
    fn arches_and_triple() {
        let text = format!("{ENTRY}arches = [\"aarch64\"]\ntriple = \"arm-linux-gnueabihf\"\n");
        let p = &load::parse("x/programs.toml", &text).unwrap()[0];
        assert_eq!(p.arches, ["aarch64"]);
        assert_eq!(p.triple, Some("arm-linux-gnueabihf"));
        assert!(p.built_for("aarch64") && !p.built_for("x86_64"));
        for name in ["t_enable", "t_compat32"] {
            let p = program(name);
            assert_eq!(suite_of(p).name, "kernel");
            assert_eq!(p.arches, ["aarch64"], "{name}");
            assert!(
                p.vm.is_empty(),
                "{name}: the x86_64 VM suite runs no aarch64 program"
            );
        }
        assert_eq!(program("t_compat32").triple, Some("arm-linux-gnueabihf"));
        assert_eq!(program("t_compat32").link, Link::None);
        assert!(crate::kernel::programs()
            .iter()
            .all(|p| p.built_for("x86_64")));
    }

    /// The entries shown in docs/testing.md read as entries of a
    /// `programs.toml`.
    #[test]
    fn the_documented_entries_read() {
        let doc = std::fs::read_to_string(crate::repo_root().join("docs/testing.md")).unwrap();
        let blocks: Vec<&str> = doc
            .split("```toml\n")
            .skip(1)
            .map(|b| b.split("```").next().unwrap())
            .collect();
        assert!(!blocks.is_empty(), "docs/testing.md shows no entry");
        for b in blocks {
            let ps = load::parse("docs/testing.md", b).unwrap();
            assert!(!ps.is_empty(), "{b}");
        }
    }
}
