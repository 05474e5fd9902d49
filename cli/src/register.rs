//! `eventheader register`: pre-registers user_events tracepoints so that a
//! collector can enable them before the program that writes them starts.

use clap::Args;

use crate::exit::{Error, Status};
use crate::ffi::{Provider, USER_EVENT_REG_PERSIST};
use crate::spec::{self, Registration};
use crate::tracefs::Tracefs;

#[derive(Args, Debug)]
#[command(after_help = REGISTER_AFTER_HELP)]
pub struct RegisterArgs {
    /// Tracepoint definitions: `Provider_L5K1` (EventHeader; the standard
    /// fields are added) or `"Name u32 a; char[16] b"` (plain, full arg spec).
    #[arg(value_name = "DEFINITION")]
    pub definitions: Vec<String>,

    /// Read more definitions from FILE, one per line; empty lines and lines
    /// starting with '#' are ignored. May be repeated.
    #[arg(short, long, value_name = "FILE")]
    pub input: Vec<String>,

    /// Register with USER_EVENT_REG_PERSIST: the tracepoints stay after the
    /// tool exits (needs CAP_PERFMON). Implies --nowait unless --wait is given.
    #[arg(short, long)]
    pub persist: bool,

    /// Keep the tracepoints registered until SIGINT or SIGTERM (the default
    /// without --persist).
    #[arg(short, long, conflicts_with = "nowait")]
    pub wait: bool,

    /// Exit right after registering (the default with --persist). Without
    /// --persist the registrations end with the process.
    #[arg(short = 'W', long)]
    pub nowait: bool,

    /// Print each registration command on stderr.
    #[arg(short, long)]
    pub verbose: bool,
}

const REGISTER_AFTER_HELP: &str = concat!(
    "\
Each registered tracepoint's name is printed on stdout, one per line, once
all are registered (a script can wait for them before starting a collector).

Definitions:
  Provider_L5K1Gmygroup[:flags]   EventHeader tracepoint (no white space);
                                  registered as NAME u8 eventheader_flags;
                                  u8 version; u16 id; u16 tag; u8 opcode; u8 level
  Name[:flags] Fields...          plain tracepoint, kernel user_events syntax,
                                  e.g. \"MyEvent u32 a; char[16] b\"; \"MyEvent ;\"
                                  for no fields

Needs write access to <tracefs>/user_events_data (usually root).
Events of a tracepoint registered here are written by other programs; the
kernel keeps one tracepoint per name and arg spec.",
    "\n\n",
    exit_status_help!()
);

/// Every definition from the command line and the input files, in order.
pub fn collect_definitions(args: &RegisterArgs) -> Result<Vec<Registration>, Error> {
    spec::gather(
        &args.definitions,
        &args.input,
        spec::parse_registration,
        "tracepoint definitions",
    )
}

/// What to do on a machine without user_events: a program's events can
/// still be recorded in capture mode.
pub const CAPTURE_MODE_HINT: &str = "programs can still record their events without the kernel in capture mode: TRACEPOINT_CAPTURE_FILE=events.dat ./program, then eventheader decode events.dat";

/// What the machine has, for explaining a failed open of `user_events_data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// No tracefs mounted.
    NoTracefs,
    /// tracefs mounted without `user_events_data`: the kernel has no
    /// user_events.
    NoUserEventsData,
    /// tracefs with `user_events_data` (or tracefs not readable).
    Other,
}

/// Looks at tracefs: is it there, and has it `user_events_data`?
fn look() -> Found {
    match Tracefs::find() {
        Ok(t) if !t.has_user_events() => Found::NoUserEventsData,
        Ok(_) => Found::Other,
        Err(e) if e.status == Status::NoUserEvents => Found::NoTracefs,
        Err(_) => Found::Other,
    }
}

/// Explains why the library could not open `user_events_data`. The library
/// says `EOPNOTSUPP` when `/sys/kernel/tracing/user_events_data` is missing
/// and no other tracefs or debugfs mount has one, which is both "tracefs
/// not mounted" and "tracefs without user_events": tracefs itself tells
/// them apart.
pub fn open_error(errno: i32) -> Error {
    explain(errno, look())
}

/// [`open_error`] on a machine where tracefs is as `found` says.
pub fn explain(errno: i32, found: Found) -> Error {
    let missing = matches!(errno, libc::EOPNOTSUPP | libc::ENOENT);
    let why = match (errno, found) {
        (_, Found::NoUserEventsData) if missing => format!(
            "user_events is not available: this kernel has no user_events (CONFIG_USER_EVENTS): tracefs is mounted but has no user_events_data; {CAPTURE_MODE_HINT}"
        ),
        (_, Found::NoTracefs) if missing => format!(
            "user_events is not available: tracefs is not mounted (no /sys/kernel/tracing; as root: mount -t tracefs nodev /sys/kernel/tracing); {CAPTURE_MODE_HINT}"
        ),
        (libc::EOPNOTSUPP | libc::ENOENT, Found::Other) => format!(
            "user_events is not available: user_events_data cannot be opened; {CAPTURE_MODE_HINT}"
        ),
        (libc::EACCES | libc::EPERM, _) => {
            "permission denied opening user_events_data (needs write access: root, or a group given access to tracefs)".to_string()
        }
        _ => "cannot open user_events_data".to_string(),
    };
    Error::new(
        Status::from_errno(errno),
        format!("{why} ({})", std::io::Error::from_raw_os_error(errno)),
    )
}

