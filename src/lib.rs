//! eventheader-tracepoint: Linux user_events tracepoints and EventHeader events
//! for C and C++ programs, binary-compatible with the reference `libtracepoint`
//! and `libeventheader-tracepoint`.
//!
//! Where things live:
//! - [`abi`]: the C data types of the public headers.
//! - [`ffi`]: the exported C functions (a thin layer: argument checks and the
//!   panic boundary, then a call into the modules below).
//! - [`provider`]: provider and tracepoint state, the per-provider tracepoint
//!   lists, open/close/connect (serialized by one lock).
//! - [`backend`]: where events go: [`backend::user_events`] (the kernel) or
//!   [`backend::capture`] (a file, for tests and machines without user_events).
//! - [`eventheader`]: tracepoint names, registration commands, header packing.

pub mod abi;
pub mod backend;
pub mod dynamic;
pub mod eventheader;
pub mod ffi;
mod lock;
pub mod provider;
mod sys;
