//! perf's own tools on `collect`'s files, against the real kernel: judges
//! what `cli/tests/vm/perf_tools.sh` left in `RESULTS/cli_perf/`, on the
//! host. For a normal file, a pipe-mode stream and a circular snapshot,
//! `perf script`, `perf report --stats`, `perf evlist -v` and `perf data
//! convert --to-json` each exit 0, and both writers' events carry their
//! process names: `ehwriter` (collect's command, named by the kernel) and
//! `ehlate` (running before collect started, named by the records collect
//! synthesizes from /proc). One exception, perf's: its 6.1 converter
//! crashes on every pipe-mode input (it prints the headers before it has
//! read them from the stream), so a pipe-mode stream's conversion must
//! only fare as perf record's own pipe-mode stream does.

use std::path::Path;

use super::cli_common as common;

const KINDS: [&str; 3] = ["normal", "pipe", "circular"];
const TOOLS: [(&str, &str); 4] = [
    ("script", "perf script"),
    ("report", "perf report --stats"),
    ("evlist", "perf evlist -v"),
    ("json", "perf data convert --to-json"),
];
const WRITERS: [&str; 2] = ["ehwriter", "ehlate"];

/// Judges the VM run `name` ([`crate::checks::ResultsCheck`]); the pass
/// lines are the matrix (file kind x tool: exit status).
pub fn judge(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    let dir = common::finished(results, name)?;
    let statuses = common::statuses(&dir)?;
    let status = |step: &str| statuses.get(step).copied();
    let mut problems = Vec::new();
    let perf_pipe = status("record-pipe.json");
    if status("record-pipe.record") != Some(0) {
        problems.push(format!(
            "perf record -o - exited {:?}",
            status("record-pipe.record")
        ));
    }
    let mut lines = vec![format!(
        "    {:<10}{}",
        "file",
        TOOLS.map(|(_, t)| format!("{t:<30}")).concat().trim_end()
    )];
    for kind in KINDS {
        if status(&format!("{kind}.collect")) != Some(0) {
            let err = common::read(&dir, &format!("{kind}.collect.err")).unwrap_or_default();
            problems.push(format!(
                "{kind}: collect exited {:?}: {}",
                status(&format!("{kind}.collect")),
                err.trim()
            ));
        }
        let mut row = format!("    {kind:<10}");
        for (tool, what) in TOOLS {
            let step = format!("{kind}.{tool}");
            let shown = match status(&step) {
                Some(0) => "exit 0".to_string(),
                Some(139) => "exit 139 (SIGSEGV)".to_string(),
                Some(rc) => format!("exit {rc}"),
                None => "not run".to_string(),
            };
            let as_perf = kind == "pipe" && tool == "json" && status(&step) == perf_pipe;
            let shown = if as_perf && perf_pipe != Some(0) {
                format!("{shown}, as perf record's")
            } else {
                shown
            };
            if status(&step) != Some(0) && !as_perf {
                let err = common::read(&dir, &format!("{step}.err")).unwrap_or_default();
                problems.push(format!("{kind}: {what}: {shown}: {}", err.trim()));
            }
            row += &format!("{shown:<30}");
        }
        lines.push(row.trim_end().to_string());
        // perf script's lines of the events: each starts with the name.
        let script = common::read(&dir, &format!("{kind}.script.out"))?;
        let event_lines: Vec<&str> = script
            .lines()
            .filter(|l| l.contains("user_events:CliTest_"))
            .collect();
        let mut named = Vec::new();
        for writer in WRITERS {
            let n = event_lines
                .iter()
                .filter(|l| l.split_whitespace().next() == Some(writer))
                .count();
            if n == 0 {
                problems.push(format!(
                    "{kind}: perf script shows no event of {writer}: {}",
                    event_lines.first().unwrap_or(&"(no event)")
                ));
            }
            named.push(format!("{writer} {n}"));
        }
        let unnamed = event_lines
            .iter()
            .filter(|l| l.trim_start().starts_with(':'))
            .count();
        if unnamed > 0 {
            problems.push(format!("{kind}: {unnamed} events shown as :PID"));
        }
        if status(&format!("{kind}.json")) == Some(0) {
            let json = common::read(&dir, &format!("{kind}.json"))?;
            for writer in WRITERS {
                if !json.contains(&format!("\"comm\": \"{writer}\"")) {
                    problems.push(format!("{kind}: perf data convert: no comm {writer}"));
                }
            }
        }
        lines.push(format!(
            "    {kind:<10}perf script: {} of {} events named ({})",
            event_lines.len() - unnamed,
            event_lines.len(),
            named.join(", ")
        ));
    }
    if !problems.is_empty() {
        return Err(format!("{}\n{}", problems.join("\n"), lines.join("\n")));
    }
    lines.push(format!(
        "    perf record -o - (for comparison): perf data convert --to-json: {}",
        match perf_pipe {
            Some(0) => "exit 0".to_string(),
            Some(139) => "exit 139 (SIGSEGV)".to_string(),
            other => format!("{other:?}"),
        }
    ));
    Ok((
        "perf's tools on collect's files: 3 kinds x 4 tools as perf's own files, process names shown"
            .to_string(),
        lines,
    ))
}
