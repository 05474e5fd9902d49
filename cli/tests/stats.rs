//! `eventheader stats`, judged against what the inputs are known to hold:
//! synthetic recordings whose counts, bytes, times and pids are set by the
//! test, the reference capture read by testkit's own parser, and the
//! reference perf.data as the reference's decoder decoded it
//! (`perf.data.linux.json`).

mod common;

use std::collections::BTreeMap;

use common::{capture_record, reference_dir, reference_records, run};
use testkit::json::{parse, J};
use testkit::synth::{burst_records, write_perf_data};

fn stats_json(args: &[&str]) -> J {
    let mut all = vec!["stats", "--format", "json"];
    all.extend_from_slice(args);
    let out = run(&all);
    assert!(
        out.status.success(),
        "{all:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    parse(&String::from_utf8(out.stdout).unwrap())
}

fn int(j: &J, key: &str) -> i128 {
    j.get(key)
        .and_then(J::as_int)
        .unwrap_or_else(|| panic!("no integer {key} in {j:?}"))
}

fn float(j: &J, key: &str) -> f64 {
    match j.get(key) {
        Some(J::Num(n)) => n.as_f64().unwrap(),
        other => panic!("no number {key}: {other:?}"),
    }
}

/// `(label, count, bytes)` of each object of the list `key`.
fn rows(j: &J, key: &str, label: &str) -> BTreeMap<String, (i128, i128)> {
    j.get(key)
        .unwrap()
        .as_array()
        .iter()
        .map(|r| {
            let l = match r.get(label).unwrap() {
                J::Str(s) => s.clone(),
                J::Null => "null".into(),
                other => other.as_int().unwrap().to_string(),
            };
            (l, (int(r, "count"), int(r, "bytes")))
        })
        .collect()
}

/// 1000 Burst events at 1 µs apart from 2024-03-28T00:00:01Z, pid 4242
/// (testkit::synth's recording).
#[test]
fn perf_data_counts_bytes_times_rate_and_processes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("burst.data");
    let records = burst_records(1000);
    write_perf_data(&path, &records, 1000, true);
    // The event's data after the 8 bytes of common fields, padded as the
    // kernel pads PERF_SAMPLE_RAW (u32 size + data to a multiple of 8).
    let bytes: usize = records
        .iter()
        .map(|(_, e)| (4 + 8 + e.len()).div_ceil(8) * 8 - 4 - 8)
        .sum();
    let j = stats_json(&["--by", "process", path.to_str().unwrap()]);
    let total = j.get("total").unwrap();
    assert_eq!(int(total, "count"), 1000);
    assert_eq!(int(total, "bytes"), bytes as i128);
    assert_eq!(
        total.get("first").unwrap().as_str(),
        Some("2024-03-28T00:00:01.000000000Z")
    );
    assert_eq!(
        total.get("last").unwrap().as_str(),
        Some("2024-03-28T00:00:01.000999000Z")
    );
    // 999 intervals in 999 µs.
    assert!((float(total, "rate") - 1e6).abs() < 1e-3, "{total:?}");
    let events = j.get("events").unwrap().as_array();
    assert_eq!(events.len(), 1);
    let e = &events[0];
    assert_eq!(e.get("name").unwrap().as_str(), Some("CliBurst:Burst"));
    assert_eq!(
        e.get("tracepoint").unwrap().as_str(),
        Some("user_events:CliBurst_L5K1")
    );
    assert_eq!(e.get("provider").unwrap().as_str(), Some("CliBurst"));
    assert_eq!(int(e, "level"), 5);
    assert_eq!(
        rows(&j, "providers", "provider"),
        BTreeMap::from([("CliBurst".to_string(), (1000, bytes as i128))])
    );
    assert_eq!(
        rows(&j, "levels", "level"),
        BTreeMap::from([("5".to_string(), (1000, bytes as i128))])
    );
    assert_eq!(
        rows(&j, "processes", "pid"),
        BTreeMap::from([("4242".to_string(), (1000, bytes as i128))])
    );
    assert_eq!(int(&j, "lost"), 0);
    // Without --by, no processes.
    let j = stats_json(&[path.to_str().unwrap()]);
    assert!(j.get("processes").is_none());
}

