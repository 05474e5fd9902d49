//! The porting suite (`c-tests/windows-port/`): TraceLogging code written the way it is
//! written for Windows (provider handle globals passed to helpers, winmeta levels, HRESULT
//! fields, FILETIME/SYSTEMTIME/GUID structures, custom attributes, inline helpers in a header
//! used by two translation units, templates in C++; SAL annotations, `__cdecl`, `TCHAR` and
//! `TEXT`, `HANDLE`, `SIZE_T`, `UNREFERENCED_PARAMETER`, `DEFINE_GUID` with `<initguid.h>`),
//! compiled with only the include path changed (`include/windows-compat`), as C and as C++
//! (with `UNICODE` defined), with gcc and clang, `-Wall -Wextra -Werror`: the manifest's
//! programs `winport_c` and `winport_cpp` (and `winport_handles`).
//!
//! - `events_decode_as_the_component_wrote_them`: every build runs in capture mode; its
//!   events, decoded with `tracepoint_decode`, must be exactly the list below, which comes
//!   from what the component's sources write (values restated here, not taken from a run).
//! - `one_handle_call_site_serves_racing_threads_and_providers`: `wp_handles`, threads racing
//!   through one handle call site, each with its own provider.
//! - `activities_decode_as_the_component_wrote_them`: `winport_activity`, the activity classes
//!   of `<TraceLoggingActivity.h>` (C++11/14/17/20, with C call sites), its random activity ids
//!   named by order of appearance; `activity_sample_events_decode_as_expected`: the same for
//!   `samples/activity`.
//! - `event_activity_id_control_sets_the_id_events_carry`: `winport_activity_control`,
//!   `EventActivityIdControl` (windows-compat `<evntprov.h>`), C and C++.
//! - `pointer_arrays_of_any_pointer_type_decode_as_written`: `winport_pointer_arrays`, the
//!   pointer-array macros given `void*`, `const void*`, `char*` and function-pointer arrays.
//! - `activity_compile` (a module): what `<TraceLoggingActivity.h>` accepts and refuses at
//!   compile time, and the g++ class-member case.
//!
//! The real-kernel part is the manifest's VM runs `winport_c`, `winport_cpp` and
//! `winport_activity` (`bash tests/kernel/run.sh`): perf, attached to the tracepoints the
//! program registered before its first write, must record exactly the bytes of its
//! capture-mode run (for `winport_activity`, but for its random ids, which must correspond
//! one to one).

mod activity_compile;

use testkit::cargo_tests::{self as support, Build, Ran, Record};
use testkit::trials::{self, judge, Judge};
use tracepoint_decode::EventHeaderEnumeratorContext;

/// "TRACEPOINT Provider:Event level=L keyword=0xK opcode=O [activity=ID] [related=ID]
/// {FIELDS}", the fields as tracepoint_decode's JSON.
fn decode(record: &Record) -> String {
    format!("{} {}", record.name, support::decode::json_line(record))
}

/// A GUID of the sources (`{Data1, Data2, Data3, {Data4...}}`) in its usual text form,
/// given as one number of its fields in order: `{0x12345678, 0x9abc, 0xdef0, {0x01, 0x23,
/// 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}}` is `0x12345678_9abc_def0_0123_456789abcdef`.
fn guid_text(guid: u128) -> String {
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        guid >> 96,
        (guid >> 80) & 0xffff,
        (guid >> 64) & 0xffff,
        (guid >> 48) & 0xffff,
        guid & 0xffff_ffff_ffff
    )
}

