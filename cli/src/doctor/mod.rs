//! `eventheader doctor`: says in plain words whether events written on this
//! machine can reach a collector, and what to do when not. One line per
//! check, a fix under each failing one, and an exit status from the table
//! in [`DOCTOR_AFTER_HELP`].

mod collecting;
pub mod parse;
mod report;
mod system;
mod tracepoints;

use std::path::PathBuf;

use clap::Args;

use crate::exit::{Error, Status};
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

Exit status:
  0  all well: events written here can reach a collector (warnings aside)
  1  PROGRAM could not be read
  2  bad command line
  3  no tracepoint of the provider (or the program) is registered
  4  no user_events: kernel without CONFIG_USER_EVENTS, or tracefs not mounted
  5  this user may not write user_events_data: its programs' events are dropped
  8  this user may not collect (perf_event_paranoid without CAP_PERFMON or
     CAP_SYS_ADMIN, or tracefs not readable)
  9  the tracepoints are registered, but no collector enabled any of them
When several apply: the first of 2, 4, 5, 8, 3, 9, 1.";

/// Every check, in the order printed.
pub fn checks(args: &DoctorArgs) -> Result<Vec<Check>, Error> {
    let sys = Sys::new(args.root.as_deref());
    let program = match &args.program {
        Some(p) => Some(
            system::read_program(p)
                .map_err(|e| Error::io(&e, format!("reading {}", p.display())))?,
        ),
        None => None,
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
        return Ok(all);
    };
    all.push(collecting::check_tracefs_read(&sys, root));
    if program.is_none() && args.providers.is_empty() {
        return Ok(all);
    }
    if has_data != Some(true) {
        all.push(Check::skip(
            "tracepoints",
            "not checked: no user_events_data to see",
        ));
        return Ok(all);
    }
    let reg = tracepoints::registered(&sys, root);
    let mut providers = args.providers.clone();
    if let (Some(bytes), Some(path)) = (&program, &args.program) {
        let found = tracepoints::providers_of_program(bytes, &reg);
        let name = "program";
        if found.is_empty() {
            all.push(Check::fail(
                Status::BadTracepoint,
                name,
                format!(
                    "{}: none of the {} registered user_events tracepoints has a provider named in it",
                    path.display(),
                    reg.entries.len()
                ),
                "start the program (it registers its tracepoints when it starts, \
                 TraceLoggingRegister) and run doctor again, or name its provider with --provider",
            ));
        } else {
            all.push(Check::ok(
                name,
                format!("{}: providers {}", path.display(), found.join(", ")),
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
