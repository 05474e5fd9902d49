//! The benchmark's VM check: the instructions per iteration of each mode
//! `tests/kernel/bench.sh` measures, each bounded one within its bound.

use std::path::Path;

/// The benchmark modes, one list for the scripts and this judge.
const MODES_TXT: &str = include_str!("../../../../benches/modes.txt");

/// The bounds of the modes, one column per architecture.
const BOUNDS_TXT: &str = include_str!("../../../../benches/bounds.txt");

/// An architecture with a VM bench check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arch {
    /// The x86_64 VM (`tests/kernel/bench.sh`).
    X86_64,
    /// The arm64 VM (`tests/kernel/arm64/run.sh`).
    Aarch64,
}

impl Arch {
    /// Every architecture, in the order of the columns of `benches/bounds.txt`.
    pub const ALL: [Arch; 2] = [Arch::X86_64, Arch::Aarch64];

    /// The architecture named as `uname -m` names it.
    pub fn from_name(name: &str) -> Option<Arch> {
        Arch::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Its name as `uname -m` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Arch::X86_64 => "x86_64",
            Arch::Aarch64 => "aarch64",
        }
    }

    /// The list of `benches/modes.txt` that names the modes its VM measures.
    fn list(self) -> &'static str {
        match self {
            Arch::X86_64 => "vm",
            Arch::Aarch64 => "arm64",
        }
    }

    fn column(self) -> usize {
        match self {
            Arch::X86_64 => 0,
            Arch::Aarch64 => 1,
        }
    }
}

/// A mode a VM measures: (its name, the most instructions per iteration it
/// may cost if bounded, what one iteration is).
pub type Mode<'a> = (&'a str, Option<f64>, String);

/// One mode's cell of `benches/bounds.txt`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cell {
    /// The most instructions per iteration.
    Max(f64),
    /// Measured, not bounded ("-").
    Unbounded,
    /// Not measured on that architecture (".").
    NotMeasured,
}

/// The rows of a bounds table: (mode, one cell per architecture).
fn parse_bounds(text: &str) -> Result<Vec<(&str, [Cell; 2])>, String> {
    let mut rows: Vec<(&str, [Cell; 2])> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [mode, cells @ ..] = fields.as_slice() else {
            continue;
        };
        if mode.starts_with('#') {
            continue;
        }
        if cells.len() != Arch::ALL.len() {
            return Err(format!(
                "benches/bounds.txt line {}: {} bounds, want one per architecture ({})",
                i + 1,
                cells.len(),
                Arch::ALL.len()
            ));
        }
        let mut parsed = [Cell::NotMeasured; 2];
        for (cell, text) in parsed.iter_mut().zip(cells) {
            *cell = match *text {
                "-" => Cell::Unbounded,
                "." => Cell::NotMeasured,
                n => match n.parse::<f64>() {
                    Ok(v) if v.is_finite() && v > 0.0 => Cell::Max(v),
                    _ => {
                        return Err(format!(
                            "benches/bounds.txt line {}: {mode}: bound {n:?} is not a positive number, - or .",
                            i + 1
                        ))
                    }
                },
            };
        }
        if rows.iter().any(|r| r.0 == *mode) {
            return Err(format!("benches/bounds.txt: {mode} twice"));
        }
        rows.push((mode, parsed));
    }
    Ok(rows)
}

