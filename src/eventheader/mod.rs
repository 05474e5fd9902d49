//! The EventHeader layer, over the provider layer: tracepoint names and
//! registration commands ([`names`]), opening and connecting EventHeader
//! providers and events ([`registration`]), and the vectors of each event
//! ([`event`], with the header and activity id prefix from [`prefix`]);
//! the activity ids of `TraceLoggingActivity.h`: new ones ([`activity_id`])
//! and the calling thread's ([`thread_activity`]), which the write path
//! reaches through [`thread_hook`] once a thread has set one.

pub mod activity_id;
pub mod event;
pub mod names;
pub mod prefix;
pub mod registration;
pub mod thread_activity;
pub mod thread_hook;

/// The arg spec every EventHeader tracepoint registers with; byte-identical
/// to the reference's, so processes using either library can share
/// tracepoints (the kernel rejects a second registration of a name with a
/// different spec).
pub const COMMAND_TYPES: &str =
    "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level";

const _: () = assert!(
    crate::abi::eventheader_format::EVENTHEADER_COMMAND_MAX as usize
        == crate::abi::eventheader_format::EVENTHEADER_NAME_MAX as usize + COMMAND_TYPES.len() + 1
);
