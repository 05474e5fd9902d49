/*
tracepoint-provider.h: the TPP_ macro API for plain (non-EventHeader) Linux
user_events tracepoints.

A tracepoint defined here is an ordinary typed tracepoint, e.g.
"my_event u32 count; __rel_loc char[] name;", which ftrace, perf and trace-cmd
decode from its tracefs format file, without any EventHeader knowledge. Events
go through the tracepoint layer of this library (tracepoint/tracepoint.h).
Works in C (C11, gnu11 or later) and C++ (C++11 or later) with gcc and clang.

Quick start:

    #include <tracepoint/tracepoint-provider.h>

    TPP_DEFINE_PROVIDER(MyProvider);        // a group of tracepoints

    int main(int argc, char* argv[])
    {
        TPP_REGISTER_PROVIDER(MyProvider);  // registers all of its tracepoints
        TPP_WRITE(MyProvider, "my_event",   // "my_event __rel_loc char[] arg0; s32 argc;"
            TPP_STRING("arg0", argv[0]),
            TPP_INT32("argc", argc));
        TPP_UNREGISTER_PROVIDER(MyProvider);
        return 0;
    }

Top-level macros:

- TPP_DECLARE_PROVIDER(ProviderSymbol): declares a provider defined elsewhere
  (in a header, for use by several .c/.cpp files of the same executable or
  shared object).
- TPP_DEFINE_PROVIDER(ProviderSymbol): defines the provider, at file scope, in
  one .c or .cpp file. It starts unregistered: writes are no-ops returning
  EBADF until TPP_REGISTER_PROVIDER.
- TPP_REGISTER_PROVIDER(ProviderSymbol): registers the provider and every
  tracepoint that any TPP_WRITE or TPP_FUNCTION of this executable or shared
  object declares for it, all at once, so a collector can enable them before
  the first write. Returns 0, or an errno value from
  tracepoint_open_provider_with_tracepoints (e.g. ENOENT or EOPNOTSUPP when
  the kernel has no user_events, EACCES, EALREADY when already registered).
  Registration errors of single tracepoints are not reported: those
  tracepoints stay disabled.
- TPP_UNREGISTER_PROVIDER(ProviderSymbol): unregisters the provider and its
  tracepoints. A no-op on a provider that is not registered. The provider may
  be registered again afterwards.
- TPP_WRITE(ProviderSymbol, "tracepoint_name", fields...): writes an event if
  a collector listens to the tracepoint. Yields an int: 0, EBADF when nobody
  listens or the provider is not registered, or another errno of
  tracepoint_write.
- TPP_FUNCTION(ProviderSymbol, "tracepoint_name", func, fields...): defines
  two functions with external linkage: int func(field parameters...), which
  writes the event like TPP_WRITE, and int func_enabled(void), which is
  non-zero while a collector listens. Write it at file scope.

Field macros (up to 99 per tracepoint), with the field each one declares:

    TPP_UINT8("name", value)      u8 name        TPP_INT8("name", value)      s8 name
    TPP_UINT16("name", value)     u16 name       TPP_INT16("name", value)     s16 name
    TPP_UINT32("name", value)     u32 name       TPP_INT32("name", value)     s32 name
    TPP_UINT64("name", value)     u64 name       TPP_INT64("name", value)     s64 name
    TPP_UINTPTR("name", value)    u64 name (u32 where pointers are 32 bits)
    TPP_INTPTR("name", value)     s64 name (s32 where pointers are 32 bits)
    TPP_STRING("name", psz)       __rel_loc char[] name: a nul-terminated string, NULL is ""
    TPP_CHAR_ARRAY("name", Size, ptr)    char[Size] name: Size bytes at ptr
    TPP_UCHAR_ARRAY("name", Size, ptr)   unsigned char[Size] name: Size bytes at ptr
    TPP_STRUCT_PTR("name", "type", Size, ptr)   struct type name Size: Size bytes at ptr
    TPP_CUSTOM_BYVAL("decl", ctype, value)       decl: the value converted to ctype
    TPP_CUSTOM_BYREF("decl", ctype, Size, ptr)   decl: Size bytes at ptr (a ctype const*)
    TPP_CUSTOM_REL_LOC("decl", ctype, size, ptr) __rel_loc decl: size bytes at ptr
    TPP_CUSTOM_REL_LOC_STR("decl", ctype, ptr)   __rel_loc decl: the ctype elements at ptr
                                                 up to and including the first zero one

"decl" is a field declaration in the kernel's user_events syntax, e.g.
"u16 port", "u8[16] id", "u8[] payload" (a __rel_loc declaration is written
without the __rel_loc, which the macro adds). Size must be an integer literal
(or a macro expanding to one) for TPP_CHAR_ARRAY, TPP_UCHAR_ARRAY and
TPP_STRUCT_PTR, because it is written into the field declaration; for
TPP_CUSTOM_BYREF it must be a constant expression 1..65535.

The registration string is the tracepoint name followed, for each field, by
" decl;" (" __rel_loc decl;" for the two REL_LOC kinds and TPP_STRING); a
tracepoint without fields registers its bare name.

Event layout: the fixed-size part first, each field in declaration order (no
padding: scalars, byref bytes and one 32-bit word per __rel_loc field), then
the data of the __rel_loc fields in declaration order. A __rel_loc word is
(data size << 16) | offset, where offset counts the bytes from the end of that
word to the field's data, as the kernel documents. Sizes are 16 bits: a
REL_LOC size is converted to uint16_t, and a string of more than 65534 chars
is written as "..." (a wider element type writes an empty string instead).

In TPP_WRITE, the value arguments may be any expressions; they are evaluated
only when a collector listens, each exactly once, all within one full
expression (so a pointer into a C++ temporary, e.g. s.substr(1).c_str(),
stays valid for the write). In TPP_FUNCTION, the value arguments are
parameter names instead: TPP_UINT8("n", count) declares the parameter
uint8_t count, TPP_CUSTOM_BYREF/TPP_CHAR_ARRAY/TPP_UCHAR_ARRAY/TPP_STRUCT_PTR
a ctype const* (void const* for the three last), TPP_STRING and
TPP_CUSTOM_REL_LOC_STR a ctype const* (char const* for TPP_STRING), and
TPP_CUSTOM_REL_LOC two parameters: uint16_t size, ctype const* ptr.

Cost: every TPP_WRITE and TPP_FUNCTION owns a static tracepoint_state. While
nobody listens, a write is one relaxed load of its status word and one branch,
inline; when enabled, the payload goes to tracepoint_write as iovecs pointing
at the caller's data (scalars are copied into locals, nothing else is
copied).

Names: tracepoint names, field names and struct type names must be string
literals, ASCII identifiers ([A-Za-z_][A-Za-z0-9_]*); a tracepoint name may be
followed by ":FLAG,..." kernel flags. Two tracepoints of the same name must
declare the same fields. Every public name starts with TPP_; names that start
with _tpp are private to this header and may change at any time.

Beyond the reference implementation's header: a provider left registered is
unregistered automatically when the program exits or its shared object is
unloaded (a late destructor, priority 101), so no registration keeps pointing
into unmapped memory; registering a registered provider returns EALREADY
(the reference documents it as a fatal error); TPP_CUSTOM_REL_LOC_STR counts
elements of its ctype (the reference counts chars whatever the type);
TPP_CUSTOM_BYREF checks that its size is a constant.

Known limitation (g++ only, as with TraceLoggingProvider.h): within one C++
translation unit, tracepoints of one provider may not be written both from
inline or template functions and from ordinary functions (g++ reports a
"section type conflict").

Strict ISO C and C++: the header compiles without warnings under -pedantic
(C11, C++11 and later, gcc and clang). TPP_WRITE and TPP_FUNCTION are defined
as NAME(...) and count their fields themselves, so a tracepoint without fields
is not a "variadic macro without arguments"; their statement expression is
marked __extension__. A field argument that is not one of the field macros
does not compile.

Thread safety: writes and func_enabled() may run on any thread at any time.
TPP_REGISTER_PROVIDER and TPP_UNREGISTER_PROVIDER of one provider must not run
concurrently with each other.
*/

