/*
The events shared by the C and C++ reference tests. Included by tl_c.c (with
TL_PROVIDER = TestProviderC) and by tl_cpp.cpp (TL_PROVIDER = TestProviderCpp),
so the same macro invocations are compiled once as C and once as C++.

Field names that are not given explicitly are the stringized (macro-expanded)
value expressions, so variable names and limit macros below are part of the
expected output. LONG_MIN, ULONG_MAX and WCHAR_MAX expand differently under gcc
and clang; the TL_* spellings below are the gcc ones, used by the reference.
*/
#ifndef TL_EVENTS_H
#define TL_EVENTS_H

#include "tl_test.h"
#include <arpa/inet.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* gcc's spellings with a 32-bit long too (TL_OTHER_ABI, tl_test.h). */
#if __SIZEOF_LONG__ == 8
#define TL_LONG_MIN (-0x7fffffffffffffffL - 1L)
#define TL_ULONG_MAX (0x7fffffffffffffffL * 2UL + 1UL)
#else
#define TL_LONG_MIN (-0x7fffffffL - 1L)
#define TL_ULONG_MAX (0x7fffffffL * 2UL + 1UL)
#endif
#define TL_WCHAR_MAX 0x7fffffff

/* A uint16_t length (after 2 bytes of padding) followed by characters: packed string data. */
struct tl_counted8 { uint16_t pad; uint16_t len; char text[10]; };
struct tl_counted16 { uint16_t pad; uint16_t len; char16_t text[10]; };
struct tl_counted32 { uint16_t pad; uint16_t len; char32_t text[10]; };

/*
The reference's NaN fields hold 0.0/0.0 as computed on x86-64 (the "default
NaN", sign bit set). Compilers fold 0.0/0.0 differently (clang gives +NaN), so
the test builds those exact bits instead.
*/
static float tl_f32_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static double tl_f64_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof(d));
    return d;
}

/*
Provider interop (a C provider and a C++ provider, each used from both
languages): register both, write while registered, unregister twice, and check
that writes are then silent and that TraceLoggingProviderEnabled agrees.
*/
static int tl_interop(void)
{
    int failures = 0;
    bool enabled;

    failures += !VERIFY(TraceLoggingRegister(TestProviderCG) == 0);
    failures += !VERIFY(TraceLoggingRegister(TestProviderCppG) == 0);

    enabled = TraceLoggingProviderEnabled(TestProviderCG, 5, 0);
    failures += !VERIFY(enabled);
    failures += !VERIFY(TraceLoggingWrite(TestProviderCG, "EventCG", TraceLoggingBoolean(enabled)) == 0);

    enabled = TraceLoggingProviderEnabled(TestProviderCppG, 5, 0);
    failures += !VERIFY(enabled);
    failures += !VERIFY(TraceLoggingWrite(TestProviderCppG, "EventCppG", TraceLoggingBoolean(enabled)) == 0);

    TraceLoggingUnregister(TestProviderCG);
    TraceLoggingUnregister(TestProviderCppG);
    TraceLoggingUnregister(TestProviderCG);
    TraceLoggingUnregister(TestProviderCppG);

    /* Unregistered: disabled, and the writes below must not reach the capture. */
    enabled = TraceLoggingProviderEnabled(TestProviderCG, 5, 0);
    failures += !VERIFY(!enabled);
    failures += !VERIFY(TraceLoggingWrite(TestProviderCG, "EventCG", TraceLoggingBoolean(enabled)) == 0);

    enabled = TraceLoggingProviderEnabled(TestProviderCppG, 5, 0);
    failures += !VERIFY(!enabled);
    failures += !VERIFY(TraceLoggingWrite(TestProviderCppG, "EventCppG", TraceLoggingBoolean(enabled)) == 0);

    return failures;
}