/// Explains why the kernel refused one registration.
fn connect_error(r: &Registration, errno: i32, persist: bool) -> (Status, String) {
    let err = std::io::Error::from_raw_os_error(errno);
    let (status, hint) = match errno {
        libc::EADDRINUSE => (
            Status::Failure,
            "registered already with a different arg spec",
        ),
        libc::EINVAL => (Status::BadTracepoint, "the kernel refused the definition"),
        libc::E2BIG => (Status::BadTracepoint, "name too long"),
        libc::EPERM | libc::EACCES if persist => {
            (Status::PermissionDenied, "--persist needs CAP_PERFMON")
        }
        libc::EPERM | libc::EACCES => (Status::PermissionDenied, "permission denied"),
        _ => (Status::Failure, "registration failed"),
    };
    (status, format!("{}: {hint} ({err})", r.command))
}

pub fn run(args: &RegisterArgs) -> Result<Status, Error> {
    let registrations = collect_definitions(args)?;
    let wait = args.wait || (!args.persist && !args.nowait);
    // Signals that end the wait are caught from here on, so one that arrives
    // while registering is not lost (and does not kill us before cleanup).
    let signals = if wait {
        Some(
            signal_hook::iterator::Signals::new([libc::SIGINT, libc::SIGTERM])
                .map_err(|e| Error::io(&e, "installing signal handlers"))?,
        )
    } else {
        None
    };

    // Capture mode would send the registrations to a file: this tool is about
    // the kernel's tracepoints only.
    std::env::remove_var("TRACEPOINT_CAPTURE_FILE");
    let mut provider = Provider::open().map_err(open_error)?;
    let flags = if args.persist {
        USER_EVENT_REG_PERSIST
    } else {
        0
    };
    let mut status = Status::Success;
    let mut registered = Vec::new();
    for r in &registrations {
        if args.verbose {
            eprintln!("eventheader: registering \"{}\"", r.command);
        }
        match provider.connect(&r.command, flags) {
            Ok(()) => registered.push(r.name.as_str()),
            Err(errno) => {
                let (s, message) = connect_error(r, errno, args.persist);
                eprintln!("eventheader: {message}");
                status = status.worst(s);
            }
        }
    }
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        for name in &registered {
            let _ = writeln!(out, "{name}");
        }
        let _ = out.flush();
    }
    if registered.is_empty() {
        return Ok(status);
    }
    if let Some(mut signals) = signals {
        if args.verbose {
            eprintln!(
                "eventheader: {} registered; waiting for SIGINT or SIGTERM",
                crate::plural::count(registered.len() as u64, "tracepoint")
            );
        }
        let sig = signals.forever().next().unwrap_or(0);
        if args.verbose {
            eprintln!("eventheader: signal {sig}, unregistering");
        }
    }
    drop(provider);
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(defs: &[&str]) -> RegisterArgs {
        RegisterArgs {
            definitions: defs.iter().map(|s| s.to_string()).collect(),
            input: Vec::new(),
            persist: false,
            wait: false,
            nowait: true,
            verbose: false,
        }
    }

    #[test]
    fn definitions_from_arguments_and_files_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("defs");
        std::fs::write(&file, "# comment\n\nB_L4K2\n  C u32 x;  \n").unwrap();
        let mut a = args(&["A_L5K1"]);
        a.input.push(file.to_str().unwrap().to_string());
        let defs = collect_definitions(&a).unwrap();
        let names: Vec<_> = defs.iter().map(|r| r.command.as_str()).collect();
        assert_eq!(names.len(), 3);
        assert!(names[0].starts_with("A_L5K1 u8 eventheader_flags"));
        assert!(names[1].starts_with("B_L4K2 u8 eventheader_flags"));
        assert_eq!(names[2], "C u32 x");
    }

    #[test]
    fn bad_definitions_and_files() {
        let e = collect_definitions(&args(&["A_L5K1", "NoSuffix"])).unwrap_err();
        assert_eq!(e.status, Status::BadTracepoint);
        assert!(e.message.contains("NoSuffix"), "{}", e.message);
        let e = collect_definitions(&args(&[])).unwrap_err();
        assert_eq!(e.status, Status::Usage);
        let mut a = args(&[]);
        a.input.push("/nonexistent/defs".into());
        assert_eq!(collect_definitions(&a).unwrap_err().status, Status::Failure);
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("defs");
        std::fs::write(&file, "A_L5K1\nBad_L\n").unwrap();
        let mut a = args(&[]);
        a.input.push(file.to_str().unwrap().to_string());
        let e = collect_definitions(&a).unwrap_err();
        assert_eq!(e.status, Status::BadTracepoint);
        assert!(e.message.contains(":2: "), "{}", e.message);
    }

    #[test]
    fn open_errors_name_the_cause() {
        // The library's EOPNOTSUPP (or ENOENT) with tracefs and without.
        for errno in [libc::EOPNOTSUPP, libc::ENOENT] {
            let e = explain(errno, Found::NoTracefs);
            assert_eq!(e.status, Status::NoUserEvents);
            assert!(
                e.message.contains("tracefs is not mounted"),
                "{}",
                e.message
            );
            assert!(
                e.message.contains("TRACEPOINT_CAPTURE_FILE"),
                "{}",
                e.message
            );
            let e = explain(errno, Found::NoUserEventsData);
            assert_eq!(e.status, Status::NoUserEvents);
            assert!(
                e.message
                    .contains("this kernel has no user_events (CONFIG_USER_EVENTS)")
                    && !e.message.contains("not mounted"),
                "{}",
                e.message
            );
            assert!(
                e.message.contains("TRACEPOINT_CAPTURE_FILE"),
                "{}",
                e.message
            );
        }
        let e = explain(libc::EACCES, Found::Other);
        assert_eq!(e.status, Status::PermissionDenied);
        assert!(e.message.contains("permission denied"));
    }
}
