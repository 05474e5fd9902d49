//! What the judges of the tool's VM runs (`cli.rs`, `cli_circular.rs`,
//! `cli_doctor.rs` and the checks they call) share: the run's directory once
//! its guest script finished, its files and step statuses, the steps' error
//! messages, counting lines, decoding a recording on the host, and running a
//! judge's checks.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::cli::jsonl;
use crate::json::J;

/// One check of a judge: its summary line, or what is wrong.
pub(super) type Check<R> = fn(&R) -> Result<String, String>;

/// The directory of the VM run `name` in `results`, once its guest script
/// finished (it writes `done` last).
pub(super) fn finished(results: &Path, name: &str) -> Result<PathBuf, String> {
    let dir = results.join(name);
    ensure!(
        dir.join("done").is_file(),
        "{}: the guest script did not finish (no 'done')",
        dir.display()
    );
    Ok(dir)
}

/// `file` of the run's directory, as text.
pub(super) fn read(dir: &Path, file: &str) -> Result<String, String> {
    let path = dir.join(file);
    std::fs::read(&path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The exit status of each step, from the run's `status` file (lines
/// `STEP STATUS`).
pub(super) fn statuses(dir: &Path) -> Result<BTreeMap<String, i32>, String> {
    Ok(read(dir, "status")?
        .lines()
        .filter_map(|l| {
            let (step, rc) = l.split_once(' ')?;
            Some((step.to_string(), rc.trim().parse().ok()?))
        })
        .collect())
}

/// How many lines of `text` contain `needle`.
pub(super) fn lines_with(text: &str, needle: &str) -> usize {
    text.lines().filter(|l| l.contains(needle)).count()
}

/// Each (step, message) of `errors`: the step's stderr (`STEP.err`) says
/// the message.
pub(super) fn errors_say(dir: &Path, errors: &[(&str, &str)]) -> Result<(), String> {
    for (step, needle) in errors {
        let text = read(dir, &format!("{step}.err"))?;
        ensure!(
            text.contains(needle),
            "{step}: expected {needle:?} on stderr, got: {}",
            text.trim()
        );
    }
    Ok(())
}

/// `CLI decode --jsonl ARGS... PATH` on this machine: (events, stderr); an
/// error unless it succeeds.
pub(super) fn decode_here(
    cli: &Path,
    args: &[&str],
    path: &Path,
) -> Result<(Vec<J>, String), String> {
    let out = Command::new(cli)
        .args(["decode", "--jsonl"])
        .args(args)
        .arg(path)
        .output()
        .map_err(|e| format!("running {}: {e}", cli.display()))?;
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    ensure!(
        out.status.success(),
        "decode {} on the host: {}: {err}",
        path.display(),
        out.status
    );
    Ok((jsonl(&String::from_utf8_lossy(&out.stdout))?, err))
}

/// Runs every check on `run`: `(TITLE: N checks passed, a line per check)`
/// when all pass, else every problem, one line each.
pub(super) fn run_checks<R>(
    run: &R,
    checks: &[(&str, Check<R>)],
    title: &str,
) -> Result<(String, Vec<String>), String> {
    let mut lines = Vec::new();
    let mut problems = Vec::new();
    for (what, check) in checks {
        match check(run) {
            Ok(line) => lines.push(format!("    {what}: {line}")),
            Err(problem) => problems.push(format!("{what}: {problem}")),
        }
    }
    if problems.is_empty() {
        Ok((format!("{title}: {} checks passed", checks.len()), lines))
    } else {
        Err(problems.join("\n"))
    }
}
