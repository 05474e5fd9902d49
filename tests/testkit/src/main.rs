//! `testkit`: the shell side's entry to the test-program manifest.
//! Exit status: 0 = done / every check passed, 1 = a check or build failed,
//! 2 = usage.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use testkit::build::{self, Config};
use testkit::manifest::{self, Flavour, Program};
use testkit::{capture, kernel, perf, sanitize, Toolchain};

const USAGE: &str = "\
usage: testkit COMMAND ...
  build --lib DIR --out DIR [--flavour F] [--toolchain gcc|clang] (--vm | PROGRAM...)
        builds programs of the manifest (their first standard; default flavour
        optimized, toolchain gcc); --vm: every program the VM suite needs
  sanitize [--lib DIR] [--out DIR] [--list] FLAVOUR...
        asan, tsan, valgrind: build and run every host run of the flavour
        (defaults: target/release, target/sanitizers); --list: only print
        them (FLAVOUR PROGRAM RUN)
  kernel-plan --bin DIR --reference FILE
        the VM suite's plan (tests/kernel/guest.sh executes it)
  kernel-judge --reference FILE RESULTS
        the VM suite's verdicts from the guest's results directory
  arm64-judge --reference FILE --eventheader FILE RESULTS
        the arm64 VM suite's verdicts from its guest's results directory
        (the host's eventheader decodes what the guest's collect recorded)
  suites [--programs]         each suite's folder and its counts of programs,
                              host runs and VM runs; --programs: one line
                              per program (SUITE PROGRAM RUNS VM-RUNS)
  bench-totals ARCH RESULTS N [BUILD...]
                              the arm64 VM's bench check: RESULTS/bench.totals
                              (N vs 2N iterations) to RESULTS/bench.tsv, the
                              table and its verdict; BUILD: other builds' columns
  names CAPTURE               distinct tracepoint names of a capture file
  compare PERF CAPTURE [REFERENCE]
                              perf samples byte-identical to capture records
  summary PERF                NAME PID COUNT per (tracepoint, pid)
  fields PERF FIELD...        NAME EVENT PID TID VALUES... per sample
  reference-dir               prints where the reference data is
  synth-perf OUT COUNT [KIND]  writes a perf.data of COUNT samples (testkit::synth):
                              KIND reference (default): the reference capture's
                              events, cycled; burst: cli_writer's Burst (u32 i)
  synth-capture OUT COUNT [KIND]  a capture file of COUNT records of the same kinds";

/// Parsed `--key value` options and the remaining words.
struct Args {
    options: Vec<(String, String)>,
    flags: Vec<String>,
    words: Vec<String>,
}

fn parse(args: &[String], with_value: &[&str]) -> Result<Args, String> {
    let mut out = Args {
        options: Vec::new(),
        flags: Vec::new(),
        words: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if with_value.contains(&a.as_str()) {
            let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
            out.options.push((a.clone(), v.clone()));
        } else if a.starts_with("--") {
            out.flags.push(a.clone());
        } else {
            out.words.push(a.clone());
        }
    }
    Ok(out)
}

impl Args {
    fn get(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn path(&self, key: &str) -> Result<PathBuf, String> {
        self.get(key)
            .map(PathBuf::from)
            .ok_or_else(|| format!("{key} is required"))
    }
}

fn cmd_build(args: &[String]) -> Result<bool, String> {
    let a = parse(args, &["--lib", "--out", "--flavour", "--toolchain"])?;
    let flavour = match a.get("--flavour") {
        Some(f) => Flavour::from_name(f).ok_or_else(|| format!("unknown flavour {f}"))?,
        None => Flavour::Optimized,
    };
    let tc = a.get("--toolchain").unwrap_or("gcc");
    let toolchain = Toolchain::by_cc(tc).ok_or_else(|| format!("unknown toolchain {tc}"))?;
    let programs: Vec<&'static Program> = if a.flags.iter().any(|f| f == "--vm") {
        kernel::programs()
    } else if a.words.is_empty() {
        return Err("name the programs, or --vm".into());
    } else {
        let named: Vec<&'static Program> =
            a.words.iter().map(|n| find(n)).collect::<Result<_, _>>()?;
        build::with_dependencies(&named)
    };
    let jobs: Vec<(&Program, Config)> = programs
        .iter()
        .map(|&p| (p, Config::first(p, toolchain, flavour)))
        .collect();
    build::build_many(
        &jobs,
        &a.path("--lib")?,
        &a.path("--out")?,
        build::SanitizerRuntime::Compiler,
    )?;
    Ok(true)
}

