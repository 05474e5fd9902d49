//! C tests of the core library: the programs of `c-tests/core/`,
//! built from the manifest against `include/` and the built library, run in
//! capture mode (or with no capture and no kernel support), their captures
//! decoded with `tracepoint_decode` and compared with values typed in here
//! from the format (docs/format.md §2, §4, §5) or with the reference
//! implementation's own capture. One module per area.
//!
//! Run with `cargo test --test core` (add `-- --nocapture` for the counts).
#[path = "../../tests/support/mod.rs"]
mod support;

mod abi_layout;
mod activity;
mod dedup;
mod encodings;
mod errors;
mod format;
mod oracle;
mod rodata;
mod threads;