/// Days since 1970-01-01 of a date, by counting (independent of the header's arithmetic).
fn days_since_1970(year: i64, month: i64, day: i64) -> i64 {
    let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let mut days: i64 = (1970..year).map(|y| if leap(y) { 366 } else { 365 }).sum();
    let lengths = [
        31,
        if leap(year) { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    days += lengths[..(month - 1) as usize].iter().sum::<i64>();
    days + day - 1
}

/// The FILETIME (100 ns since 1601-01-01) of a UTC date and time plus `ticks` of 100 ns.
fn filetime(date: (i64, i64, i64), time: (i64, i64, i64), ticks: i64) -> u64 {
    let seconds =
        days_since_1970(date.0, date.1, date.2) * 86400 + time.0 * 3600 + time.1 * 60 + time.2;
    ((seconds + 11_644_473_600) * 10_000_000 + ticks) as u64
}

/// What the component writes, in order (see c-tests/windows-port/*.c).
fn expected_events(cpp: bool) -> Vec<String> {
    // TRACELOGGING_DEFINE_PROVIDER(g_hWinPortProvider, "WinPort", ..., TraceLoggingOptionGroup(
    // 0x1d3b1c9e, 0x8a42, 0x4f61, 0xa5, 0x09, 0x33, 0x21, 0x7c, 0x45, 0x90, 0xee)): the group
    // name is the group GUID's hex digits.
    let [group, telemetry_group] = [
        0x1d3b1c9e_8a42_4f61_a509_33217c4590ee,
        0x4f50731a_89cf_4782_b3e0_dce8c90476ba,
    ]
    .map(|g| guid_text(g).replace('-', ""));
    let wp = |level: u8, keyword: u64| format!("WinPort_L{level:x}K{keyword:x}G{group}");
    let sec = |level: u8, keyword: u64| format!("WinPortSecondary_L{level:x}K{keyword:x}");
    // Levels (winmeta.h) and the component's keywords.
    let (error, warning, info, verbose) = (2u8, 3u8, 4u8, 5u8);
    let (lifecycle, storage, ops) = (0x1u64, 0x2u64, 0x4u64);
    let ev = |tp: String, event: &str, level: u8, keyword: u64, extra: &str, fields: &str| {
        format!("{tp} {event} level={level} keyword={keyword:#x} opcode=0{extra} {{{fields}}}")
    };

    let [session, activity, parent, component, provider_id] = [
        0x12345678_9abc_def0_0123_456789abcdef,
        0x0f1e2d3c_4b5a_4978_8796_a5b4c3d2e1f0,
        0x6b3c2f10_8a41_4e5d_9c01_223344556677,
        // DEFINE_GUID(WP_COMPONENT_ID, 0xa1b2c3d4, 0xe5f6, 0x4718, 0x29, 0x3a, 0x4b, 0x5c,
        // 0x6d, 0x7e, 0x8f, 0x90) in wp_component.h.
        0xa1b2c3d4_e5f6_4718_293a_4b5c6d7e8f90,
        0x3c8d5a31_1f27_5c4e_9d4b_7a10225e6f81,
    ]
    .map(guid_text);
    // The FILETIMEs of wp_main.c, {low, high}: whole seconds survive (time format).
    assert_eq!(
        filetime((2024, 3, 15), (12, 34, 56), 1_234_567),
        0x01da76d5_2fb32e87
    );
    assert_eq!(
        filetime((1999, 12, 31), (23, 59, 59), 0),
        0x01bf53eb_24d4a980
    );
    let t2024 = "2024-03-15T12:34:56Z";
    let t1999 = "1999-12-31T23:59:59Z";
    let t2000 = "2000-02-29T06:07:08Z"; // SYSTEMTIME {2000, 2, 2, 29, 6, 7, 8, 0}

    let mut out = vec![
        ev(
            wp(info, lifecycle),
            "WinPort:Started;Owner=Porting;Area=Diagnostics",
            info,
            lifecycle,
            "",
            &format!(
                "\"component\": \"winport\", \"registerResult\": \"0x0\", \"sessionId\": \"{session}\", \
                 \"providerId\": \"{provider_id}\", \"startTime\": \"{t2024}\", \"startTimeUtc\": \"{t2024}\", \
                 \"localTime\": \"{t2024}\", \"utcTime\": \"{t2024}\""
            ),
        ),
        ev(wp(error, ops), "WinPort:OperationFailed", error, ops, "", "\"operation\": \"open\", \"hr\": \"0x80070005\""),
        ev(sec(info, ops), "WinPortSecondary:OperationSucceeded", info, ops, "", "\"operation\": \"read\", \"hr\": \"0x0\""),
        ev(sec(error, ops), "WinPortSecondary:OperationFailed", error, ops, "", "\"operation\": \"write\", \"hr\": \"0x80004005\""),
        ev(wp(verbose, storage), "WinPort:Step", verbose, storage, "", "\"step\": 1"),
        ev(wp(verbose, storage), "WinPort:GlobalStep", verbose, storage, "", "\"step\": 2"),
        ev(sec(verbose, storage), "WinPortSecondary:Step", verbose, storage, "", "\"step\": 3"),
        ev(wp(verbose, storage), "WinPort:GlobalStep", verbose, storage, "", "\"step\": 4"),
        ev(wp(info, 0), "WinPort:HelperDirect", info, 0, "", "\"step\": 5"),
    ];
    if cpp {
        out.push(ev(
            wp(info, 0),
            "WinPort:TemplateGlobal",
            info,
            0,
            "",
            "\"value\": 6",
        ));
        out.push(ev(
            sec(verbose, 0),
            "WinPortSecondary:TemplateValue",
            verbose,
            0,
            "",
            "\"value\": 7",
        ));
    }
    out.extend([
        ev(
            wp(warning, ops),
            "WinPort:Details",
            warning,
            ops,
            "",
            // ERROR_ACCESS_DENIED 5; STATUS_ACCESS_VIOLATION; the SID S-1-5-21-1004-1005, the
            // sockaddr_in 192.0.2.7:443, the strings and the blob, as the sources spell them.
            "\"win32\": 5, \"status\": \"0xC0000005\", \"tid\": 4321, \"code\": \"0x401000\", \
             \"sid\": \"01 02 00 00 00 00 00 05 15 00 00 00 EC 03 00 00\", \"peer\": \"02 00 01 BB C0 00 02 07\", \
             \"ansi\": \"ansi text\", \"unicode\": \"wide text\", \"blob\": \"DE AD 01\"",
        ),
        // LogResource: the DEFINE_GUID constant, INVALID_HANDLE_VALUE and NULL, the TCHAR
        // name copied into 8 TCHARs ("configuration" becomes "configu"), the sum of the bytes
        // (none for the empty buffer); then LogFormatted's vsnprintf of "%s-%d".
        ev(
            wp(info, storage),
            "WinPort:Resource",
            info,
            storage,
            "",
            &format!(
                "\"component\": \"{component}\", \"handle\": \"0xFFFFFFFFFFFFFFFF\", \"name\": \"configu\", \
                 \"nameLength\": 7, \"size\": 4, \"sum\": 256"
            ),
        ),
        ev(
            wp(info, storage),
            "WinPort:Resource",
            info,
            storage,
            "",
            &format!(
                "\"component\": \"{component}\", \"handle\": \"0x0\", \"name\": \"log\", \
                 \"nameLength\": 3, \"size\": 0, \"sum\": 0"
            ),
        ),
        ev(wp(verbose, 0), "WinPort:Formatted", verbose, 0, "", "\"text\": \"step-10\""),
        ev(
            wp(verbose, storage),
            "WinPort:Arrays",
            verbose,
            storage,
            "",
            &format!(
                "\"guids\": [ \"{session}\", \"{activity}\" ], \"fixedGuids\": [ \"{session}\", \"{activity}\" ], \
                 \"times\": [ \"{t2024}\", \"{t1999}\" ], \"fixedTimes\": [ \"{t2024}\", \"{t1999}\" ], \
                 \"dates\": [ \"{t2024}\", \"{t2000}\" ], \"fixedDates\": [ \"{t2024}\", \"{t2000}\" ], \
                 \"code\": [ \"0x401000\", \"0x402000\" ]"
            ),
        ),
        ev(
            wp(verbose, storage),
            "WinPort:Values",
            verbose,
            storage,
            "",
            &format!("\"guid\": \"{session}\", \"fileTime\": \"{t2024}\", \"systemTime\": \"{t2024}\""),
        ),
        ev(
            wp(info, lifecycle),
            "WinPort:Enabled",
            info,
            lifecycle,
            "",
            "\"beforeRegister\": false, \"runtimeLevel\": true, \"handle\": true, \"anyLevel\": true, \
             \"enableCallbacks\": 0",
        ),
        format!(
            "{} WinPort:ActivityStart level={info} keyword={lifecycle:#x} opcode=1 activity={} related={} {{}}",
            wp(info, lifecycle),
            activity.replace('-', ""),
            parent.replace('-', "")
        ),
        format!(
            "{} WinPort:ActivityStop level={info} keyword={lifecycle:#x} opcode=2 activity={} {{}}",
            wp(info, lifecycle),
            activity.replace('-', "")
        ),
        // MICROSOFT_KEYWORD_MEASURES (bit 46), PDT_ProductAndServiceUsage (0x2000000).
        ev(
            format!("WinPortTelemetry_L4K{:x}G{telemetry_group}", 1u64 << 46),
            "WinPortTelemetry:Usage",
            info,
            1 << 46,
            "",
            &format!("\"PartA_PrivTags\": {}, \"name\": \"feature\"", 0x2000000),
        ),
    ]);
    if cpp {
        out.push(ev(
            wp(info, 0),
            "WinPort:TemplateGlobal",
            info,
            0,
            "",
            "\"value\": 8",
        ));
        out.push(ev(
            wp(verbose, 0),
            "WinPort:TemplateValue",
            verbose,
            0,
            "",
            "\"value\": 9.5",
        ));
    }
    out.push(ev(
        sec(error, ops),
        "WinPortSecondary:OperationFailed",
        error,
        ops,
        "",
        "\"operation\": \"again\", \"hr\": \"0x80004005\"",
    ));
    out
}

fn assert_same(label: &str, got: &[String], want: &[String]) {
    let diffs: Vec<String> = (0..got.len().max(want.len()))
        .filter(|&i| got.get(i) != want.get(i))
        .map(|i| format!("#{i}:\n   got  {:?}\n   want {:?}", got.get(i), want.get(i)))
        .collect();
    assert!(
        diffs.is_empty(),
        "{label}: {} events, {} expected; differences:\n{}",
        got.len(),
        want.len(),
        diffs.join("\n")
    );
}

/// `winport_c` and `winport_cpp`: the component's events decode as it wrote
/// them (`cpp`: the C++ build's).
fn events_decode_as_the_component_wrote_them(build: &Build, ran: &Ran, cpp: bool) {
    let got: Vec<String> = ran.records.iter().map(decode).collect();
    assert_same(&build.label, &got, &expected_events(cpp));
    println!("{}: {} events as expected", build.label, got.len());
}

fn c_events_decode_as_the_component_wrote_them(build: &Build, ran: &Ran) {
    events_decode_as_the_component_wrote_them(build, ran, false);
}

fn cpp_events_decode_as_the_component_wrote_them(build: &Build, ran: &Ran) {
    events_decode_as_the_component_wrote_them(build, ran, true);
}

/// The run's `THREADS WRITES` arguments (c-tests/windows-port/wp_handles.c).
fn handle_run_args(build: &Build) -> (usize, usize) {
    let args: Vec<usize> = build
        .program
        .run("capture")
        .args
        .iter()
        .map(|a| a.parse().expect("a number"))
        .collect();
    let [threads, writes] = args[..] else {
        panic!("wp_handles takes THREADS WRITES, the manifest gives {args:?}")
    };
    (threads, writes)
}

/// `winport_handles`: one handle call site serves racing threads and
/// providers.
fn one_handle_call_site_serves_racing_threads_and_providers(build: &Build, ran: &Ran) {
    let (threads, writes) = handle_run_args(build);
    let label = &build.label;
    let records = &ran.records;
    // seen[t][seq]: how often thread t's event seq arrived (thread 1 writes one more
    // after its provider was registered again).
    let mut seen = vec![vec![0u32; writes + 1]; threads];
    let mut ctx = EventHeaderEnumeratorContext::new();
    for record in records {
        let walk = testkit::perf::walk(&mut ctx, &record.name, &record.event)
            .unwrap_or_else(|e| panic!("{label}: {}: {e}", record.name));
        let (Some(thread), Some(seq)) = (walk.value(b"thread"), walk.value(b"seq")) else {
            panic!("{label}: {}: fields {:?}", record.name, walk.values)
        };
        assert_eq!(
            record.name,
            format!("WpHandles{thread}_L4K2"),
            "{label}: event of thread {thread} on another provider"
        );
        seen[thread as usize][seq as usize] += 1;
    }
    for (t, counts) in seen.iter().enumerate() {
        let want = if t == 1 { writes + 1 } else { writes };
        assert!(
            counts[..want].iter().all(|&c| c == 1) && counts[want..].iter().all(|&c| c == 0),
            "{label}: thread {t}: events missing or duplicated"
        );
    }
    assert_eq!(records.len(), threads * writes + 1, "{label}");
    println!(
        "{label}: {} events, each on its thread's provider once",
        records.len()
    );
}

/// `line` with every random activity id (32 hex digits, or 36 with dashes, e.g. in a GUID
/// field) named `#1`, `#2`, ... in order of first appearance, and each of the `fixed` ones
/// (GUID text, name) by its name. Random ids must be RFC 4122 version 4 ones, as the
/// library makes them.
fn name_ids(line: &str, fixed: &[(String, &str)], seen: &mut Vec<String>) -> String {
    let bytes = line.as_bytes();
    let is_hex = |b: u8| b.is_ascii_hexdigit();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let dashed = bytes.len() - i >= 36
            && (0..36).all(|k| match k {
                8 | 13 | 18 | 23 => bytes[i + k] == b'-',
                _ => is_hex(bytes[i + k]),
            });
        let plain = bytes.len() - i >= 32 && bytes[i..i + 32].iter().all(|&b| is_hex(b));
        let len = if dashed { 36 } else { 32 };
        let at_start = i == 0 || !is_hex(bytes[i - 1]);
        if !(dashed || plain) || !at_start || bytes.get(i + len).is_some_and(|&b| is_hex(b)) {
            out.push(bytes[i] as char);
            i += 1;
            continue;
        }
        let id = line[i..i + len].replace('-', "");
        i += len;
        if let Some((_, name)) = fixed.iter().find(|(text, _)| text.replace('-', "") == id) {
            out.push_str(name);
            continue;
        }
        assert!(
            &id[12..13] == "4" && "89ab".contains(&id[16..17]),
            "activity id {id} is not a version 4 random id: {line}"
        );
        let n = match seen.iter().position(|s| *s == id) {
            Some(n) => n,
            None => {
                seen.push(id);
                seen.len() - 1
            }
        };
        out.push_str(&format!("#{}", n + 1));
    }
    out
}

/// What the activity component writes, in order (c-tests/windows-port/wp_activity.cpp): the
/// activity ids named as `name_ids` names them. `handle`: built as C++17 or later, with the
/// activity whose provider is a handle variable.
fn expected_activity_events(handle: bool) -> Vec<String> {
    let ev = |provider: &str,
              name: &str,
              level: u8,
              keyword: u64,
              opcode: u8,
              ids: &str,
              fields: &str| {
        let ids = if ids.is_empty() {
            String::new()
        } else {
            format!(" {ids}")
        };
        format!(
            "{provider}_L{level:x}K{keyword:x} {provider}:{name} level={level} keyword={keyword:#x} \
             opcode={opcode}{ids} {{{fields}}}"
        )
    };
    let p = "WinPortActivity";
    // WPA_KEYWORD_WORK; WorkActivity and ThreadWork are INFO and WORK; opcodes start 1, stop 2.
    let (work, info, verbose, warning) = (0x10u64, 4u8, 5u8, 3u8);
    let mut out = vec![
        // ExplicitActivities: outer #1, inner #2 (related to outer), child #3, orphan #4,
        // unstarted #5, the request #6 (moved; its destructor stops it).
        ev(p, "OuterStart", info, work, 1, "activity=#1", "\"kind\": \"explicit\""),
        ev(p, "InnerStart", verbose, work, 1, "activity=#2 related=#1", ""),
        ev(p, "InnerStep", verbose, 0, 0, "activity=#2", "\"step\": 1"),
        ev(p, "OuterTagged", warning, 0x20, 0, "activity=#1", "\"id\": \"#1\""),
        ev(p, "InnerStop", verbose, work, 2, "activity=#2", "\"result\": \"0x0\""),
        ev(p, "ChildStart", verbose, 0, 1, "activity=#3 related=EXPLICIT", ""),
        ev(p, "ChildStop", verbose, 0, 2, "activity=#3", ""),
        ev(p, "OrphanStart", verbose, 0, 1, "activity=#4", ""),
        ev(p, "OrphanStop", verbose, 0, 2, "activity=#4", ""),
        ev(p, "UnrelatedStart", verbose, 0, 1, "activity=#5", ""),
        ev(p, "UnrelatedStop", verbose, 0, 2, "activity=#5", ""),
        ev(p, "RequestStart", info, work, 1, "activity=#6 related=PARENT", "\"request\": 7"),
        ev(p, "RequestStep", verbose, 0, 0, "activity=#6", "\"movedFromStarted\": false"),
        ev(p, "OuterStop", info, work, 2, "activity=#1", ""),
        ev(
            p,
            "Results",
            verbose,
            0,
            0,
            "",
            "\"startedBefore\": false, \"startedDuring\": true, \"startedAfter\": false, \
             \"startAgainEALREADY\": true, \"taggedAfterStopEINVAL\": true, \"stopAgainEINVAL\": true, \
             \"taggedMovedFromEINVAL\": true, \"provider\": true, \"keyword\": 16, \"level\": 4",
        ),
        ev(p, "ActivityStop", info, work, 2, "activity=#6", ""),
        // ThreadActivities: work #7; NestedWork's TraceLoggingFunction #8 (VERBOSE, WORK);
        // scoped #9 inside the setter's id; none under the NULL setter and after the stop.
        ev(p, "ThreadStart", info, work, 1, "activity=#7", ""),
        ev(p, "InThread", verbose, 0, 0, "activity=#7", "\"step\": 1"),
        ev(p, "FromC", info, work, 0, "activity=#7", "\"worker\": 0, \"step\": 1"),
        ev(p, "NestedWork", verbose, work, 1, "activity=#8 related=#7", "\"count\": 2"),
        ev(p, "FromC", info, work, 0, "activity=#8", "\"worker\": 0, \"step\": 2"),
        ev(p, "OwnId", info, 0, 0, "activity=EXPLICIT", ""),
        ev(p, "NestedWork", verbose, work, 2, "activity=#8", ""),
        ev(p, "InThread", verbose, 0, 0, "activity=#7", "\"step\": 3"),
        ev(p, "InSetter", verbose, 0, 0, "activity=SETTER", "\"step\": 4"),
        ev(p, "ScopedStart", verbose, 0, 1, "activity=#9 related=SETTER", ""),
        ev(p, "FromC", info, work, 0, "activity=#9", "\"worker\": 0, \"step\": 5"),
        ev(p, "ActivityStop", verbose, 0, 2, "activity=#9", ""),
        ev(p, "InSetter", verbose, 0, 0, "activity=SETTER", "\"step\": 6"),
        ev(p, "NoId", verbose, 0, 0, "", "\"step\": 7"),
        ev(p, "InThread", verbose, 0, 0, "activity=#7", "\"step\": 8"),
        ev(p, "ThreadStop", info, work, 2, "activity=#7", ""),
        ev(p, "AfterThread", verbose, 0, 0, "", "\"step\": 9"),
        // Workers: main #10, worker 1 #11, worker 2 #12, taking turns.
        ev(p, "MainStart", info, work, 1, "activity=#10", ""),
    ];
    // Each step of both workers before the next step.
    let worker_steps: [(&str, u8, u64, u8, &str); 4] = [
        ("WorkerStart", info, work, 1, ""),
        ("WorkerStep", verbose, 0, 0, ""),
        ("FromC", info, work, 0, ", \"step\": 1"),
        ("WorkerStop", info, work, 2, ""),
    ];
    for (name, level, keyword, opcode, more) in worker_steps {
        for w in 1..=2 {
            out.push(ev(
                p,
                name,
                level,
                keyword,
                opcode,
                &format!("activity=#{}", 10 + w),
                &format!("\"worker\": {w}{more}"),
            ));
        }
    }
    out.push(ev(p, "MainAfterWorkers", verbose, 0, 0, "activity=#10", ""));
    out.push(ev(p, "MainStop", info, work, 2, "activity=#10", ""));
    if handle {
        let h = "WinPortActivityHandle";
        out.push(ev(h, "HandleStart", warning, 0, 1, "activity=#13", ""));
        out.push(ev(h, "HandleTagged", verbose, 0, 0, "activity=#13", ""));
        out.push(ev(h, "HandleStop", warning, 0, 2, "activity=#13", ""));
    }
    out
}

/// `winport_activity`: the activities decode as the component wrote them.
fn activities_decode_as_the_component_wrote_them(build: &Build, ran: &Ran) {
    // The fixed GUIDs of wp_activity.cpp.
    let fixed = [
        (0x0a1b2c3d_4e5f_4061_8273_8495a6b7c8d9, "PARENT"),
        (0x5f6e7d8c_9bab_4cde_8f01_122334455667, "SETTER"),
        (0x77665544_3322_4110_8fee_ddccbbaa9988, "EXPLICIT"),
    ]
    .map(|(guid, name)| (guid_text(guid), name));
    let handle = ["c++17", "c++20"].contains(&build.config.standard.cxx);
    let mut seen = Vec::new();
    let got: Vec<String> = ran
        .records
        .iter()
        .map(|r| name_ids(&decode(r), &fixed, &mut seen))
        .collect();
    assert_same(&build.label, &got, &expected_activity_events(handle));
    println!(
        "{}: {} events as expected, {} activity ids",
        build.label,
        got.len(),
        seen.len()
    );
}

/// `activity_sample` (samples/activity): its events decode as expected.
fn activity_sample_events_decode_as_expected(build: &Build, ran: &Ran) {
    let mut seen = Vec::new();
    let got: Vec<String> = ran
        .records
        .iter()
        .map(|r| name_ids(&decode(r), &[], &mut seen))
        .collect();
    // The request #1; the worker's thread activity #2, related to the request's id,
    // which the worker thread got from the setter.
    let p = "MySample_Activity";
    let want = [
        format!("{p}_L4K1 {p}:RequestStart level=4 keyword=0x1 opcode=1 activity=#1 {{\"path\": \"/index.html\"}}"),
        format!("{p}_L4K0 {p}:Worker level=4 keyword=0x0 opcode=1 activity=#2 related=#1 {{}}"),
        format!("{p}_L5K0 {p}:Progress level=5 keyword=0x0 opcode=0 activity=#2 {{\"percent\": 50}}"),
        format!("{p}_L5K0 {p}:Progress level=5 keyword=0x0 opcode=0 activity=#2 {{\"percent\": 100}}"),
        format!("{p}_L4K0 {p}:Worker level=4 keyword=0x0 opcode=2 activity=#2 {{}}"),
        format!("{p}_L5K0 {p}:RequestStep level=5 keyword=0x0 opcode=0 activity=#1 {{\"status\": 200}}"),
        format!("{p}_L4K1 {p}:RequestStop level=4 keyword=0x1 opcode=2 activity=#1 {{\"result\": \"0x0\"}}"),
    ];
    assert_same(&build.label, &got, &want);
}

/// Thread activities stopped out of nesting order, and an exception thrown
/// while a start event's fields are evaluated
/// (`c-tests/windows-port/wp_activity_edges.cpp`, which checks the thread's
/// activity id itself): the events in order, no start event for the
/// throwing starts, and no "ActivityStop" (no stop without a start).
fn activities_stopped_out_of_order_or_thrown_in_their_start(build: &Build, ran: &Ran) {
    let want = [
        "AStart",
        "BStart",
        "AStop",
        "BStop", // a, b; a stopped first
        "OuterStart",
        "AStart",
        "BStart",
        "AStop",
        "BStop",
        "OuterStop",
        "AStart",
        "AStop", // under a setter
        "OuterStart",
        "PlainStart",
        "PlainStop",
        "InnerStart",
        "InnerStop",
        "OuterStop",
    ];
    assert!(ran.has_line("done"), "{}", ran.stdout);
    let got: Vec<String> = ran
        .records
        .iter()
        .map(|r| {
            let line = decode(r);
            let name = line.split_whitespace().nth(1).unwrap_or("").to_string();
            name.rsplit(':').next().unwrap_or("").to_string()
        })
        .collect();
    assert_eq!(got, want, "{}", build.label);
}

/// "PROVIDER_L5K0 PROVIDER:NAME level=5 keyword=0x0 opcode=0[ IDS] {FIELDS}": an event of
/// level verbose, no keyword and no opcode, as `decode` shows it.
fn plain_event(provider: &str, name: &str, ids: &str, fields: &str) -> String {
    let ids = if ids.is_empty() {
        String::new()
    } else {
        format!(" {ids}")
    };
    format!("{provider}_L5K0 {provider}:{name} level=5 keyword=0x0 opcode=0{ids} {{{fields}}}")
}

/// `winport_activity_control` (`c-tests/windows-port/wp_activity_control.c`, which checks
/// each control and refusal itself): the events carry the thread's id as
/// `EventActivityIdControl` set it, and the GUIDs the controls returned, written as fields,
/// name the same ids (`name_ids`: `#1` is A, ...), so the GUID and the library's id agree
/// byte for byte.
fn event_activity_id_control_sets_the_id_events_carry(build: &Build, ran: &Ran) {
    let p = "WinPortActivityControl";
    let want = vec![
        plain_event(p, "NoActivity", "", ""),
        plain_event(p, "WithA", "activity=#1", "\"id\": \"#1\""),
        plain_event(
            p,
            "WithB",
            "activity=#2",
            "\"id\": \"#2\", \"previous\": \"#1\"",
        ),
        plain_event(p, "WithC", "activity=#3", "\"previous\": \"#2\""),
        plain_event(p, "Cleared", "", ""),
        plain_event(p, "Explicit", "activity=#4", "\"id\": \"#4\""),
    ];
    assert!(ran.has_line("done"), "{}: {}", build.label, ran.stdout);
    let mut seen = Vec::new();
    let got: Vec<String> = ran
        .records
        .iter()
        .map(|r| name_ids(&decode(r), &[], &mut seen))
        .collect();
    assert_same(&build.label, &got, &want);
}

/// `winport_pointer_arrays` (`c-tests/windows-port/wp_pointer_arrays.c`): arrays of `void*`,
/// `const void*`, `void* const`, `const void* const`, `char*` and function pointers through
/// every pointer-array macro, built warning-free as C and C++, decode as the values the
/// sources set.
fn pointer_arrays_of_any_pointer_type_decode_as_written(build: &Build, ran: &Ran) {
    let p = "WinPortPointerArrays";
    let hex = |values: &[u32]| {
        let items: Vec<String> = values.iter().map(|v| format!("\"0x{v:X}\"")).collect();
        format!("[ {} ]", items.join(", "))
    };
    let want = vec![
        plain_event(
            p,
            "Pointers",
            "",
            &format!(
                "\"voids\": {}, \"fixedVoids\": {}, \"consts\": {}, \"constPtrs\": {}, \
                 \"constConsts\": {}, \"names\": {}, \"none\": [ ]",
                hex(&[0x1000, 0x2000, 0x3000]),
                hex(&[0x1000, 0x2000, 0x3000]),
                hex(&[0x4000, 0x5000]),
                hex(&[0x6000, 0x7000]),
                hex(&[0x8000, 0x9000]),
                hex(&[0xA000, 0xB000]),
            ),
        ),
        plain_event(
            p,
            "CodePointers",
            "",
            &format!(
                "\"stack\": {}, \"fixedStack\": {}, \"handlers\": {}, \"fixedHandlers\": {}, \
                 \"once\": {}",
                hex(&[0x401000, 0x401234, 0x402000]),
                hex(&[0x401000, 0x401234]),
                hex(&[0x403000, 0x404000]),
                hex(&[0x403000, 0x404000]),
                hex(&[0x401000]),
            ),
        ),
    ];
    assert!(ran.has_line("done"), "{}: {}", build.label, ran.stdout);
    let got: Vec<String> = ran.records.iter().map(decode).collect();
    assert_same(&build.label, &got, &want);
}

/// The judge of every (program, run) of the suite.
const JUDGES: &[Judge] = &[
    judge(
        "winport_c",
        "capture",
        c_events_decode_as_the_component_wrote_them,
    ),
    judge(
        "winport_cpp",
        "capture",
        cpp_events_decode_as_the_component_wrote_them,
    ),
    judge(
        "winport_activity",
        "capture",
        activities_decode_as_the_component_wrote_them,
    ),
    judge(
        "winport_activity_edges",
        "capture",
        activities_stopped_out_of_order_or_thrown_in_their_start,
    ),
    judge(
        "winport_handles",
        "capture",
        one_handle_call_site_serves_racing_threads_and_providers,
    ),
    judge(
        "winport_activity_control",
        "capture",
        event_activity_id_control_sets_the_id_events_carry,
    ),
    judge(
        "winport_pointer_arrays",
        "capture",
        pointer_arrays_of_any_pointer_type_decode_as_written,
    ),
    judge(
        "activity_sample",
        "capture",
        activity_sample_events_decode_as_expected,
    ),
];

fn main() {
    let mut extra = trials::per_toolchain(
        "activity_macros_accept_fields_and_refuse_other_arguments",
        activity_compile::activity_macros_accept_fields_and_refuse_other_arguments,
    );
    extra.extend(trials::per_toolchain(
        "activity_class_members_compile_in_a_hidden_class",
        activity_compile::activity_class_members_compile_in_a_hidden_class,
    ));
    trials::main(env!("CARGO_TARGET_TMPDIR"), "windows_port", JUDGES, extra)
}
