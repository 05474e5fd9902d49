//! `eventheader decode` on this machine: inputs it recognizes, its output
//! forms, metadata selection, recordings without sample ids, bad input.

mod common;

use common::{capture_record, reference_dir, reference_records, run, stdout};
use testkit::json::{parse, J};
use testkit::perf::COMMON_FIELDS;
use testkit::synth::{write_perf_data, write_perf_data_with};

/// The EventHeader metadata both capture files and perf.data carry.
const EH_META: &str = "id,version,level,keyword,opcode,tag,activity,related";

/// A perf.data whose samples carry no event id (what perf writes when it
/// records a single event) decodes completely: every sample is that event,
/// decoded exactly as the same events from a capture file.
#[test]
fn samples_without_ids_are_the_single_event() {
    let dir = tempfile::tempdir().unwrap();
    let all = reference_records();
    // The reference suite's busiest tracepoint.
    let name = "TestProviderCpp_L5K0";
    let records: Vec<_> = all.iter().filter(|(n, _)| n == name).cloned().collect();
    assert_eq!(
        records.len(),
        139,
        "events of {name} in the reference capture"
    );

    let perf = dir.path().join("single.data");
    write_perf_data(&perf, &records, records.len(), false);
    let cap = dir.path().join("single.dat");
    let mut bytes = Vec::new();
    for (n, e) in &records {
        capture_record(&mut bytes, n, e);
    }
    std::fs::write(&cap, bytes).unwrap();

    let from_perf = stdout(&[
        "decode",
        "--jsonl",
        "--meta",
        EH_META,
        perf.to_str().unwrap(),
    ]);
    let from_capture = stdout(&[
        "decode",
        "--jsonl",
        "--meta",
        EH_META,
        cap.to_str().unwrap(),
    ]);
    assert_eq!(from_perf.lines().count(), 139);
    assert!(
        from_perf == from_capture,
        "single-event perf.data decodes differently from its capture"
    );

    // Default metadata: the sample's pid/cpu/time are there too.
    let first = parse(
        stdout(&["decode", "--jsonl", perf.to_str().unwrap()])
            .lines()
            .next()
            .unwrap(),
    );
    let meta = first.get("meta").unwrap();
    assert_eq!(meta.get("pid"), Some(&J::Num(4242.into())));
    assert_eq!(meta.get("tid"), Some(&J::Num(4243.into())));
    assert!(meta.get("time").is_some());
}

/// With sample ids and every tracepoint of the suite, decode of the perf.data
/// equals decode of the capture file (also a check of the test's writer).
#[test]
fn perf_data_decodes_like_its_capture() {
    let dir = tempfile::tempdir().unwrap();
    let records = reference_records();
    let perf = dir.path().join("all.data");
    write_perf_data(&perf, &records, records.len(), true);
    let cap = reference_dir().join("EventHeaderInterceptorLE64.dat");
    for order in ["time", "file"] {
        let a = stdout(&[
            "decode",
            "--jsonl",
            "--order",
            order,
            "--meta",
            EH_META,
            perf.to_str().unwrap(),
        ]);
        let b = stdout(&[
            "decode",
            "--jsonl",
            "--meta",
            EH_META,
            cap.to_str().unwrap(),
        ]);
        assert_eq!(a.lines().count(), 374);
        assert!(
            a == b,
            "--order {order}: perf.data decodes differently from the capture"
        );
    }
}

