//! The real-kernel suite's plan and verdicts (`testkit kernel-plan`,
//! `testkit kernel-judge`): `tests/kernel/run.sh` builds [`programs`], boots
//! the VM, and `tests/kernel/guest.sh` executes the plan line by line;
//! [`judge`] then reads what the guest left in the results directory.
//!
//! A plan line is tab-separated: `KIND NAME ENV NAMES PERF_OPTS INSTANCES
//! COMMAND...`, with `-` for an empty field, ENV as `K=V,...`, NAMES as
//! `A,B,...` or `?` (ask `PROGRAM --names`), PERF_OPTS comma-separated, and
//! `{results}` in COMMAND standing for the guest's results directory. KIND:
//! - `run`: the command's exit status goes to `results/status` as `NAME rc`;
//! - `identity`: a capture-mode run (`NAME.capture`, capture file
//!   `NAME.cap`), then `record` of the tracepoints it captured, both pinned to
//!   CPU 0;
//! - `identity-registered`: the same without pre-registration: the program
//!   runs with `EHK_READY_FILE`/`EHK_GO_FILE`, perf starts once it is ready
//!   (status `NAME rc perf_rc 0`);
//! - `record`: `perf record` of NAMES while INSTANCES copies of the command
//!   run (status `NAME rc perf_rc holder_rc`; `NAME.perf.data`, and the
//!   program's expectation `NAME.expect`).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::manifest::{self, Program, VmCheck, VmRun};

mod arm64;
use crate::{perf, run};
pub use arm64::judge as judge_arm64;

/// Programs `guest.sh` itself uses: `uev_raw hold` pre-registers the
/// tracepoints of a recording.
const GUEST_HELPERS: &[&str] = &["uev_raw"];

/// The programs the VM suite needs: those with VM runs, what their runs
/// name, and the guest's helpers.
pub fn programs() -> Vec<&'static Program> {
    let mut selected: Vec<&'static Program> =
        manifest::programs().filter(|p| !p.vm.is_empty()).collect();
    selected.extend(GUEST_HELPERS.iter().map(|n| manifest::program(n)));
    crate::build::with_dependencies(&selected)
}

/// Every VM run with its program, in suite order.
/// The VM runs of the manifest; with `EHK_ONLY=NAME,...` (tests/kernel/run.sh)
/// only those, for working on one area (the suite runs them all).
fn vm_runs() -> impl Iterator<Item = (&'static Program, &'static VmRun)> {
    let only = std::env::var("EHK_ONLY").ok();
    manifest::programs()
        .flat_map(|p| p.vm.iter().map(move |r| (p, r)))
        .filter(move |(_, r)| {
            only.as_deref()
                .map_or(true, |o| o.split(',').any(|n| n == r.name))
        })
}

fn field(words: &[&str], sep: &str) -> String {
    if words.is_empty() {
        "-".into()
    } else {
        words.join(sep)
    }
}

/// The plan for programs built into `bin`; `reference` is the reference
/// capture file.
pub fn plan(bin: &Path, reference: &Path) -> Result<String, String> {
    let root = crate::repo_root();
    let mut out = String::new();
    for (program, vm) in vm_runs() {
        let mut lookup = |key: &str| -> Result<String, String> {
            match key {
                "results" => Ok("{results}".into()),
                "reference" => Ok(reference.display().to_string()),
                "eventheader" => Ok(crate::cli_binary()?.display().to_string()),
                _ => match key.strip_prefix("path:") {
                    Some(name) => Ok(bin
                        .join(manifest::program(name).file_name())
                        .display()
                        .to_string()),
                    None => Err(format!("VM run {}: unknown placeholder {{{key}}}", vm.name)),
                },
            }
        };
        let mut command = vec![bin.join(program.file_name()).display().to_string()];
        for arg in vm.args {
            command.push(run::expand(arg, &mut lookup)?);
        }
        let mut env: Vec<String> = Vec::new();
        for (k, v) in vm.env {
            env.push(format!("{k}={}", run::expand(v, &mut lookup)?));
        }
        let env: Vec<&str> = env.iter().map(String::as_str).collect();
        let (kind, names, perf_opts, instances) = match &vm.check {
            VmCheck::SelfCheck { .. } => ("run", "-".to_string(), "-".to_string(), 1),
            VmCheck::Script { script, .. } => {
                command.insert(0, root.join(script).display().to_string());
                command.insert(0, "bash".into());
                ("run", "-".into(), "-".into(), 1)
            }
            VmCheck::Identity { .. } => ("identity", "-".into(), "-".into(), 1),
            VmCheck::IdentityAfterRegistration | VmCheck::IdentityAfterRegistrationRandomIds => {
                ("identity-registered", "-".into(), "-".into(), 1)
            }
            VmCheck::Summary { instances, .. } => ("record", "?".into(), "-".into(), *instances),
            VmCheck::Fields {
                names, perf_opts, ..
            } => ("record", field(names, ","), field(perf_opts, ","), 1),
        };
        writeln!(
            out,
            "{kind}\t{}\t{}\t{names}\t{perf_opts}\t{instances}\t{}",
            vm.name,
            field(&env, ","),
            command.join("\t")
        )
        .unwrap();
    }
    Ok(out)
}

