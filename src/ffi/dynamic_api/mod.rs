//! The exports of `eventheader/eventheader-dynamic.h`: runtime-defined
//! events in C. Each export checks its arguments (NULL pointers, string and
//! array arguments, counts) and then makes one call into [`crate::dynamic`].
//! The header's overview is in `headers/eventheader-dynamic.head.h`.
//!
//! - [`provider`]: providers and event sets;
//! - [`builder`]: builders, their header values and the write;
//! - [`fields`]: the fields of an event;
//! - [`field_array`]: a whole event's fields in one call, for bindings;
//! - [`event_def`]: event definitions: fields once, then values per event;
//! - [`cpp`]: the entry points private to `EventHeaderDynamic.h`, which
//!   declares them itself (no generated header does);
//! - `types`: the handle types and constants; the arguments are read
//!   with the helpers of every export, `src/ffi/args.rs`.
#![allow(non_camel_case_types)]

use super::args;
pub mod builder;
pub mod cpp;
pub mod event_def;
pub mod field_array;
pub mod fields;
pub mod provider;
pub(super) mod types;

pub use types::{
    ehd_builder, ehd_event_def, ehd_event_set, ehd_provider, EHD_NO_BOOKMARK, EHD_NTS,
};