/// One JSON array of events for one input; for several, one array holding
/// an array per input, in input order (an input that cannot be read keeps
/// its place as an empty array); with --jsonl one object per line.
#[test]
fn output_forms() {
    let dir = reference_dir();
    let dat = dir.join("EventHeaderInterceptorLE64.dat");
    let perf = dir.join("perf.data");
    let one = parse(&stdout(&["decode", dat.to_str().unwrap()]));
    assert_eq!(one.as_array().len(), 374);
    assert!(matches!(one.as_array()[0], J::Obj(_)));
    let text = stdout(&["decode", dat.to_str().unwrap(), perf.to_str().unwrap()]);
    let inputs = parse(&text);
    assert_eq!(inputs.as_array().len(), 2);
    assert_eq!(inputs.as_array()[0].as_array().len(), 374);
    assert_eq!(inputs.as_array()[1].as_array().len(), 539);
    assert_eq!(inputs.as_array()[0], one);
    let out = run(&[
        "decode",
        "/nonexistent/input",
        dat.to_str().unwrap(),
        "/nonexistent/input",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let inputs = parse(&String::from_utf8(out.stdout).unwrap());
    let lens: Vec<usize> = inputs
        .as_array()
        .iter()
        .map(|a| a.as_array().len())
        .collect();
    assert_eq!(lens, [0, 374, 0], "each input keeps its position");
    let lines = stdout(&[
        "decode",
        "--jsonl",
        dat.to_str().unwrap(),
        perf.to_str().unwrap(),
    ]);
    assert_eq!(lines.lines().count(), 374 + 539);
    for line in lines.lines() {
        assert!(matches!(parse(line), J::Obj(_)), "{line}");
    }
    // An empty input is an empty array.
    let empty = tempfile::NamedTempFile::new().unwrap();
    assert_eq!(stdout(&["decode", empty.path().to_str().unwrap()]), "[]\n");
    // -o writes the same to a file.
    let out = tempfile::NamedTempFile::new().unwrap();
    assert_eq!(
        stdout(&[
            "decode",
            "-o",
            out.path().to_str().unwrap(),
            dat.to_str().unwrap()
        ]),
        ""
    );
    assert_eq!(
        std::fs::read_to_string(out.path()).unwrap(),
        stdout(&["decode", dat.to_str().unwrap()])
    );
}

/// A plain tracepoint with fields named like decode's own keys ("n",
/// "meta", as the .NET runtime's layout has): the fields keep their names,
/// the event name and the metadata object move to "n_" and "meta_", and no
/// key repeats in any event object.
#[test]
fn fields_named_like_the_decoders_keys() {
    fn format(name: &str, id: u32) -> String {
        format!(
            "name: {name}\nID: {id}\nformat:\n{COMMON_FIELDS}\
             \tfield:u32 n;\toffset:8;\tsize:4;\tsigned:0;\n\
             \tfield:u32 meta;\toffset:12;\tsize:4;\tsigned:0;\n\n\
             print fmt: \"n=%u meta=%u\", REC->n, REC->meta\n"
        )
    }
    let dir = tempfile::tempdir().unwrap();
    let perf = dir.path().join("keys.data");
    let event: Vec<u8> = [7u32, 9].iter().flat_map(|v| v.to_le_bytes()).collect();
    write_perf_data_with(&perf, &[("Plain_keys".into(), event)], 3, true, format);
    // all: the common_* fields too, before the event's own.
    for meta in ["default", "all"] {
        let events = parse(&stdout(&["decode", "--meta", meta, perf.to_str().unwrap()]));
        assert_eq!(events.as_array().len(), 3);
        for e in events.as_array() {
            assert_eq!(e.repeated_key(), None, "--meta {meta}: {e:?}");
            assert_eq!(
                e.get("n_").and_then(J::as_str),
                Some("user_events:Plain_keys")
            );
            assert_eq!(e.get("n").and_then(J::as_int), Some(7));
            assert_eq!(e.get("meta").and_then(J::as_int), Some(9));
            assert_eq!(
                e.get("meta_").and_then(|m| m.get("pid")),
                Some(&J::Num(4242.into()))
            );
        }
    }
    // Without a metadata object only the name steps aside.
    let line = stdout(&[
        "decode",
        "--jsonl",
        "--meta",
        "none",
        perf.to_str().unwrap(),
    ]);
    assert_eq!(
        line.lines().next(),
        Some(r#"{ "n_": "user_events:Plain_keys", "n": 7, "meta": 9 }"#)
    );
}

fn meta_keys(text: &str) -> Vec<String> {
    let events = parse(text);
    let mut keys: Vec<String> = Vec::new();
    for e in events.as_array() {
        if let Some(J::Obj(m)) = e.get("meta") {
            for (k, _) in m {
                if !keys.contains(k) {
                    keys.push(k.clone());
                }
            }
        }
    }
    keys.sort();
    keys
}

#[test]
fn metadata_selection() {
    let perf = reference_dir().join("perf.data");
    let p = perf.to_str().unwrap();
    let keys = |meta: &str| meta_keys(&stdout(&["decode", "--meta", meta, p]));
    assert_eq!(
        keys("default"),
        [
            "activity",
            "cpu",
            "id",
            "keyword",
            "level",
            "opcode",
            "pid",
            "relatedActivity",
            "tag",
            "tid",
            "time",
            "version"
        ]
    );
    assert_eq!(keys("time,cpu"), ["cpu", "time"]);
    assert_eq!(keys("pid,tid"), ["pid", "tid"]);
    assert_eq!(keys("level,keyword"), ["keyword", "level"]);
    assert_eq!(keys("activity,related"), ["activity", "relatedActivity"]);
    assert_eq!(keys("provider,event"), ["event", "provider"]);
    assert!(keys("none").is_empty());
    assert!(!stdout(&["decode", "--meta", "none", p]).contains("\"meta\""));
    // common: the tracefs common_* fields of plain tracepoints, before their own.
    let text = stdout(&["decode", "--jsonl", "--meta", "common", p]);
    let sched = text
        .lines()
        .find(|l| l.contains("sched:sched_switch"))
        .unwrap();
    assert!(
        sched.contains("\"common_pid\": ") && sched.find("common_type") < sched.find("prev_comm")
    );
    let out = run(&["decode", "--meta", "bogus", p]);
    assert_eq!(out.status.code(), Some(2));
}

/// Malformed input: what precedes the damage is still decoded, the exit status
/// is 1, and the other inputs are decoded.
#[test]
fn malformed_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let records = reference_records();
    let mut bytes = Vec::new();
    for (n, e) in &records[..3] {
        capture_record(&mut bytes, n, e);
    }
    // A record claiming more bytes than the file has.
    bytes.extend_from_slice(&1000u32.to_le_bytes());
    bytes.extend_from_slice(b"X_L5K1\0\x01");
    let bad = dir.path().join("truncated.dat");
    std::fs::write(&bad, &bytes).unwrap();
    // An EventHeader tracepoint name with bytes that are no EventHeader event,
    // and a plain tracepoint (no format in a capture file).
    let mut odd = Vec::new();
    capture_record(&mut odd, "P_L5K1", &[1, 2, 3]);
    capture_record(&mut odd, "plain_tracepoint", &[9, 9]);
    let odd_path = dir.path().join("odd.dat");
    std::fs::write(&odd_path, &odd).unwrap();
    let good = reference_dir().join("EventHeaderInterceptorLE64.dat");

    let out = run(&[
        "decode",
        "--jsonl",
        bad.to_str().unwrap(),
        "/nonexistent/input",
        odd_path.to_str().unwrap(),
        good.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("exceeds the"), "{err}");
    assert!(err.contains("/nonexistent/input: No such file"), "{err}");
    assert!(err.contains("1 of 2 events malformed"), "{err}");
    assert!(err.contains("1 of 2 events not EventHeader"), "{err}");
    let lines: Vec<J> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(parse)
        .collect();
    assert_eq!(lines.len(), 3 + 2 + 374);
    assert_eq!(lines[3].get("n").and_then(J::as_str), Some("P_L5K1"));
    assert_eq!(lines[3].get("raw").and_then(J::as_str), Some("010203"));
    assert!(lines[3].get("error").is_some());
    assert_eq!(lines[4].get("raw").and_then(J::as_str), Some("0909"));
    assert!(lines[4].get("error").is_none());

    // A perf.data cut short.
    let perf = std::fs::read(reference_dir().join("pipe.data")).unwrap();
    let cut = dir.path().join("cut.data");
    std::fs::write(&cut, &perf[..perf.len() * 9 / 10]).unwrap();
    let out = run(&["decode", "--jsonl", cut.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("malformed event data after"));
    assert!(
        !out.stdout.is_empty(),
        "the events before the cut are decoded"
    );
}

/// `decode -` reads standard input: a capture file, a pipe-mode perf.data
/// and a normal-mode perf.data (copied to a temporary file first: its
/// formats follow its data), from a pipe and from a file, and decodes each
/// as the file itself.
#[test]
fn standard_input() {
    use std::io::Write;
    use std::process::Stdio;
    let dir = reference_dir();
    for name in ["EventHeaderInterceptorLE64.dat", "pipe.data", "perf.data"] {
        let path = dir.join(name);
        let want = stdout(&["decode", "--jsonl", path.to_str().unwrap()]);
        let bytes = std::fs::read(&path).unwrap();
        // From a pipe.
        let mut child = common::bin()
            .args(["decode", "--jsonl", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            // Small writes, as a producer that streams would make.
            for chunk in bytes.chunks(1000) {
                stdin.write_all(chunk).unwrap();
            }
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        assert!(
            out.status.success(),
            "{name} on a pipe: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8(out.stdout).unwrap() == want,
            "{name} on a pipe"
        );
        // From a file.
        let out = common::bin()
            .args(["decode", "--jsonl", "-"])
            .stdin(std::fs::File::open(&path).unwrap())
            .output()
            .unwrap();
        assert!(out.status.success(), "{name} from a file");
        assert!(
            String::from_utf8(out.stdout).unwrap() == want,
            "{name} from a file"
        );
    }
}

/// An output that is one of the inputs (the same file, by device and inode:
/// the same name, a hard link, or standard output redirected to it) is
/// refused before anything is written, with status 2; the input is intact.
#[test]
fn output_is_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("same.dat");
    std::fs::copy(
        reference_dir().join("EventHeaderInterceptorLE64.dat"),
        &input,
    )
    .unwrap();
    let link = dir.path().join("link.dat");
    std::fs::hard_link(&input, &link).unwrap();
    let before = std::fs::read(&input).unwrap();
    let (i, l) = (input.to_str().unwrap(), link.to_str().unwrap());
    for args in [
        &["decode", i, "-o", i][..],
        &["decode", i, "-o", l],
        &["decode", "--jsonl", "/nonexistent", i, "-o", l],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("is the input") && err.contains(i),
            "{args:?}: {err}"
        );
        assert_eq!(std::fs::read(&input).unwrap(), before, "{args:?}");
    }
    // Standard output appended to the input (a shell's `>>`, which does not
    // truncate it first).
    let out = common::bin()
        .args(["decode", i])
        .stdout(
            std::fs::OpenOptions::new()
                .append(true)
                .open(&link)
                .unwrap(),
        )
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard output is the input"));
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

/// A panic of tracepoint_decode 0.5.0 (perf_field_format.rs:141, "end
/// byte index 3 is not a char boundary; it is inside 'Ð' (bytes 2..4) of
/// `u8Ðversion`"): a recording whose tracefs format has a non-ASCII byte in
/// a field declaration (tests/data/format-not-ascii.data: 8 burst events,
/// "u8 version" changed to "u8\xd0version"). The format is refused with a
/// message, each event is written raw with an error, status 1.
#[test]
fn format_not_ascii() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/format-not-ascii.data");
    let out = run(&["decode", "--jsonl", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("is not ASCII (byte 0xd0"), "{err}");
    let lines: Vec<J> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(parse)
        .collect();
    assert_eq!(lines.len(), 8);
    for e in &lines {
        assert_eq!(
            e.get("n").and_then(J::as_str),
            Some("user_events:CliBurst_L5K1")
        );
        assert!(e.get("error").is_some(), "{e:?}");
    }
}

/// A file of another kind (C source, text) is named as such, not as a
/// capture file with a bad first record; an empty file is an empty capture.
#[test]
fn a_file_of_another_kind_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("app.c");
    std::fs::write(&src, "#include <stdio.h>\nint main(void) { return 0; }\n").unwrap();
    let out = run(&["decode", src.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!(
            "{}: not a capture file or perf.data (no PERFILE2 magic, and a first record of 1668180259 bytes in a file of 48)",
            src.display()
        )),
        "{err}"
    );
    // Through a pipe too (the size unknown: the name is what is wrong).
    let out = common::bin()
        .args(["decode", "-"])
        .stdin(std::fs::File::open(&src).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a capture file or perf.data"), "{err}");
    let empty = dir.path().join("empty.dat");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(
        run(&["decode", empty.to_str().unwrap()]).status.code(),
        Some(0)
    );
}

/// A count of one takes the singular noun: "1 of 1 event malformed", not
/// "1 of 1 events".
#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    let mut odd = Vec::new();
    capture_record(&mut odd, "P_L5K1", &[1, 2, 3]);
    let path = dir.path().join("one.dat");
    std::fs::write(&path, &odd).unwrap();
    let out = run(&["decode", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1 of 1 event malformed"), "{err}");
    assert!(!err.contains(" 1 events"), "{err}");
}

/// A capture of the timed layout (docs/format.md §7.4), written by
/// `c-tests/hardening/captimed.c` (`TRACEPOINT_CAPTURE_LAYOUT=timed
/// captimed FILE 2`): two events from each of two threads and from a
/// forked child, each carrying its writer's pid and tid ("wpid", "wtid")
/// and CLOCK_MONOTONIC just before the write ("before", ns).
fn timed_capture() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/timed-capture.dat")
}

/// decode shows a timed capture's time (seconds of CLOCK_MONOTONIC), pid
/// and tid, and `--pid` filters on them.
#[test]
fn timed_captures_show_time_pid_and_tid() {
    let path = timed_capture();
    let p = path.to_str().unwrap();
    let events = parse(&stdout(&["decode", "--meta", "time,pid,tid", p]));
    let events = events.as_array();
    assert_eq!(events.len(), 6);
    let mut pids = Vec::new();
    for e in events {
        let meta = e.get("meta").unwrap();
        let field = |k: &str| e.get(k).and_then(J::as_int).unwrap();
        let pid = meta.get("pid").and_then(J::as_int).unwrap();
        assert_eq!(pid, field("wpid"), "{e:?}");
        // tid is left out when it equals pid.
        let tid = meta.get("tid").and_then(J::as_int).unwrap_or(pid);
        assert_eq!(tid, field("wtid"), "{e:?}");
        let J::Num(time) = meta.get("time").unwrap() else {
            panic!("time is not a number: {e:?}");
        };
        let time = time.as_f64().unwrap();
        let before = field("before") as f64 / 1e9;
        assert!(time >= before && time < before + 1.0, "{e:?}");
        pids.push(pid);
    }
    let child = *pids.last().unwrap();
    assert_ne!(child, pids[0]);
    let only = parse(&stdout(&["decode", "--pid", &child.to_string(), p]));
    assert_eq!(only.as_array().len(), 2);
    assert!(only
        .as_array()
        .iter()
        .all(|e| e.get("wpid").and_then(J::as_int) == Some(child)));
    let out = run(&["decode", "--meta", "time,pid,tid", p]);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Both layouts decode, also mixed in one file, and so does a file written
/// before the timed layout existed (the reference's capture); asking such a
/// file for time, pid or tid warns once.
#[test]
fn both_capture_layouts_decode() {
    let dir = tempfile::tempdir().unwrap();
    let reference = std::fs::read(testkit::reference_capture()).unwrap();
    let timed = std::fs::read(timed_capture()).unwrap();
    let mixed = dir.path().join("mixed.dat");
    let mut bytes = reference.clone();
    bytes.extend_from_slice(&timed);
    bytes.extend_from_slice(&reference);
    std::fs::write(&mixed, &bytes).unwrap();
    let m = mixed.to_str().unwrap();
    let events = parse(&stdout(&["decode", "--meta", "pid,provider", m]));
    let events = events.as_array();
    assert_eq!(events.len(), 374 + 6 + 374);
    let with_pid = events
        .iter()
        .filter(|e| e.get("meta").and_then(|m| m.get("pid")).is_some())
        .count();
    assert_eq!(with_pid, 6);
    // The reference's records are unchanged by the timed ones around them.
    assert_eq!(events[..374], events[380..]);

    let reference = testkit::reference_capture();
    let r = reference.to_str().unwrap();
    let out = run(&["decode", "--meta", "time,pid,tid", r]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("carries no time, pid or tid").count(),
        1,
        "{stderr}"
    );
    let out = run(&["decode", "--pid", "1", r]);
    assert_eq!(
        parse(&String::from_utf8_lossy(&out.stdout))
            .as_array()
            .len(),
        0
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("carries no time, pid or tid"));
    // Not asked for by name: no warning.
    let out = run(&["decode", r]);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
