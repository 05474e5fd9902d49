//! Hardening tests: stress, fork, dlopen/dlclose and the bad-input
//! table, driving the C programs of `c-tests/hardening/` (built from the
//! manifest) in capture mode and checking their captures record by record.
//!
//! Knobs: `HARDENING_STRESS_SECONDS` (default 3; CI sets 30),
//! `HARDENING_STRESS_RATE` (writes per second per writer and event, default
//! 2000, 0 = unlimited). `cargo test --test hardening -- --nocapture` prints
//! the figures.
#[path = "../../tests/support/mod.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use support::errno::*;
use support::{number as value, words as line_values, Record, Toolchain};

/// The toolchain of the stress test: clang when installed, else gcc.
fn last_toolchain() -> Toolchain {
    *support::toolchains().last().unwrap()
}

// ---------------------------------------------------------------------------
// Decoding the events of hcommon.h
// ---------------------------------------------------------------------------

/// An EventHeader event with a metadata extension and three u32 fields.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Event3 {
    tracepoint: String,
    event: String,
    a: u32,
    b: u32,
    c: u32,
}

/// Decodes a record written by `h_write3`: checks the header flags, that the
/// metadata extension is the only one and describes fields a, b, c (value32),
/// and that the payload is exactly 12 bytes.
fn decode3(r: &Record) -> Event3 {
    let e = &r.event;
    assert!(e.len() >= 8 + 4, "{}: short event {e:?}", r.name);
    assert_eq!(e[0], 0x07, "{}: flags", r.name);
    let size = u16::from_le_bytes([e[8], e[9]]) as usize;
    let kind = u16::from_le_bytes([e[10], e[11]]);
    assert_eq!(kind, 1, "{}: only a metadata extension", r.name);
    let meta = &e[12..12 + size];
    let nul = meta.iter().position(|&b| b == 0).expect("event name");
    let event = String::from_utf8(meta[..nul].to_vec()).unwrap();
    assert_eq!(
        &meta[nul + 1..],
        b"a\0\x04b\0\x04c\0\x04",
        "{}: fields",
        r.name
    );
    let payload = &e[12 + size..];
    assert_eq!(payload.len(), 12, "{} {event}: payload size", r.name);
    let word = |i: usize| u32::from_ne_bytes(payload[4 * i..4 * i + 4].try_into().unwrap());
    Event3 {
        tracepoint: r.name.clone(),
        event,
        a: word(0),
        b: word(1),
        c: word(2),
    }
}

// ---------------------------------------------------------------------------
// Stress
// ---------------------------------------------------------------------------