/// The verdicts so far.
struct Verdicts {
    /// The suite's name in failure lines.
    suite: &'static str,
    results: PathBuf,
    status: HashMap<String, Vec<String>>,
    passed: usize,
    failed: usize,
    summary: Vec<String>,
    byte_counts: Vec<String>,
}

/// The last `n` lines of a file, each prefixed.
fn tail(path: &Path, n: usize, prefix: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| format!("{prefix}{l}\n"))
        .collect()
}

impl Verdicts {
    /// No verdict yet on `results`, with the guest's `status` file read
    /// (`NAME WORD...` per line, the first line of a name counts).
    fn new(suite: &'static str, results: &Path) -> Verdicts {
        let status_text = std::fs::read_to_string(results.join("status")).unwrap_or_default();
        let mut status = HashMap::new();
        for line in status_text.lines() {
            let mut words = line.split_whitespace().map(String::from);
            if let Some(name) = words.next() {
                status.entry(name).or_insert_with(|| words.collect());
            }
        }
        Verdicts {
            suite,
            results: results.to_path_buf(),
            status,
            passed: 0,
            failed: 0,
            summary: Vec::new(),
            byte_counts: Vec::new(),
        }
    }

    fn file(&self, name: &str) -> PathBuf {
        self.results.join(name)
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.file(name)).unwrap_or_default()
    }

    fn write(&self, name: &str, text: &str) {
        let _ = std::fs::write(self.file(name), text);
    }

    fn pass(&mut self, line: String) {
        self.passed += 1;
        self.summary.push(line);
    }

    /// A failure, with the end of the results file `excerpt`.
    fn fail(&mut self, what: &str, excerpt: Option<&str>) {
        self.failed += 1;
        eprintln!("{}: FAIL {what}", self.suite);
        if let Some(file) = excerpt {
            eprint!("{}", tail(&self.file(file), 40, "    "));
        }
    }

    /// The status words of `name` joined by spaces, or "" when missing.
    fn status_of(&self, name: &str) -> String {
        self.status
            .get(name)
            .map(|w| w.join(" "))
            .unwrap_or_default()
    }

    /// A self-checking run: status 0; the summary is what its `NAME: N
    /// checks` lines say, or without such lines its last three output lines.
    fn judge_run(&mut self, name: &str) {
        let st = self.status_of(name);
        if st != "0" {
            let shown = if st.is_empty() { "missing" } else { &st };
            self.fail(
                &format!("{name} (status '{shown}')"),
                Some(&format!("{name}.log")),
            );
            return;
        }
        let log = self.read(&format!("{name}.log"));
        let mut counts: Vec<String> = log
            .lines()
            .filter_map(|l| {
                let (who, rest) = l.split_once(": ")?;
                let words: Vec<&str> = rest.split_whitespace().collect();
                let is_who = who
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || "_()".contains(c));
                let counted = words.len() >= 2
                    && words[0].chars().all(|c| c.is_ascii_digit())
                    && words[1].starts_with("checks");
                (is_who && counted).then(|| rest.to_string())
            })
            .collect();
        if counts.is_empty() {
            let lines: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty()).collect();
            let last = lines[lines.len().saturating_sub(3)..].join("; ");
            counts.push(last);
        }
        self.pass(format!("{name}: {}", counts.join(" ")));
    }

    /// A perf-recorded run: program, perf (0 or 130 for SIGINT) and holder
    /// all succeeded.
    fn judge_recorded(&mut self, name: &str) -> bool {
        let words = self.status.get(name).cloned().unwrap_or_default();
        let word =
            |i: usize, missing: &str| words.get(i).cloned().unwrap_or_else(|| missing.into());
        let (rc, prc, hrc) = (word(0, "x"), word(1, "x"), word(2, "x"));
        if rc == "0" && hrc == "0" && (prc == "0" || prc == "130") {
            return true;
        }
        self.fail(
            &format!(
                "{name} (program {}, perf {}, holder {})",
                word(0, ""),
                word(1, "?"),
                word(2, "?")
            ),
            Some(&format!("{name}.log")),
        );
        eprint!(
            "{}",
            tail(&self.file(&format!("{name}.perf.log")), 10, "    perf: ")
        );
        false
    }

    /// The per-(tracepoint, pid) sample counts of NAME.perf.data must equal
    /// NAME.expect.
    fn judge_summary(&mut self, name: &str, detail: &str) {
        if !self.judge_recorded(name) {
            return;
        }
        let counts = match perf::summary(&self.file(&format!("{name}.perf.data"))) {
            Ok(c) => c,
            Err(e) => {
                let verify = format!("{name}.verify");
                self.write(&verify, &e);
                self.fail(&format!("{name}: perf.data summary"), Some(&verify));
                return;
            }
        };
        let recorded: Vec<String> = counts
            .iter()
            .map(|((tp, pid), n)| format!("{tp} {pid} {n}"))
            .collect();
        self.write(&format!("{name}.summary"), &(recorded.join("\n") + "\n"));
        let mut expected: Vec<(String, u64, String)> = self
            .read(&format!("{name}.expect"))
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let pid = w.get(1).and_then(|p| p.parse().ok()).unwrap_or(0);
                (w[0].to_string(), pid, l.to_string())
            })
            .collect();
        expected.sort();
        let expected: Vec<String> = expected.into_iter().map(|(_, _, l)| l).collect();
        if expected != recorded {
            let mut diff = String::new();
            for l in expected.iter().filter(|l| !recorded.contains(l)) {
                writeln!(diff, "< {l}").unwrap();
            }
            for l in recorded.iter().filter(|l| !expected.contains(l)) {
                writeln!(diff, "> {l}").unwrap();
            }
            let file = format!("{name}.diff");
            self.write(&file, &diff);
            self.fail(
                &format!("{name}: perf saw other events than expected (< expected, > recorded)"),
                Some(&file),
            );
            return;
        }
        let events: u32 = counts.values().sum();
        self.pass(format!("{name}: {detail} ({events} events in perf.data)"));
    }

    /// Byte identity of NAME.perf.data with the capture-mode run's NAME.cap.
    fn judge_compare(&mut self, name: &str, reference: Option<&Path>, ids: perf::ActivityIds) {
        if !self.judge_recorded(name) {
            return;
        }
        let capture_run = format!("{name}.capture");
        let st = self.status_of(&capture_run);
        if st != "0" {
            self.fail(
                &format!("{name}: capture-mode run (status '{st}')"),
                Some(&format!("{capture_run}.log")),
            );
            return;
        }
        let (data, capture) = (format!("{name}.perf.data"), format!("{name}.cap"));
        self.compare(name, &data, &capture, reference, ids);
    }

    /// The samples of the perf.data `data` byte-identical to the records of
    /// the capture file `capture` (and with `reference`, those equal to it),
    /// both in the results: verdict `name`.
    fn compare(
        &mut self,
        name: &str,
        data: &str,
        capture: &str,
        reference: Option<&Path>,
        ids: perf::ActivityIds,
    ) {
        let verify = format!("{name}.verify");
        let perf_data = self.file(data);
        let capture = self.file(capture);
        match perf::compare(&perf_data, &capture, reference, ids) {
            Err(e) => {
                self.write(&verify, &e);
                self.fail(&format!("{name}: perf payloads vs capture"), Some(&verify));
            }
            Ok(c) => {
                let mut text = c.summary() + "\n";
                for e in &c.errors {
                    text.push_str(e);
                    text.push('\n');
                }
                self.write(&verify, &text);
                if c.errors.is_empty() {
                    self.pass(format!("{name}: {}", c.summary()));
                    self.byte_counts
                        .push(format!("{name} {}/{}", c.identical, c.records));
                } else {
                    self.fail(&format!("{name}: perf payloads vs capture"), Some(&verify));
                }
            }
        }
    }

    /// NAME.perf.data's samples reduced to `fields` (NAME.fields), judged by
    /// `check` against the program's output (NAME.log).
    fn judge_fields(&mut self, name: &str, fields: &[&str], check: crate::checks::FieldsCheck) {
        if !self.judge_recorded(name) {
            return;
        }
        let rows = match perf::fields(&self.file(&format!("{name}.perf.data")), fields) {
            Ok(rows) => rows,
            Err(e) => {
                let verify = format!("{name}.verify");
                self.write(&verify, &e);
                self.fail(&format!("{name}: perf.data fields"), Some(&verify));
                return;
            }
        };
        let lines: String = rows.iter().map(|r| r.line() + "\n").collect();
        self.write(&format!("{name}.fields"), &lines);
        match check(&self.read(&format!("{name}.log")), &rows) {
            Ok(summary) => self.pass(format!("{name}: {summary}")),
            Err(problems) => {
                let file = format!("{name}.check");
                self.write(&file, &(problems + "\n"));
                self.fail(
                    &format!("{name}: perf.data vs the program's counts"),
                    Some(&file),
                );
                eprint!(
                    "{}",
                    tail(&self.file(&format!("{name}.log")), 20, "    log: ")
                );
            }
        }
    }

    /// A guest script judged by `judge` over the files it left.
    fn judge_script(&mut self, name: &str, judge: crate::checks::ResultsCheck) {
        let st = self.status_of(name);
        let log = format!("{name}.log");
        if st != "0" {
            let shown = if st.is_empty() { "missing" } else { &st };
            self.fail(&format!("{name} (status '{shown}')"), Some(&log));
            return;
        }
        match judge(&self.results, name) {
            Ok((line, extra)) => {
                self.pass(format!("{name}: {line}"));
                self.summary.extend(extra);
            }
            Err(problem) => self.fail(&format!("{name}: {problem}"), Some(&log)),
        }
    }
}