/// The modes an architecture's VM measures (the list [`Arch::list`] of
/// `modes`): (mode, the most instructions per iteration it may cost if
/// bounded, what it is), in the order of `modes`. Every such mode has a
/// bound or "-" in `bounds`, and every mode `bounds` measures there is in
/// the list.
fn modes_with_bounds<'a>(
    modes: &'a str,
    bounds: &'a str,
    arch: Arch,
) -> Result<Vec<Mode<'a>>, String> {
    let table = parse_bounds(bounds)?;
    let mut out = Vec::new();
    for line in modes.lines().filter(|l| !l.starts_with('#')) {
        let mut f = line.split_whitespace();
        let (Some(mode), Some(_program), Some(lists)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        let what = f.collect::<Vec<_>>().join(" ");
        let listed = lists.split(',').any(|x| x == arch.list());
        let cell = table
            .iter()
            .find(|r| r.0 == mode)
            .map_or(Cell::NotMeasured, |r| r.1[arch.column()]);
        match (listed, cell) {
            (true, Cell::Max(b)) => out.push((mode, Some(b), what)),
            (true, Cell::Unbounded) => out.push((mode, None, what)),
            (true, Cell::NotMeasured) => {
                return Err(format!(
                    "{mode}: measured on {} (list {} of benches/modes.txt), no bound in benches/bounds.txt",
                    arch.name(),
                    arch.list()
                ))
            }
            (false, Cell::NotMeasured) => {}
            (false, _) => {
                return Err(format!(
                    "{mode}: a bound for {} in benches/bounds.txt, not in the list {} of benches/modes.txt",
                    arch.name(),
                    arch.list()
                ))
            }
        }
    }
    if let Some(r) = table.iter().find(|r| !modes_has(modes, r.0)) {
        return Err(format!(
            "benches/bounds.txt: {}: no such mode in benches/modes.txt",
            r.0
        ));
    }
    Ok(out)
}

fn modes_has(modes: &str, mode: &str) -> bool {
    modes
        .lines()
        .filter(|l| !l.starts_with('#'))
        .any(|l| l.split_whitespace().next() == Some(mode))
}

/// The benches/c program that has `mode` (`benches/modes.txt`).
pub fn mode_program(mode: &str) -> Option<&'static str> {
    MODES_TXT
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace())
        .find_map(|mut f| (f.next() == Some(mode)).then(|| f.next()).flatten())
}

/// The modes an architecture's VM bench check measures, with their bounds
/// (`benches/modes.txt` and `benches/bounds.txt`), in the order of the modes.
pub fn bench_modes(arch: Arch) -> Result<Vec<Mode<'static>>, String> {
    modes_with_bounds(MODES_TXT, BOUNDS_TXT, arch)
}

/// `benches/run-callgrind.sh --user-events` in the VM (`tests/kernel/bench.sh`):
/// `NAME.tsv` has a row "mode, library, floor" (Ir per iteration) for each
/// mode of [`bench_modes`], each bounded one within its bound. The table of
/// `NAME.log` goes to the summary.
pub fn bench(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    let read = |file: String| std::fs::read_to_string(results.join(&file)).unwrap_or_default();
    let tsv = read(format!("{name}.tsv"));
    let log = read(format!("{name}.log"));
    let modes = bench_modes(Arch::X86_64)?;
    let figures = bench_bounds(&tsv, Arch::X86_64)?;
    // "callgrind Ir per iteration, backend: user_events, N = 500 vs 1000 (...)"
    let n = log
        .lines()
        .find(|l| l.starts_with("callgrind Ir per iteration"))
        .and_then(|l| l.find("N = ").map(|i| &l[i..]))
        .map(|rest| rest.split(" (").next().unwrap_or(rest).to_string())
        .unwrap_or_default();
    let table = log
        .lines()
        .filter(|l| {
            let first = l.split_whitespace().next().unwrap_or("");
            first == "mode" || modes.iter().any(|m| m.0 == first)
        })
        .map(|l| format!("    {l}"))
        .collect();
    let bounded: Vec<String> = modes
        .iter()
        .zip(&figures)
        .filter_map(|((mode, bound, _), figure)| bound.map(|b| format!("{mode} {figure} <= {b}")))
        .collect();
    Ok((
        format!(
            "callgrind Ir per iteration with user_events, {n}: {}",
            bounded.join(", ")
        ),
        table,
    ))
}

