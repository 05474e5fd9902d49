//! The C data types of the public headers, laid out exactly as the reference's.
//!
//! Each file here is the source of one generated header (see `headers/` and
//! `tests/headers.rs`): `tracepoint_state.rs` -> `tracepoint/tracepoint-state.h`,
//! `eventheader.rs` -> `eventheader/eventheader.h`. The types of `tracepoint.h` and
//! `eventheader-tracepoint.h` live beside their functions in `src/ffi/`.

pub mod eventheader;
pub mod tracepoint_state;

pub use eventheader::{EventHeader, EventHeaderExtension};
pub use tracepoint_state::{TracepointListNode, TracepointProviderState, TracepointState};
