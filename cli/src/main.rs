//! `eventheader`: pre-register user_events tracepoints, collect them into
//! perf.data without perf, and decode capture files and perf.data to JSON.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use eventheader_cli::exit::Status;
use eventheader_cli::{collect, decode, register};

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
    };
    match result {
        Ok(status) => status.into(),
        Err(e) => {
            eprintln!("eventheader: {e}");
            e.status.into()
        }
    }
}
