//! The command line on this machine: help, usage errors, name validation and
//! the documented exit statuses. This machine's kernel has no tracefs (the
//! project's build machines); `register` and `collect` must say so and exit
//! with status 4. The real-kernel cases (permission denied, persist, lost
//! events, ...) run in the VM suite (`tests/kernel/run.sh`, VM run `cli`:
//! cli/tests/vm/guest.sh, judged by testkit's checks::cli).

mod common;

use std::path::Path;

use common::run;

fn code(args: &[&str]) -> (i32, String, String) {
    let out = run(args);
    (
        out.status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_no_tracefs() {
    assert!(
        !Path::new("/sys/kernel/tracing/events").exists(),
        "these tests expect a machine without tracefs (no /sys/kernel/tracing/events); \
         with user_events, run tests/kernel/run.sh instead"
    );
}

#[test]
fn help_on_every_subcommand() {
    for args in [
        &["--help"][..],
        &["register", "--help"],
        &["collect", "--help"],
        &["decode", "--help"],
        &["help", "decode"],
    ] {
        let (rc, out, err) = code(args);
        assert_eq!(rc, 0, "{args:?}: {err}");
        assert!(out.contains("Usage: eventheader"), "{args:?}:\n{out}");
        assert!(
            out.contains("Exit status:"),
            "{args:?} documents the exit statuses:\n{out}"
        );
    }
    let (rc, out, _) = code(&["--version"]);
    assert_eq!((rc, out.trim()), (0, "eventheader 1.4.0"));
}

/// Help and version text that standard output refuses (`/dev/full`: ENOSPC)
/// is a failure, reported, as decode's output is; a reader that closes the
/// pipe early is not. Before, `eventheader --help >/dev/full` exited 0 and
/// said nothing.
#[test]
fn help_into_a_full_device_exits_1() {
    use std::process::Stdio;
    for args in [
        &["--help"][..],
        &["--version"],
        &["-V"],
        &["register", "--help"],
        &["collect", "--help"],
        &["decode", "-h"],
        &["help", "decode"],
        &["help"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = common::bin()
            .args(args)
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .expect("running eventheader");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("eventheader: writing to standard output: No space left on device"),
            "{args:?}: {err}"
        );
    }
    // A reader that takes the first line and closes the pipe.
    let mut child = common::bin()
        .arg("--help")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running eventheader");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("waiting for eventheader");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &[][..],
        &["bogus"],
        &["decode"],
        &["decode", "--meta", "nonsense", "x"],
        &["decode", "--order", "random", "x"],
        &["collect", "--buffer-size", "1", "X_L5K1"],
        &["collect", "--duration", "-3", "X_L5K1"],
        &["register", "--wait", "--nowait", "X_L5K1"],
        &["register", "--frobnicate"],
        // No definitions at all.
        &["register"],
        &["collect"],
        // --live writes standard output, so does -o -; --event and --meta
        // need --live; filter values out of range.
        &["collect", "--live", "-o", "-", "X_L5K1"],
        &["collect", "--event", "E", "X_L5K1"],
        &["collect", "--meta", "all", "X_L5K1"],
        &["collect", "--live", "--level", "0", "X_L5K1"],
        &["decode", "--keyword", "0", "x"],
        &["decode", "--pid", "x", "x"],
        // Circular mode: not with --live or -o -; its options need it;
        // buffers of 4 KiB to 2 GiB; a --snapshot-on filter that parses.
        &["collect", "-c", "--live", "X_L5K1"],
        &["collect", "-c", "-o", "-", "X_L5K1"],
        &["collect", "--max-snapshots", "2", "X_L5K1"],
        &["collect", "--snapshot-on", "level=1", "X_L5K1"],
        &["collect", "-c", "--after", "1", "X_L5K1"],
        &["collect", "-c", "--max-snapshots", "0", "X_L5K1"],
        &["collect", "-c", "-b", "3G", "X_L5K1"],
        &["collect", "-c", "--snapshot-on", "level", "X_L5K1"],
        &["collect", "-c", "--snapshot-on", "colour>red", "X_L5K1"],
        &["collect", "-c", "--snapshot-on", "pid<5", "X_L5K1"],
    ] {
        let (rc, _, err) = code(args);
        assert_eq!(rc, 2, "{args:?}: {err}");
        assert!(!err.is_empty(), "{args:?}: says why");
    }
}

/// What circular mode's refusals say.
#[test]
fn circular_refusals_say_why() {
    for (args, says) in [
        (
            &["collect", "-c", "--live", "X_L5K1"][..],
            "--circular writes only on snapshots",
        ),
        (&["collect", "-c", "-o", "-", "X_L5K1"], "cannot hold them"),
        (
            &["collect", "-c", "-b", "3G", "X_L5K1"],
            "a ring buffer is 4 KiB to 2 GiB",
        ),
        (
            &["collect", "-c", "--snapshot-on", "colour>red", "X_L5K1"],
            "'red' is not a number",
        ),
        (
            &["collect", "-c", "--snapshot-on", "level=1,pid<5", "X_L5K1"],
            "field 'pid': '<' compares fields",
        ),
        (
            &["collect", "-c", "--snapshot-on", "level=0", "X_L5K1"],
            "invalid value",
        ),
    ] {
        let (rc, _, err) = code(args);
        assert_eq!(rc, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // Without user_events here: circular mode says so as collect does.
    assert_no_tracefs();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.data");
    let (rc, _, err) = code(&[
        "collect",
        "-c",
        "-d",
        "1",
        "-o",
        out.to_str().unwrap(),
        "X_L5K1",
    ]);
    assert_eq!(rc, 4, "{err}");
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "no file written"
    );
    // Field and comm terms are the filter language's: they parse, and the
    // run goes on to the kernel (not here: status 4, not 2).
    let (rc, _, err) = code(&[
        "collect",
        "-c",
        "--snapshot-on",
        "provider=X,size>=4096 s.t=a,comm=app",
        "-d",
        "1",
        "-o",
        out.to_str().unwrap(),
        "X_L5K1",
    ]);
    assert_eq!(rc, 4, "{err}");
}

/// Invalid names are refused before anything touches the kernel (status 3),
/// with the reason.
#[test]
fn invalid_definitions_exit_3() {
    for (def, why) in [
        ("Provider", "lacks the \"_L<level>K<keyword>\" suffix"),
        ("Provider_L5", "lacks the \"K<keyword>\" suffix"),
        ("Provider_LAK1", "lacks the \"_L<level>\" suffix"),
        ("Provider_L5K1G-x", "in its options"),
        ("_L5K1", "empty provider name"),
        ("a:b:Provider_L5K1", "contains ':'"),
    ] {
        let (rc, _, err) = code(&["register", def]);
        assert_eq!(rc, 3, "{def}: {err}");
        assert!(err.contains(why), "{def}: {err}");
    }
    let long = format!("{}_L5K1", "p".repeat(251));
    let (rc, _, err) = code(&["register", &long]);
    assert_eq!(rc, 3);
    assert!(err.contains("too long"), "{err}");
    // Every bad line of a file is reported with its line number; nothing registers.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("defs");
    std::fs::write(&file, "# ok\nGood_L5K1\n\nBad_L\n").unwrap();
    let (rc, _, err) = code(&["register", "-i", file.to_str().unwrap()]);
    assert_eq!(rc, 3);
    assert!(err.contains("defs:4: "), "{err}");
    // collect's specs too.
    for spec in [
        ":sched:sched_switch u32 x",
        "Provider_* u32 x",
        "bad-system:x",
    ] {
        let (rc, _, err) = code(&["collect", "-d", "1", spec]);
        assert_eq!(rc, 3, "{spec}: {err}");
    }
}

#[test]
fn missing_input_file_exits_1() {
    let (rc, _, err) = code(&["register", "-i", "/nonexistent/defs"]);
    assert_eq!(rc, 1, "{err}");
    assert!(err.contains("/nonexistent/defs"), "{err}");
}

/// No user_events here: a clear message and status 4, for register and
/// collect alike; capture mode (TRACEPOINT_CAPTURE_FILE) does not make
/// register pretend to succeed.
#[test]
fn no_user_events_exits_4() {
    assert_no_tracefs();
    let (rc, out, err) = code(&["register", "X_L5K1"]);
    assert_eq!(rc, 4, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("user_events is not available: tracefs is not mounted"),
        "{err}"
    );
    let (rc, _, err) = code(&["register", "--persist", "X_L5K1", "Y u32 a"]);
    assert_eq!(rc, 4, "{err}");
    let (rc, _, err) = code(&["collect", "-d", "1", "-o", "/dev/null", "X_L5K1"]);
    assert_eq!(rc, 4, "{err}");
    assert!(err.contains("tracefs is not mounted"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("capture.dat");
    let out = common::bin()
        .args(["register", "X_L5K1"])
        .env("TRACEPOINT_CAPTURE_FILE", &capture)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    assert!(
        !capture.exists(),
        "register must not write to a capture file"
    );
}

/// As an unprivileged user the answer on this machine is still "no
/// user_events" (nothing to be denied); in the VM it is status 5.
#[test]
fn unprivileged_user_without_tracefs() {
    assert_no_tracefs();
    let is_root = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
    assert!(
        is_root,
        "this test runs the tool as nobody with setpriv, which needs root"
    );
    // The binary may live where nobody cannot reach it: copy it.
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("eventheader");
    std::fs::copy(env!("CARGO_BIN_EXE_eventheader"), &bin).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // Another test thread forking while the copy's descriptor is open makes
    // exec fail with ETXTBSY for a moment: try again then.
    let mut attempts = 0;
    let out = loop {
        let out = std::process::Command::new("setpriv")
            .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            .arg(&bin)
            .args(["register", "X_L5K1"])
            .output()
            .expect("setpriv (util-linux) is needed");
        attempts += 1;
        if attempts < 10 && String::from_utf8_lossy(&out.stderr).contains("Text file busy") {
            std::thread::sleep(std::time::Duration::from_millis(100));
            continue;
        }
        break out;
    };
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{err}");
    assert!(err.contains("tracefs is not mounted"), "{err}");
}

/// `register` accepts only EventHeader names the library can write
/// (docs/format.md §3.1, §3.2): level 1..ff and keyword of at most 16 digits,
/// both lowercase hex without leading zeros, options `([A-Z][0-9a-z]*)*`
/// sorted, no '/'. Checked before anything touches the kernel: status 3.
#[test]
fn names_the_library_cannot_write_exit_3() {
    for (name, why) in [
        ("Prov_L0K1", "level 0"),
        ("Prov_L100K1", "level 100"),
        ("Prov_L5K10000000000000000", "17 digits"),
        ("Prov_L5K1gbad", "options starting with 'g'"),
        ("Prov_L05K1", "leading zero"),
        ("Prov_L5K1GaAb", "out of order"),
        ("Pro/v_L5K1", "'/'"),
    ] {
        let (rc, _, err) = code(&["register", name]);
        assert_eq!(rc, 3, "{name}: {err}");
        assert!(err.contains(why), "{name}: {err}");
    }
}

/// A definitions file that is not one (/dev/zero: no end, no newline) is
/// refused after 4 MiB, quickly and in bounded memory (it grew to 2.7 GB).
#[test]
fn endless_definitions_file_exits_1() {
    let started = std::time::Instant::now();
    let (rc, usage) = common::run_with_usage(&["register", "-i", "/dev/zero"]);
    assert_eq!(rc, 1);
    assert!(
        usage.stderr.contains("/dev/zero: more than 4 MiB"),
        "{}",
        usage.stderr
    );
    assert!(
        usage.max_rss_kib < 64 * 1024,
        "max RSS {} KiB",
        usage.max_rss_kib
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

/// `help --help` (and `help SUBCOMMAND --help`) print the help, status 0
/// (clap refused `--help` as a subcommand name: status 2).
#[test]
fn help_of_help() {
    for args in [
        &["help", "--help"][..],
        &["help", "-h"],
        &["help", "decode", "--help"],
    ] {
        let (rc, out, err) = code(args);
        assert_eq!(rc, 0, "{args:?}: {err}");
        assert!(out.contains("Usage: eventheader"), "{args:?}: {out}");
    }
    let (_, out, _) = code(&["help", "decode", "--help"]);
    assert!(out.contains("Usage: eventheader decode"), "{out}");
}

/// A negative filter value is a bad value of its option or field, named in
/// the message (status 2), not an unknown option "-1".
#[test]
fn negative_filter_values_name_the_field() {
    for (args, says) in [
        (
            &["collect", "-c", "--snapshot-on", "pid=-1", "X_L5K1"][..],
            "field 'pid': '-1' is not a process id",
        ),
        (
            &[
                "collect",
                "-c",
                "--snapshot-on",
                "level=1,level=-2",
                "X_L5K1",
            ],
            "field 'level': given twice",
        ),
        (
            &["collect", "-c", "--snapshot-on", "keyword=0", "X_L5K1"],
            "field 'keyword': a keyword mask of 0 matches nothing",
        ),
        (
            &["decode", "--pid", "-1", "x"],
            "invalid value '-1' for '--pid <PID>': '-1' is not a process id",
        ),
        (
            &["collect", "--level", "-1", "X_L5K1"],
            "invalid value '-1' for '--level <N>': '-1' is not a level",
        ),
    ] {
        let (rc, _, err) = code(args);
        assert_eq!(rc, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("unexpected argument"), "{args:?}: {err}");
    }
}
