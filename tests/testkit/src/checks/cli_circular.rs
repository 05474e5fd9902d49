//! `eventheader collect --circular` against the real kernel: judges what
//! `cli/tests/vm/circular.sh` left in `RESULTS/cli_circular/`, on the host.
//! The expected events are the ones `cli_writer` wrote (burst: Burst i =
//! 0..N-1; crit: Verbose i = 0..N-1, Critical i = N, Verbose N+1..N+M);
//! the snapshot files are decoded here with the host's build of the tool.

use std::path::{Path, PathBuf};

use super::cli::{int, name};
use super::cli_common::{self as common, Check};
use crate::json::J;

const STATUSES: &[(&str, i32)] = &[
    ("signal", 0),
    ("signal.perf-script", 0),
    ("trigger", 0),
    ("trigger.decode", 0),
    ("after", 0),
    ("max", 0),
    ("rss.8192", 0),
    ("rss.1024", 0),
    ("err.live", 2),
    ("err.pipe", 2),
    ("err.size", 2),
    ("err.trigger", 3),
];

const ERRORS: &[(&str, &str)] = &[
    ("err.live", "--circular writes only on snapshots"),
    ("err.pipe", "-o - (one stream) cannot hold them"),
    ("err.size", "a ring buffer is 4 KiB to 2 GiB"),
    (
        "err.trigger",
        "--snapshot-on: no recorded tracepoint can match",
    ),
];

struct Run {
    dir: PathBuf,
    cli: PathBuf,
}

impl Run {
    fn read(&self, file: &str) -> Result<String, String> {
        common::read(&self.dir, file)
    }

    /// The file names a step listed.
    fn files(&self, list: &str) -> Result<Vec<String>, String> {
        Ok(self.read(list)?.lines().map(str::to_string).collect())
    }

    /// `decode --jsonl --meta none [--order ORDER] FILE` here: the events.
    fn decode(&self, file: &str, order: &str) -> Result<Vec<J>, String> {
        let args = ["--meta", "none", "--order", order];
        Ok(common::decode_here(&self.cli, &args, &self.dir.join(file))?.0)
    }
}

/// (name, i) of each event; an object without "n" (a loss) is an error.
fn named(events: &[J], file: &str) -> Result<Vec<(String, i128)>, String> {
    events
        .iter()
        .map(|e| {
            let i = int(e, "i").ok_or_else(|| format!("{file}: an event without i: {e:?}"))?;
            Ok((name(e).to_string(), i))
        })
        .collect()
}

/// The events of `file`, in the file's own order and in decode's time
/// order, which must agree (snapshots are written sorted).
fn events(run: &Run, file: &str) -> Result<Vec<(String, i128)>, String> {
    let by_time = named(&run.decode(file, "time")?, file)?;
    let stored = named(&run.decode(file, "file")?, file)?;
    ensure!(by_time == stored, "{file}: not stored in time order");
    Ok(by_time)
}

/// `Burst` events i = from..to, nothing else.
fn is_burst(events: &[(String, i128)], from: i128, to: i128, file: &str) -> Result<(), String> {
    let want: Vec<(String, i128)> = (from..to).map(|i| ("CliBurst:Burst".into(), i)).collect();
    ensure!(
        events == want.as_slice(),
        "{file}: {} events, expected Burst i = {from}..{} in order{}",
        events.len(),
        to - 1,
        first_difference(events, &want)
    );
    Ok(())
}

fn first_difference(got: &[(String, i128)], want: &[(String, i128)]) -> String {
    match got.iter().zip(want).position(|(g, w)| g != w) {
        Some(k) => format!(" (event {k}: {:?}, expected {:?})", got[k], want[k]),
        None => String::new(),
    }
}