/// The records of a synthetic recording: the reference capture's, or
/// cli_writer's Burst.
fn synth_records(count: usize, kind: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    Ok(match kind {
        "reference" => capture::read(&testkit::reference_capture())?
            .into_iter()
            .map(|r| (r.name, r.event))
            .collect(),
        // Distinct values of i up to 65,536, then cycled.
        "burst" => testkit::synth::burst_records(count.min(1 << 16) as u32),
        _ => return Err(format!("unknown kind {kind} (reference, burst)")),
    })
}

fn cmd_synth_perf(out: &str, count: &str, kind: &str) -> Result<bool, String> {
    let count: usize = count.parse().map_err(|_| format!("not a count: {count}"))?;
    let records = synth_records(count, kind)?;
    testkit::synth::write_perf_data(Path::new(out), &records, count, true);
    Ok(true)
}

/// A capture file of `count` records (docs/format.md §7): the records of
/// [`synth_records`], cycled.
fn cmd_synth_capture(out: &str, count: &str, kind: &str) -> Result<bool, String> {
    let count: usize = count.parse().map_err(|_| format!("not a count: {count}"))?;
    let records = synth_records(count, kind)?;
    let mut data = Vec::new();
    for k in 0..count {
        let (name, event) = &records[k % records.len()];
        data.extend_from_slice(&((4 + name.len() + 1 + event.len()) as u32).to_le_bytes());
        data.extend_from_slice(name.as_bytes());
        data.push(0);
        data.extend_from_slice(event);
    }
    std::fs::write(out, data).map_err(|e| format!("{out}: {e}"))?;
    Ok(true)
}

fn find(name: &str) -> Result<&'static Program, String> {
    manifest::programs()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("no program {name} in the manifest"))
}

fn cmd_sanitize(args: &[String]) -> Result<bool, String> {
    let a = parse(args, &["--lib", "--out"])?;
    let root = testkit::repo_root();
    let lib = a
        .get("--lib")
        .map_or_else(|| root.join("target/release"), PathBuf::from);
    let out = a
        .get("--out")
        .map_or_else(|| root.join("target/sanitizers"), PathBuf::from);
    let flavours: Vec<Flavour> = a
        .words
        .iter()
        .map(|w| match Flavour::from_name(w) {
            Some(f) if Flavour::SANITIZERS.contains(&f) => Ok(f),
            _ => Err(format!(
                "unknown sanitizer flavour {w} (asan, tsan, valgrind)"
            )),
        })
        .collect::<Result<_, _>>()?;
    if flavours.is_empty() {
        return Err("name the flavours (asan, tsan, valgrind)".into());
    }
    if a.flags.iter().any(|f| f == "--list") {
        let runs = sanitize::list(&flavours);
        for (flavour, program, run) in &runs {
            println!("{} {} {}", flavour.name(), program.name, run.name);
        }
        println!("{} runs", runs.len());
        return Ok(true);
    }
    let started = Instant::now();
    let tally = sanitize::sanitize(&flavours, &lib, &out)?;
    Ok(sanitize::report(&tally, started))
}

fn cmd_bench_totals(arch: &str, results: &str, n: &str, builds: &[&str]) -> Result<bool, String> {
    let arch = testkit::checks::Arch::from_name(arch)
        .ok_or_else(|| format!("unknown architecture {arch} (x86_64, aarch64)"))?;
    let n: u64 = n.parse().map_err(|_| format!("not a count: {n}"))?;
    let dir = Path::new(results);
    let totals = std::fs::read_to_string(dir.join("bench.totals"))
        .map_err(|e| format!("{results}/bench.totals: {e}"))?;
    if totals.trim().is_empty() {
        return Err(format!("{results}/bench.totals is empty"));
    }
    let t = testkit::checks::judge_totals(&totals, n, builds, arch)?;
    std::fs::write(dir.join("bench.tsv"), &t.tsv)
        .map_err(|e| format!("{results}/bench.tsv: {e}"))?;
    println!(
        "callgrind Ir per iteration with user_events, N = {n} vs {}: {}",
        2 * n,
        t.bounded.join(", ")
    );
    for line in &t.table {
        println!("    {line}");
    }
    if t.problems.is_empty() {
        Ok(true)
    } else {
        Err(t.problems.join("\n"))
    }
}

fn cmd_names(capture_file: &str) -> Result<bool, String> {
    let records = capture::read(Path::new(capture_file))?;
    for name in capture::names(&records) {
        println!("{name}");
    }
    Ok(true)
}

fn cmd_compare(
    perf_data: &str,
    capture_file: &str,
    reference: Option<&str>,
) -> Result<bool, String> {
    let c = perf::compare(
        Path::new(perf_data),
        Path::new(capture_file),
        reference.map(Path::new),
        perf::ActivityIds::Same,
    )?;
    println!("{}", c.summary());
    if c.errors.is_empty() {
        Ok(true)
    } else {
        Err(c.errors.join("\n"))
    }
}

