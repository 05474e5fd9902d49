//! The `eventheader` command-line tool as a library: the binary
//! (`src/main.rs`) parses the command line and calls the subcommands here;
//! the fuzz targets (`fuzz/`) and tests call the decoder directly.

// The project's library provides the C ABI that `ffi` declares.
extern crate eventheader_tracepoint as _;

/// The exit status table of `--help` (a macro, for `concat!`); `exit::Status`
/// defines the values.
#[macro_export]
macro_rules! exit_status_help {
    () => {
        "Exit status:
  0  success
  1  other failure (I/O error, malformed input, a registration the kernel refused)
  2  bad command line
  3  invalid tracepoint name or definition, or no such tracepoint
  4  no user_events: tracefs not mounted or kernel without CONFIG_USER_EVENTS
  5  permission denied (tracefs, user_events_data or perf_event_open)
  6  collect: events were lost (the kernel's ring buffers overflowed)
  7  collect: the command it ran failed (or could not be started)
  8  doctor: collecting not permitted (perf_event_paranoid, capabilities, tracefs)
  9  doctor: the tracepoints are registered but no collector enabled them
When several apply: the first of 2, 4, 5, 8, 3, 9, 1, 6, 7."
    };
}

pub mod collect;
pub mod decode;
pub mod doctor;
pub mod exit;
pub mod ffi;
pub mod filter;
pub mod guard;
pub mod perfdata;
pub mod plural;
pub mod progress;
pub mod register;
pub mod spec;
pub mod stats;
pub mod tracefs;
