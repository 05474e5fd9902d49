//! A C/C++ suite's cargo test as trials (the `libtest-mimic` harness): one
//! trial per program of the suite, build configuration
//! ([`crate::build::test_configs`]: compilers times standards) and run of the
//! program's manifest entry, named `PROGRAM::CONFIG::RUN`
//! (`activity::gcc-c11::capture`), and judged by the suite's [`Judge`] of
//! that (program, run). Each trial passes or fails alone; `cargo test --test
//! SUITE -- FILTER` runs the trials whose name contains FILTER (a program, a
//! configuration, a run), `-- --exact NAME` one trial.
//!
//! Every (program, run) of the suite has exactly one judge and every judge
//! names a (program, run) of the suite: anything else stops the test binary
//! before a trial runs. A configuration whose compiler is not installed is an
//! ignored trial (`REQUIRE_CLANG=1` makes it a failing one). The builds are
//! shared by the trials of one process, each built by the first trial that
//! needs it; the trials run on libtest-mimic's threads (`--test-threads`).
//! Checks that are not about one run of one build (two programs compared,
//! a whole directory) are extra trials the suite adds by name.

use std::collections::BTreeSet;
use std::sync::OnceLock;

pub use libtest_mimic::{Failed, Trial};

use crate::build::Config;
use crate::cargo_tests::{build_once, Build, Ran};
use crate::manifest::{Compilers, Flavour, Program, SUITES};
use crate::Toolchain;

/// What a suite checks of one run of one build; it panics on a failure.
pub type Check = fn(&Build, &Ran);

/// The judge of one (program, run) of a suite.
#[derive(Clone, Copy)]
pub struct Judge {
    pub program: &'static str,
    pub run: &'static str,
    pub check: Check,
    /// Its trials are ignored on this machine.
    pub ignored: bool,
    /// Where the (program, run) is judged instead, when another test
    /// judges it (it then has no trial here).
    pub elsewhere: Option<&'static str>,
    /// Only the program's first build (gcc, its first standard) has a
    /// trial: a run that checks the library, not the compilers.
    pub first_gcc_only: bool,
}

/// The judge `check` of run `run` of program `program`.
pub const fn judge(program: &'static str, run: &'static str, check: Check) -> Judge {
    Judge {
        program,
        run,
        check,
        ignored: false,
        elsewhere: None,
        first_gcc_only: false,
    }
}

/// No trial for run `run` of program `program`: `where_` (another test)
/// judges it, and says why.
pub const fn judged_elsewhere(
    program: &'static str,
    run: &'static str,
    where_: &'static str,
) -> Judge {
    Judge {
        elsewhere: Some(where_),
        ..judge(program, run, |_, _| {})
    }
}

impl Judge {
    /// The same judge, its trials ignored when `ignored` holds (a check
    /// that does not apply to this machine).
    pub const fn ignored_if(self, ignored: bool) -> Judge {
        Judge { ignored, ..self }
    }

    /// The same judge, of the program's first build alone (gcc, its first
    /// standard).
    pub const fn first_gcc_build_only(self) -> Judge {
        Judge {
            first_gcc_only: true,
            ..self
        }
    }
}

/// No trial for any run of program `program`: `where_` (another test
/// binary) judges them all.
pub fn program_judged_elsewhere(program: &'static str, where_: &'static str) -> Vec<Judge> {
    crate::manifest::program(program)
        .runs
        .iter()
        .map(|run| judged_elsewhere(program, run.name, where_))
        .collect()
}

/// One trial of a suite, before it runs.
#[derive(Clone)]
pub struct Planned {
    /// `PROGRAM::CONFIG::RUN`.
    pub name: String,
    pub program: &'static Program,
    pub config: Config,
    pub run: &'static str,
    pub check: Check,
    pub ignored: bool,
    /// The compiler the configuration needs, when it is not installed.
    pub missing: Option<&'static str>,
}

/// The name of `config` in the trials of `program`: the C compiler and the
/// C standard (`gcc-c11`, `clang-c++17`), and the C++ standard too where
/// two of the program's standards share the C one (`gcc-c11-c++14`); of a
/// program of C++ sources only, the C++ standard (`gcc-c++20`).
pub fn config_name(program: &Program, config: &Config) -> String {
    if program
        .sources
        .iter()
        .all(|s| crate::build::is_cxx_source(s))
    {
        return format!("{}-{}", config.toolchain.cc, config.standard.cxx);
    }
    let c = config.standard.c;
    let shared = program.standards.iter().filter(|s| s.c == c).count() > 1;
    if shared {
        format!("{}-{c}-{}", config.toolchain.cc, config.standard.cxx)
    } else {
        format!("{}-{c}", config.toolchain.cc)
    }
}

/// Whether clang and clang++ run on this machine.
fn have_clang() -> bool {
    static HAVE: OnceLock<bool> = OnceLock::new();
    *HAVE.get_or_init(|| crate::available("clang") && crate::available("clang++"))
}

