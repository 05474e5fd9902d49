//! `collect` on this machine's kernel tracepoints (`sched:sched_switch`),
//! with tracefs mounted in a private mount namespace (`unshare -m`, needs
//! root; skipped where that is not possible, unless `REQUIRE_UNSHARE=1`,
//! which `scripts/test.sh` sets): output files created new and never
//! through a link, a full disk in circular and normal mode, an output
//! directory where nothing can be created, a reader of standard output
//! that stalls during a burst (`syscalls:sys_enter_getppid`), signals sent
//! while collect starts, and `register` on a kernel with tracefs but no
//! user_events.

mod common;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Whether `unshare -m` works and tracefs can be mounted in it.
fn have_tracefs_namespace() -> bool {
    let ok = Command::new("unshare")
        .args([
            "-m",
            "sh",
            "-c",
            "mount -t tracefs nodev /sys/kernel/tracing && test -d /sys/kernel/tracing/events/sched/sched_switch",
        ])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    testkit::optional(
        ok,
        "REQUIRE_UNSHARE",
        "unshare -m with tracefs (collect on kernel tracepoints)",
    )
}

/// The shell command that runs `script` in a private mount namespace with
/// tracefs at /sys/kernel/tracing; `$EH` is the binary.
fn namespace(script: &str) -> Command {
    let mut cmd = Command::new("unshare");
    cmd.args([
        "-m",
        "sh",
        "-c",
        &format!("mount -t tracefs nodev /sys/kernel/tracing || exit 99\n{script}"),
    ])
    .env("EH", env!("CARGO_BIN_EXE_eventheader"));
    cmd
}