#pragma once
#ifndef _included_tracepoint_tracepoint_provider_h
#define _included_tracepoint_tracepoint_provider_h 1

#include <tracepoint/tracepoint.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*==== Providers ============================================================*/

/*
The provider's state is _tppProv_<ProviderSymbol>. Each tracepoint puts a
pointer to its tracepoint_definition in the linker section
"_tppEvts_<ProviderSymbol>"; the linker's __start_/__stop_ symbols bound that
section (weak, so they are NULL for a provider without tracepoints). Nothing
else refers to an entry of the section, and the bounds are no use for linkers
that collect unused sections (lld's --gc-sections, GNU ld's -z start-stop-gc):
so every entry is marked retain (SHF_GNU_RETAIN; gcc 11, clang 13 and binutils
2.36 on), which the linker keeps whatever its garbage collection. A compiler
without the attribute writes the entries without it; such a program must be
linked without collecting sections, or with GNU ld's default
(-z nostart-stop-gc).
*/
#if defined(__has_attribute)
#if __has_attribute(retain)
#define _tppRETAIN retain,
#endif
#endif
#ifndef _tppRETAIN
#define _tppRETAIN
#endif

#define TPP_DECLARE_PROVIDER(ProviderSymbol) \
    _tppEXTERN_C tracepoint_definition const* _tppPASTE(__start__tppEvts_, ProviderSymbol)[] \
        __attribute__((weak, visibility("hidden"))); \
    _tppEXTERN_C tracepoint_definition const* _tppPASTE(__stop__tppEvts_, ProviderSymbol)[] \
        __attribute__((weak, visibility("hidden"))); \
    _tppEXTERN_C tracepoint_provider_state _tppPASTE(_tppProv_, ProviderSymbol) \
        __attribute__((visibility("hidden")))

#define TPP_DEFINE_PROVIDER(ProviderSymbol) \
    TPP_DECLARE_PROVIDER(ProviderSymbol); \
    _tppEXTERN_C_BEGIN \
    tracepoint_provider_state _tppPASTE(_tppProv_, ProviderSymbol) = TRACEPOINT_PROVIDER_STATE_INIT; \
    _tppEXTERN_C_END \
    __attribute__((destructor(101), used)) static void _tppPASTE(_tppProvClose_, ProviderSymbol)(void) \
    { \
        tracepoint_close_provider(&_tppPASTE(_tppProv_, ProviderSymbol)); \
    } \
    _tppEXTERN_C tracepoint_provider_state _tppPASTE(_tppProv_, ProviderSymbol)

