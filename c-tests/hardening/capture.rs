//! Capture files that are pipes, at their limits, and written from signal
//! handlers (`c-tests/hardening/capsig.c`, docs/capture-mode.md): no capture
//! write lets SIGPIPE or SIGXFSZ kill its host, a FIFO takes records of at
//! most `PIPE_BUF` bytes whole, no record is larger than `eventheader
//! decode` reads, and a signal handler's capture write is an ordinary one,
//! even when it interrupted its thread's capture write. Capture writes cut
//! off by `pthread_cancel` or by `siglongjmp` out of a handler leave later
//! writes working (`capcut.c`). A write to a regular file without a size
//! limit changes no signal mask (`capdiag.c` under strace), and
//! EVENTHEADER_DEBUG=1 says why opens and writes fail (`capdiag.c`). The
//! programs run with the killing dispositions and a watchdog; `build.run`
//! fails unless they exit 0.
//!
//! One trial per program, build and run (`testkit::trials`) of the programs
//! above; the checks of the library alone, not of the compilers, on the
//! first build (gcc). The suite's other programs are `--test hardening`'s.

use testkit::cargo_tests::errno::{E2BIG, EFBIG, EINVAL, ENOENT, ENOSPC, EPIPE};
use testkit::cargo_tests::{self as support, Build, Ran};
use testkit::trials::{self, judge, Judge};

fn a_pipe_whose_reader_is_gone_gets_epipe_and_the_host_lives(_: &Build, ran: &Ran) {
    assert_eq!(ran.words("fifo-errno"), ["0", &EPIPE.to_string()]);
    assert_eq!(ran.number("pipe-errno"), EPIPE as i64);
    assert!(ran.has_line("done"), "{}", ran.stdout);
}

fn two_processes_on_one_fifo_never_interleave(_: &Build, ran: &Ran) {
    for w in ["0", "1"] {
        let line = format!("writer {w} ok 200 big {E2BIG}");
        assert!(ran.has_line(&line), "{line}: {}", ran.stdout);
    }
    let records = support::read_capture(&ran.dir.path().join("out.dat"));
    assert_eq!(records.len(), 400);
    let mut per_writer = [0; 2];
    for r in &records {
        assert_eq!(r.name, "HardCapSig");
        assert_eq!(r.event.len(), 3000 - 4 - "HardCapSig".len() - 1);
        let fill = r.event[0];
        assert!(fill == 1 || fill == 2, "{fill}");
        assert!(
            r.event.iter().all(|&b| b == fill),
            "a record of mixed writers"
        );
        per_writer[usize::from(fill - 1)] += 1;
    }
    assert_eq!(per_writer, [200, 200]);
}

fn the_file_size_limit_at_a_record_boundary_is_efbig_not_a_kill(_: &Build, ran: &Ran) {
    assert_eq!(
        ran.words("fsize-errno"),
        ["0", &EFBIG.to_string(), "0"],
        "{}",
        ran.stdout
    );
    let records = support::read_capture(&ran.dir.path().join("cap.dat"));
    let fills: Vec<u8> = records.iter().map(|r| r.event[0]).collect();
    assert_eq!(fills, [1, 3], "the refused record left nothing");
}

fn records_over_64_mib_are_refused_whole_and_nothing_latches(_: &Build, ran: &Ran) {
    let e2big = E2BIG.to_string();
    assert_eq!(ran.words("huge-errno"), [&e2big, "0", &e2big, "0"]);
    let path = ran.dir.path().join("cap.dat");
    assert_eq!(
        std::fs::metadata(&path).unwrap().len(),
        (64 << 20) + 100,
        "only the 64 MiB record and the small one"
    );
    let records = support::read_capture(&path);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].event, [7u8; 100 - 4 - 11]);
}

fn a_signal_handler_interrupting_a_capture_write_writes_an_ordinary_event(_: &Build, ran: &Ran) {
    assert_eq!(
        ran.words("handler-errno"),
        ["0", "interrupted-errno", "0"],
        "{}",
        ran.stdout
    );
    assert_eq!(ran.number("handler-outside-errno"), 0);
}