pub fn judge(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    let run = Run {
        dir: common::finished(results, name)?,
        cli: crate::cli_binary()?,
    };
    let checks: [(&str, Check<Run>); 7] = [
        ("exit statuses", statuses),
        ("errors", errors),
        ("SIGUSR1 snapshots", signal),
        ("snapshot on an event", trigger),
        ("snapshot on an event, --after", after),
        ("--max-snapshots", max),
        ("memory", memory),
    ];
    common::run_checks(
        &run,
        &checks,
        "eventheader collect --circular against the kernel",
    )
}

fn statuses(run: &Run) -> Result<String, String> {
    let got = common::statuses(&run.dir)?;
    let wrong: Vec<String> = STATUSES
        .iter()
        .filter(|(step, rc)| got.get(*step) != Some(rc))
        .map(|(step, rc)| format!("{step}: {:?}, expected {rc}", got.get(*step)))
        .collect();
    ensure!(wrong.is_empty(), "{}", wrong.join("; "));
    Ok(format!(
        "{} steps, each with its documented status",
        STATUSES.len()
    ))
}

fn errors(run: &Run) -> Result<String, String> {
    common::errors_say(&run.dir, ERRORS)?;
    Ok(format!(
        "{} refused combinations say what is wrong",
        ERRORS.len()
    ))
}

/// Two bursts (30000, 20000) with SIGUSR1 between: one file each, every
/// event once, none lost.
fn signal(run: &Run) -> Result<String, String> {
    let files = run.files("signal.files")?;
    ensure!(
        files == ["sig.0001.data", "sig.0002.data"],
        "files {files:?}, expected sig.0001.data and sig.0002.data"
    );
    for (w, n) in [("signal.w1", 30000), ("signal.w2", 20000)] {
        let text = run.read(w)?;
        ensure!(
            text.contains(&format!("wrote {n}")),
            "the writer printed {text:?}"
        );
    }
    is_burst(&events(run, "sig.0001.data")?, 0, 30000, "sig.0001.data")?;
    is_burst(&events(run, "sig.0002.data")?, 0, 20000, "sig.0002.data")?;
    let err = run.read("signal.err")?;
    ensure!(
        err.contains("(SIGUSR1)") && err.contains("2 snapshots, 50000 events"),
        "collect said: {err}"
    );
    let script = run.read("signal.perf-script.out")?;
    let samples = common::lines_with(&script, "user_events:CliBurst_L5K1");
    ensure!(
        samples == 30000,
        "perf script read {samples} samples from sig.0001.data, expected 30000"
    );
    Ok(
        "30000 then 20000 events written around a SIGUSR1: sig.0001.data holds exactly the \
         first 30000, sig.0002.data exactly the next 20000 (no event in both, none missing), \
         each in time order; perf script reads the snapshot"
            .into(),
    )
}

/// 10^5 verbose events then a critical one, --snapshot-on level=1: one
/// file, ending with the critical event, the verbose ones before it
/// consecutive up to it.
fn trigger(run: &Run) -> Result<String, String> {
    let files = run.files("trigger.files")?;
    ensure!(
        files == ["crit.0001.data"],
        "files {files:?}, expected crit.0001.data"
    );
    let got = events(run, "crit.0001.data")?;
    let n = 100_000i128;
    ensure!(
        got.last() == Some(&("CliCrit:Critical".to_string(), n)),
        "the last event is {:?}, expected Critical i = {n}",
        got.last()
    );
    let before = &got[..got.len() - 1];
    let first = n - before.len() as i128;
    let want: Vec<(String, i128)> = (first..n).map(|i| ("CliCrit:Verbose".into(), i)).collect();
    ensure!(
        before == want.as_slice(),
        "the events before Critical are not Verbose i = {first}..{} in order{}",
        n - 1,
        first_difference(before, &want)
    );
    ensure!(
        before.len() >= 10_000,
        "only {} verbose events before the critical one",
        before.len()
    );
    let err = run.read("trigger.err")?;
    ensure!(
        err.contains("on { \"n\": \"CliCrit:Critical\""),
        "collect did not name the trigger event: {err}"
    );
    // 10^5 events do not fit in 4 MiB: the oldest were overwritten.
    ensure!(
        first > 0 && err.contains("wrapped"),
        "the buffers did not wrap (first verbose event {first}): {err}"
    );
    let decoded = run.read("trigger.decode.out")?;
    ensure!(
        decoded
            .lines()
            .last()
            .is_some_and(|l| l.contains("CliCrit:Critical")),
        "decode in the VM does not end with the critical event"
    );
    Ok(format!(
        "crit.0001.data: the critical event (i = {n}) last, after the {} verbose events before \
         it (i = {first}..{}, consecutive, in order; older ones overwritten)",
        before.len(),
        n - 1
    ))
}

