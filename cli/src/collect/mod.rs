//! `eventheader collect`: records tracepoints into a perf.data file (or a
//! pipe-mode stream on standard output) by opening the kernel's perf events
//! per CPU and reading their ring buffers (no `perf` needed), and with
//! `--live` prints each event decoded as it arrives. Stops on
//! SIGINT/SIGTERM, after `--duration`, or when the command given after `--`
//! exits.

mod args;
mod backward;
mod circular;
mod command;
mod fd_limit;
mod forward;
mod live;
mod metadata;
mod outdir;
mod output;
mod perf_events;
mod pieces;
mod processes;
mod recording;
mod resolve;
mod session;
pub mod signals;
mod snapshot;
mod spool;
mod trigger;

/// The circular mode's readers of untrusted bytes and text, for the fuzz
/// target `circular` (fuzz/).
#[doc(hidden)]
pub mod fuzzing {
    pub use super::backward::copy_records;
    pub use super::snapshot::time_order;
    pub use super::trigger::parse_spec;
}
use std::os::fd::AsFd;
use std::process::{Child, Command};
use std::sync::Arc;

use tracepoint_decode as td;

use crate::exit::{Error, Status};
use crate::perfdata::writer::EventInfo;
use crate::perfdata::Events;
pub use args::CollectArgs;
use args::{check_args, collect_specs};
use output::Recorded;

/// Starts the command; one that cannot be started failed (status 7, as one
/// that exits non-zero). When collect's standard output carries data (a
/// live view, or `-o -`), the command's goes to standard error instead.
fn spawn(
    command: &[String],
    stdout_is_data: bool,
    nofile: fd_limit::Limit,
) -> Result<Child, Error> {
    let mut cmd = Command::new(&command[0]);
    cmd.args(&command[1..]);
    fd_limit::restore_for(&mut cmd, nofile);
    if stdout_is_data {
        let stderr = std::io::stderr()
            .as_fd()
            .try_clone_to_owned()
            .map_err(|e| Error::io(&e, "standard error"))?;
        cmd.stdout(std::process::Stdio::from(stderr));
    }
    cmd.spawn().map_err(|e| {
        Error::new(
            Status::CommandFailed,
            format!("cannot run {}: {e}", command[0]),
        )
    })
}

/// The events of the recording, for decoding them live.
fn live_events(meta: &crate::perfdata::writer::Metadata, recorded: &[Recorded]) -> Events {
    let mut events = Events::new(td::PerfByteReader::new(cfg!(target_endian = "big")));
    events.set_clock_id(meta.clockid);
    events.set_clock_data(meta.clockid, meta.clock_at.0, meta.clock_at.1);
    for r in recorded {
        events.add(r.info.attr, r.info.name.clone(), r.info.ids.clone());
        if r.format.is_some() {
            events.add_format(&r.info.system, r.info.format.as_bytes());
        }
    }
    events
}
/// What the files say about each of `tracepoints`, given its ids and
/// attribute.
fn recorded(
    tracepoints: &[resolve::Tracepoint],
    descs: Vec<perf_events::EventIds>,
    side_band: Option<perf_events::EventIds>,
) -> Vec<Recorded> {
    let mut recorded: Vec<Recorded> = tracepoints
        .iter()
        .zip(descs)
        .map(|(tp, (ids, attr))| Recorded {
            info: EventInfo {
                ids,
                attr,
                name: tp.full_name(),
                system: tp.system.clone(),
                format: tp.format_text.clone(),
            },
            format: Some(Arc::clone(&tp.format)),
        })
        .collect();
    // The process records' event: no tracefs format of its own.
    recorded.extend(side_band.map(|(ids, attr)| Recorded {
        info: EventInfo {
            ids,
            attr,
            name: perf_events::SIDE_BAND_NAME.into(),
            system: String::new(),
            format: String::new(),
        },
        format: None,
    }));
    recorded
}
pub fn run(args: &CollectArgs) -> Result<Status, Error> {
    // First: a signal that arrived since the start is handled now.
    let flags = signals::install(args.circular)?;
    check_args(args)?;
    if args.circular {
        return circular::run(args, flags);
    }
    recording::run(args, flags)
}
