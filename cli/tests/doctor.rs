//! `eventheader doctor` on this machine (no user_events: it must say so,
//! name CONFIG_USER_EVENTS and exit 4) and on fake machines: trees of /proc,
//! /sys and /boot files under a directory given with the hidden `--root`,
//! one per state a real machine can be in. The real kernel's cases run in
//! the VM suite (VM run `cli_doctor`: cli/tests/vm/doctor.sh, judged by
//! testkit's checks::cli_doctor).

mod common;

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use common::run;

fn doctor(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["doctor"];
    all.extend_from_slice(args);
    let out = run(&all);
    (
        out.status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The line of check `name` (its state, name and what was found).
fn line<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find(|l| {
            l.get(6..)
                .is_some_and(|r| r.starts_with(&format!("{name} ")))
        })
        .unwrap_or_else(|| panic!("no line for check {name:?} in:\n{out}"))
}

/// The fix printed under check `name`.
fn fix<'a>(out: &'a str, name: &str) -> &'a str {
    let l = line(out, name);
    let mut lines = out.lines().skip_while(|x| *x != l).skip(1);
    lines
        .next()
        .filter(|x| x.trim_start().starts_with("fix: "))
        .unwrap_or_else(|| panic!("no fix under {name:?} in:\n{out}"))
}

/// A fake machine: `put` writes a file under the root.
struct Machine {
    dir: tempfile::TempDir,
}

impl Machine {
    /// A machine where all is well: CONFIG_USER_EVENTS=y, tracefs at
    /// /sys/kernel/tracing with user_events_data, perf_event_paranoid 2
    /// and CAP_PERFMON in the effective set, and these user_events_status
    /// lines.
    fn well(status: &str) -> Machine {
        let m = Machine {
            dir: tempfile::tempdir().unwrap(),
        };
        m.put("proc/sys/kernel/osrelease", b"6.12.0-test\n");
        m.put(
            "proc/config.gz",
            &gzip(b"CONFIG_TRACING=y\nCONFIG_USER_EVENTS=y\n"),
        );
        m.put(
            "proc/self/mountinfo",
            b"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n\
              30 22 0:12 / /sys/kernel/tracing rw,relatime - tracefs tracefs rw\n",
        );
        m.put("proc/self/status", b"Name:\tx\nCapEff:\t0000004000000000\n");
        m.put("proc/sys/kernel/perf_event_paranoid", b"2\n");
        m.put("sys/kernel/tracing/user_events_data", b"");
        m.put("sys/kernel/tracing/user_events_status", status.as_bytes());
        for l in status.lines().take_while(|l| !l.is_empty()) {
            let name = l.split_whitespace().next().unwrap();
            m.put(
                &format!("sys/kernel/tracing/events/user_events/{name}/id"),
                b"1\n",
            );
            m.put(
                &format!("sys/kernel/tracing/events/user_events/{name}/enable"),
                b"0\n",
            );
        }
        std::fs::create_dir_all(m.path("sys/kernel/tracing/events")).unwrap();
        m
    }

    fn path(&self, p: &str) -> PathBuf {
        self.dir.path().join(p)
    }