/// The library of `cargo test` unwinds: there `pthread_cancel`'s forced
/// unwinding runs Rust destructors, which a Release library (panic=abort)
/// does not have; c-tests/install/main.rs runs the same program against the
/// installed Release library.
fn a_thread_cancelled_inside_a_capture_write_leaves_later_writes_working(_: &Build, ran: &Ran) {
    assert_eq!(ran.words("cancel-errno"), ["0"; 4], "{}", ran.stdout);
    assert!(ran.has_line("done"), "{}", ran.stdout);
}

fn a_siglongjmp_out_of_a_capture_write_leaves_later_writes_working(_: &Build, ran: &Ran) {
    assert_eq!(ran.words("longjmp-errno"), ["0"; 4], "{}", ran.stdout);
    assert!(ran.has_line("done"), "{}", ran.stdout);
}

/// The calls of `syscall` in strace's summary (`strace -c -o FILE`).
fn calls(summary: &str, syscall: &str) -> u64 {
    summary
        .lines()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            (words.last() == Some(&syscall)).then(|| words[3].parse().unwrap())
        })
        .unwrap_or(0)
}

/// Runs capdiag's `mode` with `n` records under strace: its writev and
/// rt_sigprocmask calls.
fn traced_records(build: &Build, mode: &str, n: u32) -> (u64, u64) {
    let dir = support::temp_dir();
    let summary = dir.path().join("strace.txt");
    let out = std::process::Command::new("strace")
        .args(["-f", "-c", "-e", "trace=writev,rt_sigprocmask", "-o"])
        .arg(&summary)
        .arg(&build.exe)
        .arg(mode)
        .arg(n.to_string())
        .arg(dir.path().join("cap.dat"))
        .env_remove("TRACEPOINT_CAPTURE_FILE")
        .output()
        .expect("strace (scripts/packages.txt) runs");
    assert!(
        out.status.success(),
        "strace {mode} {n}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&summary).unwrap();
    (calls(&text, "writev"), calls(&text, "rt_sigprocmask"))
}

/// capdiag records, under strace: a capture write to a regular file is one
/// system call and changes no signal mask without RLIMIT_FSIZE.
fn a_capture_write_to_a_regular_file_is_one_system_call(build: &Build, _: &Ran) {
    let (writev0, mask0) = traced_records(build, "records", 0);
    let (writev, mask) = traced_records(build, "records", 1000);
    assert_eq!(writev - writev0, 1000);
    assert_eq!(mask, mask0, "no mask change without RLIMIT_FSIZE");
}

/// capdiag records-limited, under strace: with a finite RLIMIT_FSIZE when
/// the file is selected, SIGXFSZ can arise, and each write blocks it and
/// restores the mask.
fn a_capture_write_blocks_sigxfsz_when_it_can_arise(build: &Build, _: &Ran) {
    let (writev0, mask0) = traced_records(build, "records", 0);
    let (writev, mask) = traced_records(build, "records-limited", 1000);
    assert_eq!(writev - writev0, 1000);
    assert!(
        mask >= mask0 + 2000,
        "{mask} mask changes with RLIMIT_FSIZE"
    );
}

const PREFIX: &str = "eventheader-tracepoint: ";

fn eventheader_debug_names_the_capture_file_that_cannot_be_opened(build: &Build, ran: &Ran) {
    assert_eq!(ran.number("open-errno"), ENOENT as i64);
    let path = ran.dir.path().join("nonexistent/ev.dat");
    assert_eq!(
        ran.stderr,
        format!(
            "{PREFIX}cannot open the capture file \"{}\": ENOENT (No such file or directory)\n",
            path.display()
        ),
        "{}",
        build.label
    );
}

fn without_eventheader_debug_a_failed_open_says_nothing(_: &Build, quiet: &Ran) {
    assert_eq!(quiet.number("open-errno"), ENOENT as i64);
    assert_eq!(quiet.stderr, "", "without EVENTHEADER_DEBUG, nothing");
}

fn eventheader_debug_says_why_user_events_is_not_available(_: &Build, ran: &Ran) {
    // On a host with user_events (and permission) the open succeeds and
    // nothing is said; elsewhere one line says why.
    if ran.number("open-errno") == 0 {
        assert_eq!(ran.stderr, "");
    } else {
        let lines: Vec<&str> = ran.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{}", ran.stderr);
        let line = lines[0];
        assert!(
            line.starts_with(&format!(
                "{PREFIX}cannot open a provider: user_events is not available: "
            )),
            "{line}"
        );
        assert!(
            line.contains("set TRACEPOINT_CAPTURE_FILE to capture events to a file"),
            "{line}"
        );
    }
}

fn eventheader_debug_reports_the_first_capture_write_errors(_: &Build, ran: &Ran) {
    let enospc = ENOSPC.to_string();
    assert_eq!(ran.words("write-errors"), [enospc.as_str(); 10]);
    let line = format!("{PREFIX}a capture write failed: ENOSPC (No space left on device)");
    let mut want = vec![line.clone(); 7];
    want.push(format!("{line} (the last capture write error reported)"));
    assert_eq!(ran.stderr.lines().collect::<Vec<_>>(), want);
}

/// One record of the timed layout (docs/format.md §7.4): its stamp and the
/// fields of the `captimed` event it holds.
#[derive(Debug)]
struct Timed {
    time: u64,
    pid: u32,
    tid: u32,
    /// seq, wpid, wtid, before.
    fields: (i64, u32, u32, i64),
}

/// The records of a capture written by `captimed`: every one of the timed
/// layout, each decoded with `tracepoint_decode`.
fn timed_records(bytes: &[u8]) -> Vec<Timed> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let field = u32::from_le_bytes(rest[..4].try_into().unwrap());
        assert!(field & 1 << 31 != 0, "a record without the timed flag");
        let size = (field & !(1 << 31)) as usize;
        let (record, next) = rest.split_at(size);
        let word = |at: usize| u32::from_le_bytes(record[at..at + 4].try_into().unwrap());
        let time = u64::from(word(4)) | u64::from(word(8)) << 32;
        let (pid, tid) = (word(12), word(16));
        let nul = record[20..].iter().position(|&b| b == 0).unwrap();
        let rec = support::Record {
            name: String::from_utf8(record[20..20 + nul].to_vec()).unwrap(),
            event: record[20 + nul + 1..].to_vec(),
        };
        let decoded = support::decode::items(&rec);
        // Items are `name:encoding/format=value`.
        let value = |name: &str| -> i64 {
            let prefix = format!("{name}:");
            let item = decoded.items.iter().find(|i| i.starts_with(&prefix));
            let item = item.unwrap_or_else(|| panic!("no {name} in {:?}", decoded.items));
            item.split_once('=').unwrap().1.parse().unwrap()
        };
        out.push(Timed {
            time,
            pid,
            tid,
            fields: (
                value("seq"),
                value("wpid") as u32,
                value("wtid") as u32,
                value("before"),
            ),
        });
        rest = next;
    }
    out
}

