//! `eventheader doctor`: says in plain words whether events written on this
//! machine can reach a collector, and what to do when not. One line per
//! check, a fix under each failing one, and an exit status from the table
//! in [`DOCTOR_AFTER_HELP`].

mod collecting;
mod elf;
pub mod files;
pub mod parse;
mod report;
mod system;
mod tracepoints;

use std::path::PathBuf;

use clap::Args;

use crate::exit::{Error, Status};
use crate::plural;
use report::Check;
use system::{Sys, Tracefs};

#[derive(Args, Debug)]
#[command(after_help = DOCTOR_AFTER_HELP)]
pub struct DoctorArgs {
    /// A program (executable or shared library): check the registered
    /// tracepoints whose provider names are among its strings.
    #[arg(value_name = "PROGRAM")]
    pub program: Option<PathBuf>,

    /// Check this provider's tracepoints (`*` and `?` match any
    /// characters). May be repeated.
    #[arg(short, long = "provider", value_name = "NAME")]
    pub providers: Vec<String>,

    /// Read /proc, /sys and /boot under DIR (the tests' fake machines).
    #[arg(long, hide = true, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

const DOCTOR_AFTER_HELP: &str = "\
Checks, one line each (ok, warn, FAIL, or - when an earlier failure makes
one meaningless), with a fix under each failing one:
  kernel            CONFIG_USER_EVENTS (/proc/config.gz, /boot/config-RELEASE)
  tracefs           mounted, and where
  user_events_data  present in tracefs, its owner and mode
  write access      may this user's programs register and write events
  collecting        perf_event_paranoid, CAP_PERFMON / CAP_SYS_ADMIN
  tracefs read      may a collector run by this user read tracefs
  provider NAME     with PROGRAM or --provider: its tracepoints, which are
                    registered, which enabled and by whom (ftrace, perf)
  perf users        when perf enabled some: the processes with perf events
                    open (the kernel does not say which is on which tracepoint)

Examples:
  eventheader doctor
  eventheader doctor ./my-program
  eventheader doctor -p MyProvider -p 'Other*'

Exit status:
  0  all well: events written here can reach a collector (warnings aside)
  1  PROGRAM could not be read, or is not a regular file (a FIFO, a device)
  2  bad command line
  3  no tracepoint of the provider (or the program) is registered
  4  no user_events: kernel without CONFIG_USER_EVENTS, or tracefs not mounted
     (capture mode works without it: TRACEPOINT_CAPTURE_FILE=FILE writes the
     events to FILE, which eventheader decode reads)
  5  this user may not write user_events_data: its programs' events are dropped
  8  this user may not collect (perf_event_paranoid without CAP_PERFMON or
     CAP_SYS_ADMIN, or tracefs not readable)
  9  the tracepoints are registered, but no collector enabled any of them
When several apply: the first of 2, 4, 5, 8, 3, 9, 1.";

/// The lines of what was asked about (PROGRAM, `--provider`) when it
/// cannot be checked, saying why; the program's line names the providers
/// it declares.
fn unchecked(args: &DoctorArgs, declared: &[String], why: &str) -> Vec<Check> {
    let mut out = Vec::new();
    if let Some(p) = &args.program {
        let found = if declared.is_empty() {
            "no provider found in it".to_string()
        } else {
            format!("providers {}", declared.join(", "))
        };
        out.push(Check::skip(
            "program",
            format!(
                "{}: {found}; their tracepoints cannot be checked: {why}",
                p.display()
            ),
        ));
    }
    for p in &args.providers {
        out.push(Check::skip(
            format!("provider {p}"),
            format!("its tracepoints cannot be checked: {why}"),
        ));
    }
    out
}

/// Every check, in the order printed.
pub fn checks(args: &DoctorArgs) -> Result<Vec<Check>, Error> {
    let sys = Sys::new(args.root.as_deref());
    let program_error = |p: &std::path::Path, e: std::io::Error| {
        Error::io(&e, format!("reading {}", files::show_path(p)))
    };
    // The program is refused at once, before any check (a FIFO or a device
    // never blocks); the providers it declares are read from its sections.
    let declared = match &args.program {
        Some(p) => {
            let (file, _) = files::open_regular(p).map_err(|e| program_error(p, e))?;
            elf::providers(&file)
        }
        None => Vec::new(),
    };
    let config = system::kernel_config(&sys);
    let tracefs = system::find_tracefs(&sys);
    let mut later = vec![system::check_tracefs(&tracefs)];
    let mut has_data = None;
    if let Tracefs::At(root, _) = &tracefs {
        let (data, present) = system::check_data(&sys, root);
        has_data = present;
        later.extend(data);
    } else {
        later.push(Check::skip("user_events_data", "not checked: no tracefs"));
    }
    let mut all = vec![system::check_kernel(&config, has_data)];
    all.extend(later);
    all.push(collecting::check_perf(&collecting::privileges(&sys)));
    let Tracefs::At(root, _) = &tracefs else {
        all.extend(unchecked(
            args,
            &declared,
            "no tracefs, so no registered tracepoint can be seen",
        ));
        return Ok(all);
    };
    all.push(collecting::check_tracefs_read(&sys, root));
    if args.program.is_none() && args.providers.is_empty() {
        return Ok(all);
    }
    if has_data != Some(true) {
        all.extend(unchecked(args, &declared, "no user_events_data to see"));
        return Ok(all);
    }
    let reg = tracepoints::registered(&sys, root);
    let mut providers = args.providers.clone();
    if let Some(path) = &args.program {
        let mut scan = tracepoints::ProgramProviders::new(&reg);
        let read = files::scan_program(path, |bytes| scan.feed(bytes))
            .map_err(|e| program_error(path, e))?;
        let mut found = scan.found();
        for p in &declared {
            if !found.contains(p) {
                found.push(p.clone());
            }
        }
        found.sort();
        let part = if read.scanned < read.size {
            format!(
                " (its first {} of {} scanned)",
                plural::count(read.scanned, "byte"),
                plural::count(read.size, "byte")
            )
        } else {
            String::new()
        };
        let name = "program";
        if found.is_empty() {
            all.push(Check::fail(
                Status::BadTracepoint,
                name,
                format!(
                    "{}{part}: none of the {} has a provider named in it",
                    path.display(),
                    plural::count(
                        reg.entries.len() as u64,
                        "registered user_events tracepoint"
                    )
                ),
                "start the program (it registers its tracepoints when it starts, \
                 TraceLoggingRegister) and run doctor again, or name its provider with --provider",
            ));
        } else {
            all.push(Check::ok(
                name,
                format!("{}{part}: providers {}", path.display(), found.join(", ")),
            ));
            providers.extend(found);
        }
    }
    let mut perf = false;
    for p in &providers {
        let checks = tracepoints::check_provider(p, &reg);
        perf |= checks.iter().any(|c| c.found.contains("enabled by perf"));
        all.extend(checks);
    }
    if perf {
        all.push(tracepoints::check_perf_users(&sys));
    }
    Ok(all)
}

pub fn run(args: &DoctorArgs) -> Result<Status, Error> {
    let checks = checks(args)?;
    print!("{}", report::render(&checks));
    Ok(report::status(&checks))
}