#define TPP_REGISTER_PROVIDER(ProviderSymbol) \
    (tracepoint_open_provider_with_tracepoints( \
        &_tppPASTE(_tppProv_, ProviderSymbol), \
        _tppPASTE(__start__tppEvts_, ProviderSymbol), \
        _tppPASTE(__stop__tppEvts_, ProviderSymbol)))

#define TPP_UNREGISTER_PROVIDER(ProviderSymbol) \
    (tracepoint_close_provider(&_tppPASTE(_tppProv_, ProviderSymbol)))

/*==== Tracepoints ==========================================================*/

/* TPP_WRITE(ProviderSymbol, TracepointName, fields...) and
   TPP_FUNCTION(ProviderSymbol, TracepointName, FunctionName, fields...): see
   above (defined with "..." only, see "Strict ISO C and C++" below). */
#define TPP_WRITE(...) _tppWRITE(__VA_ARGS__, ~)
#define TPP_FUNCTION(...) _tppFUNCTION(__VA_ARGS__, ~)

/*==== Fields ===============================================================*/

#define TPP_UINT8(FieldName, Value)  TPP_CUSTOM_BYVAL("u8 " FieldName, uint8_t, Value)
#define TPP_INT8(FieldName, Value)   TPP_CUSTOM_BYVAL("s8 " FieldName, int8_t, Value)
#define TPP_UINT16(FieldName, Value) TPP_CUSTOM_BYVAL("u16 " FieldName, uint16_t, Value)
#define TPP_INT16(FieldName, Value)  TPP_CUSTOM_BYVAL("s16 " FieldName, int16_t, Value)
#define TPP_UINT32(FieldName, Value) TPP_CUSTOM_BYVAL("u32 " FieldName, uint32_t, Value)
#define TPP_INT32(FieldName, Value)  TPP_CUSTOM_BYVAL("s32 " FieldName, int32_t, Value)
#define TPP_UINT64(FieldName, Value) TPP_CUSTOM_BYVAL("u64 " FieldName, uint64_t, Value)
#define TPP_INT64(FieldName, Value)  TPP_CUSTOM_BYVAL("s64 " FieldName, int64_t, Value)
#if UINTPTR_MAX == UINT64_MAX
#define TPP_UINTPTR(FieldName, Value) TPP_CUSTOM_BYVAL("u64 " FieldName, uint64_t, Value)
#define TPP_INTPTR(FieldName, Value)  TPP_CUSTOM_BYVAL("s64 " FieldName, int64_t, Value)
#else
#define TPP_UINTPTR(FieldName, Value) TPP_CUSTOM_BYVAL("u32 " FieldName, uint32_t, Value)
#define TPP_INTPTR(FieldName, Value)  TPP_CUSTOM_BYVAL("s32 " FieldName, int32_t, Value)
#endif
#define TPP_STRING(FieldName, ValuePtr) \
    TPP_CUSTOM_REL_LOC_STR("char[] " FieldName, char, ValuePtr)
#define TPP_CHAR_ARRAY(FieldName, Size, ValuePtr) \
    TPP_CUSTOM_BYREF("char[" _tppSTR(Size) "] " FieldName, void, Size, ValuePtr)
#define TPP_UCHAR_ARRAY(FieldName, Size, ValuePtr) \
    TPP_CUSTOM_BYREF("unsigned char[" _tppSTR(Size) "] " FieldName, void, Size, ValuePtr)
#define TPP_STRUCT_PTR(FieldName, StructTypeName, Size, ValuePtr) \
    TPP_CUSTOM_BYREF("struct " StructTypeName " " FieldName " " _tppSTR(Size), void, Size, ValuePtr)

/* Each field is a tuple whose first item is its kind. */
#define TPP_CUSTOM_BYVAL(FieldDecl, Ctype, Value) \
    (_tppK_BYVAL, FieldDecl, Ctype, Value)
#define TPP_CUSTOM_BYREF(FieldDecl, Ctype, ConstantSize, ValuePtr) \
    (_tppK_BYREF, FieldDecl, Ctype, ConstantSize, ValuePtr)
#define TPP_CUSTOM_REL_LOC(FieldDecl, Ctype, ValueSize, ValuePtr) \
    (_tppK_RELLOC, FieldDecl, Ctype, ValueSize, ValuePtr)
#define TPP_CUSTOM_REL_LOC_STR(FieldDecl, Ctype, ValuePtr) \
    (_tppK_RELSTR, FieldDecl, Ctype, ValuePtr)

/*==== Implementation (private) =============================================*/

#ifdef __cplusplus
#define _tppEXTERN_C extern "C"
#define _tppEXTERN_C_BEGIN extern "C" {
#define _tppEXTERN_C_END }
#define _tppSTATIC_ASSERT(cond, msg) static_assert(cond, msg)
#define _tppNOEXCEPT noexcept
#define _tppUNCONST(p) const_cast<void*>(p)
#else
#define _tppEXTERN_C extern
#define _tppEXTERN_C_BEGIN
#define _tppEXTERN_C_END
#define _tppSTATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define _tppNOEXCEPT
#define _tppUNCONST(p) ((void*)(p))
#endif