/// The reference capture: per tracepoint, provider and event name, the
/// counts and bytes testkit's parser finds in the file.
#[test]
fn capture_file_counts_per_tracepoint_provider_and_event() {
    let mut want_tp: BTreeMap<String, (i128, i128)> = BTreeMap::new();
    let mut want_provider: BTreeMap<String, (i128, i128)> = BTreeMap::new();
    let mut want_event: BTreeMap<String, (i128, i128)> = BTreeMap::new();
    let records = reference_records();
    for (name, event) in &records {
        let add = |m: &mut BTreeMap<String, (i128, i128)>, k: String| {
            let r = m.entry(k).or_default();
            r.0 += 1;
            r.1 += event.len() as i128;
        };
        add(&mut want_tp, format!("user_events:{name}"));
        let provider = &name[..name.rfind("_L").unwrap()];
        add(&mut want_provider, provider.to_string());
        let event_name = testkit::capture::event_name(event).unwrap();
        add(&mut want_event, format!("{provider}:{event_name}"));
    }
    let path = reference_dir().join("EventHeaderInterceptorLE64.dat");
    let j = stats_json(&[path.to_str().unwrap()]);
    assert_eq!(int(j.get("total").unwrap(), "count"), records.len() as i128);
    assert_eq!(rows(&j, "tracepoints", "tracepoint"), want_tp);
    assert_eq!(rows(&j, "providers", "provider"), want_provider);
    // Events of one name under several tracepoints: summed.
    let mut got_event: BTreeMap<String, (i128, i128)> = BTreeMap::new();
    for e in j.get("events").unwrap().as_array() {
        let r = got_event
            .entry(e.get("name").unwrap().as_str().unwrap().to_string())
            .or_default();
        r.0 += int(e, "count");
        r.1 += int(e, "bytes");
    }
    assert_eq!(got_event, want_event);
    // A capture file has no time.
    assert_eq!(j.get("total").unwrap().get("first"), Some(&J::Null));
}

/// The reference perf.data and pipe.data (normal and pipe mode): per event
/// name and per process, the counts of the reference decoder's output.
#[test]
fn reference_perf_data_matches_the_reference_decoder() {
    for file in ["perf.data", "pipe.data"] {
        reference_file_matches(file);
    }
}

fn reference_file_matches(file: &str) {
    let text = std::fs::read(reference_dir().join(format!("{file}.linux.json"))).unwrap();
    let text = String::from_utf8_lossy(&text);
    let mut want_names: BTreeMap<String, i128> = BTreeMap::new();
    let mut want_pids: BTreeMap<String, i128> = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with(" {\"n\":\"")) {
        let name = &line[7..];
        let name = &name[..name.find('"').unwrap()];
        *want_names.entry(name.to_string()).or_default() += 1;
        let pid = &line[line.rfind("\"pid\":").unwrap() + 6..];
        let pid = &pid[..pid.find(|c: char| !c.is_ascii_digit()).unwrap()];
        *want_pids.entry(pid.to_string()).or_default() += 1;
    }
    assert!(want_names.values().sum::<i128>() > 500, "{file}");
    {
        let path = reference_dir().join(file);
        let j = stats_json(&["--by", "process", path.to_str().unwrap()]);
        let mut got: BTreeMap<String, i128> = BTreeMap::new();
        for e in j.get("events").unwrap().as_array() {
            // The reference names other tracepoints system:name.
            let key = match e.get("level") {
                Some(J::Null) => e.get("tracepoint"),
                _ => e.get("name"),
            };
            *got.entry(key.unwrap().as_str().unwrap().to_string())
                .or_default() += int(e, "count");
        }
        assert_eq!(got, want_names, "{file}");
        let pids: BTreeMap<String, i128> = rows(&j, "processes", "pid")
            .into_iter()
            .map(|(k, v)| (k, v.0))
            .collect();
        assert_eq!(pids, want_pids, "{file}");
        let first = &text[text.find("\"time\":\"").unwrap() + 8..];
        let first = &first[..first.find('"').unwrap()];
        assert_eq!(
            j.get("total").unwrap().get("first").unwrap().as_str(),
            Some(first),
            "{file}"
        );
    }
}

