//! The exported C functions, one file per public header:
//! `tracepoint_api.rs` -> `tracepoint/tracepoint.h`, `eventheader_api.rs` ->
//! `eventheader/eventheader-tracepoint.h`, `capture_api.rs` ->
//! `tracepoint/tracepoint-capture.h` (our addition), `dynamic_api/` ->
//! `eventheader/eventheader-dynamic.h`. The headers are generated from these
//! files and their types in `src/abi/` by cbindgen (see `tests/headers.rs`).
//! `tracelogging_api.rs` is the write entry point private to
//! `eventheader/TraceLoggingProvider.h`, which declares it itself,
//! `activity_api.rs` the activity ids private to
//! `windows-compat/TraceLoggingActivity.h` (declared there too), and
//! `dynamic_api/cpp.rs` the builder entry points private to
//! `eventheader/EventHeaderDynamic.h`, which declares them itself.
//!
//! Each public export checks its arguments (NULL pointers, counts, ranges;
//! C strings are read here) with the readers of `args.rs`, the one place
//! that tells a NULL pointer from a usable one; a write tests whether its
//! tracepoint is enabled, then the export makes one call into a layer
//! below. The private
//! entry point checks nothing: the macro builds its arguments, valid by
//! construction. No export calls another.
//!
//! There is no panic boundary: the library has no panic path at all (it is
//! built with `panic = "abort"`, and `scripts/footprint.sh` fails if the
//! shipped `.so` or `.a` links any of Rust's panic machinery), so nothing
//! can unwind into C and there is nothing to catch.

pub mod activity_api;
mod args;
pub mod capture_api;
pub mod dynamic_api;
pub mod eventheader_api;
pub mod tracelogging_api;
pub mod tracepoint_api;