/// Judges every VM run from what the guest left in `results`; prints the
/// failures (stderr), the byte-identity counts, one line per passed test
/// and `kernel: N passed, M failed`. Whether all passed.
pub fn judge(results: &Path, reference: &Path) -> bool {
    let mut v = Verdicts::new("kernel suite", results);
    if v.status.contains_key("guest_env") || v.read("kernel").trim().is_empty() {
        v.fail("guest: no writable user_events_data", Some("guest.log"));
    }
    for (_, vm) in vm_runs() {
        let name = vm.name;
        match &vm.check {
            VmCheck::SelfCheck { perf_summary } => {
                v.judge_run(name);
                if let Some((recorded, detail)) = perf_summary {
                    // The program recorded with perf itself: its status is the recording's.
                    let rc = v.status_of(name);
                    v.status
                        .insert(recorded.to_string(), vec![rc, "0".into(), "0".into()]);
                    v.judge_summary(recorded, detail);
                }
            }
            VmCheck::Script { judge: None, .. } => v.judge_run(name),
            VmCheck::Script {
                judge: Some(judge), ..
            } => v.judge_script(name, *judge),
            VmCheck::Identity { reference: with } => {
                v.judge_compare(name, with.then_some(reference), perf::ActivityIds::Same)
            }
            VmCheck::IdentityAfterRegistration => {
                v.judge_compare(name, None, perf::ActivityIds::Same)
            }
            VmCheck::IdentityAfterRegistrationRandomIds => {
                v.judge_compare(name, None, perf::ActivityIds::Random)
            }
            VmCheck::Summary { detail, .. } => v.judge_summary(name, detail),
            VmCheck::Fields { fields, check, .. } => v.judge_fields(name, fields, *check),
        }
    }
    let counts = if v.byte_counts.is_empty() {
        "none".to_string()
    } else {
        v.byte_counts.join(" ")
    };
    println!("kernel suite: byte-identical under perf: {counts}");
    for line in &v.summary {
        println!("  {line}");
    }
    println!("kernel: {} passed, {} failed", v.passed, v.failed);
    v.failed == 0 && v.passed > 0
}
