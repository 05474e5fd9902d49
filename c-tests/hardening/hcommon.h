/*
 * Shared helpers of the hardening tests (c-tests/hardening/): checks that
 * print the location and exit(1), a monotonic clock, and a fixed metadata
 * block for events with three u32 fields, so that every record the tests
 * write decodes as EventHeader (docs/format.md §5):
 *
 *   eventheader_extension { size, kind = metadata }
 *   "<event name>\0"
 *   "a\0" value32 "b\0" value32 "c\0" value32
 *
 * Payload: u32 a, u32 b, u32 c (native endianness).
 */
#ifndef HARDENING_HCOMMON_H
#define HARDENING_HCOMMON_H

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

#include "../check.h"

static inline long long h_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Metadata block of an event with three u32 fields a, b, c. */
typedef struct h_meta {
    union {
        eventheader_extension ext; /* alignment */
        unsigned char bytes[4 + 64 + 3 * 3];
    } u;
} h_meta;

/* Fills `m` for event `name` (at most 63 bytes). */
static inline void h_meta_init(h_meta* m, char const* name)
{
    static char const fields[] = { 'a', 0, event_field_encoding_value32,
                                   'b', 0, event_field_encoding_value32,
                                   'c', 0, event_field_encoding_value32 };
    size_t const name_len = strlen(name) + 1;
    CHECK(name_len <= 64);
    memcpy(m->u.bytes + 4, name, name_len);
    memcpy(m->u.bytes + 4 + name_len, fields, sizeof(fields));
    m->u.ext.size = (uint16_t)(name_len + sizeof(fields));
    m->u.ext.kind = eventheader_extension_kind_metadata;
}

/* An event of `provider` with `meta`, level and keyword as given. */
static inline eventheader_tracepoint h_event(tracepoint_state* state, h_meta const* meta,
                                             uint8_t level, uint64_t keyword)
{
    eventheader_tracepoint ev;
    memset(&ev, 0, sizeof(ev));
    ev.state = state;
    ev.metadata = meta ? &meta->u.ext : NULL;
    ev.header.flags = eventheader_flag_default;
    ev.header.version = 0;
    ev.header.id = 0;
    ev.header.tag = 0;
    ev.header.opcode = event_opcode_info;
    ev.header.level = level;
    ev.keyword = keyword;
    return ev;
}

/* Writes a, b, c as the payload of `ev` (which has metadata). */
static inline int h_write3(eventheader_tracepoint const* ev, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t payload[3] = { a, b, c };
    struct iovec vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT + 1];
    memset(vecs, 0, sizeof(vecs));
    vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT].iov_base = payload;
    vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT].iov_len = sizeof(payload);
    return eventheader_write(ev, NULL, NULL, EVENTHEADER_PREFIX_DATAVEC_COUNT + 1, vecs);
}

#endif /* HARDENING_HCOMMON_H */