/// The figures of a VM bench check's TSV ("mode, library, floor" rows), in
/// the order of [`bench_modes`] of `arch`, each checked against its bound.
pub fn bench_bounds(tsv: &str, arch: Arch) -> Result<Vec<f64>, String> {
    let modes = bench_modes(arch)?;
    let rows: Vec<Vec<&str>> = tsv
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| modes.iter().any(|m| m.0 == f[0]))
        .collect();
    if rows.len() != modes.len() {
        return Err(format!(
            "{} of {} rows in the benchmark's TSV",
            rows.len(),
            modes.len()
        ));
    }
    let mut figures = Vec::new();
    for (mode, bound, what) in modes {
        let text = rows
            .iter()
            .find(|f| f[0] == mode)
            .and_then(|f| f.get(1))
            .copied()
            .unwrap_or("");
        let figure = text.parse::<f64>().map_err(|_| {
            format!("{mode}: no instruction count in the benchmark's TSV ({text:?})")
        })?;
        if let Some(bound) = bound.filter(|&b| figure > b) {
            return Err(format!(
                "{what} costs {figure} instructions per iteration with user_events \
                 ({mode}, at most {bound} on {})",
                arch.name()
            ));
        }
        figures.push(figure);
    }
    Ok(figures)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(arch: Arch, mode: &str) -> f64 {
        let modes = bench_modes(arch).unwrap();
        modes.iter().find(|m| m.0 == mode).unwrap().1.unwrap()
    }

    #[test]
    fn every_measured_mode_has_a_bound_on_every_architecture() {
        for arch in Arch::ALL {
            let modes = bench_modes(arch).unwrap_or_else(|e| panic!("{}: {e}", arch.name()));
            assert!(!modes.is_empty(), "{}", arch.name());
            assert!(modes.iter().all(|m| !m.2.is_empty()), "{}", arch.name());
            assert_eq!(Arch::from_name(arch.name()), Some(arch));
        }
        let table = parse_bounds(BOUNDS_TXT).unwrap();
        for (mode, cells) in &table {
            assert!(modes_has(MODES_TXT, mode), "{mode}");
            assert!(cells.iter().any(|c| *c != Cell::NotMeasured), "{mode}");
        }
    }

    #[test]
    fn bench_modes_come_from_the_mode_list() {
        let modes = |arch| -> Vec<(&str, Option<f64>)> {
            bench_modes(arch)
                .unwrap()
                .iter()
                .map(|m| (m.0, m.1))
                .collect()
        };
        assert_eq!(
            modes(Arch::X86_64),
            [
                ("disabled", Some(10.0)),
                ("enabled5", Some(73.0)),
                ("empty", None),
                ("dynamic5cpp", Some(300.0)),
                ("dynamic5", Some(300.0)),
                ("dynamic5exports", Some(365.0)),
                ("dynamic_disabled", Some(10.0)),
                ("exporter_fresh", Some(1780.0))
            ]
        );
        assert_eq!(
            modes(Arch::Aarch64),
            [
                ("disabled", Some(10.0)),
                ("enabled5", Some(95.0)),
                ("dynamic5cpp", Some(350.0)),
                ("dynamic5", Some(350.0)),
                ("dynamic5exports", Some(365.0)),
                ("dynamic_disabled", Some(10.0)),
                ("exporter_fresh", Some(2150.0))
            ]
        );
    }

    #[test]
    fn the_bounds_table_and_the_mode_list_agree() {
        let modes = "# c\na  p  vm,arm64  A\nb  p  vm  B\nc  p  callgrind  C\n";
        let ok = "# MODE X86_64 AARCH64\na 10 20\nb - .\n";
        assert_eq!(
            modes_with_bounds(modes, ok, Arch::X86_64),
            Ok(vec![("a", Some(10.0), "A".into()), ("b", None, "B".into())])
        );
        assert_eq!(
            modes_with_bounds(modes, ok, Arch::Aarch64),
            Ok(vec![("a", Some(20.0), "A".into())])
        );
        let err = |bounds: &str, arch| modes_with_bounds(modes, bounds, arch).unwrap_err();
        assert!(err("a 10 20\n", Arch::X86_64).contains("b: measured on x86_64"));
        assert!(err("a 10 .\nb - .\n", Arch::Aarch64).contains("a: measured on aarch64"));
        assert!(err("a 10 20\nb - 5\n", Arch::Aarch64).contains("b: a bound for aarch64"));
        assert!(err("a 10 20\nb - .\nz 1 1\n", Arch::X86_64).contains("z: no such mode"));
        assert!(err("a 10\nb - .\n", Arch::X86_64).contains("1 bounds"));
        assert!(err("a ten 20\nb - .\n", Arch::X86_64).contains("not a positive number"));
        assert!(err("a 10 20\na 10 20\nb - .\n", Arch::X86_64).contains("a twice"));
    }

    #[test]
    fn bench_bounds_judge_every_bounded_mode() {
        let tsv = |disabled: &str, enabled5: &str, cpp: &str, c: &str| {
            format!(
                "disabled\t{disabled}\t6.00\nenabled5\t{enabled5}\t17.00\nempty\t37.00\t17.00\n\
                 dynamic5cpp\t{cpp}\t-\ndynamic5\t{c}\t-\ndynamic5exports\t330.00\t-\n\
                 dynamic_disabled\t5.97\t-\nexporter_fresh\t1700.00\t-\n"
            )
        };
        let x86 = |t: &str| bench_bounds(t, Arch::X86_64);
        assert_eq!(
            x86(&tsv("5.96", "66.01", "300.00", "297.00")),
            Ok(vec![5.96, 66.01, 37.0, 300.0, 297.0, 330.0, 5.97, 1700.0])
        );
        let over = tsv("5.96", "66", "300", "297").replace(
            "exporter_fresh\t1700.00",
            &format!(
                "exporter_fresh\t{}",
                bound(Arch::X86_64, "exporter_fresh") + 1.0
            ),
        );
        let err = x86(&over).unwrap_err();
        assert!(err.contains("exporter's record (model) costs"), "{err}");
        let over = tsv("5.96", "66", "300", "297").replace(
            "dynamic5exports\t330.00",
            &format!(
                "dynamic5exports\t{}",
                bound(Arch::X86_64, "dynamic5exports") + 1.0
            ),
        );
        let err = x86(&over).unwrap_err();
        assert!(err.contains("exported functions alone) costs"), "{err}");
        let err = x86(&tsv("11.00", "66.01", "300", "297")).unwrap_err();
        assert!(err.contains("disabled TraceLoggingWrite costs 11"), "{err}");
        let err = x86(&tsv("5.96", "77.01", "300", "297")).unwrap_err();
        assert!(
            err.contains("enabled 5-field TraceLoggingWrite costs 77.01"),
            "{err}"
        );
        let err = x86(&tsv("5.96", "66", "331", "297")).unwrap_err();
        assert!(err.contains("(C++ API) costs 331"), "{err}");
        let err = x86(&tsv("5.96", "66", "300", "400")).unwrap_err();
        assert!(err.contains("(C API) costs 400"), "{err}");
        let err = x86(&tsv("5.96", "", "300", "297")).unwrap_err();
        assert!(err.contains("enabled5: no instruction count"), "{err}");
        assert!(x86("disabled\t5.96\t6.00\n").is_err());
        // aarch64's own bounds, without the empty row.
        let arm = tsv("5.99", "85.89", "318.03", "314.00").replace("empty\t37.00\t17.00\n", "");
        assert_eq!(
            bench_bounds(&arm, Arch::Aarch64),
            Ok(vec![5.99, 85.89, 318.03, 314.0, 330.0, 5.97, 1700.0])
        );
        let err = bench_bounds(&arm.replace("85.89", "96.00"), Arch::Aarch64).unwrap_err();
        assert!(err.contains("at most 95 on aarch64"), "{err}");
    }
}
