//! Hardening tests (issue 7): stress, fork, dlopen/dlclose and the bad-input
//! table, driving the C programs of `c-tests/hardening/` in capture mode and
//! checking their captures record by record.
//!
//! Knobs: `HARDENING_STRESS_SECONDS` (default 3; CI sets 30),
//! `HARDENING_STRESS_RATE` (writes per second per writer and event, default
//! 2000, 0 = unlimited). `cargo test --test hardening -- --nocapture` prints
//! the figures.
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::Record;

const EINVAL: i32 = 22;
const EBADF: i32 = 9;
const E2BIG: i32 = 7;
const EALREADY: i32 = 114;
const ENOENT: i32 = 2;
const EACCES: i32 = 13;
const EOPNOTSUPP: i32 = 95;
const EMFILE: i32 = 24;
const ENOSPC: i32 = 28;
const EFBIG: i32 = 27;
const EISDIR: i32 = 21;
const EROFS: i32 = 30;

// ---------------------------------------------------------------------------
// Building and running
// ---------------------------------------------------------------------------

/// Compiles `c-tests/hardening/<source>` with `cc` into `out` (C11, the
/// strict warning flags), linked to the library.
fn compile(cc: &str, source: &str, out: &Path, extra: &[&str]) {
    support::build(
        cc,
        "c11",
        &[support::c_test(&format!("hardening/{source}"))],
        out,
        extra,
    );
}

fn program(dir: &Path, cc: &str, name: &str) -> PathBuf {
    let out = dir.join(format!("{name}-{cc}"));
    compile(cc, &format!("{name}.c"), &out, &[]);
    out
}

fn stdout_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs `exe` in capture mode into a fresh file; returns stdout and records.
fn run_captured(exe: &Path, capture: &Path, args: &[&str]) -> (String, Vec<Record>) {
    let _ = std::fs::remove_file(capture);
    let output = support::run_capture(exe, capture, args);
    let records = if capture.exists() {
        support::read_capture(capture)
    } else {
        Vec::new()
    };
    (stdout_of(&output), records)
}

/// Runs `exe` without a capture file; panics unless it exits 0. Returns
/// its standard output.
fn run_plain(exe: &Path, args: &[&str]) -> String {
    stdout_of(&support::run_plain(exe, args))
}

/// The words after `key` on the line starting with `key `.
fn line_values<'a>(stdout: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("{key} ");
    let line = stdout
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no line {key:?} in:\n{stdout}"));
    line[prefix.len()..].split_whitespace().collect()
}

fn value(stdout: &str, key: &str) -> i64 {
    line_values(stdout, key)[0].parse().unwrap()
}

fn env_number(name: &str, default: f64) -> f64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
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
    let seconds = env_number("HARDENING_STRESS_SECONDS", 3.0);
    let rate = env_number("HARDENING_STRESS_RATE", 2000.0) as u64;
    let dir = support::temp_dir();
    let cc = support::toolchains().last().unwrap().cc;
    let exe = program(dir.path(), cc, "stress");
    let capture = dir.path().join("stress.dat");
    let start = std::time::Instant::now();
    let (seconds_arg, rate_arg) = (seconds.to_string(), rate.to_string());
    let (stdout, records) = run_captured(&exe, &capture, &[&seconds_arg, "capture", &rate_arg]);
    let elapsed = start.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&capture).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_file(&capture);

    // Count the records per kind.
    let mut stable: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut churn: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut transient = 0u64;
    let mut raw = 0u64;
    for r in &records {
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
        let v = line_values(&stdout, &format!("writer {w}"));
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
    let b = line_values(&stdout, "churnerB cycles");
    let transient_ok: u64 = b[2].parse().unwrap();
    let raw_ok: u64 = b[4].parse().unwrap();
    assert_eq!(transient, transient_ok, "transient records");
    assert_eq!(raw, raw_ok, "raw records");
    total += transient_ok + raw_ok;
    assert_eq!(value(&stdout, "total_ok") as u64, total);
    assert_eq!(
        records.len() as u64,
        total,
        "every successful write landed once"
    );
    let ebadf: u64 = (0..8)
        .map(|w| {
            line_values(&stdout, &format!("writer {w}"))[5]
                .parse::<u64>()
                .unwrap()
        })
        .sum();
    println!(
        "stress: 8 writers + 2 churners, {seconds} s (ran {elapsed:.1} s), rate {rate}/s: \
         {} records landed = {total} successful writes ({bytes} bytes), {ebadf} churn writes \
         EBADF, churner A {} cycles, churner B {} cycles",
        records.len(),
        value(&stdout, "churnerA cycles"),
        b[0]
    );
}

#[test]
fn stress_without_user_events_is_a_safe_no_op() {
    let dir = support::temp_dir();
    let exe = program(dir.path(), "gcc", "stress");
    let stdout = run_plain(&exe, &["0.5", "any"]);
    let open = line_values(&stdout, "open");
    assert_ne!(open[0], "0", "open without user_events succeeded?");
    assert_eq!(value(&stdout, "total_ok"), 0);
}

