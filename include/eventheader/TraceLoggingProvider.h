/*
TraceLoggingProvider.h: the TraceLogging macro API for Linux user_events.

Events are written in the EventHeader format (eventheader/eventheader.h) through
the eventheader layer of this library (eventheader/eventheader-tracepoint.h).
Works in C (C11, gnu11 or later) and C++ (C++11 or later) with gcc and clang.

Quick start:

    #include <eventheader/TraceLoggingProvider.h>

    TRACELOGGING_DEFINE_PROVIDER(         // defines the MyProvider symbol
        MyProvider,                       // provider symbol
        "MyCompany_MyComponent",          // provider name: no ' ' or ':'
        // {b7aa4d18-240c-5f41-5852-817dbf477472} (TraceLoggingProviderId; not in the events)
        (0xb7aa4d18, 0x240c, 0x5f41, 0x58, 0x52, 0x81, 0x7d, 0xbf, 0x47, 0x74, 0x72));

    int main(int argc, char* argv[])
    {
        TraceLoggingRegister(MyProvider);
        TraceLoggingWrite(MyProvider, "MyEvent",
            TraceLoggingLevel(event_level_information),
            TraceLoggingString(argv[0], "arg0"), // field named "arg0"
            TraceLoggingInt32(argc));            // field named "argc"
        TraceLoggingUnregister(MyProvider);
        return 0;
    }

How it works: every TraceLoggingWrite creates, at compile time, a static call
site (an eventheader_tracepoint with its tracepoint_state) and a static metadata
block (event name and field descriptors), and lists the call site in the linker
section "_tlgSites" of the module (executable or shared object). A call site that
names the provider symbol is bound to that provider at compile time:
TraceLoggingRegister walks the section (__start_/__stop_ bounds) and registers
every such call site of the provider with the kernel at once, so a collector can
enable them before the first write, and at the call site a disabled event costs
one relaxed load of the tracepoint's status word and one branch. A call site
given a provider handle is bound when it first runs (see TraceLoggingHProvider).
The field value expressions are evaluated only when the event is enabled, and
the payload is passed to eventheader_write as iovecs pointing at the caller's
data (scalars are copied into locals, strings and arrays are not copied;
Windows FILETIME, SYSTEMTIME and GUID values are converted into locals).

Names: every public name starts with TraceLogging or TRACELOGGING. Names that
start with _tlg are private to this header and may change at any time.

Strict ISO C and C++: the header compiles without warnings under -pedantic (C11,
C++11 and later, gcc and clang). The macros whose trailing arguments are
optional are defined as NAME(...) and count their arguments themselves, so a
call without the optional ones is not a "variadic macro without arguments";
their arguments are the ones documented here. The statement expressions of
TraceLoggingWrite and TraceLoggingProviderEnabled are marked __extension__.

Porting from Windows (ETW): TraceLogging code written for Windows compiles
unchanged with -I <prefix>/include/windows-compat added (that directory has
small windows.h, winmeta.h, evntprov.h, winternl.h, MicrosoftTelemetry.h and
TraceLoggingProvider.h headers with the Windows types and constants, and
TraceLoggingActivity.h, the C++ activity classes). docs/porting-from-windows.md
maps every Windows field type to its EventHeader encoding and format. The
remaining differences from the Windows header:

- Not provided, because they cannot exist on Linux: TraceLoggingSetInformation
  and TraceLoggingOptionTrait (ETW runtime information classes and provider
  traits), TraceLoggingCustom (ETW custom-serializer fields: EventHeader has no
  such encoding), the TlgIn and TlgOut type constants (the packed-field macros
  and TraceLoggingBinaryEx take event_field_encoding and event_field_format
  values: ETW's counted types count bytes where EventHeader's count
  characters), the TLG_* configuration macros (ETW API overrides) and
  EventActivityIdControl (ETW's control of the thread's activity id: here the
  thread activities of TraceLoggingActivity.h set it).
- Providers are registered by tracepoint name: "<name>_L<level>K<keyword><options>".
  The provider name must be shorter than EVENTHEADER_NAME_MAX (256) together with
  the level/keyword suffix and the options, and may not contain ' ' or ':' (use
  [A-Za-z0-9_] for best compatibility). The provider GUID is kept for
  TraceLoggingProviderId and not written. A provider group is a name option:
  TraceLoggingOptionGroup(guid) becomes "G" + the GUID's 32 hex digits.
- TraceLoggingRegister returns 0 or an errno value, not an HRESULT;
  TraceLoggingRegisterEx registers, and its callback is never called (no enable
  notifications on Linux). TraceLoggingWriteEx ignores its filter and flags.
- Levels are 1..255: WINEVENT_LEVEL_LOG_ALWAYS (0) is not a valid
  TraceLoggingLevel. Event tags and field tags are 16-bit (ETW: 28-bit): a
  wider one does not compile (it is not truncated).
- TraceLoggingProviderEnabled answers for one tracepoint, i.e. the exact level
  and keyword; level 0 means any level (and then keyword 0 any keyword, another
  keyword any tracepoint sharing a bit with it).
- TraceLoggingChannel, TraceLoggingDescription and the field "description"
  arguments are accepted and ignored; TraceLoggingCustomAttribute is written as
  an EventHeader event attribute ("EventName;key=value"), not to a PDB.
- FILETIME and SYSTEMTIME fields are written as 64-bit times in whole seconds
  since 1970 (sub-second parts dropped); SID, sockaddr and binary-buffer fields
  as hex bytes (see docs/porting-from-windows.md for the whole mapping).
- Type sizes follow Linux: TraceLoggingLong and TraceLoggingULong are long (64
  bits on LP64, 32 on Windows), wchar_t (TraceLoggingWChar, TraceLoggingWideString,
  UNICODE_STRING) is 32 bits (UTF-32); TraceLoggingString16 and char16_t are
  UTF-16 as on Windows.
- TRACELOGGING_DECLARE_PROVIDER must declare the symbol (a provider symbol is an
  array of one provider object that converts to a handle, not a const handle
  variable, so "extern const TraceLoggingHProvider g_h;" does not declare it).
- TraceLoggingKeyword arguments are OR'ed together; for the other event options
  the last one wins (Windows OR's event tags).

Beyond the reference and Windows: a provider left registered is unregistered
automatically when the program exits or its shared object is unloaded.

Additions specific to this implementation (not in Windows):

- TraceLoggingIdVersion(id, version), TraceLoggingProviderName,
  TraceLoggingProviderOptions, TraceLoggingOptionGroupName, TraceLoggingErrno,
  TraceLoggingTime32, TraceLoggingTime64, TraceLoggingPid, TraceLoggingPort,
  TraceLoggingChar32, TraceLoggingString32, TraceLoggingCountedString32,
  and the Pid, Port, Errno, Time32, Time64 and IPv4Address arrays.
- TraceLoggingGuid (and its arrays) also takes a pointer to 16 bytes in RFC 4122
  (big-endian) order, like uuid_t, written as is (the reference's form).
- TraceLoggingValue is also available in C (via C11 _Generic). In C, char16_t,
  char32_t and wchar_t are typedefs of integer types, so a char16_t, char32_t or
  wchar_t value is logged as the integer it is (UInt16, UInt32, Int32 on glibc),
  while pointers to those types are logged as UTF-16/UTF-32/wide strings, exactly
  as in C++. Any other pointer is logged as TraceLoggingPointer. GUID, FILETIME
  and SYSTEMTIME values are accepted when their types are declared (GUID_DEFINED,
  _FILETIME_, _SYSTEMTIME_) before this header; in C++ a SID pointer is refused
  (use TraceLoggingSid) rather than logged as a pointer.

Compile-time checks: every argument of TraceLoggingWrite after the event name
must be one of the TraceLogging option or field macros (an expression, a string
or a misspelled macro name there does not compile); the event name and field
names must be string literals; the provider name must be a string literal and
short enough; the level must be a
constant 1..255; TraceLoggingStruct field counts must be constants 1..127;
fixed-array counts must be constants 1..65535; FILETIME and SYSTEMTIME fields
must be given values of those sizes. In C++ the provider name is also checked
for ' ' and ':', the group name for [a-z0-9] and custom attributes for ';'. (C
cannot inspect string literals at compile time: there TraceLoggingRegister fails
with EINVAL for a provider name with ' ' or ':', and the group name is not
checked.)

Inline functions and templates: TraceLoggingWrite works in C static inline
functions and C++ inline functions and templates, with g++ and clang++, mixed
with ordinary call sites in one translation unit and instantiated from several;
their call sites are registered like any other (with g++, one per translation
unit that compiles the function).

Thread safety: TraceLoggingWrite and TraceLoggingProviderEnabled may run on any
thread at any time. TraceLoggingRegister and TraceLoggingUnregister of one
provider must not run concurrently with each other or with writes to it.
*/

#pragma once
#ifndef _included_eventheader_TraceLoggingProvider_h
#define _included_eventheader_TraceLoggingProvider_h 1

#include <eventheader/eventheader-tracepoint.h>
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#ifndef __cplusplus
#include <uchar.h>
#endif

/*==== Providers ============================================================*/

/*
TraceLoggingHProvider:
A provider handle: a pointer-sized value that refers to a provider defined with
TRACELOGGING_DEFINE_PROVIDER or TRACELOGGING_DEFINE_PROVIDER_STORAGE. It can be
stored in variables, passed to and returned from functions, and given to every
macro that takes a provider (TraceLoggingWrite, TraceLoggingRegister, ...).

Two kinds of provider arguments, told apart at compile time:
- The provider symbol itself (the name given to TRACELOGGING_DEFINE_PROVIDER or
  TRACELOGGING_DECLARE_PROVIDER): the event is bound to that provider at compile
  time. TraceLoggingRegister registers it with all of the provider's events, and
  a disabled write costs one load and one branch.
- Any other expression of type TraceLoggingHProvider (a variable, a parameter,
  a function's result, &storage): the call site is bound to the provider the
  first time it runs with it (see "Registration" below); a disabled write
  costs a few instructions more (two loads, a compare and two branches).

Registration: TraceLoggingRegister(h) registers, before any write, the
tracepoints of every event of the module (executable or shared object) written
with h's provider symbol, and those of every call site that has run with h
before (writes or TraceLoggingProviderEnabled queries made earlier, also
before an unregister/register cycle). A call site that has never run with h
registers its tracepoint the first time it runs while h is registered: that
same write is written if a collector already listens to the tracepoint's name
(which exists if any other event of h with the same level and keyword, or a
TraceLoggingProviderEnabled query for them, registered it). As on Windows, a
handle is meant for the module that defines the provider; a handle used in
another module works there, but that module must not be unloaded while the
provider stays registered.
*/
typedef struct _tlgProvider const* TraceLoggingHProvider;

/*
TRACELOGGING_DECLARE_PROVIDER(providerSymbol):
Declares a provider defined (by TRACELOGGING_DEFINE_PROVIDER) in some .c or .cpp
file of the same executable or shared object. Use it in headers; the provider can
then be used from C and C++ translation units alike. The symbol converts to a
TraceLoggingHProvider (like an array converts to a pointer); it cannot be
assigned to.
*/
#define TRACELOGGING_DECLARE_PROVIDER(providerSymbol) \
    _tlgEXTERN_C struct _tlgProvider providerSymbol[1] __attribute__((visibility("hidden")))

/*
TRACELOGGING_DEFINE_PROVIDER(providerSymbol, "ProviderName", (providerId) [, option]):
Defines a provider (at file or namespace scope, once per program or shared object).
- "ProviderName" must be a string literal without ' ' or ':'.
- providerId is the provider GUID as a parenthesized list of 11 integers, e.g.
  (0xb3864c38, 0x4273, 0x58c5, 0x54, 0x5b, 0x8b, 0x36, 0x08, 0x34, 0x34, 0x71).
  It is kept for TraceLoggingProviderId; the tracepoints do not use it.
- option may be TraceLoggingOptionGroupName("groupname") or
  TraceLoggingOptionGroup(g1, ..., g11).
The provider starts unregistered: writes are no-ops until TraceLoggingRegister.
It is unregistered automatically when the program exits or the shared object
that defines it is unloaded (a late destructor, priority 101, so destructors of
the program itself can still write events), so a library that forgets
TraceLoggingUnregister leaves no registration pointing into unmapped memory.
*/
#define TRACELOGGING_DEFINE_PROVIDER(...) _tlgDEFINE_PROVIDER(__VA_ARGS__, ~)

/*
TRACELOGGING_DEFINE_PROVIDER_STORAGE(storageVariable, "ProviderName", (providerId) [, option]):
Defines the provider's storage as a static variable of this translation unit,
without a provider symbol; &storageVariable is its TraceLoggingHProvider. For
handles that TRACELOGGING_DEFINE_PROVIDER cannot define (e.g. a C++ class's
static member: const TraceLoggingHProvider MyClass::s_provider = &storage;).
Every call site of such a provider uses a handle (see TraceLoggingHProvider).
*/
#define TRACELOGGING_DEFINE_PROVIDER_STORAGE(...) _tlgDEFINE_PROVIDER_STORAGE(__VA_ARGS__, ~)

/*
TraceLoggingOptionGroupName("groupname"):
Option for TRACELOGGING_DEFINE_PROVIDER: makes the provider a member of the named
provider group (the tracepoint names get the suffix "G" + groupname). The group
name must be a string literal of lowercase ASCII letters and digits.
*/
#define TraceLoggingOptionGroupName(groupName) (_tlgOPTNAME, groupName)

/*
TraceLoggingOptionGroup(g1, g2, ..., g11):
Option for TRACELOGGING_DEFINE_PROVIDER (Windows form): makes the provider a
member of the provider group whose GUID is given as 11 integers, like the
provider id. On Linux a group is a name: the group name is the GUID's 32
lowercase hex digits in the usual text order (Data1, Data2, Data3, Data4), e.g.
TraceLoggingOptionGroup(0x4f50731a, 0x89cf, 0x4782, 0xb3, 0xe0, 0xdc, 0xe8,
0xc9, 0x04, 0x76, 0xba) gives the option "G4f50731a89cf4782b3e0dce8c90476ba".
*/
#define TraceLoggingOptionGroup(g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11) \
    (_tlgOPTGUID, g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11)

/*
TraceLoggingRegister(hProvider):
Registers the provider with the kernel, with the tracepoints of its events (see
TraceLoggingHProvider for which ones). Returns 0 for success, else an errno
value (the result is for diagnostics; after a failure, writes and
TraceLoggingUnregister are safe no-ops). Must not be called on a provider that
is already registered (returns EALREADY); a NULL handle returns EINVAL.
Windows returns an HRESULT; here the
result is 0 or a positive errno, so SUCCEEDED() is true for every result.
*/
#define TraceLoggingRegister(hProvider) _tlgRegister(hProvider)

/*
TraceLoggingRegisterEx(hProvider, pEnableCallback, pCallbackContext):
Registers like TraceLoggingRegister. The callback is never called: user_events
has no enable notification (the kernel sets and clears each tracepoint's
status word, which TraceLoggingWrite and TraceLoggingProviderEnabled read).
Poll TraceLoggingProviderEnabled instead.
*/
#define TraceLoggingRegisterEx(hProvider, pEnableCallback, pCallbackContext) \
    ((void)(pEnableCallback), (void)(pCallbackContext), _tlgRegister(hProvider))

/*
TraceLoggingUnregister(hProvider):
Unregisters the provider and its events. Safe on a provider that is not
registered (idempotent), and a no-op for a NULL handle. The provider may be registered again afterwards.
Providers are also unregistered automatically at exit or unload (see
TRACELOGGING_DEFINE_PROVIDER).
*/
#define TraceLoggingUnregister(hProvider) _tlgUnregister(hProvider)

/*
TraceLoggingProviderEnabled(hProvider, eventLevel, eventKeyword):
True (non-zero) if a TraceLoggingWrite with this provider, level and keyword
would currently be written, i.e. a collector listens to the tracepoint
"<provider>_L<level>K<keyword><options>". Use it to skip expensive preparation of
event data; TraceLoggingWrite itself already skips disabled events cheaply.
- Provider symbol with constant level (1..255) and keyword: one load. The
  tracepoint is registered by TraceLoggingRegister.
- A handle, or a level or keyword that is not a compile-time constant: a
  function call that looks the tracepoint up among the provider's queried
  tracepoints and registers it on first use (a few dozen instructions).
- Level 0 (Windows: any level): true if any tracepoint of the provider that
  this module registered is enabled, of any level, and of any keyword if
  eventKeyword is 0, else of a keyword sharing a bit with eventKeyword. Costs
  a scan of the module's call sites.
A level above 255 is never enabled.
*/
#define TraceLoggingProviderEnabled(hProvider, eventLevel, eventKeyword) \
    _tlgPROVIDER_ENABLED(hProvider, eventLevel, eventKeyword)

/*
TraceLoggingProviderName(hProvider):
The provider's name as a nul-terminated char const*.
*/
#define TraceLoggingProviderName(hProvider) ((hProvider)->provider.name)

/*
TraceLoggingProviderOptions(hProvider):
The provider's options (e.g. "Gmygroup", or "") as a nul-terminated char const*.
*/
#define TraceLoggingProviderOptions(hProvider) ((hProvider)->provider.options)

/*
TraceLoggingProviderId(hProvider):
The provider id given to TRACELOGGING_DEFINE_PROVIDER, as a GUID value.
Available when GUID is declared (GUID_DEFINED, e.g. by the Windows-types
header <windows.h> of include/windows-compat) before this header.
*/
#define TraceLoggingProviderId(hProvider) _tlgProviderId(hProvider)

/*==== Writing events =======================================================*/

/*
TraceLoggingWrite(hProvider, "EventName", args...):
Writes an event if a collector listens to its tracepoint (provider + level +
keyword). "EventName" must be a string literal without ';'. args (up to 99) are
event options (TraceLoggingLevel, ...) and fields (TraceLoggingInt32, ...).
Field values are evaluated only when the event is enabled; hProvider is
evaluated once. The expression yields an int: 0, or an errno value from
eventheader_write (EBADF when nobody listens); it may be ignored. A counted
field whose run-time length is over 65535 (the format's counts are 16-bit:
binary bytes, counted-string characters, variable-array elements) is neither
truncated nor wrapped: the event is not written and the result is ERANGE. The
event carries the thread's activity id if the thread has one (set by the C++
thread activities of TraceLoggingActivity.h, include/windows-compat).
*/
#define TraceLoggingWrite(...) _tlgWRITE_PLAIN(__VA_ARGS__, ~)

/*
TraceLoggingWriteActivity(hProvider, "EventName", pActivityId, pRelatedActivityId, args...):
Like TraceLoggingWrite, and adds an activity id extension: pActivityId points at
a 16-byte id (or is NULL for none); pRelatedActivityId points at the 16-byte id
of the parent activity, or is NULL (it must be NULL if pActivityId is NULL).
A NULL pActivityId means the thread's activity id, as for TraceLoggingWrite.
*/
#define TraceLoggingWriteActivity(...) _tlgWRITE(__VA_ARGS__, ~)

/*
TraceLoggingWriteEx(hProvider, "EventName", filter, flags, pActivityId, pRelatedActivityId, args...):
Windows form of TraceLoggingWriteActivity with ETW's session filter and
EVENT_WRITE_FLAG_* flags: both are accepted and ignored (not evaluated); user_events
has no per-session filtering and none of those flags' meanings.
*/
#define TraceLoggingWriteEx(...) _tlgWRITE_EX(__VA_ARGS__, ~)

/*==== Event options ========================================================*/

/*
TraceLoggingLevel(eventLevel):
Sets the event's level: a constant 1..255, usually an event_level_* value
(1 critical_error .. 5 verbose). Default 5 (verbose). The last one wins.
*/
#define TraceLoggingLevel(eventLevel) (_tlgK_LEVEL, eventLevel)

/*
TraceLoggingKeyword(eventKeyword):
Adds keyword bits (a constant 64-bit category mask) to the event. Default 0.
Several TraceLoggingKeyword arguments are OR'ed together.
*/
#define TraceLoggingKeyword(eventKeyword) (_tlgK_KEYWORD, eventKeyword)

/*
TraceLoggingOpcode(eventOpcode):
Sets the event's opcode: a constant 0..255, usually an event_opcode_* value.
Default 0 (info). The last one wins.
*/
#define TraceLoggingOpcode(eventOpcode) (_tlgK_OPCODE, eventOpcode)

/*
TraceLoggingEventTag(eventTag):
Sets the event's provider-defined 16-bit tag (constant). Default 0. The last one wins.
*/
#define TraceLoggingEventTag(eventTag) (_tlgK_EVTAG, eventTag)

/*
TraceLoggingIdVersion(eventId, eventVersion):
Sets a stable numeric id (constant 0..65535, 0 = none) and version (constant
0..255) for the event. Default 0, 0. The last one wins.
*/
#define TraceLoggingIdVersion(eventId, eventVersion) (_tlgK_IDVER, eventId, eventVersion)

/*
TraceLoggingDescription("description"):
Documents the event in the source. Accepted and ignored (not written).
*/
#define TraceLoggingDescription(description) (_tlgK_NONE, description)

/*
TraceLoggingCustomAttribute("key", "value"):
Adds the attribute key=value to the event: the metadata's event name becomes
"EventName;key=value" (EventHeader event attributes, shown by decoders; on
Windows the attribute goes to the PDB only). Both must be string literals
without ';' (C++ checks this at compile time). Several are written in order.
*/
#define TraceLoggingCustomAttribute(key, value) (_tlgK_CATTR, key, value)

/*
TraceLoggingChannel(eventChannel):
Accepted (a constant 0..255) and ignored: Linux tracepoints have no channels.
*/
#define TraceLoggingChannel(eventChannel) (_tlgK_CHANNEL, eventChannel)

/*==== Fields ===============================================================

Every field macro takes optional trailing arguments [, "name" [, "description" [, tag]]]:
- "name": field name, a string literal without ';'. Default: the value
  expression, macro-expanded and stringized (TraceLoggingInt32(x) is named "x").
- "description": accepted and ignored.
- tag: provider-defined 16-bit field tag (a constant 0..65535; a wider one does not
  compile). Default: none.
*/

/*
TraceLoggingStruct(fieldCount, "name" [, "description" [, tag]]):
Starts a struct field: the next fieldCount (constant 1..127) logical fields are
its members (a nested struct counts as one field).
*/
#define TraceLoggingStruct(...) _tlgSTRUCT(event_field_encoding_struct, __VA_ARGS__)

