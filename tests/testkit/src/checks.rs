//! The VM suite's checks of what perf recorded against what the program
//! printed: one function per kind of program. Each returns the summary line
//! of a pass, or every problem found (sample problems: the first five).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use crate::perf::Row;

// The judges of one suite's VM runs live in that suite's folder
// (docs/testing.md): tracepoint-provider.h's in c-tests/tpp/, the
// command-line tool's in cli/tests/vm/checks/. The generic ones are here.
#[path = "../../../c-tests/tpp/vm_checks.rs"]
pub mod tpp;

// --- the command-line tool (cli/) --------------------------------------------

/// `Err(message)` from the enclosing check unless `cond` (for the cli modules).
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

#[path = "../../../cli/tests/vm/checks/cli.rs"]
pub mod cli;
#[path = "../../../cli/tests/vm/checks/cli_circular.rs"]
pub mod cli_circular;
#[path = "../../../cli/tests/vm/checks/cli_command.rs"]
mod cli_command;
#[path = "../../../cli/tests/vm/checks/cli_doctor.rs"]
pub mod cli_doctor;
#[path = "../../../cli/tests/vm/checks/cli_live.rs"]
mod cli_live;
#[path = "../../../cli/tests/vm/checks/cli_perf.rs"]
pub mod cli_perf;
#[path = "../../../cli/tests/vm/checks/common.rs"]
mod common;

/// Judges the rows of `testkit fields` (the samples' chosen fields) against
/// the program's output.
pub type FieldsCheck = fn(log: &str, rows: &[Row]) -> Result<String, String>;

/// Judges the files a guest script left in the results directory; Ok is the
/// pass line and lines to add to the suite's summary.
pub type ResultsCheck = fn(results: &Path, name: &str) -> Result<(String, Vec<String>), String>;

/// The problems found so far; sample problems beyond the first five are
/// counted, not listed.
#[derive(Default)]
struct Problems {
    lines: Vec<String>,
    samples: usize,
}

impl Problems {
    fn sample(&mut self, what: String) {
        if self.samples < 5 {
            self.lines.push(what);
        }
        self.samples += 1;
    }

    fn add(&mut self, what: String) {
        self.lines.push(what);
    }

    fn verdict(self, ok: impl FnOnce() -> String) -> Result<String, String> {
        if self.lines.is_empty() && self.samples == 0 {
            Ok(ok())
        } else {
            Err(self.lines.join("\n"))
        }
    }
}

/// The words of the program's output lines that start with `key`.
fn lines_of<'a>(log: &'a str, key: &'a str) -> impl Iterator<Item = Vec<&'a str>> + 'a {
    log.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(move |w| w.first() == Some(&key))
}

/// Word `i` of `words` as a number; 0 when missing or not a number.
fn num(words: &[&str], i: usize) -> u64 {
    words.get(i).and_then(|w| w.parse().ok()).unwrap_or(0)
}

