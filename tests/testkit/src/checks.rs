//! The VM suite's checks of what perf recorded against what the program
//! printed: one function per kind of program, for every suite (a
//! `programs.toml` names them by their path here, the table of
//! `manifest/load.rs`). Each returns the summary line of a pass, or every
//! problem found (sample problems: the first five).

use std::path::Path;

use crate::perf::Row;

mod bench;
mod hardening;

mod bench_totals;

pub use bench::{bench, bench_bounds, bench_modes, Arch};
pub use bench_totals::{judge_totals, Totals};
pub use hardening::{dlclose, fork_busy, stress};

// tracepoint-provider.h's programs (c-tests/tpp/, guest.sh there).
pub mod tpp;

// --- the command-line tool (cli/; its guest scripts in cli/tests/vm/) ---------

/// `Err(message)` from the enclosing check unless `cond` (for the cli modules).
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

pub mod cli;
pub mod cli_circular;
mod cli_command;
mod cli_common;
pub mod cli_doctor;
mod cli_live;
pub mod cli_perf;

/// Judges the rows of `testkit fields` (the samples' chosen fields) against
/// the program's output.
pub type FieldsCheck = fn(log: &str, rows: &[Row]) -> Result<String, String>;

/// Judges the files a guest script left in the results directory; Ok is the
/// pass line and lines to add to the suite's summary.
pub type ResultsCheck = fn(results: &Path, name: &str) -> Result<(String, Vec<String>), String>;
