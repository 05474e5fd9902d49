//! The benchmark's VM check: the instructions per iteration of each mode
//! `tests/kernel/bench.sh` measures, each bounded one within its bound.

use std::path::Path;

/// The most instructions per iteration the disabled path may cost.
pub const BENCH_DISABLED_MAX: f64 = 10.0;

/// The most instructions an enabled 5-field `TraceLoggingWrite` may cost with
/// user_events, loop included: the figure measured when the private write
/// entry point landed (66, gcc 12 -O2, docs/performance.md) plus 10 %, well below
/// 0.9 x the reference's 98. A return of the public API's argument checks
/// or of the provider and capture loads on the kernel path exceeds it.
pub const BENCH_ENABLED5_MAX: f64 = 73.0;

/// The most instructions an enabled 5-field runtime-defined event may cost
/// with user_events through `EventHeaderDynamic.h` (the C++ API, reused
/// builder, loop and call included): the figure measured when a field's
/// room became one comparison per buffer (274, gcc 12 -O2,
/// docs/performance.md) plus about 10 %, below 0.5 x the reference's 610. A
/// field that goes through the library again, room tests beyond the limits,
/// or a write that copies the event, exceed it.
pub const BENCH_DYNAMIC5CPP_MAX: f64 = 300.0;

/// The same event through `eventheader-dynamic.h` (the C API with the
/// header's inline fast paths): measured 271, plus about 10 %.
pub const BENCH_DYNAMIC5_MAX: f64 = 300.0;

/// The same event through the exported functions alone, as a binding calls
/// them: an event definition made once, then per event 5 `ehd_value` filled
/// and one `ehd_event_def_write` (loop and call included): measured 331.02
/// (gcc 12 -O2, docs/performance.md), plus 10 %. A write that copies the
/// payload or checks the fields' names again exceeds it (the field array's
/// one call, `dynamic5array`, costs 737).
pub const BENCH_DYNAMIC5EXPORTS_MAX: f64 = 365.0;

/// A model of the OpenTelemetry user_events logs exporter's record
/// (`benches/c/exporter.cpp`, a new record and builder per record: its
/// allocation, 13 fields, two struct counts, the write): measured 1,614
/// (gcc 12 -O2, docs/performance.md), plus 10 %. A name scanned twice, a
/// short copy through memcpy, or a struct count through the library again
/// exceeds it.
pub const BENCH_EXPORTER_MAX: f64 = 1780.0;

/// The benchmark modes, one list for the scripts and this judge.
const MODES_TXT: &str = include_str!("../../../../benches/modes.txt");

/// The modes `tests/kernel/bench.sh` measures (the list "vm" of
/// `benches/modes.txt`): (mode, the most instructions per iteration it may
/// cost if bounded, what it is), in the file's order.
fn bench_modes() -> Vec<(&'static str, Option<f64>, String)> {
    MODES_TXT
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let (mode, _program, lists) = (f.next()?, f.next()?, f.next()?);
            let what = f.collect::<Vec<_>>().join(" ");
            lists
                .split(',')
                .any(|x| x == "vm")
                .then(|| (mode, bench_bound(mode), what))
        })
        .collect()
}

/// The bound of a mode on x86_64 (instructions per iteration), if it has one.
fn bench_bound(mode: &str) -> Option<f64> {
    match mode {
        "disabled" | "dynamic_disabled" => Some(BENCH_DISABLED_MAX),
        "enabled5" => Some(BENCH_ENABLED5_MAX),
        "dynamic5cpp" => Some(BENCH_DYNAMIC5CPP_MAX),
        "dynamic5" => Some(BENCH_DYNAMIC5_MAX),
        "dynamic5exports" => Some(BENCH_DYNAMIC5EXPORTS_MAX),
        "exporter_fresh" => Some(BENCH_EXPORTER_MAX),
        _ => None,
    }
}

/// `benches/run-callgrind.sh --user-events` in the VM (`tests/kernel/bench.sh`):
/// `NAME.tsv` has a row "mode, library, floor" (Ir per iteration) for each
/// mode of [`bench_modes`], each bounded one within its bound. The table of
/// `NAME.log` goes to the summary.
pub fn bench(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    let read = |file: String| std::fs::read_to_string(results.join(&file)).unwrap_or_default();
    let tsv = read(format!("{name}.tsv"));
    let log = read(format!("{name}.log"));
    let modes = bench_modes();
    let figures = bench_bounds(&tsv)?;
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

/// The figures of `bench.sh`'s TSV ("mode, library, floor" rows), in the
/// order of [`bench_modes`], each checked against its bound.
fn bench_bounds(tsv: &str) -> Result<Vec<f64>, String> {
    let modes = bench_modes();
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
                 ({mode}, at most {bound})"
            ));
        }
        figures.push(figure);
    }
    Ok(figures)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_modes_come_from_the_mode_list() {
        let modes: Vec<&str> = bench_modes().iter().map(|m| m.0).collect();
        assert_eq!(
            modes,
            [
                "disabled",
                "enabled5",
                "empty",
                "dynamic5cpp",
                "dynamic5",
                "dynamic5exports",
                "dynamic_disabled",
                "exporter_fresh"
            ]
        );
        assert!(bench_modes().iter().all(|m| !m.2.is_empty()));
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
        assert_eq!(
            bench_bounds(&tsv("5.96", "66.01", "300.00", "297.00")),
            Ok(vec![5.96, 66.01, 37.0, 300.0, 297.0, 330.0, 5.97, 1700.0])
        );
        let over = tsv("5.96", "66", "300", "297").replace(
            "exporter_fresh\t1700.00",
            &format!("exporter_fresh\t{}", BENCH_EXPORTER_MAX + 1.0),
        );
        let err = bench_bounds(&over).unwrap_err();
        assert!(err.contains("exporter's record (model) costs"), "{err}");
        let over = tsv("5.96", "66", "300", "297").replace(
            "dynamic5exports\t330.00",
            &format!("dynamic5exports\t{}", BENCH_DYNAMIC5EXPORTS_MAX + 1.0),
        );
        let err = bench_bounds(&over).unwrap_err();
        assert!(err.contains("exported functions alone) costs"), "{err}");
        let err = bench_bounds(&tsv("11.00", "66.01", "300", "297")).unwrap_err();
        assert!(err.contains("disabled TraceLoggingWrite costs 11"), "{err}");
        let err = bench_bounds(&tsv("5.96", "77.01", "300", "297")).unwrap_err();
        assert!(
            err.contains("enabled 5-field TraceLoggingWrite costs 77.01"),
            "{err}"
        );
        let err = bench_bounds(&tsv("5.96", "66", "331", "297")).unwrap_err();
        assert!(err.contains("(C++ API) costs 331"), "{err}");
        let err = bench_bounds(&tsv("5.96", "66", "300", "400")).unwrap_err();
        assert!(err.contains("(C API) costs 400"), "{err}");
        let err = bench_bounds(&tsv("5.96", "", "300", "297")).unwrap_err();
        assert!(err.contains("enabled5: no instruction count"), "{err}");
        assert!(bench_bounds("disabled\t5.96\t6.00\n").is_err());
    }
}
