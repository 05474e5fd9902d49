//! Runtime-defined events: the C API `eventheader/eventheader-dynamic.h`
//! and the C++ API `eventheader/EventHeaderDynamic.h` over it.
//!
//! The C and C++ programs of `c-tests/dynamic/` (listed in `programs.toml` here) are
//! built with every toolchain and each standard of their language, run in
//! capture mode, and their captures checked:
//! - the reference suite's 114 runtime-defined events, byte for byte, once
//!   through the C++ API and once through the C API;
//! - feature events (every value size and format, strings of every character
//!   size, ranges, nested structs with bookmarks, arrays of structs, header
//!   values, activity ids): the same bytes from C and C++, decoded with
//!   `tracepoint_decode`, two of them also compared with bytes built here
//!   from the format description;
//! - the error contract (NULL and invalid arguments, ERANGE, ENOMEM, EBADF);
//! - 100 000 events through one builder: no allocation, no heap growth;
//! - threads;
//! - the samples of `samples/dynamic/` (C, C++ and Python).
//!
//! One trial per program, build and run (`testkit::trials`); the header
//! checks once per toolchain, the Python sample's checks once.

use std::collections::BTreeMap;
use std::process::Command;

use testkit::build::Config;
use testkit::cargo_tests::{self as support, build_once, Build, Flavour, Ran, Record};
use testkit::manifest;
use testkit::trials::{self, judge, judged_elsewhere, Judge};
use testkit::Toolchain;

// The programs (c-tests/dynamic/, samples/dynamic/) are described in this
// suite's part of the test-program manifest, programs.toml: dyn_reference(_cpp),
// dyn_features(_cpp), dyn_errors(_cpp), dyn_memory, dyn_threads,
// dyn_sample_c, dyn_sample_cpp. C programs are built as C11 and gnu11, C++
// ones as C++17 and C++20, with gcc and clang.

/// Whether a build is of a C++ program (its name ends in `_cpp`).
fn is_cpp(build: &Build) -> bool {
    build.program.name.ends_with("_cpp")
}

/// The JSON of one event (as the demo prints it).
fn json(record: &Record) -> String {
    support::decode::json(record).unwrap_or_else(|e| panic!("{e}"))
}

/// The number after the word `key` anywhere in the output.
fn value_after(stdout: &str, key: &str) -> u64 {
    stdout
        .split_whitespace()
        .skip_while(|w| *w != key)
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no \"{key} N\" in output:\n{stdout}"))
}

fn describe(record: &Record) -> String {
    format!(
        "{} / {}",
        record.name,
        support::event_name(&record.event).unwrap_or_else(|| "(no metadata)".into())
    )
}

// ---------------------------------------------------------------------------
// The reference suite's 114 events
// ---------------------------------------------------------------------------