/* The reference's scalar, string, array and packed events, in the reference's order. */
static int tl_common_events(void)
{
    int failures = 0;

    bool const b0 = 0;
    bool const b1 = 1;
    uint8_t const b8 = 1;
    int32_t const b32 = 1;
    int8_t const i8 = 100;
    uint8_t const u8 = 200;
    int16_t const i16 = 30000;
    uint16_t const u16 = 60000;
    int32_t const i32 = 2000000000;
    uint32_t const u32 = 4000000000;
    long const iL = 2000000000;
    unsigned long const uL = 4000000000;
    int64_t const i64 = 9000000000000000000;
    uint64_t const u64 = 18000000000000000000u;
    float const f32 = 3.14f;
    double const f64 = 6.28;
    char const ch = 'A';
    char16_t const u16ch = u'A';
    char32_t const u32ch = U'A';
    wchar_t const wch = L'B';
    intptr_t const iptr = 1234;
    uintptr_t const uptr = 4321;
    char ch10[10] = "HowAreU8?";
    char16_t u16ch10[10] = u"HowAreU16";
    char32_t u32ch10[10] = U"HowAreU32";
    wchar_t wch10[10] = L"Goodbye!!";
    uint8_t const guid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8 };
    void const* const pSamplePtr = (void*)(intptr_t)(-12345);
    unsigned short n1 = 1;
    unsigned short n5 = 5;
    uint16_t const port80 = htons(80);
    uint8_t const ipv4bytes[4] = { 127, 0, 0, 1 };
    uint8_t const ipv6bytes[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    in_addr_t ipv4;
    struct in6_addr ipv6;
    memcpy(&ipv4, ipv4bytes, sizeof(ipv4));
    memcpy(&ipv6, ipv6bytes, sizeof(ipv6));

    failures += !VERIFY(TraceLoggingWrite(TL_PROVIDER, "CScalars1") == 0);
    TraceLoggingWrite(TL_PROVIDER, "CScalars2",
        TraceLoggingLevel(1),
        TraceLoggingKeyword(0xf123456789abcdef),
        TraceLoggingOpcode(2));
    /* Repeated options: keywords are OR'ed, the last level wins; descriptions are ignored. */
    TraceLoggingWrite(TL_PROVIDER, "CScalars3",
        TraceLoggingIdVersion(1000, 11),
        TraceLoggingLevel(2),
        TraceLoggingKeyword(0x80),
        TraceLoggingOpcode(3),
        TraceLoggingLevel(4),
        TraceLoggingKeyword(0x05),
        TraceLoggingEventTag(0x1234),
        TraceLoggingDescription("Hello"),
        TraceLoggingStruct(20, "Struct20", "Desc", 0xbeef),
            TraceLoggingString("hi", "hi", "Descr", 0x12),
            TraceLoggingCharArray(ch10, 3, "ch10", "Descri", 0x10));

    TraceLoggingWriteActivity(TL_PROVIDER, "Transfer00", NULL, NULL);
    TraceLoggingWriteActivity(TL_PROVIDER, "Transfer10", guid, NULL);
    TraceLoggingWriteActivity(TL_PROVIDER, "Transfer11", guid, guid);

    TraceLoggingWrite(TL_PROVIDER, "i8", TraceLoggingInt8(i8), TraceLoggingInt8(INT8_MIN));
    TraceLoggingWrite(TL_PROVIDER, "u8", TraceLoggingUInt8(u8), TraceLoggingUInt8(UINT8_MAX));
    TraceLoggingWrite(TL_PROVIDER, "i16", TraceLoggingInt16(i16), TraceLoggingInt16(INT16_MIN));
    TraceLoggingWrite(TL_PROVIDER, "u16", TraceLoggingUInt16(u16), TraceLoggingUInt16(UINT16_MAX));
    TraceLoggingWrite(TL_PROVIDER, "i32", TraceLoggingInt32(i32), TraceLoggingInt32(INT32_MIN));
    TraceLoggingWrite(TL_PROVIDER, "u32", TraceLoggingUInt32(u32), TraceLoggingUInt32(UINT32_MAX));
    TraceLoggingWrite(TL_PROVIDER, "i64", TraceLoggingInt64(i64), TraceLoggingInt64(INT64_MIN));
    TraceLoggingWrite(TL_PROVIDER, "u64", TraceLoggingUInt64(u64), TraceLoggingUInt64(UINT64_MAX));
    TraceLoggingWrite(TL_PROVIDER, "iptr", TraceLoggingIntPtr(iptr), TraceLoggingIntPtr(INTPTR_MIN));
    TraceLoggingWrite(TL_PROVIDER, "uptr", TraceLoggingUIntPtr(uptr), TraceLoggingUIntPtr(UINTPTR_MAX));
    TraceLoggingWrite(TL_PROVIDER, "iL", TraceLoggingLong(iL), TraceLoggingLong(TL_LONG_MIN));
    TraceLoggingWrite(TL_PROVIDER, "uL", TraceLoggingULong(uL), TraceLoggingULong(TL_ULONG_MAX));

    TraceLoggingWrite(TL_PROVIDER, "hi8", TraceLoggingHexInt8(i8), TraceLoggingHexInt8(INT8_MIN));
    TraceLoggingWrite(TL_PROVIDER, "hu8", TraceLoggingHexUInt8(u8), TraceLoggingHexUInt8(UINT8_MAX));
    TraceLoggingWrite(TL_PROVIDER, "hi16", TraceLoggingHexInt16(i16), TraceLoggingHexInt16(INT16_MIN));
    TraceLoggingWrite(TL_PROVIDER, "hu16", TraceLoggingHexUInt16(u16), TraceLoggingHexUInt16(UINT16_MAX));
    TraceLoggingWrite(TL_PROVIDER, "hi32", TraceLoggingHexInt32(i32), TraceLoggingHexInt32(INT32_MIN));
    TraceLoggingWrite(TL_PROVIDER, "hu32", TraceLoggingHexUInt32(u32), TraceLoggingHexUInt32(UINT32_MAX));
    TraceLoggingWrite(TL_PROVIDER, "hi64", TraceLoggingHexInt64(i64), TraceLoggingHexInt64(INT64_MIN));
    TraceLoggingWrite(TL_PROVIDER, "hu64", TraceLoggingHexUInt64(u64), TraceLoggingHexUInt64(UINT64_MAX));
    TraceLoggingWrite(TL_PROVIDER, "hiptr", TraceLoggingHexIntPtr(iptr), TraceLoggingHexIntPtr(INTPTR_MIN));
    TraceLoggingWrite(TL_PROVIDER, "huptr", TraceLoggingHexUIntPtr(uptr), TraceLoggingHexUIntPtr(UINTPTR_MAX));
    TraceLoggingWrite(TL_PROVIDER, "hiL", TraceLoggingHexLong(iL), TraceLoggingHexLong(TL_LONG_MIN));
    TraceLoggingWrite(TL_PROVIDER, "huL", TraceLoggingHexULong(uL), TraceLoggingHexULong(TL_ULONG_MAX));

    TraceLoggingWrite(TL_PROVIDER, "f32",
        TraceLoggingFloat32(f32), TraceLoggingFloat32(1.0f / 3.0f, "1/3"),
        TraceLoggingFloat32(tl_f32_bits(0xffc00000u), "NaN"), TraceLoggingFloat32(-1.0f / 0.0f, "-Inf"));
    TraceLoggingWrite(TL_PROVIDER, "f64",
        TraceLoggingFloat64(f64), TraceLoggingFloat64(1.0 / 3.0, "1/3"),
        TraceLoggingFloat64(tl_f64_bits(0xfff8000000000000u), "NaN"), TraceLoggingFloat64(-1.0 / 0.0, "-Inf"));
    TraceLoggingWrite(TL_PROVIDER, "b8",
        TraceLoggingBoolean(b0), TraceLoggingBoolean(b1), TraceLoggingBoolean(UINT8_MAX));
    TraceLoggingWrite(TL_PROVIDER, "b32",
        TraceLoggingBool(b0), TraceLoggingBool(b1), TraceLoggingBool(INT32_MIN));

    TraceLoggingWrite(TL_PROVIDER, "ch", TraceLoggingChar(ch), TraceLoggingChar('\xFE', "FE"));
    TraceLoggingWrite(TL_PROVIDER, "u16ch", TraceLoggingChar16(u16ch), TraceLoggingChar16(u'\xFFFE', "FFFE"));
    TraceLoggingWrite(TL_PROVIDER, "u32ch",
        TraceLoggingChar32(u32ch), TraceLoggingChar32(U'\xFFFE', "FFFE"),
        TraceLoggingChar32(U'\x10FFFF', "10FFFF"), TraceLoggingChar32(U'\xFFFEFDFC', "FFFEFDFC"));
    TraceLoggingWrite(TL_PROVIDER, "wch",
        TraceLoggingWChar(wch), TraceLoggingWChar(L'\xFFFE', "FFFE"),
        TraceLoggingWChar(L'\x10FFFF', "10FFFF"), TraceLoggingWChar(TL_WCHAR_MAX));
    TraceLoggingWrite(TL_PROVIDER, "ptr",
        TraceLoggingPointer(pSamplePtr), TraceLoggingPointer((void*)UINTPTR_MAX, "UINTPTR_MAX"));
    TraceLoggingWrite(TL_PROVIDER, "pid", TraceLoggingPid(i32), TraceLoggingPid(INT32_MAX));
    TraceLoggingWrite(TL_PROVIDER, "port", TraceLoggingPort(port80), TraceLoggingPort(UINT16_MAX));
    TraceLoggingWrite(TL_PROVIDER, "errno",
        TraceLoggingErrno(INT32_MIN), TraceLoggingErrno(1), TraceLoggingErrno(131));
    TraceLoggingWrite(TL_PROVIDER, "t32",
        TraceLoggingTime32(i32), TraceLoggingTime32(INT32_MIN),
        TraceLoggingTime32(INT32_MAX), TraceLoggingTime32(0));
    TraceLoggingWrite(TL_PROVIDER, "t64",
        TraceLoggingTime64(i64), TraceLoggingTime64(INT64_MIN), TraceLoggingTime64(INT64_MAX),
        TraceLoggingTime64(0),
        TraceLoggingTime64(-11644473600),
        TraceLoggingTime64(-11644473601),
        TraceLoggingTime64(910692730085),
        TraceLoggingTime64(910692730086));

    TraceLoggingWrite(TL_PROVIDER, "guid", TraceLoggingGuid(guid));

    TraceLoggingWrite(TL_PROVIDER, "sz", TraceLoggingString(NULL, "NULL"), TraceLoggingString(ch10));
    TraceLoggingWrite(TL_PROVIDER, "sz8", TraceLoggingUtf8String(NULL, "NULL"), TraceLoggingUtf8String(ch10));
    TraceLoggingWrite(TL_PROVIDER, "wsz", TraceLoggingWideString(NULL, "NULL"), TraceLoggingWideString(wch10));
    TraceLoggingWrite(TL_PROVIDER, "sz16", TraceLoggingString16(NULL, "NULL"), TraceLoggingString16(u16ch10));
    TraceLoggingWrite(TL_PROVIDER, "sz32", TraceLoggingString32(NULL, "NULL"), TraceLoggingString32(u32ch10));

    TraceLoggingWrite(TL_PROVIDER, "csz",
        TraceLoggingCountedString(NULL, 0, "NULL"), TraceLoggingCountedString(ch10, 5));
    TraceLoggingWrite(TL_PROVIDER, "csz8",
        TraceLoggingCountedUtf8String(NULL, 0, "NULL"), TraceLoggingCountedUtf8String(ch10, 5));
    TraceLoggingWrite(TL_PROVIDER, "cwsz",
        TraceLoggingCountedWideString(NULL, 0, "NULL"), TraceLoggingCountedWideString(wch10, 5));
    TraceLoggingWrite(TL_PROVIDER, "csz16",
        TraceLoggingCountedString16(NULL, 0, "NULL"), TraceLoggingCountedString16(u16ch10, 5));
    TraceLoggingWrite(TL_PROVIDER, "csz32",
        TraceLoggingCountedString32(NULL, 0, "NULL"), TraceLoggingCountedString32(u32ch10, 5));

    TraceLoggingWrite(TL_PROVIDER, "bin", TraceLoggingBinary(NULL, 0, "NULL"), TraceLoggingBinary(ch10, 5));

    TraceLoggingWrite(TL_PROVIDER, "ipV4", TraceLoggingIPv4Address(ipv4), TraceLoggingIPv4Address(UINT32_MAX));
    TraceLoggingWrite(TL_PROVIDER, "ipV6",
        TraceLoggingIPv6Address(&ipv6, "ipv6"),
        TraceLoggingIPv6Address("\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe", "fefe..fe00"));

    TraceLoggingWrite(TL_PROVIDER, "ai8", TraceLoggingInt8FixedArray(&i8, 1, "a1"), TraceLoggingInt8Array(&i8, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "au8", TraceLoggingUInt8FixedArray(&u8, 1, "a1"), TraceLoggingUInt8Array(&u8, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "ai16", TraceLoggingInt16FixedArray(&i16, 1, "a1"), TraceLoggingInt16Array(&i16, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "au16", TraceLoggingUInt16FixedArray(&u16, 1, "a1"), TraceLoggingUInt16Array(&u16, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "ai32", TraceLoggingInt32FixedArray(&i32, 1, "a1"), TraceLoggingInt32Array(&i32, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "au32", TraceLoggingUInt32FixedArray(&u32, 1, "a1"), TraceLoggingUInt32Array(&u32, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "ai64", TraceLoggingInt64FixedArray(&i64, 1, "a1"), TraceLoggingInt64Array(&i64, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "au64", TraceLoggingUInt64FixedArray(&u64, 1, "a1"), TraceLoggingUInt64Array(&u64, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "aiptr", TraceLoggingIntPtrFixedArray(&iptr, 1, "a1"), TraceLoggingIntPtrArray(&iptr, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "auptr", TraceLoggingUIntPtrFixedArray(&uptr, 1, "a1"), TraceLoggingUIntPtrArray(&uptr, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "aiL", TraceLoggingLongFixedArray(&iL, 1, "a1"), TraceLoggingLongArray(&iL, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "auL", TraceLoggingULongFixedArray(&uL, 1, "a1"), TraceLoggingULongArray(&uL, n1, "s"));

    TraceLoggingWrite(TL_PROVIDER, "hai8", TraceLoggingHexInt8FixedArray(&i8, 1, "a1"), TraceLoggingHexInt8Array(&i8, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hau8", TraceLoggingHexUInt8FixedArray(&u8, 1, "a1"), TraceLoggingHexUInt8Array(&u8, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hai16", TraceLoggingHexInt16FixedArray(&i16, 1, "a1"), TraceLoggingHexInt16Array(&i16, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hau16", TraceLoggingHexUInt16FixedArray(&u16, 1, "a1"), TraceLoggingHexUInt16Array(&u16, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hai32", TraceLoggingHexInt32FixedArray(&i32, 1, "a1"), TraceLoggingHexInt32Array(&i32, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hau32", TraceLoggingHexUInt32FixedArray(&u32, 1, "a1"), TraceLoggingHexUInt32Array(&u32, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hai64", TraceLoggingHexInt64FixedArray(&i64, 1, "a1"), TraceLoggingHexInt64Array(&i64, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hau64", TraceLoggingHexUInt64FixedArray(&u64, 1, "a1"), TraceLoggingHexUInt64Array(&u64, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "haiptr", TraceLoggingHexIntPtrFixedArray(&iptr, 1, "a1"), TraceLoggingHexIntPtrArray(&iptr, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hauptr", TraceLoggingHexUIntPtrFixedArray(&uptr, 1, "a1"), TraceLoggingHexUIntPtrArray(&uptr, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "haiL", TraceLoggingHexLongFixedArray(&iL, 1, "a1"), TraceLoggingHexLongArray(&iL, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "hauL", TraceLoggingHexULongFixedArray(&uL, 1, "a1"), TraceLoggingHexULongArray(&uL, n1, "s"));

    TraceLoggingWrite(TL_PROVIDER, "af32", TraceLoggingFloat32FixedArray(&f32, 1, "a1"), TraceLoggingFloat32Array(&f32, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "af64", TraceLoggingFloat64FixedArray(&f64, 1, "a1"), TraceLoggingFloat64Array(&f64, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "ab8", TraceLoggingBooleanFixedArray(&b8, 1, "a1"), TraceLoggingBooleanArray(&b8, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "ab32", TraceLoggingBoolFixedArray(&b32, 1, "a1"), TraceLoggingBoolArray(&b32, n1, "s"));

    TraceLoggingWrite(TL_PROVIDER, "ach", TraceLoggingCharFixedArray(ch10, 4, "a4"), TraceLoggingCharArray(ch10, n5, "s5"));
    TraceLoggingWrite(TL_PROVIDER, "ach16", TraceLoggingChar16FixedArray(u16ch10, 4, "a4"), TraceLoggingChar16Array(u16ch10, n5, "s5"));
    TraceLoggingWrite(TL_PROVIDER, "ach32", TraceLoggingChar32FixedArray(u32ch10, 4, "a4"), TraceLoggingChar32Array(u32ch10, n5, "s5"));
    TraceLoggingWrite(TL_PROVIDER, "awch", TraceLoggingWCharFixedArray(wch10, 4, "a4"), TraceLoggingWCharArray(wch10, n5, "s5"));

    TraceLoggingWrite(TL_PROVIDER, "aptr", TraceLoggingPointerFixedArray(&pSamplePtr, 1, "a1"), TraceLoggingPointerArray(&pSamplePtr, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "apid", TraceLoggingPidFixedArray(&i32, 1, "a1"), TraceLoggingPidArray(&i32, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "aport", TraceLoggingPortFixedArray(&u16, 1, "a1"), TraceLoggingPortArray(&u16, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "aerrno", TraceLoggingErrnoFixedArray(&i32, 1, "a1"), TraceLoggingErrnoArray(&i32, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "aft", TraceLoggingTime32FixedArray(&i32, 1, "a1"), TraceLoggingTime32Array(&i32, n1, "s"));
    TraceLoggingWrite(TL_PROVIDER, "auft", TraceLoggingTime64FixedArray(&i64, 1, "a1"), TraceLoggingTime64Array(&i64, n1, "s"));

    /* Arrays of UUIDs and of 16-byte hex values, built from packed metadata and data. */
    {
        static uint16_t const count0 = 0;
        static uint16_t const count1 = 1;
        TraceLoggingWrite(TL_PROVIDER, "ag",
            TraceLoggingPackedMetadataEx(event_field_encoding_value128 | event_field_encoding_varray_flag, event_field_format_uuid, "s0"),
            TraceLoggingPackedData(&count0, sizeof(count0)),
            TraceLoggingPackedMetadataEx(event_field_encoding_value128 | event_field_encoding_varray_flag, event_field_format_uuid, "s1"),
            TraceLoggingPackedData(&count1, sizeof(count1)),
            TraceLoggingPackedData(guid, sizeof(guid)));
        TraceLoggingWrite(TL_PROVIDER, "ahexbytes",
            TraceLoggingPackedMetadataEx(event_field_encoding_value128 | event_field_encoding_varray_flag, event_field_format_hex_bytes, "s0"),
            TraceLoggingPackedData(&count0, sizeof(count0)),
            TraceLoggingPackedMetadataEx(event_field_encoding_value128 | event_field_encoding_varray_flag, event_field_format_hex_bytes, "s1"),
            TraceLoggingPackedData(&count1, sizeof(count1)),
            TraceLoggingPackedData(guid, sizeof(guid)));
    }

    {
        static struct tl_counted8 const s8 = { 0, 4, { 'h', 'j', 'k', 'l' } };
        static struct tl_counted16 const s16 = { 0, 4, { 'h', 'j', 'k', 'l' } };
        static struct tl_counted32 const s32 = { 0, 4, { 'h', 'j', 'k', 'l' } };
        /* With a byte order mark. */
        static struct tl_counted8 const bom8 = { 0, 7, { '\xEF', '\xBB', '\xBF', 'h', 'j', 'k', 'l' } };
        static struct tl_counted16 const bom16 = { 0, 5, { 0xFEFF, 'h', 'j', 'k', 'l' } };
        static struct tl_counted32 const bom32 = { 0, 5, { 0xFEFF, 'h', 'j', 'k', 'l' } };
        /* With a byte-swapped byte order mark (the text is big-endian). */
        static struct tl_counted8 const xbom8 = { 0, 7, { '\xEF', '\xBB', '\xBF', 'h', 'j', 'k', 'l' } };
        static struct tl_counted16 const xbom16 = { 0, 5, { 0xFFFE, 0x6800, 0x6a00, 0x6b00, 0x6c00 } };
        static struct tl_counted32 const xbom32 = { 0, 5, { 0xFFFE0000, 0x68000000, 0x6a000000, 0x6b000000, 0x6c000000 } };
        static char const strings3[] = "ABC\0\0XYZ";
        static uint16_t const n3 = 3;
        static uint16_t const n0 = 0;

        TraceLoggingWrite(TL_PROVIDER, "Default",
            TraceLoggingPackedField(&u8, 1, event_field_encoding_value8, "V8"),
            TraceLoggingPackedField(&u16, 2, event_field_encoding_value16, "V16"),
            TraceLoggingPackedField(&u32, 4, event_field_encoding_value32, "V32"),
            TraceLoggingPackedField(&u64, 8, event_field_encoding_value64, "V64"),
            TraceLoggingPackedField(&guid, 16, event_field_encoding_value128, "V128"),
            TraceLoggingPackedField(s8.text, 5, event_field_encoding_zstring_char8, "NChar8"),
            TraceLoggingPackedField(s16.text, 10, event_field_encoding_zstring_char16, "NChar16"),
            TraceLoggingPackedField(s32.text, 20, event_field_encoding_zstring_char32, "NChar32"),
            TraceLoggingPackedField(&s8.len, 6, event_field_encoding_string_length16_char8, "LChar8"),
            TraceLoggingPackedField(&s16.len, 10, event_field_encoding_string_length16_char16, "LChar16"),
            TraceLoggingPackedField(&s32.len, 18, event_field_encoding_string_length16_char32, "LChar32"));

#define TL_SIX_STRINGS(fmt, n8, n16, n32) \
            TraceLoggingPackedFieldEx(n8.text, n8.len + 1, event_field_encoding_zstring_char8, fmt, "NChar8"), \
            TraceLoggingPackedFieldEx(n16.text, (n16.len + 1) * 2, event_field_encoding_zstring_char16, fmt, "NChar16"), \
            TraceLoggingPackedFieldEx(n32.text, (n32.len + 1) * 4, event_field_encoding_zstring_char32, fmt, "NChar32"), \
            TraceLoggingPackedFieldEx(&n8.len, 2 + n8.len, event_field_encoding_string_length16_char8, fmt, "LChar8"), \
            TraceLoggingPackedFieldEx(&n16.len, 2 + n16.len * 2, event_field_encoding_string_length16_char16, fmt, "LChar16"), \
            TraceLoggingPackedFieldEx(&n32.len, 2 + n32.len * 4, event_field_encoding_string_length16_char32, fmt, "LChar32")

        TraceLoggingWrite(TL_PROVIDER, "HexBytes",
            TraceLoggingPackedFieldEx(&guid, 1, event_field_encoding_value8, event_field_format_hex_bytes, "V8"),
            TraceLoggingPackedFieldEx(&guid, 2, event_field_encoding_value16, event_field_format_hex_bytes, "V16"),
            TraceLoggingPackedFieldEx(&guid, 4, event_field_encoding_value32, event_field_format_hex_bytes, "V32"),
            TraceLoggingPackedFieldEx(&guid, 8, event_field_encoding_value64, event_field_format_hex_bytes, "V64"),
            TraceLoggingPackedFieldEx(&guid, 16, event_field_encoding_value128, event_field_format_hex_bytes, "V128"),
            TL_SIX_STRINGS(event_field_format_hex_bytes, s8, s16, s32));

        {
            uint16_t const false16 = 0;
            uint16_t const true16 = 1;
            TraceLoggingWrite(TL_PROVIDER, "Bool16",
                TraceLoggingPackedFieldEx(&false16, 2, event_field_encoding_value16, event_field_format_boolean, "false16"),
                TraceLoggingPackedFieldEx(&true16, 2, event_field_encoding_value16, event_field_format_boolean, "true16"),
                TraceLoggingPackedFieldEx(&u16, 2, event_field_encoding_value16, event_field_format_boolean, "u16"),
                TraceLoggingPackedFieldEx(&i16, 2, event_field_encoding_value16, event_field_format_boolean, "i16"));
        }

        TraceLoggingWrite(TL_PROVIDER, "StringUtf", TL_SIX_STRINGS(event_field_format_string_utf, s8, s16, s32));
        TraceLoggingWrite(TL_PROVIDER, "StringUtfBom-NoBom", TL_SIX_STRINGS(event_field_format_string_utf_bom, s8, s16, s32));
        TraceLoggingWrite(TL_PROVIDER, "StringXml-NoBom", TL_SIX_STRINGS(event_field_format_string_xml, s8, s16, s32));
        TraceLoggingWrite(TL_PROVIDER, "StringJson-NoBom", TL_SIX_STRINGS(event_field_format_string_json, s8, s16, s32));
        TraceLoggingWrite(TL_PROVIDER, "StringUtfBom-Bom", TL_SIX_STRINGS(event_field_format_string_utf_bom, bom8, bom16, bom32));
        TraceLoggingWrite(TL_PROVIDER, "StringXml-Bom", TL_SIX_STRINGS(event_field_format_string_xml, bom8, bom16, bom32));
        TraceLoggingWrite(TL_PROVIDER, "StringJson-Bom", TL_SIX_STRINGS(event_field_format_string_json, bom8, bom16, bom32));
        TraceLoggingWrite(TL_PROVIDER, "StringUtfBom-XBom", TL_SIX_STRINGS(event_field_format_string_utf_bom, xbom8, xbom16, xbom32));
        TraceLoggingWrite(TL_PROVIDER, "StringXml-XBom", TL_SIX_STRINGS(event_field_format_string_xml, xbom8, xbom16, xbom32));
        TraceLoggingWrite(TL_PROVIDER, "StringJson-XBom", TL_SIX_STRINGS(event_field_format_string_json, xbom8, xbom16, xbom32));
#undef TL_SIX_STRINGS

        /* Data before, between and after metadata; a struct, and an array of 3 structs. */
        TraceLoggingWrite(TL_PROVIDER, "Packed",
            TraceLoggingInt32(5, "five"),
            TraceLoggingPackedStruct(1, "Struct1"),
                TraceLoggingPackedData(s8.text, 5),
                TraceLoggingPackedMetadata(event_field_encoding_zstring_char8, "NChar8"),
            TraceLoggingPackedStructArray(1, "StructArray"),
                TraceLoggingPackedData(&n3, 2),
                TraceLoggingPackedStruct(2, "Struct2"),
                    TraceLoggingPackedMetadataEx(event_field_encoding_value8, event_field_format_string8, "K"),
                    TraceLoggingPackedMetadataEx(event_field_encoding_zstring_char16, event_field_format_hex_bytes, "NChar16"),
                    TraceLoggingPackedData("A", 1),
                    TraceLoggingPackedData(s16.text, 10),
                    TraceLoggingPackedData("B", 1),
                    TraceLoggingPackedData(bom16.text, 12),
                    TraceLoggingPackedData("C", 1),
                    TraceLoggingPackedData(xbom16.text, 12),
            TraceLoggingInt32(5, "five"));
        TraceLoggingWrite(TL_PROVIDER, "Packed0",
            TraceLoggingInt32(5, "five"),
            TraceLoggingPackedStruct(1, "Struct1"),
                TraceLoggingPackedData(s8.text, 5),
                TraceLoggingPackedMetadata(event_field_encoding_zstring_char8, "NChar8"),
            TraceLoggingPackedStructArray(1, "StructArray"),
                TraceLoggingPackedData(&n0, 2),
                TraceLoggingPackedStruct(2, "Struct2"),
                    TraceLoggingPackedMetadataEx(event_field_encoding_value8, event_field_format_string8, "K"),
                    TraceLoggingPackedMetadataEx(event_field_encoding_zstring_char16, event_field_format_hex_bytes, "NChar16"),
            TraceLoggingInt32(5, "five"));
        /* An array of 3 nul-terminated strings. */
        TraceLoggingWrite(TL_PROVIDER, "PackedComplexArray",
            TraceLoggingInt32(5, "five"),
            TraceLoggingPackedData(&n3, 2),
            TraceLoggingPackedField(strings3, sizeof(strings3),
                event_field_encoding_zstring_char8 | event_field_encoding_varray_flag, "MyStrings3"),
            TraceLoggingInt32(5, "five"));
    }

    return failures;
}

#endif /* TL_EVENTS_H */
