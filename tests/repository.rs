//! The repository itself: `.gitignore` covers what the commands of README.md and docs/
//! leave in the tree (`build/`, the runtime-defined samples,
//! `samples/tpp/tpp-sample*`: `git status` must not list them as untracked),
//! and no tracked file is ignored; CI's steps (`scripts/lib/steps.sh`)
//! print their times.
mod support;

use std::process::Command;

/// The lines git prints for `args`, run at the repository root (which must
/// be a git work tree: a checkout, as CI has), when its exit status is one of
/// `ok`.
fn git_lines(args: &[&str], ok: &[i32]) -> Vec<String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(support::root())
        .args(args)
        .output()
        .expect("running git");
    assert!(
        output.status.code().is_some_and(|c| ok.contains(&c)),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// `git check-ignore` over `paths` (relative to the repository root): the
/// ones it ignores.
fn ignored(paths: &[&str]) -> Vec<String> {
    let args = [&["check-ignore", "--no-index", "--"], paths].concat();
    // 0: some ignored, 1: none, 128: an error (not a work tree).
    git_lines(&args, &[0, 1])
}

#[test]
fn gitignore_covers_what_the_documented_commands_leave() {
    let left = [
        "build/CMakeCache.txt",
        "samples/cmake-consumer/build/Makefile",
        "dyn_sample_c",
        "dyn_sample_cpp",
        "hello",
        "events.dat",
        "trace.data",
        "samples/tpp/tpp-sample",
        "samples/tpp/tpp-sample.dat",
        "samples/pkgconfig-consumer/pkgconfig-consumer",
        "samples/pkgconfig-consumer/.pkgconfig-consumer.flags",
        "samples/dynamic/__pycache__/sample.cpython-311.pyc",
        "target/debug/demo/events.dat",
        "tests/kernel/target/run.log",
    ];
    assert_eq!(ignored(&left), left, "not ignored");
    let sources = [
        "samples/tpp/tpp-sample.c",
        "samples/tpp/Makefile",
        "samples/pkgconfig-consumer/main.c",
        "samples/dynamic/sample.py",
        "samples/dynamic/sample.c",
        "cmake/cargo-build.cmake",
        "tests/data/reference/EventHeaderInterceptorLE64.dat",
    ];
    assert_eq!(ignored(&sources), Vec::<String>::new(), "sources ignored");
}

/// `scripts/test.sh`'s steps print each one's seconds as the next starts,
/// and at the end (also when a step fails) a table of all steps and the total.
#[test]
fn ci_steps_print_their_times() {
    let script = "set -euo pipefail; source scripts/lib/steps.sh; \
                  step first; sleep 1; step second; step third; false; step never";
    let output = Command::new("bash")
        .current_dir(support::root())
        .args(["-c", script])
        .output()
        .expect("running bash");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    // Each (prefix, suffix) matches one line with a number of seconds between.
    let seconds = |prefix: &str, suffix: &str| -> u64 {
        stdout
            .lines()
            .find_map(|l| {
                l.strip_prefix(prefix)?
                    .strip_suffix(suffix)?
                    .trim()
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("no line {prefix:?} N {suffix:?} in:\n{stdout}"))
    };
    assert!(stdout.lines().any(|l| l == "=== step 1: first"), "{stdout}");
    assert!((1..=2).contains(&seconds("=== step 1 done in ", " s: first")));
    seconds("=== step 2 done in ", " s: second");
    seconds("=== step 3 done in ", " s: third");
    assert!(
        stdout
            .lines()
            .any(|l| l == "=== step times (exit status 1)"),
        "{stdout}"
    );
    assert!((1..=2).contains(&seconds("   1 ", " s  first")));
    seconds("   2 ", " s  second");
    seconds("   3 ", " s  third");
    assert!(seconds("=== total ", " s") >= 1);
    assert!(!stdout.contains("never"), "{stdout}");
}

/// The tracked files, from `git ls-files` (relative to the repository root).
fn tracked() -> Vec<String> {
    git_lines(&["ls-files"], &[0])
}

/// The lints live in one place: every member crate takes the workspace's
/// (`[lints] workspace = true`; fuzz/, its own workspace, repeats them), and
/// no file repeats them with a `#![deny(clippy::…)]` of its own (the
/// library's one-operation-per-unsafe-block rule is set once, in src/lib.rs).
#[test]
fn lints_are_set_once_per_crate() {
    let root = support::root();
    let mut problems = Vec::new();
    for manifest in tracked().iter().filter(|f| f.ends_with("Cargo.toml")) {
        let text = std::fs::read_to_string(root.join(manifest)).unwrap();
        let takes_workspace = text.contains("\n[lints]\nworkspace = true\n");
        let own = text.contains("\n[lints.clippy]\nundocumented_unsafe_blocks = \"deny\"\n");
        if !(takes_workspace || (manifest == "fuzz/Cargo.toml" && own)) {
            problems.push(format!("{manifest}: no [lints] workspace = true"));
        }
    }
    for file in tracked().iter().filter(|f| f.ends_with(".rs")) {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let repeats = text
            .lines()
            .filter(|l| l.starts_with("#![deny(clippy::"))
            .count();
        if repeats > usize::from(file == "src/lib.rs") {
            problems.push(format!("{file}: {repeats} #![deny(clippy::…)] line(s)"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `quiet` is defined in one file, scripts/lib/quiet.sh, which the other
/// scripts source.
#[test]
fn quiet_is_defined_once() {
    let root = support::root();
    let homes: Vec<String> = tracked()
        .into_iter()
        .filter(|f| f.ends_with(".sh"))
        .filter(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            text.lines()
                .any(|l| l.trim_start().starts_with("quiet() {"))
        })
        .collect();
    assert_eq!(homes, ["scripts/lib/quiet.sh"]);
}

/// `quiet` keeps a step's output in the log and, when the step fails, ends
/// the script with its name, its exit status and the log's last lines.
#[test]
fn quiet_names_the_failed_step_and_shows_its_log() {
    let log = std::env::temp_dir().join(format!("quiet-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let script = "set -euo pipefail; source scripts/lib/quiet.sh; \
                  quiet 'first step' echo hidden; \
                  quiet 'second step' sh -c 'echo shown; exit 3'; echo never";
    let output = Command::new("bash")
        .current_dir(support::root())
        .env("QUIET_LOG", &log)
        .env("QUIET_WHO", "suite")
        .args(["-c", script])
        .output()
        .expect("running bash");
    let _ = std::fs::remove_file(&log);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(stdout, "", "the steps' output goes to the log");
    assert!(
        stderr.starts_with("suite: second step failed (exit 3; the last 40 lines of "),
        "{stderr}"
    );
    assert!(
        stderr.contains("\nhidden\n") && stderr.contains("\nshown\n"),
        "{stderr}"
    );
}

/// The tests and the kit spread work over the cores through one worker
/// pool, `testkit::pool` (tests/testkit/src/pool.rs): no other test source
/// starts its own threads per core.
#[test]
fn one_worker_pool() {
    let root = support::root();
    // Spelt in two so that this file does not match.
    let needle = ["available_", "parallelism()"].concat();
    let pools: Vec<String> = tracked()
        .into_iter()
        .filter(|f| f.ends_with(".rs") && !f.starts_with("src/") && !f.starts_with("cli/src/"))
        .filter(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            text.contains(&needle)
        })
        .collect();
    assert_eq!(pools, ["tests/testkit/src/pool.rs"]);
}

/// The VM guest scripts record their results through one library,
/// tests/kernel/guest-lib.sh: no other script of the test tree defines its
/// `note`, `now`, `took`, `step` or `out`.
#[test]
fn guest_helpers_are_defined_once() {
    let root = support::root();
    let names = ["note() {", "now() {", "took() {", "step() {", "out() {"];
    let homes: Vec<String> = tracked()
        .into_iter()
        .filter(|f| f.ends_with(".sh"))
        .filter(|f| {
            ["tests/", "cli/tests/", "c-tests/", "benches/"]
                .iter()
                .any(|d| f.starts_with(d))
        })
        .filter(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            text.lines()
                .any(|l| names.iter().any(|n| l.trim_start().starts_with(n)))
        })
        .collect();
    assert_eq!(homes, ["tests/kernel/guest-lib.sh"]);
}

/// The benchmark modes are listed once, in benches/modes.txt: no script or
/// Rust source of the tree spells a list of them (a line naming three modes
/// or more) again.
#[test]
fn bench_modes_are_listed_once() {
    let root = support::root();
    let list = std::fs::read_to_string(root.join("benches/modes.txt")).unwrap();
    let modes: Vec<&str> = list
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(modes.len() > 10, "{modes:?}");
    let mut lists = Vec::new();
    for file in tracked()
        .into_iter()
        .filter(|f| f.ends_with(".sh") || f.ends_with(".rs"))
    {
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let mut named: Vec<&str> = line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .filter(|w| modes.contains(w))
                .collect();
            named.sort_unstable();
            named.dedup();
            if named.len() >= 3 {
                lists.push(format!("{file}:{}: {line}", n + 1));
            }
        }
    }
    assert!(lists.is_empty(), "{}", lists.join("\n"));
}

/// The C test programs take their assertions from one header,
/// c-tests/check.h: no other C or C++ file of the tests defines a CHECK,
/// VERIFY or REQUIRE macro of its own.
#[test]
fn one_c_assertion_header() {
    let root = support::root();
    let kits: Vec<String> = tracked()
        .into_iter()
        .filter(|f| [".c", ".h", ".cpp"].iter().any(|e| f.ends_with(e)))
        .filter(|f| !f.starts_with("include/"))
        .filter(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            text.lines().any(|l| {
                let Some(rest) = l.trim_start().strip_prefix("#define ") else {
                    return false;
                };
                // A function-like macro: its name runs up to the '('.
                let name = rest.split_once('(').map_or(" ", |(name, _)| name);
                !name.contains(' ')
                    && ["CHECK", "VERIFY", "REQUIRE"]
                        .iter()
                        .any(|k| name.contains(k))
            })
        })
        .collect();
    assert_eq!(kits, ["c-tests/check.h"]);
}

/// A test binary without libtest's harness (`harness = false`: a suite of
/// `testkit::trials`) runs only the trials its `main` makes, so a `#[test]`
/// in its driver or in a module the driver declares would never run.
#[test]
fn no_test_function_in_a_binary_of_trials() {
    let root = support::root();
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let mut problems = Vec::new();
    let mut trials = 0;
    for target in cargo.split("[[test]]").skip(1) {
        let target = target.split("\n[").next().unwrap_or_default();
        if !target.contains("harness = false") {
            continue;
        }
        trials += 1;
        let path = target
            .lines()
            .find_map(|l| l.strip_prefix("path = "))
            .expect("a [[test]] with a path")
            .trim_matches('"');
        let main = root.join(path);
        let dir = main.parent().expect("the driver's folder");
        let text = std::fs::read_to_string(&main).expect("the driver");
        let modules = text
            .lines()
            .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
            .map(|m| dir.join(format!("{m}.rs")));
        for file in std::iter::once(main.clone()).chain(modules) {
            let text = std::fs::read_to_string(&file).expect("a module of the driver");
            if text.contains("#[test]") {
                problems.push(file.display().to_string());
            }
        }
    }
    assert!(trials > 0, "no [[test]] with harness = false in Cargo.toml");
    assert!(
        problems.is_empty(),
        "#[test] functions that no trial runs: {problems:?}"
    );
}