/// --after 1: 20000 verbose, critical, 500 verbose: all in the snapshot.
fn after(run: &Run) -> Result<String, String> {
    let files = run.files("after.files")?;
    ensure!(
        files == ["after.0001.data"],
        "files {files:?}, expected after.0001.data"
    );
    let got = events(run, "after.0001.data")?;
    let want: Vec<(String, i128)> = (0..20501)
        .map(|i| {
            let n = if i == 20000 {
                "CliCrit:Critical"
            } else {
                "CliCrit:Verbose"
            };
            (n.to_string(), i)
        })
        .collect();
    ensure!(
        got == want,
        "{} events, expected 20000 Verbose, Critical, 500 Verbose{}",
        got.len(),
        first_difference(&got, &want)
    );
    Ok("20000 verbose, the critical event and the 500 verbose events after it, in order".into())
}

/// --max-snapshots 2 over five snapshots of 100..500 events.
fn max(run: &Run) -> Result<String, String> {
    let files = run.files("max.files")?;
    ensure!(
        files == ["mx.0007.data", "mx.0011.data", "mx.0012.data"],
        "files {files:?}, expected mx.0007.data (an earlier run's), mx.0011.data, mx.0012.data"
    );
    ensure!(
        run.read("mx.0007.data")? == "an earlier run\n",
        "mx.0007.data was overwritten"
    );
    is_burst(&events(run, "mx.0011.data")?, 0, 400, "mx.0011.data")?;
    is_burst(&events(run, "mx.0012.data")?, 0, 500, "mx.0012.data")?;
    let err = run.read("max.err")?;
    let deleted = common::lines_with(&err, "(--max-snapshots)");
    ensure!(
        deleted == 3,
        "{deleted} deletions reported, expected 3: {err}"
    );
    Ok(
        "five snapshots numbered after an earlier run's mx.0007.data (kept): the newest two \
         (400 and 500 events) kept, three deleted"
            .into(),
    )
}

/// The maximum RSS of 6 x 10^5 events through the rings: at most three times
/// the rings (rings, one copy, its index) plus 32 MiB.
fn memory(run: &Run) -> Result<String, String> {
    let cpus: u64 = run
        .read("cpus")?
        .trim()
        .parse()
        .map_err(|_| "no CPU count".to_string())?;
    let mut said = Vec::new();
    for kib in [8192u64, 1024] {
        let err = run.read(&format!("rss.{kib}.err"))?;
        let rss: u64 = err
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("Maximum resident set size (kbytes): ")
            })
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| format!("rss.{kib}: no maximum RSS in: {err}"))?;
        ensure!(
            err.contains("4 snapshots"),
            "rss.{kib}: not 4 snapshots: {err}"
        );
        let bound = 3 * cpus * kib + 32 * 1024;
        ensure!(
            rss <= bound,
            "{kib} KiB x {cpus} CPUs: maximum RSS {rss} KiB over {bound} KiB"
        );
        said.push(format!(
            "{kib} KiB x {cpus} CPUs: {rss} KiB (bound {bound} KiB)"
        ));
    }
    Ok(format!(
        "maximum RSS over 6 x 10^5 events and 4 snapshots: {}",
        said.join("; ")
    ))
}