// ---------------------------------------------------------------------------
// fork
// ---------------------------------------------------------------------------

#[test]
fn fork_keeps_the_provider_working_in_parent_and_child() {
    for tc in support::toolchains() {
        let dir = support::temp_dir();
        let exe = program(dir.path(), tc.cc, "fork");
        let capture = dir.path().join("fork.dat");
        let (stdout, records) = run_captured(&exe, &capture, &["capture"]);
        let parent = value(&stdout, "parent") as u32;
        let child = value(&stdout, "child") as u32;
        assert!(stdout.contains("fdcheck ok"), "{stdout}");
        assert!(stdout.contains("done"), "{stdout}");
        let events: Vec<Event3> = records.iter().map(decode3).collect();
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
            tc.cc,
            events.len()
        );
    }
}

#[test]
fn fork_while_another_thread_holds_the_library_lock() {
    let dir = support::temp_dir();
    let exe = program(dir.path(), "gcc", "fork");
    let capture = dir.path().join("fork-busy.dat");
    let (stdout, records) = run_captured(&exe, &capture, &["capture", "busy"]);
    assert_eq!(line_values(&stdout, "busy forks"), ["200", "hung", "0"]);
    let children = records
        .iter()
        .map(decode3)
        .filter(|e| e.c == 4 && e.tracepoint == "HardFork_L5K2")
        .count();
    assert_eq!(children, 200, "every busy child wrote its event");
}

// ---------------------------------------------------------------------------
// dlopen / dlclose
// ---------------------------------------------------------------------------

fn build_dl(dir: &Path, cc: &str) -> (PathBuf, PathBuf, PathBuf) {
    let lib = dir.join(format!("libdlprov-{cc}.so"));
    let forget = dir.join(format!("libdlforget-{cc}.so"));
    compile(cc, "dlprov.c", &lib, &["-fPIC", "-shared"]);
    compile(
        cc,
        "dlprov.c",
        &forget,
        &["-fPIC", "-shared", "-DHARDENING_FORGET"],
    );
    (program(dir, cc, "dlclose_loop"), lib, forget)
}

#[test]
fn dlopen_dlclose_1000_times_with_the_tracepoint_enabled() {
    for tc in support::toolchains() {
        let dir = support::temp_dir();
        let (exe, lib, forget) = build_dl(dir.path(), tc.cc);
        for (library, extra) in [(&lib, None), (&forget, Some("forget"))] {
            let capture = dir.path().join("dl.dat");
            let mut args = vec![library.to_str().unwrap(), "1000", "capture"];
            args.extend(extra);
            let (stdout, records) = run_captured(&exe, &capture, &args);
            let v = line_values(&stdout, "rounds");
            assert_eq!(v[0], "1000");
            assert_eq!(v[2], v[3], "descriptors grew: {stdout}");
            let loops: Vec<&Record> = records.iter().filter(|r| r.name == "HardDl_L5K1").collect();
            assert_eq!(loops.len(), 1000, "one event per round");
            for (i, r) in loops.iter().enumerate() {
                assert_eq!(support::event_name(&r.event).as_deref(), Some("Loop"));
                let tail = &r.event[r.event.len() - 4..];
                assert_eq!(u32::from_ne_bytes(tail.try_into().unwrap()), i as u32);
            }
            if extra.is_some() {
                assert!(stdout.contains("after-forget ok"), "{stdout}");
                assert_eq!(records.len(), 1001);
                assert_eq!(records[1000].name, "HardDlAfter_L5K1");
            } else {
                assert_eq!(records.len(), 1000);
            }
            println!(
                "dlclose ({}{}): 1000 rounds, fds {} -> {}, rss {} -> {} KiB",
                tc.cc,
                extra.map(|e| format!(", {e}")).unwrap_or_default(),
                v[2],
                v[3],
                v[5],
                v[6]
            );
        }
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
    for tc in support::toolchains() {
        let dir = support::temp_dir();
        let exe = program(dir.path(), tc.cc, "badinput");
        let capture = dir.path().join("bad.dat");
        let (stdout, records) = run_captured(&exe, &capture, &["capture"]);
        assert!(stdout.contains("\ndone\n"), "{stdout}");
        let got = cases(&stdout);
        // The table of the README's "Bad input" table (the program checks each as well).
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
            ("name-empty", EINVAL),
            ("name-space", EINVAL),
            ("name-colon", EINVAL),
            ("options-lowercase-first", EINVAL),
            ("options-unsorted", EINVAL),
            ("options-bad-char", EINVAL),
            ("name-250-open", 0),
            ("name-251-open", E2BIG),
            ("name-100000-open", E2BIG),
            ("open", 0),
            ("double-open", EALREADY),
            ("level-0", EINVAL),
            ("connect-null-name-args", EINVAL),
            ("write-after-failed-connect", EBADF),
            ("connect-empty-name-args", EINVAL),
            ("tracepoint-name-256", E2BIG),
            ("disconnect", 0),
            ("connect", 0),
            ("write", 0),
            ("double-connect", 0),
            ("write-after-double-connect", 0),
            ("write-count-0", EINVAL),
            ("write-count-1025", EINVAL),
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
        let expected: BTreeMap<String, i32> =
            expected.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        assert_eq!(got, expected, "{} cases", tc.cc);

        // Exactly the events that should land, nothing from failed calls.
        let names: Vec<(String, Option<String>, usize)> = records
            .iter()
            .map(|r| (r.name.clone(), support::event_name(&r.event), r.event.len()))
            .collect();
        let at_limit = format!("{}_LffKffffffffffffffff", "N".repeat(234));
        assert_eq!(at_limit.len(), 255);
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
            tc.cc,
            got.len(),
            records.len()
        );
    }
}