    fn put(&self, p: &str, bytes: &[u8]) {
        let p = self.path(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    fn remove(&self, p: &str) {
        let p = self.path(p);
        if p.is_dir() {
            std::fs::remove_dir_all(p).unwrap();
        } else {
            std::fs::remove_file(p).unwrap();
        }
    }

    fn root(&self) -> &str {
        self.dir.path().to_str().unwrap()
    }

    fn doctor(&self, args: &[&str]) -> (i32, String, String) {
        let mut all = vec!["--root", self.root()];
        all.extend_from_slice(args);
        doctor(&all)
    }
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

const STATUS: &str =
    "MyProvider_L5K1 # Used by perf\nMyProvider_L4K2\nIdle_L5K1\n\nActive: 3\nBusy: 1\n";

/// This machine's kernel has no user_events: doctor says so, names the
/// kernel option and the file it read, gives a fix, and exits 4.
#[test]
fn this_machine_has_no_user_events() {
    assert!(
        !Path::new("/sys/kernel/tracing/events").exists(),
        "this test expects a machine without tracefs; with user_events, run tests/kernel/run.sh"
    );
    let (rc, out, err) = doctor(&[]);
    assert_eq!(rc, 4, "{out}{err}");
    let kernel = line(&out, "kernel");
    assert!(kernel.starts_with("FAIL"), "{out}");
    assert!(kernel.contains("CONFIG_USER_EVENTS"), "{out}");
    assert!(
        fix(&out, "kernel").contains("CONFIG_USER_EVENTS=y"),
        "{out}"
    );
    assert!(line(&out, "tracefs").contains("not mounted"), "{out}");
    assert!(fix(&out, "tracefs").contains("mount -t tracefs"), "{out}");
    assert!(line(&out, "user_events_data").starts_with("-"), "{out}");
    assert!(
        out.trim_end()
            .ends_with("user_events is not available (exit status 4)"),
        "{out}"
    );
    // Where user_events is missing, capture mode is the way to record.
    let note = out
        .lines()
        .find(|l| l.starts_with("note  "))
        .unwrap_or_else(|| panic!("no capture mode note in:\n{out}"));
    assert!(
        note.contains("capture mode") && note.contains("TRACEPOINT_CAPTURE_FILE"),
        "{out}"
    );
    // A provider asked about gets its line, saying why it is not checked;
    // the rest is the same.
    let (rc, out2, _) = doctor(&["--provider", "MyProvider"]);
    assert_eq!(rc, 4, "{out2}");
    let l = line(&out2, "provider MyProvider");
    assert!(
        l.starts_with("-") && l.contains("cannot be checked") && l.contains("no tracefs"),
        "{out2}"
    );
    // (The columns widen for the longer check name.)
    let words = |text: &str, skip: &str| -> Vec<Vec<String>> {
        text.lines()
            .filter(|x| *x != skip)
            .map(|x| x.split_whitespace().map(str::to_owned).collect())
            .collect()
    };
    assert_eq!(words(&out2, l), words(&out, ""));
}

#[test]
fn all_well() {
    let m = Machine::well(STATUS);
    let (rc, out, err) = m.doctor(&[]);
    assert_eq!(rc, 0, "{out}{err}");
    assert!(line(&out, "kernel").starts_with("ok"), "{out}");
    assert!(line(&out, "kernel").contains("kernel 6.12.0-test"), "{out}");
    assert!(
        line(&out, "tracefs").contains("mounted at /sys/kernel/tracing"),
        "{out}"
    );
    assert!(line(&out, "write access").starts_with("ok"), "{out}");
    assert!(line(&out, "collecting").contains("CAP_PERFMON"), "{out}");
    assert!(line(&out, "tracefs read").starts_with("ok"), "{out}");
    assert!(!out.contains("FAIL") && !out.contains("fix:"), "{out}");
    assert!(
        !out.contains("note") && !out.contains("capture mode"),
        "{out}"
    );
    assert!(
        out.ends_with(
            "all well: events written on this machine can reach a collector (exit status 0)\n"
        ),
        "{out}"
    );
}

#[test]
fn providers_registered_enabled_or_not() {
    let m = Machine::well(STATUS);
    // The processes with perf events open: the candidates for "perf".
    m.put("proc/412/comm", b"eventheader\n");
    std::fs::create_dir_all(m.path("proc/412/fd")).unwrap();
    std::fs::create_dir_all(m.path("proc/77/fd")).unwrap();
    std::os::unix::fs::symlink("anon_inode:[perf_event]", m.path("proc/412/fd/5")).unwrap();
    std::os::unix::fs::symlink("/dev/null", m.path("proc/77/fd/0")).unwrap();
    let (rc, out, _) = m.doctor(&["--provider", "MyProvider"]);
    assert_eq!(rc, 0, "{out}");
    assert!(
        line(&out, "perf users").ends_with("processes with perf events open: 412 (eventheader)"),
        "{out}"
    );
    assert!(
        line(&out, "provider MyProvider").contains("2 tracepoints registered, 1 enabled"),
        "{out}"
    );
    assert!(
        line(&out, "  MyProvider_L5K1").contains("enabled by perf"),
        "{out}"
    );
    let l = line(&out, "  MyProvider_L4K2");
    assert!(
        l.starts_with("warn") && l.contains("not enabled (level 4, keyword 0x2)"),
        "{out}"
    );
    // Registered, nothing enabled: 9; not registered: 3 (and 3 comes first).
    let (rc, out, _) = m.doctor(&["--provider", "Idle"]);
    assert_eq!(rc, 9, "{out}");
    assert!(
        !out.contains("perf users"),
        "nothing enabled by perf:\n{out}"
    );
    assert!(
        fix(&out, "provider Idle").contains("eventheader collect"),
        "{out}"
    );
    let (rc, out, _) = m.doctor(&["-p", "Idle", "-p", "Missing"]);
    assert_eq!(rc, 3, "{out}");
    assert!(
        line(&out, "provider Missing").contains("no tracepoint registered"),
        "{out}"
    );
    assert!(
        fix(&out, "provider Missing").contains("eventheader register Missing_L5K1"),
        "{out}"
    );
    // Without user_events_status (not readable), the enable files tell
    // ftrace's users only: a warning, not a failure.
    m.remove("sys/kernel/tracing/user_events_status");
    m.put(
        "sys/kernel/tracing/events/user_events/Idle_L5K1/enable",
        b"1\n",
    );
    let (rc, out, _) = m.doctor(&["-p", "Idle", "-p", "MyProvider"]);
    assert_eq!(rc, 0, "{out}");
    assert!(
        line(&out, "  Idle_L5K1").contains("enabled by ftrace"),
        "{out}"
    );
    assert!(
        line(&out, "provider MyProvider").starts_with("warn"),
        "{out}"
    );
}

#[test]
fn a_program_names_its_providers() {
    let m = Machine::well(STATUS);
    m.put("prog", b"\x7fELF\x02\x01\0MyProvider\0other\0");
    let (rc, out, _) = m.doctor(&[m.path("prog").to_str().unwrap()]);
    assert_eq!(rc, 0, "{out}");
    assert!(
        line(&out, "program").contains(&format!(
            "{}: providers MyProvider",
            m.path("prog").display()
        )),
        "{out}"
    );
    assert!(line(&out, "  MyProvider_L5K1").starts_with("ok"), "{out}");
    m.put("prog", b"\x7fELF\x02\x01\0Nothing\0");
    let (rc, out, _) = m.doctor(&[m.path("prog").to_str().unwrap()]);
    assert_eq!(rc, 3, "{out}");
    let (rc, out, err) = m.doctor(&["/nonexistent/program"]);
    assert_eq!(rc, 1, "{out}");
    assert!(err.contains("/nonexistent/program"), "{err}");
}

#[test]
fn kernel_without_user_events() {
    // The configuration from /boot when /proc/config.gz is missing; no tracefs.
    let m = Machine::well(STATUS);
    m.remove("proc/config.gz");
    m.remove("sys/kernel/tracing");
    m.put(
        "proc/self/mountinfo",
        b"22 1 0:21 / /sys rw - sysfs sysfs rw\n",
    );
    m.put(
        "boot/config-6.12.0-test",
        b"# CONFIG_USER_EVENTS is not set\n",
    );
    let (rc, out, _) = m.doctor(&[]);
    assert_eq!(rc, 4, "{out}");
    assert!(
        line(&out, "kernel")
            .contains("# CONFIG_USER_EVENTS is not set in /boot/config-6.12.0-test"),
        "{out}"
    );
    assert!(line(&out, "tracefs").starts_with("FAIL"), "{out}");
    // tracefs mounted but no user_events_data, no configuration readable.
    let m = Machine::well(STATUS);
    m.remove("proc/config.gz");
    m.remove("sys/kernel/tracing/user_events_data");
    let (rc, out, _) = m.doctor(&["-p", "MyProvider"]);
    assert_eq!(rc, 4, "{out}");
    assert!(line(&out, "user_events_data").contains("missing"), "{out}");
    assert!(line(&out, "kernel").starts_with("FAIL"), "{out}");
    let l = line(&out, "provider MyProvider");
    assert!(
        l.starts_with("-") && l.contains("no user_events_data"),
        "{out}"
    );
    assert!(
        out.contains("note  ") && out.contains("TRACEPOINT_CAPTURE_FILE"),
        "{out}"
    );
}

#[test]
fn tracefs_found_elsewhere() {
    let m = Machine::well(STATUS);
    std::fs::rename(m.path("sys/kernel/tracing"), m.path("sys/kernel/debug")).unwrap();
    m.put(
        "proc/self/mountinfo",
        b"40 1 0:7 / /sys/kernel/debug rw - debugfs debugfs rw\n\
          41 40 0:12 / /mnt/my\\040trace rw - tracefs tracefs rw\n",
    );
    std::fs::create_dir_all(m.path("mnt")).unwrap();
    std::os::unix::fs::symlink(m.path("sys/kernel/debug"), m.path("mnt/my trace")).unwrap();
    let (rc, out, _) = m.doctor(&[]);
    assert_eq!(rc, 0, "{out}");
    assert!(
        line(&out, "tracefs").contains("mounted at /mnt/my trace"),
        "{out}"
    );
}

#[test]
fn collecting_not_permitted() {
    let m = Machine::well(STATUS);
    m.put("proc/self/status", b"CapEff:\t0000000000000000\n");
    let (rc, out, _) = m.doctor(&[]);
    assert_eq!(rc, 8, "{out}");
    assert!(
        line(&out, "collecting").contains("perf_event_paranoid 2 and uid"),
        "{out}"
    );
    assert!(
        fix(&out, "collecting").contains("kernel.perf_event_paranoid=-1"),
        "{out}"
    );
    m.put("proc/sys/kernel/perf_event_paranoid", b"-1\n");
    assert_eq!(m.doctor(&[]).0, 0);
    // CAP_SYS_ADMIN alone is enough.
    m.put("proc/sys/kernel/perf_event_paranoid", b"3\n");
    m.put("proc/self/status", b"CapEff:\t0000000000200000\n");
    assert_eq!(m.doctor(&[]).0, 0);
}

/// As nobody, user_events_data (mode 0600, owned by root) is not writable:
/// status 5 and the fix says how to grant it.
#[test]
fn write_access_denied() {
    let is_root = std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"));
    assert!(
        is_root,
        "this test runs the tool as nobody with setpriv, which needs root"
    );
    let m = Machine::well(STATUS);
    let data = m.path("sys/kernel/tracing/user_events_data");
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::fs::set_permissions(m.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // The binary may live where nobody cannot reach it: copy it.
    let bin = m.path("eventheader");
    std::fs::copy(env!("CARGO_BIN_EXE_eventheader"), &bin).unwrap();
    let mut attempts = 0;
    let out = loop {
        let out = std::process::Command::new("setpriv")
            .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
            .arg(&bin)
            .args(["doctor", "--root", m.root()])
            .output()
            .expect("setpriv (util-linux) is needed");
        attempts += 1;
        // Another test forking while the copy is open: ETXTBSY for a moment.
        if attempts < 10 && String::from_utf8_lossy(&out.stderr).contains("Text file busy") {
            std::thread::sleep(std::time::Duration::from_millis(100));
            continue;
        }
        break out;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(5),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let l = line(&text, "write access");
    assert!(
        l.starts_with("FAIL") && l.contains("(nobody) may not write"),
        "{text}"
    );
    assert!(
        line(&text, "user_events_data").contains("owner root:root, mode 0600"),
        "{text}"
    );
    let f = fix(&text, "write access");
    assert!(
        f.contains("chmod g+rw") && f.contains("usermod -aG tracing nobody"),
        "{text}"
    );
}

/// Damaged files never crash doctor: it reports what it can and exits
/// with a status from its table.
#[test]
fn damaged_files() {
    let m = Machine::well(STATUS);
    m.put(
        "sys/kernel/tracing/user_events_status",
        b"\0\x01# Used\n#\n \n\xff",
    );
    m.put("proc/config.gz", b"\x1f\x8b\x08garbage");
    m.put("proc/self/mountinfo", b"\xff\xfe - - -\n1 2 3\n");
    m.put("proc/self/status", b"CapEff:\tnot-hex\n");
    m.put("proc/sys/kernel/perf_event_paranoid", b"lots\n");
    m.put("proc/sys/kernel/osrelease", b"../../etc\n");
    let (rc, out, err) = m.doctor(&["-p", "*"]);
    assert!([0, 3, 4, 5, 8, 9].contains(&rc), "{rc}: {out}{err}");
    assert!(err.is_empty(), "{err}");
    assert!(line(&out, "collecting").starts_with("warn"), "{out}");
}

#[test]
fn help_and_usage() {
    let (rc, out, _) = doctor(&["--help"]);
    assert_eq!(rc, 0);
    for want in [
        "Usage: eventheader doctor",
        "Exit status:",
        "  8  this user may not collect",
        "  9  the tracepoints are registered",
        "the first of 2, 4, 5, 8, 3, 9, 1",
        "capture mode works without it: TRACEPOINT_CAPTURE_FILE",
        "not a regular file (a FIFO, a device)",
    ] {
        assert!(out.contains(want), "{want:?} missing from:\n{out}");
    }
    assert!(
        !out.contains("--root"),
        "the tests' option is hidden:\n{out}"
    );
    let (rc, _, err) = doctor(&["--frobnicate"]);
    assert_eq!(rc, 2, "{err}");
    let (rc, _, err) = doctor(&["a", "b"]);
    assert_eq!(rc, 2, "{err}");
}

/// Runs doctor with `args`, killing it (and failing) if it takes more
/// than 20 seconds: a test of what once blocked must fail, not hang.
fn doctor_within_time(args: &[&str]) -> (i32, String, String) {
    let mut child = common::bin()
        .arg("doctor")
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("doctor {args:?} still running after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A FIFO or a device given as PROGRAM is refused at once (status 1), with
/// what it is: opening a FIFO must not wait for a writer, reading a device
/// must not take memory.
#[test]
fn a_program_that_is_no_regular_file_is_refused() {
    let m = Machine::well(STATUS);
    let fifo = m.path("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let (rc, out, err) = doctor_within_time(&["--root", m.root(), fifo.to_str().unwrap()]);
    assert_eq!(rc, 1, "{out}{err}");
    assert!(
        err.contains(&format!(
            "reading {}: a FIFO is not a regular file",
            fifo.display()
        )),
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
    for (dev, what) in [("/dev/zero", "a character device"), ("/", "a directory")] {
        let (rc, out, err) = doctor_within_time(&["--root", m.root(), dev]);
        assert_eq!(rc, 1, "{dev}: {out}{err}");
        assert!(
            err.contains(&format!("{what} is not a regular file")),
            "{err}"
        );
    }
    // A kernel file that is a FIFO on the (fake) machine is not read either:
    // doctor goes on as without it.
    m.remove("proc/sys/kernel/perf_event_paranoid");
    let c = std::ffi::CString::new(
        m.path("proc/sys/kernel/perf_event_paranoid")
            .to_str()
            .unwrap(),
    )
    .unwrap();
    // SAFETY: `c` is a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let (rc, out, err) = doctor_within_time(&["--root", m.root()]);
    assert_eq!(rc, 8, "{out}{err}");
    assert!(
        line(&out, "collecting").contains("no /proc/sys/kernel/perf_event_paranoid"),
        "{out}"
    );
}

/// A program file over the scan's bound (1 GiB; sparse here) is scanned up
/// to it, in bounded memory, and the program line says so.
#[test]
fn a_program_over_the_bound_is_scanned_to_it() {
    let m = Machine::well(STATUS);
    let prog = m.path("big");
    {
        let mut f = std::fs::File::create(&prog).unwrap();
        f.write_all(b"\x7fELF\x02\x01\0MyProvider\0").unwrap();
        f.set_len((1 << 30) + 1).unwrap();
    }
    let (out, usage) = common::run_measured(
        &["doctor", "--root", m.root(), prog.to_str().unwrap()],
        |mut stdout| {
            let mut out = String::new();
            std::io::Read::read_to_string(&mut stdout, &mut out).unwrap();
            out
        },
    );
    assert_eq!(usage.code, 0, "{out}{}", usage.stderr);
    assert!(
        usage.max_rss_kib < 64 << 10,
        "peak memory {} KiB for a sparse 1 GiB file",
        usage.max_rss_kib
    );
    assert!(
        line(&out, "program").contains(&format!(
            "{} (its first 1073741824 bytes of 1073741825 bytes scanned): providers MyProvider",
            prog.display()
        )),
        "{out}"
    );
}

/// Control characters in a mount path (mountinfo writes a newline as
/// \012; an escape character stays raw) are printed escaped: one check is
/// one line, and no terminal sequence reaches the terminal.
#[test]
fn control_characters_in_paths_are_escaped() {
    let m = Machine::well(STATUS);
    m.put(
        "proc/self/mountinfo",
        b"41 1 0:12 / /mnt/a\\012ok\x1b[2J rw - tracefs tracefs rw\n",
    );
    let (rc, out, _) = m.doctor(&[]);
    assert_eq!(rc, 4, "{out}");
    assert!(
        line(&out, "tracefs").contains("mounted at /mnt/a\\nok\\e[2J"),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "{out:?}");
    for l in out.lines() {
        assert!(
            [
                "ok ",
                "warn",
                "FAIL",
                "-  ",
                "   ",
                "note",
                "events written"
            ]
            .iter()
            .any(|p| l.starts_with(p)),
            "a line that is no check's: {l:?} in\n{out}"
        );
    }
}

/// The providers a program declares, read from its sections (TraceLogging
/// call sites, tracepoint-provider.h tracepoints), are listed on its line
/// even where nothing can be registered: here, on this machine without
/// tracefs, for a position-independent, a position-dependent and a shared
/// build (symbol relocations) of one C file.
#[test]
fn a_program_lists_the_providers_it_declares() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("p.c");
    std::fs::write(
        &src,
        r#"#include <eventheader/TraceLoggingProvider.h>
#include <tracepoint/tracepoint-provider.h>
TRACELOGGING_DEFINE_PROVIDER(ProvA, "DoctorElf_A",
    (0x8e5d1e3c, 0x0d6b, 0x5c2a, 0x9e, 0x7f, 0x61, 0x2c, 0x4a, 0x90, 0x33, 0x1b));
TPP_DEFINE_PROVIDER(TppProv);
TPP_FUNCTION(TppProv, "doctor_elf_tpp", doctor_elf_tpp, TPP_UINT16("port", port));
int main(int argc, char** argv)
{
    (void)argv;
    TraceLoggingRegister(ProvA);
    TraceLoggingWrite(ProvA, "Ev", TraceLoggingInt32(argc, "argc"));
    TPP_REGISTER_PROVIDER(TppProv);
    doctor_elf_tpp(1);
    return 0;
}
"#,
    )
    .unwrap();
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../include");
    for (name, flags) in [
        ("pie", &["-fPIE", "-pie"][..]),
        ("nopie", &["-fno-pie", "-no-pie"][..]),
        ("shared", &["-fPIC", "-shared"][..]),
    ] {
        let out = dir.path().join(name);
        // Not linked with the library: only the sections are looked at.
        let cc = std::process::Command::new("cc")
            .args(flags)
            .arg("-I")
            .arg(&include)
            .arg(&src)
            .arg("-o")
            .arg(&out)
            .arg("-Wl,--unresolved-symbols=ignore-all")
            .output()
            .expect("cc (a C compiler) is needed");
        assert!(
            cc.status.success(),
            "{}",
            String::from_utf8_lossy(&cc.stderr)
        );
        let m = Machine::well(STATUS);
        m.remove("sys/kernel/tracing");
        m.put(
            "proc/self/mountinfo",
            b"22 1 0:21 / /sys rw - sysfs sysfs rw\n",
        );
        let (rc, text, err) = m.doctor(&[out.to_str().unwrap()]);
        assert_eq!(rc, 4, "{text}{err}");
        let l = line(&text, "program");
        assert!(
            l.starts_with("-")
                && l.contains(&format!(
                    "{}: providers DoctorElf_A, doctor_elf_tpp; ",
                    out.display()
                ))
                && l.contains("cannot be checked: no tracefs"),
            "{name}: {text}"
        );
    }
    // A file that is no ELF program declares none.
    let m = Machine::well(STATUS);
    m.remove("sys/kernel/tracing");
    m.put(
        "proc/self/mountinfo",
        b"22 1 0:21 / /sys rw - sysfs sysfs rw\n",
    );
    let (_, text, _) = m.doctor(&[src.to_str().unwrap()]);
    assert!(
        line(&text, "program").contains("no provider found in it"),
        "{text}"
    );
}
