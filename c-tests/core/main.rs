//! C tests of the core library: the programs of `c-tests/core/`,
//! built from the manifest against `include/` and the built library, run in
//! capture mode (or with no capture and no kernel support), their captures
//! decoded with `tracepoint_decode` and compared with values typed in here
//! from the format (docs/format.md §2, §4, §5) or with the reference
//! implementation's own capture. One module per area, each with the judges
//! of its programs' runs; one trial per program, build and run
//! (`testkit::trials`).
//!
//! Run with `cargo test --test core`; the trials print their counts.

mod abi_layout;
mod activity;
mod dedup;
mod encodings;
mod errors;
mod format;
mod oracle;
mod rodata;
mod threads;

use testkit::trials::{self, judge, Judge};

/// The judge of every (program, run) of the suite.
const JUDGES: &[Judge] = &[
    judge("abi_layout", "table", abi_layout::check).ignored_if(!abi_layout::APPLIES),
    judge("encodings", "capture", encodings::check),
    judge("activity", "capture", activity::check),
    judge("dedup", "capture", dedup::check),
    judge("rodata", "capture", rodata::check),
    judge("rodata_nopie", "capture", rodata::check),
    judge("oracle", "capture", oracle::check),
    judge("errors", "capture", errors::check_capture),
    judge("errors", "nokernel", errors::check_nokernel),
    judge("threads", "capture", threads::check),
];

fn main() {
    let rust_abi = trials::extra("abi_layout::rust", abi_layout::check_rust)
        .with_ignored_flag(!abi_layout::APPLIES);
    trials::main(env!("CARGO_TARGET_TMPDIR"), "core", JUDGES, vec![rust_abi])
}