/// `stress 10 kernel 500`: 8 writers, each on its own `HardStress_L5K1`
/// state (event Stable, a = writer, b = its sequence number, c = 0) and on
/// one of 4 churn events (event Churn, c = 1) that churner A keeps moving
/// between `HardStress_L4K2` and `HardStressAlt_L4K2`, disconnecting and
/// reconnecting. perf must have exactly one sample per successful write: per
/// writer, as many Stable samples as its stable_ok and Churn samples as its
/// churn_ok, no (writer, seq) twice.
///
/// One exception, counted and reported: a sample equal to an earlier one in
/// every field, its time, CPU and stream id included, is one record that
/// `perf record` wrote twice, and counts once. perf (6.12,
/// tools/perf/util/mmap.c, `perf_mmap__push`) reads a CPU buffer's
/// `data_head` twice: it writes the data up to the second reading to the file
/// but resumes the next time from the first, so what the kernel appended
/// between the two readings is in perf.data twice, byte for byte (how often:
/// tests/kernel/README.md, "Records perf writes twice"). A write the kernel
/// delivered twice would carry two timestamps and still fails as "landed
/// twice".
pub fn stress(log: &str, rows: &[Row]) -> Result<String, String> {
    // writer W stable_ok S churn_ok C churn_ebadf E
    let mut writers: BTreeMap<u64, (u64, u64)> = BTreeMap::new();
    let mut churn_ebadf = 0;
    for w in lines_of(log, "writer") {
        writers.insert(num(&w, 1), (num(&w, 3), num(&w, 5)));
        churn_ebadf += num(&w, 7);
    }
    let churner_a = lines_of(log, "churnerA").last().map_or(0, |w| num(&w, 2));
    // churnerB cycles N transient_ok T raw_ok R
    let (churner_b, transient, raw) = lines_of(log, "churnerB")
        .last()
        .map_or((0, 0, 0), |w| (num(&w, 2), num(&w, 4), num(&w, 6)));
    let total = lines_of(log, "total_ok").last().map_or(0, |w| num(&w, 1));

    let mut p = Problems::default();
    let mut seen: HashMap<(bool, u32, u32), &Row> = HashMap::new();
    let mut rewritten = Vec::new();
    let mut per_writer: HashMap<(bool, u64), u64> = HashMap::new();
    let mut per_tracepoint: HashMap<&str, u64> = HashMap::new();
    let (mut stable_n, mut churn_n) = (0u64, 0u64);
    let mut pids = HashSet::new();
    for r in rows {
        let (Some(a), Some(b), Some(c)) = (r.values[0], r.values[1], r.values[2]) else {
            p.sample(format!("unexpected sample: {}", r.line()));
            continue;
        };
        let stable = if r.tracepoint == "HardStress_L5K1" && r.event == "Stable" && c == 0 {
            true
        } else if (r.tracepoint == "HardStress_L4K2" || r.tracepoint == "HardStressAlt_L4K2")
            && r.event == "Churn"
            && c == 1
        {
            false
        } else {
            p.sample(format!("unexpected sample: {}", r.line()));
            continue;
        };
        if !writers.contains_key(&u64::from(a)) {
            p.sample(format!("sample of unknown writer: {}", r.line()));
            continue;
        }
        if let Some(first) = seen.insert((stable, a, b), r) {
            if same_record(first, r) {
                rewritten.push((first.offset, r.offset));
            } else {
                p.sample(format!(
                    "landed twice: {}: {}, again {}",
                    r.line(),
                    first.origin(),
                    r.origin()
                ));
            }
            continue;
        }
        *per_writer.entry((stable, u64::from(a))).or_default() += 1;
        if stable {
            stable_n += 1;
        } else {
            churn_n += 1;
        }
        *per_tracepoint.entry(r.tracepoint.as_str()).or_default() += 1;
        pids.insert(r.pid);
    }
    if writers.len() != 8 {
        p.add(format!(
            "the program printed {} writer lines, not 8",
            writers.len()
        ));
    }
    let (mut stable_sum, mut churn_sum) = (0, 0);
    for (&w, &(stable_ok, churn_ok)) in &writers {
        let got = |stable| per_writer.get(&(stable, w)).copied().unwrap_or(0);
        if got(true) != stable_ok {
            p.add(format!(
                "writer {w}: {} Stable samples, stable_ok {stable_ok}",
                got(true)
            ));
        }
        if got(false) != churn_ok {
            p.add(format!(
                "writer {w}: {} Churn samples, churn_ok {churn_ok}",
                got(false)
            ));
        }
        stable_sum += stable_ok;
        churn_sum += churn_ok;
    }
    if pids.len() > 1 {
        p.add(format!("samples from {} processes", pids.len()));
    }
    if stable_sum + churn_sum + transient + raw != total {
        p.add(format!(
            "the program's total_ok {total} is not the sum of its counts"
        ));
    }
    if stable_sum == 0 || churn_sum == 0 {
        p.add("no stable or no churn write succeeded".into());
    }
    let tp = |name: &str| per_tracepoint.get(name).copied().unwrap_or(0);
    let twice = match rewritten.first() {
        None => "no record written twice by perf".to_string(),
        Some((first, again)) => format!(
            "{} records written twice by perf, counted once (identical in every field, time, \
             CPU and id included; the first at file offsets {first} and {again})",
            rewritten.len()
        ),
    };
    p.verdict(|| {
        format!(
            "{stable_n} HardStress_L5K1 samples = sum of stable_ok, {} HardStress_L4K2 + {} \
             HardStressAlt_L4K2 = {churn_n} = sum of churn_ok, each write once; {churn_ebadf} \
             churn writes EBADF; churner A {churner_a} cycles, churner B {churner_b} cycles \
             ({transient} + {raw} writes to its unrecorded tracepoints); {twice}",
            tp("HardStress_L4K2"),
            tp("HardStressAlt_L4K2"),
        )
    })
}

