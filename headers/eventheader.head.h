/*
The EventHeader event format: every event starts with an eventheader, then
optional eventheader_extension blocks (activity ids, metadata), then the
payload. Events with the same provider, level, keyword and options share one
tracepoint, named "ProviderName_L<level>K<keyword><options>" (level and
keyword in lowercase hex), e.g. "MyProvider_L5K1" or "OtherProvider_L3K2Gmygroup".

Metadata extension: "event_name[;attr=value...]\0", then for each field
"field_name[;attr=value...]\0", uint8 encoding, [uint8 format if encoding has
the chain flag], [uint16 tag if format has the chain flag], [uint16
array_length if encoding has the carray flag]. ';' in attribute values is
escaped as ";;".
*/

/* 1 on little-endian hosts (from <endian.h>, which this header includes, as
   the reference's does: programs may test __BYTE_ORDER after including it). */
#define EVENTHEADER_LITTLE_ENDIAN (__BYTE_ORDER == __LITTLE_ENDIAN)

/*
The arg spec of every EventHeader tracepoint's DIAG_IOCSREG command. Use
EVENTHEADER_FORMAT_COMMAND to build the whole command.
*/
#define EVENTHEADER_COMMAND_TYPES "u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level"