#[test]
fn stress_every_successful_write_lands_exactly_once() {
    // {stress_seconds} capture {stress_rate}: HARDENING_STRESS_SECONDS,
    // HARDENING_STRESS_RATE.
    let vars = testkit::run::Vars::cargo();
    let build = support::build("stress", last_toolchain());
    let start = std::time::Instant::now();
    let ran = build.run("capture");
    let elapsed = start.elapsed().as_secs_f64();
    let (stdout, records) = (&ran.stdout, &ran.records);
    let bytes: usize = records
        .iter()
        .map(|r| 4 + r.name.len() + 1 + r.event.len())
        .sum();

    // Count the records per kind.
    let mut stable: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut churn: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut transient = 0u64;
    let mut raw = 0u64;
    for r in records {
        if r.name == "HardStressRaw" {
            assert_eq!(r.event.len(), 4, "raw payload");
            raw += 1;
            continue;
        }
        let ev = decode3(r);
        match ev.event.as_str() {
            "Stable" => {
                assert_eq!(ev.tracepoint, "HardStress_L5K1");
                assert_eq!(ev.c, 0);
                stable.entry(ev.a).or_default().push(ev.b);
            }
            "Churn" => {
                assert!(
                    ev.tracepoint == "HardStress_L4K2" || ev.tracepoint == "HardStressAlt_L4K2",
                    "churn tracepoint {}",
                    ev.tracepoint
                );
                assert_eq!(ev.c, 1);
                assert!(
                    churn.entry(ev.a).or_default().insert(ev.b),
                    "churn event of writer {} seq {} landed twice",
                    ev.a,
                    ev.b
                );
            }
            "Transient" => {
                assert_eq!(ev.a, 100);
                let expected = format!(
                    "HardStressT{}_L{}K{:x}{}",
                    ev.b % 16,
                    ev.c,
                    ev.b & 0xff,
                    if ev.b & 1 == 1 { "Ghardening" } else { "" }
                );
                assert_eq!(ev.tracepoint, expected);
                transient += 1;
            }
            other => panic!("unexpected event {other} in {}", ev.tracepoint),
        }
    }

    let mut total = 0u64;
    for w in 0..8u32 {
        let v = line_values(stdout, &format!("writer {w}"));
        let stable_ok: u64 = v[1].parse().unwrap();
        let churn_ok: u64 = v[3].parse().unwrap();
        let seqs = stable.remove(&w).unwrap_or_default();
        // Stable writes never fail in capture mode: seq 0..n, in order.
        assert_eq!(seqs.len() as u64, stable_ok, "writer {w}: stable records");
        assert!(
            seqs.iter().enumerate().all(|(i, &s)| s == i as u32),
            "writer {w}: stable sequence out of order or with gaps"
        );
        let churned = churn.remove(&w).unwrap_or_default();
        assert_eq!(churned.len() as u64, churn_ok, "writer {w}: churn records");
        total += stable_ok + churn_ok;
    }
    assert!(
        stable.is_empty() && churn.is_empty(),
        "records of unknown writers"
    );
    let b = line_values(stdout, "churnerB cycles");
    let transient_ok: u64 = b[2].parse().unwrap();
    let raw_ok: u64 = b[4].parse().unwrap();
    assert_eq!(transient, transient_ok, "transient records");
    assert_eq!(raw, raw_ok, "raw records");
    total += transient_ok + raw_ok;
    // With the per-kind counts above, every record is one successful write.
    assert_eq!(value(stdout, "total_ok") as u64, total);
    let ebadf: u64 = (0..8)
        .map(|w| {
            line_values(stdout, &format!("writer {w}"))[5]
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    println!(
        "stress ({}): 8 writers + 2 churners, {} s (ran {elapsed:.1} s), rate {}/s: \
         {} records landed = {total} successful writes ({bytes} bytes), {ebadf} churn writes \
         EBADF, churner A {} cycles, churner B {} cycles",
        build.label,
        vars.stress_seconds,
        vars.stress_rate,
        records.len(),
        value(stdout, "churnerA cycles"),
        b[0]
    );
}

#[test]
fn stress_without_user_events_is_a_safe_no_op() {
    let ran = support::build("stress", Toolchain::GCC).run("nokernel");
    let open = ran.words("open");
    assert_ne!(open[0], "0", "open without user_events succeeded?");
    assert_eq!(ran.number("total_ok"), 0);
}

// ---------------------------------------------------------------------------
// fork
// ---------------------------------------------------------------------------

#[test]
fn fork_keeps_the_provider_working_in_parent_and_child() {
    for build in support::builds("fork") {
        let ran = build.run("capture");
        let stdout = &ran.stdout;
        let parent = ran.number("parent") as u32;
        let child = ran.number("child") as u32;
        assert!(stdout.contains("fdcheck ok"), "{stdout}");
        assert!(stdout.contains("done"), "{stdout}");
        let events: Vec<Event3> = ran.records.iter().map(decode3).collect();
        let of = |pid: u32, c: u32| -> Vec<u32> {
            events
                .iter()
                .filter(|e| e.a == pid && e.c == c)
                .map(|e| e.b)
                .collect()
        };
        let rounds: Vec<u32> = (1..=50).collect();
        assert_eq!(of(parent, 0), vec![0], "parent before fork");
        assert_eq!(of(child, 1), rounds, "child's inherited tracepoint");
        assert_eq!(of(child, 3), vec![0], "child's own new tracepoint");
        assert_eq!(of(parent, 2), rounds, "parent after the child exited");
        assert_eq!(events.len(), 1 + 50 + 1 + 50);
        for e in &events {
            let expected = if e.c == 3 {
                ("HardFork_L5K2", "Child")
            } else {
                ("HardFork_L5K1", "Parent")
            };
            assert_eq!((e.tracepoint.as_str(), e.event.as_str()), expected);
        }
        println!(
            "fork ({}): parent {parent}, child {child}, {} events",
            build.label,
            events.len()
        );
    }
}

#[test]
fn fork_while_another_thread_holds_the_library_lock() {
    let ran = support::build("fork", Toolchain::GCC).run("busy");
    assert_eq!(ran.words("busy forks"), ["200", "hung", "0"]);
    let children = ran
        .records
        .iter()
        .map(decode3)
        .filter(|e| e.c == 4 && e.tracepoint == "HardFork_L5K2")
        .count();
    assert_eq!(children, 200, "every busy child wrote its event");
}

// ---------------------------------------------------------------------------
// dlopen / dlclose
// ---------------------------------------------------------------------------

#[test]
fn dlopen_dlclose_1000_times_with_the_tracepoint_enabled() {
    for build in support::builds("dlclose_loop") {
        // {path:dlprov} 1000 capture, {path:dlforget} 1000 capture forget
        for (mode, forget) in [("capture", false), ("forget", true)] {
            let ran = build.run(mode);
            let (stdout, records) = (&ran.stdout, &ran.records);
            let v = ran.words("rounds");
            assert_eq!(v[0], "1000");
            let loops: Vec<&Record> = records.iter().filter(|r| r.name == "HardDl_L5K1").collect();
            assert_eq!(loops.len(), 1000, "one event per round");
            for (i, r) in loops.iter().enumerate() {
                assert_eq!(support::event_name(&r.event).as_deref(), Some("Loop"));
                let tail = &r.event[r.event.len() - 4..];
                assert_eq!(u32::from_ne_bytes(tail.try_into().unwrap()), i as u32);
            }
            if forget {
                assert!(stdout.contains("after-forget ok"), "{stdout}");
                assert_eq!(records.len(), 1001);
                assert_eq!(records[1000].name, "HardDlAfter_L5K1");
            } else {
                assert_eq!(records.len(), 1000);
            }
            assert_flat_rss(&v, stdout);
            println!(
                "dlclose ({}, {mode}): 1000 rounds, fds {} -> {}, rss {} -> {} KiB",
                build.label, v[2], v[3], v[5], v[6]
            );
        }
    }
}

/// dlprov linked with section garbage collection (lld's --gc-sections, GNU
/// ld's -z start-stop-gc): its call sites survive, so every round's event is
/// written.
#[test]
fn a_provider_library_linked_with_section_gc_writes_every_event() {
    for build in support::builds("dlclose_loop") {
        for mode in ["gc_lld", "gc_bfd"] {
            let ran = build.run(mode);
            let loops = ran
                .records
                .iter()
                .filter(|r| r.name == "HardDl_L5K1")
                .count();
            assert_eq!(loops, 100, "{} {mode}: one event per round", build.label);
            println!("dlprov ({}, {mode}): {loops}/100 events", build.label);
        }
    }
}

/// The slack the dlopen/dlclose programs allow VmRSS from round 10 to the
/// last (their default; a leak of 8 KiB per round grows it by 7.9 MiB).
const RSS_SLACK_KIB: i64 = 1024;

/// `rounds N fds A B rss_kib A B`: the descriptors equal, the RSS within
/// [`RSS_SLACK_KIB`] (the programs check both too).
fn assert_flat_rss(v: &[&str], stdout: &str) {
    assert_eq!(v[2], v[3], "descriptors grew: {stdout}");
    if testkit::cross::target().is_some() {
        // VmRSS is the emulator's (testkit::cross::RUN_ENV).
        return;
    }
    let first: i64 = v[5].parse().unwrap();
    let last: i64 = v[6].parse().unwrap();
    assert!(
        last - first <= RSS_SLACK_KIB,
        "VmRSS grew by {} KiB over the rounds: {stdout}",
        last - first
    );
}

/// The library itself (not a client of it) loaded with dlopen and unloaded
/// 1000 times in capture mode, a fork() every 100 rounds: no descriptor,
/// no memory growth (a round that leaked the capture descriptor and the name
/// table, about 8 KiB, would show), and every round's event landed.
#[test]
fn the_library_itself_unloads_1000_times_without_growth() {
    for build in support::builds("dlunload") {
        // self {dl_loops} capture
        let ran = build.run("self");
        let v = ran.words("rounds");
        assert_eq!(v[0], "1000");
        assert_flat_rss(&v, &ran.stdout);
        assert_eq!(ran.words("forks"), ["10", "ok"]);
        assert_eq!(ran.records.len(), 1000);
        for (i, r) in ran.records.iter().enumerate() {
            assert_eq!(r.name, "HardSelf");
            assert_eq!(r.event, (i as u32).to_ne_bytes(), "round {i}");
        }
        println!(
            "dlunload self ({}): 1000 rounds, fds {} -> {}, rss {} -> {} KiB",
            build.label, v[2], v[3], v[5], v[6]
        );
    }
}

/// A plugin linked to the library registers in its constructor and
/// unregisters in its destructor; after dlclose (which unloads the library
/// with it) fork() works: the library's fork handlers went with it.
#[test]
fn fork_after_unloading_a_plugin_that_used_the_library() {
    for build in support::builds("dlunload") {
        // plugin {path:dlprov} capture
        let ran = build.run("plugin");
        assert_eq!(ran.words("forks"), ["3", "ok"]);
        let rounds: Vec<Option<String>> = ran
            .records
            .iter()
            .map(|r| support::event_name(&r.event))
            .collect();
        assert_eq!(rounds, vec![Some("Loop".to_string()); 3]);
    }
}

// ---------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------

/// Every case line the program printed, as name -> errno (0 = ok).
fn cases(stdout: &str) -> BTreeMap<String, i32> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("case "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let errno = if w[1] == "ok" {
                0
            } else {
                w[2].parse().unwrap()
            };
            (w[0].to_string(), errno)
        })
        .collect()
}

