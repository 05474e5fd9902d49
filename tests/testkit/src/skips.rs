//! What the tests of one test binary skipped because the machine lacks a
//! tool or privilege ([`crate::optional`]), reported when the binary exits,
//! right after its `test result:` line, so that a plain `cargo test` that
//! passes without them says so (CI sets the `REQUIRE_*` variables, which
//! make such a lack a failure instead). The report also counts the skips of
//! the earlier test binaries of the same `cargo test` run, which append to
//! a file named after that run (cargo's pid and start time).

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::{Mutex, Once};

/// (what, variable) -> the tests that skipped it, in this binary.
static SKIPPED: Mutex<BTreeMap<(String, String), Vec<String>>> = Mutex::new(BTreeMap::new());
static AT_EXIT: Once = Once::new();

extern "C" {
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

/// Records that the running test skipped `what` (`require` would make it
/// fail), and arranges the report at exit.
pub(crate) fn record(require: &str, what: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("(unnamed thread)")
        .to_string();
    let mut skipped = SKIPPED.lock().unwrap_or_else(|e| e.into_inner());
    let tests = skipped
        .entry((what.to_string(), require.to_string()))
        .or_default();
    if !tests.contains(&test) {
        tests.push(test);
    }
    drop(skipped);
    if let Some(path) = run_file() {
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(file, "{} {what} ({require})", binary());
        }
    }
    AT_EXIT.call_once(|| {
        // SAFETY: `report` is a plain function of this binary, which is
        // never unloaded; atexit has no other precondition.
        unsafe { atexit(report) };
    });
}

/// This test binary's name, without cargo's hash suffix.
fn binary() -> String {
    let exe = std::env::current_exe().unwrap_or_default();
    let stem = exe
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name.to_string(),
        _ => stem,
    }
}

/// The file the test binaries of this `cargo test` run append their skips
/// to: keyed by the parent (cargo) process's pid and start time.
fn run_file() -> Option<PathBuf> {
    let parent = std::os::unix::process::parent_id();
    let stat = std::fs::read_to_string(format!("/proc/{parent}/stat")).ok()?;
    // Field 22, counted after the ")" that ends the command name.
    let start = stat
        .rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(19)?
        .to_string();
    Some(std::env::temp_dir().join(format!("eventheader-tracepoint-skips-{parent}-{start}")))
}

extern "C" fn report() {
    let skipped = SKIPPED.lock().unwrap_or_else(|e| e.into_inner());
    let mut text = format!(
        "\nSKIPPED in {} (it passed without them; set the variable to 1 to make them fail):\n",
        binary()
    );
    for ((what, require), tests) in skipped.iter() {
        text.push_str(&format!(
            "  {what} [{require}]: {} ({})\n",
            if tests.len() == 1 {
                "1 test".to_string()
            } else {
                format!("{} tests", tests.len())
            },
            tests.join(", ")
        ));
    }
    let run: Vec<String> = run_file()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|t| {
            let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
            lines.sort();
            lines.dedup();
            lines
        })
        .unwrap_or_default();
    text.push_str(&format!(
        "SKIPPED so far in this cargo test run: {} capabilities missing in {} test binaries: {}\n",
        run.len(),
        {
            let mut binaries: Vec<&str> = run.iter().filter_map(|l| l.split(' ').next()).collect();
            binaries.dedup();
            binaries.len()
        },
        run.join("; ")
    ));
    let _ = std::io::stderr().write_all(text.as_bytes());
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    /// Skips when `TESTKIT_SKIP_PROBE` is set (run by the test below in a
    /// child process); a no-op otherwise.
    #[test]
    fn skip_probe() {
        if std::env::var_os("TESTKIT_SKIP_PROBE").is_some() {
            assert!(!crate::optional(
                false,
                "REQUIRE_SKIP_PROBE",
                "the probe's tool"
            ));
        }
    }

    #[test]
    fn a_binary_with_skipped_tests_says_so_when_it_exits() {
        let output = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "skips::tests::skip_probe", "--test-threads", "1"])
            .env("TESTKIT_SKIP_PROBE", "1")
            .env_remove("REQUIRE_SKIP_PROBE")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains("test result: ok. 1 passed"), "{stdout}");
        let report = stderr
            .split_once("\nSKIPPED in ")
            .unwrap_or_else(|| panic!("no report: {stderr}"))
            .1;
        assert!(
            report.contains(
                "  the probe's tool [REQUIRE_SKIP_PROBE]: 1 test (skips::tests::skip_probe)\n"
            ),
            "{report}"
        );
        assert!(
            report.contains("SKIPPED so far in this cargo test run: 1 capabilities"),
            "{report}"
        );
    }
}
