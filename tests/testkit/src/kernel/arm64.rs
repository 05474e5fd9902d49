//! The arm64 VM suite's verdicts (`testkit arm64-judge`): what
//! `tests/kernel/arm64/guest.sh` left in its results directory, judged with
//! the x86_64 suite's judges ([`Verdicts`]) where the check is the same
//! (self-checking programs, `basic`'s recording, byte identity of perf's
//! samples with the capture and the reference) and here where it is the
//! arm64 suite's own (`t_enable`'s collect, `t_compat32`). The bench check's
//! figures are judged by `testkit bench-totals aarch64`
//! (`checks/bench_totals.rs`).

use std::path::Path;

use super::Verdicts;
use crate::manifest::{self, VmCheck};
use crate::perf::ActivityIds;

/// The tracepoint `t_enable` writes under `eventheader collect`, as the
/// decoder's JSON names it, and how many events it writes (seq 0, 1, ...).
const ENABLE_EVENT: &str = "EhkArmEnable:ArmEvent";
const ENABLE_EVENTS: usize = 3;

impl Verdicts {
    /// Whether the guest's step `name` exited 0; a failure otherwise.
    fn status_ok(&mut self, name: &str) -> bool {
        let st = self.status_of(name);
        if st == "0" {
            return true;
        }
        let shown = if st.is_empty() { "none" } else { &st };
        self.fail(
            &format!("{name}: guest exit status '{shown}'"),
            Some(&format!("{name}.log")),
        );
        false
    }

    /// `NAME.log` has the line `NAME: N checks, 0 failed` with N > 0.
    fn clean_count(&mut self, name: &str) {
        let log = self.read(&format!("{name}.log"));
        let clean = log.lines().any(|l| {
            l.strip_prefix(name)
                .and_then(|r| r.strip_prefix(": "))
                .and_then(|r| r.strip_suffix(" checks, 0 failed"))
                .is_some_and(|n| {
                    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !n.starts_with('0')
                })
        });
        if !clean {
            self.fail(
                &format!("{name}: no line \"{name}: N checks, 0 failed\""),
                Some(&format!("{name}.log")),
            );
        }
    }

    /// `t_enable`'s events as the aarch64 `eventheader collect` recorded them
    /// (`enable.data`), decoded on the host by `eventheader decode --jsonl`:
    /// [`ENABLE_EVENTS`] events of [`ENABLE_EVENT`], seq 0 up.
    fn judge_enable_data(&mut self, eventheader: &Path) {
        let out = std::process::Command::new(eventheader)
            .args(["decode", "--jsonl"])
            .arg(self.file("enable.data"))
            .output();
        let jsonl = match out {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
            Ok(o) => {
                self.write("enable.decode", &String::from_utf8_lossy(&o.stderr));
                self.fail(
                    "enable: eventheader decode enable.data",
                    Some("enable.decode"),
                );
                return;
            }
            Err(e) => {
                self.fail(
                    &format!("enable: running {}: {e}", eventheader.display()),
                    None,
                );
                return;
            }
        };
        self.write("enable.jsonl", &jsonl);
        let name = format!("\"n\": \"{ENABLE_EVENT}\"");
        let n = jsonl.lines().filter(|l| l.contains(&name)).count();
        if n != ENABLE_EVENTS {
            self.fail(
                &format!(
                    "enable: decode of the aarch64 collect's enable.data has {n} \
                     {ENABLE_EVENT} events, want {ENABLE_EVENTS}"
                ),
                None,
            );
        }
        for seq in 0..ENABLE_EVENTS {
            if !jsonl.contains(&format!("\"seq\": {seq},")) {
                self.fail(
                    &format!("enable: no event with seq {seq} in enable.jsonl"),
                    None,
                );
            }
        }
        if n == ENABLE_EVENTS {
            self.pass(format!(
                "enable.collect: {n} {ENABLE_EVENT} events in the aarch64 collect's enable.data"
            ));
        }
    }
}

/// The detail of the x86_64 suite's `basic` recording (its manifest entry),
/// for the same check here.
fn basic_detail() -> &'static str {
    manifest::program("t_basic")
        .vm
        .iter()
        .find_map(|r| match r.check {
            VmCheck::SelfCheck {
                perf_summary: Some(("basic", detail)),
            } => Some(detail),
            _ => None,
        })
        .unwrap_or("basic's recording")
}

/// Judges the arm64 guest's `results` (host tools: the reference capture
/// `reference`, the host's `eventheader`); prints the failures (stderr), one
/// line per passed check and `arm64: N passed, M failed`. Whether all passed.
pub fn judge(results: &Path, reference: &Path, eventheader: &Path) -> bool {
    let v = verdicts(results, reference, eventheader);
    for line in &v.summary {
        println!("  {line}");
    }
    println!("arm64: {} passed, {} failed", v.passed, v.failed);
    v.failed == 0 && v.passed > 0
}

