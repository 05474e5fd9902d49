//! Exit statuses (documented in `--help` and docs/cli.md; scripts rely on them)
//! and the error type the subcommands return.

use std::fmt;
use std::process::ExitCode;

/// What the process reports to its parent. When several apply, the first of
/// 2, 4, 5, 8, 3, 9, 1, 6, 7 that applies (see `worst`): an error outranks lost
/// events, which outrank a failed command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Everything worked.
    Success = 0,
    /// Any other failure: I/O error, malformed input file, a registration the
    /// kernel refused for another reason (e.g. `EADDRINUSE`).
    Failure = 1,
    /// Bad command line (unknown option, missing argument).
    Usage = 2,
    /// A tracepoint name or definition is invalid, or names no tracepoint.
    BadTracepoint = 3,
    /// No user_events here: tracefs not mounted or the kernel lacks
    /// `CONFIG_USER_EVENTS`.
    NoUserEvents = 4,
    /// Permission denied (tracefs, `user_events_data`, `perf_event_open`).
    PermissionDenied = 5,
    /// `collect`: the kernel dropped events (the file is complete otherwise).
    EventsLost = 6,
    /// `collect -- COMMAND`: the command failed (non-zero exit or a signal)
    /// or could not be started.
    CommandFailed = 7,
    /// `doctor`: this user may not collect (perf_event_paranoid without
    /// CAP_PERFMON or CAP_SYS_ADMIN, tracefs not readable).
    CollectNotPermitted = 8,
    /// `doctor`: the tracepoints asked about are registered, but nothing has
    /// enabled any of them: their events are dropped.
    NotEnabled = 9,
}

impl Status {
    /// The exit status table, as printed in `--help`.
    pub const HELP: &'static str = exit_status_help!();

    /// The status for an errno from the kernel interface.
    pub fn from_errno(errno: i32) -> Status {
        match errno {
            libc::EACCES | libc::EPERM => Status::PermissionDenied,
            libc::EOPNOTSUPP | libc::ENOENT | libc::ENOSYS | libc::ENODEV => Status::NoUserEvents,
            _ => Status::Failure,
        }
    }

    /// The more important of two statuses (see the type's documentation).
    pub fn worst(self, other: Status) -> Status {
        fn rank(s: Status) -> u8 {
            match s {
                Status::Success => 0,
                Status::CommandFailed => 1,
                Status::EventsLost => 2,
                Status::Failure => 3,
                Status::NotEnabled => 4,
                Status::BadTracepoint => 5,
                Status::CollectNotPermitted => 6,
                Status::PermissionDenied => 7,
                Status::NoUserEvents => 8,
                Status::Usage => 9,
            }
        }
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s as u8)
    }
}

/// An error that ends a subcommand: a message for stderr and the status.
#[derive(Debug)]
pub struct Error {
    pub status: Status,
    pub message: String,
}

impl Error {
    pub fn new(status: Status, message: impl Into<String>) -> Error {
        Error {
            status,
            message: message.into(),
        }
    }

    /// An error from an errno, its status derived from the errno.
    pub fn errno(errno: i32, context: impl fmt::Display) -> Error {
        Error::new(
            Status::from_errno(errno),
            format!("{context}: {}", std::io::Error::from_raw_os_error(errno)),
        )
    }

    /// An error from the kernel's tracing interfaces (tracefs, perf_event_open),
    /// its status derived from the errno if any.
    pub fn kernel(e: &std::io::Error, context: impl fmt::Display) -> Error {
        match e.raw_os_error() {
            Some(errno) => Error::errno(errno, context),
            None => Error::new(Status::Failure, format!("{context}: {e}")),
        }
    }

    /// Any other I/O error (input and output files): status 1.
    pub fn io(e: &std::io::Error, context: impl fmt::Display) -> Error {
        Error::new(Status::Failure, format!("{context}: {e}"))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errno_maps_to_documented_statuses() {
        assert_eq!(Status::from_errno(libc::EACCES), Status::PermissionDenied);
        assert_eq!(Status::from_errno(libc::EPERM), Status::PermissionDenied);
        assert_eq!(Status::from_errno(libc::EOPNOTSUPP), Status::NoUserEvents);
        assert_eq!(Status::from_errno(libc::ENOENT), Status::NoUserEvents);
        assert_eq!(Status::from_errno(libc::EADDRINUSE), Status::Failure);
        assert_eq!(Status::from_errno(libc::EINVAL), Status::Failure);
    }

    #[test]
    fn statuses_are_ranked() {
        assert_eq!(
            Status::EventsLost.worst(Status::CommandFailed),
            Status::EventsLost
        );
        assert_eq!(
            Status::CommandFailed.worst(Status::EventsLost),
            Status::EventsLost
        );
        assert_eq!(
            Status::Success.worst(Status::CommandFailed),
            Status::CommandFailed
        );
        assert_eq!(Status::Failure.worst(Status::EventsLost), Status::Failure);
        assert_eq!(Status::Success.worst(Status::Success), Status::Success);
    }

    #[test]
    fn help_lists_every_status() {
        for s in [
            Status::Success,
            Status::Failure,
            Status::Usage,
            Status::BadTracepoint,
            Status::NoUserEvents,
            Status::PermissionDenied,
            Status::EventsLost,
            Status::CommandFailed,
            Status::CollectNotPermitted,
            Status::NotEnabled,
        ] {
            assert!(
                Status::HELP.contains(&format!("\n  {}  ", s as u8)),
                "{s:?} missing from the help text"
            );
        }
    }
}
