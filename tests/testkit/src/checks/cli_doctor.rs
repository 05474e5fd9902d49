//! `eventheader doctor` against the real kernel: judges what
//! `cli/tests/vm/doctor.sh` left in the VM run's directory. What doctor
//! says is compared with what the kernel said at the same moment
//! (user_events_status, perf_event_paranoid, the modes `stat` printed),
//! not with doctor's own output elsewhere.

use std::collections::BTreeMap;
use std::path::Path;

use super::cli_common as common;

/// The line of check `name` in doctor's output (state, name, what was found).
fn line<'a>(out: &'a str, name: &str) -> Result<&'a str, String> {
    out.lines()
        .find(|l| {
            l.get(6..)
                .is_some_and(|r| r.starts_with(&format!("{name} ")))
        })
        .ok_or_else(|| format!("no line for check {name:?} in:\n{out}"))
}

/// The `fix:` line under check `name`.
fn fix<'a>(out: &'a str, name: &str) -> Result<&'a str, String> {
    let l = line(out, name)?;
    out.lines()
        .skip_while(|x| *x != l)
        .nth(1)
        .filter(|x| x.trim_start().starts_with("fix: "))
        .ok_or_else(|| format!("no fix under {name:?} in:\n{out}"))
}

struct Run {
    dir: std::path::PathBuf,
    statuses: BTreeMap<String, i32>,
}

impl Run {
    fn read(&self, file: &str) -> Result<String, String> {
        common::read(&self.dir, file)
    }

    /// A step's output, after checking its status.
    fn step(&self, name: &str, want: i32) -> Result<String, String> {
        let out = self.read(&format!("{name}.out"))?;
        let got = self.statuses.get(name);
        ensure!(
            got == Some(&want),
            "{name}: exit status {got:?}, expected {want}\n{out}{}",
            self.read(&format!("{name}.err")).unwrap_or_default()
        );
        ensure!(
            out.trim_end().ends_with(&format!("(exit status {want})")),
            "{name}: the verdict line does not give status {want}:\n{out}"
        );
        Ok(out)
    }
}

/// Whether user_events_status (`NAME # Used by ...`) shows `name` used by `who`.
fn used_by(status: &str, name: &str, who: &str) -> bool {
    status.lines().any(|l| {
        let mut w = l.split_whitespace();
        w.next() == Some(name) && l.split_once('#').is_some_and(|(_, r)| r.contains(who))
    })
}

