//! Reading perf.data (normal and pipe mode) without `tracepoint_perf`'s
//! reader, which reads each record with two unbuffered reads (system calls
//! that cost more than decoding the record) and keeps every round in memory
//! in time order: records come through one
//! large buffer ([`buffered_input`]), metadata is parsed with every length checked
//! ([`headers`]), and samples are attributed to their events ([`events`]).
//! `tracepoint_decode` then decodes each event.

pub mod buffered_input;
pub mod events;
pub mod headers;
pub mod reader;
pub mod sample;
pub mod writer;

pub use events::Events;
pub use reader::{open_file, PerfReader};
