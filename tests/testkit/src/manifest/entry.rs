//! The manifest's entry for one program: its sources and build (output,
//! link, flags, standards, compilers), its runs on the host and in the VM
//! suite, and how each VM run is judged.

use serde::Deserialize;

use super::program;
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
    /// The architectures it is built for, as `uname -m` names them (e.g.
    /// `aarch64` for a program of the arm64 VM suite); empty: every one.
    /// Building it for another is an error ([`Program::built_for`]).
    pub arches: &'static [&'static str],
    /// The GNU triple whose compilers build it (`TRIPLE-gcc`) whatever the
    /// target: a 32-bit program of a 64-bit target (`arm-linux-gnueabihf`,
    /// run by the arm64 kernel's compat layer). None: the target's.
    pub triple: Option<&'static str>,
}

/// What a program's build is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Output {
    Executable,
    SharedLibrary,
}

/// How a program gets the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Compilers {
    /// gcc, and clang when installed (`REQUIRE_CLANG=1` makes it required).
    All,
    Gcc,
}

/// What a build is for: its optimization and instrumentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
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

    /// Whether it is built for the architecture `arch` (`uname -m`'s name).
    pub fn built_for(&self, arch: &str) -> bool {
        self.arches.is_empty() || self.arches.contains(&arch)
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