#[test]
fn bad_input_without_user_events() {
    let dir = support::temp_dir();
    let exe = program(dir.path(), "gcc", "badinput");
    let stdout = run_plain(&exe, &["nokernel"]);
    assert_eq!(value(&stdout, "exhausted-open-errno"), EMFILE as i64);
    let open = value(&stdout, "open-errno") as i32;
    assert!(
        [EOPNOTSUPP, ENOENT, EACCES, EMFILE].contains(&open),
        "open without user_events: errno {open}"
    );
    assert!(stdout.contains("done"));
}

/// A user_events_data open that failed for lack of descriptors must not be
/// remembered for the life of the process.
#[test]
fn fd_exhaustion_is_not_remembered() {
    let dir = support::temp_dir();
    let exe = program(dir.path(), "gcc", "badinput");
    let stdout = run_plain(&exe, &["nokernel"]);
    assert_eq!(value(&stdout, "exhausted-open-errno"), EMFILE as i64);
    assert_ne!(
        value(&stdout, "open-errno"),
        EMFILE as i64,
        "after descriptors were freed, open still fails with EMFILE"
    );
}

#[test]
fn capture_file_errors() {
    let dir = support::temp_dir();
    let exe = program(dir.path(), "gcc", "badinput");
    let missing = dir.path().join("no/such/dir/cap.dat");
    let stdout = run_plain(&exe, &["setfile", missing.to_str().unwrap()]);
    assert_eq!(value(&stdout, "setfile-errno"), ENOENT as i64);
    let stdout = run_plain(&exe, &["setfile", dir.path().to_str().unwrap()]);
    assert_eq!(value(&stdout, "setfile-errno"), EISDIR as i64);

    // A full device.
    let stdout = run_plain(&exe, &["writefail", "/dev/full"]);
    assert_eq!(value(&stdout, "write-errno"), ENOSPC as i64);

    // A short write: the record that crosses RLIMIT_FSIZE.
    let capture = dir.path().join("fsize.dat");
    let stdout = run_plain(&exe, &["fsize", capture.to_str().unwrap()]);
    assert_eq!(line_values(&stdout, "fsize-errno"), ["0", "28", "27"]);
    let bytes = std::fs::read(&capture).unwrap();
    assert_eq!(bytes.len(), 100);
    // The first record is whole; the torn one after it is what a short
    // write leaves behind (documented in the README's "Bad input" table).
    let first = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    assert_eq!(first, 4 + "HardBadFull".len() + 1 + 40);
    let records = support::parse_capture(&bytes[..first]);
    assert_eq!(records[0].name, "HardBadFull");
    let _ = (ENOSPC, EFBIG);

    // Descriptor exhaustion while selecting the capture file, then recovery.
    let capture = dir.path().join("fd.dat");
    let stdout = run_plain(&exe, &["fdexhaust", capture.to_str().unwrap()]);
    assert_eq!(value(&stdout, "exhausted-setfile-errno"), EMFILE as i64);
    assert!(stdout.contains("recovered ok"));
    assert_eq!(support::read_capture(&capture).len(), 1);
}

/// A read-only and a full filesystem, each a tmpfs mounted in a private
/// mount namespace (`unshare -m`, needs root); skipped where that is not
/// possible, unless `REQUIRE_UNSHARE=1` (set by `scripts/test.sh`).
#[test]
fn capture_file_on_read_only_and_full_filesystems() {
    let dir = support::temp_dir();
    let exe = program(dir.path(), "gcc", "badinput");
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
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let script = format!(
        "set -e; mount -t tmpfs -o ro,size=64k none '{m}'; '{exe}' setfile '{m}/cap.dat'; \
         umount '{m}'; mount -t tmpfs -o size=64k none '{m}'; \
         dd if=/dev/zero of='{m}/fill' bs=4k count=64 2>/dev/null || true; \
         '{exe}' writefail '{m}/cap.dat'",
        m = mnt.display(),
        exe = exe.display()
    );
    let output = Command::new("unshare")
        .args(["-m", "sh", "-c", &script])
        .env_remove("TRACEPOINT_CAPTURE_FILE")
        .output()
        .unwrap();
    let stdout = stdout_of(&output);
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
}
