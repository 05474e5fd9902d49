//! A program's instruction count under callgrind: the total Ir of one run,
//! a measure that does not depend on the machine's load (the benchmarks'
//! smoke test and the CLI's cost bounds difference two runs of it).

use std::path::Path;
use std::process::Command;

/// Total instructions (callgrind's Ir) of one run of `command` (its
/// program, arguments, environment changes and directory) under
/// `valgrind --tool=callgrind`, which writes its profile to `out`. Panics
/// with the run's output when it fails or `out` has no total.
pub fn total_instructions(command: &Command, out: &Path) -> u64 {
    let mut valgrind = Command::new("valgrind");
    valgrind
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(command.get_program())
        .args(command.get_args());
    for (key, value) in command.get_envs() {
        match value {
            Some(v) => valgrind.env(key, v),
            None => valgrind.env_remove(key),
        };
    }
    if let Some(dir) = command.get_current_dir() {
        valgrind.current_dir(dir);
    }
    let output = valgrind.output().expect("running valgrind");
    assert!(
        output.status.success(),
        "valgrind {command:?} failed ({}):\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(out).expect("reading callgrind output");
    total(&text).unwrap_or_else(|| panic!("no totals in {}", out.display()))
}

/// The Ir total of a callgrind profile: the first count of its first
/// `totals:` or `summary:` line (callgrind writes the same counts in both).
pub fn total(profile: &str) -> Option<u64> {
    profile
        .lines()
        .find_map(|l| {
            l.strip_prefix("totals:")
                .or_else(|| l.strip_prefix("summary:"))
        })
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::total;

    #[test]
    fn the_total_is_the_first_count_of_totals_or_summary() {
        assert_eq!(
            total("events: Ir\nfn=main\n3 7\ntotals: 1234 5\n"),
            Some(1234)
        );
        assert_eq!(total("events: Ir\nsummary: 99\n"), Some(99));
        assert_eq!(total("events: Ir\nfn=main\n3 7\n"), None);
        assert_eq!(total("totals: many\n"), None);
    }
}