fn verdicts(results: &Path, reference: &Path, eventheader: &Path) -> Verdicts {
    let mut v = Verdicts::new("arm64 kernel suite", results);
    let machine = v.read("machine");
    if machine.trim() != "aarch64" {
        v.fail(
            &format!("the guest is '{}', not aarch64", machine.trim()),
            None,
        );
    }
    v.status_ok("env");
    // The x86_64 suite's registration tests, and basic's recording: the
    // guest ran t_basic as its VM run does, so its status is the recording's.
    for t in ["basic", "coexist"] {
        v.judge_run(t);
        v.clean_count(t);
    }
    let rc = v.status_of("basic");
    v.status
        .insert("basic".into(), vec![rc, "0".into(), "0".into()]);
    v.judge_summary("basic", basic_detail());
    // Registration and the enable bit under collect.
    v.judge_run("enable");
    v.status_ok("enable.collect");
    v.clean_count("enable");
    v.judge_enable_data(eventheader);
    // The reference replay under perf, its samples equal to the capture.
    let perf_ok = v.status_ok("replay.perf");
    let held = v.status_ok("replay.register");
    let captured = v.status_ok("replay.capture");
    if perf_ok && held && captured {
        v.compare(
            "replay.perf",
            "replay.perf.data",
            "replay.cap",
            Some(reference),
            ActivityIds::Same,
        );
    }
    // A 32-bit process: the kernel refuses its registration.
    if v.status_ok("compat32") {
        let log = v.read("compat32.log");
        let line = log
            .lines()
            .find(|l| l.starts_with("compat32: DIAG_IOCSREG"));
        v.pass(line.unwrap_or("compat32: exit status 0").to_string());
    }
    // The reference replay under collect: capture equal to the reference,
    // collect's samples to the capture.
    if v.status_ok("replay") && captured {
        v.compare(
            "replay",
            "replay.data",
            "replay.cap",
            Some(reference),
            ActivityIds::Same,
        );
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A results directory as the guest leaves it: every step exited 0, the
    /// recordings are the reference's events; `/bin/false` stands for an
    /// `eventheader` that cannot decode `enable.data`.
    #[test]
    fn the_arm64_results_are_judged_by_the_shared_judges() {
        let dir = std::env::temp_dir().join(format!("testkit-arm64-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let reference = crate::reference_capture();
        let records: Vec<(String, Vec<u8>)> = crate::capture::read(&reference)
            .unwrap()
            .into_iter()
            .map(|r| (r.name, r.event))
            .collect();
        let put = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
        std::fs::copy(&reference, dir.join("replay.cap")).unwrap();
        for data in ["replay.data", "replay.perf.data", "basic.perf.data"] {
            crate::synth::write_perf_data(&dir.join(data), &records, records.len(), true);
        }
        let summary = crate::perf::summary(&dir.join("basic.perf.data")).unwrap();
        let expect: String = summary
            .iter()
            .map(|((tp, pid), n)| format!("{tp} {pid} {n}\n"))
            .collect();
        put("basic.expect", &expect);
        put("machine", "aarch64\n");
        let steps = "env basic coexist enable enable.collect replay.capture replay \
                     replay.perf replay.register compat32";
        put(
            "status",
            &steps
                .split_whitespace()
                .map(|s| format!("{s} 0\n"))
                .collect::<String>(),
        );
        put("basic.log", "basic: 58 checks, 0 failed\n");
        put("coexist.log", "coexist: 54 checks, 0 failed\n");
        put("enable.log", "enable: 9 checks, 0 failed\n");
        put("compat32.log", "compat32: DIAG_IOCSREG refused\n");
        let judge = || verdicts(&dir, &reference, Path::new("/bin/false"));
        let v = judge();
        assert_eq!((v.passed, v.failed), (7, 1), "{:?}", v.summary);
        // One thing broken per check: each is one more failure.
        put("coexist.log", "coexist: 54 checks, 1 failed\n");
        assert_eq!(judge().failed, 2);
        put("machine", "x86_64\n");
        assert_eq!(judge().failed, 3);
        put("basic.expect", &expect.replacen(' ', " 9", 1));
        assert_eq!(judge().failed, 4);
        let data = std::fs::read(dir.join("replay.data")).unwrap();
        std::fs::write(dir.join("replay.data"), &data[..data.len() / 2]).unwrap();
        assert_eq!(judge().failed, 5);
        put(
            "status",
            &steps
                .replace("compat32", "")
                .split_whitespace()
                .map(|s| format!("{s} 0\n"))
                .collect::<String>(),
        );
        assert_eq!(judge().failed, 6);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