#[test]
fn bad_input_table_in_capture_mode() {
    for build in support::builds("badinput") {
        let ran = build.run("capture");
        let (stdout, records) = (&ran.stdout, &ran.records);
        assert!(stdout.contains("\ndone\n"), "{stdout}");
        let got = cases(stdout);
        // The rows of the bad-input table, docs/bad-input.md (the program checks each as well).
        let expected: &[(&str, i32)] = &[
            ("null-provider-open", EINVAL),
            ("null-provider-state-open", EINVAL),
            ("null-state-in-provider", EINVAL),
            ("null-name-in-provider", EINVAL),
            ("null-close", 0),
            ("null-event-connect", EINVAL),
            ("null-event-state-connect", EINVAL),
            ("null-event-state-write", EINVAL),
            ("null-tracepoint-connect", EINVAL),
            ("null-event-write", EINVAL),
            ("null-tracepoint-write", EINVAL),
            ("null-vecs-write", EINVAL),
            ("null-range", EINVAL),
            ("reversed-range", EINVAL),
            ("write-before-register", EBADF),
            ("raw-write-before-register", EBADF),
            ("connect-closed-provider", 0),
            ("write-closed-provider", EBADF),
            ("options-lowercase-first", EINVAL),
            ("options-unsorted", EINVAL),
            ("options-bad-char", EINVAL),
            ("name-250-open", 0),
            ("name-251-open", E2BIG),
            ("name-100000-open", E2BIG),
            ("open", 0),
            ("double-open", EALREADY),
            ("level-0", EINVAL),
            ("write-after-failed-connect", EBADF),
            ("disconnect", 0),
            ("connect", 0),
            ("write", 0),
            ("double-connect", 0),
            ("write-after-double-connect", 0),
            ("write-count-0", EINVAL),
            ("write-count-1025", EINVAL),
            ("write-count-huge", EINVAL),
            ("eventheader-write-count-huge", EINVAL),
            ("eventheader-write-count-1025", EINVAL),
            ("eventheader-write-too-few-vecs", EINVAL),
            ("related-without-activity", EINVAL),
            ("write-4GiB", E2BIG),
            ("write-length-overflow", E2BIG),
            ("eventheader-zero-payload", 0),
            ("raw-connect", 0),
            ("raw-zero-bytes", 0),
            ("raw-disconnect", 0),
            ("big-connect", 0),
            ("event-70000-bytes", 0),
            ("keyword-all-bits", 0),
            ("keyword-all-bits-write", 0),
            ("name-255-open", 0),
            ("name-255-connect", 0),
            ("name-255-write", 0),
            ("name-256-open", 0),
            ("name-256-connect", E2BIG),
            ("name-256-write", EBADF),
            ("disconnect-event", 0),
            ("write-after-disconnect", EBADF),
            ("double-disconnect", 0),
            ("reconnect", 0),
            ("write-after-close", EBADF),
            ("double-close", 0),
            ("write-after-double-close", EBADF),
        ];
        let expected: BTreeMap<String, i32> = expected
            .iter()
            .chain(NAME_CASES)
            .map(|(k, v)| (k.to_string(), *v))
            .collect();
        assert_eq!(got, expected, "{} cases", build.label);

        // Exactly the events that should land, nothing from failed calls.
        let names: Vec<(String, Option<String>, usize)> = records
            .iter()
            .map(|r| (r.name.clone(), support::event_name(&r.event), r.event.len()))
            .collect();
        // 234 + 21 = 255 characters: the longest tracepoint name.
        let at_limit = format!("{}_LffKffffffffffffffff", "N".repeat(234));
        let meta_len = |name: &str| 8 + 4 + name.len() + 1 + 9;
        let want: Vec<(String, Option<String>, usize)> = vec![
            (
                "HardBad_L5K1".into(),
                Some("Ok".into()),
                meta_len("Ok") + 12,
            ),
            (
                "HardBad_L5K1".into(),
                Some("Twice".into()),
                meta_len("Twice") + 12,
            ),
            ("HardBad_L5K1".into(), Some("Zero".into()), meta_len("Zero")),
            ("HardBadRaw".into(), None, 1),
            (
                "HardBad_L4K1".into(),
                Some("Big".into()),
                meta_len("Big") + 70000,
            ),
            (
                "HardBad_L5Kffffffffffffffff".into(),
                Some("AllBits".into()),
                meta_len("AllBits") + 12,
            ),
            (at_limit, Some("AtLimit".into()), meta_len("AtLimit") + 12),
        ];
        assert_eq!(names, want);
        assert_eq!(
            records[3].event,
            vec![0],
            "0-byte raw event: one padding byte"
        );
        let big = &records[4].event;
        let payload = &big[big.len() - 70000..];
        assert!(payload.iter().enumerate().all(|(i, &b)| b == i as u8));
        println!(
            "bad input ({}): {} cases, {} records",
            build.label,
            got.len(),
            records.len()
        );
    }
}

