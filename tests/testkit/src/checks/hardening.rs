//! The hardening suite's VM checks: its stress, fork and dlclose programs
//! under perf, judged against what each program printed.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use crate::perf::Row;

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

#[cfg(test)]
mod tests;