/// Judges the VM run `name` ([`crate::checks::ResultsCheck`]).
pub fn judge(results: &Path, name: &str) -> Result<(String, Vec<String>), String> {
    let dir = common::finished(results, name)?;
    let r = Run {
        statuses: common::statuses(&dir)?,
        dir,
    };
    let mut lines = Vec::new();

    // All well as root: every check ok, nothing to fix.
    let well = r.step("well", 0)?;
    for check in [
        "kernel",
        "tracefs",
        "user_events_data",
        "write access",
        "collecting",
        "tracefs read",
    ] {
        ensure!(
            line(&well, check)?.starts_with("ok "),
            "well: {check} is not ok:\n{well}"
        );
    }
    ensure!(
        line(&well, "tracefs")?.contains("mounted at /sys/kernel/tracing"),
        "well: tracefs:\n{well}"
    );
    ensure!(
        !well.contains("fix:"),
        "well: a fix where all is well:\n{well}"
    );
    lines.push("    all well as root: 6 checks ok, exit 0".to_string());

    // Not registered: 3. Registered, none enabled: 9 (the kernel agrees:
    // no user). One enabled by collect: 0, enabled by perf as the kernel says.
    let noreg = r.step("noreg", 3)?;
    ensure!(
        line(&noreg, "provider CliDoc")?.contains("no tracepoint registered"),
        "noreg:\n{noreg}"
    );
    let idle = r.step("idle", 9)?;
    let status = r.read("idle.status")?;
    for tp in ["CliDoc_L5K1", "CliDoc_L4K2"] {
        ensure!(
            status.lines().any(|l| l.split_whitespace().next() == Some(tp)) && !used_by(&status, tp, "Used"),
            "idle: the kernel's user_events_status does not show {tp} registered and unused:\n{status}"
        );
        ensure!(
            line(&idle, &format!("  {tp}"))?.contains("registered, not enabled"),
            "idle: {tp}:\n{idle}"
        );
    }
    ensure!(
        fix(&idle, "provider CliDoc")?.contains("eventheader collect"),
        "idle:\n{idle}"
    );
    let enabled = r.step("enabled", 0)?;
    let status = r.read("enabled.status")?;
    ensure!(
        used_by(&status, "CliDoc_L5K1", "perf") && !used_by(&status, "CliDoc_L4K2", "Used"),
        "enabled: the kernel's user_events_status:\n{status}"
    );
    ensure!(
        line(&enabled, "  CliDoc_L5K1")?.contains("enabled by perf")
            && line(&enabled, "  CliDoc_L4K2")?.contains("not enabled (level 4, keyword 0x2)"),
        "enabled:\n{enabled}"
    );
    // The collector is among the processes with perf events open.
    let pid = r.read("enabled.collect-pid")?;
    let users = line(&enabled, "perf users")?;
    ensure!(
        users.contains(&format!(" {} (eventheader)", pid.trim())),
        "enabled: collect (pid {}) is not among the perf users:\n{enabled}",
        pid.trim()
    );
    ensure!(
        line(&idle, "perf users").is_err(),
        "idle: perf users where nothing is enabled by perf:\n{idle}"
    );
    lines.push("    provider: not registered 3, registered and idle 9, enabled by perf 0 (as user_events_status; collect's pid among the perf users)".to_string());

    // The program's providers, from its ELF sections: cli_writer declares
    // four; CliTest is registered (by `register`), none enabled; the other
    // three are not registered, which makes the status 3.
    let program = r.step("program", 3)?;
    ensure!(
        line(&program, "program")?.starts_with("ok ")
            && line(&program, "program")?
                .contains("cli_writer: providers CliBurst, CliCrit, CliSingle, CliTest"),
        "program:\n{program}"
    );
    ensure!(
        line(&program, "  CliTest_L4K1")?.contains("registered, not enabled")
            && line(&program, "  CliTest_L5K2")?.contains("registered, not enabled"),
        "program:\n{program}"
    );
    for p in ["CliBurst", "CliCrit", "CliSingle"] {
        ensure!(
            line(&program, &format!("provider {p}"))?.contains("no tracepoint registered"),
            "program: {p}:\n{program}"
        );
    }

    // Access removed (nobody, tracefs as the kernel made it): 5, with a fix.
    let modes = r.read("nobody.modes")?;
    let nobody = r.step("nobody", 5)?;
    let denied = ["user_events_data", "write access"]
        .iter()
        .find(|c| line(&nobody, c).is_ok_and(|l| l.starts_with("FAIL")))
        .ok_or_else(|| format!("nobody: no failing access check (modes: {modes}):\n{nobody}"))?;
    let f = fix(&nobody, denied)?;
    ensure!(
        f.contains("chmod g+rw") && f.contains("usermod -aG"),
        "nobody: the fix does not say how to grant access:\n{nobody}"
    );
    // The fix applied: writing is allowed; collecting is not, unless
    // perf_event_paranoid lets everyone.
    let paranoid: i32 = r
        .read("granted.paranoid")?
        .trim()
        .parse()
        .map_err(|e| format!("granted.paranoid: {e}"))?;
    let want = if paranoid <= -1 { 0 } else { 8 };
    let granted = r.step("granted", want)?;
    ensure!(
        line(&granted, "write access")?.starts_with("ok "),
        "granted:\n{granted}"
    );
    if want == 8 {
        ensure!(
            line(&granted, "collecting")?
                .contains(&format!("perf_event_paranoid {paranoid} and uid")),
            "granted:\n{granted}"
        );
    }
    let restored = r.read("restored.modes")?;
    ensure!(
        restored == modes,
        "tracefs modes not restored: {modes} then {restored}"
    );
    lines.push(format!(
        "    as nobody: {denied} FAIL with a fix, exit 5; with the fix applied: exit {want} (perf_event_paranoid {paranoid})"
    ));

    // No tracefs: 4.
    let notracefs = r.step("notracefs", 4)?;
    ensure!(
        line(&notracefs, "tracefs")?.starts_with("FAIL")
            && fix(&notracefs, "tracefs")?.contains("mount -t tracefs"),
        "notracefs:\n{notracefs}"
    );
    lines.push("    tracefs unmounted: exit 4, fix: mount -t tracefs".to_string());
    Ok((
        "eventheader doctor against the kernel: 8 states judged".to_string(),
        lines,
    ))
}
