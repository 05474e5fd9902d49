//! The EventHeader format (`eventheader/eventheader.h`): header, header
//! extensions, field encodings and formats. Every name and value here is part
//! of the public interface.
#![allow(non_camel_case_types)]

/// Maximum length of a tracepoint name "ProviderName_Attributes", including
/// the nul termination.
pub const EVENTHEADER_NAME_MAX: u32 = 256;

/// Maximum length of a DIAG_IOCSREG command "ProviderName_Attributes CommandTypes",
/// including the nul termination: EVENTHEADER_NAME_MAX + sizeof(EVENTHEADER_COMMAND_TYPES).
pub const EVENTHEADER_COMMAND_MAX: u32 = 327;

/// The header every EventHeader event starts with. If flags has the extension
/// bit, one or more eventheader_extension blocks follow, else the payload.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventHeader {
    /// eventheader_flags: pointer64, little_endian, extension.
    pub flags: u8,
    /// Event version; increment when the layout of an event with id != 0 changes.
    pub version: u8,
    /// Stable event id, or 0 if none.
    pub id: u16,
    /// Provider-defined event tag, or 0 if none.
    pub tag: u16,
    /// event_opcode: info, activity start, activity stop, ...
    pub opcode: u8,
    /// event_level: 1 = critical error .. 5 = verbose.
    pub level: u8,
}

/// Header of an extension block; followed by size bytes of data, no padding.
/// If kind has the chain flag, another extension block follows.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventHeaderExtension {
    pub size: u16,
    /// eventheader_extension_kind, possibly with the chain flag.
    pub kind: u16,
}

/// Values for eventheader.flags. See also eventheader_flag_default and
/// eventheader_flag_default_with_extension, which depend on the target.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventHeaderFlags {
    /// Pointer-32, big-endian, no extensions.
    eventheader_flag_none = 0,
    /// Pointers are 64 bits.
    eventheader_flag_pointer64 = 0x01,
    /// The event is little-endian.
    eventheader_flag_little_endian = 0x02,
    /// At least one eventheader_extension block follows the header.
    eventheader_flag_extension = 0x04,
}

/// Values for eventheader.opcode: special semantics of an event.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventOpcode {
    /// Normal informational event.
    event_opcode_info = 0,
    /// Begins an activity (first event with a new activity id).
    event_opcode_activity_start = 1,
    /// Ends an activity (last event with that activity id).
    event_opcode_activity_stop = 2,
    event_opcode_collection_start = 3,
    event_opcode_collection_stop = 4,
    event_opcode_extension = 5,
    event_opcode_reply = 6,
    event_opcode_resume = 7,
    event_opcode_suspend = 8,
    event_opcode_send = 9,
    event_opcode_receive = 0xf0,
}

/// Values for eventheader.level. 0 is not a valid level; values above 5 are
/// permitted but not well-defined.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventLevel {
    event_level_invalid = 0,
    event_level_critical_error = 1,
    event_level_error = 2,
    event_level_warning = 3,
    event_level_information = 4,
    event_level_verbose = 5,
}

/// Values for eventheader_extension.kind.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventHeaderExtensionKind {
    /// Mask for the kind value.
    eventheader_extension_kind_value_mask = 0x7FFF,
    /// Set if another extension block follows this one.
    eventheader_extension_kind_chain_flag = 0x8000,
    /// Invalid extension kind.
    eventheader_extension_kind_invalid = 0,
    /// Event metadata: "name[;attr=value...]\0" followed by field definitions.
    eventheader_extension_kind_metadata = 1,
    /// Activity id (size 16), or activity id + related activity id (size 32).
    eventheader_extension_kind_activity_id = 2,
}

/// Values for the encoding byte of a field definition: the low 5 bits are the
/// encoding, the top 3 bits are flags.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFieldEncoding {
    /// Mask for the encoding value.
    event_field_encoding_value_mask = 0x1F,
    /// Mask for the encoding flags.
    event_field_encoding_flag_mask = 0xE0,
    /// Constant-length array: u16 element count in the metadata (not 0).
    event_field_encoding_carray_flag = 0x20,
    /// Variable-length array: u16 element count in the payload before the elements.
    event_field_encoding_varray_flag = 0x40,
    /// A format byte follows the encoding byte.
    event_field_encoding_chain_flag = 0x80,
    /// Invalid encoding.
    event_field_encoding_invalid = 0,
    /// 0-byte value grouping the next N fields, N = format & 0x7F (not 0).
    event_field_encoding_struct = 1,
    /// 1-byte value.
    event_field_encoding_value8 = 2,
    /// 2-byte value.
    event_field_encoding_value16 = 3,
    /// 4-byte value.
    event_field_encoding_value32 = 4,
    /// 8-byte value.
    event_field_encoding_value64 = 5,
    /// 16-byte value, default format hex_bytes.
    event_field_encoding_value128 = 6,
    /// Nul-terminated uint8 string.
    event_field_encoding_zstring_char8 = 7,
    /// Nul-terminated uint16 string.
    event_field_encoding_zstring_char16 = 8,
    /// Nul-terminated uint32 string.
    event_field_encoding_zstring_char32 = 9,
    /// u16 length then uint8 data[length].
    event_field_encoding_string_length16_char8 = 10,
    /// u16 length then uint16 data[length].
    event_field_encoding_string_length16_char16 = 11,
    /// u16 length then uint32 data[length].
    event_field_encoding_string_length16_char32 = 12,
    /// u16 length then uint8 data[length], default format hex_bytes.
    event_field_encoding_binary_length16_char8 = 13,
    /// One past the last valid encoding; may change in future versions.
    event_field_encoding_max = 14,
}

/// Values for the format byte of a field definition: the low 7 bits are the
/// format (or, for a struct, the member count); the top bit says a u16 field
/// tag follows.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFieldFormat {
    /// Mask for the format value.
    event_field_format_value_mask = 0x7F,
    /// A u16 field tag follows the format byte.
    event_field_format_chain_flag = 0x80,
    /// Use the default format of the encoding.
    event_field_format_default = 0,
    event_field_format_unsigned_int = 1,
    event_field_format_signed_int = 2,
    event_field_format_hex_int = 3,
    event_field_format_errno = 4,
    event_field_format_pid = 5,
    /// Seconds since 1970.
    event_field_format_time = 6,
    event_field_format_boolean = 7,
    event_field_format_float = 8,
    event_field_format_hex_bytes = 9,
    /// 8-bit characters, unspecified character set.
    event_field_format_string8 = 10,
    event_field_format_string_utf = 11,
    event_field_format_string_utf_bom = 12,
    event_field_format_string_xml = 13,
    event_field_format_string_json = 14,
    /// UUID, RFC 4122 byte order.
    event_field_format_uuid = 15,
    /// IP port, network byte order.
    event_field_format_port = 16,
    /// IPv4 (value32) or IPv6 (value128) address, network byte order.
    event_field_format_ip_address = 17,
    /// IPv6 address in the obsolete value128 layout.
    event_field_format_ip_address_obsolete = 18,
}