/// Whether two samples are one record in two places of the file: equal in
/// every field but the file offset. (One place twice would be the reader's
/// fault; `perf::read_samples` refuses that.)
fn same_record(a: &Row, b: &Row) -> bool {
    a.offset != b.offset
        && a.tracepoint == b.tracepoint
        && a.event == b.event
        && (a.pid, a.tid) == (b.pid, b.tid)
        && a.values == b.values
        && (a.time, a.cpu, a.id) == (b.time, b.cpu, b.id)
}

/// `fork kernel busy` (HARDENING_EXPECT_ENABLED=1): the parent writes Parent
/// once (c = 0), the child 50 times (c = 1) and Child once (c = 3,
/// `HardFork_L5K2`), the parent 50 more (c = 2); then 200 children forked
/// while another thread connects and disconnects write Child once each
/// (c = 4, b = fork index). Field a is the writer's pid: it must equal the
/// sample's pid and tid.
pub fn fork_busy(log: &str, rows: &[Row]) -> Result<String, String> {
    let value = |key| {
        lines_of(log, key)
            .last()
            .and_then(|w| w.get(1).map(|s| s.to_string()))
    };
    let parent = value("parent");
    let child = value("child");
    let fdcheck = value("fdcheck");
    // busy forks N hung H
    let (forks, hung) = lines_of(log, "busy")
        .last()
        .map_or((0, 0), |w| (num(&w, 2), num(&w, 4)));
    let done = lines_of(log, "done").next().is_some();

    let mut p = Problems::default();
    let mut seen = HashSet::new();
    let mut per_c: BTreeMap<u32, u64> = BTreeMap::new();
    let mut per_tracepoint: HashMap<&str, u64> = HashMap::new();
    let mut busy_pids = BTreeSet::new();
    for r in rows {
        let (Some(a), Some(b), Some(c)) = (r.values[0], r.values[1], r.values[2]) else {
            p.sample(format!("unexpected sample: {}", r.line()));
            continue;
        };
        if !(a == r.pid && r.pid == r.tid) {
            p.sample(format!("field a is not the sample pid/tid: {}", r.line()));
        }
        let ok = (r.tracepoint == "HardFork_L5K1" && r.event == "Parent" && c <= 2)
            || (r.tracepoint == "HardFork_L5K2" && r.event == "Child" && (c == 3 || c == 4));
        if !ok {
            p.sample(format!("unexpected sample: {}", r.line()));
            continue;
        }
        let want = match c {
            0 | 2 => parent.as_deref(),
            1 | 3 => child.as_deref(),
            _ => None,
        };
        if let Some(want) = want {
            if a.to_string() != want {
                p.sample(format!(
                    "c = {c} from pid {a}, expected {want}: {}",
                    r.line()
                ));
            }
        }
        if !seen.insert((c, b)) {
            p.sample(format!("landed twice: {}", r.line()));
        }
        *per_c.entry(c).or_default() += 1;
        *per_tracepoint.entry(r.tracepoint.as_str()).or_default() += 1;
        if c == 4 {
            busy_pids.insert(a);
        }
    }
    if parent.is_none() || child.is_none() || fdcheck.as_deref() != Some("ok") || !done {
        p.add("program output incomplete (parent, child, fdcheck ok, done)".into());
    }
    if forks != 200 || hung != 0 {
        p.add(format!(
            "busy forks {forks} hung {hung}, expected 200 and 0"
        ));
    }
    for (c, want) in [1u64, 50, 50, 1, 200].into_iter().enumerate() {
        let got = per_c.get(&(c as u32)).copied().unwrap_or(0);
        if got != want {
            p.add(format!("c = {c}: {got} samples, expected {want}"));
        }
    }
    let tp = |name: &str| per_tracepoint.get(name).copied().unwrap_or(0);
    let (l5k1, l5k2) = (tp("HardFork_L5K1"), tp("HardFork_L5K2"));
    if l5k1 != 101 || l5k2 != 201 {
        p.add(format!(
            "HardFork_L5K1 {l5k1} (expected 101), HardFork_L5K2 {l5k2} (expected 201)"
        ));
    }
    if busy_pids.len() != 200 {
        p.add(format!(
            "{} distinct busy-child pids, expected 200",
            busy_pids.len()
        ));
    }
    p.verdict(|| {
        format!(
            "{l5k1} HardFork_L5K1 + {l5k2} HardFork_L5K2 samples (parent 51, child 51, 200 busy \
             children, each its own pid), field a = sample pid = tid in all; {forks} forks while \
             another thread held the library lock, {hung} hung; fdcheck ok"
        )
    })
}

