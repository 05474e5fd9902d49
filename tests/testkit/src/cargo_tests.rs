//! What the cargo tests of the C/C++ suites use beside the engine: the
//! library cargo built for this test run, the manifest's programs built once
//! per test process against it, and runs that panic with the program's
//! output when they fail (a trial, [`crate::trials`], reports the panic as
//! its failure).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

pub use crate::capture::{event_name, Record};
pub use crate::decode;
pub use crate::manifest::Flavour;
pub use crate::{include_dir, optional, repo_root as root, toolchains, Toolchain};

use crate::build::Config;
use crate::manifest::{self, Program};

/// Where builds go: `target/tmp/c-tests/CONFIG/`, set by [`set_tmp_dir`].
static TMP_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Sets the directory the builds of this process go to (the test target's
/// `CARGO_TARGET_TMPDIR`, a compile-time variable of test targets only,
/// which [`crate::trials::main`] passes in). The first call wins.
pub fn set_tmp_dir(dir: &str) {
    let _ = TMP_DIR.set(PathBuf::from(dir));
}

fn tmp_dir() -> &'static Path {
    TMP_DIR
        .get()
        .expect("the build directory is set first (trials::main or cargo_tests::set_tmp_dir)")
}

/// The directory holding the library cargo built for this test run. The
/// test binary is `target/<profile>/deps/NAME`; `cargo test` puts the
/// freshly built cdylib beside it in `deps/` (only `cargo build` copies it up
/// to `target/<profile>/`, where it may be stale), so look there first.
/// In cross mode, the target's library (`TESTKIT_LIB_DIR`, see
/// `testkit::cross`).
pub fn lib_dir() -> PathBuf {
    if let Some(cross) = crate::cross::target() {
        return cross.lib_dir.clone();
    }
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("test binary dir");
    let found = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .find(|dir| dir.join("libeventheader_tracepoint.so").exists())
        .unwrap_or_else(|| {
            panic!(
                "libeventheader_tracepoint.so not found near {}",
                exe.display()
            )
        })
        .to_path_buf();
    found
}

/// One build of a manifest program.
#[derive(Clone, Debug)]
pub struct Build {
    pub program: &'static Program,
    pub config: Config,
    pub exe: PathBuf,
    /// The program and how it was built, for messages.
    pub label: String,
}

/// Builds `program` in `config` once per test process (in
/// `target/tmp/c-tests/CONFIG/`); a failed build fails every use of it with
/// the compiler's message, without building again.
pub fn build_once(program: &'static Program, config: Config) -> Build {
    type Cell = Arc<OnceLock<Result<PathBuf, String>>>;
    static BUILT: OnceLock<Mutex<HashMap<(&'static str, Config), Cell>>> = OnceLock::new();
    let cell: Cell = BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry((program.name, config))
        .or_default()
        .clone();
    let exe = cell
        .get_or_init(|| {
            let out = tmp_dir().join("c-tests").join(config.dir_name());
            crate::build::build(program, &config, &lib_dir(), &out)
        })
        .clone()
        .unwrap_or_else(|e| panic!("{e}"));
    Build {
        program,
        config,
        exe,
        label: format!("{} ({})", program.name, config.label(program)),
    }
}

/// Program `name` built with `toolchain` in its first standard.
pub fn build(name: &str, toolchain: Toolchain) -> Build {
    build_flavour(name, toolchain, Flavour::Plain)
}

/// Program `name` built with `toolchain` in its first standard and
/// `flavour`.
pub fn build_flavour(name: &str, toolchain: Toolchain, flavour: Flavour) -> Build {
    let program = manifest::program(name);
    build_once(program, Config::first(program, toolchain, flavour))
}

/// Every build of program `name` the manifest asks of the cargo tests (its
/// compilers times its standards), compiled in parallel.
pub fn builds(name: &str) -> Vec<Build> {
    let program = manifest::program(name);
    let configs = crate::build::test_configs(program);
    crate::pool::map(&configs, |_, &config| build_once(program, config))
}

/// What a run printed and captured.
pub struct Ran {
    /// The run's name in the manifest.
    pub mode: &'static str,
    pub stdout: String,
    pub stderr: String,
    /// The capture file's records (none without a capture file).
    pub records: Vec<Record>,
    /// The run's scratch directory (`{dir}`), kept until this is dropped.
    pub dir: tempfile::TempDir,
    /// How long the program ran.
    pub elapsed: Duration,
}

impl Ran {
    /// The words after `key` on the first stdout line that starts with
    /// `key `; panics if there is none.
    pub fn words(&self, key: &str) -> Vec<&str> {
        words(&self.stdout, key)
    }

    /// The first word after `key` as a number.
    pub fn number(&self, key: &str) -> i64 {
        number(&self.stdout, key)
    }

    /// Whether stdout has the line `line`.
    pub fn has_line(&self, line: &str) -> bool {
        self.stdout.lines().any(|l| l == line)
    }
}

/// The words after `key` on the first line of `text` that starts with
/// `key `; panics if there is none.
pub fn words<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("{key} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no line {key:?} in:\n{text}"))
        .split_whitespace()
        .collect()
}

/// The first word after `key` (see [`words`]) as a number.
pub fn number(text: &str, key: &str) -> i64 {
    let w = words(text, key);
    w[0].parse()
        .unwrap_or_else(|_| panic!("{key}: {:?} is not a number", w[0]))
}

