//! `eventheader`: pre-register user_events tracepoints, collect them into
//! perf.data without perf, and decode capture files and perf.data to JSON.

mod generate;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use eventheader_cli::exit::Status;
use eventheader_cli::{collect, decode, doctor, register, stats};

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
    Collect(Box<collect::CollectArgs>),
    /// Print the events of capture files and perf.data files as JSON.
    Decode(decode::DecodeArgs),
    /// Count the events of capture files and perf.data files per event,
    /// tracepoint, provider, level and process: a table, or JSON.
    Stats(stats::StatsArgs),
    /// Say whether events written on this machine can reach a collector,
    /// and what to do when not (user_events, tracefs, access, collecting).
    Doctor(doctor::DoctorArgs),
    /// Write the man pages and the bash, zsh and fish completions into a
    /// directory, laid out as under <prefix>/share (the CMake build runs it).
    #[command(hide = true)]
    Generate(generate::GenerateArgs),
}

/// The command line, with `--help` and `-h` after `help` dropped: the help
/// subcommand's own help is the help it prints (clap refused `help --help`
/// as an unknown subcommand, status 2).
fn args() -> Vec<std::ffi::OsString> {
    let mut args: Vec<_> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "help") {
        let tail = args.split_off(2);
        args.extend(tail.into_iter().filter(|a| a != "--help" && a != "-h"));
    }
    args
}

/// Prints clap's `--help` or `--version` text and flushes it, so that a
/// failed write (a full disk, `/dev/full`, a closed pipe) is reported.
fn print_to_stdout(e: &clap::Error) -> std::io::Result<()> {
    use std::io::Write;
    e.print()?;
    std::io::stdout().flush()
}

/// Blocks the signals `collect` handles before anything else runs
/// (`collect::signals`): a SIGUSR1 or SIGINT sent while it starts waits for
/// its handler. Every other subcommand unblocks them at the start of `main`.
#[used]
#[link_section = ".init_array"]
static BLOCK_SIGNALS: extern "C" fn() = block_signals;

extern "C" fn block_signals() {
    collect::signals::block_at_start();
}

fn main() -> ExitCode {
    if !matches!(std::env::args_os().nth(1), Some(a) if a == "collect") {
        collect::signals::unblock();
    }
    let cli = match Cli::try_parse_from(args()) {
        Ok(cli) => cli,
        Err(e) => {
            // Nothing is collected: the signals' default actions apply.
            collect::signals::unblock();
            // --help and --version exit 0 once their text is out (1 with a
            // message if standard output refused it, as decode does; a reader
            // that closed the pipe early is no error); usage errors 2
            // (Status::Usage).
            if e.use_stderr() {
                let _ = e.print();
                return Status::Usage.into();
            }
            return match print_to_stdout(&e) {
                Ok(()) => Status::Success.into(),
                Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Status::Success.into(),
                Err(err) => {
                    eprintln!("eventheader: writing to standard output: {err}");
                    Status::Failure.into()
                }
            };
        }
    };
    let result = match &cli.command {
        Command::Register(args) => register::run(args),
        Command::Collect(args) => collect::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Doctor(args) => doctor::run(args),
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