/// `dlclose_loop LIB 1000 kernel`: each round dlopens libdlprov.so (its
/// constructor registers HardDl), writes Loop with i = round, dlcloses it
/// (the destructor unregisters). perf must have i = 0..999, each once.
pub fn dlclose(log: &str, rows: &[Row]) -> Result<String, String> {
    // rounds R fds F1 F2 rss_kib M1 M2
    let rounds = lines_of(log, "rounds").last().unwrap_or_default();
    let done = lines_of(log, "done").next().is_some();
    let mut p = Problems::default();
    let mut seen = BTreeSet::new();
    let mut pids = HashSet::new();
    for r in rows {
        let i = match r.values[0] {
            Some(i) if r.tracepoint == "HardDl_L5K1" && r.event == "Loop" && r.pid == r.tid => i,
            _ => {
                p.sample(format!("unexpected sample: {}", r.line()));
                continue;
            }
        };
        if !seen.insert(i) {
            p.sample(format!("landed twice: {}", r.line()));
            continue;
        }
        pids.insert(r.pid);
    }
    if num(&rounds, 1) != 1000 || !done {
        p.add(format!(
            "program output incomplete (rounds {}, done {})",
            rounds.get(1).unwrap_or(&""),
            u8::from(done)
        ));
    }
    let missing: Vec<u32> = (0..1000).filter(|i| !seen.contains(i)).collect();
    for i in missing.iter().take(5) {
        p.add(format!("no sample with i = {i}"));
    }
    if seen.len() != 1000 {
        p.add(format!("{} HardDl_L5K1 samples, expected 1000", seen.len()));
    }
    if pids.len() != 1 {
        p.add(format!("samples from {} processes", pids.len()));
    }
    p.verdict(|| {
        format!(
            "{} dlopen/dlclose rounds, {} HardDl_L5K1 samples with i = 0..999; descriptors {} -> \
             {}, VmRSS {} -> {} KiB",
            num(&rounds, 1),
            seen.len(),
            num(&rounds, 3),
            num(&rounds, 4),
            num(&rounds, 6),
            num(&rounds, 7)
        )
    })
}

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
const MODES_TXT: &str = include_str!("../../../benches/modes.txt");

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

    fn row(tp: &str, event: &str, pid: u32, values: &[u32]) -> Row {
        Row {
            tracepoint: tp.into(),
            event: event.into(),
            pid,
            tid: pid,
            values: values.iter().map(|&v| Some(v)).collect(),
            time: 0,
            cpu: 0,
            id: 0,
            offset: 0,
        }
    }

    #[test]
    fn dlclose_finds_a_missing_and_a_duplicate_round() {
        let log = "rounds 1000 fds 5 5 rss_kib 100 101\ndone\n";
        let mut rows: Vec<Row> = (0..1000)
            .map(|i| row("HardDl_L5K1", "Loop", 7, &[i]))
            .collect();
        assert!(dlclose(log, &rows).is_ok());
        rows[10] = row("HardDl_L5K1", "Loop", 7, &[11]);
        let err = dlclose(log, &rows).unwrap_err();
        assert!(
            err.contains("landed twice") && err.contains("no sample with i = 10"),
            "{err}"
        );
    }

    #[test]
    fn stress_counts_per_writer() {
        let (log, mut rows) = stress_run();
        assert!(stress(&log, &rows).is_ok(), "{:?}", stress(&log, &rows));
        rows.pop();
        let err = stress(&log, &rows).unwrap_err();
        assert_eq!(err, "writer 7: 0 Churn samples, churn_ok 1");
    }

    /// 8 writers with 2 Stable and 1 Churn write each, every sample at its
    /// own time, CPU 1, id 11, offset 1000 + 112 * index; and the log.
    fn stress_run() -> (String, Vec<Row>) {
        let mut log = String::new();
        let mut rows = Vec::new();
        for w in 0..8 {
            log.push_str(&format!(
                "writer {w} stable_ok 2 churn_ok 1 churn_ebadf 3\n"
            ));
            rows.push(row("HardStress_L5K1", "Stable", 9, &[w, 0, 0]));
            rows.push(row("HardStress_L5K1", "Stable", 9, &[w, 1, 0]));
            rows.push(row("HardStressAlt_L4K2", "Churn", 9, &[w, 0, 1]));
        }
        log.push_str("churnerB cycles 4 transient_ok 2 raw_ok 1\ntotal_ok 27\n");
        for (i, r) in rows.iter_mut().enumerate() {
            r.time = 5000 + i as u64;
            (r.cpu, r.id, r.offset) = (1, 11, 1000 + 112 * i as u64);
        }
        (log, rows)
    }

    #[test]
    fn stress_counts_a_record_perf_wrote_twice_once() {
        let (log, mut rows) = stress_run();
        let pass = stress(&log, &rows).unwrap();
        assert!(
            pass.ends_with("; no record written twice by perf"),
            "{pass}"
        );
        // perf's next read of the buffer starting again at rows 22 and 23.
        let again: Vec<Row> = rows[22..24]
            .iter()
            .map(|r| Row {
                offset: r.offset + 5000,
                ..r.clone()
            })
            .collect();
        rows.extend(again);
        let pass = stress(&log, &rows).unwrap();
        assert!(
            pass.ends_with(
                "; 2 records written twice by perf, counted once (identical in every field, \
                 time, CPU and id included; the first at file offsets 3464 and 8464)"
            ),
            "{pass}"
        );
    }

    #[test]
    fn stress_fails_a_write_that_landed_twice_with_both_records() {
        let (log, rows) = stress_run();
        // The same (writer, seq) at another time: a second write, not perf.
        for change in [
            |r: &mut Row| r.time += 1,
            |r: &mut Row| r.cpu = 0,
            |r: &mut Row| r.id = 10,
            |r: &mut Row| r.tid += 1,
        ] {
            let mut rows = rows.clone();
            let mut again = rows[1].clone();
            again.offset = 9000;
            change(&mut again);
            rows.push(again);
            let err = stress(&log, &rows).unwrap_err();
            assert!(
                err.starts_with("landed twice: HardStress_L5K1 Stable 9 ")
                    && err
                        .contains(" 0 1 0: time 5001 cpu 1 id 11 at file offset 1112, again time")
                    && err.ends_with("at file offset 9000"),
                "{err}"
            );
        }
        // A record perf wrote twice does not hide a write that is missing.
        let mut rows = rows.clone();
        rows[1] = Row {
            offset: 9000,
            ..rows[0].clone()
        };
        let err = stress(&log, &rows).unwrap_err();
        assert_eq!(err, "writer 0: 1 Stable samples, stable_ok 2");
    }
}