#define _tppPASTE(a, b) _tppPASTE_(a, b)
#define _tppPASTE_(a, b) a##b
#define _tppFEPASTE(a, b) _tppFEPASTE_(a, b)
#define _tppFEPASTE_(a, b) a##b
#define _tppSTR(x) _tppSTR_(x)
#define _tppSTR_(x) #x
#define _tppUNPAREN(...) __VA_ARGS__

/* Points an iovec at size bytes; returns the size. */
static inline uint32_t _tppVec(struct iovec* vec, void const* data, size_t size) _tppNOEXCEPT
{
    vec->iov_base = _tppUNCONST(data);
    vec->iov_len = size;
    return (uint32_t)size;
}

/* The __rel_loc word: wordEnd is the offset just past the word, dataOffset
   the offset of the data, both from the start of the payload. */
static inline uint32_t _tppRelLoc(uint32_t wordEnd, uint32_t dataOffset, uint16_t size) _tppNOEXCEPT
{
    return ((uint32_t)size << 16) | ((dataOffset - wordEnd) & 0xFFFFu);
}

/* Points an iovec at a string of elemSize-byte elements up to and including
   its first zero element (elemSize 1..8); NULL is the empty string, and a
   string longer than 65535 bytes becomes "..." (elemSize 1) or empty.
   Returns the size. */
static inline uint16_t _tppZStr(struct iovec* vec, void const* str, size_t elemSize) _tppNOEXCEPT
{
    static uint64_t const zero = 0;
    size_t size;
    if (str == NULL) {
        return (uint16_t)_tppVec(vec, &zero, elemSize);
    }
    if (elemSize == 1) {
        size = strlen((char const*)str) + 1;
    } else {
        unsigned char const* p = (unsigned char const*)str;
        while (memcmp(p, &zero, elemSize) != 0) {
            p += elemSize;
        }
        size = (size_t)(p - (unsigned char const*)str) + elemSize;
    }
    if (size > 65535) {
        return elemSize == 1 ? (uint16_t)_tppVec(vec, "...", 4) : (uint16_t)_tppVec(vec, &zero, elemSize);
    }
    return (uint16_t)_tppVec(vec, str, size);
}

/*
Passes over the field tuples. _tppFOREACH(pass, n, fields...) expands
pass(i, field) for each field, i = n for the first one down to 1 for the last
(a unique label per field); _tppDISPATCH turns (kind, items...) into
pass##kind(i, items...). A field argument that is not a tuple (an expression,
a misspelled macro) has the kind _tppK_BAD, which pass DECL refuses.

  NAMEARGS  the field's part of the registration string
  NVEC      the number of iovecs it needs (+1, or +2 for __rel_loc)
  DECL      locals of the enabled block (and compile-time checks)
  FIXED     (in the write expression) evaluates the value, points an iovec at
            it or at the __rel_loc word, advances the offset
  REL       (after all FIXED) points an iovec at the __rel_loc data and
            completes the word
  PARAM     TPP_FUNCTION's parameter(s)
*/
#define _tppDISPATCH(pass, i, arg) _tppPASTE(_tppDISPATCH_, _tppHASARGS(arg))(pass, i, arg)
#define _tppDISPATCH_0(pass, i, arg) pass##_tppK_BAD(i, ~)
#define _tppDISPATCH_1(pass, i, tuple) _tppDISPATCH2(pass, i, _tppUNPAREN tuple)
#define _tppDISPATCH2(pass, i, ...) _tppDISPATCH3(pass, i, __VA_ARGS__)
#define _tppDISPATCH3(pass, i, kind, ...) pass##kind(i, __VA_ARGS__)
#define _tppP_NAMEARGS(i, tuple) _tppDISPATCH(_tppD_NAMEARGS, i, tuple)
#define _tppP_NVEC(i, tuple) _tppDISPATCH(_tppD_NVEC, i, tuple)
#define _tppP_DECL(i, tuple) _tppDISPATCH(_tppD_DECL, i, tuple)
#define _tppP_FIXED(i, tuple) _tppDISPATCH(_tppD_FIXED, i, tuple)
#define _tppP_REL(i, tuple) _tppDISPATCH(_tppD_REL, i, tuple)
#define _tppP_PARAM(i, tuple) _tppDISPATCH(_tppD_PARAM, i, tuple)
#define _tppP_NEXTPARAM(i, tuple) , _tppDISPATCH(_tppD_PARAM, i, tuple)
#define _tppFOREACH(pass, n, ...) _tppFEPASTE(_tppFE, n)(pass, __VA_ARGS__)

#define _tppD_NAMEARGS_tppK_BYVAL(i, decl, ...) " " decl ";"
#define _tppD_NAMEARGS_tppK_BYREF(i, decl, ...) " " decl ";"
#define _tppD_NAMEARGS_tppK_RELLOC(i, decl, ...) " __rel_loc " decl ";"
#define _tppD_NAMEARGS_tppK_RELSTR(i, decl, ...) " __rel_loc " decl ";"
#define _tppD_NAMEARGS_tppK_BAD(i, ...)

#define _tppD_NVEC_tppK_BYVAL(i, ...) + 1
#define _tppD_NVEC_tppK_BYREF(i, ...) + 1
#define _tppD_NVEC_tppK_RELLOC(i, ...) + 2
#define _tppD_NVEC_tppK_RELSTR(i, ...) + 2
#define _tppD_NVEC_tppK_BAD(i, ...)

#define _tppD_DECL_tppK_BYVAL(i, decl, ctype, value) \
    ctype _tppV##i;