fn run_in_namespace(script: &str) -> (i32, String, String) {
    let out: Output = namespace(script).output().expect("running unshare");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn is_perf_data(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| b.starts_with(b"PERFILE2") && b.len() > 200)
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Names taken while collect runs (links to a file, dangling links, a
/// file) are skipped, never followed; an `-o` that is a link is renamed to
/// NAME.old, never written through (the file it points to is untouched).
#[test]
fn output_files_are_created_new_and_never_through_a_link() {
    if !have_tracefs_namespace() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let target = dir.path().join("target");
    std::fs::write(&target, b"precious").unwrap();
    // -o itself a link (circular mode never writes it), and in normal mode
    // a link to a file and a dangling link.
    symlink(&target, dir.path().join("t.data")).unwrap();
    symlink(&target, dir.path().join("n.data")).unwrap();
    symlink(dir.path().join("nowhere"), dir.path().join("m.data")).unwrap();
    // While recording: links at the next snapshot names, and a file, then
    // a snapshot (SIGUSR1) and the last one when the command exits.
    let script = format!(
        "ok() {{ \"$@\"; s=$?; [ $s = 0 ] || [ $s = 6 ]; }}  # 6: sched_switch events lost
         cd '{d}' && ok \"$EH\" collect -c -o '{d}/t.data' sched:sched_switch -- sh -c '\
           ln -s {d}/target t.0001.data; ln -s {d}/nowhere t.0002.data; echo taken > t.0003.data; \
           kill -USR1 $PPID; for i in $(seq 200); do [ -e t.0004.data ] && break; sleep 0.05; done; sleep 0.3' || exit 1
         ok \"$EH\" collect -d 0.3 -o '{d}/n.data' sched:sched_switch || exit 2
         ok \"$EH\" collect -d 0.3 -o '{d}/m.data' sched:sched_switch || exit 3"
    );
    let (rc, _, err) = run_in_namespace(&script);
    assert_eq!(std::fs::read(&target).unwrap(), b"precious", "{err}");
    assert!(!dir.path().join("nowhere").exists(), "{err}");
    assert_eq!(rc, 0, "{err}");
    assert!(is_link(&dir.path().join("t.data")));
    assert!(is_link(&dir.path().join("t.0001.data")));
    assert!(is_link(&dir.path().join("t.0002.data")));
    assert_eq!(
        std::fs::read(dir.path().join("t.0003.data")).unwrap(),
        b"taken\n"
    );
    for n in ["t.0004.data", "t.0005.data", "n.data", "m.data"] {
        assert!(is_perf_data(&dir.path().join(n)), "{n}: {err}");
    }
    assert!(
        err.contains(&format!("snapshot {d}/t.0004.data: ")),
        "{err}"
    );
    assert!(
        err.contains(&format!("snapshot {d}/t.0005.data: ")),
        "{err}"
    );
    assert!(err.contains(&format!("{d}/n.data existed: renamed to {d}/n.data.old")));
    assert!(is_link(&dir.path().join("n.data.old")));
    assert!(is_link(&dir.path().join("m.data.old")));
    // No probe file left behind.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.contains("probe")), "{names:?}");
}

/// A full disk: in circular mode the failed snapshot is reported (file and
/// errno), its partial file removed, and recording goes on: once there is
/// room, the next snapshot is written, and holds the failed one's events.
/// Exit status 1 (a snapshot could not be written).
#[test]
fn a_full_disk_fails_one_snapshot_and_recording_goes_on() {
    if !have_tracefs_namespace() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let script = format!(
        "mkdir '{d}/mnt' && mount -t tmpfs -o size=1m none '{d}/mnt' || exit 98
         cd '{d}/mnt'
         \"$EH\" collect -c -b 4M -o '{d}/mnt/t.data' sched:sched_switch -- sh -c '\
           dd if=/dev/zero of=fill bs=4k 2>/dev/null; \
           kill -USR1 $PPID; sleep 0.5; rm fill; \
           kill -USR1 $PPID; for i in $(seq 200); do [ -e t.0002.data ] && break; sleep 0.05; done; sleep 0.3'
         echo \"status $?\"
         ls -a; for f in t.*.data; do \"$EH\" decode --jsonl \"$f\" | wc -l; done"
    );
    let (rc, out, err) = run_in_namespace(&script);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("status 1\n"), "{out}{err}");
    // The file is created (an inode), its first write fails.
    let failed = format!(
        "{d}/mnt/t.0001.data: No space left on device (os error 28); the partial file was removed; its events stay in the buffers for the next snapshot"
    );
    assert!(
        err.contains(&format!("snapshot failed: creating {failed}"))
            || err.contains(&format!("snapshot failed: writing {failed}")),
        "{err}"
    );
    assert!(
        err.contains(&format!("snapshot {d}/mnt/t.0002.data: ")),
        "{err}"
    );
    assert!(err.contains("1 snapshot could not be written"), "{err}");
    // The partial file is gone; the later snapshot decodes.
    assert!(!out.contains("t.0001.data"), "{out}");
    assert!(out.contains("t.0002.data"), "{out}");
    let lines = out.lines().last().unwrap().trim().parse::<u64>().unwrap();
    assert!(lines > 0, "{out}");
}

/// A write error ends a normal-mode recording (status 1), and collect ends
/// its command as on SIGINT: the command is not left running.
#[test]
fn a_write_error_ends_the_command_too() {
    if !have_tracefs_namespace() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let script = format!(
        "mkdir '{d}/mnt' && mount -t tmpfs -o size=1m none '{d}/mnt' || exit 98
         \"$EH\" collect -b 64 -o '{d}/mnt/n.data' sched:sched_switch -- sh -c '\
           echo $$ > {d}/pid; dd if=/dev/zero of={d}/mnt/fill bs=4k 2>/dev/null; exec sleep 30'
         echo \"status $?\""
    );
    let started = Instant::now();
    let (rc, out, err) = run_in_namespace(&script);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(out.contains("status 1\n"), "{out}{err}");
    assert!(
        err.contains(&format!("writing {d}/mnt/n.data: No space left on device")),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(20), "{err}");
    let pid: i32 = std::fs::read_to_string(dir.path().join("pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // Reaped by collect: no such process (pids are not reused this fast).
    assert!(
        !Path::new(&format!("/proc/{pid}")).exists(),
        "the command ({pid}) still runs: {err}"
    );
}

/// A reader of standard output that stalls holds collect's writer thread,
/// not its rings: a burst of 60,000 events (about 4 MB, twice what the two
/// 1 MiB rings hold) written while the reader sleeps 3 s is kept whole in
/// the writer's pool and reaches the reader once it reads.
#[test]
fn a_stalled_reader_loses_nothing_the_pool_can_hold() {
    if !have_tracefs_namespace() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    // The burst takes about half a second: the rings are drained as
    // they fill even on a loaded machine.
    let script = format!(
        "( \"$EH\" collect -b 1024 -o - syscalls:sys_enter_getppid -- perl -e '
             select(undef, undef, undef, 0.3); for (1..60000) {{ getppid(); for (1..200) {{}} }}' \
             2>'{d}/err'; echo \"status $?\" >>'{d}/err' ) | ( sleep 3; cat >'{d}/out.data' )"
    );
    let (rc, out, err) = run_in_namespace(&script);
    assert_eq!(rc, 0, "{out}{err}");
    let err = std::fs::read_to_string(dir.path().join("err")).unwrap();
    assert!(err.contains("status 0\n"), "{err}");
    assert!(!err.contains("lost"), "{err}");
    let events: u64 = err
        .split_once("collect: ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {err}"));
    assert!(events >= 60_000, "{err}");
    let data = std::fs::read(dir.path().join("out.data")).unwrap();
    assert!(data.starts_with(b"PERFILE2"), "not a pipe-mode recording");
    assert!(data.len() > 60_000 * 48, "{} bytes", data.len());
}

/// `collect -c` into a directory where no file can be created is refused
/// at once, as normal mode refuses it (status 1), not at the first
/// snapshot.
#[test]
fn circular_mode_refuses_an_output_directory_it_cannot_write() {
    if !have_tracefs_namespace() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let script = format!(
        "mkdir '{d}/ro' && mount -t tmpfs -o ro none '{d}/ro' || exit 98
         \"$EH\" collect -c -d 5 -o '{d}/ro/t.data' sched:sched_switch
         echo \"circular $?\"
         \"$EH\" collect -d 5 -o '{d}/ro/t.data' sched:sched_switch
         echo \"normal $?\""
    );
    let started = Instant::now();
    let (rc, out, err) = run_in_namespace(&script);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(
        out.contains("circular 1\n") && out.contains("normal 1\n"),
        "{out}{err}"
    );
    assert!(
        err.contains(&format!(
            "cannot create the snapshot files {d}/ro/t.0001.data in {d}/ro/: Read-only file system"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!("creating {d}/ro/t.data: Read-only file system")),
        "{err}"
    );
    // Both refused before recording (5 s each otherwise).
    assert!(started.elapsed() < Duration::from_secs(5), "{err}");
}

/// Whether the process has run its runtime's start (Rust's runtime ignores
/// SIGPIPE just before `main`): the binary's constructors ran before.
fn started_main(pid: u32) -> bool {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return false;
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().to_string())
    };
    field("Name:").as_deref() == Some("eventheader")
        && field("SigIgn:")
            .and_then(|v| u64::from_str_radix(&v, 16).ok())
            .is_some_and(|m| m & (1 << (libc::SIGPIPE - 1)) != 0)
}

/// Spawns `script`'s collect (the namespace's shell execs it, same pid) and
/// sends `sig` as soon as its `main` is about to run.
fn signal_at_start(script: &str, sig: libc::c_int) -> Output {
    let child = namespace(script)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running unshare");
    let pid = child.id();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !started_main(pid) && Instant::now() < deadline {
        std::hint::spin_loop();
    }
    // SAFETY: kill has no memory-safety preconditions; `pid` is our child,
    // not yet reaped.
    unsafe { libc::kill(pid as libc::pid_t, sig) };
    child.wait_with_output().expect("waiting for collect")
}

/// Exit status 0, or 6 (events lost: sched_switch is busy), not a signal.
fn ended_well(out: &Output) -> bool {
    matches!(out.status.code(), Some(0 | 6))
}

/// A SIGUSR1 (a snapshot) or a SIGINT (stop) sent as collect starts is
/// handled, not fatal: the signals are blocked before `main` until the
/// handlers are installed.
#[test]
fn signals_sent_while_collect_starts_are_handled() {
    if !have_tracefs_namespace() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    for round in 0..8 {
        let out = signal_at_start(
            &format!("exec \"$EH\" collect -c -d 1 -o '{d}/c{round}.data' sched:sched_switch"),
            libc::SIGUSR1,
        );
        let err = String::from_utf8_lossy(&out.stderr);
        // 0, or 6 when sched_switch lost events while the buffers were
        // paused for a snapshot: not death by the signal.
        assert!(ended_well(&out), "round {round}: {:?} {err}", out.status);
        assert!(err.contains("(SIGUSR1)"), "round {round}: {err}");
        let out = signal_at_start(
            &format!("exec \"$EH\" collect -d 20 -o '{d}/n{round}.data' sched:sched_switch"),
            libc::SIGINT,
        );
        let err = String::from_utf8_lossy(&out.stderr);
        // 0, or 6 when sched_switch lost events while the buffers were
        // paused for a snapshot: not death by the signal.
        assert!(ended_well(&out), "round {round}: {:?} {err}", out.status);
        assert!(
            is_perf_data(&dir.path().join(format!("n{round}.data"))),
            "{err}"
        );
    }
}

/// With tracefs and without user_events (this machine's kernel), register
/// names the kernel, not tracefs, and both register and collect point to
/// capture mode.
#[test]
fn register_without_user_events_names_the_kernel() {
    if !have_tracefs_namespace() {
        return;
    }
    let (rc, out, err) = run_in_namespace(
        "test -e /sys/kernel/tracing/user_events_data && exit 97
         \"$EH\" register X_L5K1; echo \"register $?\"
         \"$EH\" collect -d 1 -o /dev/null X_L5K1; echo \"collect $?\"",
    );
    assert_eq!(rc, 0, "{out}{err}");
    assert!(
        out.contains("register 4\n") && out.contains("collect 4\n"),
        "{out}{err}"
    );
    let register = err.lines().next().unwrap_or("");
    assert!(
        register.contains("this kernel has no user_events (CONFIG_USER_EVENTS)")
            && !register.contains("not mounted")
            && register.contains("TRACEPOINT_CAPTURE_FILE"),
        "{err}"
    );
    let collect = err.lines().nth(1).unwrap_or("");
    assert!(
        collect.contains("CONFIG_USER_EVENTS") && collect.contains("TRACEPOINT_CAPTURE_FILE"),
        "{err}"
    );
}