/// The tracepoint- and provider-name rows (badinput.c's name_cases), in the
/// capture table and in the `names` mode, which the VM suite also runs
/// against the real kernel (VM run badinput_names).
const NAME_CASES: &[(&str, i32)] = &[
    ("connect-null-name-args", EINVAL),
    ("connect-null-name-args-closed", EINVAL),
    ("connect-empty-name-args", EINVAL),
    ("connect-name-empty", EINVAL),
    ("connect-name-space", EINVAL),
    ("connect-name-colon", EINVAL),
    ("connect-name-slash", EINVAL),
    ("connect-name-tab", EINVAL),
    ("connect-name-newline", EINVAL),
    ("connect-name-control", EINVAL),
    ("connect-name-del", EINVAL),
    ("connect-name-not-utf8", EINVAL),
    ("connect-name-cut-utf8", EINVAL),
    ("connect-name-c1-control", EINVAL),
    ("connect-name-enable", EINVAL),
    ("connect-name-filter", EINVAL),
    ("tracepoint-name-256", E2BIG),
    ("name-empty", EINVAL),
    ("name-space", EINVAL),
    ("name-colon", EINVAL),
    ("name-slash", EINVAL),
    ("name-tab", EINVAL),
    ("name-newline", EINVAL),
    ("name-not-utf8", EINVAL),
];

