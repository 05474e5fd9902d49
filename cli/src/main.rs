//! `eventheader`: pre-register user_events tracepoints, collect them into
//! perf.data without perf, and decode capture files and perf.data to JSON.

// The project's library provides the C ABI that `ffi` declares.
extern crate eventheader_tracepoint as _;

/// The exit status table of `--help` (a macro, for `concat!`); `exit::Status`
/// defines the values.
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
  7  collect: the command it ran failed
When several apply: the first of 2, 4, 5, 3, 1, 6, 7."
    };
}

mod collect;
mod decode;
mod exit;
mod ffi;
mod generate;
mod progress;
mod register;
mod spec;
mod tracefs;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use exit::Status;

#[derive(Parser, Debug)]
#[command(
    name = "eventheader",
    version,
    about = "Pre-register user_events tracepoints, collect them into perf.data, decode captures and perf.data to JSON",
    after_help = Status::HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Register user_events tracepoints so collectors can enable them before
    /// the program that writes them starts.
    Register(register::RegisterArgs),
    /// Record user_events tracepoints into a perf.data file (no perf needed).
    Collect(collect::CollectArgs),
    /// Print the events of capture files and perf.data files as JSON.
    Decode(decode::DecodeArgs),
    /// Write the man pages and the bash, zsh and fish completions into a
    /// directory, laid out as under <prefix>/share (the CMake build runs it).
    #[command(hide = true)]
    Generate(generate::GenerateArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version exit 0; usage errors 2 (Status::Usage).
            let _ = e.print();
            return if e.use_stderr() {
                Status::Usage.into()
            } else {
                Status::Success.into()
            };
        }
    };
    let result = match &cli.command {
        Command::Register(args) => register::run(args),
        Command::Collect(args) => collect::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Generate(args) => generate::run(args, Cli::command()),
    };
    match result {
        Ok(status) => status.into(),
        Err(e) => {
            eprintln!("eventheader: {e}");
            e.status.into()
        }
    }
}