/*
TraceLoggingValue(value [, "name" [, "description" [, tag]]]):
A field whose type is deduced from the value's type, in C++ and in C:
bool/_Bool -> Boolean, char -> Char, char16_t -> Char16 (C: UInt16),
char32_t -> Char32 (C: UInt32), wchar_t -> WChar (C: Int32), signed char -> Int8,
unsigned char -> UInt8, short/unsigned short -> Int16/UInt16, int/unsigned ->
Int32/UInt32, long/unsigned long -> Long/ULong, long long/unsigned long long ->
Int64/UInt64, float -> Float32, double -> Float64, char const* -> String,
char16_t const* -> String16, char32_t const* -> String32, wchar_t const* ->
WideString, any other pointer -> Pointer. Other types do not compile.
*/
#define TraceLoggingValue(...) _tlgAUTO(__VA_ARGS__)

/* Scalars: TraceLoggingInt32(value [, "name" [, "description" [, tag]]]) etc. The value is
   converted to the field's type. Boolean is 8-bit, Bool is 32-bit. */
/* TraceLoggingInt8(value, ...): signed 8-bit integer. */
#define TraceLoggingInt8(...)       _tlgVAL(int8_t, event_field_encoding_value8, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUInt8(value, ...): unsigned 8-bit integer. */
#define TraceLoggingUInt8(...)      _tlgVAL(uint8_t, event_field_encoding_value8, 0, 0, __VA_ARGS__)
/* TraceLoggingInt16(value, ...): signed 16-bit integer. */
#define TraceLoggingInt16(...)      _tlgVAL(int16_t, event_field_encoding_value16, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUInt16(value, ...): unsigned 16-bit integer. */
#define TraceLoggingUInt16(...)     _tlgVAL(uint16_t, event_field_encoding_value16, 0, 0, __VA_ARGS__)
/* TraceLoggingInt32(value, ...): signed 32-bit integer. */
#define TraceLoggingInt32(...)      _tlgVAL(int32_t, event_field_encoding_value32, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUInt32(value, ...): unsigned 32-bit integer. */
#define TraceLoggingUInt32(...)     _tlgVAL(uint32_t, event_field_encoding_value32, 0, 0, __VA_ARGS__)
/* TraceLoggingInt64(value, ...): signed 64-bit integer. */
#define TraceLoggingInt64(...)      _tlgVAL(int64_t, event_field_encoding_value64, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUInt64(value, ...): unsigned 64-bit integer. */
#define TraceLoggingUInt64(...)     _tlgVAL(uint64_t, event_field_encoding_value64, 0, 0, __VA_ARGS__)
/* TraceLoggingIntPtr(value, ...): signed pointer-sized integer (intptr_t). */
#define TraceLoggingIntPtr(...)     _tlgVAL(intptr_t, event_field_encoding_value_ptr, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUIntPtr(value, ...): unsigned pointer-sized integer (uintptr_t). */
#define TraceLoggingUIntPtr(...)    _tlgVAL(uintptr_t, event_field_encoding_value_ptr, 0, 0, __VA_ARGS__)
/* TraceLoggingLong(value, ...): signed long. */
#define TraceLoggingLong(...)       _tlgVAL(signed long, event_field_encoding_value_long, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingULong(value, ...): unsigned long. */
#define TraceLoggingULong(...)      _tlgVAL(unsigned long, event_field_encoding_value_long, 0, 0, __VA_ARGS__)
/* TraceLoggingHexInt8(value, ...): 8-bit integer shown in hex. */
#define TraceLoggingHexInt8(...)    _tlgVAL(int8_t, event_field_encoding_value8, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUInt8(value, ...): 8-bit integer shown in hex. */
#define TraceLoggingHexUInt8(...)   _tlgVAL(uint8_t, event_field_encoding_value8, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexInt16(value, ...): 16-bit integer shown in hex. */
#define TraceLoggingHexInt16(...)   _tlgVAL(int16_t, event_field_encoding_value16, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUInt16(value, ...): 16-bit integer shown in hex. */
#define TraceLoggingHexUInt16(...)  _tlgVAL(uint16_t, event_field_encoding_value16, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexInt32(value, ...): 32-bit integer shown in hex. */
#define TraceLoggingHexInt32(...)   _tlgVAL(int32_t, event_field_encoding_value32, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUInt32(value, ...): 32-bit integer shown in hex. */
#define TraceLoggingHexUInt32(...)  _tlgVAL(uint32_t, event_field_encoding_value32, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexInt64(value, ...): 64-bit integer shown in hex. */
#define TraceLoggingHexInt64(...)   _tlgVAL(int64_t, event_field_encoding_value64, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUInt64(value, ...): 64-bit integer shown in hex. */
#define TraceLoggingHexUInt64(...)  _tlgVAL(uint64_t, event_field_encoding_value64, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexIntPtr(value, ...): pointer-sized integer shown in hex. */
#define TraceLoggingHexIntPtr(...)  _tlgVAL(intptr_t, event_field_encoding_value_ptr, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUIntPtr(value, ...): pointer-sized integer shown in hex. */
#define TraceLoggingHexUIntPtr(...) _tlgVAL(uintptr_t, event_field_encoding_value_ptr, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexLong(value, ...): long shown in hex. */
#define TraceLoggingHexLong(...)    _tlgVAL(signed long, event_field_encoding_value_long, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexULong(value, ...): unsigned long shown in hex. */
#define TraceLoggingHexULong(...)   _tlgVAL(unsigned long, event_field_encoding_value_long, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingFloat32(value, ...): float. */
#define TraceLoggingFloat32(...)    _tlgVAL(float, event_field_encoding_value_float, 1, event_field_format_float, __VA_ARGS__)
/* TraceLoggingFloat64(value, ...): double. */
#define TraceLoggingFloat64(...)    _tlgVAL(double, event_field_encoding_value_double, 1, event_field_format_float, __VA_ARGS__)
/* TraceLoggingBoolean(value, ...): 8-bit boolean (bool, char); non-zero values other than 1 are kept. */
#define TraceLoggingBoolean(...)    _tlgVAL(uint8_t, event_field_encoding_value8, 1, event_field_format_boolean, __VA_ARGS__)
/* TraceLoggingBool(value, ...): 32-bit boolean (int). */
#define TraceLoggingBool(...)       _tlgVAL(int32_t, event_field_encoding_value32, 1, event_field_format_boolean, __VA_ARGS__)
/* TraceLoggingChar(value, ...): 8-bit character (Latin-1). */
#define TraceLoggingChar(...)       _tlgVAL(char, event_field_encoding_value8, 1, event_field_format_string8, __VA_ARGS__)
/* TraceLoggingChar16(value, ...): UTF-16 code unit (char16_t). */
#define TraceLoggingChar16(...)     _tlgVAL(char16_t, event_field_encoding_value16, 1, event_field_format_string_utf, __VA_ARGS__)
/* TraceLoggingChar32(value, ...): UTF-32 code unit (char32_t). */
#define TraceLoggingChar32(...)     _tlgVAL(char32_t, event_field_encoding_value32, 1, event_field_format_string_utf, __VA_ARGS__)
/* TraceLoggingWChar(value, ...): wide character (wchar_t). */
#define TraceLoggingWChar(...)      _tlgVAL(wchar_t, event_field_encoding_value_wchar, 1, event_field_format_string_utf, __VA_ARGS__)
/* TraceLoggingPointer(value, ...): a pointer's value (not what it points at), shown in hex. */
#define TraceLoggingPointer(...)    _tlgVAL(void const*, event_field_encoding_value_ptr, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingPid(value, ...): process or thread id (32-bit). */
#define TraceLoggingPid(...)        _tlgVAL(int32_t, event_field_encoding_value32, 1, event_field_format_pid, __VA_ARGS__)
/* TraceLoggingPort(value, ...): IP port, 16-bit in network byte order (e.g. sin_port). */
#define TraceLoggingPort(...)       _tlgVAL(uint16_t, event_field_encoding_value16, 1, event_field_format_port, __VA_ARGS__)
/* TraceLoggingErrno(value, ...): errno value (32-bit). */
#define TraceLoggingErrno(...)      _tlgVAL(int32_t, event_field_encoding_value32, 1, event_field_format_errno, __VA_ARGS__)
/* TraceLoggingTime32(value, ...): 32-bit time_t (seconds since 1970). */
#define TraceLoggingTime32(...)     _tlgVAL(int32_t, event_field_encoding_value32, 1, event_field_format_time, __VA_ARGS__)
/* TraceLoggingTime64(value, ...): 64-bit time_t (seconds since 1970). */
#define TraceLoggingTime64(...)     _tlgVAL(int64_t, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
/* TraceLoggingIPv4Address(value, ...): IPv4 address, 32-bit in network byte order (e.g. sin_addr.s_addr). */
#define TraceLoggingIPv4Address(...) _tlgVAL(uint32_t, event_field_encoding_value32, 1, event_field_format_ipv4, __VA_ARGS__)
/* TraceLoggingGuid(value, ...): UUID. value is either a pointer to 16 bytes in
   RFC 4122 (big-endian) order, like uuid_t (written as is), or, when GUID is
   declared before this header (GUID_DEFINED), a Windows GUID structure or a
   pointer to one (written in RFC 4122 order: Data1..Data3 big-endian). */
#define TraceLoggingGuid(...)       _tlgGUIDF(__VA_ARGS__)
/* TraceLoggingIPv6Address(pValue, ...): IPv6 address: pValue points at 16 bytes (e.g. &sin6_addr). */
#define TraceLoggingIPv6Address(...) _tlgAPPLY(_tlgIPV6, _tlgNDT1(__VA_ARGS__))

/* Windows value types (see docs/porting-from-windows.md for the mapping).
   The FILETIME, SYSTEMTIME and GUID forms need no Windows header: they check the
   value's size; in C the value must be an lvalue, as on Windows. */
/* TraceLoggingHResult(value, ...): HRESULT (32-bit, signed), shown in hex. */
#define TraceLoggingHResult(...)    _tlgVAL(int32_t, event_field_encoding_value32, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingNTStatus(value, ...): NTSTATUS (32-bit), shown in hex. */
#define TraceLoggingNTStatus(...)   _tlgVAL(uint32_t, event_field_encoding_value32, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingWinError(value, ...): Win32 error code (32-bit unsigned, decimal). */
#define TraceLoggingWinError(...)   _tlgVAL(uint32_t, event_field_encoding_value32, 0, 0, __VA_ARGS__)
/* TraceLoggingTid(value, ...): thread id (32-bit), like TraceLoggingPid. */
#define TraceLoggingTid(...)        _tlgVAL(int32_t, event_field_encoding_value32, 1, event_field_format_pid, __VA_ARGS__)
/* TraceLoggingCodePointer(value, ...): a code address, shown in hex (not symbolized). */
#define TraceLoggingCodePointer(...) _tlgVAL(void const*, event_field_encoding_value_ptr, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingFileTime(value, ...), TraceLoggingFileTimeUtc(value, ...): a FILETIME
   (100 ns intervals since 1601), written as a 64-bit time: whole seconds since 1970
   (the fraction is dropped). Both forms write the same field: EventHeader times
   carry no time zone. */
#define TraceLoggingFileTime(...)   _tlgCONVF(int64_t, _tlgFileTimeToTime, 8, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingFileTimeUtc(...) _tlgCONVF(int64_t, _tlgFileTimeToTime, 8, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
/* TraceLoggingSystemTime(value, ...), TraceLoggingSystemTimeUtc(value, ...): a
   SYSTEMTIME (calendar date and time), written as a 64-bit time: seconds since
   1970 of that date and time read as UTC (milliseconds and wDayOfWeek are dropped,
   fields are not validated). */
#define TraceLoggingSystemTime(...) _tlgCONVF(int64_t, _tlgSystemTimeToTime, 16, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingSystemTimeUtc(...) _tlgCONVF(int64_t, _tlgSystemTimeToTime, 16, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
/* TraceLoggingSid(pSid, ...): a SID (pSid points at a valid SID: 8 + 4 *
   SubAuthorityCount bytes), written as binary (hex bytes). */
#define TraceLoggingSid(...)         _tlgSIDF(__VA_ARGS__)
/* TraceLoggingSocketAddress(pValue, cbValue, ...): cbValue bytes of a sockaddr, written as
   binary (hex bytes). */
#define TraceLoggingSocketAddress(...) \
    _tlgCOUNTED(void, 1, event_field_encoding_string_length16_char8, 1, event_field_format_hex_bytes, __VA_ARGS__)
/* TraceLoggingBinaryBuffer(pValue, StructType, ...): the pValue->Length bytes at
   pValue->Buffer (pValue: StructType const*), written as binary (hex bytes).
   TraceLoggingBinaryBufferEx(pValue, StructType, format, ...): with an event_field_format. */
#define TraceLoggingBinaryBuffer(...) \
    _tlgAPPLY(_tlgBUFT, event_field_format_hex_bytes, _tlgNDT2(__VA_ARGS__))
#define TraceLoggingBinaryBufferEx(...) _tlgAPPLY(_tlgBUFTX, _tlgNDT3(__VA_ARGS__))
/* TraceLoggingAnsiString(pValue, ...): an ANSI_STRING / STRING (Length bytes at Buffer),
   written like TraceLoggingCountedString. */
#define TraceLoggingAnsiString(...) _tlgAPPLY(_tlgASTR, _tlgNDT1(__VA_ARGS__))
/* TraceLoggingUnicodeString(pValue, ...): a UNICODE_STRING (Length bytes of wide
   characters at Buffer), written like TraceLoggingCountedWideString (or
   TraceLoggingCountedString16 if Buffer's elements are 16-bit). */
#define TraceLoggingUnicodeString(...) _tlgAPPLY(_tlgUSTR, _tlgNDT1(__VA_ARGS__))

/* Nul-terminated strings: TraceLoggingString(psz [, "name" [, "description" [, tag]]]).
   A NULL pointer is written as an empty string. */
/* TraceLoggingString(psz, ...): char string, Latin-1 (or unspecified 8-bit charset). */
#define TraceLoggingString(...)       _tlgZSTR(char, _tlgZStr8, event_field_encoding_zstring_char8, 1, event_field_format_string8, __VA_ARGS__)
/* TraceLoggingUtf8String(psz, ...): char string, UTF-8. */
#define TraceLoggingUtf8String(...)   _tlgZSTR(char, _tlgZStr8, event_field_encoding_zstring_char8, 0, 0, __VA_ARGS__)
/* TraceLoggingString16(psz, ...): char16_t string, UTF-16. */
#define TraceLoggingString16(...)     _tlgZSTR(char16_t, _tlgZStr16, event_field_encoding_zstring_char16, 0, 0, __VA_ARGS__)
/* TraceLoggingString32(psz, ...): char32_t string, UTF-32. */
#define TraceLoggingString32(...)     _tlgZSTR(char32_t, _tlgZStr32, event_field_encoding_zstring_char32, 0, 0, __VA_ARGS__)
/* TraceLoggingWideString(psz, ...): wchar_t string, UTF-16 or UTF-32 by the size of wchar_t. */
#define TraceLoggingWideString(...)   _tlgZSTR(wchar_t, _tlgZStrW, event_field_encoding_zstring_wchar, 0, 0, __VA_ARGS__)

/* Counted strings: TraceLoggingCountedString(pch, cch [, "name" [, "description" [, tag]]]).
   cch is the number of characters (0..65535; more: the event is refused with ERANGE);
   pch may be NULL only when cch is 0. */
/* TraceLoggingCountedString(pch, cch, ...): char string, Latin-1. */
#define TraceLoggingCountedString(...)     _tlgCOUNTED(char, 1, event_field_encoding_string_length16_char8, 1, event_field_format_string8, __VA_ARGS__)
/* TraceLoggingCountedUtf8String(pch, cb, ...): char string, UTF-8 (cb bytes). */
#define TraceLoggingCountedUtf8String(...)  _tlgCOUNTED(char, 1, event_field_encoding_string_length16_char8, 0, 0, __VA_ARGS__)
/* TraceLoggingCountedString16(pch, cch, ...): char16_t string, UTF-16. */
#define TraceLoggingCountedString16(...)   _tlgCOUNTED(char16_t, sizeof(char16_t), event_field_encoding_string_length16_char16, 0, 0, __VA_ARGS__)
/* TraceLoggingCountedString32(pch, cch, ...): char32_t string, UTF-32. */
#define TraceLoggingCountedString32(...)   _tlgCOUNTED(char32_t, sizeof(char32_t), event_field_encoding_string_length16_char32, 0, 0, __VA_ARGS__)
/* TraceLoggingCountedWideString(pch, cch, ...): wchar_t string. */
#define TraceLoggingCountedWideString(...) _tlgCOUNTED(wchar_t, sizeof(wchar_t), event_field_encoding_string_length16_wchar, 0, 0, __VA_ARGS__)

/* TraceLoggingBinary(pValue, cbValue [, "name" [, "description" [, tag]]]):
   cbValue (0..65535; more: the event is refused with ERANGE) bytes at pValue (any
   pointer), shown as hex bytes. */
#define TraceLoggingBinary(...) \
    _tlgCOUNTED(void, 1, event_field_encoding_string_length16_char8, 1, event_field_format_hex_bytes, __VA_ARGS__)
/* TraceLoggingBinaryEx(pValue, cbValue, format [, "name" [, "description" [, tag]]]):
   like TraceLoggingBinary with the given event_field_format (a constant). */
#define TraceLoggingBinaryEx(...) _tlgAPPLY(_tlgBINX, _tlgNDT3(__VA_ARGS__))

/* Arrays. TraceLoggingInt32FixedArray(pValues, cValues [, "name" [, "description" [, tag]]]):
   cValues is a constant 1..65535 and is part of the event's metadata.
   TraceLoggingInt32Array(pValues, cValues [, "name" [, "description" [, tag]]]):
   cValues is a run-time count 0..65535 and is written in the payload (a larger
   count, or a negative one, refuses the event with ERANGE).
   pValues points at cValues elements of the field's type. */
