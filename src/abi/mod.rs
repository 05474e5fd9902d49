//! The C data types of the public headers, laid out exactly as the
//! reference's, and the atomic views of the state fields.
//!
//! The files here and in `src/ffi/` are the sources of the generated headers
//! (see `headers/README.md` and `tests/headers.rs`):
//! - `tracepoint_state.rs` -> `tracepoint/tracepoint-state.h`;
//! - `tracepoint_definition.rs` + `ffi/tracepoint_api.rs` -> `tracepoint/tracepoint.h`;
//! - `eventheader_format.rs` -> `eventheader/eventheader.h`;
//! - `eventheader_definitions.rs` + `ffi/eventheader_api.rs` ->
//!   `eventheader/eventheader-tracepoint.h`.

pub mod eventheader_definitions;
pub mod eventheader_format;
pub mod tracepoint_definition;
pub mod tracepoint_state;

pub use eventheader_definitions::{EventHeaderProvider, EventHeaderTracepoint};
pub use eventheader_format::{EventHeader, EventHeaderExtension};
pub use tracepoint_definition::TracepointDefinition;
pub use tracepoint_state::{TracepointListNode, TracepointProviderState, TracepointState};
