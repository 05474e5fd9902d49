//! The VM suite's checks of what perf recorded against what the program
//! printed: one function per kind of program. Each returns the summary line
//! of a pass, or every problem found (sample problems: the first five).

use std::path::Path;

use crate::perf::Row;

mod bench;
mod hardening;

pub use bench::{
    bench, BENCH_DISABLED_MAX, BENCH_DYNAMIC5CPP_MAX, BENCH_DYNAMIC5EXPORTS_MAX,
    BENCH_DYNAMIC5_MAX, BENCH_ENABLED5_MAX, BENCH_EXPORTER_MAX,
};
pub use hardening::{dlclose, fork_busy, stress};

// The judges of one suite's VM runs live in that suite's folder
// (docs/testing.md): tracepoint-provider.h's in c-tests/tpp/, the
// command-line tool's in cli/tests/vm/checks/. The generic ones are here.
#[path = "../../../c-tests/tpp/vm_checks.rs"]
pub mod tpp;

// --- the command-line tool (cli/) --------------------------------------------

/// `Err(message)` from the enclosing check unless `cond` (for the cli modules).
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

#[path = "../../../cli/tests/vm/checks/cli.rs"]
pub mod cli;
#[path = "../../../cli/tests/vm/checks/cli_circular.rs"]
pub mod cli_circular;
#[path = "../../../cli/tests/vm/checks/cli_command.rs"]
mod cli_command;
#[path = "../../../cli/tests/vm/checks/cli_doctor.rs"]
pub mod cli_doctor;
#[path = "../../../cli/tests/vm/checks/cli_live.rs"]
mod cli_live;
#[path = "../../../cli/tests/vm/checks/cli_perf.rs"]
pub mod cli_perf;
#[path = "../../../cli/tests/vm/checks/common.rs"]
mod common;

/// Judges the rows of `testkit fields` (the samples' chosen fields) against
/// the program's output.
pub type FieldsCheck = fn(log: &str, rows: &[Row]) -> Result<String, String>;

/// Judges the files a guest script left in the results directory; Ok is the
/// pass line and lines to add to the suite's summary.
pub type ResultsCheck = fn(results: &Path, name: &str) -> Result<(String, Vec<String>), String>;
