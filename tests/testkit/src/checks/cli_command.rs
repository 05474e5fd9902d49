//! `collect` and what surrounds it, against the real kernel (steps 8 to 10
//! of `cli/tests/vm/guest.sh`): how it ends its command, its file
//! descriptors for thousands of tracepoints, and the README's live view.

use super::cli::Results;

/// The seconds collect reports it recorded for ("collect: N events in S s"):
/// from the start of recording to its end, the end of the command included
/// (the step's own time adds collect's start-up, which under TCG on a busy
/// host takes seconds).
fn recorded_seconds(r: &Results, step: &str) -> Result<f64, String> {
    let err = r.read(&format!("{step}.err"))?;
    err.lines()
        .find_map(|l| {
            let (_, after) = l.split_once(" events in ")?;
            after.split(' ').next()?.parse().ok()
        })
        .ok_or_else(|| format!("{step}: no \"events in S s\" report: {}", err.trim()))
}

/// collect -d 1 ends its command with SIGTERM at once, with SIGKILL 2 s
/// later when it ignores SIGTERM, and on SIGINT; none of these is the
/// command failing (the statuses, 0, are in `cli::STATUSES`). Before, the
/// first reported "sleep signal: 15" with status 7, and the second ran for
/// the command's 20 s. Times are collect's own report: the steps' times add
/// its start-up.
pub(super) fn command_end(r: &Results) -> Result<String, String> {
    let term = recorded_seconds(r, "cmd.term")?;
    let kill = recorded_seconds(r, "cmd.kill")?;
    let int = recorded_seconds(r, "cmd.int")?;
    ensure!(
        (..2.5).contains(&term),
        "collect -d 1 -- sleep 20 recorded for {term} s"
    );
    ensure!(
        (2.9..6.0).contains(&kill),
        "collect -d 1 with a command ignoring SIGTERM recorded for {kill} s, \
         expected 1 s + the 2 s grace"
    );
    ensure!(
        (..10.0).contains(&int),
        "collect stopped by SIGINT (the command's sleep is 20 s) recorded for {int} s"
    );
    for step in ["cmd.term", "cmd.kill", "cmd.int"] {
        let err = r.read(&format!("{step}.err"))?;
        ensure!(
            !err.contains("signal"),
            "{step}: the command's end reported as its failure: {}",
            err.trim()
        );
    }
    Ok(format!(
        "collect ends its command: -d 1 in {term} s, {kill} s for one ignoring SIGTERM \
         (SIGKILL after 2 s), {int} s with SIGINT once the command ran; status 0 each"
    ))
}

/// 3,000 tracepoints with a soft limit of 1024 descriptors: all recorded
/// (collect raised the limit); with a hard limit of 1024 that it may not
/// raise, the message says how many it needs. Before: "perf_event_open …
/// Too many open files" at tracepoint 510 (2 CPUs), status 1.
pub(super) fn descriptors(r: &Results) -> Result<String, String> {
    let limits = r.read("many.limits")?;
    let mut values = limits.lines().map(str::trim);
    let (hard, cpus) = (values.nth(1).unwrap_or("?"), values.next().unwrap_or("?"));
    let cpus: u64 = cpus
        .parse()
        .map_err(|_| format!("many.limits: no CPU count: {limits}"))?;
    let err = r.read("many.err")?;
    let recorded = err
        .lines()
        .filter(|l| l.starts_with("eventheader: recording user_events:CliMany"))
        .count();
    ensure!(
        recorded == 3000,
        "collect -i (3,000 names) with ulimit -Sn 1024 recorded {recorded} tracepoints: {}",
        err.lines().last().unwrap_or("").trim()
    );
    // Each tracepoint's event and the process records' on every CPU.
    let needed = 3001 * cpus + 64;
    let hard_err = r.read("many.hard.err")?;
    let want = format!(
        "collect needs {needed} file descriptors (one per perf event and CPU: \
         3001 perf events x {cpus} CPUs, + 64), but RLIMIT_NOFILE allows 1024"
    );
    ensure!(
        hard_err.contains(&want),
        "with a hard limit of 1024: expected {want:?}, got: {}",
        hard_err.trim()
    );
    Ok(format!(
        "3,000 tracepoints x {cpus} CPUs with ulimit -Sn 1024 (hard {hard}) recorded; \
         with a hard limit of 1024 and no CAP_SYS_RESOURCE: needs {needed}, status 1"
    ))
}

/// The README's `collect --live 'MyCompany_*'`: a wildcard matches only
/// registered tracepoints (status 3 with none), and records with `register`
/// running in the background, the order the README shows.
pub(super) fn readme_live(r: &Results) -> Result<String, String> {
    let err = r.read("readme.none.err")?;
    ensure!(
        err.contains("no tracepoint matches user_events:CliReadme_*"),
        "collect --live 'CliReadme_*' with nothing registered: {}",
        err.trim()
    );
    Ok(
        "a wildcard finds nothing before register (status 3), and records with register in the \
        background (status 0)"
            .into(),
    )
}