/// The `names` mode in capture mode: the name rows (docs/format.md §3.1,
/// §3.2), and a zero-initialized
/// provider state, which is a closed provider (no registration sent to
/// descriptor 0, open succeeds, its event lands).
#[test]
fn bad_names_and_a_zeroed_provider() {
    for build in support::builds("badinput") {
        let ran = build.run("names");
        assert!(ran.stdout.contains("\ndone\n"), "{}", ran.stdout);
        let expected: BTreeMap<String, i32> = NAME_CASES
            .iter()
            .chain(&[
                ("open", 0),
                ("zeroed-provider-connect", 0),
                ("zeroed-provider-open", 0),
                ("zeroed-provider-reconnect", 0),
                ("zeroed-provider-write", 0),
                ("connect-good-name", 0),
            ])
            .map(|(k, v)| (k.to_string(), *v))
            .collect();
        assert_eq!(cases(&ran.stdout), expected, "{} cases", build.label);
        let records: Vec<(&str, &[u8])> = ran
            .records
            .iter()
            .map(|r| (r.name.as_str(), r.event.as_slice()))
            .collect();
        assert_eq!(records, [("HardBadZeroed", &7u32.to_ne_bytes()[..])]);
    }
}

#[test]
fn bad_input_without_user_events() {
    let ran = support::build("badinput", Toolchain::GCC).run("nokernel");
    assert_eq!(ran.number("exhausted-open-errno"), EMFILE as i64);
    let open = ran.number("open-errno") as i32;
    assert!(
        [EOPNOTSUPP, ENOENT, EACCES, EMFILE].contains(&open),
        "open without user_events: errno {open}"
    );
    assert!(ran.stdout.contains("done"));
}

