//! The EventHeader layer: tracepoint names and registration commands
//! ([`names`]) and the header + extension prefix of each event ([`header`]).

pub mod header;
pub mod names;

/// The arg spec every EventHeader tracepoint registers with; byte-identical
/// to the reference's, so processes using either library can share
/// tracepoints (the kernel rejects a second registration of a name with a
/// different spec).
pub const COMMAND_TYPES: &str =
    "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level";

const _: () = assert!(
    crate::abi::eventheader::EVENTHEADER_COMMAND_MAX as usize
        == crate::abi::eventheader::EVENTHEADER_NAME_MAX as usize + COMMAND_TYPES.len() + 1
);