fn cmd_summary(perf_data: &str) -> Result<bool, String> {
    for ((name, pid), n) in perf::summary(Path::new(perf_data))? {
        println!("{name} {pid} {n}");
    }
    Ok(true)
}

fn cmd_fields(perf_data: &str, fields: &[&str]) -> Result<bool, String> {
    for row in perf::fields(Path::new(perf_data), fields)? {
        println!("{}", row.line());
    }
    Ok(true)
}

/// `testkit suites`: what the manifest holds, suite by suite (the counts a
/// reorganisation of the suites must keep).
fn cmd_suites(programs: bool) -> Result<bool, String> {
    let runs = |ps: &[Program]| ps.iter().map(|p| p.runs.len()).sum::<usize>();
    let vm = |ps: &[Program]| ps.iter().map(|p| p.vm.len()).sum::<usize>();
    for s in manifest::SUITES {
        if programs {
            for p in s.programs {
                let names = |it: &mut dyn Iterator<Item = &str>| it.collect::<Vec<_>>().join(",");
                println!(
                    "{} {} runs={} vm={}",
                    s.name,
                    p.name,
                    names(&mut p.runs.iter().map(|r| r.name)),
                    names(&mut p.vm.iter().map(|r| r.name)),
                );
            }
        } else {
            println!(
                "{:<13} {:<21} programs {:>3}  host runs {:>3}  VM runs {:>3}",
                s.name,
                s.home,
                s.programs.len(),
                runs(&s.programs),
                vm(&s.programs)
            );
        }
    }
    if !programs {
        let all: Vec<&Program> = manifest::programs().collect();
        println!(
            "{:<13} {:<21} programs {:>3}  host runs {:>3}  VM runs {:>3}",
            "total",
            "",
            all.len(),
            all.iter().map(|p| p.runs.len()).sum::<usize>(),
            all.iter().map(|p| p.vm.len()).sum::<usize>()
        );
    }
    Ok(true)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    // The commands that read the manifest say what is wrong with it (file,
    // line, entry) instead of panicking on first use.
    if matches!(
        words.first(),
        Some(&("build" | "sanitize" | "kernel-plan" | "kernel-judge" | "arm64-judge" | "suites"))
    ) {
        if let Err(e) = manifest::check() {
            eprintln!("testkit: FAIL\n{e}");
            return ExitCode::FAILURE;
        }
    }
    let result = match words.as_slice() {
        ["build", ..] => cmd_build(&args[1..]),
        ["sanitize", ..] => cmd_sanitize(&args[1..]),
        ["kernel-plan", ..] => parse(&args[1..], &["--bin", "--reference"]).and_then(|a| {
            print!(
                "{}",
                kernel::plan(&a.path("--bin")?, &a.path("--reference")?)?
            );
            Ok(true)
        }),
        ["kernel-judge", ..] => {
            parse(&args[1..], &["--reference"]).and_then(|a| match &a.words[..] {
                [results] => Ok(kernel::judge(Path::new(results), &a.path("--reference")?)),
                _ => Err("kernel-judge needs the results directory".into()),
            })
        }
        ["arm64-judge", ..] => {
            parse(&args[1..], &["--reference", "--eventheader"]).and_then(|a| match &a.words[..] {
                [results] => Ok(kernel::judge_arm64(
                    Path::new(results),
                    &a.path("--reference")?,
                    &a.path("--eventheader")?,
                )),
                _ => Err("arm64-judge needs one RESULTS directory".into()),
            })
        }
        ["suites"] => cmd_suites(false),
        ["suites", "--programs"] => cmd_suites(true),
        ["bench-totals", arch, results, n, builds @ ..] => {
            cmd_bench_totals(arch, results, n, builds)
        }
        ["names", capture_file] => cmd_names(capture_file),
        ["compare", perf_data, capture_file] => cmd_compare(perf_data, capture_file, None),
        ["compare", perf_data, capture_file, reference] => {
            cmd_compare(perf_data, capture_file, Some(reference))
        }
        ["summary", perf_data] => cmd_summary(perf_data),
        ["fields", perf_data, fields @ ..] => cmd_fields(perf_data, fields),
        ["reference-dir"] => {
            println!("{}", testkit::reference_dir().display());
            return ExitCode::SUCCESS;
        }
        ["synth-perf", out, count] => cmd_synth_perf(out, count, "reference"),
        ["synth-perf", out, count, kind] => cmd_synth_perf(out, count, kind),
        ["synth-capture", out, count] => cmd_synth_capture(out, count, "reference"),
        ["synth-capture", out, count, kind] => cmd_synth_capture(out, count, kind),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("testkit: FAIL\n{e}");
            ExitCode::FAILURE
        }
    }
}