/// A user_events_data open that failed for lack of descriptors must not be
/// remembered for the life of the process.
#[test]
fn fd_exhaustion_is_not_remembered() {
    let ran = support::build("badinput", Toolchain::GCC).run("nokernel");
    assert_eq!(ran.number("exhausted-open-errno"), EMFILE as i64);
    assert_ne!(
        ran.number("open-errno"),
        EMFILE as i64,
        "after descriptors were freed, open still fails with EMFILE"
    );
}

#[test]
fn capture_file_errors() {
    let build = support::build("badinput", Toolchain::GCC);
    // setfile {dir}/no/such/dir/cap.dat, setfile {dir}
    let ran = build.run("setfile-missing");
    assert_eq!(ran.number("setfile-errno"), ENOENT as i64);
    let ran = build.run("setfile-dir");
    assert_eq!(ran.number("setfile-errno"), EISDIR as i64);

    // A full device: writefail /dev/full.
    let ran = build.run("full");
    assert_eq!(ran.number("write-errno"), ENOSPC as i64);

    // A short write: the record that crosses RLIMIT_FSIZE (fsize
    // {dir}/fsize.dat {dir}/next.dat). It and every later write return
    // ENOSPC, also once the limit is lifted (before: EFBIG, then 0 for
    // records no reader could find behind the partial one).
    let ran = build.run("fsize");
    assert_eq!(ran.words("fsize-errno"), ["0", "28", "28", "28"]);
    let bytes = std::fs::read(ran.dir.path().join("fsize.dat")).unwrap();
    assert_eq!(bytes.len(), 100);
    // The first record is whole; the torn one after it is what a short
    // write leaves behind, and nothing follows it (docs/bad-input.md).
    let first = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    assert_eq!(first, 4 + "HardBadFull".len() + 1 + 40);
    let records = support::parse_capture(&bytes[..first]);
    assert_eq!(records[0].name, "HardBadFull");
    // Selecting a capture file again starts over.
    assert_eq!(ran.number("next-errno"), 0);
    let next = support::read_capture(&ran.dir.path().join("next.dat"));
    assert_eq!(next.len(), 1);

    // Descriptor exhaustion while selecting the capture file, then recovery
    // (fdexhaust {dir}/fd.dat).
    let ran = build.run("fdexhaust");
    assert_eq!(ran.number("exhausted-setfile-errno"), EMFILE as i64);
    assert!(ran.stdout.contains("recovered ok"));
    assert_eq!(
        support::read_capture(&ran.dir.path().join("fd.dat")).len(),
        1
    );
}