/// Every configuration of `program`'s trials, the compilers of the
/// manifest whether installed or not (see [`crate::build::test_configs`]).
fn configs(program: &Program) -> Vec<Config> {
    let toolchains = match program.compilers {
        Compilers::All => vec![Toolchain::GCC, Toolchain::CLANG],
        Compilers::Gcc => vec![Toolchain::GCC],
    };
    crate::build::configs_with(program, toolchains)
}

/// The trials of suite `suite` judged by `judges`, in manifest order; an
/// error lists every (program, run) without a judge, every judge without a
/// (program, run) and every judge given twice. `have_clang` says whether
/// the clang configurations can be built.
pub fn plan(suite: &str, judges: &[Judge], have_clang: bool) -> Result<Vec<Planned>, String> {
    let Some(suite_entry) = SUITES.iter().find(|s| s.name == suite) else {
        return Err(format!("no suite {suite:?} in the manifest"));
    };
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for j in judges {
        if !seen.insert((j.program, j.run)) {
            problems.push(format!("{}::{}: judged twice", j.program, j.run));
        }
        let known = suite_entry
            .programs
            .iter()
            .any(|p| p.name == j.program && p.runs.iter().any(|r| r.name == j.run));
        if !known {
            problems.push(format!(
                "{}::{}: a judge, but no such program and run in suite {suite}",
                j.program, j.run
            ));
        }
    }
    let mut planned = Vec::new();
    for program in suite_entry.programs {
        for run in program.runs {
            let Some(judge) = judges
                .iter()
                .find(|j| j.program == program.name && j.run == run.name)
            else {
                problems.push(format!(
                    "{}::{}: a run of suite {suite} with no judge",
                    program.name, run.name
                ));
                continue;
            };
            if judge.elsewhere.is_some() {
                continue;
            }
            let first = Config::first(program, Toolchain::GCC, Flavour::Plain);
            for config in configs(program) {
                if judge.first_gcc_only && config != first {
                    continue;
                }
                let missing = (config.toolchain == Toolchain::CLANG && !have_clang)
                    .then_some("clang/clang++");
                planned.push(Planned {
                    name: format!(
                        "{}::{}::{}",
                        program.name,
                        config_name(program, &config),
                        run.name
                    ),
                    program,
                    config,
                    run: run.name,
                    check: judge.check,
                    ignored: judge.ignored,
                    missing,
                });
            }
        }
    }
    if problems.is_empty() {
        Ok(planned)
    } else {
        Err(problems.join("\n"))
    }
}

/// The trial of `planned`: with its compiler missing, ignored, or failing
/// with `require_clang`.
pub fn trial(planned: Planned, require_clang: bool) -> Trial {
    let Planned {
        name,
        program,
        config,
        run,
        check,
        ignored,
        missing,
    } = planned;
    if let Some(what) = missing {
        let message = if require_clang {
            format!("REQUIRE_CLANG is set but {what} is not available")
        } else {
            format!("{what} is not available (set REQUIRE_CLANG=1 to fail instead)")
        };
        return Trial::test(name, move || Err(message.into()))
            .with_ignored_flag(ignored || !require_clang);
    }
    Trial::test(name, move || {
        let build = build_once(program, config);
        let ran = build.run(run);
        check(&build, &ran);
        Ok(())
    })
    .with_ignored_flag(ignored)
}

/// An extra trial named `name` that runs `f`, which panics on a failure.
pub fn extra(name: &str, f: impl FnOnce() + Send + 'static) -> Trial {
    Trial::test(name, move || {
        f();
        Ok(())
    })
}

/// The trials `NAME::gcc` and `NAME::clang` of a check `f` that is not
/// about a program of the manifest (a compile-time check, say), one per
/// toolchain; clang's is ignored when clang is not installed, as
/// [`trial`] does.
pub fn per_toolchain(name: &str, f: fn(Toolchain)) -> Vec<Trial> {
    let require_clang = std::env::var_os("REQUIRE_CLANG").is_some();
    [Toolchain::GCC, Toolchain::CLANG]
        .into_iter()
        .map(|toolchain| {
            let name = format!("{name}::{}", toolchain.cc);
            if toolchain == Toolchain::CLANG && !have_clang() {
                let message = if require_clang {
                    "REQUIRE_CLANG is set but clang/clang++ is not available"
                } else {
                    "clang/clang++ is not available (set REQUIRE_CLANG=1 to fail instead)"
                };
                return Trial::test(name, move || Err(message.into()))
                    .with_ignored_flag(!require_clang);
            }
            extra(&name, move || f(toolchain))
        })
        .collect()
}