/// decode's filters apply: what they leave out is counted as filtered.
#[test]
fn filters_apply() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.dat");
    let mut data = Vec::new();
    let burst = burst_records(3);
    for (name, event) in &burst {
        capture_record(&mut data, name, event);
    }
    for (name, event) in reference_records().iter().take(10) {
        capture_record(&mut data, name, event);
    }
    std::fs::write(&path, &data).unwrap();
    let p = path.to_str().unwrap();
    let j = stats_json(&["--provider", "CliBurst", p]);
    assert_eq!(int(j.get("total").unwrap(), "count"), 3);
    assert_eq!(int(&j, "filtered"), 10);
    let j = stats_json(&["--event", "Burst", "--event", "nothing", p]);
    assert_eq!(int(j.get("total").unwrap(), "count"), 3);
    // A capture file has no pids: --pid leaves everything out.
    let j = stats_json(&["--pid", "1", p]);
    assert_eq!(int(j.get("total").unwrap(), "count"), 0);
    assert_eq!(int(&j, "filtered"), 13);
}

/// --tid and --cpu on a recording whose samples are known: tid 4243, CPU
/// k % 4 for sample k (testkit::synth).
#[test]
fn thread_and_cpu_filters() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("burst.data");
    write_perf_data(&path, &burst_records(1000), 1000, true);
    let p = path.to_str().unwrap();
    let count = |args: &[&str]| {
        let mut all = args.to_vec();
        all.push(p);
        let j = stats_json(&all);
        (int(j.get("total").unwrap(), "count"), int(&j, "filtered"))
    };
    assert_eq!(count(&["--cpu", "1"]), (250, 750));
    assert_eq!(count(&["--cpu", "1", "--cpu", "3"]), (500, 500));
    assert_eq!(count(&["--tid", "4243"]), (1000, 0));
    assert_eq!(count(&["--tid", "4242"]), (0, 1000));
    assert_eq!(
        count(&["--tid", "4243", "--cpu", "0", "--pid", "4242"]),
        (250, 750)
    );
    // decode: the same events, each on its CPU.
    let out = run(&["decode", "--jsonl", "--cpu", "2", p]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 250);
    assert!(text.lines().all(|l| l.contains("\"cpu\": 2,")), "{text}");
    // A bad value names the option.
    let out = run(&["stats", "--cpu", "x", p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'--cpu <CPU>'"));
}

/// The table: one header line per section, every event name on a line of
/// its own, and an unreadable input is exit status 1 with a message.
#[test]
fn table_and_errors() {
    let path = reference_dir().join("EventHeaderInterceptorLE64.dat");
    let out = run(&["stats", path.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("events: 374, bytes: 25267,"), "{text}");
    for title in ["EVENT  [TRACEPOINT]", "TRACEPOINT", "PROVIDER", "LEVEL"] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with("COUNT") && l.ends_with(title)),
            "{title}: {text}"
        );
    }
    let out = run(&["stats", "/nonexistent/x.dat"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("/nonexistent/x.dat: No such file"), "{err}");
    // A malformed EventHeader event is counted and makes the status 1.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.dat");
    let mut data = Vec::new();
    capture_record(&mut data, "P_L5K1", &[1, 2]);
    std::fs::write(&bad, &data).unwrap();
    let out = run(&["stats", "--format", "json", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let j = parse(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(int(&j, "malformed"), 1);
    assert_eq!(int(j.get("total").unwrap(), "count"), 1);
}

/// --time is decode's window: relative bounds count from the input's first
/// event in time order (here the second sample of the file), absolute ones
/// are RFC 3339; an event without a time is outside a bounded window.
#[test]
fn time_window_is_decodes() {
    use testkit::synth::{write_perf_data_timed, TimedSample};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("timed.data");
    // Seconds after 2024-03-28T00:00:10Z, in file order.
    let offsets = [2u64, 0, 1, 3, 4];
    let samples: Vec<TimedSample> = burst_records(5)
        .into_iter()
        .zip(offsets)
        .map(|((name, event), s)| TimedSample {
            name,
            event,
            pid: 7,
            tid: 7,
            time: (10 + s) * 1_000_000_000,
        })
        .collect();
    write_perf_data_timed(&path, &samples);
    let p = path.to_str().unwrap();
    let count = |window: &str| {
        let j = stats_json(&["--time", window, p]);
        (int(j.get("total").unwrap(), "count"), int(&j, "filtered"))
    };
    let decoded = |window: &str| {
        let out = run(&["decode", "--jsonl", "--time", window, p]);
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap().lines().count() as i128
    };
    for (window, want) in [
        ("1,3", (3, 2)),
        ("3,", (2, 3)),
        (",0.5", (1, 4)),
        ("2024-03-28T00:00:11Z,", (4, 1)),
        ("2024-03-28T00:00:11Z,2024-03-28T02:00:12+02:00", (2, 3)),
        (",", (5, 0)),
    ] {
        assert_eq!(count(window), want, "--time {window}");
        assert_eq!(decoded(window), want.0, "decode --time {window}");
    }
    let j = stats_json(&["--time", "1,3", p]);
    assert_eq!(
        j.get("total").unwrap().get("first").unwrap().as_str(),
        Some("2024-03-28T00:00:11.000000000Z")
    );
    // The reference capture has no time: a bounded window keeps nothing.
    let capture = reference_dir().join("EventHeaderInterceptorLE64.dat");
    let j = stats_json(&["--time", "0,", capture.to_str().unwrap()]);
    assert_eq!(int(j.get("total").unwrap(), "count"), 0);
    assert_eq!(int(&j, "filtered"), 374);
    // A bad window names the option.
    let out = run(&["stats", "--time", "soon,", p]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--time"));
}

/// Total instructions (callgrind's Ir) of `eventheader ARGS... FILE`.
fn instructions(args: &[&str], file: &std::path::Path, out: &std::path::Path) -> u64 {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_eventheader"));
    cmd.args(args).arg(file);
    testkit::callgrind::total_instructions(&cmd, out)
}

/// stats costs at most a quarter of `decode --format jsonl`'s instructions
/// per event on a capture of bursts (stats at least 4x as fast, in a
/// measure that does not depend on the machine's load): per event is
/// (Ir(2N) - Ir(N)) / N, so that start-up does not count.
#[test]
fn stats_costs_a_quarter_of_decode_per_event() {
    if !testkit::optional(
        testkit::available("valgrind"),
        "REQUIRE_VALGRIND",
        "valgrind (stats' instructions per event)",
    ) {
        return;
    }
    const N: u32 = 5000;
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for n in [N, 2 * N] {
        let mut data = Vec::new();
        for (name, event) in &burst_records(n) {
            capture_record(&mut data, name, event);
        }
        let path = dir.path().join(format!("burst-{n}.dat"));
        std::fs::write(&path, &data).unwrap();
        files.push(path);
    }
    let per_event = |args: &[&str]| {
        let ir = |k: usize| instructions(args, &files[k], &dir.path().join(format!("cg.{k}")));
        (ir(1) as f64 - ir(0) as f64) / f64::from(N)
    };
    let stats = per_event(&["stats", "--no-progress"]);
    let decode = per_event(&[
        "decode",
        "--format",
        "jsonl",
        "--no-progress",
        "-o",
        "/dev/null",
    ]);
    eprintln!("instructions per event: stats {stats:.1}, decode --format jsonl {decode:.1}");
    assert!(stats > 0.0, "stats {stats}");
    assert!(
        decode >= 4.0 * stats,
        "stats {stats:.1} instructions per event, decode --format jsonl {decode:.1}: less than 4x"
    );
}