/// A read-only and a full filesystem, each a tmpfs mounted in a private
/// mount namespace (`unshare -m`, needs root); skipped where that is not
/// possible, unless `REQUIRE_UNSHARE=1` (set by `scripts/test.sh`).
#[test]
fn capture_file_on_read_only_and_full_filesystems() {
    let probe = Command::new("unshare")
        .args(["-m", "true"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !support::optional(
        probe,
        "REQUIRE_UNSHARE",
        "unshare -m (read-only/full tmpfs capture cases)",
    ) {
        return;
    }
    let build = support::build("badinput", Toolchain::GCC);
    let dir = support::temp_dir();
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let script = format!(
        "set -e; mount -t tmpfs -o ro,size=64k none '{m}'; {run}'{exe}' setfile '{m}/cap.dat'; \
         umount '{m}'; mount -t tmpfs -o size=64k none '{m}'; \
         dd if=/dev/zero of='{m}/fill' bs=4k count=64 2>/dev/null || true; \
         {run}'{exe}' writefail '{m}/cap.dat'; \
         umount '{m}'; mount -t tmpfs -o size=64k none '{m}'; {run}'{exe}' tmpfs '{m}'",
        m = mnt.display(),
        exe = build.exe.display(),
        run = testkit::cross::runner()
            .iter()
            .map(|w| format!("'{}' ", w.to_string_lossy()))
            .collect::<String>()
    );
    let output = Command::new("unshare")
        .args(["-m", "sh", "-c", &script])
        .env_remove("TRACEPOINT_CAPTURE_FILE")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let set: Vec<i64> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("setfile-errno "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(set, [EROFS as i64, 0], "{stdout}");
    assert_eq!(value(&stdout, "write-errno"), ENOSPC as i64);
    // A nearly full tmpfs: the short write and the 4 after the space was
    // freed return ENOSPC; the writes that returned 0 are whole records
    // (the program reads the file back: it is gone with the namespace).
    let errnos = support::words(&stdout, "tmpfs-errno");
    let ok = errnos.iter().filter(|e| **e == "0").count();
    assert!(ok >= 1, "{stdout}");
    assert!(
        errnos[ok..].iter().all(|e| *e == "28") && errnos.len() == ok + 5,
        "{stdout}"
    );
    let records = support::words(&stdout, "tmpfs-records");
    assert_eq!(records[0], (ok + 1).to_string(), "{stdout}");
    assert!(
        records[2].parse::<u64>().unwrap() > 0,
        "no partial record: {stdout}"
    );
}