/// The test binary of suite `suite`: its trials ([`plan`]) and `extra`,
/// run as the command line asks. `tmp_dir` is the test target's
/// `CARGO_TARGET_TMPDIR`, where the builds go.
pub fn main(tmp_dir: &str, suite: &str, judges: &[Judge], extra: Vec<Trial>) -> ! {
    crate::cargo_tests::set_tmp_dir(tmp_dir);
    let args = libtest_mimic::Arguments::from_args();
    let planned = match plan(suite, judges, have_clang()) {
        Ok(planned) => planned,
        Err(problems) => {
            eprintln!("suite {suite}: the judges and the manifest disagree:\n{problems}");
            std::process::exit(101);
        }
    };
    let require_clang = std::env::var_os("REQUIRE_CLANG").is_some();
    let mut trials: Vec<Trial> = planned
        .into_iter()
        .map(|p| trial(p, require_clang))
        .collect();
    trials.extend(extra);
    let mut names = BTreeSet::new();
    for t in &trials {
        if !names.insert(t.name().to_string()) {
            eprintln!("suite {suite}: two trials named {}", t.name());
            std::process::exit(101);
        }
    }
    libtest_mimic::run(&args, trials).exit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nothing(_: &Build, _: &Ran) {}

    /// A judge for every (program, run) of `suite`.
    fn every_judge(suite: &str) -> Vec<Judge> {
        let suite = SUITES.iter().find(|s| s.name == suite).unwrap();
        suite
            .programs
            .iter()
            .flat_map(|p| p.runs.iter().map(|r| judge(p.name, r.name, nothing)))
            .collect()
    }

    #[test]
    fn one_trial_per_program_configuration_and_run() {
        let judges = every_judge("core");
        let planned = plan("core", &judges, true).unwrap();
        let suite = SUITES.iter().find(|s| s.name == "core").unwrap();
        let want: usize = suite
            .programs
            .iter()
            .map(|p| p.runs.len() * configs(p).len())
            .sum();
        assert_eq!(planned.len(), want);
        let names: BTreeSet<&str> = planned.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names.len(), planned.len(), "names are unique");
        assert!(names.contains("activity::gcc-c11::capture"), "{names:?}");
        assert!(
            names.contains("abi_layout::clang-c++17::table"),
            "{names:?}"
        );
        assert!(planned.iter().all(|p| p.missing.is_none()));
    }

    #[test]
    fn a_missing_clang_is_an_ignored_trial_or_with_require_clang_a_failing_one() {
        let planned = plan("core", &every_judge("core"), false).unwrap();
        let clang: Vec<&Planned> = planned
            .iter()
            .filter(|p| p.name.contains("::clang-"))
            .collect();
        assert!(!clang.is_empty());
        assert!(clang.iter().all(|p| p.missing.is_some()));
        let p = (*clang[0]).clone();
        assert!(trial(p.clone(), false).has_ignored_flag());
        assert!(!trial(p, true).has_ignored_flag());
    }

    #[test]
    fn a_run_without_a_judge_and_a_judge_without_a_run_stop_the_suite() {
        let mut judges = every_judge("core");
        judges.retain(|j| j.program != "activity");
        judges.push(judge("activity", "nosuchrun", nothing));
        judges.push(judge("errors", "capture", nothing));
        judges.retain(|j| j.program != "dedup");
        judges.push(judged_elsewhere("dedup", "capture", "elsewhere"));
        let err = plan("core", &judges, true).err().unwrap();
        assert!(
            err.contains("activity::capture: a run of suite core with no judge"),
            "{err}"
        );
        assert!(
            err.contains("activity::nosuchrun: a judge, but no"),
            "{err}"
        );
        assert!(err.contains("errors::capture: judged twice"), "{err}");
        assert!(plan("nosuchsuite", &[], true).is_err());
        assert!(!err.contains("dedup"), "{err}");
    }

    #[test]
    fn a_run_judged_elsewhere_has_no_trial() {
        let mut judges = every_judge("core");
        judges.retain(|j| j.program != "dedup");
        judges.push(judged_elsewhere("dedup", "capture", "elsewhere"));
        let planned = plan("core", &judges, true).unwrap();
        assert!(planned.iter().all(|p| p.program.name != "dedup"));
        assert!(planned.iter().any(|p| p.program.name == "activity"));
    }

    #[test]
    fn a_judge_of_the_first_build_alone_has_one_trial() {
        let mut judges = every_judge("core");
        for j in &mut judges {
            if j.program == "abi_layout" {
                *j = j.first_gcc_build_only();
            }
        }
        let planned = plan("core", &judges, true).unwrap();
        let names: Vec<&str> = planned
            .iter()
            .filter(|p| p.program.name == "abi_layout")
            .map(|p| p.name.as_str())
            .collect();
        assert_eq!(names, ["abi_layout::gcc-c11::table"]);
        let elsewhere = program_judged_elsewhere("errors", "elsewhere");
        assert_eq!(elsewhere.len(), 2);
    }

    #[test]
    fn two_standards_with_one_c_standard_are_told_apart_by_the_cxx_one() {
        for suite in SUITES {
            for p in suite.programs {
                let names: BTreeSet<String> =
                    configs(p).iter().map(|c| config_name(p, c)).collect();
                assert_eq!(names.len(), configs(p).len(), "{}", p.name);
            }
        }
    }
}
