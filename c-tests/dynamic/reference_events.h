/*
The 114 runtime-defined events of the reference implementation's test suite
(provider TestProviderDyn, tracepoint TestProviderDyn_L5K1, in
tests/data/reference/EventHeaderInterceptorLE64.dat): for each of the
19 field formats, one event per value size 0, 1, 2, 4, 8 and 16 bytes. The
event is named after the format and has four fields, all with that format:
  b<size>one  binary blob holding the number 1 in <size> bytes
  s<size>one  counted 8-bit string holding the same bytes
  b<size>big  binary blob holding 0xF0F1... in <size> bytes
  s<size>big  counted 8-bit string holding the same bytes
Shared by dyn_reference.c (C API) and dyn_reference.cpp (C++ API).
*/
#ifndef DYN_REFERENCE_EVENTS_H
#define DYN_REFERENCE_EVENTS_H

#include <eventheader/eventheader.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "formats.h"

#define REF_PROVIDER "TestProviderDyn"
#define REF_TRACEPOINT "TestProviderDyn_L5K1"
#define REF_EVENT_COUNT 114

static unsigned const ref_sizes[] = { 0, 1, 2, 4, 8, 16 };

#define REF_SIZE_COUNT (sizeof(ref_sizes) / sizeof(ref_sizes[0]))

/*
The "one" and "big" values of a size: for 1 to 8 bytes the integers 1 and
0xF0F1... in the machine's byte order; for 16 bytes, 15 zero bytes then 1,
and the bytes F0 F1 ... FF in that order.
*/
static void ref_values(unsigned size, unsigned char one[16], unsigned char big[16])
{
    static unsigned char const one16[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
    unsigned i;
    memset(one, 0, 16);
    memset(big, 0, 16);
    if (size == 16) {
        memcpy(one, one16, 16);
        for (i = 0; i < 16; i++)
            big[i] = (unsigned char)(0xF0 + i);
        return;
    }
    if (size != 0) {
        uint64_t const one_int = 1;
        uint64_t big_int = 0;
        uint16_t const probe = 1;
        unsigned char first;
        unsigned skip;
        for (i = 0; i < size; i++)
            big_int = (big_int << 8) | (0xF0 + i);
        /* The `size`-byte values 1 and big_int in the machine's byte order:
           the first `size` bytes of a 64-bit integer on a little-endian
           machine (like the oracle's), the last ones on a big-endian one. */
        memcpy(&first, &probe, 1);
        skip = first ? 0 : 8 - size;
        memcpy(one, (unsigned char const*)&one_int + skip, size);
        memcpy(big, (unsigned char const*)&big_int + skip, size);
    }
}

/* Field names: b<size>one, s<size>one, b<size>big, s<size>big. */
static void ref_field_names(unsigned size, char names[4][16])
{
    snprintf(names[0], 16, "b%uone", size);
    snprintf(names[1], 16, "s%uone", size);
    snprintf(names[2], 16, "b%ubig", size);
    snprintf(names[3], 16, "s%ubig", size);
}

#endif /* DYN_REFERENCE_EVENTS_H */