impl Build {
    /// Runs the manifest's run `mode` (the cargo tests' placeholder values,
    /// see `crate::run::Vars::cargo`); panics unless it exits 0.
    pub fn run(&self, mode: &str) -> Ran {
        let run = self.program.run(mode);
        let dir = temp_dir();
        let config = self.config;
        let prepared = crate::run::prepare(
            &self.exe,
            run,
            dir.path(),
            &crate::run::Vars::cargo(),
            &mut |name| Ok(build_once(manifest::program(name), config).exe),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let started = Instant::now();
        let output = prepared
            .command(&[])
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", self.exe.display()));
        let elapsed = started.elapsed();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            output.status.success(),
            "{} run {mode} {:?} failed ({}):\nstdout:\n{stdout}\nstderr:\n{stderr}",
            self.label,
            prepared.argv,
            output.status
        );
        let records = match &prepared.capture {
            Some(path) if path.exists() => read_capture(path),
            _ => Vec::new(),
        };
        Ran {
            mode: run.name,
            stdout,
            stderr,
            records,
            dir,
            elapsed,
        }
    }
}

/// What a build linked with `c-tests/tpp/recorder.c` registered
/// (`{dir}/rec.cmd`, one line each) and wrote (`{dir}/rec.dat`) in `ran`.
pub fn recorded(ran: &Ran) -> (Vec<String>, Vec<Record>) {
    let cmd = std::fs::read_to_string(ran.dir.path().join("rec.cmd"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    let dat = ran.dir.path().join("rec.dat");
    let records = if dat.exists() {
        read_capture(&dat)
    } else {
        Vec::new()
    };
    (cmd, records)
}

/// A program that defines only some of the four functions the EventHeader
/// layer calls (`c-tests/interpose/partial.c`, `build`): opening and
/// connecting fail with ENOSYS and writing with EBADF; the program's
/// functions are never called and nothing reaches the capture file
/// (c-tests/interpose/main.rs, and c-tests/install/main.rs on the installed
/// libraries).
pub fn check_partly_replaced(build: &Build) {
    for mode in ["capture", "plain"] {
        check_partly_replaced_run(&format!("{} {mode}", build.label), &build.run(mode));
    }
}

/// One run of [`check_partly_replaced`].
pub fn check_partly_replaced_run(label: &str, ran: &Ran) {
    assert_eq!(
        ran.number("open"),
        errno::ENOSYS as i64,
        "{label}: {}",
        ran.stdout
    );
    assert_eq!(ran.number("connect"), errno::ENOSYS as i64, "{label}");
    assert_eq!(ran.number("write"), errno::EBADF as i64, "{label}");
    assert_eq!(ran.number("tlg-register"), errno::ENOSYS as i64, "{label}");
    assert_eq!(ran.number("program-calls"), 0, "{label}");
    assert!(ran.stdout.contains("\ndone\n"), "{label}: {}", ran.stdout);
    assert!(ran.records.is_empty(), "{label}: {:?}", ran.records);
}

/// The interposition check (c-tests/interpose/main.rs, c-tests/install/main.rs):
/// `recorded`, a run of `interpose_shared` or `interpose_static` (the
/// recorder's tracepoint.h in front of the library), handed the recorder
/// exactly `want`, the records `interpose_capture` wrote in capture mode,
/// and the library's own capture file nothing.
pub fn check_interposed(label: &str, recorded_run: &Ran, want: &[Record]) {
    let (registered, records) = recorded(recorded_run);
    assert_eq!(recorded_run.stdout, "events 10\n", "{label}");
    assert_eq!(want.len(), 10, "{label}: capture mode wrote {want:?}");
    assert!(
        recorded_run.records.is_empty(),
        "{label}: the library's own tracepoint layer wrote {} records",
        recorded_run.records.len()
    );
    // One registration per tracepoint state: 3 TraceLogging call sites at
    // TraceLoggingRegister and the handle's at its first run, 1 eventheader,
    // 2 tracepoint-provider.h, 1 runtime-defined set.
    assert_eq!(registered.len(), 8, "{label}: {registered:#?}");
    let names = |r: &[Record]| r.iter().map(|r| r.name.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&records),
        names(want),
        "{label}: the recorder's records, and capture mode's"
    );
    for (i, (got, want)) in records.iter().zip(want).enumerate() {
        assert_eq!(
            got.event, want.event,
            "{label}: record {i} ({}): the recorder's bytes, and capture mode's",
            got.name
        );
    }
}

/// Reads and parses a capture file; panics on a malformed one.
pub fn read_capture(path: &Path) -> Vec<Record> {
    crate::capture::read(path).unwrap_or_else(|e| panic!("{e}"))
}

/// Parses capture-file bytes; panics on a malformed record.
pub fn parse_capture(bytes: &[u8]) -> Vec<Record> {
    crate::capture::parse(bytes).unwrap_or_else(|e| panic!("{e}"))
}

/// The reference implementation's records
/// (`EventHeaderInterceptorLE64.dat`, 374 events).
pub fn reference_records() -> Vec<Record> {
    read_capture(&crate::reference_capture())
}

/// A fresh temporary directory for one test.
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// errno values of Linux (x86_64 and the generic ABI).
pub mod errno {
    pub const E2BIG: i32 = 7;
    pub const EBADF: i32 = 9;
    pub const ENOENT: i32 = 2;
    pub const EACCES: i32 = 13;
    pub const EISDIR: i32 = 21;
    pub const EINVAL: i32 = 22;
    pub const EMFILE: i32 = 24;
    pub const ENOSPC: i32 = 28;
    pub const EROFS: i32 = 30;
    pub const EOPNOTSUPP: i32 = 95;
    pub const EALREADY: i32 = 114;
    pub const ENOSYS: i32 = 38;
    pub const EPIPE: i32 = 32;
    pub const EFBIG: i32 = 27;
    pub const EDEADLK: i32 = 35;
}