/* TraceLoggingInt8FixedArray / TraceLoggingInt8Array: int8_t elements. */
#define TraceLoggingInt8FixedArray(...)       _tlgCARR(int8_t, sizeof(int8_t), event_field_encoding_value8, 1, event_field_format_signed_int, __VA_ARGS__)
#define TraceLoggingInt8Array(...)            _tlgVARR(int8_t, sizeof(int8_t), event_field_encoding_value8, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUInt8FixedArray / TraceLoggingUInt8Array: uint8_t elements. */
#define TraceLoggingUInt8FixedArray(...)      _tlgCARR(uint8_t, sizeof(uint8_t), event_field_encoding_value8, 0, 0, __VA_ARGS__)
#define TraceLoggingUInt8Array(...)           _tlgVARR(uint8_t, sizeof(uint8_t), event_field_encoding_value8, 0, 0, __VA_ARGS__)
/* TraceLoggingInt16FixedArray / TraceLoggingInt16Array: int16_t elements. */
#define TraceLoggingInt16FixedArray(...)      _tlgCARR(int16_t, sizeof(int16_t), event_field_encoding_value16, 1, event_field_format_signed_int, __VA_ARGS__)
#define TraceLoggingInt16Array(...)           _tlgVARR(int16_t, sizeof(int16_t), event_field_encoding_value16, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUInt16FixedArray / TraceLoggingUInt16Array: uint16_t elements. */
#define TraceLoggingUInt16FixedArray(...)     _tlgCARR(uint16_t, sizeof(uint16_t), event_field_encoding_value16, 0, 0, __VA_ARGS__)
#define TraceLoggingUInt16Array(...)          _tlgVARR(uint16_t, sizeof(uint16_t), event_field_encoding_value16, 0, 0, __VA_ARGS__)
/* TraceLoggingInt32FixedArray / TraceLoggingInt32Array: int32_t elements. */
#define TraceLoggingInt32FixedArray(...)      _tlgCARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_signed_int, __VA_ARGS__)
#define TraceLoggingInt32Array(...)           _tlgVARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUInt32FixedArray / TraceLoggingUInt32Array: uint32_t elements. */
#define TraceLoggingUInt32FixedArray(...)     _tlgCARR(uint32_t, sizeof(uint32_t), event_field_encoding_value32, 0, 0, __VA_ARGS__)
#define TraceLoggingUInt32Array(...)          _tlgVARR(uint32_t, sizeof(uint32_t), event_field_encoding_value32, 0, 0, __VA_ARGS__)
/* TraceLoggingInt64FixedArray / TraceLoggingInt64Array: int64_t elements. */
#define TraceLoggingInt64FixedArray(...)      _tlgCARR(int64_t, sizeof(int64_t), event_field_encoding_value64, 1, event_field_format_signed_int, __VA_ARGS__)
#define TraceLoggingInt64Array(...)           _tlgVARR(int64_t, sizeof(int64_t), event_field_encoding_value64, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUInt64FixedArray / TraceLoggingUInt64Array: uint64_t elements. */
#define TraceLoggingUInt64FixedArray(...)     _tlgCARR(uint64_t, sizeof(uint64_t), event_field_encoding_value64, 0, 0, __VA_ARGS__)
#define TraceLoggingUInt64Array(...)          _tlgVARR(uint64_t, sizeof(uint64_t), event_field_encoding_value64, 0, 0, __VA_ARGS__)
/* TraceLoggingIntPtrFixedArray / TraceLoggingIntPtrArray: intptr_t elements. */
#define TraceLoggingIntPtrFixedArray(...)     _tlgCARR(intptr_t, sizeof(intptr_t), event_field_encoding_value_ptr, 1, event_field_format_signed_int, __VA_ARGS__)
#define TraceLoggingIntPtrArray(...)          _tlgVARR(intptr_t, sizeof(intptr_t), event_field_encoding_value_ptr, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingUIntPtrFixedArray / TraceLoggingUIntPtrArray: uintptr_t elements. */
#define TraceLoggingUIntPtrFixedArray(...)    _tlgCARR(uintptr_t, sizeof(uintptr_t), event_field_encoding_value_ptr, 0, 0, __VA_ARGS__)
#define TraceLoggingUIntPtrArray(...)         _tlgVARR(uintptr_t, sizeof(uintptr_t), event_field_encoding_value_ptr, 0, 0, __VA_ARGS__)
/* TraceLoggingLongFixedArray / TraceLoggingLongArray: signed long elements. */
#define TraceLoggingLongFixedArray(...)       _tlgCARR(signed long, sizeof(long), event_field_encoding_value_long, 1, event_field_format_signed_int, __VA_ARGS__)
#define TraceLoggingLongArray(...)            _tlgVARR(signed long, sizeof(long), event_field_encoding_value_long, 1, event_field_format_signed_int, __VA_ARGS__)
/* TraceLoggingULongFixedArray / TraceLoggingULongArray: unsigned long elements. */
#define TraceLoggingULongFixedArray(...)      _tlgCARR(unsigned long, sizeof(long), event_field_encoding_value_long, 0, 0, __VA_ARGS__)
#define TraceLoggingULongArray(...)           _tlgVARR(unsigned long, sizeof(long), event_field_encoding_value_long, 0, 0, __VA_ARGS__)
/* TraceLoggingHexInt8FixedArray / TraceLoggingHexInt8Array: int8_t elements, hex. */
#define TraceLoggingHexInt8FixedArray(...)    _tlgCARR(int8_t, sizeof(int8_t), event_field_encoding_value8, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexInt8Array(...)         _tlgVARR(int8_t, sizeof(int8_t), event_field_encoding_value8, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUInt8FixedArray / TraceLoggingHexUInt8Array: uint8_t elements, hex. */
#define TraceLoggingHexUInt8FixedArray(...)   _tlgCARR(uint8_t, sizeof(uint8_t), event_field_encoding_value8, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexUInt8Array(...)        _tlgVARR(uint8_t, sizeof(uint8_t), event_field_encoding_value8, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexInt16FixedArray / TraceLoggingHexInt16Array: int16_t elements, hex. */
#define TraceLoggingHexInt16FixedArray(...)   _tlgCARR(int16_t, sizeof(int16_t), event_field_encoding_value16, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexInt16Array(...)        _tlgVARR(int16_t, sizeof(int16_t), event_field_encoding_value16, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUInt16FixedArray / TraceLoggingHexUInt16Array: uint16_t elements, hex. */
#define TraceLoggingHexUInt16FixedArray(...)  _tlgCARR(uint16_t, sizeof(uint16_t), event_field_encoding_value16, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexUInt16Array(...)       _tlgVARR(uint16_t, sizeof(uint16_t), event_field_encoding_value16, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexInt32FixedArray / TraceLoggingHexInt32Array: int32_t elements, hex. */
#define TraceLoggingHexInt32FixedArray(...)   _tlgCARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexInt32Array(...)        _tlgVARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUInt32FixedArray / TraceLoggingHexUInt32Array: uint32_t elements, hex. */
#define TraceLoggingHexUInt32FixedArray(...)  _tlgCARR(uint32_t, sizeof(uint32_t), event_field_encoding_value32, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexUInt32Array(...)       _tlgVARR(uint32_t, sizeof(uint32_t), event_field_encoding_value32, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexInt64FixedArray / TraceLoggingHexInt64Array: int64_t elements, hex. */
#define TraceLoggingHexInt64FixedArray(...)   _tlgCARR(int64_t, sizeof(int64_t), event_field_encoding_value64, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexInt64Array(...)        _tlgVARR(int64_t, sizeof(int64_t), event_field_encoding_value64, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUInt64FixedArray / TraceLoggingHexUInt64Array: uint64_t elements, hex. */
#define TraceLoggingHexUInt64FixedArray(...)  _tlgCARR(uint64_t, sizeof(uint64_t), event_field_encoding_value64, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexUInt64Array(...)       _tlgVARR(uint64_t, sizeof(uint64_t), event_field_encoding_value64, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexIntPtrFixedArray / TraceLoggingHexIntPtrArray: intptr_t elements, hex. */
#define TraceLoggingHexIntPtrFixedArray(...)  _tlgCARR(intptr_t, sizeof(intptr_t), event_field_encoding_value_ptr, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexIntPtrArray(...)       _tlgVARR(intptr_t, sizeof(intptr_t), event_field_encoding_value_ptr, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexUIntPtrFixedArray / TraceLoggingHexUIntPtrArray: uintptr_t elements, hex. */
#define TraceLoggingHexUIntPtrFixedArray(...) _tlgCARR(uintptr_t, sizeof(uintptr_t), event_field_encoding_value_ptr, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexUIntPtrArray(...)      _tlgVARR(uintptr_t, sizeof(uintptr_t), event_field_encoding_value_ptr, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexLongFixedArray / TraceLoggingHexLongArray: signed long elements, hex. */
#define TraceLoggingHexLongFixedArray(...)    _tlgCARR(signed long, sizeof(long), event_field_encoding_value_long, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexLongArray(...)         _tlgVARR(signed long, sizeof(long), event_field_encoding_value_long, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingHexULongFixedArray / TraceLoggingHexULongArray: unsigned long elements, hex. */
#define TraceLoggingHexULongFixedArray(...)   _tlgCARR(unsigned long, sizeof(long), event_field_encoding_value_long, 1, event_field_format_hex_int, __VA_ARGS__)
#define TraceLoggingHexULongArray(...)        _tlgVARR(unsigned long, sizeof(long), event_field_encoding_value_long, 1, event_field_format_hex_int, __VA_ARGS__)
/* TraceLoggingFloat32FixedArray / TraceLoggingFloat32Array: float elements. */
#define TraceLoggingFloat32FixedArray(...)    _tlgCARR(float, sizeof(float), event_field_encoding_value_float, 1, event_field_format_float, __VA_ARGS__)
#define TraceLoggingFloat32Array(...)         _tlgVARR(float, sizeof(float), event_field_encoding_value_float, 1, event_field_format_float, __VA_ARGS__)
/* TraceLoggingFloat64FixedArray / TraceLoggingFloat64Array: double elements. */
#define TraceLoggingFloat64FixedArray(...)    _tlgCARR(double, sizeof(double), event_field_encoding_value_double, 1, event_field_format_float, __VA_ARGS__)
#define TraceLoggingFloat64Array(...)         _tlgVARR(double, sizeof(double), event_field_encoding_value_double, 1, event_field_format_float, __VA_ARGS__)
/* TraceLoggingBooleanFixedArray / TraceLoggingBooleanArray: 8-bit boolean (uint8_t) elements. */
#define TraceLoggingBooleanFixedArray(...)    _tlgCARR(uint8_t, sizeof(uint8_t), event_field_encoding_value8, 1, event_field_format_boolean, __VA_ARGS__)
#define TraceLoggingBooleanArray(...)         _tlgVARR(uint8_t, sizeof(uint8_t), event_field_encoding_value8, 1, event_field_format_boolean, __VA_ARGS__)
/* TraceLoggingBoolFixedArray / TraceLoggingBoolArray: 32-bit boolean (int32_t) elements. */
#define TraceLoggingBoolFixedArray(...)       _tlgCARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_boolean, __VA_ARGS__)
#define TraceLoggingBoolArray(...)            _tlgVARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_boolean, __VA_ARGS__)
/* TraceLoggingCharFixedArray / TraceLoggingCharArray: char elements (Latin-1 characters). */
#define TraceLoggingCharFixedArray(...)       _tlgCARR(char, sizeof(char), event_field_encoding_value8, 1, event_field_format_string8, __VA_ARGS__)
#define TraceLoggingCharArray(...)            _tlgVARR(char, sizeof(char), event_field_encoding_value8, 1, event_field_format_string8, __VA_ARGS__)
/* TraceLoggingChar16FixedArray / TraceLoggingChar16Array: char16_t elements (UTF-16 code units). */
#define TraceLoggingChar16FixedArray(...)     _tlgCARR(char16_t, sizeof(char16_t), event_field_encoding_value16, 1, event_field_format_string_utf, __VA_ARGS__)
#define TraceLoggingChar16Array(...)          _tlgVARR(char16_t, sizeof(char16_t), event_field_encoding_value16, 1, event_field_format_string_utf, __VA_ARGS__)
/* TraceLoggingChar32FixedArray / TraceLoggingChar32Array: char32_t elements (UTF-32 code units). */
#define TraceLoggingChar32FixedArray(...)     _tlgCARR(char32_t, sizeof(char32_t), event_field_encoding_value32, 1, event_field_format_string_utf, __VA_ARGS__)
#define TraceLoggingChar32Array(...)          _tlgVARR(char32_t, sizeof(char32_t), event_field_encoding_value32, 1, event_field_format_string_utf, __VA_ARGS__)
/* TraceLoggingWCharFixedArray / TraceLoggingWCharArray: wchar_t elements. */
#define TraceLoggingWCharFixedArray(...)      _tlgCARR(wchar_t, sizeof(wchar_t), event_field_encoding_value_wchar, 1, event_field_format_string_utf, __VA_ARGS__)
#define TraceLoggingWCharArray(...)           _tlgVARR(wchar_t, sizeof(wchar_t), event_field_encoding_value_wchar, 1, event_field_format_string_utf, __VA_ARGS__)
/* TraceLoggingPointerFixedArray / TraceLoggingPointerArray: pointer elements (their values, hex):
   pValues is an array of any pointer type (void*, void const*, void* const, char*, a function
   pointer, ...), written as it is in memory; an array of anything else does not compile. */
#define TraceLoggingPointerFixedArray(...)    _tlgPTRARR(_tlgCARR_, 0, __VA_ARGS__)
#define TraceLoggingPointerArray(...)         _tlgPTRARR(_tlgCOUNTED_, event_field_encoding_varray_flag, __VA_ARGS__)
/* TraceLoggingPidFixedArray / TraceLoggingPidArray: int32_t process/thread id elements. */
#define TraceLoggingPidFixedArray(...)        _tlgCARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_pid, __VA_ARGS__)
#define TraceLoggingPidArray(...)             _tlgVARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_pid, __VA_ARGS__)
/* TraceLoggingPortFixedArray / TraceLoggingPortArray: uint16_t port elements (network byte order). */
#define TraceLoggingPortFixedArray(...)       _tlgCARR(uint16_t, sizeof(uint16_t), event_field_encoding_value16, 1, event_field_format_port, __VA_ARGS__)
#define TraceLoggingPortArray(...)            _tlgVARR(uint16_t, sizeof(uint16_t), event_field_encoding_value16, 1, event_field_format_port, __VA_ARGS__)
/* TraceLoggingErrnoFixedArray / TraceLoggingErrnoArray: int32_t errno elements. */
#define TraceLoggingErrnoFixedArray(...)      _tlgCARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_errno, __VA_ARGS__)
#define TraceLoggingErrnoArray(...)           _tlgVARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_errno, __VA_ARGS__)
/* TraceLoggingTime32FixedArray / TraceLoggingTime32Array: int32_t time_t elements. */
#define TraceLoggingTime32FixedArray(...)     _tlgCARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingTime32Array(...)          _tlgVARR(int32_t, sizeof(int32_t), event_field_encoding_value32, 1, event_field_format_time, __VA_ARGS__)
/* TraceLoggingTime64FixedArray / TraceLoggingTime64Array: int64_t time_t elements. */
#define TraceLoggingTime64FixedArray(...)     _tlgCARR(int64_t, sizeof(int64_t), event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingTime64Array(...)          _tlgVARR(int64_t, sizeof(int64_t), event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
/* TraceLoggingIPv4AddressFixedArray / TraceLoggingIPv4AddressArray: uint32_t IPv4 address elements (network byte order). */
#define TraceLoggingIPv4AddressFixedArray(...) _tlgCARR(uint32_t, sizeof(uint32_t), event_field_encoding_value32, 1, event_field_format_ipv4, __VA_ARGS__)
#define TraceLoggingIPv4AddressArray(...)     _tlgVARR(uint32_t, sizeof(uint32_t), event_field_encoding_value32, 1, event_field_format_ipv4, __VA_ARGS__)
/* TraceLoggingGuidFixedArray / TraceLoggingGuidArray: UUID elements: pValues points at
   cValues * 16 bytes in RFC 4122 order, or at cValues GUID structures (GUID const*,
   converted as for TraceLoggingGuid). */
#define TraceLoggingGuidFixedArray(...)       _tlgGUIDARR(1, __VA_ARGS__)
#define TraceLoggingGuidArray(...)            _tlgGUIDARR(0, __VA_ARGS__)
/* TraceLoggingCodePointerFixedArray / TraceLoggingCodePointerArray: code addresses (hex), from an
   array of any pointer type as for TraceLoggingPointerArray (PVOID, a function pointer, ...). */
#define TraceLoggingCodePointerFixedArray(...) _tlgPTRARR(_tlgCARR_, 0, __VA_ARGS__)
#define TraceLoggingCodePointerArray(...)     _tlgPTRARR(_tlgCOUNTED_, event_field_encoding_varray_flag, __VA_ARGS__)
/* TraceLoggingFileTime[Utc]FixedArray / TraceLoggingFileTime[Utc]Array: FILETIME elements,
   each written as TraceLoggingFileTime does. */
#define TraceLoggingFileTimeFixedArray(...)   _tlgCONVARR(int64_t, _tlgFileTimeToTime, 8, 1, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingFileTimeArray(...)        _tlgCONVARR(int64_t, _tlgFileTimeToTime, 8, 0, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingFileTimeUtcFixedArray(...) _tlgCONVARR(int64_t, _tlgFileTimeToTime, 8, 1, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingFileTimeUtcArray(...)     _tlgCONVARR(int64_t, _tlgFileTimeToTime, 8, 0, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
/* TraceLoggingSystemTime[Utc]FixedArray / TraceLoggingSystemTime[Utc]Array: SYSTEMTIME elements,
   each written as TraceLoggingSystemTime does. */
#define TraceLoggingSystemTimeFixedArray(...) _tlgCONVARR(int64_t, _tlgSystemTimeToTime, 16, 1, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingSystemTimeArray(...)      _tlgCONVARR(int64_t, _tlgSystemTimeToTime, 16, 0, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingSystemTimeUtcFixedArray(...) _tlgCONVARR(int64_t, _tlgSystemTimeToTime, 16, 1, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)
#define TraceLoggingSystemTimeUtcArray(...)   _tlgCONVARR(int64_t, _tlgSystemTimeToTime, 16, 0, event_field_encoding_value64, 1, event_field_format_time, __VA_ARGS__)

/*==== Packed fields (advanced) =============================================

These give direct control of metadata and payload, for layouts the macros above
cannot express (arrays of strings, arrays of structs, pre-packed structs). The
caller must keep metadata and data consistent: the decoder sees the payload as
one run of bytes. Arrays are a uint16_t element count followed by the elements
(add event_field_encoding_varray_flag to the encoding).
*/

/* TraceLoggingPackedField(pValue, cbValue, encoding [, "name" [, "description" [, tag]]]):
   a field with the given event_field_encoding (constant) and default format; its
   data is the cbValue bytes at pValue. */
#define TraceLoggingPackedField(...) _tlgAPPLY(_tlgPFLD, _tlgNDT3(__VA_ARGS__))
/* TraceLoggingPackedFieldEx(pValue, cbValue, encoding, format [, "name" [, "description" [, tag]]]):
   like TraceLoggingPackedField with an explicit event_field_format (constant). */
#define TraceLoggingPackedFieldEx(...) _tlgAPPLY(_tlgPFLDX, _tlgNDT4(__VA_ARGS__))
/* TraceLoggingPackedMetadata(encoding, "name" [, "description" [, tag]]):
   metadata only: declares a field whose data comes from TraceLoggingPackedData. */
#define TraceLoggingPackedMetadata(...) _tlgAPPLY(_tlgPMETA, _tlgNDTN1(__VA_ARGS__))
/* TraceLoggingPackedMetadataEx(encoding, format, "name" [, "description" [, tag]]):
   like TraceLoggingPackedMetadata with an explicit event_field_format. */
#define TraceLoggingPackedMetadataEx(...) _tlgAPPLY(_tlgPMETAX, _tlgNDTN2(__VA_ARGS__))
/* TraceLoggingPackedStruct(fieldCount, "name" [, "description" [, tag]]):
   metadata only: starts a struct of the next fieldCount (1..127) fields. */
#define TraceLoggingPackedStruct(...) _tlgSTRUCT(event_field_encoding_struct, __VA_ARGS__)
/* TraceLoggingPackedStructArray(fieldCount, "name" [, "description" [, tag]]):
   metadata only: starts a variable-length array of structs of fieldCount fields;
   the data is a uint16_t count followed by the elements. */
#define TraceLoggingPackedStructArray(...) \
    _tlgSTRUCT(event_field_encoding_struct | event_field_encoding_varray_flag, __VA_ARGS__)
/* TraceLoggingPackedData(pValue, cbValue):
   data only: appends cbValue bytes at pValue to the payload. */
#define TraceLoggingPackedData(pValue, cbValue) (_tlgK_PDATA, pValue, cbValue)
/* TraceLoggingPackedDataEx(pValue, cbValue, dataDescType): TraceLoggingPackedData; the ETW
   EVENT_DATA_DESCRIPTOR type is accepted and ignored (not evaluated). */
#define TraceLoggingPackedDataEx(pValue, cbValue, dataDescType) (_tlgK_PDATA, pValue, cbValue)

/*==== Implementation (private: everything below may change) ===============*/

#ifdef __cplusplus
#define _tlgEXTERN_C extern "C"
#define _tlgEXTERN_C_DEF extern "C"
#define _tlgSTATIC_ASSERT(cond, msg) static_assert(cond, msg)
#define _tlgCAST(type, expr) static_cast<type>(expr)
#define _tlgNOEXCEPT noexcept
#else
#define _tlgEXTERN_C extern
#define _tlgEXTERN_C_DEF
#define _tlgSTATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define _tlgCAST(type, expr) ((type)(expr))
#define _tlgNOEXCEPT
#endif

/*
The library's write path for this header's events, private to it (declared
here only; src/ffi/tracelogging_api.rs, whose declarations tests/headers.rs
compares with these). The macro builds every argument itself, so the library
checks none of them again: the event is the call site's (its state just
tested enabled, its metadata announced by its header), the iovec array the
macro's own, with its count fixed at compile time, and the activity variant
is called only with an activity id. The library fills [1] (header, activity
id extension) and [2] (metadata), so that each call site stays small.
Programs call eventheader_write, which checks everything. With gcc, the call
reads the function's address from the GOT instead of jumping through the PLT
(as with -fno-plt): one instruction less per event with the shared library,
none with the static one (the linker makes it a direct call).
_eventheader_tlg_write gives the event the calling thread's activity id when
the thread has one. The activity id functions serve TraceLoggingActivity.h
(include/windows-compat): a new id, and the calling thread's id (get: 1 and
the id copied, or 0; set: NULL for none).
*/
#if defined(__has_attribute)
#if __has_attribute(noplt)
#define _tlgNOPLT __attribute__((noplt))
#endif
#endif
#ifndef _tlgNOPLT
#define _tlgNOPLT
#endif
#ifdef __cplusplus
extern "C" {
#endif
_tlgNOPLT
int _eventheader_tlg_write(const eventheader_tracepoint *event, struct iovec *data_vecs, uint32_t data_count);
_tlgNOPLT
int _eventheader_tlg_write_activity(const eventheader_tracepoint *event, struct iovec *data_vecs, uint32_t data_count, const void *activity_id, const void *related_id);
void _eventheader_tlg_activity_id_create(void *id);
int _eventheader_tlg_thread_activity_get(void *id);
void _eventheader_tlg_thread_activity_set(const void *id);
#ifdef __cplusplus
}
#endif
/* UIO_MAXIOV: the most vectors one writev takes. */
#define _tlgVECS_MAX 1024

#define _tlgPASTE(a, b) _tlgPASTE_(a, b)
#define _tlgPASTE_(a, b) a##b
#define _tlgFEPASTE(a, b) _tlgFEPASTE_(a, b)
#define _tlgFEPASTE_(a, b) a##b
#define _tlgSTR(x) _tlgSTR_(x)
#define _tlgSTR_(x) #x
#define _tlgUNPAREN(...) __VA_ARGS__

#ifdef __cplusplus
#define _tlgBOOL bool
#define _tlgCONSTEXPR constexpr
#define _tlgMUTABLE(type, expr) const_cast<type>(expr)
#else
#define _tlgBOOL _Bool
#define _tlgCONSTEXPR
#define _tlgMUTABLE(type, expr) ((type)(expr))
#endif

/* The provider GUID must be a parenthesized list of 11 values. */
#define _tlgGUID_SHAPE(a, b, c, d, e, f, g, h, i, j, k)
#define _tlgGUID_INIT(a, b, c, d, e, f, g, h, i, j, k) \
    { (uint32_t)(a), (uint16_t)(b), (uint16_t)(c), \
      { (uint8_t)(d), (uint8_t)(e), (uint8_t)(f), (uint8_t)(g), \
        (uint8_t)(h), (uint8_t)(i), (uint8_t)(j), (uint8_t)(k) } }

/*
Provider storage. A TraceLoggingHProvider points at one; a provider symbol is an
array of one (so that it converts to a handle, has a constant address usable in
static initializers, and can be told from a handle by its size).
*/
struct _tlgGuid {
    uint32_t data1;
    uint16_t data2;
    uint16_t data3;
    uint8_t data4[8];
};
struct _tlgCallSite;
struct _tlgProvider {
    eventheader_provider provider; /* what the eventheader API takes; .state points at state */
    tracepoint_provider_state state;
    struct _tlgGuid id;            /* TraceLoggingProviderId */
    struct _tlgCallSite* queries;  /* TraceLoggingProviderEnabled tracepoints (atomic list via .more) */
};
_tlgSTATIC_ASSERT(sizeof(struct _tlgProvider) != sizeof(TraceLoggingHProvider),
    "a provider symbol must differ in size from a handle");

/* Non-zero (an integer constant expression) if hProvider is a provider symbol. */
#define _tlgIS_SYMBOL(hProvider) (sizeof(hProvider) == sizeof(struct _tlgProvider))

