//! Judges what `cli/tests/vm/guest.sh` recorded in a user_events VM:
//!
//! ```text
//! EVENTHEADER_VM_RESULTS=/path/to/results cargo test --test vm_results
//! ```
//!
//! (`cli/tests/vm/run.sh` builds, boots the VM and runs this.) Without the
//! variable there is nothing to judge and every test returns at once, saying
//! so; with it, missing or incomplete results fail.
//!
//! Expected values come from the programs that wrote the events: `cli_writer.c`
//! and the reference's tracepoint-provider.h test program (`tpp_all.h` in the
//! shared reference data), not from the CLI's own output.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{parse, run, J};
use tracepoint_decode as td;
use tracepoint_perf as tp;

const VAR: &str = "EVENTHEADER_VM_RESULTS";

/// The results directory, or None when the variable is not set.
fn results() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os(VAR) else {
        eprintln!("{VAR} is not set: no VM results to check (cli/tests/vm/run.sh runs the VM and this test)");
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.join("done").is_file(),
        "{VAR}={}: no complete results (no 'done' file): the guest script did not finish",
        dir.display()
    );
    Some(dir)
}

fn read(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// RESULTS/status as a map NAME -> RC.
fn statuses(dir: &Path) -> BTreeMap<String, i32> {
    read(dir, "status")
        .lines()
        .filter_map(|l| {
            let (name, rc) = l.split_once(' ')?;
            Some((name.to_string(), rc.trim().parse().ok()?))
        })
        .collect()
}

fn status(dir: &Path, name: &str) -> i32 {
    *statuses(dir)
        .get(name)
        .unwrap_or_else(|| panic!("no status for step {name}"))
}

fn jsonl(text: &str) -> Vec<J> {
    text.lines().filter(|l| !l.is_empty()).map(parse).collect()
}

/// Decodes a file of the results here on the host: a recording made in the
/// VM must decode elsewhere. Returns (events, stderr).
fn decode_here(path: &Path, meta: &str) -> (Vec<J>, String) {
    let out = run(&["decode", "--jsonl", "--meta", meta, path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "decode {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    (
        jsonl(&String::from_utf8(out.stdout).unwrap()),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn num(v: &J) -> i128 {
    match v {
        J::Num(n) => n.to_string().parse().unwrap(),
        other => panic!("not an integer: {other:?}"),
    }
}

#[test]
fn every_step_exits_with_its_documented_status() {
    let Some(dir) = results() else { return };
    let want: &[(&str, &[i32])] = &[
        ("env", &[0]),
        ("collect", &[0]),
        // SIGTERM ends the wait; every definition registered.
        ("register", &[0]),
        ("capture", &[0]),
        ("collect.decode", &[0]),
        ("capture.decode", &[0]),
        ("collect.decode-json", &[0]),
        ("collect.perf-script", &[0]),
        ("single.record", &[0]),
        ("single-pipe.record", &[0]),
        ("single.register", &[0]),
        ("single.decode", &[0]),
        ("single-pipe.decode", &[0]),
        ("persist", &[0]),
        ("gone", &[0]),
        // 6 = events lost; judged against the counts below.
        ("burst", &[0, 6]),
        ("burst-small", &[0, 6]),
        ("err.nouser.register", &[4]),
        ("err.nouser.collect", &[4]),
        ("err.perm.register", &[5]),
        ("err.perm.collect", &[5]),
        ("err.badname", &[3]),
        ("err.nosuch", &[3]),
        ("err.usage", &[2]),
        ("err.cmdfail", &[7]),
        ("err.nocmd", &[1]),
    ];
    let got = statuses(&dir);
    let mut wrong = Vec::new();
    for (name, ok) in want {
        match got.get(*name) {
            Some(rc) if ok.contains(rc) => {}
            other => wrong.push(format!("{name}: {other:?}, expected one of {ok:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "steps with other statuses:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn errors_say_what_is_wrong() {
    let Some(dir) = results() else { return };
    for (file, needle) in [
        (
            "err.nouser.register.err",
            "user_events is not available: tracefs is not mounted",
        ),
        ("err.nouser.collect.err", "tracefs is not mounted"),
        (
            "err.perm.register.err",
            "permission denied opening user_events_data",
        ),
        ("err.perm.collect.err", "permission denied"),
        ("err.badname.err", "eventheader name \"Bad_L\""),
        (
            "err.nosuch.err",
            "no tracepoint user_events:NoSuchPlainTracepoint",
        ),
        ("err.usage.err", "no tracepoint definitions given"),
        ("err.cmdfail.err", "collect: false exit status: 1"),
        ("err.nocmd.err", "cannot run /nonexistent/program"),
    ] {
        let text = read(&dir, file);
        assert!(
            text.contains(needle),
            "{file}: expected {needle:?}, got:\n{text}"
        );
    }
}

#[test]
fn register_pre_registers_until_it_is_signalled() {
    let Some(dir) = results() else { return };
    let defs = read(&dir, "register.defs");
    let want: Vec<&str> = defs.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(
        want.len(),
        16,
        "2 EventHeader + 14 tracepoint-provider.h definitions"
    );
    let names = read(&dir, "register.names");
    assert_eq!(
        names.lines().collect::<Vec<_>>(),
        want,
        "names printed by register"
    );
    let tracefs = read(&dir, "register.tracefs");
    for name in &want {
        assert!(
            tracefs.lines().any(|l| l == *name),
            "{name} not in tracefs while registered"
        );
    }
    let format = read(&dir, "register.format");
    for field in [
        "field:u8 eventheader_flags;",
        "field:u8 version;",
        "field:u16 id;",
        "field:u16 tag;",
        "field:u8 opcode;",
        "field:u8 level;",
    ] {
        assert!(
            format.contains(field),
            "CliTest_L4K1 format lacks {field}:\n{format}"
        );
    }
    let after = read(&dir, "register.after");
    assert!(
        !after.lines().any(|l| want.contains(&l)),
        "tracepoints still registered after register exited:\n{after}"
    );
}

/// cli_writer eh 50: Start, then 50 x (Hello i, Data 2i i/2), then Stop.
#[test]
fn collect_records_what_the_program_writes_and_decodes_like_capture_mode() {
    let Some(dir) = results() else { return };
    let collected = read(&dir, "collect.decode.out");
    let captured = read(&dir, "capture.decode.out");
    let eh = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("\"CliTest:"))
            .map(str::to_string)
            .collect()
    };
    let (collected_eh, captured_eh) = (eh(&collected), eh(&captured));
    assert_eq!(collected_eh.len(), 102);
    assert!(
        collected_eh == captured_eh,
        "decode of the collect recording differs from decode of capture mode"
    );
    let events = jsonl(&collected_eh.join("\n"));
    let name = |e: &J| e.get("n").and_then(J::as_str).unwrap().to_string();
    assert_eq!(name(&events[0]), "CliTest:Start");
    assert_eq!(name(&events[101]), "CliTest:Stop");
    let activity = J::Str("01020304-0506-0708-090a-0b0c0d0e0f10".into());
    for e in [&events[0], &events[101]] {
        assert_eq!(
            e.get("meta").and_then(|m| m.get("activity")),
            Some(&activity)
        );
    }
    for i in 0..50 {
        let (hello, data) = (&events[1 + 2 * i], &events[2 + 2 * i]);
        assert_eq!(name(hello), "CliTest:Hello");
        assert_eq!(num(hello.get("i").unwrap()), i as i128);
        assert_eq!(hello.get("msg").and_then(J::as_str), Some("hello"));
        assert_eq!(name(data), "CliTest:Data");
        assert_eq!(num(data.get("twice").unwrap()), 2 * i as i128);
        match data.get("half") {
            Some(J::Num(n)) => assert_eq!(n.as_f64(), Some(i as f64 / 2.0)),
            other => panic!("half: {other:?}"),
        }
        assert_eq!(
            hello.get("meta").and_then(|m| m.get("level")).map(num),
            Some(4)
        );
    }
    let err = read(&dir, "collect.err");
    assert!(err.contains("collect: 116 events"), "collect.err:\n{err}");
}

/// The tracepoint-provider.h events (values from tpp_all.h), decoded through
/// the tracefs formats in the recording.
#[test]
fn plain_tracepoints_decode_through_the_recorded_formats() {
    let Some(dir) = results() else { return };
    let (events, _) = decode_here(&dir.join("collect.data"), "none");
    let by_name: BTreeMap<String, J> = events
        .into_iter()
        .map(|e| (e.get("n").and_then(J::as_str).unwrap().to_string(), e))
        .collect();
    let pt = r#""pt": "FB FF FF FF 4D 00 00 00""#; // ta_point { -5, 77 }
    for lang in ["C", "CPP"] {
        let expect = [
            (format!("write_empty_{lang}"), String::new()),
            (
                format!("write_scalars_{lang}"),
                r#", "u8": 200, "s8": -100, "u16": 60000, "s16": -30000, "u32": 4000000000, "s32": -2000000000, "u64": 18000000000000000000, "s64": -9000000000000000000, "uptr": 4660, "sptr": -1"#.into(),
            ),
            (
                format!("write_strings_{lang}"),
                format!(r#", "str": "hello", "empty": "", "chars": "abcd", "bytes": [255, 0, 127], {pt}"#),
            ),
            (format!("fn_empty_{lang}"), String::new()),
            (
                format!("fn_scalars_{lang}"),
                r#", "u8": 1, "s8": -2, "u16": 3, "s16": -4, "u32": 5, "s32": -6, "u64": 7, "s64": -8, "uptr": 9, "sptr": -10"#.into(),
            ),
            (
                format!("fn_strings_{lang}"),
                format!(r#", "str": "from a function", "chars": "wxyz", "bytes": [255, 0, 127], {pt}"#),
            ),
            // The .NET runtime's layout. The kernel's format says signed:1
            // for the u8 arrays of __rel_loc fields, so 0xaa 0xbb 0xcc print
            // as -86 -69 -52.
            (
                format!("dotnet_event_{lang}"),
                r#", "event_id": 7, "payload": [16, 32, 48, 64, 80, 96], "meta": [-86, -69, -52]"#.into(),
            ),
        ];
        for (name, fields) in expect {
            let full = format!("user_events:{name}");
            let got = by_name
                .get(&full)
                .unwrap_or_else(|| panic!("no {full} in the recording"));
            let got = &hex_bytes_as_numbers(got, "bytes");
            let want = parse(&format!(r#"{{ "n": "{full}"{fields} }}"#));
            assert_eq!(got, &want, "{full}");
        }
    }
    assert_eq!(
        by_name.len(),
        4 + 14,
        "CliTest's four event names + 14 plain tracepoints"
    );
}

/// The 6.12 kernel's format file sometimes shows a random length for a
/// fixed array of a user_events tracepoint (seen: `unsigned char
/// bytes[16595392]; offset:20; size:3;`, another run `bytes[]`). With a
/// length that contradicts the size, tracepoint_decode shows the field's
/// bytes as a hex dump ("FF 00 7F") instead of numbers ([255, 0, 127]): the
/// same bytes, which is what is compared.
fn hex_bytes_as_numbers(event: &J, field: &str) -> J {
    let J::Obj(members) = event else {
        return event.clone();
    };
    J::Obj(
        members
            .iter()
            .map(|(k, v)| match v {
                J::Str(hex) if k == field => (
                    k.clone(),
                    J::Arr(
                        hex.split(' ')
                            .map(|b| J::Num(u8::from_str_radix(b, 16).unwrap().into()))
                            .collect(),
                    ),
                ),
                _ => (k.clone(), v.clone()),
            })
            .collect(),
    )
}

#[test]
fn perf_script_reads_the_collect_recording() {
    let Some(dir) = results() else { return };
    let out = read(&dir, "collect.perf-script.out");
    let count = |what: &str| out.lines().filter(|l| l.contains(what)).count();
    assert_eq!(count("user_events:CliTest_L4K1:"), 52);
    assert_eq!(count("user_events:CliTest_L5K2:"), 50);
    assert_eq!(count("user_events:write_scalars_C:"), 1);
    assert!(
        out.contains("u8=200") && out.contains("u32=4000000000") && out.contains("event_id=7"),
        "perf script shows the plain fields"
    );
    assert_eq!(
        out.lines().filter(|l| l.contains("user_events:")).count(),
        116
    );
    let err = read(&dir, "collect.perf-script.err");
    assert!(!err.contains("Error"), "perf script complained:\n{err}");
    // The recording decodes the same here as in the VM (its formats and
    // clock data travel with it).
    let here = run(&["decode", dir.join("collect.data").to_str().unwrap()]);
    assert_eq!(
        String::from_utf8_lossy(&here.stdout),
        read(&dir, "collect.decode-json.out"),
        "decode on the host differs from decode in the VM"
    );
}

/// `perf record` of one event writes samples without ids; every sample is
/// that event. (The reference's decoder prints "GetSampleEventInfo error 61"
/// for each and nothing else.)
#[test]
fn single_event_perf_records_decode_completely() {
    let Some(dir) = results() else { return };
    for (file, has_ids) in [("single.data", false), ("single-pipe.data", true)] {
        let path = dir.join(file);
        // What makes the file hard: tracepoint_perf cannot attribute its
        // samples by id (normal mode). In pipe mode perf adds PERF_SAMPLE_ID.
        let mut reader = tp::PerfDataFileReader::new();
        reader
            .open_file(path.to_str().unwrap(), tp::PerfDataFileEventOrder::File)
            .unwrap();
        let mut samples = 0;
        let mut unattributed = 0;
        while reader.move_next_event().unwrap() {
            let event = reader.current_event();
            if event.header.ty == td::PerfEventHeaderType::Sample {
                samples += 1;
                unattributed += reader.get_sample_event_info(&event).is_err() as usize;
            }
        }
        assert_eq!(samples, 100, "{file}");
        assert_eq!(
            unattributed,
            if has_ids { 0 } else { 100 },
            "{file}: samples without ids"
        );

        let (events, err) = decode_here(&path, "default");
        assert!(err.is_empty(), "{file}: {err}");
        assert_eq!(events.len(), 100, "{file}");
        for (i, e) in events.iter().enumerate() {
            assert_eq!(
                e.get("n").and_then(J::as_str),
                Some("CliSingle:One"),
                "{file}"
            );
            assert_eq!(num(e.get("i").unwrap()), i as i128, "{file}");
        }
        let guest = read(&dir, &file.replace(".data", ".decode.out"));
        assert_eq!(jsonl(&guest).len(), 100, "{file} decoded in the VM");
    }
}

#[test]
fn persist_outlives_the_tool() {
    let Some(dir) = results() else { return };
    assert_eq!(read(&dir, "persist.out").trim(), "CliPersist_L5K1");
    assert!(read(&dir, "persist.after")
        .lines()
        .any(|l| l == "CliPersist_L5K1"));
    assert!(read(&dir, "persist.format").contains("field:u8 eventheader_flags;"));
    assert_eq!(read(&dir, "gone.out").trim(), "CliGone_L5K1");
    assert!(
        !read(&dir, "gone.after")
            .lines()
            .any(|l| l == "CliGone_L5K1"),
        "without --persist the tracepoint must go with the tool"
    );
}

/// 10^5 events: every one is in the file or counted as lost, by collect and
/// in the file; exit status 6 exactly when some were lost.
#[test]
fn bursts_account_for_every_event() {
    let Some(dir) = results() else { return };
    for name in ["burst", "burst-small"] {
        let (events, err) = decode_here(&dir.join(format!("{name}.data")), "none");
        let recorded = events.len() as u64;
        let mut seen = std::collections::BTreeSet::new();
        for e in &events {
            assert_eq!(e.get("n").and_then(J::as_str), Some("CliBurst:Burst"));
            assert!(
                seen.insert(num(e.get("i").unwrap())),
                "{name}: an event twice"
            );
        }
        let lost_in_file: u64 = err
            .split("the recording lost ")
            .nth(1)
            .map_or(0, |s| s.split(' ').next().unwrap().parse().unwrap());
        let collect_err = read(&dir, &format!("{name}.err"));
        let said_recorded: u64 = collect_err
            .split("collect: ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        let said_lost: u64 = collect_err
            .split("the kernel lost ")
            .nth(1)
            .map_or(0, |s| s.split(' ').next().unwrap().parse().unwrap());
        eprintln!("{name}: {recorded} events recorded, {lost_in_file} lost");
        assert_eq!(recorded + lost_in_file, 100_000, "{name}: recorded + lost");
        assert_eq!(
            (said_recorded, said_lost),
            (recorded, lost_in_file),
            "{name}: collect's own counts"
        );
        assert_eq!(
            status(&dir, name),
            if lost_in_file > 0 { 6 } else { 0 },
            "{name}: exit status"
        );
        assert!(read(&dir, &format!("{name}.out")).contains("wrote 100000"));
    }
}
