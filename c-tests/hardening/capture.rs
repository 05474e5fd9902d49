//! Capture files that are pipes, at their limits, and written from signal
//! handlers (`c-tests/hardening/capsig.c`, docs/capture-mode.md): no capture
//! write lets SIGPIPE or SIGXFSZ kill its host, a FIFO takes records of at
//! most `PIPE_BUF` bytes whole, no record is larger than `eventheader
//! decode` reads, and a signal handler that interrupted its thread's capture
//! write gets EDEADLK instead of waiting for itself. The program runs with
//! the killing dispositions and a watchdog; `build.run` fails unless it
//! exits 0.
#[path = "../../tests/support/mod.rs"]
mod support;

use support::errno::{E2BIG, EDEADLK, EFBIG, EPIPE};
use support::Toolchain;

#[test]
fn a_pipe_whose_reader_is_gone_gets_epipe_and_the_host_lives() {
    for build in support::builds("capsig") {
        let ran = build.run("reader-exits");
        assert_eq!(ran.words("fifo-errno"), ["0", &EPIPE.to_string()]);
        assert_eq!(ran.number("pipe-errno"), EPIPE as i64);
        assert!(ran.has_line("done"), "{}", ran.stdout);
    }
}

#[test]
fn two_processes_on_one_fifo_never_interleave() {
    let build = support::build("capsig", Toolchain::GCC);
    let ran = build.run("two-writers");
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

#[test]
fn the_file_size_limit_at_a_record_boundary_is_efbig_not_a_kill() {
    let build = support::build("capsig", Toolchain::GCC);
    let ran = build.run("fsize-boundary");
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

#[test]
fn records_over_64_mib_are_refused_whole_and_nothing_latches() {
    let build = support::build("capsig", Toolchain::GCC);
    let ran = build.run("huge");
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

#[test]
fn a_signal_handler_interrupting_a_capture_write_gets_edeadlk_not_a_hang() {
    for build in support::builds("capsig") {
        let ran = build.run("handler");
        assert_eq!(
            ran.words("handler-errno"),
            [&EDEADLK.to_string(), "interrupted-errno", "0"],
            "{}",
            ran.stdout
        );
        assert_eq!(ran.number("handler-outside-errno"), 0);
    }
}