/*
A call site: one static per TraceLoggingWrite / TraceLoggingProviderEnabled, and
one heap block per further provider of a handle call site or per queried
level/keyword of a provider. The module's call sites are listed (one pointer
each) in the linker section "_tlgSites", whose __start_/__stop_ bounds
TraceLoggingRegister walks.
- Symbol call site: provider is the provider symbol (constant); more is NULL.
- Handle call site: provider is NULL until the site first runs, then the first
  provider it ran with (set once, atomically); more lists the slots (heap call
  sites) of further providers, each owned by its provider for good.
- Query (TraceLoggingProviderEnabled at run time): provider is the provider;
  more is the next query of the provider's list.
A call site is connected (its state registered) only to its own provider.
*/
struct _tlgCallSite {
    tracepoint_state state;
    eventheader_tracepoint event;  /* event.state == &state */
    TraceLoggingHProvider provider;
    struct _tlgCallSite* more;
};

_tlgEXTERN_C struct _tlgCallSite* const __start__tlgSites[] __attribute__((weak, visibility("hidden")));
_tlgEXTERN_C struct _tlgCallSite* const __stop__tlgSites[] __attribute__((weak, visibility("hidden")));

/*
Nothing in the program refers to an entry of "_tlgSites": only the section's
__start_/__stop_ bounds do, which linkers that collect unused sections do not
count as a use (lld's --gc-sections, GNU ld's -z start-stop-gc). So every entry
is marked retain (the section flag SHF_GNU_RETAIN, "R"; gcc 11, clang 13 and
binutils 2.36 on): the linker keeps it whatever its garbage collection. All
entries of the section carry the flag, whichever way they are written, since
one section name with two sets of flags is refused. A compiler without the
attribute writes them without it; such a program must be linked without
collecting sections, or with GNU ld's default (-z nostart-stop-gc).
*/
#if defined(__has_attribute)
#if __has_attribute(retain)
#define _tlgRETAIN retain,
#define _tlgSITES_FLAGS "awR"
#endif
#endif
#ifndef _tlgRETAIN
#define _tlgRETAIN
#define _tlgSITES_FLAGS "aw"
#endif

#if defined(__cplusplus) && !defined(__clang__)
/*
g++ ignores the section attribute of static variables in templates (its bug
70435) and refuses, in one translation unit, section variables of both inline
(COMDAT) and ordinary functions ("section type conflict"). So in g++ the call
site is a static of an anonymous-namespace type, which g++ gives internal
linkage even in inline functions and templates, and its entry in "_tlgSites" is
emitted by an asm statement, whose operand may then name it even in PIC code.
An inline function compiled in several translation units thus has one call
site per unit (each registered; the code the linker keeps uses one of them).
The operand is a symbol address, a link-time constant, and the entry must print
it as a bare symbol in every code model and relocation model. x86 (i386 and
x86_64): "i" does not hold it in i386's PIC code (an address there is relative
to the GOT register), nor in x86_64's large code model (no immediate holds a
64-bit address there, PIC or not); "X" takes the operand as it is, and "%p"
prints it as a bare symbol, in every model. aarch64's "i" refuses it (no
symbolic immediates there); its "S" (a symbolic address) takes it, in the tiny,
small and large models alike. Nor does 32-bit arm's "i" take it in PIC code (an
address there is loaded relative to the PC); its "US" (a symbol reference)
does. riscv64's and mips64's "i" accept it, but their "%c" does not exist:
there "%0" prints it bare, as these assemblers write immediates without a
prefix. ppc64le (small, medium and large models) and s390x take "i" and "%c".
*/
namespace {
struct _tlgSiteHolder {
    struct _tlgCallSite s;
};
}
#define _tlgSITE_DECL(...) static _tlgSiteHolder _tlgSite = { { __VA_ARGS__ } }
#define _tlgSITE (&_tlgSite.s)
#if defined(__aarch64__)
#define _tlgSITE_ADDR "S"
#define _tlgSITE_REF "%c0"
#elif defined(__arm__)
#define _tlgSITE_ADDR "US"
#define _tlgSITE_REF "%c0"
#elif defined(__i386__) || defined(__x86_64__)
#define _tlgSITE_ADDR "X"
#define _tlgSITE_REF "%p0"
#elif defined(__riscv) || defined(__mips64)
#define _tlgSITE_ADDR "i"
#define _tlgSITE_REF "%0"
#else
#define _tlgSITE_ADDR "i"
#define _tlgSITE_REF "%c0"
#endif
#define _tlgSITE_ENTRY() \
    __asm__ __volatile__(".pushsection _tlgSites,\"" _tlgSITES_FLAGS "\"\n\t.balign " _tlgSTR(__SIZEOF_POINTER__) \
        "\n\t.dc.a " _tlgSITE_REF "\n\t.popsection" : : _tlgSITE_ADDR(_tlgSITE))
#else
#define _tlgSITE_DECL(...) static struct _tlgCallSite _tlgSite = { __VA_ARGS__ }
#define _tlgSITE (&_tlgSite)
#define _tlgSITE_ENTRY() \
    static struct _tlgCallSite* const _tlgSiteEntry __attribute__((section("_tlgSites"), _tlgRETAIN used)) = _tlgSITE; \
    (void)_tlgSiteEntry
#endif

/* The provider a call site is bound to at compile time: the symbol, or NULL. */
#define _tlgSITE_PROVIDER(hProvider, cond) ((_tlgIS_SYMBOL(hProvider) && (cond)) ? (hProvider) : NULL)

#define _tlgATOMIC_LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

/* Connects a call site to its provider h unless it is connected to it already. */
static inline void _tlgConnect(struct _tlgCallSite* site, TraceLoggingHProvider h) _tlgNOEXCEPT
{
    if (__atomic_load_n(&site->state.provider_state, __ATOMIC_RELAXED) != &h->state) {
        (void)eventheader_connect(&site->event, &h->provider);
    }
}

/* Number of entries of the module's "_tlgSites" section. */
static inline size_t _tlgSiteCount(void) _tlgNOEXCEPT
{
    return (size_t)(((uintptr_t)__stop__tlgSites - (uintptr_t)__start__tlgSites) / sizeof(struct _tlgCallSite*));
}

/* The out-of-line helpers (_tlgConnectAll, _tlgHandleSlow,
   _tlgProviderEnabledRt) are "static inline" as well as noinline: GCC emits
   every plain static function even unused at -O0, and then a translation unit
   that includes this header without using it would need the library's
   symbols. GCC's C front end warns about inline with noinline: not here. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__cplusplus)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif

/* TraceLoggingRegister: open the provider, then connect every call site of the
   module bound to it, and its queries. */
static inline __attribute__((noinline)) void _tlgConnectAll(TraceLoggingHProvider h) _tlgNOEXCEPT
{
    size_t const count = _tlgSiteCount();
    struct _tlgCallSite* site;
    size_t i;
    for (i = 0; i != count; i += 1) {
        for (site = __start__tlgSites[i]; site != NULL; site = _tlgATOMIC_LOAD(&site->more)) {
            if (_tlgATOMIC_LOAD(&site->provider) == h) {
                _tlgConnect(site, h);
            }
        }
    }
    for (site = _tlgATOMIC_LOAD(&h->queries); site != NULL; site = _tlgATOMIC_LOAD(&site->more)) {
        _tlgConnect(site, h);
    }
}

static inline int _tlgRegister(TraceLoggingHProvider h) _tlgNOEXCEPT
{
    int err = EINVAL;
    if (h != NULL) {
        err = eventheader_open_provider(&h->provider);
        if (err == 0) {
            _tlgConnectAll(h);
        }
    }
    return err;
}

static inline void _tlgUnregister(TraceLoggingHProvider h) _tlgNOEXCEPT
{
    if (h != NULL) {
        eventheader_close_provider(&h->provider);
    }
}

/* A fresh heap call site for provider h, copying a call site's event. NULL if out of memory. */
static inline struct _tlgCallSite* _tlgNewSite(
    TraceLoggingHProvider h, eventheader_tracepoint const* event) _tlgNOEXCEPT
{
    struct _tlgCallSite* const site = _tlgCAST(struct _tlgCallSite*, calloc(1, sizeof(struct _tlgCallSite)));
    if (site != NULL) {
        site->state.write_index = -1;
        site->event = *event;
        site->event.state = &site->state;
        site->provider = h;
    }
    return site;
}

/* The slot (call site) of handle call site `site` owned by provider h: the site
   itself if h is (or now becomes) its first provider, else a heap slot of its
   list (added if missing). NULL if h is NULL or out of memory. */
