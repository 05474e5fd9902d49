//! The VM run `cli`'s live view, filters and pipes (cli/tests/vm/guest.sh
//! steps 6 and 7), judged on the host as [`super::cli`] judges the rest.
//! Expected events are those of `cli_writer eh 50` in capture mode (step 1)
//! and the counts the writer prints, not the tool's own output.

use std::collections::BTreeSet;

use super::cli::{burst_event, int, jsonl, name, number_after, Results, BURST};
use crate::json::J;

/// The CliTest events of a decode output (JSON lines), parsed.
fn cli_test(text: &str) -> Result<Vec<J>, String> {
    jsonl(
        &text
            .lines()
            .filter(|l| l.contains("\"CliTest:"))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// `collect --live` prints the 102 events of `cli_writer eh 50` as capture
/// mode decodes them (same names, fields, values, order and metadata), and
/// records the same to its -o file.
pub fn live(r: &Results) -> Result<String, String> {
    let captured = cli_test(&r.read("capture.decode.out")?)?;
    let out = r.read("live.out")?;
    let live = jsonl(&out)?;
    ensure!(
        live.len() == 102 && out.lines().count() == 102,
        "--live printed {} lines, {} events, expected 102 CliTest events",
        out.lines().count(),
        live.len()
    );
    ensure!(
        live == captured,
        "the live events differ from capture mode's (first live: {:?})",
        live.first()
    );
    let (recorded, _) = r.decode_here("live.data", super::cli::EH_META)?;
    ensure!(
        recorded == captured,
        "the file collect --live -o recorded decodes differently ({} events)",
        recorded.len()
    );
    r.collect_reported("live.err", 102)?;
    Ok(
        "collect --live printed cli_writer's 102 events as capture mode decodes them, \
        in order, and recorded the same with -o"
            .into(),
    )
}

/// The filters on live output, each against what cli_writer wrote: Start,
/// 50 Hello (level 4, keyword 1), 50 Data (level 5, keyword 2), Stop.
pub fn filters(r: &Results) -> Result<String, String> {
    let names = |step: &str| -> Result<Vec<String>, String> {
        Ok(jsonl(&r.read(&format!("{step}.out"))?)?
            .iter()
            .map(|e| name(e).to_string())
            .collect())
    };
    let hello_start_stop = |n: &String| {
        matches!(
            n.as_str(),
            "CliTest:Hello" | "CliTest:Start" | "CliTest:Stop"
        )
    };
    let level = names("live.level")?;
    ensure!(
        level.len() == 52 && level.iter().all(hello_start_stop),
        "--level 4: {} events ({:?}...), expected Start, 50 Hello, Stop",
        level.len(),
        level.first()
    );
    let keyword = names("live.keyword")?;
    ensure!(
        keyword.len() == 50 && keyword.iter().all(|n| n == "CliTest:Data"),
        "--keyword 0x2: {} events, expected 50 Data",
        keyword.len()
    );
    let event = names("live.event")?;
    ensure!(
        event.len() == 50 && event.iter().all(|n| n == "CliTest:Hello"),
        "--provider CliTest --event Hello: {} events, expected 50 Hello",
        event.len()
    );
    let wanted: u64 = r
        .read("live.pid.wanted")?
        .trim()
        .parse()
        .map_err(|e| format!("live.pid.wanted: {e}"))?;
    let by_pid = jsonl(&r.read("live.pid.out")?)?;
    ensure!(
        by_pid.len() == 102,
        "--pid {wanted}: {} events, expected the 102 of that writer (another wrote 102 too)",
        by_pid.len()
    );
    for e in &by_pid {
        let pid = e.get("meta").and_then(|m| m.get("pid")).and_then(J::as_int);
        ensure!(
            pid == Some(wanted.into()),
            "--pid {wanted}: an event of pid {pid:?}"
        );
    }
    let err = r.read("err.nofilter.err")?;
    ensure!(
        err.contains("the filters exclude every one"),
        "--level 1 on CliTest_L4K1: {}",
        err.trim()
    );
    Ok(
        "--level 4: 52, --keyword 0x2: 50, --provider and --event: 50, --pid (a kernel \
        filter): the 102 of one writer of two; filters excluding every tracepoint: status 3"
            .into(),
    )
}

/// A burst into 8 KiB buffers under --live: every event printed once or
/// counted in a `{ "lost": N }` line of the stream; status 6.
pub fn live_burst(r: &Results) -> Result<String, String> {
    let out = jsonl(&r.read("live.burst.out")?)?;
    let (mut events, mut lost, mut lost_lines) = (BTreeSet::new(), 0u64, 0);
    for e in &out {
        if let Some(n) = e.get("lost").and_then(J::as_int) {
            ensure!(
                e.get("meta").and_then(|m| m.get("cpu")).is_some(),
                "a lost line without its cpu: {e:?}"
            );
            lost += n as u64;
            lost_lines += 1;
            continue;
        }
        burst_event(&mut events, e, "live.burst")?;
    }
    let printed = events.len() as u64;
    ensure!(
        printed + lost == BURST,
        "live.burst: {printed} printed + {lost} lost != {BURST} written"
    );
    let status = r.statuses()?.get("live.burst").copied();
    let want = if lost > 0 { 6 } else { 0 };
    ensure!(
        status == Some(want),
        "live.burst: exit status {status:?}, expected {want}"
    );
    let err = r.read("live.burst.err")?;
    ensure!(
        number_after(&err, "collect: ") == Some(printed)
            && number_after(&err, "the kernel lost ").unwrap_or(0) == lost,
        "live.burst: collect reported {}",
        err.trim()
    );
    Ok(format!(
        "8 KiB buffers: {printed} printed + {lost} lost in {lost_lines} \"lost\" lines of the \
         stream = {BURST} (exit {want})"
    ))
}

/// `collect -o - | decode -` and `perf record -o - | decode -`.
pub fn pipes(r: &Results) -> Result<String, String> {
    let captured = cli_test(&r.read("capture.decode.out")?)?;
    let piped = jsonl(&r.read("pipe.decode.out")?)?;
    ensure!(
        piped == captured,
        "collect -o - | decode -: {} events, not capture mode's 102",
        piped.len()
    );
    let (here, _) = r.decode_here("pipe.data", super::cli::EH_META)?;
    ensure!(
        here == captured,
        "the pipe-mode stream decodes differently on the host"
    );
    let script = r.read("pipe.perf-script.out")?;
    let lines = super::cli_common::lines_with(&script, "user_events:CliTest_");
    ensure!(
        lines == 102,
        "perf script read {lines} CliTest samples from the stream"
    );
    let single = jsonl(&r.read("pipe.perf.out")?)?;
    ensure!(
        single.len() == 100,
        "perf record -o - | decode -: {} events",
        single.len()
    );
    for (i, e) in single.iter().enumerate() {
        ensure!(
            name(e) == "CliSingle:One" && int(e, "i") == Some(i as i128),
            "perf record -o - | decode -: event {i}: {e:?}"
        );
    }
    Ok(
        "collect -o - | decode -: 102 events as capture mode (perf script reads the stream \
        too); perf record -o - | decode -: 100 of 100"
            .into(),
    )
}