fn timed_records_carry_the_writers_time_pid_and_tid_across_threads_and_fork(
    build: &Build,
    ran: &Ran,
) {
    let parent = ran.number("parent") as u32;
    let threads = [ran.number("thread1") as u32, ran.number("thread2") as u32];
    let child = ran.number("child") as u32;
    let bytes = std::fs::read(ran.dir.path().join("cap.dat")).unwrap();
    let records = timed_records(&bytes);
    assert_eq!(records.len(), 600, "{}", build.label);
    let mut last = std::collections::HashMap::new();
    for r in &records {
        let (seq, wpid, wtid, before) = r.fields;
        // The record's ids are its writer's, also in the child after
        // fork (whose one thread had its parent thread's id cached).
        assert_eq!((r.pid, r.tid), (wpid, wtid), "{}: {r:?}", build.label);
        assert!(
            r.time >= before as u64,
            "{}: stamped before the write: {r:?}",
            build.label
        );
        let writer = (r.pid, r.tid);
        if let Some(&(prev_seq, prev_time)) = last.get(&writer) {
            assert_eq!(seq, prev_seq + 1, "{}: {r:?}", build.label);
            assert!(
                r.time > prev_time,
                "{}: time not increasing: {r:?}",
                build.label
            );
        }
        last.insert(writer, (seq, r.time));
    }
    let mut writers: Vec<_> = last.keys().copied().collect();
    writers.sort();
    let mut want = vec![(parent, threads[0]), (parent, threads[1]), (child, child)];
    want.sort();
    assert_eq!(writers, want, "{}", build.label);
}