/// dyn_reference, dyn_reference_exports, dyn_reference_cpp: the reference's
/// events, byte for byte; `--names` prints the one tracepoint.
fn reference_dynamic_events_are_byte_identical_through_cpp_and_c(build: &Build, ran: &Ran) {
    let want: Vec<Record> = support::reference_records()
        .into_iter()
        .filter(|r| r.name.starts_with("TestProviderDyn_"))
        .collect();
    assert_eq!(want.len(), 114, "reference TestProviderDyn event count");

    let mut report = Vec::new();
    let mut failures = Vec::new();
    let got = &ran.records;
    let same = got.iter().zip(&want).filter(|(g, w)| g == w).count();
    let api = if is_cpp(build) {
        "C++ API"
    } else if build.program.name.ends_with("_exports") {
        "C API, exported functions only"
    } else {
        "C API"
    };
    report.push(format!("{same}/114 ({api}: {})", build.label));
    if same != want.len() || got.len() != want.len() {
        let first = got.iter().zip(&want).position(|(g, w)| g != w);
        failures.push(format!(
            "{}: {same}/114 identical, {} records; first difference at {first:?}{}",
            build.label,
            got.len(),
            first.map_or(String::new(), |i| format!(
                ":\n  got  {} {:02x?}\n  want {} {:02x?}",
                describe(&got[i]),
                got[i].event,
                describe(&want[i]),
                want[i].event
            ))
        ));
    }
    for line in &report {
        println!("reference dynamic events: {line}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));

    // --names prints the one tracepoint.
    let output = testkit::cross::command(&build.exe)
        .arg("--names")
        .env_remove("TRACEPOINT_CAPTURE_FILE")
        .output()
        .expect("running dyn_reference --names");
    assert!(output.status.success(), "{}", build.label);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "TestProviderDyn_L5K1\n"
    );
}

// ---------------------------------------------------------------------------
// Feature events
// ---------------------------------------------------------------------------

/// Tracepoints of the feature events.
const SET_A: &str = "EhdFeatures_L5K1Gtests";
const SET_B: &str = "EhdFeatures_L2Kf00Gtests";

/// The feature events decoded: values typed from `features_data.h` and the
/// two programs. (By hand, the C++ program built against the reference
/// implementation wrote these same bytes.)
fn expected_features() -> Vec<(&'static str, String)> {
    let meta_a = r#""meta": { "level": 5, "keyword": "0x1" }"#;
    let meta_b = r#""meta": { "level": 2, "keyword": "0xF00" }"#;
    let hex16 = "00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF";
    let v64 = "9332165983064197000";
    let values = [
        // 1 byte: 0x81.
        "\"default\": 129, \"unsigned_int;tag=0x101\": 129, \"signed_int;tag=0x102\": -127, \
         \"hex_int\": \"0x81\", \"errno;tag=0x104\": 129, \"pid;tag=0x105\": 129, \"time\": 129, \
         \"boolean;tag=0x107\": \"BOOL(129)\", \"float;tag=0x108\": 129, \"hex_bytes\": \"81\", \
         \"string8;tag=0x10A\": \"\u{81}\", \"string_utf;tag=0x10B\": 129, \"string_utf_bom\": 129, \
         \"string_xml;tag=0x10D\": 129, \"string_json;tag=0x10E\": 129, \"uuid\": 129, \
         \"port;tag=0x110\": 129, \"ip_address;tag=0x111\": 129, \"ip_address_obsolete\": 129"
            .to_string(),
        // 2 bytes: 0x8182 (ports are big-endian: 0x8281).
        "\"default\": 33154, \"unsigned_int;tag=0x101\": 33154, \"signed_int;tag=0x102\": -32382, \
         \"hex_int\": \"0x8182\", \"errno;tag=0x104\": 33154, \"pid;tag=0x105\": 33154, \"time\": 33154, \
         \"boolean;tag=0x107\": \"BOOL(33154)\", \"float;tag=0x108\": 33154, \"hex_bytes\": \"82 81\", \
         \"string8;tag=0x10A\": 33154, \"string_utf;tag=0x10B\": \"\u{8182}\", \"string_utf_bom\": 33154, \
         \"string_xml;tag=0x10D\": 33154, \"string_json;tag=0x10E\": 33154, \"uuid\": 33154, \
         \"port;tag=0x110\": 33409, \"ip_address;tag=0x111\": 33154, \"ip_address_obsolete\": 33154"
            .to_string(),
        // 4 bytes: 0x7f000001 (an IPv4 address is in network byte order).
        "\"default\": 2130706433, \"unsigned_int;tag=0x101\": 2130706433, \
         \"signed_int;tag=0x102\": 2130706433, \"hex_int\": \"0x7F000001\", \
         \"errno;tag=0x104\": \"ERRNO(2130706433)\", \"pid;tag=0x105\": 2130706433, \
         \"time\": \"2037-07-08T22:53:53Z\", \"boolean;tag=0x107\": \"BOOL(2130706433)\", \
         \"float;tag=0x108\": 1.701412e38, \"hex_bytes\": \"01 00 00 7F\", \
         \"string8;tag=0x10A\": 2130706433, \"string_utf;tag=0x10B\": \"\u{fffd}\", \
         \"string_utf_bom\": 2130706433, \"string_xml;tag=0x10D\": 2130706433, \
         \"string_json;tag=0x10E\": 2130706433, \"uuid\": 2130706433, \"port;tag=0x110\": 2130706433, \
         \"ip_address;tag=0x111\": \"1.0.0.127\", \"ip_address_obsolete\": 2130706433"
            .to_string(),
        // 8 bytes: 0x8182838485868788.
        format!(
            "\"default\": {v64}, \"unsigned_int;tag=0x101\": {v64}, \
             \"signed_int;tag=0x102\": -9114578090645354616, \"hex_int\": \"0x8182838485868788\", \
             \"errno;tag=0x104\": {v64}, \"pid;tag=0x105\": -9114578090645354616, \
             \"time\": \"TIME(-9114578090645354616)\", \"boolean;tag=0x107\": {v64}, \
             \"float;tag=0x108\": -2.1597750994171683e-301, \"hex_bytes\": \"88 87 86 85 84 83 82 81\", \
             \"string8;tag=0x10A\": {v64}, \"string_utf;tag=0x10B\": {v64}, \"string_utf_bom\": {v64}, \
             \"string_xml;tag=0x10D\": {v64}, \"string_json;tag=0x10E\": {v64}, \"uuid\": {v64}, \
             \"port;tag=0x110\": {v64}, \"ip_address;tag=0x111\": {v64}, \"ip_address_obsolete\": {v64}"
        ),
        // 16 bytes: 00 11 ... ff.
        format!(
            "\"default\": \"{hex16}\", \"unsigned_int;tag=0x101\": \"{hex16}\", \
             \"signed_int;tag=0x102\": \"{hex16}\", \"hex_int\": \"{hex16}\", \"errno;tag=0x104\": \"{hex16}\", \
             \"pid;tag=0x105\": \"{hex16}\", \"time\": \"{hex16}\", \"boolean;tag=0x107\": \"{hex16}\", \
             \"float;tag=0x108\": \"{hex16}\", \"hex_bytes\": \"{hex16}\", \"string8;tag=0x10A\": \"{hex16}\", \
             \"string_utf;tag=0x10B\": \"{hex16}\", \"string_utf_bom\": \"{hex16}\", \
             \"string_xml;tag=0x10D\": \"{hex16}\", \"string_json;tag=0x10E\": \"{hex16}\", \
             \"uuid\": \"00112233-4455-6677-8899-aabbccddeeff\", \"port;tag=0x110\": \"{hex16}\", \
             \"ip_address;tag=0x111\": \"{hex16}\", \
             \"ip_address_obsolete\": \"11:2233:4455:6677:8899:aabb:ccdd:eeff\""
        ),
    ];
    let mut out = Vec::new();
    for (size, fields) in ["1", "2", "4", "8", "16"].iter().zip(values) {
        out.push((
            SET_A,
            format!("{{ \"n\": \"EhdFeatures:Values{size}\", {fields}, {meta_a} }}"),
        ));
    }
    let rest = [
        (
            SET_A,
            "{ \"n\": \"EhdFeatures:Strings\", \"s8\": \"hello\", \"s16\": \"wide \u{fc}\", \
             \"s32\": \"wider \u{1D11E}\", \"sw\": \"wchar\", \"z8\": \"zero\", \"z16\": \"z16\", \
             \"z32\": \"z32\", \"zw\": \"zw\", \"bin\": \"01 02 00 03\", \"json;tag=0x7\": \"{\\\"a\\\":1}\", \
             \"xml\": \"<a/>\", \"latin1\": \"caf\u{e9}\", \"bom\": \"bom\", \"hex\": \"41 42\", \
             \"empty\": \"\", META_A }",
        ),
        (
            SET_A,
            "{ \"n\": \"EhdFeatures:Ranges\", \"u8s\": [ 1, 2, 3 ], \"i32s\": [ -1, 0, 1 ], \
             \"f64s;tag=0x5\": [ 0.5, -2 ], \"guids\": [ \"00112233-4455-6677-8899-aabbccddeeff\", \
             \"10111213-1415-1617-1819-1a1b1c1d1e1f\" ], \"none\": [ ], \"strs\": [ \"ab\", \"\" ], \
             \"strs16\": [ \"x\", \"yz\" ], \"zstrs\": [ \"one\", \"two\" ], \"zwstrs\": [ \"w\" ], \
             \"blobs\": [ \"00 01\", \"FF\" ], META_A }",
        ),
        (
            SET_A,
            "{ \"n\": \"EhdFeatures:Nested\", \"outer\": { \"a\": 1, \"inner;tag=0x77\": { \"b\": 2, \
             \"c\": \"three\" }, \"deep\": { \"deeper\": { \"d\": 4 } } }, \"after\": -5, \"meta\": { \
             \"id\": 42, \"version\": 3, \"level\": 5, \"keyword\": \"0x1\", \"opcode\": 1, \
             \"tag\": \"0x1234\", \"activity\": \"10111213-1415-1617-1819-1a1b1c1d1e1f\", \
             \"relatedActivity\": \"20212223-2425-2627-2829-2a2b2c2d2e2f\" } }",
        ),
        (
            SET_A,
            "{ \"n\": \"EhdFeatures:StructArray\", \"points\": [ { \"x\": 1, \"y\": -1, \
             \"label\": \"first\" }, { \"x\": 20, \"y\": -20, \"label\": \"\" }, { \"x\": 300, \
             \"y\": -300, \"label\": \"third\" } ], \"tail\": 9, META_A }",
        ),
        (
            SET_B,
            "{ \"n\": \"EhdFeatures:OnSetB\", \"code\": \"ENOENT(2)\", META_B }",
        ),
        (
            SET_B,
            "{ \"n\": \"EhdFeatures:OnSetB\", \"code\": \"ENOENT(2)\", META_B }",
        ),
    ];
    for (tracepoint, text) in rest {
        out.push((
            tracepoint,
            text.replace("META_A", meta_a).replace("META_B", meta_b),
        ));
    }
    out
}

/// The events only dyn_features.c writes, after the shared ones.
fn expected_c_only_features() -> Vec<(&'static str, String)> {
    let activity = "10111213-1415-1617-1819-1a1b1c1d1e1f";
    vec![
        (
            SET_A,
            "{ \"n\": \"EhdFeatures:CArrays\", \"ports\": [ 80, 443, 8080 ], \
             \"names;tag=0x42\": [ \"alpha\", \"beta\" ], \"items\": [ { \"id\": 7, \"name\": \"alpha\" }, \
             { \"id\": 8, \"name\": \"beta\" } ], \"nothing;tag=0x99\": [ ], \"raw\": [ \"0xAA\", \"0xBB\" ], \
             \"meta\": { \"level\": 5, \"keyword\": \"0x1\" } }"
                .to_string(),
        ),
        (
            SET_A,
            format!(
                "{{ \"n\": \"EhdFeatures:HeaderValues\", \"one\": true, \"meta\": {{ \"id\": 7, \
                 \"version\": 1, \"level\": 5, \"keyword\": \"0x1\", \"opcode\": 2, \"tag\": \"0xBEEF\", \
                 \"activity\": \"{activity}\" }} }}"
            ),
        ),
        (
            SET_A,
            "{ \"n\": \"EhdFeatures:HeaderValues\", \"one\": true, \"meta\": { \"id\": 7, \
             \"version\": 1, \"level\": 5, \"keyword\": \"0x1\", \"opcode\": 2, \"tag\": \"0xBEEF\" } }"
                .to_string(),
        ),
    ]
}

/// The Nested and StructArray events, built here from the format
/// (docs/format.md §2.5, §5; little-endian, 64-bit).
fn expected_bytes(name: &str) -> Vec<u8> {
    fn field(out: &mut Vec<u8>, name: &str, bytes: &[u8]) {
        out.extend_from_slice(name.as_bytes());
        out.push(0);
        out.extend_from_slice(bytes);
    }
    let mut meta = Vec::new();
    let mut data = Vec::new();
    let mut header = vec![0x07, 0, 0, 0, 0, 0, 0, 5]; // flags, version, id, tag, opcode, level
    let mut activity = Vec::new();
    match name {
        "Nested" => {
            header = vec![0x07, 3, 42, 0, 0x34, 0x12, 1, 5];
            activity.extend_from_slice(&[32, 0, 0x02, 0x80]); // size 32, activity | chain
            activity.extend(0x10u8..0x20);
            activity.extend(0x20u8..0x30);
            field(&mut meta, "Nested", &[]);
            field(&mut meta, "outer", &[0x81, 3]); // struct, 3 members
            field(&mut meta, "a", &[0x04]);
            field(&mut meta, "inner", &[0x81, 0x82, 0x77, 0x00]); // 2 members, tag 0x77
            field(&mut meta, "b", &[0x03]);
            field(&mut meta, "c", &[0x0a]);
            field(&mut meta, "deep", &[0x81, 1]);
            field(&mut meta, "deeper", &[0x81, 1]);
            field(&mut meta, "d", &[0x02]);
            field(&mut meta, "after", &[0x85, 0x02]);
            data.extend_from_slice(&1u32.to_le_bytes());
            data.extend_from_slice(&2u16.to_le_bytes());
            data.extend_from_slice(&5u16.to_le_bytes());
            data.extend_from_slice(b"three");
            data.push(4);
            data.extend_from_slice(&(-5i64).to_le_bytes());
        }
        "StructArray" => {
            field(&mut meta, "StructArray", &[]);
            field(&mut meta, "points", &[0xc1, 3]); // struct | varray, 3 members
            field(&mut meta, "x", &[0x84, 0x02]);
            field(&mut meta, "y", &[0x84, 0x02]);
            field(&mut meta, "label", &[0x0a]);
            field(&mut meta, "tail", &[0x02]);
            data.extend_from_slice(&3u16.to_le_bytes());
            for (x, y, label) in [(1i32, -1i32, "first"), (20, -20, ""), (300, -300, "third")] {
                data.extend_from_slice(&x.to_le_bytes());
                data.extend_from_slice(&y.to_le_bytes());
                data.extend_from_slice(&(label.len() as u16).to_le_bytes());
                data.extend_from_slice(label.as_bytes());
            }
            data.push(9);
        }
        _ => unreachable!("{name}"),
    }
    let mut event = header;
    event.extend_from_slice(&activity);
    event.extend_from_slice(&(meta.len() as u16).to_le_bytes());
    event.extend_from_slice(&[0x01, 0x00]); // metadata, last extension
    event.extend_from_slice(&meta);
    event.extend_from_slice(&data);
    event
}

/// dyn_features, dyn_features_exports, dyn_features_cpp: the feature events
/// decode as expected, and are the bytes of the first C build's (gcc, the
/// first standard of `dyn_features`), C++ the first events of C.
fn feature_events_are_the_same_from_c_and_cpp_and_decode_as_expected(build: &Build, ran: &Ran) {
    let shared = expected_features();
    let c_only = expected_c_only_features();
    let first = manifest::program("dyn_features");
    let first_c = build_once(first, Config::first(first, Toolchain::GCC, Flavour::Plain))
        .run("capture")
        .records;
    let (stdout, got) = (&ran.stdout, &ran.records);
    assert!(
        stdout.contains("provider EhdFeatures options Gtests errno 0"),
        "{}: {stdout}",
        build.label
    );
    let want_count = if is_cpp(build) {
        shared.len()
    } else {
        shared.len() + c_only.len()
    };
    assert_eq!(got.len(), want_count, "{}: record count", build.label);
    let decoded: Vec<(&str, String)> = got.iter().map(|r| (r.name.as_str(), json(r))).collect();
    for (i, (want, actual)) in shared.iter().chain(&c_only).zip(&decoded).enumerate() {
        assert_eq!(
            (want.0, want.1.as_str()),
            (actual.0, actual.1.as_str()),
            "{}: event #{i}",
            build.label
        );
    }
    for name in ["Nested", "StructArray"] {
        let record = got
            .iter()
            .find(|r| support::event_name(&r.event).as_deref() == Some(name))
            .unwrap_or_else(|| panic!("{}: no {name} event", build.label));
        let want = expected_bytes(name);
        assert!(
            record.event == want,
            "{}: {name}:\n got  {:02x?}\n want {want:02x?}",
            build.label,
            record.event
        );
    }
    // Every build writes the same bytes; C++ the first events of C.
    assert!(
        first_c.get(..got.len()) == Some(&got[..]),
        "{}: bytes differ from the first C build's",
        build.label
    );
    println!(
        "{}: feature events: {} shared by C and C++ (+{} C only), as the first C build's",
        build.label,
        shared.len(),
        c_only.len()
    );
}

// ---------------------------------------------------------------------------
// Errors, memory, threads
// ---------------------------------------------------------------------------

/// dyn_errors, dyn_errors_exports, dyn_errors_cpp: errors are errnos and
/// refused events are not written.
fn errors_are_errnos_and_refused_events_are_not_written(build: &Build, ran: &Ran) {
    let (stdout, got) = (&ran.stdout, &ran.records);
    let ok_events = value_after(stdout, "ok-events") as usize;
    let names: Vec<String> = got
        .iter()
        .map(|r| support::event_name(&r.event).unwrap_or_default())
        .collect();
    assert!(
        names.iter().all(|n| n.starts_with("Ok")),
        "{}: events that should have been refused were written: {names:?}",
        build.label
    );
    assert_eq!(got.len(), ok_events, "{}: {names:?}", build.label);
    for record in got {
        json(record); // every written event decodes
    }
    if !is_cpp(build) {
        // The largest event: metadata + payload exactly 65467 bytes.
        let at_limit = value_after(stdout, "at-limit-event-bytes") as usize;
        let record = got
            .iter()
            .find(|r| support::event_name(&r.event).as_deref() == Some("OkAtLimit"))
            .unwrap_or_else(|| panic!("{}: no OkAtLimit event", build.label));
        assert_eq!(record.event.len(), at_limit);
        assert_eq!(record.event.len() - 8 - 4, 65467);
    } else {
        // A provider name of 234 characters is cut to 233, as the
        // reference's header cuts it: the same tracepoint.
        let record = got
            .iter()
            .find(|r| support::event_name(&r.event).as_deref() == Some("OkLongName"))
            .unwrap_or_else(|| panic!("{}: no OkLongName event", build.label));
        assert_eq!(
            record.name,
            format!("{}_L5K123456789abcdef0", "N".repeat(233)),
            "{}",
            build.label
        );
    }
}

/// A run in capture mode that prints "pairs N" and writes each of its N
/// cases twice, one way then the other. Checks that the two events of every
/// pair are the same bytes and that at least `min` pairs ran; every
/// `decode_every`-th pair is decoded too.
fn check_pairs(build: &Build, ran: &Ran, min: usize, decode_every: usize) {
    let pairs = value_after(&ran.stdout, "pairs") as usize;
    assert!(pairs >= min, "{}: {pairs} pairs", build.label);
    assert_eq!(ran.records.len(), 2 * pairs, "{}", build.label);
    for pair in ran.records.chunks(2) {
        assert_eq!(pair[0].name, pair[1].name, "{}", build.label);
        assert_eq!(
            pair[0].event,
            pair[1].event,
            "{}: {:?}",
            build.label,
            support::event_name(&pair[0].event)
        );
    }
    for pair in ran.records.chunks(2).step_by(decode_every) {
        json(&pair[0]); // it decodes
    }
}

/// dyn_field_array, dyn_field_array_exports: a field array writes the bytes
/// of the per-field calls (each case per field, then from the array; every
/// one decodes).
fn a_field_array_writes_the_bytes_of_the_per_field_calls(build: &Build, ran: &Ran) {
    check_pairs(build, ran, 6, 1);
}

/// dyn_event_def: an event definition writes the bytes of the builder (each
/// case through the builder, then the definition; some decode, all of them
/// would take long).
fn an_event_definition_writes_the_bytes_of_the_builder(build: &Build, ran: &Ran) {
    check_pairs(build, ran, 2000, 97);
}

/// dyn_memory: one builder writes 100 000 events without allocating or
/// growing.
fn one_builder_writes_100000_events_without_allocating_or_growing(build: &Build, ran: &Ran) {
    let (stdout, got) = (&ran.stdout, &ran.records);
    let events = value_after(stdout, "events");
    let allocations = value_after(stdout, "allocations");
    let anon = (
        value_after(stdout, "anon-before-kb"),
        value_after(stdout, "anon-after-kb"),
    );
    let rss = (
        value_after(stdout, "rss-before-kb"),
        value_after(stdout, "rss-after-kb"),
    );
    println!(
        "{}: {events} events, {allocations} malloc/realloc calls, RssAnon {} -> {} kB, \
         VmRSS {} -> {} kB",
        build.label, anon.0, anon.1, rss.0, rss.1
    );
    assert_eq!(events, 100_000);
    assert_eq!(got.len(), 101_000, "warm-up + measured events captured");
    assert_eq!(allocations, 0, "{}: allocations once warm", build.label);
    assert!(
        anon.1 <= anon.0 + 8,
        "{}: anonymous memory grew from {} to {} kB",
        build.label,
        anon.0,
        anon.1
    );
}

/// dyn_threads: threads write through shared sets and survive the provider's
/// deletion.
fn threads_write_through_shared_sets_and_survive_provider_deletion(build: &Build, ran: &Ran) {
    let (stdout, got) = (&ran.stdout, &ran.records);
    let phase1 = value_after(stdout, "phase1-events") as usize;
    let phase2_ok = value_after(stdout, "phase2-ok") as usize;
    assert!(value_after(stdout, "phase2-ebadf") > 0);
    // seqs[(tracepoint, thread)] = the seq values seen, in order.
    let mut seqs: BTreeMap<(String, u32), Vec<u32>> = BTreeMap::new();
    let mut late = 0;
    let mut context = tracepoint_decode::EventHeaderEnumeratorContext::new();
    for record in got {
        let mut e = context
            .enumerate_with_name_and_data(
                &record.name,
                &record.event,
                tracepoint_decode::EventHeaderEnumeratorContext::MOVE_NEXT_LIMIT_DEFAULT,
            )
            .unwrap_or_else(|err| panic!("{}: {err:?}", record.name));
        let mut values = Vec::new();
        while e.move_next() {
            let item = e.item_info();
            let bytes = item.value().bytes();
            values.push(u32::from_le_bytes(bytes.try_into().expect("u32 field")));
        }
        let [thread, seq] = values[..] else {
            panic!("{}: fields {values:?}", record.name);
        };
        match (
            record.name.as_str(),
            support::event_name(&record.event).as_deref(),
        ) {
            ("DynThreads_L5K1" | "DynThreads_L4K2", Some("Seq")) => {
                let want_tp = if seq % 2 == 0 {
                    "DynThreads_L5K1"
                } else {
                    "DynThreads_L4K2"
                };
                assert_eq!(record.name, want_tp, "seq {seq}");
                seqs.entry((record.name.clone(), thread))
                    .or_default()
                    .push(seq);
            }
            ("DynThreadsDelete_L5K1", Some("Late")) => late += 1,
            other => panic!("unexpected event {other:?}"),
        }
    }
    assert_eq!(
        seqs.values().map(Vec::len).sum::<usize>(),
        phase1,
        "{}",
        build.label
    );
    for ((tp, thread), list) in &seqs {
        let parity = if tp.ends_with("L5K1") { 0 } else { 1 };
        let want: Vec<u32> = (0..2000).filter(|s| s % 2 == parity).collect();
        assert_eq!(list, &want, "{}: {tp} thread {thread}", build.label);
    }
    assert_eq!(seqs.len(), 8, "4 threads x 2 sets");
    assert_eq!(
        late, phase2_ok,
        "{}: every successful late write landed once",
        build.label
    );
}

// ---------------------------------------------------------------------------
// Headers and samples
// ---------------------------------------------------------------------------

fn the_cpp_header_requires_cpp17_and_the_c_header_compiles_everywhere(tc: Toolchain) {
    let dir = support::temp_dir();
    let cpp = dir.path().join("dynamic.cpp");
    std::fs::write(
        &cpp,
        "#include <eventheader/EventHeaderDynamic.h>\nint main() { return 0; }\n",
    )
    .unwrap();
    let c_source = "#include <eventheader/eventheader-dynamic.h>\n\
         int main(void) { return EHD_EVENT_SET_ENABLED((ehd_event_set const*)0); }\n";
    let c = dir.path().join("dynamic-c.c");
    std::fs::write(&c, c_source).unwrap();
    let c_as_cpp = dir.path().join("dynamic-c.cpp");
    std::fs::write(&c_as_cpp, c_source).unwrap();
    for std in ["c++11", "c++14"] {
        let (ok, stderr) = testkit::build::check_syntax(tc.cxx, std, &cpp);
        assert!(
            !ok && stderr.contains("requires C++17 or later"),
            "{} -std={std}: {stderr}",
            tc.cxx
        );
    }
    for std in ["c++17", "c++20"] {
        let (ok, stderr) = testkit::build::check_syntax(tc.cxx, std, &cpp);
        assert!(ok, "{} -std={std} EventHeaderDynamic.h: {stderr}", tc.cxx);
    }
    for (compiler, std, source) in [
        (tc.cc, "c99", &c),
        (tc.cc, "c11", &c),
        (tc.cc, "gnu11", &c),
        (tc.cxx, "c++11", &c_as_cpp),
        (tc.cxx, "c++20", &c_as_cpp),
    ] {
        let (ok, stderr) = testkit::build::check_syntax(compiler, std, source);
        assert!(ok, "{compiler} -std={std} eventheader-dynamic.h: {stderr}");
    }
}

/// The events of each sample (C, C++, Python), decoded.
fn expected_sample_events(provider: &str) -> Vec<(String, String)> {
    let info = format!("{provider}_L4K1Gsamples");
    let error = format!("{provider}_L2K1Gsamples");
    let activity = "\"activity\": \"a1a2a3a4-a5a6-a7a8-a9aa-abacadaeafb0\"";
    let meta_info = format!("\"meta\": {{ \"level\": 4, \"keyword\": \"0x1\", {activity} }}");
    let start = format!(
        "{{ \"n\": \"{provider}:Started\", \"meta\": {{ \"level\": 4, \"keyword\": \"0x1\", \
         \"opcode\": 1, {activity} }} }}"
    );
    let stop = format!(
        "{{ \"n\": \"{provider}:Stopped\", \"meta\": {{ \"level\": 4, \"keyword\": \"0x1\", \
         \"opcode\": 2, {activity} }} }}"
    );
    if provider == "DynSample_Py" {
        return vec![
            (info.clone(), start),
            (
                info.clone(),
                format!(
                    "{{ \"n\": \"{provider}:Record\", \"message\": \"hello from Python\", \"count\": 3, \
                     \"ratio\": 0.5, \"ok\": true, \"tags\": [ \"python\", \"ctypes\" ], \
                     \"source\": {{ \"module\": \"sample\", \"line\": 42 }}, \"payload\": \"00 01 FE\", \
                     \"id\": \"00112233-4455-6677-8899-aabbccddeeff\", {meta_info} }}"
                ),
            ),
            (info, stop),
            (
                error,
                format!(
                    "{{ \"n\": \"{provider}:Failure\", \"detail\": \"no such file\", \"code\": -2, \
                     \"meta\": {{ \"level\": 2, \"keyword\": \"0x1\" }} }}"
                ),
            ),
        ];
    }
    let request = |url: &str, status: u32, ms: &str, headers: &str| {
        format!(
            "{{ \"n\": \"{provider}:Request\", \"url\": \"{url}\", \"status\": {status}, \"ms\": {ms}, \
             \"tags\": [ \"web\", \"sample\" ], \"client\": {{ \"ip\": \"127.0.0.1\", \"port\": 4444 }}, \
             \"headers\": [ {headers} ], {meta_info} }}"
        )
    };
    let accept = "{ \"name\": \"accept\", \"value\": \"*/*\" }";
    let host = "{ \"name\": \"host\", \"value\": \"example.org\" }";
    vec![
        (info.clone(), start),
        (info.clone(), request("/index.html", 200, "1.5", &format!("{accept}, {host}"))),
        (info.clone(), request("/favicon.ico", 404, "0.25", accept)),
        (info, stop),
        (
            error,
            format!(
                "{{ \"n\": \"{provider}:Failure\", \"errno\": \"ENOENT(2)\", \"detail\": \"no such file\", \
                 \"meta\": {{ \"level\": 2, \"keyword\": \"0x1\" }} }}"
            ),
        ),
    ]
}

fn decoded(records: &[Record]) -> Vec<(String, String)> {
    records.iter().map(|r| (r.name.clone(), json(r))).collect()
}

/// dyn_sample_c, dyn_sample_cpp: the samples run in capture mode and write
/// the documented events.
fn samples_run_in_capture_mode_and_write_the_documented_events(build: &Build, ran: &Ran) {
    let provider = match build.program.name {
        "dyn_sample_c" => "DynSample_C",
        "dyn_sample_cpp" => "DynSample_Cpp",
        other => panic!("no sample {other}"),
    };
    assert_eq!(ran.stdout, format!("{provider}: open returned 0\n"));
    assert_eq!(
        decoded(&ran.records),
        expected_sample_events(provider),
        "{}",
        build.label
    );
}

/// samples/dynamic/sample.py writes the documented events: ctypes over the
/// C ABI, given the library's path; the host's python cannot load another
/// architecture's library.
fn python_sample_writes_the_documented_events() {
    if let Some(cross) = testkit::cross::target() {
        println!("sample.py: not run for {} (host python)", cross.triple);
        return;
    }
    let tmp = support::temp_dir();
    let capture = tmp.path().join("capture.dat");
    let library = support::lib_dir().join("libeventheader_tracepoint.so");
    let output = Command::new("python3")
        .arg(support::root().join("samples/dynamic/sample.py"))
        .arg(&library)
        .env("TRACEPOINT_CAPTURE_FILE", &capture)
        .output()
        .expect("python3 is needed for samples/dynamic/sample.py");
    assert!(
        output.status.success(),
        "sample.py failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "DynSample_Py: open returned 0\n"
    );
    assert_eq!(
        decoded(&support::read_capture(&capture)),
        expected_sample_events("DynSample_Py")
    );
}

/// sample.py's shapes: an event of a shape seen before reuses its event
/// definition (or its field array) and changes only the values (integers out
/// of the shape's range go the general way); each event written through the
/// definition, the per-field calls and the field array must be the same
/// bytes.
fn python_sample_shapes_write_the_per_field_events() {
    let script = "import sys, uuid\n\
        sys.path.insert(0, sys.argv[1])\n\
        import sample\n\
        log = sample.Logger(sample.load(sys.argv[2]), 'DynSample_PyShape')\n\
        events = [\n\
        \x20   dict(s='a', i=1, f=0.5, b=True, y=b'\\x00', u=uuid.UUID(int=1)),\n\
        \x20   dict(s='a longer string', i=-2**63, f=-1.0, b=False, y=b'', u=uuid.UUID(int=2)),\n\
        \x20   dict(s='', i=2**64 - 1, f=2.5, b=True, y=b'xyz', u=uuid.UUID(int=3)),\n\
        \x20   dict(s='\\u00e9', i=7, f=0.0, b=False, y=b'\\xff' * 300, u=uuid.UUID(int=4)),\n\
        ]\n\
        for fields in events + events:\n\
        \x20   log.log(4, 'Shape', **fields)\n\
        \x20   log.log_calls(4, 'Shape', **fields)\n\
        \x20   log.log_array(4, 'Shape', **fields)\n\
        log.log(4, 'Other', n=1)\n\
        log.log_calls(4, 'Other', n=1)\n\
        log.log_array(4, 'Other', n=1)\n\
        assert len(log.definitions) == 2, log.definitions\n\
        log.close()\n";
    let (_, records) = run_sample_script(script);
    assert_eq!(records.len(), 3 * (8 + 1));
    for three in records.chunks(3) {
        assert_eq!(three[0].event, three[1].event, "{}", json(&three[0]));
        assert_eq!(three[0].event, three[2].event, "{}", json(&three[0]));
    }
    assert!(json(&records[0]).contains(r#""s": "a", "i": 1, "f": 0.5"#));
    assert!(json(&records[6]).contains(r#""i": 18446744073709551615"#));
}

/// sample.py's integers: 64 bits signed, or unsigned above the signed
/// range; an integer beyond 64 bits raises OverflowError instead of being
/// cut to its low 64 bits (2**64 + 5 was logged as 5).
fn python_sample_refuses_integers_beyond_64_bits() {
    let script = "import sys\n\
        sys.path.insert(0, sys.argv[1])\n\
        import sample\n\
        log = sample.Logger(sample.load(sys.argv[2]), 'DynSample_PyInt')\n\
        log.log(4, 'Ints', low=-2**63, high=2**64 - 1)\n\
        for bad in (2**64 + 5, -2**63 - 1):\n\
        \x20   try:\n\
        \x20       log.log(4, 'Bad', big=bad)\n\
        \x20   except OverflowError as e:\n\
        \x20       print('OverflowError', e)\n\
        log.close()\n";
    let (stdout, records) = run_sample_script(script);
    assert_eq!(
        stdout,
        "OverflowError big: 18446744073709551621 does not fit in 64 bits\n\
         OverflowError big: -9223372036854775809 does not fit in 64 bits\n"
    );
    assert_eq!(records.len(), 1, "only the event whose integers fit");
    assert_eq!(
        support::decode::json(&records[0]).unwrap(),
        r#"{ "n": "DynSample_PyInt:Ints", "low": -9223372036854775808, "high": 18446744073709551615, "meta": { "level": 4, "keyword": "0x1" } }"#
    );
}

/// Runs a Python script that imports samples/dynamic/sample.py (its
/// `sys.argv[1]` is the sample's folder, `sys.argv[2]` the library) in
/// capture mode; fails unless it exits 0. Returns its standard output and
/// the captured events.
fn run_sample_script(script: &str) -> (String, Vec<Record>) {
    let tmp = support::temp_dir();
    let capture = tmp.path().join("capture.dat");
    let library = support::lib_dir().join("libeventheader_tracepoint.so");
    let output = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(support::root().join("samples/dynamic"))
        .arg(&library)
        .env("TRACEPOINT_CAPTURE_FILE", &capture)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("python3 is needed for samples/dynamic/sample.py");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (stdout, support::read_capture(&capture))
}

/// The judge of every (program, run) of the suite.
const JUDGES: &[Judge] = &[
    judge(
        "dyn_reference",
        "capture",
        reference_dynamic_events_are_byte_identical_through_cpp_and_c,
    ),
    judge(
        "dyn_reference_cpp",
        "capture",
        reference_dynamic_events_are_byte_identical_through_cpp_and_c,
    ),
    judge(
        "dyn_reference_exports",
        "capture",
        reference_dynamic_events_are_byte_identical_through_cpp_and_c,
    ),
    judge(
        "dyn_features",
        "capture",
        feature_events_are_the_same_from_c_and_cpp_and_decode_as_expected,
    ),
    judge(
        "dyn_features_exports",
        "capture",
        feature_events_are_the_same_from_c_and_cpp_and_decode_as_expected,
    ),
    judge(
        "dyn_features_cpp",
        "capture",
        feature_events_are_the_same_from_c_and_cpp_and_decode_as_expected,
    ),
    judge(
        "dyn_errors",
        "capture",
        errors_are_errnos_and_refused_events_are_not_written,
    ),
    judge(
        "dyn_errors_exports",
        "capture",
        errors_are_errnos_and_refused_events_are_not_written,
    ),
    judge(
        "dyn_errors_cpp",
        "capture",
        errors_are_errnos_and_refused_events_are_not_written,
    ),
    judge(
        "dyn_field_array",
        "capture",
        a_field_array_writes_the_bytes_of_the_per_field_calls,
    ),
    judge(
        "dyn_field_array_exports",
        "capture",
        a_field_array_writes_the_bytes_of_the_per_field_calls,
    ),
    judge(
        "dyn_event_def",
        "capture",
        an_event_definition_writes_the_bytes_of_the_builder,
    ),
    judge(
        "dyn_memory",
        "capture",
        one_builder_writes_100000_events_without_allocating_or_growing,
    ),
    judge(
        "dyn_threads",
        "capture",
        threads_write_through_shared_sets_and_survive_provider_deletion,
    ),
    judge(
        "dyn_sample_c",
        "capture",
        samples_run_in_capture_mode_and_write_the_documented_events,
    ),
    judge(
        "dyn_sample_cpp",
        "capture",
        samples_run_in_capture_mode_and_write_the_documented_events,
    ),
    judged_elsewhere(
        "dyn_hello_c",
        "capture",
        "tests/docs.rs, with the README's text",
    ),
];

fn main() {
    let mut extra = trials::per_toolchain(
        "the_cpp_header_requires_cpp17_and_the_c_header_compiles_everywhere",
        the_cpp_header_requires_cpp17_and_the_c_header_compiles_everywhere,
    );
    extra.push(trials::extra(
        "python_sample_writes_the_documented_events",
        python_sample_writes_the_documented_events,
    ));
    extra.push(trials::extra(
        "python_sample_shapes_write_the_per_field_events",
        python_sample_shapes_write_the_per_field_events,
    ));
    extra.push(trials::extra(
        "python_sample_refuses_integers_beyond_64_bits",
        python_sample_refuses_integers_beyond_64_bits,
    ));
    trials::main(env!("CARGO_TARGET_TMPDIR"), "dynamic", JUDGES, extra)
}