static inline struct _tlgCallSite* _tlgSlotFor(struct _tlgCallSite* site, TraceLoggingHProvider h) _tlgNOEXCEPT
{
    TraceLoggingHProvider owner = NULL;
    struct _tlgCallSite* fresh = NULL;
    struct _tlgCallSite* head;
    struct _tlgCallSite* slot;
    if (h == NULL) {
        return NULL;
    }
    if (__atomic_compare_exchange_n(&site->provider, &owner, h, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
        owner == h) {
        return site;
    }
    for (;;) {
        head = _tlgATOMIC_LOAD(&site->more);
        for (slot = head; slot != NULL; slot = _tlgATOMIC_LOAD(&slot->more)) {
            if (slot->provider == h) {
                free(fresh);
                return slot;
            }
        }
        if (fresh == NULL) {
            fresh = _tlgNewSite(h, &site->event);
            if (fresh == NULL) {
                return NULL;
            }
        }
        fresh->more = head;
        if (__atomic_compare_exchange_n(&site->more, &head, fresh, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
            return fresh;
        }
    }
}

/* Handle call site, slow path: find or make h's slot, connect it if needed. */
static inline __attribute__((noinline, cold)) struct _tlgCallSite* _tlgHandleSlow(
    struct _tlgCallSite* site, TraceLoggingHProvider h) _tlgNOEXCEPT
{
    struct _tlgCallSite* const slot = _tlgSlotFor(site, h);
    if (slot == NULL) {
        return NULL;
    }
    _tlgConnect(slot, h);
    return TRACEPOINT_ENABLED(&slot->state) ? slot : NULL;
}

/* The slot to write at a symbol call site (the site), or NULL if disabled: one load. */
static inline __attribute__((always_inline)) struct _tlgCallSite* _tlgSymbolSlot(
    struct _tlgCallSite* site) _tlgNOEXCEPT
{
    return TRACEPOINT_ENABLED(&site->state) ? site : NULL;
}

/* The slot to write at a handle call site for provider h, or NULL if disabled.
   Fast path: the site's first slot is connected to h (two loads, a compare). */
static inline __attribute__((always_inline)) struct _tlgCallSite* _tlgHandleSlot(
    struct _tlgCallSite* site, TraceLoggingHProvider h) _tlgNOEXCEPT
{
    /* &h->state, computed as an integer so that a NULL handle is no undefined behavior. */
    uintptr_t const state = (uintptr_t)h + offsetof(struct _tlgProvider, state);
    if (__builtin_expect((uintptr_t)__atomic_load_n(&site->state.provider_state, __ATOMIC_RELAXED) == state, 1)) {
        return TRACEPOINT_ENABLED(&site->state) ? site : NULL;
    }
    return _tlgHandleSlow(site, h);
}

/* TraceLoggingProviderEnabled with level 0: any enabled tracepoint of h in this module. */
static inline int _tlgAnyEnabled(TraceLoggingHProvider h, uint64_t keyword) _tlgNOEXCEPT
{
    size_t const count = _tlgSiteCount();
    struct _tlgCallSite* site;
    size_t i;
    for (i = 0; i != count + 1; i += 1) {
        site = i != count ? __start__tlgSites[i] : _tlgATOMIC_LOAD(&h->queries);
        for (; site != NULL; site = _tlgATOMIC_LOAD(&site->more)) {
            if (_tlgATOMIC_LOAD(&site->provider) == h &&
                __atomic_load_n(&site->state.provider_state, __ATOMIC_RELAXED) == &h->state &&
                (keyword == 0 || (site->event.keyword & keyword) != 0) &&
                TRACEPOINT_ENABLED(&site->state)) {
                return 1;
            }
        }
    }
    return 0;
}

/* The query call site of h for (level, keyword), added to h's list if missing. */
static inline struct _tlgCallSite* _tlgQueryFor(TraceLoggingHProvider h, uint8_t level, uint64_t keyword) _tlgNOEXCEPT
{
    struct _tlgCallSite** const list = &_tlgMUTABLE(struct _tlgProvider*, h)->queries;
    struct _tlgCallSite* fresh = NULL;
    struct _tlgCallSite* head;
    struct _tlgCallSite* query;
    eventheader_tracepoint event;
    for (;;) {
        head = _tlgATOMIC_LOAD(list);
        for (query = head; query != NULL; query = _tlgATOMIC_LOAD(&query->more)) {
            if (query->event.header.level == level && query->event.keyword == keyword) {
                free(fresh);
                return query;
            }
        }
        if (fresh == NULL) {
            memset(&event, 0, sizeof(event));
            event.header.flags = (uint8_t)eventheader_flag_default;
            event.header.level = level;
            event.keyword = keyword;
            fresh = _tlgNewSite(h, &event);
            if (fresh == NULL) {
                return NULL;
            }
        }
        fresh->more = head;
        if (__atomic_compare_exchange_n(list, &head, fresh, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
            return fresh;
        }
    }
}

/* TraceLoggingProviderEnabled at run time. */
static inline __attribute__((noinline)) int _tlgProviderEnabledRt(
    TraceLoggingHProvider h, unsigned level, uint64_t keyword) _tlgNOEXCEPT
{
    struct _tlgCallSite* query;
    if (h == NULL || level > 255) {
        return 0;
    }
    if (level == 0) {
        return _tlgAnyEnabled(h, keyword);
    }
    query = _tlgQueryFor(h, (uint8_t)level, keyword);
    if (query == NULL) {
        return 0;
    }
    _tlgConnect(query, h);
    return TRACEPOINT_ENABLED(&query->state) != 0;
}

#if defined(__GNUC__) && !defined(__clang__) && !defined(__cplusplus)
#pragma GCC diagnostic pop
#endif

#ifdef GUID_DEFINED
static inline GUID _tlgProviderId(TraceLoggingHProvider h) _tlgNOEXCEPT
{
    GUID id;
    _tlgSTATIC_ASSERT(sizeof(GUID) == sizeof(struct _tlgGuid), "GUID must be 16 bytes");
    memcpy(&id, &h->id, sizeof(id));
    return id;
}
#endif

/*
Variadic macros without GNU extensions. Every public macro with optional
arguments takes "..." only, and every list that may be empty is passed on with
a sentinel "~" after it, so that no variadic macro is ever invoked with no
variadic argument and no macro needs ", ##__VA_ARGS__" (both are extensions
that -pedantic reports at every use). Arguments are counted by their commas,
so a single argument is counted like several (a TraceLoggingWrite argument
that is not a TraceLogging macro is then refused, see _tlgDISPATCH).
_tlgAPPLY(m, args...) invokes m with args after expanding them (so that a
macro among them may expand to several arguments). _tlgCNT(args...) is the
number of arguments, 1..9 (an empty list counts as 1).
_tlgISTUPLE(arg) is 1 if arg starts with a parenthesized group, else 0.
*/
#define _tlgAPPLY(m, ...) m(__VA_ARGS__)
#define _tlgCNT(...) _tlgCNT_(__VA_ARGS__, 9, 8, 7, 6, 5, 4, 3, 2, 1, ~)
#define _tlgCNT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, n, ...) n
#define _tlgISTUPLE(arg) _tlgISTUPLE_(_tlgISTUPLE_PROBE arg)
#define _tlgISTUPLE_(...) _tlgISTUPLE_SEL(__VA_ARGS__, 0, ~)
#define _tlgISTUPLE_SEL(x, n, ...) n
#define _tlgISTUPLE_PROBE(...) ~, 1

/*
Provider definition: the options string, compile-time checks, the storage and
its closing destructor. The last declaration absorbs the caller's semicolon.
The public macros append the sentinel: the last argument here is "~", after
the option if there is one.
*/
#define _tlgDEFINE_PROVIDER(providerSymbol, providerName, providerId, ...) \
    TRACELOGGING_DECLARE_PROVIDER(providerSymbol); \
    _tlgDEFINE_STORAGE(, providerSymbol[1], _tlgBRACE, &providerSymbol[0], providerSymbol, \
        providerName, providerId, __VA_ARGS__)
#define _tlgDEFINE_PROVIDER_STORAGE(storageVariable, providerName, providerId, ...) \
    _tlgDEFINE_STORAGE(static, storageVariable, _tlgUNPAREN, &storageVariable, storageVariable, \
        providerName, providerId, __VA_ARGS__)
#define _tlgBRACE(...) { __VA_ARGS__ }
#define _tlgDEFINE_STORAGE(linkage, declarator, wrap, self, name, providerName, providerId, ...) \
    _tlgGUID_SHAPE providerId \
    static _tlgCONSTEXPR char const _tlgPASTE(_tlgOpts_, name)[] = _tlgOPTS_INIT(__VA_ARGS__); \
    _tlgSTATIC_ASSERT( \
        sizeof("" providerName "_LffKffffffffffffffff") + sizeof(_tlgPASTE(_tlgOpts_, name)) - 1 \
            <= EVENTHEADER_NAME_MAX, \
        "TRACELOGGING_DEFINE_PROVIDER: provider name + options too long (limit EVENTHEADER_NAME_MAX)"); \
    _tlgCHECK_PROVIDER_NAMES("" providerName, _tlgPASTE(_tlgOpts_, name)) \
    linkage struct _tlgProvider declarator = { wrap( \
        { &(self)->state, _tlgPASTE(_tlgOpts_, name), "" providerName }, \
        TRACEPOINT_PROVIDER_STATE_INIT, \
        _tlgGUID_INIT providerId, \
        NULL \
    ) }; \
    __attribute__((destructor(101), used)) static void _tlgPASTE(_tlgProvClose_, name)(void) _tlgNOEXCEPT \
    { \
        eventheader_close_provider(&(self)->provider); \
    } \
    _tlgSTATIC_ASSERT(1, "")

/*
Provider options, followed by the sentinel: nothing, a string literal (the
reference's form), or one (_tlgOPTNAME, "name") or (_tlgOPTGUID, 11 integers)
tuple. The GUID form becomes "G" + 32 lowercase hex digits.
*/
#define _tlgOPTS_INIT(...) _tlgPASTE(_tlgOPTS_N, _tlgCNT(__VA_ARGS__))(__VA_ARGS__)
#define _tlgOPTS_N1(end) ""
#define _tlgOPTS_N2(option, end) _tlgPASTE(_tlgOPTS_, _tlgISTUPLE(option))(option)
#define _tlgOPTS_0(option) "" option
#define _tlgOPTS_1(option) _tlgOPTS_KIND(_tlgUNPAREN option)
#define _tlgOPTS_KIND(...) _tlgOPTS_KIND_(__VA_ARGS__)
#define _tlgOPTS_KIND_(kind, ...) _tlgPASTE(_tlgOPTS, kind)(__VA_ARGS__)
#define _tlgOPTS_tlgOPTNAME(groupName) "G" groupName
#define _tlgOPTS_tlgOPTGUID(a, b, c, d, e, f, g, h, i, j, k) \
    { 'G', _tlgHEX8(a), _tlgHEX4(b), _tlgHEX4(c), _tlgHEX2(d), _tlgHEX2(e), _tlgHEX2(f), _tlgHEX2(g), \
      _tlgHEX2(h), _tlgHEX2(i), _tlgHEX2(j), _tlgHEX2(k), '\0' }
#define _tlgHEXD(v) (char)((((v) & 15) < 10) ? ('0' + ((v) & 15)) : ('a' + ((v) & 15) - 10))
#define _tlgHEX2(v) _tlgHEXD((v) >> 4), _tlgHEXD(v)
#define _tlgHEX4(v) _tlgHEX2((v) >> 8), _tlgHEX2(v)
#define _tlgHEX8(v) _tlgHEX4((v) >> 16), _tlgHEX4(v)

/*
Name/description/tag. A field macro's arguments are its k required arguments
then [name [, description [, tag]]]. _tlgNDT<k>(arguments) expands to the k
required arguments, then name, hastag (0 or 1), tag. The default name is the
first argument, macro-expanded (by the macros it went through) and stringized:
TraceLoggingInt32(x) is named "x". _tlgNDTN<k> is for macros whose name is
required (k arguments before it).
*/
#define _tlgNDT1(...) _tlgPASTE(_tlgNDT1_, _tlgCNT(__VA_ARGS__))(__VA_ARGS__)
#define _tlgNDT1_1(a) a, #a, 0, 0
#define _tlgNDT1_2(a, name) a, name, 0, 0
#define _tlgNDT1_3(a, name, description) a, name, 0, 0
#define _tlgNDT1_4(a, name, description, tag) a, name, 1, tag
#define _tlgNDT2(...) _tlgPASTE(_tlgNDT2_, _tlgCNT(__VA_ARGS__))(__VA_ARGS__)
#define _tlgNDT2_2(a, b) a, b, #a, 0, 0
#define _tlgNDT2_3(a, b, name) a, b, name, 0, 0
#define _tlgNDT2_4(a, b, name, description) a, b, name, 0, 0
#define _tlgNDT2_5(a, b, name, description, tag) a, b, name, 1, tag
#define _tlgNDT3(...) _tlgPASTE(_tlgNDT3_, _tlgCNT(__VA_ARGS__))(__VA_ARGS__)
#define _tlgNDT3_3(a, b, c) a, b, c, #a, 0, 0
#define _tlgNDT3_4(a, b, c, name) a, b, c, name, 0, 0
#define _tlgNDT3_5(a, b, c, name, description) a, b, c, name, 0, 0
#define _tlgNDT3_6(a, b, c, name, description, tag) a, b, c, name, 1, tag
#define _tlgNDT4(...) _tlgPASTE(_tlgNDT4_, _tlgCNT(__VA_ARGS__))(__VA_ARGS__)
#define _tlgNDT4_4(a, b, c, d) a, b, c, d, #a, 0, 0
#define _tlgNDT4_5(a, b, c, d, name) a, b, c, d, name, 0, 0
#define _tlgNDT4_6(a, b, c, d, name, description) a, b, c, d, name, 0, 0
#define _tlgNDT4_7(a, b, c, d, name, description, tag) a, b, c, d, name, 1, tag
#define _tlgNDTN1(...) _tlgPASTE(_tlgNDTN1_, _tlgCNT(__VA_ARGS__))(__VA_ARGS__)
#define _tlgNDTN1_2 _tlgNDT1_2
#define _tlgNDTN1_3 _tlgNDT1_3
#define _tlgNDTN1_4 _tlgNDT1_4
#define _tlgNDTN2(...) _tlgPASTE(_tlgNDTN2_, _tlgCNT(__VA_ARGS__))(__VA_ARGS__)
#define _tlgNDTN2_3 _tlgNDT2_3
#define _tlgNDTN2_4 _tlgNDT2_4
#define _tlgNDTN2_5 _tlgNDT2_5

/*
Argument tuples. Each TraceLogging argument macro expands to a parenthesized tuple
whose first item is its kind:
(_tlgK_LEVEL, level) (_tlgK_KEYWORD, keyword) (_tlgK_OPCODE, opcode)
(_tlgK_EVTAG, tag) (_tlgK_IDVER, id, version) (_tlgK_NONE, ignored)
(_tlgK_CATTR, key, value) (_tlgK_CHANNEL, channel)
(_tlgK_VAL, type, value, enc, hasfmt, fmt, name, hastag, tag)          scalar copied to a local
(_tlgK_ZSTR, chartype, setfn, psz, enc, hasfmt, fmt, name, hastag, tag) nul-terminated string
(_tlgK_VARR, elemtype, elemsize, p, count, enc, hasfmt, fmt, name, hastag, tag) u16 count + elements
(_tlgK_CARR, elemtype, elemsize, p, count, enc, hasfmt, fmt, name, hastag, tag) constant count
(_tlgK_PFLD, p, size, enc, hasfmt, fmt, name, hastag, tag)            bytes at p
(_tlgK_PMETA, enc, hasfmt, fmt, name, hastag, tag)                    metadata only
(_tlgK_STRUCT, count, enc, name, hastag, tag)                         metadata only
(_tlgK_PDATA, p, size)                                                data only
(_tlgK_AUTO, value, name, hastag, tag)                                TraceLoggingValue
(_tlgK_GUID, value, name, hastag, tag)                                UUID
(_tlgK_GUIDA, p, count, fixed, name, hastag, tag)                     UUID array
(_tlgK_CONV, ltype, convfn, srcsize, value, enc, hasfmt, fmt, name, hastag, tag) converted value
(_tlgK_CONVA, ltype, convfn, srcsize, p, count, fixed, enc, hasfmt, fmt, name, hastag, tag)
(_tlgK_BUF, p, elemsize, enc, hasfmt, fmt, name, hastag, tag)         p->Length bytes at p->Buffer
(_tlgK_SID, p, name, hastag, tag)                                     SID
The builders below take the fixed items, then the field macro's arguments.
*/
#define _tlgVAL(type, enc, hasfmt, fmt, ...) _tlgAPPLY(_tlgVAL_, type, enc, hasfmt, fmt, _tlgNDT1(__VA_ARGS__))
#define _tlgVAL_(type, enc, hasfmt, fmt, value, name, hastag, tag) \
    (_tlgK_VAL, type, value, enc, hasfmt, fmt, name, hastag, tag)
#define _tlgZSTR(chartype, lenfn, enc, hasfmt, fmt, ...) \
    _tlgAPPLY(_tlgZSTR_, chartype, lenfn, enc, hasfmt, fmt, _tlgNDT1(__VA_ARGS__))
#define _tlgZSTR_(chartype, lenfn, enc, hasfmt, fmt, psz, name, hastag, tag) \
    (_tlgK_ZSTR, chartype, lenfn, psz, enc, hasfmt, fmt, name, hastag, tag)
#define _tlgCOUNTED(elemtype, elemsize, enc, hasfmt, fmt, ...) \
    _tlgAPPLY(_tlgCOUNTED_, elemtype, elemsize, enc, hasfmt, fmt, _tlgNDT2(__VA_ARGS__))
#define _tlgCOUNTED_(elemtype, elemsize, enc, hasfmt, fmt, p, count, name, hastag, tag) \
    (_tlgK_VARR, elemtype, elemsize, p, count, enc, hasfmt, fmt, name, hastag, tag)
#define _tlgVARR(elemtype, elemsize, enc, hasfmt, fmt, ...) \
    _tlgCOUNTED(elemtype, elemsize, (enc) | event_field_encoding_varray_flag, hasfmt, fmt, __VA_ARGS__)
#define _tlgCARR(elemtype, elemsize, enc, hasfmt, fmt, ...) \
    _tlgAPPLY(_tlgCARR_, elemtype, elemsize, enc, hasfmt, fmt, _tlgNDT2(__VA_ARGS__))
#define _tlgCARR_(elemtype, elemsize, enc, hasfmt, fmt, p, count, name, hastag, tag) \
    (_tlgK_CARR, elemtype, elemsize, p, count, enc, hasfmt, fmt, name, hastag, tag)
#define _tlgBINX(p, size, fmt, name, hastag, tag) \
    (_tlgK_VARR, void, 1, p, size, event_field_encoding_string_length16_char8, 1, fmt, name, hastag, tag)
#define _tlgIPV6(p, name, hastag, tag) \
    (_tlgK_PFLD, p, 16, event_field_encoding_value128, 1, event_field_format_ipv6, name, hastag, tag)
#define _tlgPFLD(p, size, enc, name, hastag, tag) (_tlgK_PFLD, p, size, enc, 0, 0, name, hastag, tag)
#define _tlgPFLDX(p, size, enc, fmt, name, hastag, tag) (_tlgK_PFLD, p, size, enc, 1, fmt, name, hastag, tag)
#define _tlgPMETA(enc, name, hastag, tag) (_tlgK_PMETA, enc, 0, 0, name, hastag, tag)
#define _tlgPMETAX(enc, fmt, name, hastag, tag) (_tlgK_PMETA, enc, 1, fmt, name, hastag, tag)
/* Pointer arrays: the elements are written as they are in memory, whatever the pointer
   type (a T* array does not convert to void const* const* in C), so the array is passed
   on as void const* (elemtype void, the element size sizeof(void*)), once _tlgPTRS has
   checked that its elements are pointers (or it is a null or void pointer). */
#define _tlgPTRARR(builder, flag, ...) _tlgAPPLY(_tlgPTRARR_, builder, flag, _tlgNDT2(__VA_ARGS__))
#define _tlgPTRARR_(builder, flag, p, count, name, hastag, tag) \
    builder(void, sizeof(void*), event_field_encoding_value_ptr | (flag), 1, event_field_format_hex_int, \
        _tlgPTRS(p), count, name, hastag, tag)
#define _tlgSTRUCT(enc, ...) _tlgAPPLY(_tlgSTRUCT_, enc, _tlgNDTN1(__VA_ARGS__))
#define _tlgSTRUCT_(enc, count, name, hastag, tag) (_tlgK_STRUCT, count, enc, name, hastag, tag)
#define _tlgGUIDF(...) (_tlgK_GUID, _tlgNDT1(__VA_ARGS__))
#define _tlgGUIDARR(fixed, ...) _tlgAPPLY(_tlgGUIDARR_, fixed, _tlgNDT2(__VA_ARGS__))
#define _tlgGUIDARR_(fixed, p, count, name, hastag, tag) (_tlgK_GUIDA, p, count, fixed, name, hastag, tag)
#define _tlgCONVF(ltype, convfn, srcsize, enc, hasfmt, fmt, ...) \
    _tlgAPPLY(_tlgCONVF_, ltype, convfn, srcsize, enc, hasfmt, fmt, _tlgNDT1(__VA_ARGS__))
#define _tlgCONVF_(ltype, convfn, srcsize, enc, hasfmt, fmt, value, name, hastag, tag) \
    (_tlgK_CONV, ltype, convfn, srcsize, value, enc, hasfmt, fmt, name, hastag, tag)
#define _tlgCONVARR(ltype, convfn, srcsize, fixed, enc, hasfmt, fmt, ...) \
    _tlgAPPLY(_tlgCONVARR_, ltype, convfn, srcsize, fixed, enc, hasfmt, fmt, _tlgNDT2(__VA_ARGS__))
#define _tlgCONVARR_(ltype, convfn, srcsize, fixed, enc, hasfmt, fmt, p, count, name, hastag, tag) \
    (_tlgK_CONVA, ltype, convfn, srcsize, p, count, fixed, enc, hasfmt, fmt, name, hastag, tag)
#define _tlgBUFT(fmt, p, type, name, hastag, tag) \
    (_tlgK_BUF, (type const*)(p), 1, event_field_encoding_string_length16_char8, 1, fmt, name, hastag, tag)
#define _tlgBUFTX(p, type, fmt, name, hastag, tag) _tlgBUFT(fmt, p, type, name, hastag, tag)
#define _tlgASTR(p, name, hastag, tag) \
    (_tlgK_BUF, p, 1, event_field_encoding_string_length16_char8, 1, event_field_format_string8, name, hastag, tag)
#define _tlgUSTR(p, name, hastag, tag) \
    (_tlgK_BUF, p, sizeof(*(p)->Buffer), \
        (sizeof(*(p)->Buffer) == 2 ? event_field_encoding_string_length16_char16 : event_field_encoding_string_length16_char32), \
        0, 0, name, hastag, tag)
#define _tlgSIDF(...) (_tlgK_SID, _tlgNDT1(__VA_ARGS__))
#define _tlgAUTO(...) (_tlgK_AUTO, _tlgNDT1(__VA_ARGS__))

/*
Dispatch: _tlgP_<PASS>(label, prevLabel, tuple) -> _tlgD_<PASS>_tlgK_<KIND>(label,
prevLabel, items...). An argument that is not a tuple (not a TraceLogging macro:
an expression, a string, a misspelled macro name) has the kind _tlgK_BAD, which
pass DATA turns into a compile-time error.
*/
#define _tlgDISPATCH(pass, i, p, arg) _tlgPASTE(_tlgDISPATCH_, _tlgISTUPLE(arg))(pass, i, p, arg)
#define _tlgDISPATCH_0(pass, i, p, arg) pass##_tlgK_BAD(i, p, ~)
#define _tlgDISPATCH_1(pass, i, p, tuple) _tlgDISPATCH2(pass, i, p, _tlgUNPAREN tuple)
#define _tlgDISPATCH2(pass, i, p, ...) _tlgDISPATCH3(pass, i, p, __VA_ARGS__)
#define _tlgDISPATCH3(pass, i, p, kind, ...) pass##kind(i, p, __VA_ARGS__)
#define _tlgP_ENUM(i, p, tuple) _tlgDISPATCH(_tlgD_ENUM, i, p, tuple)
#define _tlgP_KW(i, p, tuple)   _tlgDISPATCH(_tlgD_KW, i, p, tuple)
#define _tlgP_ATTR(i, p, tuple) _tlgDISPATCH(_tlgD_ATTR, i, p, tuple)
#define _tlgP_DECL(i, p, tuple) _tlgDISPATCH(_tlgD_DECL, i, p, tuple)
#define _tlgP_INIT(i, p, tuple) _tlgDISPATCH(_tlgD_INIT, i, p, tuple)
#define _tlgP_NVEC(i, p, tuple) _tlgDISPATCH(_tlgD_NVEC, i, p, tuple)
#define _tlgP_DATA(i, p, tuple) _tlgDISPATCH(_tlgD_DATA, i, p, tuple)
#define _tlgFOREACH(pass, n, ...) _tlgFEPASTE(_tlgFE, n)(pass, __VA_ARGS__)

/*
Pass ENUM: enumerators carrying level, opcode, id, version and event tag from
label to label; the first argument (label n) starts from the defaults at label
n + 1 and the value at label 1 is the result (last one wins).
*/
#define _tlgE_SET(i, lv, op, id, ver, tag) \
    _tlgLv##i = (lv), _tlgOp##i = (op), _tlgId##i = (id), _tlgVer##i = (ver), _tlgTag##i = (tag),
#define _tlgE_KEEP(i, p) _tlgE_SET(i, _tlgLv##p, _tlgOp##p, _tlgId##p, _tlgVer##p, _tlgTag##p)
#define _tlgD_ENUM_tlgK_LEVEL(i, p, v)      _tlgE_SET(i, (int)(v), _tlgOp##p, _tlgId##p, _tlgVer##p, _tlgTag##p)
#define _tlgD_ENUM_tlgK_OPCODE(i, p, v)     _tlgE_SET(i, _tlgLv##p, (int)(v), _tlgId##p, _tlgVer##p, _tlgTag##p)
#define _tlgD_ENUM_tlgK_EVTAG(i, p, v)      _tlgE_SET(i, _tlgLv##p, _tlgOp##p, _tlgId##p, _tlgVer##p, (int)(v))
#define _tlgD_ENUM_tlgK_IDVER(i, p, id, ver) _tlgE_SET(i, _tlgLv##p, _tlgOp##p, (int)(id), (int)(ver), _tlgTag##p)
#define _tlgD_ENUM_tlgK_KEYWORD(i, p, ...)  _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_NONE(i, p, ...)     _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_VAL(i, p, ...)      _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_ZSTR(i, p, ...)     _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_VARR(i, p, ...)     _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_CARR(i, p, ...)     _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_PFLD(i, p, ...)     _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_PMETA(i, p, ...)    _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_STRUCT(i, p, ...)   _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_PDATA(i, p, ...)    _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_AUTO(i, p, ...)     _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_CATTR(i, p, ...)    _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_CHANNEL(i, p, ...)  _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_GUID(i, p, ...)     _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_GUIDA(i, p, ...)    _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_CONV(i, p, ...)     _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_CONVA(i, p, ...)    _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_BUF(i, p, ...)      _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_SID(i, p, ...)      _tlgE_KEEP(i, p)
#define _tlgD_ENUM_tlgK_BAD(i, p, ...)      _tlgE_KEEP(i, p)

/* Pass KW: keyword bits, OR'ed. */
#define _tlgD_KW_tlgK_KEYWORD(i, p, v) | (uint64_t)(v)
#define _tlgD_KW_tlgK_LEVEL(i, p, ...)
#define _tlgD_KW_tlgK_OPCODE(i, p, ...)
#define _tlgD_KW_tlgK_EVTAG(i, p, ...)
#define _tlgD_KW_tlgK_IDVER(i, p, ...)
#define _tlgD_KW_tlgK_NONE(i, p, ...)
#define _tlgD_KW_tlgK_VAL(i, p, ...)
#define _tlgD_KW_tlgK_ZSTR(i, p, ...)
#define _tlgD_KW_tlgK_VARR(i, p, ...)
#define _tlgD_KW_tlgK_CARR(i, p, ...)
#define _tlgD_KW_tlgK_PFLD(i, p, ...)
#define _tlgD_KW_tlgK_PMETA(i, p, ...)
#define _tlgD_KW_tlgK_STRUCT(i, p, ...)
#define _tlgD_KW_tlgK_PDATA(i, p, ...)
#define _tlgD_KW_tlgK_AUTO(i, p, ...)
#define _tlgD_KW_tlgK_CATTR(i, p, ...)
#define _tlgD_KW_tlgK_CHANNEL(i, p, ...)
#define _tlgD_KW_tlgK_GUID(i, p, ...)
#define _tlgD_KW_tlgK_GUIDA(i, p, ...)
#define _tlgD_KW_tlgK_CONV(i, p, ...)
#define _tlgD_KW_tlgK_CONVA(i, p, ...)
#define _tlgD_KW_tlgK_BUF(i, p, ...)
#define _tlgD_KW_tlgK_SID(i, p, ...)
#define _tlgD_KW_tlgK_BAD(i, p, ...)

/* Pass ATTR: event attributes (";key=value"), appended to the event name. */
#define _tlgD_ATTR_tlgK_CATTR(i, p, key, value) ";" key "=" value
#define _tlgD_ATTR_tlgK_LEVEL(i, p, ...)
#define _tlgD_ATTR_tlgK_KEYWORD(i, p, ...)
#define _tlgD_ATTR_tlgK_OPCODE(i, p, ...)
#define _tlgD_ATTR_tlgK_EVTAG(i, p, ...)
#define _tlgD_ATTR_tlgK_IDVER(i, p, ...)
#define _tlgD_ATTR_tlgK_NONE(i, p, ...)
#define _tlgD_ATTR_tlgK_VAL(i, p, ...)
#define _tlgD_ATTR_tlgK_ZSTR(i, p, ...)
#define _tlgD_ATTR_tlgK_VARR(i, p, ...)
#define _tlgD_ATTR_tlgK_CARR(i, p, ...)
#define _tlgD_ATTR_tlgK_PFLD(i, p, ...)
#define _tlgD_ATTR_tlgK_PMETA(i, p, ...)
#define _tlgD_ATTR_tlgK_STRUCT(i, p, ...)
#define _tlgD_ATTR_tlgK_PDATA(i, p, ...)
#define _tlgD_ATTR_tlgK_AUTO(i, p, ...)
#define _tlgD_ATTR_tlgK_CHANNEL(i, p, ...)
#define _tlgD_ATTR_tlgK_GUID(i, p, ...)
#define _tlgD_ATTR_tlgK_GUIDA(i, p, ...)
#define _tlgD_ATTR_tlgK_CONV(i, p, ...)
#define _tlgD_ATTR_tlgK_CONVA(i, p, ...)
#define _tlgD_ATTR_tlgK_BUF(i, p, ...)
#define _tlgD_ATTR_tlgK_SID(i, p, ...)
#define _tlgD_ATTR_tlgK_BAD(i, p, ...)

/*
Passes DECL and INIT: the members of the metadata struct and their initializers.
A field descriptor is: name (nul-terminated), encoding, [format], [tag], [count].
The format byte is present when the field has a format or a tag (the encoding
then has its chain bit); the tag is present when given (the format then has its
chain bit); the count is present for constant-length arrays.
*/
#define _tlgFD_DECL(i, name, hasfmt, hastag, tag, hascount) \
    char _tlgN##i[sizeof("" name)]; \
    uint8_t _tlgE##i; \
    _tlgFD_DECLF##hasfmt##hastag(i, tag) \
    _tlgFD_DECLC##hascount(i)
#define _tlgFD_DECLF00(i, tag)
#define _tlgFD_DECLF10(i, tag) uint8_t _tlgF##i;
#define _tlgFD_DECLF01(i, tag) uint8_t _tlgF##i; _tlgFD_DECLT(i, tag)
#define _tlgFD_DECLF11(i, tag) uint8_t _tlgF##i; _tlgFD_DECLT(i, tag)
/* A field tag is 16 bits in the format (ETW's are 28): a wider one is refused at
   compile time, not truncated. The check stands beside the tag's member of the
   metadata struct (_tlgFD_DECLT: every field kind, and TraceLoggingValue in C;
   _tlgAUTO_DECL1: TraceLoggingValue in C++). */
#define _tlgFD_DECLT(i, tag) _tlgTAG_CHECK(tag) uint16_t _tlgT##i __attribute__((packed));
#define _tlgTAG_CHECK(tag) \
    _tlgSTATIC_ASSERT((unsigned long long)(tag) <= 65535u, "TraceLogging field tag must be a constant 0..65535");
#define _tlgFD_DECLC0(i)
#define _tlgFD_DECLC1(i) uint16_t _tlgC##i __attribute__((packed));
#define _tlgFD_INIT(name, enc, hasfmt, fmt, hastag, tag, hascount, count) \
    "" name, \
    (uint8_t)((enc) | _tlgFD_CHAIN##hasfmt##hastag), \
    _tlgFD_INITF##hasfmt##hastag(fmt, tag) \
    _tlgFD_INITC##hascount(count)
#define _tlgFD_CHAIN00 0
#define _tlgFD_CHAIN10 0x80
#define _tlgFD_CHAIN01 0x80
#define _tlgFD_CHAIN11 0x80
#define _tlgFD_INITF00(fmt, tag)
#define _tlgFD_INITF10(fmt, tag) (uint8_t)(fmt),
#define _tlgFD_INITF01(fmt, tag) (uint8_t)0x80, (uint16_t)(tag),
#define _tlgFD_INITF11(fmt, tag) (uint8_t)((fmt) | 0x80), (uint16_t)(tag),
#define _tlgFD_INITC0(count)
#define _tlgFD_INITC1(count) (uint16_t)(count),

#define _tlgD_DECL_tlgK_LEVEL(i, p, ...)
#define _tlgD_DECL_tlgK_KEYWORD(i, p, ...)
#define _tlgD_DECL_tlgK_OPCODE(i, p, ...)
#define _tlgD_DECL_tlgK_EVTAG(i, p, ...)
#define _tlgD_DECL_tlgK_IDVER(i, p, ...)
#define _tlgD_DECL_tlgK_NONE(i, p, ...)
#define _tlgD_DECL_tlgK_PDATA(i, p, ...)
#define _tlgD_DECL_tlgK_VAL(i, p, type, value, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, 0)
#define _tlgD_DECL_tlgK_ZSTR(i, p, chartype, lenfn, psz, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, 0)
#define _tlgD_DECL_tlgK_VARR(i, p, elemtype, elemsize, ptr, count, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, 0)
#define _tlgD_DECL_tlgK_CARR(i, p, elemtype, elemsize, ptr, count, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, 1)
#define _tlgD_DECL_tlgK_PFLD(i, p, ptr, size, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, 0)
#define _tlgD_DECL_tlgK_PMETA(i, p, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, 0)
#define _tlgD_DECL_tlgK_STRUCT(i, p, count, enc, name, hastag, tag) \
    _tlgFD_DECL(i, name, 1, hastag, tag, 0)
#define _tlgD_DECL_tlgK_AUTO(i, p, value, name, hastag, tag) \
    _tlgAUTO_DECL##hastag(i, value, name, tag)
#define _tlgD_DECL_tlgK_CATTR(i, p, ...)
#define _tlgD_DECL_tlgK_CHANNEL(i, p, ...)
#define _tlgD_DECL_tlgK_GUID(i, p, value, name, hastag, tag) \
    _tlgFD_DECL(i, name, 1, hastag, tag, 0)
#define _tlgD_DECL_tlgK_GUIDA(i, p, ptr, count, fixed, name, hastag, tag) \
    _tlgFD_DECL(i, name, 1, hastag, tag, fixed)
#define _tlgD_DECL_tlgK_CONV(i, p, ltype, convfn, srcsize, value, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, 0)
#define _tlgD_DECL_tlgK_CONVA(i, p, ltype, convfn, srcsize, ptr, count, fixed, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, fixed)
#define _tlgD_DECL_tlgK_BUF(i, p, ptr, elemsize, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_DECL(i, name, hasfmt, hastag, tag, 0)
#define _tlgD_DECL_tlgK_SID(i, p, ptr, name, hastag, tag) \
    _tlgFD_DECL(i, name, 1, hastag, tag, 0)
#define _tlgD_DECL_tlgK_BAD(i, p, ...)

#define _tlgD_INIT_tlgK_LEVEL(i, p, ...)
#define _tlgD_INIT_tlgK_KEYWORD(i, p, ...)
#define _tlgD_INIT_tlgK_OPCODE(i, p, ...)
#define _tlgD_INIT_tlgK_EVTAG(i, p, ...)
#define _tlgD_INIT_tlgK_IDVER(i, p, ...)
#define _tlgD_INIT_tlgK_NONE(i, p, ...)
#define _tlgD_INIT_tlgK_PDATA(i, p, ...)
#define _tlgD_INIT_tlgK_VAL(i, p, type, value, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, enc, hasfmt, fmt, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_ZSTR(i, p, chartype, lenfn, psz, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, enc, hasfmt, fmt, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_VARR(i, p, elemtype, elemsize, ptr, count, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, enc, hasfmt, fmt, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_CARR(i, p, elemtype, elemsize, ptr, count, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, (enc) | event_field_encoding_carray_flag, hasfmt, fmt, hastag, tag, 1, count)
#define _tlgD_INIT_tlgK_PFLD(i, p, ptr, size, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, enc, hasfmt, fmt, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_PMETA(i, p, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, enc, hasfmt, fmt, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_STRUCT(i, p, count, enc, name, hastag, tag) \
    _tlgFD_INIT(name, enc, 1, count, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_AUTO(i, p, value, name, hastag, tag) \
    _tlgAUTO_INIT##hastag(value, name, tag)
#define _tlgD_INIT_tlgK_CATTR(i, p, ...)
#define _tlgD_INIT_tlgK_CHANNEL(i, p, ...)
#define _tlgD_INIT_tlgK_GUID(i, p, value, name, hastag, tag) \
    _tlgFD_INIT(name, event_field_encoding_value128, 1, event_field_format_uuid, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_GUIDA(i, p, ptr, count, fixed, name, hastag, tag) \
    _tlgFD_INIT(name, event_field_encoding_value128 | _tlgARRFLAG##fixed, 1, event_field_format_uuid, \
        hastag, tag, fixed, count)
#define _tlgD_INIT_tlgK_CONV(i, p, ltype, convfn, srcsize, value, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, enc, hasfmt, fmt, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_CONVA(i, p, ltype, convfn, srcsize, ptr, count, fixed, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, (enc) | _tlgARRFLAG##fixed, hasfmt, fmt, hastag, tag, fixed, count)
#define _tlgD_INIT_tlgK_BUF(i, p, ptr, elemsize, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgFD_INIT(name, enc, hasfmt, fmt, hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_SID(i, p, ptr, name, hastag, tag) \
    _tlgFD_INIT(name, event_field_encoding_string_length16_char8, 1, event_field_format_hex_bytes, \
        hastag, tag, 0, 0)
#define _tlgD_INIT_tlgK_BAD(i, p, ...)
#define _tlgARRFLAG0 event_field_encoding_varray_flag
#define _tlgARRFLAG1 event_field_encoding_carray_flag

/* Pass NVEC: number of payload iovecs of each argument. */
#define _tlgD_NVEC_tlgK_LEVEL(i, p, ...)
#define _tlgD_NVEC_tlgK_KEYWORD(i, p, ...)
#define _tlgD_NVEC_tlgK_OPCODE(i, p, ...)
#define _tlgD_NVEC_tlgK_EVTAG(i, p, ...)
#define _tlgD_NVEC_tlgK_IDVER(i, p, ...)
#define _tlgD_NVEC_tlgK_NONE(i, p, ...)
#define _tlgD_NVEC_tlgK_PMETA(i, p, ...)
#define _tlgD_NVEC_tlgK_STRUCT(i, p, ...)
#define _tlgD_NVEC_tlgK_VAL(i, p, ...) + 1
#define _tlgD_NVEC_tlgK_ZSTR(i, p, ...) + 1
#define _tlgD_NVEC_tlgK_VARR(i, p, ...) + 2
#define _tlgD_NVEC_tlgK_CARR(i, p, ...) + 1
#define _tlgD_NVEC_tlgK_PFLD(i, p, ...) + 1
#define _tlgD_NVEC_tlgK_PDATA(i, p, ...) + 1
#define _tlgD_NVEC_tlgK_AUTO(i, p, ...) + 1
#define _tlgD_NVEC_tlgK_CATTR(i, p, ...)
#define _tlgD_NVEC_tlgK_CHANNEL(i, p, ...)
#define _tlgD_NVEC_tlgK_GUID(i, p, ...) + 1
#define _tlgD_NVEC_tlgK_GUIDA(i, p, ptr, count, fixed, ...) _tlgNVEC_ARR##fixed
#define _tlgD_NVEC_tlgK_CONV(i, p, ...) + 1
#define _tlgD_NVEC_tlgK_CONVA(i, p, ltype, convfn, srcsize, ptr, count, fixed, ...) _tlgNVEC_ARR##fixed
#define _tlgD_NVEC_tlgK_BUF(i, p, ...) + 2
#define _tlgD_NVEC_tlgK_SID(i, p, ...) + 2
#define _tlgD_NVEC_tlgK_BAD(i, p, ...)
#define _tlgNVEC_ARR0 + 2
#define _tlgNVEC_ARR1 + 1

/* Pass DATA: statements run only when the event is enabled; they evaluate the
   values (each once) and point the payload iovecs at them. Also holds the
   compile-time checks of the arguments. */
#define _tlgD_DATA_tlgK_LEVEL(i, p, v)
#define _tlgD_DATA_tlgK_KEYWORD(i, p, v)
#define _tlgD_DATA_tlgK_OPCODE(i, p, v)
#define _tlgD_DATA_tlgK_EVTAG(i, p, v)
#define _tlgD_DATA_tlgK_IDVER(i, p, id, ver)
#define _tlgD_DATA_tlgK_NONE(i, p, ...)
#define _tlgD_DATA_tlgK_PMETA(i, p, ...)
#define _tlgD_DATA_tlgK_STRUCT(i, p, count, enc, name, hastag, tag) \
    _tlgSTATIC_ASSERT((count) >= 1 && (count) <= 127, \
        "TraceLoggingStruct/TraceLoggingPackedStruct: fieldCount must be a constant 1..127");
#define _tlgD_DATA_tlgK_VAL(i, p, type, value, enc, hasfmt, fmt, name, hastag, tag) \
    type const _tlgV##i = _tlgCAST(type, value); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], &_tlgV##i, sizeof(_tlgV##i));
#define _tlgD_DATA_tlgK_ZSTR(i, p, chartype, lenfn, psz, enc, hasfmt, fmt, name, hastag, tag) \
    lenfn(&_tlgVecs[_tlgIdx++], (psz));
#define _tlgD_DATA_tlgK_VARR(i, p, elemtype, elemsize, ptr, count, enc, hasfmt, fmt, name, hastag, tag) \
    elemtype const* const _tlgV##i = (ptr); \
    uint16_t const _tlgC##i = _tlgCount16((size_t)(count), &_tlgOversize); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], &_tlgC##i, sizeof(uint16_t)); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], _tlgV##i, (size_t)_tlgC##i * (elemsize));
#define _tlgD_DATA_tlgK_CARR(i, p, elemtype, elemsize, ptr, count, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgSTATIC_ASSERT((count) >= 1 && (count) <= 65535, \
        "TraceLogging*FixedArray: count must be a constant 1..65535"); \
    elemtype const* const _tlgV##i = (ptr); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], _tlgV##i, (size_t)(count) * (elemsize));
#define _tlgD_DATA_tlgK_PFLD(i, p, ptr, size, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], (ptr), (size));
#define _tlgD_DATA_tlgK_PDATA(i, p, ptr, size) \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], (ptr), (size));
#define _tlgD_DATA_tlgK_AUTO(i, p, value, name, hastag, tag) \
    union _tlgAutoStore _tlgV##i; \
    _tlgAUTO_DATA(&_tlgVecs[_tlgIdx++], &_tlgV##i, value);
#define _tlgD_DATA_tlgK_CATTR(i, p, key, value) _tlgCHECK_ATTR("" key, "" value)
#define _tlgD_DATA_tlgK_CHANNEL(i, p, channel) \
    _tlgSTATIC_ASSERT((channel) >= 0 && (channel) <= 255, "TraceLoggingChannel must be a constant 0..255");
#define _tlgD_DATA_tlgK_GUID(i, p, value, name, hastag, tag) \
    uint8_t _tlgV##i[16]; \
    _tlgGUID_DATA(&_tlgVecs[_tlgIdx++], _tlgV##i, value);
#define _tlgD_DATA_tlgK_GUIDA(i, p, ptr, count, fixed, name, hastag, tag) \
    _tlgARR_COUNT##fixed(i, count) \
    _tlgVLA_BEGIN uint8_t _tlgV##i[_tlgIS_GUIDPTR(ptr) ? _tlgARR_N##fixed(i, count) : 1][16]; _tlgVLA_END \
    _tlgGUIDS_DATA(&_tlgVecs[_tlgIdx++], &_tlgV##i[0][0], ptr, _tlgARR_N##fixed(i, count));
#define _tlgD_DATA_tlgK_CONV(i, p, ltype, convfn, srcsize, value, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgSTATIC_ASSERT(sizeof(value) == (srcsize), "TraceLogging: the value has the wrong size for this field"); \
    ltype _tlgV##i; \
    convfn(&_tlgV##i, _tlgADDR(value)); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], &_tlgV##i, sizeof(_tlgV##i));
#define _tlgD_DATA_tlgK_CONVA(i, p, ltype, convfn, srcsize, ptr, count, fixed, enc, hasfmt, fmt, name, hastag, tag) \
    _tlgSTATIC_ASSERT(sizeof(*(ptr)) == (srcsize), "TraceLogging: the array has the wrong element type for this field"); \
    _tlgARR_COUNT##fixed(i, count) \
    _tlgVLA_BEGIN ltype _tlgV##i[_tlgARR_N##fixed(i, count) ? _tlgARR_N##fixed(i, count) : 1]; _tlgVLA_END \
    _tlgConvArray(_tlgV##i, sizeof(ltype), convfn, (ptr), (srcsize), _tlgARR_N##fixed(i, count)); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], _tlgV##i, (size_t)_tlgARR_N##fixed(i, count) * sizeof(ltype));
#define _tlgD_DATA_tlgK_BUF(i, p, ptr, elemsize, enc, hasfmt, fmt, name, hastag, tag) \
    __typeof__(ptr) const _tlgB##i = (ptr); \
    uint16_t const _tlgC##i = _tlgCount16((size_t)(_tlgB##i->Length / (elemsize)), &_tlgOversize); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], &_tlgC##i, sizeof(uint16_t)); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], _tlgB##i->Buffer, (size_t)_tlgC##i * (elemsize));
#define _tlgD_DATA_tlgK_SID(i, p, ptr, name, hastag, tag) \
    uint8_t const* const _tlgB##i = _tlgBYTES(ptr); \
    uint16_t const _tlgC##i = (uint16_t)(8u + 4u * _tlgB##i[1]); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], &_tlgC##i, sizeof(uint16_t)); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], _tlgB##i, _tlgC##i);
#define _tlgD_DATA_tlgK_BAD(i, p, ...) \
    _tlgSTATIC_ASSERT(0, "TraceLoggingWrite: an argument is not a TraceLogging macro " \
        "(options and fields are TraceLoggingLevel(...), TraceLoggingInt32(...), ...)");
/* Element count of a converted array: a constant (fixed) or evaluated once (variable,
   written to the payload first). */
#define _tlgARR_COUNT1(i, count) \
    _tlgSTATIC_ASSERT((count) >= 1 && (count) <= 65535, "TraceLogging*FixedArray: count must be a constant 1..65535");
#define _tlgARR_COUNT0(i, count) \
    uint16_t const _tlgC##i = _tlgCount16((size_t)(count), &_tlgOversize); \
    _tlgSetVec(&_tlgVecs[_tlgIdx++], &_tlgC##i, sizeof(uint16_t));
#define _tlgARR_N1(i, count) (count)
#define _tlgARR_N0(i, count) _tlgC##i

/*
The event options of a write's arguments as enumerators: _tlgLv1 (level),
_tlgOp1 (opcode), _tlgId1 and _tlgVer1 (TraceLoggingIdVersion), _tlgTag1
(event tag), each the last one given or its default; and the keyword, all
TraceLoggingKeyword arguments OR'ed.
*/
#define _tlgOPTIONS_ENUM(n, n1, ...) \
    enum { \
        _tlgLv##n1 = event_level_verbose, _tlgOp##n1 = 0, _tlgId##n1 = 0, _tlgVer##n1 = 0, _tlgTag##n1 = 0, \
        _tlgFOREACH(_tlgP_ENUM, n, __VA_ARGS__) \
        _tlgEnumEnd \
    };
#define _tlgOPTIONS_KEYWORD(n, ...) ((uint64_t)0 _tlgFOREACH(_tlgP_KW, n, __VA_ARGS__))

/*
The event name of the metadata: a string literal, followed by the custom
attributes (TraceLoggingCustomAttribute: string literals); or, in C++, a
parenthesized constant (a _tlgName of TraceLoggingActivity.h's
TraceLoggingFunction, which names its events after the function), without
attributes. (_tlgISTUPLE tells them apart: it is 1 for a parenthesized
name.)
*/
#define _tlgEVNAME_DECL(eventName, attrs) _tlgPASTE(_tlgEVNAME_DECL, _tlgISTUPLE(eventName))(eventName, attrs)
#define _tlgEVNAME_INIT(eventName, attrs) _tlgPASTE(_tlgEVNAME_INIT, _tlgISTUPLE(eventName))(eventName, attrs)
#define _tlgEVNAME_DECL0(eventName, attrs) char _tlgEvName[sizeof("" eventName attrs)];
#define _tlgEVNAME_INIT0(eventName, attrs) "" eventName attrs
#define _tlgEVNAME_DECL1(eventName, attrs) \
    typename ::_tlgNameType<decltype(_tlgUNPAREN eventName)>::type _tlgEvName; \
    static_assert(sizeof("" attrs) == 1, "TraceLoggingFunction: no TraceLoggingCustomAttribute");
#define _tlgEVNAME_INIT1(eventName, attrs) _tlgUNPAREN eventName
#ifdef __cplusplus
template<class T>
struct _tlgNameType {
    typedef T type;
};
template<class T>
struct _tlgNameType<T const> {
    typedef T type;
};
#endif

/*
The write itself. In one statement expression:
- an enum with the event options, checked at compile time;
- the static metadata block and call site (tracepoint state and
  eventheader_tracepoint), and the call site's entry in "_tlgSites";
- the enabled check: one relaxed load of the status word for a provider
  symbol, the handle fast path otherwise; only if enabled are the payload
  iovecs filled and eventheader_write called (at one place, below).
*/
/* The public macros append the sentinel: "args..." below is the write's
   arguments (options and fields) followed by "~". */
#define _tlgWRITE_PLAIN(hProvider, eventName, ...) _tlgWRITE(hProvider, eventName, NULL, NULL, __VA_ARGS__)
#define _tlgWRITE_EX(hProvider, eventName, filter, flags, pActivityId, pRelatedActivityId, ...) \
    ((void)sizeof(filter), (void)sizeof(flags), \
     _tlgWRITE(hProvider, eventName, pActivityId, pRelatedActivityId, __VA_ARGS__))
#define _tlgWRITE(hProvider, eventName, pActivityId, pRelatedActivityId, ...) \
    _tlgWRITE_N(hProvider, eventName, pActivityId, pRelatedActivityId, \
        _tlgNARGS(__VA_ARGS__), _tlgNARGS1(__VA_ARGS__), __VA_ARGS__)
#define _tlgWRITE_N(hProvider, eventName, pActivityId, pRelatedActivityId, n, n1, ...) \
    _tlgWRITE_IMPL(hProvider, eventName, pActivityId, pRelatedActivityId, n, n1, __VA_ARGS__)
#define _tlgWRITE_IMPL(hProvider, eventName, pActivityId, pRelatedActivityId, n, n1, ...) __extension__ ({ \
    _tlgOPTIONS_ENUM(n, n1, __VA_ARGS__) \
    _tlgSTATIC_ASSERT(_tlgLv1 >= 1 && _tlgLv1 <= 255, "TraceLoggingLevel must be a constant 1..255"); \
    _tlgSTATIC_ASSERT(_tlgOp1 >= 0 && _tlgOp1 <= 255, "TraceLoggingOpcode must be a constant 0..255"); \
    _tlgSTATIC_ASSERT(_tlgId1 >= 0 && _tlgId1 <= 65535, "TraceLoggingIdVersion id must be a constant 0..65535"); \
    _tlgSTATIC_ASSERT(_tlgVer1 >= 0 && _tlgVer1 <= 255, "TraceLoggingIdVersion version must be a constant 0..255"); \
    _tlgSTATIC_ASSERT(_tlgTag1 >= 0 && _tlgTag1 <= 65535, "TraceLoggingEventTag must be a constant 0..65535"); \
    struct _tlgMetaT { \
        eventheader_extension _tlgExt; \
        _tlgEVNAME_DECL(eventName, _tlgFOREACH(_tlgP_ATTR, n, __VA_ARGS__)) \
        _tlgFOREACH(_tlgP_DECL, n, __VA_ARGS__) \
        char _tlgEnd[1]; /* where the metadata ends (not part of it; not a flexible \
                            array member, which ISO C++ does not have) */ \
    }; \
    static struct _tlgMetaT const _tlgMeta = { \
        { (uint16_t)(offsetof(struct _tlgMetaT, _tlgEnd) - sizeof(eventheader_extension)), \
          (uint16_t)eventheader_extension_kind_metadata }, \
        _tlgEVNAME_INIT(eventName, _tlgFOREACH(_tlgP_ATTR, n, __VA_ARGS__)), \
        _tlgFOREACH(_tlgP_INIT, n, __VA_ARGS__) \
        "" \
    }; \
    _tlgSITE_DECL( \
        TRACEPOINT_STATE_INIT, \
        { &_tlgSITE->state, \
          &_tlgMeta._tlgExt, \
          { (uint8_t)(eventheader_flag_default | eventheader_flag_extension), (uint8_t)_tlgVer1, \
            (uint16_t)_tlgId1, (uint16_t)_tlgTag1, (uint8_t)_tlgOp1, (uint8_t)_tlgLv1 }, \
          _tlgOPTIONS_KEYWORD(n, __VA_ARGS__) }, \
        _tlgSITE_PROVIDER(hProvider, 1), \
        NULL); \
    _tlgSITE_ENTRY(); \
    struct _tlgCallSite* const _tlgSlot = _tlgIS_SYMBOL(hProvider) \
        ? _tlgSymbolSlot(_tlgSITE) \
        : _tlgHandleSlot(_tlgSITE, (hProvider)); \
    int _tlgResult = 0; \
    if (__builtin_expect(_tlgSlot != NULL, 0)) { \
        struct iovec _tlgVecs[EVENTHEADER_PREFIX_DATAVEC_COUNT _tlgFOREACH(_tlgP_NVEC, n, __VA_ARGS__)]; \
        _tlgSTATIC_ASSERT(sizeof(_tlgVecs) / sizeof(_tlgVecs[0]) <= _tlgVECS_MAX, \
            "TraceLoggingWrite: too many fields (at most 1024 vectors in one write)"); \
        uint32_t _tlgIdx = EVENTHEADER_PREFIX_DATAVEC_COUNT; \
        _tlgBOOL _tlgOversize = 0; /* a run-time count over 65535: refused */ \
        _tlgFOREACH(_tlgP_DATA, n, __VA_ARGS__) \
        uint8_t _tlgActIds[2][16]; \
        void const* const _tlgAct = _tlgACTIVITY_ID(pActivityId, _tlgActIds[0]); \
        void const* const _tlgRel = _tlgACTIVITY_ID(pRelatedActivityId, _tlgActIds[1]); \
        /* The write, into the library's write path (for TraceLoggingWrite, whose \
           ids are constant NULLs, only the first call remains). */ \
        _tlgResult = _tlgOversize ? ERANGE \
            : _tlgAct == NULL \
            ? (_tlgRel == NULL ? _eventheader_tlg_write(&_tlgSlot->event, _tlgVecs, _tlgIdx) : EINVAL) \
            : _eventheader_tlg_write_activity(&_tlgSlot->event, _tlgVecs, _tlgIdx, _tlgAct, _tlgRel); \
    } \
    _tlgResult; \
    })

/*
TraceLoggingProviderEnabled. With a provider symbol and a constant level 1..255
and keyword, a static tracepoint with that level and keyword, registered with
the provider's events (an inert call site, metadata NULL), answers with one
load; otherwise _tlgProviderEnabledRt answers at run time. Whether level and
keyword are constants is decided once, in constant initializers (where
__builtin_constant_p answers at compile time, also inside templates), so that
the registration and the check agree.
*/
#define _tlgCONSTVAL(x, otherwise) (__builtin_constant_p(x) ? (x) : (otherwise))
#define _tlgQCONST(hProvider, eventLevel, eventKeyword) \
    (_tlgIS_SYMBOL(hProvider) && __builtin_constant_p(eventLevel) && __builtin_constant_p(eventKeyword) && \
     _tlgCONSTVAL(eventLevel, 0) >= 1 && _tlgCONSTVAL(eventLevel, 0) <= 255)
#define _tlgPROVIDER_ENABLED(hProvider, eventLevel, eventKeyword) __extension__ ({ \
    static _tlgBOOL const _tlgConst = _tlgQCONST(hProvider, eventLevel, eventKeyword); \
    _tlgSITE_DECL( \
        TRACEPOINT_STATE_INIT, \
        { &_tlgSITE->state, \
          NULL, \
          { (uint8_t)eventheader_flag_default, 0, 0, 0, 0, (uint8_t)_tlgCONSTVAL(eventLevel, 1) }, \
          (uint64_t)_tlgCONSTVAL(eventKeyword, 0) }, \
        _tlgSITE_PROVIDER(hProvider, _tlgQCONST(hProvider, eventLevel, eventKeyword)), \
        NULL); \
    _tlgSITE_ENTRY(); \
    _tlgConst \
        ? TRACEPOINT_ENABLED(&_tlgSITE->state) != 0 \
        : _tlgProviderEnabledRt((hProvider), (unsigned)(eventLevel), (uint64_t)(eventKeyword)) != 0; \
    })

/* Provider name checks. C++: at compile time. C: the library checks at registration. */
#ifdef __cplusplus
constexpr bool _tlgProviderNameOk(char const* s) _tlgNOEXCEPT
{
    return *s == 0 ? true : (*s != ' ' && *s != ':' && _tlgProviderNameOk(s + 1));
}
constexpr bool _tlgGroupNameOk(char const* s) _tlgNOEXCEPT
{
    return *s == 0 ? true
        : (((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')) && _tlgGroupNameOk(s + 1));
}
constexpr bool _tlgOptionsOk(char const* s) _tlgNOEXCEPT
{
    return *s == 0 ? true : (*s == 'G' && _tlgGroupNameOk(s + 1));
}
#define _tlgCHECK_PROVIDER_NAMES(providerName, options) \
    static_assert(sizeof(providerName) > 1 && _tlgProviderNameOk(providerName), \
        "TRACELOGGING_DEFINE_PROVIDER: provider name must be non-empty without ' ' or ':'"); \
    static_assert(_tlgOptionsOk(options), \
        "TraceLoggingOptionGroupName: group name must be [a-z0-9] characters");
#else
#define _tlgCHECK_PROVIDER_NAMES(providerName, options) \
    _Static_assert(sizeof(providerName) > 1, "TRACELOGGING_DEFINE_PROVIDER: provider name must be non-empty");
#endif

/* Helpers for the payload. */
static inline void _tlgSetVec(struct iovec* vec, void const* data, size_t size) _tlgNOEXCEPT
{
#ifdef __cplusplus
    vec->iov_base = const_cast<void*>(data);
#else
    vec->iov_base = (void*)data;
#endif
    vec->iov_len = size;
}

/*
The u16 count of a counted field (binary, counted string, variable-length
array) from its run-time value. A count over 65535 cannot be written (the
format's counts are 16-bit): *oversize is set, the write refuses the event
with ERANGE, and the field's data is empty so that nothing is read.
*/
static inline uint16_t _tlgCount16(size_t count, _tlgBOOL* oversize) _tlgNOEXCEPT
{
    if (count > 65535u) {
        *oversize = 1;
        return 0;
    }
    return (uint16_t)count;
}

static inline void const* _tlgZeros(void) _tlgNOEXCEPT
{
    static uint32_t const zeros = 0;
    return &zeros;
}

static inline size_t _tlgStrLen16(char16_t const* s) _tlgNOEXCEPT
{
    size_t n = 0;
    while (s[n] != 0) n += 1;
    return n;
}

static inline size_t _tlgStrLen32(char32_t const* s) _tlgNOEXCEPT
{
    size_t n = 0;
    while (s[n] != 0) n += 1;
    return n;
}

/* Point an iovec at a nul-terminated string including its terminator; NULL is "". */
#define _tlgZSTR_SETTER(fn, chartype, lenfn) \
    static inline void fn(struct iovec* vec, chartype const* psz) _tlgNOEXCEPT \
    { \
        if (psz) { \
            _tlgSetVec(vec, psz, (lenfn(psz) + 1) * sizeof(chartype)); \
        } else { \
            _tlgSetVec(vec, _tlgZeros(), sizeof(chartype)); \
        } \
    }
_tlgZSTR_SETTER(_tlgZStr8, char, strlen)
_tlgZSTR_SETTER(_tlgZStr16, char16_t, _tlgStrLen16)
_tlgZSTR_SETTER(_tlgZStr32, char32_t, _tlgStrLen32)
_tlgZSTR_SETTER(_tlgZStrW, wchar_t, wcslen)

/*
Windows value conversions. FILETIME: two 32-bit halves (low first), 100 ns
intervals since 1601-01-01 UTC -> seconds since 1970 (floor). SYSTEMTIME: eight
16-bit fields (year, month, day of week, day, hour, minute, second,
milliseconds) -> seconds since 1970, the date and time read as UTC (days from
the proleptic Gregorian calendar). GUID: {u32, u16, u16, u8[8]} in host order
-> the 16 bytes of RFC 4122 (fields big-endian).
*/
static inline void _tlgFileTimeToTime(void* dst, void const* src) _tlgNOEXCEPT
{
    uint32_t half[2];
    uint64_t ticks;
    int64_t seconds;
    memcpy(half, src, sizeof(half));
    ticks = ((uint64_t)half[1] << 32) | half[0];
    seconds = (int64_t)(ticks / 10000000u) - INT64_C(11644473600);
    memcpy(dst, &seconds, sizeof(seconds));
}

static inline void _tlgSystemTimeToTime(void* dst, void const* src) _tlgNOEXCEPT
{
    uint16_t f[8];
    int64_t year, month, era, yearOfEra, dayOfYear, dayOfEra, days, seconds;
    memcpy(f, src, sizeof(f));
    month = f[1];
    year = (int64_t)f[0] - (month <= 2 ? 1 : 0);
    era = (year >= 0 ? year : year - 399) / 400;
    yearOfEra = year - era * 400;
    dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + f[3] - 1;
    dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    days = era * 146097 + dayOfEra - 719468;
    seconds = days * 86400 + (int64_t)f[4] * 3600 + (int64_t)f[5] * 60 + f[6];
    memcpy(dst, &seconds, sizeof(seconds));
}

static inline void _tlgGuidToUuid(uint8_t* dst, void const* src) _tlgNOEXCEPT
{
    struct _tlgGuid g;
    memcpy(&g, src, sizeof(g));
    dst[0] = (uint8_t)(g.data1 >> 24);
    dst[1] = (uint8_t)(g.data1 >> 16);
    dst[2] = (uint8_t)(g.data1 >> 8);
    dst[3] = (uint8_t)g.data1;
    dst[4] = (uint8_t)(g.data2 >> 8);
    dst[5] = (uint8_t)g.data2;
    dst[6] = (uint8_t)(g.data3 >> 8);
    dst[7] = (uint8_t)g.data3;
    memcpy(dst + 8, g.data4, sizeof(g.data4));
}

/* Converts count elements of srcsize bytes at src into elements of dstsize bytes at dst. */
static inline void _tlgConvArray(void* dst, size_t dstsize, void (*convert)(void*, void const*),
    void const* src, size_t srcsize, unsigned count) _tlgNOEXCEPT
{
    unsigned k;
    for (k = 0; k != count; k += 1) {
        convert(_tlgCAST(char*, dst) + k * dstsize, _tlgCAST(char const*, src) + k * srcsize);
    }
}

static inline uint8_t const* _tlgBytes(void const* p) _tlgNOEXCEPT
{
    return _tlgCAST(uint8_t const*, p);
}
#define _tlgBYTES(p) _tlgBytes(p)

/* A UUID field: 16 bytes as they are (a pointer), or converted from a GUID. */
static inline void _tlgGuidRaw(struct iovec* vec, uint8_t* buf, void const* p) _tlgNOEXCEPT
{
    (void)buf;
    _tlgSetVec(vec, p, 16);
}
static inline void _tlgGuidsRaw(struct iovec* vec, uint8_t* buf, void const* p, unsigned count) _tlgNOEXCEPT
{
    (void)buf;
    _tlgSetVec(vec, p, (size_t)count * 16);
}
static inline void _tlgGuidsConv(struct iovec* vec, uint8_t* buf, void const* p, unsigned count) _tlgNOEXCEPT
{
    unsigned k;
    for (k = 0; k != count; k += 1) {
        _tlgGuidToUuid(buf + k * 16, _tlgCAST(uint8_t const*, p) + k * 16);
    }
    _tlgSetVec(vec, buf, (size_t)count * 16);
}
static inline void _tlgGuidConvP(struct iovec* vec, uint8_t* buf, void const* p) _tlgNOEXCEPT
{
    _tlgGuidsConv(vec, buf, p, 1);
}

/* Activity ids: a pointer to 16 bytes (passed on), or a GUID* (converted to RFC 4122 order). */
static inline void const* _tlgActivityRaw(void const* id, uint8_t* buf) _tlgNOEXCEPT
{
    (void)buf;
    return id;
}
static inline void const* _tlgActivityConv(void const* id, uint8_t* buf) _tlgNOEXCEPT
{
    if (id == NULL) {
        return NULL;
    }
    _tlgGuidToUuid(buf, id);
    return buf;
}

#if defined(__cplusplus)
template<class T>
static inline void const* _tlgAddr(T const& value) noexcept
{
    return __builtin_addressof(value);
}
#define _tlgADDR(value) ::_tlgAddr(value)
static inline void _tlgGuidData(struct iovec* vec, uint8_t* buf, void const* p) noexcept { _tlgGuidRaw(vec, buf, p); }
/* _tlgIsGuidPtr<T>::value: T is (a reference to) a possibly const GUID pointer or GUID array. */
template<class T> struct _tlgIsGuidPtr { static constexpr bool value = false; };
template<class T> struct _tlgIsGuidPtr<T&> : _tlgIsGuidPtr<T> {};
template<class T> struct _tlgIsGuidPtr<T&&> : _tlgIsGuidPtr<T> {};
template<class T> struct _tlgIsGuidPtr<T const> : _tlgIsGuidPtr<T> {};
#ifdef GUID_DEFINED
template<> struct _tlgIsGuidPtr<GUID*> { static constexpr bool value = true; };
template<> struct _tlgIsGuidPtr<GUID const*> { static constexpr bool value = true; };
template<size_t N> struct _tlgIsGuidPtr<GUID[N]> { static constexpr bool value = true; };
template<size_t N> struct _tlgIsGuidPtr<GUID const[N]> { static constexpr bool value = true; };
static inline void _tlgGuidData(struct iovec* vec, uint8_t* buf, GUID const& g) noexcept { _tlgGuidConvP(vec, buf, &g); }
static inline void _tlgGuidData(struct iovec* vec, uint8_t* buf, GUID const* p) noexcept { _tlgGuidConvP(vec, buf, p); }
static inline void _tlgGuidData(struct iovec* vec, uint8_t* buf, GUID* p) noexcept { _tlgGuidConvP(vec, buf, p); }
#endif
#define _tlgGUID_DATA(vec, buf, value) ::_tlgGuidData(vec, buf, value)
#define _tlgIS_GUIDPTR(p) (::_tlgIsGuidPtr<decltype(p)>::value)
#define _tlgGUIDS_DATA(vec, buf, p, count) \
    (_tlgIS_GUIDPTR(p) ? _tlgGuidsConv(vec, buf, p, count) : _tlgGuidsRaw(vec, buf, p, count))
#define _tlgACTIVITY_ID(p, buf) (_tlgIS_GUIDPTR(p) ? _tlgActivityConv(p, buf) : _tlgActivityRaw(p, buf))
/* _tlgPtrs(p): a pointer array of any element type (T* const*, function pointers
   included, or a null pointer) as void const*; anything else does not match. */
template<class T>
static inline void const* _tlgPtrs(T* const* p) noexcept
{
    return p;
}
static inline void const* _tlgPtrs(decltype(nullptr)) noexcept { return nullptr; }
#define _tlgPTRS(p) ::_tlgPtrs(p)
constexpr bool _tlgAttrOk(char const* s, bool isKey) noexcept
{
    return *s == 0 ? true : (*s != ';' && !(isKey && *s == '=') && _tlgAttrOk(s + 1, isKey));
}
#define _tlgCHECK_ATTR(key, value) \
    static_assert(_tlgAttrOk(key, true) && _tlgAttrOk(value, false), \
        "TraceLoggingCustomAttribute: key and value must not contain ';' (nor the key '=')");
#else
#define _tlgADDR(value) (&(value))
/* _tlgPTRS(p): a pointer array of any element type (void*, char const*, a function
   pointer, ...), or a void pointer, as void const*; an array of anything that is not
   a pointer is refused. (__builtin_classify_type 5: a pointer.) */
#define _tlgPTRS(p) __extension__ ({ \
    _tlgSTATIC_ASSERT(__builtin_classify_type(*_tlgPTRS_ELEM(p)) == 5 && sizeof(*_tlgPTRS_ELEM(p)) == sizeof(void*), \
        "TraceLogging*PointerArray: the elements must be pointers"); \
    (void const*)(p); })
#define _tlgPTRS_ELEM(p) _Generic((p), void*: (void* const*)0, void const*: (void* const*)0, default: (p))
#ifdef GUID_DEFINED
#define _tlgGUID_DATA(vec, buf, value) \
    _Generic((value), GUID: _tlgGuidConvValue, GUID*: _tlgGuidConvP, GUID const*: _tlgGuidConvP, \
        default: _tlgGuidRaw)(vec, buf, value)
static inline void _tlgGuidConvValue(struct iovec* vec, uint8_t* buf, GUID g)
{
    _tlgGuidToUuid(buf, &g);
    _tlgSetVec(vec, buf, 16);
}
#define _tlgIS_GUIDPTR(p) _Generic((p), GUID*: 1, GUID const*: 1, default: 0)
#else
#define _tlgGUID_DATA(vec, buf, value) _tlgGuidRaw(vec, buf, value)
#define _tlgIS_GUIDPTR(p) 0
#endif
#define _tlgGUIDS_DATA(vec, buf, p, count) \
    (_tlgIS_GUIDPTR(p) ? _tlgGuidsConv(vec, buf, p, count) : _tlgGuidsRaw(vec, buf, p, count))
#ifdef GUID_DEFINED
#define _tlgACTIVITY_ID(p, buf) \
    _Generic((p), GUID*: _tlgActivityConv, GUID const*: _tlgActivityConv, default: _tlgActivityRaw)(p, buf)
#else
#define _tlgACTIVITY_ID(p, buf) _tlgActivityRaw(p, buf)
#endif
#define _tlgCHECK_ATTR(key, value)
#endif

/* Variable-length arrays (converted arrays of run-time length) are a C feature that
   g++ and clang++ support as an extension; silence the warnings some versions give. */
#if defined(__clang__)
#define _tlgVLA_BEGIN _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Wvla\"") \
    _Pragma("clang diagnostic ignored \"-Wvla-extension\"")
#define _tlgVLA_END _Pragma("clang diagnostic pop")
#else
#define _tlgVLA_BEGIN _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wvla\"")
#define _tlgVLA_END _Pragma("GCC diagnostic pop")
#endif

/*
TraceLoggingValue support. Each supported type maps to a store function that
copies a scalar into the union (or takes a string pointer) and sets one iovec,
and to an encoding and format.
*/
union _tlgAutoStore {
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    void const* ptr;
    uint8_t b16[16];
};

#define _tlgAUTO_SCALAR(fn, type, member) \
    static inline void fn(struct iovec* vec, union _tlgAutoStore* store, type value) _tlgNOEXCEPT \
    { \
        type const v = value; \
        memcpy(&store->member, &v, sizeof(v)); \
        _tlgSetVec(vec, &store->member, sizeof(v)); \
    }
#define _tlgAUTO_STRING(fn, chartype, setfn) \
    static inline void fn(struct iovec* vec, union _tlgAutoStore* store, chartype const* value) _tlgNOEXCEPT \
    { \
        (void)store; \
        setfn(vec, value); \
    }
_tlgAUTO_SCALAR(_tlgAutoBool8, uint8_t, u8)
_tlgAUTO_SCALAR(_tlgAutoChar8, char, u8)
_tlgAUTO_SCALAR(_tlgAutoI8, signed char, u8)
_tlgAUTO_SCALAR(_tlgAutoU8, unsigned char, u8)
_tlgAUTO_SCALAR(_tlgAutoI16, short, u16)
_tlgAUTO_SCALAR(_tlgAutoU16, unsigned short, u16)
_tlgAUTO_SCALAR(_tlgAutoI32, int, u32)
_tlgAUTO_SCALAR(_tlgAutoU32, unsigned int, u32)
_tlgAUTO_SCALAR(_tlgAutoILong, long, u64)
_tlgAUTO_SCALAR(_tlgAutoULong, unsigned long, u64)
_tlgAUTO_SCALAR(_tlgAutoI64, long long, u64)
_tlgAUTO_SCALAR(_tlgAutoU64, unsigned long long, u64)
_tlgAUTO_SCALAR(_tlgAutoF32, float, f32)
_tlgAUTO_SCALAR(_tlgAutoF64, double, f64)
_tlgAUTO_SCALAR(_tlgAutoPtr, void const*, ptr)
_tlgAUTO_STRING(_tlgAutoSz8, char, _tlgZStr8)
_tlgAUTO_STRING(_tlgAutoSz16, char16_t, _tlgZStr16)
_tlgAUTO_STRING(_tlgAutoSz32, char32_t, _tlgZStr32)
_tlgAUTO_STRING(_tlgAutoSzW, wchar_t, _tlgZStrW)

/* Encoding and format bytes by type (values of event_field_encoding / event_field_format). */
#if __SIZEOF_LONG__ == 8
#define _tlgENC_LONG 5
#define _tlgENC_LONG_S "\x05"
#define _tlgENC_LONG_CS "\x85"
#else
#define _tlgENC_LONG 4
#define _tlgENC_LONG_S "\x04"
#define _tlgENC_LONG_CS "\x84"
#endif
#if __SIZEOF_POINTER__ == 8
#define _tlgENC_PTR 5
#define _tlgENC_PTR_CS "\x85"
#else
#define _tlgENC_PTR 4
#define _tlgENC_PTR_CS "\x84"
#endif
#if __SIZEOF_WCHAR_T__ == 2
#define _tlgENC_WCHAR 3
#define _tlgENC_ZWCHAR 8
#define _tlgENC_WCHAR_CS "\x83"
#define _tlgENC_ZWCHAR_S "\x08"
#else
#define _tlgENC_WCHAR 4
#define _tlgENC_ZWCHAR 9
#define _tlgENC_WCHAR_CS "\x84"
#define _tlgENC_ZWCHAR_S "\x09"
#endif

#ifdef __cplusplus

/* C++: overloads on the exact type pick the info type and the store function. */
template<unsigned Enc, unsigned Fmt>
struct _tlgAutoInfo
{
    static constexpr unsigned encoding = Enc;
    static constexpr unsigned format = Fmt;
};
_tlgAutoInfo<2, 7> _tlgAutoPick(bool) _tlgNOEXCEPT;
_tlgAutoInfo<2, 10> _tlgAutoPick(char) _tlgNOEXCEPT;
_tlgAutoInfo<3, 11> _tlgAutoPick(char16_t) _tlgNOEXCEPT;
_tlgAutoInfo<4, 11> _tlgAutoPick(char32_t) _tlgNOEXCEPT;
_tlgAutoInfo<_tlgENC_WCHAR, 11> _tlgAutoPick(wchar_t) _tlgNOEXCEPT;
_tlgAutoInfo<2, 2> _tlgAutoPick(signed char) _tlgNOEXCEPT;
_tlgAutoInfo<2, 0> _tlgAutoPick(unsigned char) _tlgNOEXCEPT;
_tlgAutoInfo<3, 2> _tlgAutoPick(short) _tlgNOEXCEPT;
_tlgAutoInfo<3, 0> _tlgAutoPick(unsigned short) _tlgNOEXCEPT;
_tlgAutoInfo<4, 2> _tlgAutoPick(int) _tlgNOEXCEPT;
_tlgAutoInfo<4, 0> _tlgAutoPick(unsigned int) _tlgNOEXCEPT;
_tlgAutoInfo<_tlgENC_LONG, 2> _tlgAutoPick(long) _tlgNOEXCEPT;
_tlgAutoInfo<_tlgENC_LONG, 0> _tlgAutoPick(unsigned long) _tlgNOEXCEPT;
_tlgAutoInfo<5, 2> _tlgAutoPick(long long) _tlgNOEXCEPT;
_tlgAutoInfo<5, 0> _tlgAutoPick(unsigned long long) _tlgNOEXCEPT;
_tlgAutoInfo<4, 8> _tlgAutoPick(float) _tlgNOEXCEPT;
_tlgAutoInfo<5, 8> _tlgAutoPick(double) _tlgNOEXCEPT;
_tlgAutoInfo<_tlgENC_PTR, 3> _tlgAutoPick(void const*) _tlgNOEXCEPT;
_tlgAutoInfo<7, 10> _tlgAutoPick(char const*) _tlgNOEXCEPT;
_tlgAutoInfo<8, 0> _tlgAutoPick(char16_t const*) _tlgNOEXCEPT;
_tlgAutoInfo<9, 0> _tlgAutoPick(char32_t const*) _tlgNOEXCEPT;
_tlgAutoInfo<_tlgENC_ZWCHAR, 0> _tlgAutoPick(wchar_t const*) _tlgNOEXCEPT;
#ifdef GUID_DEFINED
_tlgAutoInfo<6, 15> _tlgAutoPick(GUID const&) _tlgNOEXCEPT;
#endif
#ifdef _FILETIME_
_tlgAutoInfo<5, 6> _tlgAutoPick(FILETIME const&) _tlgNOEXCEPT;
#endif
#ifdef _SYSTEMTIME_
_tlgAutoInfo<5, 6> _tlgAutoPick(SYSTEMTIME const&) _tlgNOEXCEPT;
#endif
#ifdef SID_DEFINED
/* Windows logs a SID* as a SID; here use TraceLoggingSid (a SID* must not become a Pointer). */
void _tlgAutoPick(SID const*) _tlgNOEXCEPT = delete;
#endif

static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, bool x) noexcept { _tlgAutoBool8(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, char x) noexcept { _tlgAutoChar8(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, char16_t x) noexcept { _tlgAutoU16(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, char32_t x) noexcept { _tlgAutoU32(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, wchar_t x) noexcept
{
    wchar_t const w = x;
    memcpy(s, &w, sizeof(w));
    _tlgSetVec(v, s, sizeof(w));
}
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, signed char x) noexcept { _tlgAutoI8(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, unsigned char x) noexcept { _tlgAutoU8(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, short x) noexcept { _tlgAutoI16(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, unsigned short x) noexcept { _tlgAutoU16(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, int x) noexcept { _tlgAutoI32(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, unsigned int x) noexcept { _tlgAutoU32(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, long x) noexcept { _tlgAutoILong(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, unsigned long x) noexcept { _tlgAutoULong(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, long long x) noexcept { _tlgAutoI64(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, unsigned long long x) noexcept { _tlgAutoU64(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, float x) noexcept { _tlgAutoF32(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, double x) noexcept { _tlgAutoF64(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, void const* x) noexcept { _tlgAutoPtr(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, char const* x) noexcept { _tlgAutoSz8(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, char16_t const* x) noexcept { _tlgAutoSz16(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, char32_t const* x) noexcept { _tlgAutoSz32(v, s, x); }
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, wchar_t const* x) noexcept { _tlgAutoSzW(v, s, x); }
#ifdef GUID_DEFINED
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, GUID const& x) noexcept
{
    _tlgGuidToUuid(s->b16, &x);
    _tlgSetVec(v, s->b16, 16);
}
#endif
#ifdef _FILETIME_
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, FILETIME const& x) noexcept
{
    _tlgFileTimeToTime(&s->u64, &x);
    _tlgSetVec(v, &s->u64, 8);
}
#endif
#ifdef _SYSTEMTIME_
static inline void _tlgAutoData(struct iovec* v, union _tlgAutoStore* s, SYSTEMTIME const& x) noexcept
{
    _tlgSystemTimeToTime(&s->u64, &x);
    _tlgSetVec(v, &s->u64, 8);
}
#endif

/* Encoding (+ format) bytes of a TraceLoggingValue field descriptor. */
template<bool HasFormat>
struct _tlgAutoEF;
template<>
struct _tlgAutoEF<false>
{
    uint8_t encoding;
    static constexpr _tlgAutoEF make(unsigned enc, unsigned) noexcept
    {
        return _tlgAutoEF{ static_cast<uint8_t>(enc) };
    }
};
template<>
struct _tlgAutoEF<true>
{
    uint8_t encoding;
    uint8_t format;
    static constexpr _tlgAutoEF make(unsigned enc, unsigned fmt) noexcept
    {
        return _tlgAutoEF{ static_cast<uint8_t>(enc | 0x80u), static_cast<uint8_t>(fmt) };
    }
};
struct _tlgAutoEFT
{
    uint8_t encoding;
    uint8_t format;
    uint16_t tag __attribute__((packed));
    static constexpr _tlgAutoEFT make(unsigned enc, unsigned fmt, unsigned tag) noexcept
    {
        return _tlgAutoEFT{ static_cast<uint8_t>(enc | 0x80u), static_cast<uint8_t>(fmt | 0x80u),
            static_cast<uint16_t>(tag) };
    }
};

#define _tlgAUTO_INFO(value) decltype(::_tlgAutoPick(value))
#define _tlgAUTO_DECL0(i, value, name, tag) \
    char _tlgN##i[sizeof("" name)]; \
    _tlgAutoEF<(_tlgAUTO_INFO(value)::format != 0)> _tlgE##i;
#define _tlgAUTO_INIT0(value, name, tag) \
    "" name, \
    _tlgAutoEF<(_tlgAUTO_INFO(value)::format != 0)>::make( \
        _tlgAUTO_INFO(value)::encoding, _tlgAUTO_INFO(value)::format),
#define _tlgAUTO_DECL1(i, value, name, tag) \
    char _tlgN##i[sizeof("" name)]; \
    _tlgTAG_CHECK(tag) \
    _tlgAutoEFT _tlgE##i;
#define _tlgAUTO_INIT1(value, name, tag) \
    "" name, \
    _tlgAutoEFT::make(_tlgAUTO_INFO(value)::encoding, _tlgAUTO_INFO(value)::format, (tag)),
#define _tlgAUTO_DATA(vec, store, value) ::_tlgAutoData(vec, store, (value))

#else /* C */

/*
C: _Generic on the value's type. Without a tag the whole descriptor (name,
encoding, format) is one string literal selected by type; with a tag the
encoding and format are selected as numbers. wchar_t strings are matched by an
inner _Generic in the outer one's default: wchar_t is the type of char32_t
(unsigned int) on some architectures (aarch64, arm) and of neither on others
(int on x86_64, long on i386), and one _Generic may not name two compatible
types. Where they are the same, char32_t's association takes them (the same
encoding, 32-bit characters).
*/
#ifdef GUID_DEFINED
#define _tlgAUTO_GEN_GUID(on_guid) GUID: on_guid,
static inline void _tlgAutoGuid(struct iovec* v, union _tlgAutoStore* s, GUID x)
{
    _tlgGuidToUuid(s->b16, &x);
    _tlgSetVec(v, s->b16, 16);
}
#else
#define _tlgAUTO_GEN_GUID(on_guid)
#endif
#ifdef _FILETIME_
#define _tlgAUTO_GEN_FT(on_time) FILETIME: on_time,
static inline void _tlgAutoFileTime(struct iovec* v, union _tlgAutoStore* s, FILETIME x)
{
    _tlgFileTimeToTime(&s->u64, &x);
    _tlgSetVec(v, &s->u64, 8);
}
#else
#define _tlgAUTO_GEN_FT(on_time)
#endif
#ifdef _SYSTEMTIME_
#define _tlgAUTO_GEN_ST(on_time) SYSTEMTIME: on_time,
static inline void _tlgAutoSystemTime(struct iovec* v, union _tlgAutoStore* s, SYSTEMTIME x)
{
    _tlgSystemTimeToTime(&s->u64, &x);
    _tlgSetVec(v, &s->u64, 8);
}
#else
#define _tlgAUTO_GEN_ST(on_time)
#endif
#define _tlgAUTO_GENERIC(value, b8, c8, i8, u8, i16, u16, i32, u32, il, ul, i64, u64, f32, f64, \
                         sz8, sz16, sz32, szw, ptr, guid, ft, st) \
    _Generic((value), \
        _Bool: b8, char: c8, signed char: i8, unsigned char: u8, \
        short: i16, unsigned short: u16, int: i32, unsigned int: u32, \
        long: il, unsigned long: ul, long long: i64, unsigned long long: u64, \
        float: f32, double: f64, \
        char*: sz8, char const*: sz8, \
        char16_t*: sz16, char16_t const*: sz16, \
        char32_t*: sz32, char32_t const*: sz32, \
        _tlgAUTO_GEN_GUID(guid) _tlgAUTO_GEN_FT(ft) _tlgAUTO_GEN_ST(st) \
        default: _Generic((value), wchar_t*: szw, wchar_t const*: szw, default: ptr))
#define _tlgAUTO_META_STR(value, name) \
    _tlgAUTO_GENERIC(value, \
        name "\0" "\x82" "\x07", name "\0" "\x82" "\x0a", name "\0" "\x82" "\x02", name "\0" "\x02", \
        name "\0" "\x83" "\x02", name "\0" "\x03", name "\0" "\x84" "\x02", name "\0" "\x04", \
        name "\0" _tlgENC_LONG_CS "\x02", name "\0" _tlgENC_LONG_S, \
        name "\0" "\x85" "\x02", name "\0" "\x05", \
        name "\0" "\x84" "\x08", name "\0" "\x85" "\x08", \
        name "\0" "\x87" "\x0a", name "\0" "\x08", name "\0" "\x09", name "\0" _tlgENC_ZWCHAR_S, \
        name "\0" _tlgENC_PTR_CS "\x03", \
        name "\0" "\x86" "\x0f", name "\0" "\x85" "\x06", name "\0" "\x85" "\x06")
#define _tlgAUTO_ENC(value) \
    _tlgAUTO_GENERIC(value, 2, 2, 2, 2, 3, 3, 4, 4, _tlgENC_LONG, _tlgENC_LONG, 5, 5, 4, 5, \
        7, 8, 9, _tlgENC_ZWCHAR, _tlgENC_PTR, 6, 5, 5)
#define _tlgAUTO_FMT(value) \
    _tlgAUTO_GENERIC(value, 7, 10, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 8, 8, 10, 0, 0, 0, 3, 15, 6, 6)
#define _tlgAUTO_DECL0(i, value, name, tag) \
    char _tlgN##i[sizeof(_tlgAUTO_META_STR(value, "" name)) - 1];
#define _tlgAUTO_INIT0(value, name, tag) \
    _tlgAUTO_META_STR(value, "" name),
#define _tlgAUTO_DECL1(i, value, name, tag) \
    char _tlgN##i[sizeof("" name)]; \
    uint8_t _tlgE##i; \
    uint8_t _tlgF##i; \
    _tlgFD_DECLT(i, tag)
#define _tlgAUTO_INIT1(value, name, tag) \
    "" name, \
    (uint8_t)(_tlgAUTO_ENC(value) | 0x80), \
    (uint8_t)(_tlgAUTO_FMT(value) | 0x80), \
    (uint16_t)(tag),
#define _tlgAUTO_DATA(vec, store, value) \
    _tlgAUTO_GENERIC(value, _tlgAutoBool8, _tlgAutoChar8, _tlgAutoI8, _tlgAutoU8, \
        _tlgAutoI16, _tlgAutoU16, _tlgAutoI32, _tlgAutoU32, _tlgAutoILong, _tlgAutoULong, \
        _tlgAutoI64, _tlgAutoU64, _tlgAutoF32, _tlgAutoF64, \
        _tlgAutoSz8, _tlgAutoSz16, _tlgAutoSz32, _tlgAutoSzW, _tlgAutoPtr, \
        _tlgAutoGuid, _tlgAutoFileTime, _tlgAutoSystemTime)(vec, store, (value))

#endif /* C */

/*
Per-argument iteration: argument counting and _tlgFE<n>. The
write's arguments arrive followed by the sentinel "~": _tlgNARGS(args..., ~) is
the number of arguments (0..99), _tlgNARGS1(args..., ~) that number plus one.
_tlgFE<n>(f, a1, ..., an, ~) expands to f(n, n + 1, a1) ... f(1, 2, an).
*/
/* BEGIN argument tables: generated by `UPDATE_HEADERS=1 cargo test --test headers` (headers/README.md); do not edit. */
#define _tlgNARGS(...) _tlgSEL100(__VA_ARGS__, \
    99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, \
    79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60, \
    59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, \
    39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, \
    19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, ~)
#define _tlgNARGS1(...) _tlgSEL100(__VA_ARGS__, \
    100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, \
    80, 79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, \
    60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, \
    40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, \
    20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, ~)
#define _tlgSEL100(_a0, \
    _a1, _a2, _a3, _a4, _a5, _a6, _a7, _a8, _a9, _a10, _a11, _a12, _a13, _a14, _a15, _a16, _a17, _a18, _a19, _a20, \
    _a21, _a22, _a23, _a24, _a25, _a26, _a27, _a28, _a29, _a30, _a31, _a32, _a33, _a34, _a35, _a36, _a37, _a38, _a39, _a40, \
    _a41, _a42, _a43, _a44, _a45, _a46, _a47, _a48, _a49, _a50, _a51, _a52, _a53, _a54, _a55, _a56, _a57, _a58, _a59, _a60, \
    _a61, _a62, _a63, _a64, _a65, _a66, _a67, _a68, _a69, _a70, _a71, _a72, _a73, _a74, _a75, _a76, _a77, _a78, _a79, _a80, \
    _a81, _a82, _a83, _a84, _a85, _a86, _a87, _a88, _a89, _a90, _a91, _a92, _a93, _a94, _a95, _a96, _a97, _a98, _a99, \
    n, ...) n
#define _tlgFE0(f, ...)
#define _tlgFE1(f, a, ...) f(1, 2, a)
#define _tlgFE2(f, a, ...) f(2, 3, a) _tlgFE1(f, __VA_ARGS__)
#define _tlgFE3(f, a, ...) f(3, 4, a) _tlgFE2(f, __VA_ARGS__)
#define _tlgFE4(f, a, ...) f(4, 5, a) _tlgFE3(f, __VA_ARGS__)
#define _tlgFE5(f, a, ...) f(5, 6, a) _tlgFE4(f, __VA_ARGS__)
#define _tlgFE6(f, a, ...) f(6, 7, a) _tlgFE5(f, __VA_ARGS__)
#define _tlgFE7(f, a, ...) f(7, 8, a) _tlgFE6(f, __VA_ARGS__)
#define _tlgFE8(f, a, ...) f(8, 9, a) _tlgFE7(f, __VA_ARGS__)
#define _tlgFE9(f, a, ...) f(9, 10, a) _tlgFE8(f, __VA_ARGS__)
#define _tlgFE10(f, a, ...) f(10, 11, a) _tlgFE9(f, __VA_ARGS__)
#define _tlgFE11(f, a, ...) f(11, 12, a) _tlgFE10(f, __VA_ARGS__)
#define _tlgFE12(f, a, ...) f(12, 13, a) _tlgFE11(f, __VA_ARGS__)
#define _tlgFE13(f, a, ...) f(13, 14, a) _tlgFE12(f, __VA_ARGS__)
#define _tlgFE14(f, a, ...) f(14, 15, a) _tlgFE13(f, __VA_ARGS__)
#define _tlgFE15(f, a, ...) f(15, 16, a) _tlgFE14(f, __VA_ARGS__)
#define _tlgFE16(f, a, ...) f(16, 17, a) _tlgFE15(f, __VA_ARGS__)
#define _tlgFE17(f, a, ...) f(17, 18, a) _tlgFE16(f, __VA_ARGS__)
#define _tlgFE18(f, a, ...) f(18, 19, a) _tlgFE17(f, __VA_ARGS__)
#define _tlgFE19(f, a, ...) f(19, 20, a) _tlgFE18(f, __VA_ARGS__)
#define _tlgFE20(f, a, ...) f(20, 21, a) _tlgFE19(f, __VA_ARGS__)
#define _tlgFE21(f, a, ...) f(21, 22, a) _tlgFE20(f, __VA_ARGS__)
#define _tlgFE22(f, a, ...) f(22, 23, a) _tlgFE21(f, __VA_ARGS__)
#define _tlgFE23(f, a, ...) f(23, 24, a) _tlgFE22(f, __VA_ARGS__)
#define _tlgFE24(f, a, ...) f(24, 25, a) _tlgFE23(f, __VA_ARGS__)
#define _tlgFE25(f, a, ...) f(25, 26, a) _tlgFE24(f, __VA_ARGS__)
#define _tlgFE26(f, a, ...) f(26, 27, a) _tlgFE25(f, __VA_ARGS__)
#define _tlgFE27(f, a, ...) f(27, 28, a) _tlgFE26(f, __VA_ARGS__)
#define _tlgFE28(f, a, ...) f(28, 29, a) _tlgFE27(f, __VA_ARGS__)
#define _tlgFE29(f, a, ...) f(29, 30, a) _tlgFE28(f, __VA_ARGS__)
#define _tlgFE30(f, a, ...) f(30, 31, a) _tlgFE29(f, __VA_ARGS__)
#define _tlgFE31(f, a, ...) f(31, 32, a) _tlgFE30(f, __VA_ARGS__)
#define _tlgFE32(f, a, ...) f(32, 33, a) _tlgFE31(f, __VA_ARGS__)
#define _tlgFE33(f, a, ...) f(33, 34, a) _tlgFE32(f, __VA_ARGS__)
#define _tlgFE34(f, a, ...) f(34, 35, a) _tlgFE33(f, __VA_ARGS__)
#define _tlgFE35(f, a, ...) f(35, 36, a) _tlgFE34(f, __VA_ARGS__)
#define _tlgFE36(f, a, ...) f(36, 37, a) _tlgFE35(f, __VA_ARGS__)
#define _tlgFE37(f, a, ...) f(37, 38, a) _tlgFE36(f, __VA_ARGS__)
#define _tlgFE38(f, a, ...) f(38, 39, a) _tlgFE37(f, __VA_ARGS__)
#define _tlgFE39(f, a, ...) f(39, 40, a) _tlgFE38(f, __VA_ARGS__)
#define _tlgFE40(f, a, ...) f(40, 41, a) _tlgFE39(f, __VA_ARGS__)
#define _tlgFE41(f, a, ...) f(41, 42, a) _tlgFE40(f, __VA_ARGS__)
#define _tlgFE42(f, a, ...) f(42, 43, a) _tlgFE41(f, __VA_ARGS__)
#define _tlgFE43(f, a, ...) f(43, 44, a) _tlgFE42(f, __VA_ARGS__)
#define _tlgFE44(f, a, ...) f(44, 45, a) _tlgFE43(f, __VA_ARGS__)
#define _tlgFE45(f, a, ...) f(45, 46, a) _tlgFE44(f, __VA_ARGS__)
#define _tlgFE46(f, a, ...) f(46, 47, a) _tlgFE45(f, __VA_ARGS__)
#define _tlgFE47(f, a, ...) f(47, 48, a) _tlgFE46(f, __VA_ARGS__)
#define _tlgFE48(f, a, ...) f(48, 49, a) _tlgFE47(f, __VA_ARGS__)
#define _tlgFE49(f, a, ...) f(49, 50, a) _tlgFE48(f, __VA_ARGS__)
#define _tlgFE50(f, a, ...) f(50, 51, a) _tlgFE49(f, __VA_ARGS__)
#define _tlgFE51(f, a, ...) f(51, 52, a) _tlgFE50(f, __VA_ARGS__)
#define _tlgFE52(f, a, ...) f(52, 53, a) _tlgFE51(f, __VA_ARGS__)
#define _tlgFE53(f, a, ...) f(53, 54, a) _tlgFE52(f, __VA_ARGS__)
#define _tlgFE54(f, a, ...) f(54, 55, a) _tlgFE53(f, __VA_ARGS__)
#define _tlgFE55(f, a, ...) f(55, 56, a) _tlgFE54(f, __VA_ARGS__)
#define _tlgFE56(f, a, ...) f(56, 57, a) _tlgFE55(f, __VA_ARGS__)
#define _tlgFE57(f, a, ...) f(57, 58, a) _tlgFE56(f, __VA_ARGS__)
#define _tlgFE58(f, a, ...) f(58, 59, a) _tlgFE57(f, __VA_ARGS__)
#define _tlgFE59(f, a, ...) f(59, 60, a) _tlgFE58(f, __VA_ARGS__)
#define _tlgFE60(f, a, ...) f(60, 61, a) _tlgFE59(f, __VA_ARGS__)
#define _tlgFE61(f, a, ...) f(61, 62, a) _tlgFE60(f, __VA_ARGS__)
#define _tlgFE62(f, a, ...) f(62, 63, a) _tlgFE61(f, __VA_ARGS__)
#define _tlgFE63(f, a, ...) f(63, 64, a) _tlgFE62(f, __VA_ARGS__)
#define _tlgFE64(f, a, ...) f(64, 65, a) _tlgFE63(f, __VA_ARGS__)
#define _tlgFE65(f, a, ...) f(65, 66, a) _tlgFE64(f, __VA_ARGS__)
#define _tlgFE66(f, a, ...) f(66, 67, a) _tlgFE65(f, __VA_ARGS__)
#define _tlgFE67(f, a, ...) f(67, 68, a) _tlgFE66(f, __VA_ARGS__)
#define _tlgFE68(f, a, ...) f(68, 69, a) _tlgFE67(f, __VA_ARGS__)
#define _tlgFE69(f, a, ...) f(69, 70, a) _tlgFE68(f, __VA_ARGS__)
#define _tlgFE70(f, a, ...) f(70, 71, a) _tlgFE69(f, __VA_ARGS__)
#define _tlgFE71(f, a, ...) f(71, 72, a) _tlgFE70(f, __VA_ARGS__)
#define _tlgFE72(f, a, ...) f(72, 73, a) _tlgFE71(f, __VA_ARGS__)
#define _tlgFE73(f, a, ...) f(73, 74, a) _tlgFE72(f, __VA_ARGS__)
#define _tlgFE74(f, a, ...) f(74, 75, a) _tlgFE73(f, __VA_ARGS__)
#define _tlgFE75(f, a, ...) f(75, 76, a) _tlgFE74(f, __VA_ARGS__)
#define _tlgFE76(f, a, ...) f(76, 77, a) _tlgFE75(f, __VA_ARGS__)
#define _tlgFE77(f, a, ...) f(77, 78, a) _tlgFE76(f, __VA_ARGS__)
#define _tlgFE78(f, a, ...) f(78, 79, a) _tlgFE77(f, __VA_ARGS__)
#define _tlgFE79(f, a, ...) f(79, 80, a) _tlgFE78(f, __VA_ARGS__)
#define _tlgFE80(f, a, ...) f(80, 81, a) _tlgFE79(f, __VA_ARGS__)
#define _tlgFE81(f, a, ...) f(81, 82, a) _tlgFE80(f, __VA_ARGS__)
#define _tlgFE82(f, a, ...) f(82, 83, a) _tlgFE81(f, __VA_ARGS__)
#define _tlgFE83(f, a, ...) f(83, 84, a) _tlgFE82(f, __VA_ARGS__)
#define _tlgFE84(f, a, ...) f(84, 85, a) _tlgFE83(f, __VA_ARGS__)
#define _tlgFE85(f, a, ...) f(85, 86, a) _tlgFE84(f, __VA_ARGS__)
#define _tlgFE86(f, a, ...) f(86, 87, a) _tlgFE85(f, __VA_ARGS__)
#define _tlgFE87(f, a, ...) f(87, 88, a) _tlgFE86(f, __VA_ARGS__)
#define _tlgFE88(f, a, ...) f(88, 89, a) _tlgFE87(f, __VA_ARGS__)
#define _tlgFE89(f, a, ...) f(89, 90, a) _tlgFE88(f, __VA_ARGS__)
#define _tlgFE90(f, a, ...) f(90, 91, a) _tlgFE89(f, __VA_ARGS__)
#define _tlgFE91(f, a, ...) f(91, 92, a) _tlgFE90(f, __VA_ARGS__)
#define _tlgFE92(f, a, ...) f(92, 93, a) _tlgFE91(f, __VA_ARGS__)
#define _tlgFE93(f, a, ...) f(93, 94, a) _tlgFE92(f, __VA_ARGS__)
#define _tlgFE94(f, a, ...) f(94, 95, a) _tlgFE93(f, __VA_ARGS__)
#define _tlgFE95(f, a, ...) f(95, 96, a) _tlgFE94(f, __VA_ARGS__)
#define _tlgFE96(f, a, ...) f(96, 97, a) _tlgFE95(f, __VA_ARGS__)
#define _tlgFE97(f, a, ...) f(97, 98, a) _tlgFE96(f, __VA_ARGS__)
#define _tlgFE98(f, a, ...) f(98, 99, a) _tlgFE97(f, __VA_ARGS__)
#define _tlgFE99(f, a, ...) f(99, 100, a) _tlgFE98(f, __VA_ARGS__)
/* END argument tables */

#endif /* _included_eventheader_TraceLoggingProvider_h */
