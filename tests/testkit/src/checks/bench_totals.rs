//! The arm64 VM's bench check: its guest runs each program and mode of the
//! plan under callgrind with N and 2N iterations and leaves one line per run
//! in `bench.totals`, `PROGRAM MODE ITERATIONS TOTAL_IR STATUS`; the figure
//! of a mode is (Ir(2N) - Ir(N)) / N (`benches/run-callgrind.sh`'s
//! iteration-difference method), judged against the architecture's bounds
//! by [`super::bench_bounds`].

use super::bench::{bench_bounds, bench_modes, mode_program, Arch};

/// What [`judge_totals`] made of a `bench.totals`.
#[derive(Debug, PartialEq)]
pub struct Totals {
    /// `mode, library, floor` rows (tab-separated), as `bench.tsv`.
    pub tsv: String,
    /// The table: mode, library, floor, overhead, then one column per build
    /// of another implementation.
    pub table: Vec<String>,
    /// `mode figure <= bound` of each bounded mode.
    pub bounded: Vec<String>,
    /// Every failed run and, last, the bounds' verdict if it failed.
    pub problems: Vec<String>,
}

/// Ir per iteration of `program`'s `mode` from the totals (2 decimals), or
/// "-" when a run failed or is missing.
fn per_iteration(rows: &[Vec<&str>], program: &str, mode: &str, n: u64) -> String {
    let ir = |iterations: u64| {
        rows.iter()
            .filter(|r| r[0] == program && r[1] == mode && r[4] == "0")
            .filter(|r| r[2].parse::<u64>().ok() == Some(iterations))
            .filter_map(|r| r[3].parse::<f64>().ok())
            .next_back()
    };
    match (ir(n), ir(2 * n)) {
        (Some(a), Some(b)) if n > 0 => format!("{:.2}", (b - a) / n as f64),
        _ => "-".into(),
    }
}

/// Judges `totals` (N = `n`) for `arch`'s modes; `builds` are the columns of
/// the builds of other implementations (`ref-static`, ...: program
/// `PROGRAM.BUILD`), shown, not judged. A run of such a build that exits 3
/// has no API for its mode: "-", not a failure.
pub fn judge_totals(totals: &str, n: u64, builds: &[&str], arch: Arch) -> Result<Totals, String> {
    let rows: Vec<Vec<&str>> = totals
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|w| w.len() == 5)
        .collect();
    let mut problems: Vec<String> = rows
        .iter()
        .filter(|r| r[4] != "0" && !(r[4] == "3" && r[0].contains('.')))
        .map(|r| {
            format!(
                "valgrind --tool=callgrind {} (program mode N Ir status)",
                r.join(" ")
            )
        })
        .collect();
    let mut head = format!(
        "{:<16} {:>12} {:>12} {:>12}",
        "mode", "library", "floor", "overhead"
    );
    for b in builds {
        head.push_str(&format!(" {b:>14}"));
    }
    let mut table = vec![head];
    let (mut tsv, mut bounded) = (String::new(), Vec::new());
    for (mode, bound, _) in bench_modes(arch)? {
        let program = mode_program(mode).ok_or_else(|| format!("{mode}: no program"))?;
        let ours = per_iteration(&rows, program, mode, n);
        let floor = if program == "bench" {
            per_iteration(&rows, "floor", mode, n)
        } else {
            "-".into()
        };
        let overhead = match (ours.parse::<f64>(), floor.parse::<f64>()) {
            (Ok(a), Ok(b)) => format!("{:+.2}", a - b),
            _ => "-".into(),
        };
        let mut line = format!("{mode:<16} {ours:>12} {floor:>12} {overhead:>12}");
        for b in builds {
            let theirs = per_iteration(&rows, &format!("{program}.{b}"), mode, n);
            line.push_str(&format!(" {theirs:>14}"));
        }
        table.push(line);
        tsv.push_str(&format!("{mode}\t{ours}\t{floor}\n"));
        if let Some(b) = bound {
            bounded.push(format!("{mode} {ours} <= {b}"));
        }
    }
    if let Err(e) = bench_bounds(&tsv, arch) {
        problems.push(e);
    }
    Ok(Totals {
        tsv,
        table,
        bounded,
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Totals of every aarch64 mode: (mode, program, Ir per iteration).
    fn totals(figures: &[(&str, &str, u64)]) -> String {
        let mut out = String::new();
        for (mode, program, per) in figures {
            out.push_str(&format!("{program} {mode} 10 {} 0\n", 1000 + 10 * per));
            out.push_str(&format!("{program} {mode} 20 {} 0\n", 1000 + 20 * per));
        }
        out
    }

    const ARM: &[(&str, &str, u64)] = &[
        ("disabled", "bench", 6),
        ("disabled", "floor", 5),
        ("enabled5", "bench", 86),
        ("enabled5", "floor", 17),
        ("dynamic5cpp", "dynamic", 318),
        ("dynamic5", "dynamic", 314),
        ("dynamic5exports", "dynamic", 330),
        ("dynamic_disabled", "dynamic", 5),
        ("exporter_fresh", "exporter", 1953),
    ];

    #[test]
    fn the_totals_become_the_table_and_are_bounded() {
        let t = judge_totals(&totals(ARM), 10, &[], Arch::Aarch64).unwrap();
        assert_eq!(t.problems, Vec::<String>::new());
        assert_eq!(t.table.len(), 8);
        assert!(
            t.table[2].starts_with("enabled5") && t.table[2].ends_with("+69.00"),
            "{:?}",
            t.table
        );
        assert!(
            t.tsv
                .starts_with("disabled\t6.00\t5.00\nenabled5\t86.00\t17.00\n"),
            "{}",
            t.tsv
        );
        assert_eq!(t.bounded[1], "enabled5 86.00 <= 95");
        // Over a bound, a failed run, a missing mode: each a problem.
        let over = totals(ARM).replace("bench enabled5 20 2720", "bench enabled5 20 3000");
        let t = judge_totals(&over, 10, &[], Arch::Aarch64).unwrap();
        assert!(
            t.problems[0].contains("at most 95 on aarch64"),
            "{:?}",
            t.problems
        );
        let failed =
            totals(ARM).replace("dynamic dynamic5 20 7280 0", "dynamic dynamic5 20 7280 1");
        let t = judge_totals(&failed, 10, &[], Arch::Aarch64).unwrap();
        assert_eq!(t.problems.len(), 2, "{:?}", t.problems);
        assert!(
            t.problems[1].contains("dynamic5: no instruction count"),
            "{:?}",
            t.problems
        );
        // Another implementation's build: shown; its exit 3 is no failure.
        let theirs = totals(ARM) + "dynamic.ref-static dynamic5 10 1 3\nbench.ref-static enabled5 10 1000 0\nbench.ref-static enabled5 20 1980 0\n";
        let t = judge_totals(&theirs, 10, &["ref-static"], Arch::Aarch64).unwrap();
        assert_eq!(t.problems, Vec::<String>::new());
        assert!(t.table[2].ends_with("98.00"), "{:?}", t.table);
    }
}
