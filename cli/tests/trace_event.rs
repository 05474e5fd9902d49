//! `decode --format trace-event`: every output checked against the Trace
//! Event Format's rules by the validator (`testkit::trace_event`, `tests/testkit/src/trace_event.rs`): the
//! nested recording (slices on their threads, the cross-thread activity on
//! a virtual thread of its own), the reference's perf.data and capture file,
//! several inputs, hostile strings, and activities that do not match.

mod common;

use common::{capture_record, reference_dir, run};
use testkit::synth::{activity_event, write_perf_data_timed, TimedSample};
use testkit::trace_event::{check, nested_recording, Checked, NESTED_SLICES};

fn decode(args: &[&str]) -> (Checked, String, String) {
    let mut all = vec!["decode", "--format", "trace-event"];
    all.extend_from_slice(args);
    let out = run(&all);
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let checked = check(&stdout).unwrap_or_else(|e| panic!("{e}\n{stdout}"));
    (checked, stdout, stderr)
}

#[test]
fn nested_activities_are_slices_on_their_threads() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("nested.data");
    nested_recording(&data);
    let (c, text, stderr) = decode(&[data.to_str().unwrap()]);
    assert_eq!(stderr, "");
    assert_eq!(c.slices, 5);
    assert_eq!(c.instants, 3);
    let on = |name: &str| {
        let s: Vec<_> = c.spans.iter().filter(|s| s.2 == name).collect();
        assert_eq!(s.len(), 1, "{name}");
        s[0].clone()
    };
    // Times in µs from the first event, with ns precision.
    assert_eq!(
        on("Demo:Request"),
        (500, 500, "Demo:Request".into(), 0, 2_000_000)
    );
    assert_eq!(
        on("Demo:Parse"),
        (500, 500, "Demo:Parse".into(), 200_000, 700_000)
    );
    assert_eq!(on("Demo:Query").1, 501);
    assert_eq!(on("Demo:Fetch").1, 501);
    let handoff = on("Demo:Handoff");
    assert!(handoff.1 > 1 << 22, "{handoff:?}");
    assert_eq!(c.thread_names[&(500, handoff.1)], "Demo:Handoff");
    assert_eq!(NESTED_SLICES.iter().map(|s| s.len()).sum::<usize>(), 5);
    // Arguments: start and stop fields, the activity and its parent.
    assert!(
        text.contains("\"related\":\"01010101-0101-0101-0101-010101010101\",\"parent\":\"Demo:Request\",\"start\":{\"s\": \"headers\"},\"stop\":{\"s\": \"ok\"}"),
        "{text}"
    );
    assert!(text.contains("\"ts\":200.000,\"dur\":500.000"), "{text}");
}

#[test]
fn reference_recordings_and_several_inputs() {
    let dir = reference_dir();
    let perf = dir.join("perf.data");
    let pipe = dir.join("pipe.data");
    let capture = dir.join("EventHeaderInterceptorLE64.dat");
    let (c, _, _) = decode(&[perf.to_str().unwrap()]);
    assert!(c.instants > 100, "{c:?}");
    let (c, _, _) = decode(&[capture.to_str().unwrap()]);
    // Every event is an instant, or one end of a slice.
    assert_eq!(c.instants + 2 * c.slices, 374);
    let (all, _, _) = decode(&[
        perf.to_str().unwrap(),
        pipe.to_str().unwrap(),
        capture.to_str().unwrap(),
    ]);
    assert!(all.instants > c.instants);
}

#[test]
fn hostile_strings_stay_valid_json() {
    let hostile = "q\"}],{\\\u{1}\u{1f}\n\u{7f}\u{2028}\u{fffd}é";
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("hostile.data");
    let mut samples = Vec::new();
    for (i, (op, s)) in [(1u8, hostile), (0, hostile), (2, "x")].iter().enumerate() {
        let (name, mut event) = activity_event("Host", hostile, *op, [9; 16], [0; 16], s);
        if i == 1 {
            // Invalid UTF-8 in the string field: before its NUL.
            let at = event.len() - 1;
            event.splice(at..at, [0xff, 0xc3]);
        }
        samples.push(TimedSample {
            name,
            event,
            pid: 7,
            tid: 7,
            time: 1_000 + i as u64,
        });
    }
    // A malformed EventHeader event (written raw, with its error).
    samples.push(TimedSample {
        name: "Host_L5K1".into(),
        event: vec![7, 0, 0, 0, 0, 0, 0, 5, 0xff],
        pid: 7,
        tid: 8,
        time: 2_000,
    });
    write_perf_data_timed(&data, &samples);
    let out = run(&["decode", "--format", "trace-event", data.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let c = check(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let name = format!("Host:{hostile}");
    assert_eq!(c.names, [name.as_str()], "{text}");
    assert_eq!(c.instants, 2);
    let mut hostile_file = Vec::new();
    let (n, e) = activity_event("Host", hostile, 0, [0; 16], [0; 16], hostile);
    capture_record(&mut hostile_file, &n, &e);
    let cap = dir.path().join("hostile.dat");
    std::fs::write(&cap, hostile_file).unwrap();
    let (c, text, _) = decode(&[cap.to_str().unwrap()]);
    assert_eq!(c.instants, 1);
    assert!(text.contains(&"q\\\"}],{\\\\\\u0001".to_string()), "{text}");
}

#[test]
fn unmatched_activities_are_kept_and_reported() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("unmatched.data");
    let samples: Vec<TimedSample> = [(1u8, 1u8, 100u64), (2, 2, 200), (1, 3, 300)]
        .iter()
        .map(|&(op, id, time)| {
            let (name, event) = activity_event("Demo", "Step", op, [id; 16], [0; 16], "x");
            TimedSample {
                name,
                event,
                pid: 1,
                tid: 1,
                time,
            }
        })
        .collect();
    write_perf_data_timed(&data, &samples);
    let (c, text, stderr) = decode(&[data.to_str().unwrap()]);
    assert_eq!(c.slices, 0);
    assert_eq!(c.instants, 3);
    assert!(
        stderr.contains("2 activity start(s) without a stop, 1 stop(s) without a start"),
        "{stderr}"
    );
    assert!(
        text.contains("\"unmatchedStarts\":2,\"unmatchedStops\":1"),
        "{text}"
    );
}