#define _tppD_DECL_tppK_BYREF(i, decl, ctype, size, ptr) \
    _tppSTATIC_ASSERT((size) >= 1 && (size) <= 65535, \
        "TPP_CHAR_ARRAY/TPP_UCHAR_ARRAY/TPP_STRUCT_PTR/TPP_CUSTOM_BYREF: size must be a constant 1..65535"); \
    ctype const* _tppP##i;
#define _tppD_DECL_tppK_RELLOC(i, decl, ctype, size, ptr) \
    ctype const* _tppP##i; uint16_t _tppS##i; uint32_t _tppR##i = 0;
#define _tppD_DECL_tppK_RELSTR(i, decl, ctype, ptr) \
    _tppSTATIC_ASSERT(sizeof(ctype) <= 8, "TPP_CUSTOM_REL_LOC_STR: elements of at most 8 bytes"); \
    ctype const* _tppP##i; uint32_t _tppR##i = 0;
#define _tppD_DECL_tppK_BAD(i, ...) \
    _tppSTATIC_ASSERT(0, "TPP_WRITE/TPP_FUNCTION: a field argument is not a TPP field macro " \
        "(TPP_UINT8(...), TPP_STRING(...), TPP_CUSTOM_BYVAL(...), ...)");

#define _tppD_FIXED_tppK_BYVAL(i, decl, ctype, value) \
    _tppV##i = (value), \
    _tppOff += _tppVec(&_tppVecs[_tppIdx++], &_tppV##i, sizeof(ctype)),
#define _tppD_FIXED_tppK_BYREF(i, decl, ctype, size, ptr) \
    _tppP##i = (ptr), \
    _tppOff += _tppVec(&_tppVecs[_tppIdx++], _tppP##i, (size)),
#define _tppD_FIXED_tppK_RELLOC(i, decl, ctype, size, ptr) \
    _tppP##i = (ptr), \
    _tppS##i = (uint16_t)(size), \
    _tppOff += _tppVec(&_tppVecs[_tppIdx++], &_tppR##i, sizeof(uint32_t)), \
    _tppR##i = _tppOff,
#define _tppD_FIXED_tppK_RELSTR(i, decl, ctype, ptr) \
    _tppP##i = (ptr), \
    _tppOff += _tppVec(&_tppVecs[_tppIdx++], &_tppR##i, sizeof(uint32_t)), \
    _tppR##i = _tppOff,
#define _tppD_FIXED_tppK_BAD(i, ...)

#define _tppD_REL_tppK_BYVAL(i, ...)
#define _tppD_REL_tppK_BYREF(i, ...)
#define _tppD_REL_tppK_RELLOC(i, decl, ctype, size, ptr) \
    _tppR##i = _tppRelLoc(_tppR##i, _tppOff, _tppS##i), \
    _tppOff += _tppVec(&_tppVecs[_tppIdx++], _tppP##i, _tppS##i),
#define _tppD_REL_tppK_RELSTR(i, decl, ctype, ptr) \
    _tppR##i = _tppRelLoc(_tppR##i, _tppOff, _tppZStr(&_tppVecs[_tppIdx], _tppP##i, sizeof(ctype))), \
    _tppOff += (uint32_t)_tppVecs[_tppIdx++].iov_len,
#define _tppD_REL_tppK_BAD(i, ...)

#define _tppD_PARAM_tppK_BYVAL(i, decl, ctype, value) ctype value
#define _tppD_PARAM_tppK_BYREF(i, decl, ctype, size, ptr) ctype const* ptr
#define _tppD_PARAM_tppK_RELLOC(i, decl, ctype, size, ptr) uint16_t size, ctype const* ptr
#define _tppD_PARAM_tppK_RELSTR(i, decl, ctype, ptr) ctype const* ptr
#define _tppD_PARAM_tppK_BAD(i, ...) int /* refused by pass DECL */

/* TPP_FUNCTION's parameter list (of the fields followed by the sentinel):
   (void), or the first field's parameter(s) and ", parameter(s)" for each
   further field. */
#define _tppPARAMS(...) _tppPASTE(_tppPARAMS_, _tppHASARGS(_tppFIRST(__VA_ARGS__, ~)))(__VA_ARGS__)
#define _tppFIRST(first, ...) first
#define _tppPARAMS_0(...) void
#define _tppPARAMS_1(first, ...) \
    _tppP_PARAM(0, first) _tppFOREACH(_tppP_NEXTPARAM, _tppNARGS(__VA_ARGS__), __VA_ARGS__)

/*
The static part of a tracepoint: its registration string in a
tracepoint_definition, and a pointer to that in the provider's section
(which the library only reads: it sorts a copy when it must).
*/
#define _tppDEFINITION(ProviderSymbol, TracepointName, state, n, ...) \
    _tppSTATIC_ASSERT(sizeof("" TracepointName) > 1, "TPP: the tracepoint name must be a non-empty string literal"); \
    static tracepoint_definition const _tppDef = { \
        &(state), \
        "" TracepointName _tppFOREACH(_tppP_NAMEARGS, n, __VA_ARGS__) \
    }; \
    static tracepoint_definition const* _tppDefPtr \
        __attribute__((section("_tppEvts_" _tppSTR(ProviderSymbol)), _tppRETAIN used)) = &_tppDef; \
    (void)_tppDefPtr;

/*
The write: one relaxed load and one branch; only when enabled are the values
evaluated and tracepoint_write called, in one full expression. Sets result.
*/
#define _tppEMIT(state, result, n, ...) \
    if (__builtin_expect(TRACEPOINT_ENABLED(&(state)) != 0, 0)) { \
        struct iovec _tppVecs[1 _tppFOREACH(_tppP_NVEC, n, __VA_ARGS__)]; \
        unsigned _tppIdx = 1; \
        uint32_t _tppOff = 0; \
        _tppFOREACH(_tppP_DECL, n, __VA_ARGS__) \
        _tppVecs[0].iov_base = NULL; \
        _tppVecs[0].iov_len = 0; \
        ( \
            _tppFOREACH(_tppP_FIXED, n, __VA_ARGS__) \
            _tppFOREACH(_tppP_REL, n, __VA_ARGS__) \
            (result) = tracepoint_write(&(state), _tppIdx, _tppVecs) \
        ); \
        (void)_tppOff; \
    }

/* The public macros append the sentinel "~" to the fields. */
#define _tppWRITE(ProviderSymbol, TracepointName, ...) \
    _tppWRITE_N(ProviderSymbol, TracepointName, _tppNARGS(__VA_ARGS__), __VA_ARGS__)
#define _tppFUNCTION(ProviderSymbol, TracepointName, FunctionName, ...) \
    _tppFUNCTION_N(ProviderSymbol, TracepointName, FunctionName, _tppNARGS(__VA_ARGS__), __VA_ARGS__)
#define _tppWRITE_N(ProviderSymbol, TracepointName, n, ...) __extension__ ({ \
    static tracepoint_state _tppState = TRACEPOINT_STATE_INIT; \
    _tppDEFINITION(ProviderSymbol, TracepointName, _tppState, n, __VA_ARGS__) \
    int _tppResult = EBADF; \
    _tppEMIT(_tppState, _tppResult, n, __VA_ARGS__) \
    _tppResult; \
    })

/* The functions keep the language linkage and exception specification of
   the surrounding code (like any function the caller writes), so they can be
   declared in a header without TPP_. Ends with a redeclaration of
   FunctionName_enabled to take the caller's ';'. */
#define _tppFUNCTION_N(ProviderSymbol, TracepointName, FunctionName, n, ...) \
    static tracepoint_state _tppPASTE(_tppState_, FunctionName) = TRACEPOINT_STATE_INIT; \
    int _tppPASTE(FunctionName, _enabled)(void); \
    int _tppPASTE(FunctionName, _enabled)(void) \
    { \
        return TRACEPOINT_ENABLED(&_tppPASTE(_tppState_, FunctionName)) != 0; \
    } \
    int FunctionName(_tppPARAMS(__VA_ARGS__)); \
    int FunctionName(_tppPARAMS(__VA_ARGS__)) \
    { \
        _tppDEFINITION(ProviderSymbol, TracepointName, _tppPASTE(_tppState_, FunctionName), n, __VA_ARGS__) \
        int _tppResult = EBADF; \
        _tppEMIT(_tppPASTE(_tppState_, FunctionName), _tppResult, n, __VA_ARGS__) \
        return _tppResult; \
    } \
    int _tppPASTE(FunctionName, _enabled)(void)

/*
Argument counting. The fields arrive followed by the sentinel "~" (so that no
list is empty): _tppNARGS(fields..., ~) is the number of fields, 0..99, counted
by commas. _tppHASARGS(list) is 1 if the list starts with a parenthesized group
(a field's tuple), else 0.
*/
#define _tppHASARGS(...) _tppHASARGS_(_tppHASARGS_PROBE __VA_ARGS__)
#define _tppHASARGS_(...) _tppHASARGS_SEL(__VA_ARGS__, 0, ~)
#define _tppHASARGS_SEL(x, n, ...) n
#define _tppHASARGS_PROBE(...) ~, 1

/* Counting up to 99 fields, and _tppFE<n>(f, fields..., ~). */
/* BEGIN argument tables: generated by `UPDATE_HEADERS=1 cargo test --test headers` (headers/README.md); do not edit. */
#define _tppNARGS(...) _tppSEL100(__VA_ARGS__, \
    99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85, 84, 83, 82, 81, 80, \
    79, 78, 77, 76, 75, 74, 73, 72, 71, 70, 69, 68, 67, 66, 65, 64, 63, 62, 61, 60, \
    59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, \
    39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, \
    19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, ~)
#define _tppSEL100(_a0, \
    _a1, _a2, _a3, _a4, _a5, _a6, _a7, _a8, _a9, _a10, _a11, _a12, _a13, _a14, _a15, _a16, _a17, _a18, _a19, _a20, \
    _a21, _a22, _a23, _a24, _a25, _a26, _a27, _a28, _a29, _a30, _a31, _a32, _a33, _a34, _a35, _a36, _a37, _a38, _a39, _a40, \
    _a41, _a42, _a43, _a44, _a45, _a46, _a47, _a48, _a49, _a50, _a51, _a52, _a53, _a54, _a55, _a56, _a57, _a58, _a59, _a60, \
    _a61, _a62, _a63, _a64, _a65, _a66, _a67, _a68, _a69, _a70, _a71, _a72, _a73, _a74, _a75, _a76, _a77, _a78, _a79, _a80, \
    _a81, _a82, _a83, _a84, _a85, _a86, _a87, _a88, _a89, _a90, _a91, _a92, _a93, _a94, _a95, _a96, _a97, _a98, _a99, \
    n, ...) n
#define _tppFE0(f, ...)
#define _tppFE1(f, a, ...) f(1, a)
#define _tppFE2(f, a, ...) f(2, a) _tppFE1(f, __VA_ARGS__)
#define _tppFE3(f, a, ...) f(3, a) _tppFE2(f, __VA_ARGS__)
#define _tppFE4(f, a, ...) f(4, a) _tppFE3(f, __VA_ARGS__)
#define _tppFE5(f, a, ...) f(5, a) _tppFE4(f, __VA_ARGS__)
#define _tppFE6(f, a, ...) f(6, a) _tppFE5(f, __VA_ARGS__)
#define _tppFE7(f, a, ...) f(7, a) _tppFE6(f, __VA_ARGS__)
#define _tppFE8(f, a, ...) f(8, a) _tppFE7(f, __VA_ARGS__)
#define _tppFE9(f, a, ...) f(9, a) _tppFE8(f, __VA_ARGS__)
#define _tppFE10(f, a, ...) f(10, a) _tppFE9(f, __VA_ARGS__)
#define _tppFE11(f, a, ...) f(11, a) _tppFE10(f, __VA_ARGS__)
#define _tppFE12(f, a, ...) f(12, a) _tppFE11(f, __VA_ARGS__)
#define _tppFE13(f, a, ...) f(13, a) _tppFE12(f, __VA_ARGS__)
#define _tppFE14(f, a, ...) f(14, a) _tppFE13(f, __VA_ARGS__)
#define _tppFE15(f, a, ...) f(15, a) _tppFE14(f, __VA_ARGS__)
#define _tppFE16(f, a, ...) f(16, a) _tppFE15(f, __VA_ARGS__)
#define _tppFE17(f, a, ...) f(17, a) _tppFE16(f, __VA_ARGS__)
#define _tppFE18(f, a, ...) f(18, a) _tppFE17(f, __VA_ARGS__)
#define _tppFE19(f, a, ...) f(19, a) _tppFE18(f, __VA_ARGS__)
#define _tppFE20(f, a, ...) f(20, a) _tppFE19(f, __VA_ARGS__)
#define _tppFE21(f, a, ...) f(21, a) _tppFE20(f, __VA_ARGS__)
#define _tppFE22(f, a, ...) f(22, a) _tppFE21(f, __VA_ARGS__)
#define _tppFE23(f, a, ...) f(23, a) _tppFE22(f, __VA_ARGS__)
#define _tppFE24(f, a, ...) f(24, a) _tppFE23(f, __VA_ARGS__)
#define _tppFE25(f, a, ...) f(25, a) _tppFE24(f, __VA_ARGS__)
#define _tppFE26(f, a, ...) f(26, a) _tppFE25(f, __VA_ARGS__)
#define _tppFE27(f, a, ...) f(27, a) _tppFE26(f, __VA_ARGS__)
#define _tppFE28(f, a, ...) f(28, a) _tppFE27(f, __VA_ARGS__)
#define _tppFE29(f, a, ...) f(29, a) _tppFE28(f, __VA_ARGS__)
#define _tppFE30(f, a, ...) f(30, a) _tppFE29(f, __VA_ARGS__)
#define _tppFE31(f, a, ...) f(31, a) _tppFE30(f, __VA_ARGS__)
#define _tppFE32(f, a, ...) f(32, a) _tppFE31(f, __VA_ARGS__)
#define _tppFE33(f, a, ...) f(33, a) _tppFE32(f, __VA_ARGS__)
#define _tppFE34(f, a, ...) f(34, a) _tppFE33(f, __VA_ARGS__)
#define _tppFE35(f, a, ...) f(35, a) _tppFE34(f, __VA_ARGS__)
#define _tppFE36(f, a, ...) f(36, a) _tppFE35(f, __VA_ARGS__)
#define _tppFE37(f, a, ...) f(37, a) _tppFE36(f, __VA_ARGS__)
#define _tppFE38(f, a, ...) f(38, a) _tppFE37(f, __VA_ARGS__)
#define _tppFE39(f, a, ...) f(39, a) _tppFE38(f, __VA_ARGS__)
#define _tppFE40(f, a, ...) f(40, a) _tppFE39(f, __VA_ARGS__)
#define _tppFE41(f, a, ...) f(41, a) _tppFE40(f, __VA_ARGS__)
#define _tppFE42(f, a, ...) f(42, a) _tppFE41(f, __VA_ARGS__)
#define _tppFE43(f, a, ...) f(43, a) _tppFE42(f, __VA_ARGS__)
#define _tppFE44(f, a, ...) f(44, a) _tppFE43(f, __VA_ARGS__)
#define _tppFE45(f, a, ...) f(45, a) _tppFE44(f, __VA_ARGS__)
#define _tppFE46(f, a, ...) f(46, a) _tppFE45(f, __VA_ARGS__)
#define _tppFE47(f, a, ...) f(47, a) _tppFE46(f, __VA_ARGS__)
#define _tppFE48(f, a, ...) f(48, a) _tppFE47(f, __VA_ARGS__)
#define _tppFE49(f, a, ...) f(49, a) _tppFE48(f, __VA_ARGS__)
#define _tppFE50(f, a, ...) f(50, a) _tppFE49(f, __VA_ARGS__)
#define _tppFE51(f, a, ...) f(51, a) _tppFE50(f, __VA_ARGS__)
#define _tppFE52(f, a, ...) f(52, a) _tppFE51(f, __VA_ARGS__)
#define _tppFE53(f, a, ...) f(53, a) _tppFE52(f, __VA_ARGS__)
#define _tppFE54(f, a, ...) f(54, a) _tppFE53(f, __VA_ARGS__)
#define _tppFE55(f, a, ...) f(55, a) _tppFE54(f, __VA_ARGS__)
#define _tppFE56(f, a, ...) f(56, a) _tppFE55(f, __VA_ARGS__)
#define _tppFE57(f, a, ...) f(57, a) _tppFE56(f, __VA_ARGS__)
#define _tppFE58(f, a, ...) f(58, a) _tppFE57(f, __VA_ARGS__)
#define _tppFE59(f, a, ...) f(59, a) _tppFE58(f, __VA_ARGS__)
#define _tppFE60(f, a, ...) f(60, a) _tppFE59(f, __VA_ARGS__)
#define _tppFE61(f, a, ...) f(61, a) _tppFE60(f, __VA_ARGS__)
#define _tppFE62(f, a, ...) f(62, a) _tppFE61(f, __VA_ARGS__)
#define _tppFE63(f, a, ...) f(63, a) _tppFE62(f, __VA_ARGS__)
#define _tppFE64(f, a, ...) f(64, a) _tppFE63(f, __VA_ARGS__)
#define _tppFE65(f, a, ...) f(65, a) _tppFE64(f, __VA_ARGS__)
#define _tppFE66(f, a, ...) f(66, a) _tppFE65(f, __VA_ARGS__)
#define _tppFE67(f, a, ...) f(67, a) _tppFE66(f, __VA_ARGS__)
#define _tppFE68(f, a, ...) f(68, a) _tppFE67(f, __VA_ARGS__)
#define _tppFE69(f, a, ...) f(69, a) _tppFE68(f, __VA_ARGS__)
#define _tppFE70(f, a, ...) f(70, a) _tppFE69(f, __VA_ARGS__)
#define _tppFE71(f, a, ...) f(71, a) _tppFE70(f, __VA_ARGS__)
#define _tppFE72(f, a, ...) f(72, a) _tppFE71(f, __VA_ARGS__)
#define _tppFE73(f, a, ...) f(73, a) _tppFE72(f, __VA_ARGS__)
#define _tppFE74(f, a, ...) f(74, a) _tppFE73(f, __VA_ARGS__)
#define _tppFE75(f, a, ...) f(75, a) _tppFE74(f, __VA_ARGS__)
#define _tppFE76(f, a, ...) f(76, a) _tppFE75(f, __VA_ARGS__)
#define _tppFE77(f, a, ...) f(77, a) _tppFE76(f, __VA_ARGS__)
#define _tppFE78(f, a, ...) f(78, a) _tppFE77(f, __VA_ARGS__)
#define _tppFE79(f, a, ...) f(79, a) _tppFE78(f, __VA_ARGS__)
#define _tppFE80(f, a, ...) f(80, a) _tppFE79(f, __VA_ARGS__)
#define _tppFE81(f, a, ...) f(81, a) _tppFE80(f, __VA_ARGS__)
#define _tppFE82(f, a, ...) f(82, a) _tppFE81(f, __VA_ARGS__)
#define _tppFE83(f, a, ...) f(83, a) _tppFE82(f, __VA_ARGS__)
#define _tppFE84(f, a, ...) f(84, a) _tppFE83(f, __VA_ARGS__)
#define _tppFE85(f, a, ...) f(85, a) _tppFE84(f, __VA_ARGS__)
#define _tppFE86(f, a, ...) f(86, a) _tppFE85(f, __VA_ARGS__)
#define _tppFE87(f, a, ...) f(87, a) _tppFE86(f, __VA_ARGS__)
#define _tppFE88(f, a, ...) f(88, a) _tppFE87(f, __VA_ARGS__)
#define _tppFE89(f, a, ...) f(89, a) _tppFE88(f, __VA_ARGS__)
#define _tppFE90(f, a, ...) f(90, a) _tppFE89(f, __VA_ARGS__)
#define _tppFE91(f, a, ...) f(91, a) _tppFE90(f, __VA_ARGS__)
#define _tppFE92(f, a, ...) f(92, a) _tppFE91(f, __VA_ARGS__)
#define _tppFE93(f, a, ...) f(93, a) _tppFE92(f, __VA_ARGS__)
#define _tppFE94(f, a, ...) f(94, a) _tppFE93(f, __VA_ARGS__)
#define _tppFE95(f, a, ...) f(95, a) _tppFE94(f, __VA_ARGS__)
#define _tppFE96(f, a, ...) f(96, a) _tppFE95(f, __VA_ARGS__)
#define _tppFE97(f, a, ...) f(97, a) _tppFE96(f, __VA_ARGS__)
#define _tppFE98(f, a, ...) f(98, a) _tppFE97(f, __VA_ARGS__)
#define _tppFE99(f, a, ...) f(99, a) _tppFE98(f, __VA_ARGS__)
/* END argument tables */

#endif /* _included_tracepoint_tracepoint_provider_h */
