//! Cross mode: the test programs built for another architecture and run
//! under an emulator, judged by the same tests as on the host.
//!
//! Set by the environment (`scripts/cross/test.sh` sets it):
//!
//! - `TESTKIT_TARGET`: the GNU triple of the target (`aarch64-linux-gnu`).
//!   The manifest's compilers become the target's: `gcc` and `g++` are
//!   `TRIPLE-gcc` and `TRIPLE-g++`, `clang` and `clang++` get
//!   `--target=TRIPLE`. Builds go to directories named after the triple, apart
//!   from the host's.
//! - `TESTKIT_RUN`: the command, as words, every program runs under
//!   (`qemu-aarch64-static`, see `scripts/cross/env.sh`).
//! - `TESTKIT_LIB_DIR`: the directory of the library built for the target
//!   (`libeventheader_tracepoint.so` and `.a`).
//!
//! Without `TESTKIT_TARGET` everything is the host's. With it, the other two
//! are required: a test never falls back to the host's library or runs a
//! target program without the emulator.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

/// The cross target, when cross mode is on.
#[derive(Debug)]
pub struct Cross {
    /// GNU triple (`aarch64-linux-gnu`).
    pub triple: String,
    /// The runner's words.
    pub run: Vec<String>,
    /// The target's library directory.
    pub lib_dir: PathBuf,
}

/// The cross target from the environment, or None on the host. Panics when
/// `TESTKIT_TARGET` is set without `TESTKIT_RUN` or `TESTKIT_LIB_DIR`.
pub fn target() -> Option<&'static Cross> {
    static CROSS: OnceLock<Option<Cross>> = OnceLock::new();
    CROSS
        .get_or_init(|| {
            let triple = std::env::var("TESTKIT_TARGET").ok()?;
            let need = |name: &str| {
                std::env::var(name)
                    .ok()
                    .filter(|v| !v.trim().is_empty())
                    .unwrap_or_else(|| panic!("TESTKIT_TARGET={triple} needs {name}"))
            };
            let run = need("TESTKIT_RUN")
                .split_whitespace()
                .map(str::to_string)
                .collect();
            let lib_dir = PathBuf::from(need("TESTKIT_LIB_DIR"));
            Some(Cross {
                triple,
                run,
                lib_dir,
            })
        })
        .as_ref()
}

/// The words of the manifest's compiler `name` (`gcc`, `g++`, `clang`,
/// `clang++`) for the target (the host's without cross mode).
pub fn compiler_words(name: &str) -> Vec<String> {
    match (target(), name) {
        (None, _) => vec![name.to_string()],
        (Some(cross), "clang" | "clang++") => {
            vec![name.to_string(), format!("--target={}", cross.triple)]
        }
        (Some(cross), _) => vec![format!("{}-{name}", cross.triple)],
    }
}

/// [`compiler_words`] as a command.
pub fn compiler(name: &str) -> Command {
    let words = compiler_words(name);
    let mut cmd = Command::new(&words[0]);
    cmd.args(&words[1..]);
    cmd
}

/// The environment of every target program's run in cross mode, each with
/// the reason.
pub const RUN_ENV: &[(&str, &str, &str)] = &[(
    "HARDENING_RSS_UNCHECKED",
    "1",
    "VmRSS is qemu's: its translation cache grows with every load of a \
     library at a new address (the descriptors are still checked)",
)];

/// The words a target program runs behind (none on the host).
pub fn runner() -> Vec<OsString> {
    target().map_or_else(Vec::new, |c| c.run.iter().map(OsString::from).collect())
}

/// `program` as a command, behind the runner in cross mode.
pub fn command(program: impl Into<OsString>) -> Command {
    let mut words = runner();
    words.push(program.into());
    let mut cmd = Command::new(&words[0]);
    cmd.args(&words[1..]);
    cmd
}

/// The target's architecture as `uname -m` names it (the triple's first
/// word in cross mode, else the host's).
pub fn arch() -> &'static str {
    target().map_or(std::env::consts::ARCH, |c| {
        c.triple.split('-').next().unwrap_or(c.triple.as_str())
    })
}

/// The triple in cross mode, else "host": for messages and directory names.
pub fn name() -> &'static str {
    target().map_or("host", |c| c.triple.as_str())
}