fn a_capture_layout_that_is_none_refuses_the_capture_file(_: &Build, ran: &Ran) {
    assert_eq!(ran.number("select-errno"), EINVAL as i64);
    assert!(!ran.dir.path().join("cap.dat").exists());
}

/// The judge of every run of this binary's programs.
fn judges() -> Vec<Judge> {
    let mut judges = vec![
        judge(
            "capsig",
            "reader-exits",
            a_pipe_whose_reader_is_gone_gets_epipe_and_the_host_lives,
        ),
        judge(
            "capsig",
            "two-writers",
            two_processes_on_one_fifo_never_interleave,
        )
        .first_gcc_build_only(),
        judge(
            "capsig",
            "fsize-boundary",
            the_file_size_limit_at_a_record_boundary_is_efbig_not_a_kill,
        )
        .first_gcc_build_only(),
        judge(
            "capsig",
            "huge",
            records_over_64_mib_are_refused_whole_and_nothing_latches,
        )
        .first_gcc_build_only(),
        judge(
            "capsig",
            "handler",
            a_signal_handler_interrupting_a_capture_write_writes_an_ordinary_event,
        ),
        judge(
            "capcut",
            "cancel",
            a_thread_cancelled_inside_a_capture_write_leaves_later_writes_working,
        ),
        judge(
            "capcut",
            "longjmp",
            a_siglongjmp_out_of_a_capture_write_leaves_later_writes_working,
        ),
        judge(
            "captimed",
            "timed",
            timed_records_carry_the_writers_time_pid_and_tid_across_threads_and_fork,
        ),
        judge(
            "captimed",
            "bad-layout",
            a_capture_layout_that_is_none_refuses_the_capture_file,
        )
        .first_gcc_build_only(),
        judge(
            "capdiag",
            "records",
            a_capture_write_to_a_regular_file_is_one_system_call,
        )
        .first_gcc_build_only(),
        judge(
            "capdiag",
            "records-limited",
            a_capture_write_blocks_sigxfsz_when_it_can_arise,
        )
        .first_gcc_build_only(),
        judge(
            "capdiag",
            "debug-missing-dir",
            eventheader_debug_names_the_capture_file_that_cannot_be_opened,
        ),
        judge(
            "capdiag",
            "quiet-missing-dir",
            without_eventheader_debug_a_failed_open_says_nothing,
        ),
        judge(
            "capdiag",
            "debug-kernel",
            eventheader_debug_says_why_user_events_is_not_available,
        )
        .first_gcc_build_only(),
        judge(
            "capdiag",
            "debug-write-errors",
            eventheader_debug_reports_the_first_capture_write_errors,
        )
        .first_gcc_build_only(),
    ];
    let suite = testkit::manifest::SUITES
        .iter()
        .find(|s| s.name == "hardening")
        .expect("the hardening suite");
    for program in suite.programs {
        if !["capsig", "capcut", "captimed", "capdiag"].contains(&program.name) {
            judges.extend(trials::program_judged_elsewhere(
                program.name,
                "cargo test --test hardening",
            ));
        }
    }
    judges
}

fn main() {
    trials::main(
        env!("CARGO_TARGET_TMPDIR"),
        "hardening",
        &judges(),
        Vec::new(),
    )
}
