/*
Counted fields at and over the format's 16-bit limit (docs/format.md §5.3).
Run in capture mode: each write's result is printed as "NAME RESULT"; the test
(main.rs) checks them and the capture. The largest counts that
fit (65535) are written whole; one more, 70000 or a negative count refuses
the event with ERANGE and writes nothing, where a wrapped count would
describe other bytes than were written (70000 would go out as 4464).
Compiled as C and as C++.
*/
#include <eventheader/TraceLoggingProvider.h>
#include <stdio.h>
#include <stdlib.h>

TRACELOGGING_DEFINE_PROVIDER(
    OversizeProvider,
    "TlOversize",
    (0x2d3c4b5a, 0x6978, 0x5a4b, 0x8c, 0x9d, 0xae, 0xbf, 0xc0, 0xd1, 0xe2, 0xf3));

/* A Windows-style counted buffer with a size_t length (TraceLoggingBinaryBuffer). */
struct big_buffer {
    size_t Length;
    unsigned char const* Buffer;
};

static void report(char const* name, int result)
{
    printf("%s %d\n", name, result);
}

int main(void)
{
    size_t const units = 70000;
    unsigned char* const bytes = (unsigned char*)calloc(units, 16);
    char16_t* const chars16 = (char16_t*)calloc(units, sizeof(char16_t));
    int32_t* const ints = (int32_t*)calloc(units, sizeof(int32_t));
    uint64_t* const times = (uint64_t*)calloc(units, sizeof(uint64_t));
    int const minus_one = -1;
    struct big_buffer buffer;
    size_t i;
    int err;
    if (bytes == NULL || chars16 == NULL || ints == NULL || times == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (i = 0; i != units * 16; i += 1) {
        bytes[i] = (unsigned char)(i * 7u);
    }
    buffer.Buffer = bytes;
    err = TraceLoggingRegister(OversizeProvider);
    if (err != 0) {
        fprintf(stderr, "register: %d\n", err);
        return 1;
    }

    /* At the limit: written whole. */
    report("Binary65535", TraceLoggingWrite(OversizeProvider, "Binary65535",
        TraceLoggingBinary(bytes, 65535, "b")));
    report("UInt8Array65535", TraceLoggingWrite(OversizeProvider, "UInt8Array65535",
        TraceLoggingUInt8Array(bytes, 65535, "a")));

    /* Over it: refused, nothing written. */
    report("Binary65536", TraceLoggingWrite(OversizeProvider, "Binary65536",
        TraceLoggingBinary(bytes, 65536, "b")));
    report("Binary70000", TraceLoggingWrite(OversizeProvider, "Binary70000",
        TraceLoggingBinary(bytes, units, "b")));
    report("CountedString70000", TraceLoggingWrite(OversizeProvider, "CountedString70000",
        TraceLoggingCountedString((char const*)bytes, units, "s")));
    report("CountedString16_65536", TraceLoggingWrite(OversizeProvider, "CountedString16_65536",
        TraceLoggingCountedString16(chars16, 65536, "s")));
    report("Int32Array70000", TraceLoggingWrite(OversizeProvider, "Int32Array70000",
        TraceLoggingInt32Array(ints, units, "a")));
    report("UInt8ArrayMinus1", TraceLoggingWrite(OversizeProvider, "UInt8ArrayMinus1",
        TraceLoggingUInt8Array(bytes, minus_one, "a")));
    report("FileTimeArray70000", TraceLoggingWrite(OversizeProvider, "FileTimeArray70000",
        TraceLoggingFileTimeArray(times, units, "t")));
    report("GuidArray70000", TraceLoggingWrite(OversizeProvider, "GuidArray70000",
        TraceLoggingGuidArray(bytes, units, "g")));
    buffer.Length = units;
    report("BinaryBuffer70000", TraceLoggingWrite(OversizeProvider, "BinaryBuffer70000",
        TraceLoggingBinaryBuffer(&buffer, struct big_buffer, "b")));
    report("SmallThenOversize", TraceLoggingWrite(OversizeProvider, "SmallThenOversize",
        TraceLoggingInt32(7, "small"), TraceLoggingBinary(bytes, units, "b")));
    report("ActivityOversize", TraceLoggingWriteActivity(OversizeProvider, "ActivityOversize",
        bytes, NULL, TraceLoggingBinary(bytes, units, "b")));

    /* The provider still works. */
    buffer.Length = 3;
    report("After", TraceLoggingWrite(OversizeProvider, "After",
        TraceLoggingBinaryBuffer(&buffer, struct big_buffer, "b")));

    TraceLoggingUnregister(OversizeProvider);
    free(times);
    free(ints);
    free(chars16);
    free(bytes);
    return 0;
}
