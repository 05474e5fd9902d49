/*
 * Test helpers for the core C tests: build EventHeader metadata extensions
 * and payloads by hand, following the format description (docs/format.md §5):
 *
 *   eventheader_extension { size, kind = metadata }
 *   "event_name\0"
 *   per field: "field_name\0", u8 encoding, [u8 format if encoding has the
 *   chain flag], [u16 tag if format has the chain flag], [u16 array_length
 *   if encoding has the carray flag].
 *
 * Everything here is header-only and for tests: failures print the location
 * and exit(1).
 */
#ifndef CORE_METABUILD_H
#define CORE_METABUILD_H

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"

/* ---- metadata ---------------------------------------------------------- */

#define MB_CAPACITY 2048

typedef struct mb {
    union {
        eventheader_extension ext; /* forces alignment of the block */
        unsigned char bytes[MB_CAPACITY];
    } u;
    size_t len;
} mb;

static inline void mb_raw(mb* m, void const* p, size_t n)
{
    CHECK(m->len + n <= MB_CAPACITY);
    memcpy(m->u.bytes + m->len, p, n);
    m->len += n;
}

static inline void mb_u8(mb* m, uint8_t v) { mb_raw(m, &v, 1); }

static inline void mb_u16(mb* m, uint16_t v)
{
    unsigned char b[2] = { (unsigned char)(v & 0xff), (unsigned char)(v >> 8) };
    mb_raw(m, b, 2);
}

static inline void mb_str(mb* m, char const* s) { mb_raw(m, s, strlen(s) + 1); }

/* Starts a metadata block: extension header (filled in by mb_end), then the
   event name (which may include ";attr=value" attributes). */
static inline void mb_begin(mb* m, char const* event_name)
{
    m->len = sizeof(eventheader_extension);
    mb_str(m, event_name);
}

/* General field definition: encoding may include the carray/varray flags
   (not the chain flag); format < 0: no format byte; tag < 0: no tag (a tag
   needs a format); count: the element count, written only with carray. */
static inline void mb_def(mb* m, char const* name, int encoding, int format, long tag, uint16_t count)
{
    CHECK((encoding & event_field_encoding_chain_flag) == 0);
    CHECK(format < 0 || (format & event_field_format_chain_flag) == 0);
    CHECK(tag < 0 || format >= 0);
    mb_str(m, name);
    mb_u8(m, (uint8_t)(encoding | (format >= 0 ? event_field_encoding_chain_flag : 0)));
    if (format >= 0) {
        mb_u8(m, (uint8_t)(format | (tag >= 0 ? event_field_format_chain_flag : 0)));
    }
    if (tag >= 0) {
        mb_u16(m, (uint16_t)tag);
    }
    if (encoding & event_field_encoding_carray_flag) {
        mb_u16(m, count);
    }
}

/* Field with no format byte. */
static inline void mb_field(mb* m, char const* name, int encoding)
{
    mb_def(m, name, encoding, -1, -1, 0);
}

/* Field with a format byte (sets the encoding's chain flag). */
static inline void mb_field_f(mb* m, char const* name, int encoding, int format)
{
    mb_def(m, name, encoding, format, -1, 0);
}

/* Field with a format byte and a field tag (sets both chain flags). */
static inline void mb_field_ft(mb* m, char const* name, int encoding, int format, uint16_t tag)
{
    mb_def(m, name, encoding, format, tag, 0);
}

/* Constant-length array field (carray flag, count in the metadata). format < 0: none. */
static inline void mb_carray(mb* m, char const* name, int encoding, int format, uint16_t count)
{
    mb_def(m, name, encoding | event_field_encoding_carray_flag, format, -1, count);
}

/* Variable-length array field (varray flag, count in the payload). format < 0: none. */
static inline void mb_varray(mb* m, char const* name, int encoding, int format)
{
    mb_def(m, name, encoding | event_field_encoding_varray_flag, format, -1, 0);
}

/* Struct field grouping the next `members` fields. */
static inline void mb_struct(mb* m, char const* name, int members)
{
    CHECK(members >= 1 && members <= 127);
    mb_field_f(m, name, event_field_encoding_struct, members);
}

/* Finishes the block and returns it as an extension (kind metadata). */
static inline eventheader_extension const* mb_end(mb* m)
{
    CHECK(m->len - sizeof(eventheader_extension) <= 0xffff);
    m->u.ext.size = (uint16_t)(m->len - sizeof(eventheader_extension));
    m->u.ext.kind = eventheader_extension_kind_metadata;
    return &m->u.ext;
}

/* ---- payload ----------------------------------------------------------- */

#define PB_CAPACITY 8192

typedef struct pb {
    unsigned char bytes[PB_CAPACITY];
    size_t len;
} pb;

static inline void pb_raw(pb* p, void const* data, size_t n)
{
    CHECK(p->len + n <= PB_CAPACITY);
    if (n) {
        memcpy(p->bytes + p->len, data, n);
    }
    p->len += n;
}

static inline void pb_u8(pb* p, uint8_t v) { pb_raw(p, &v, 1); }
static inline void pb_u16(pb* p, uint16_t v) { pb_raw(p, &v, 2); }
static inline void pb_u32(pb* p, uint32_t v) { pb_raw(p, &v, 4); }
static inline void pb_u64(pb* p, uint64_t v) { pb_raw(p, &v, 8); }
static inline void pb_f32(pb* p, float v) { pb_raw(p, &v, 4); }
static inline void pb_f64(pb* p, double v) { pb_raw(p, &v, 8); }

static inline void pb_init(pb* p) { p->len = 0; }

/* An unsigned value of `size` bytes (1, 2, 4 or 8), native byte order. */
static inline void pb_uint(pb* p, uint64_t v, size_t size)
{
    switch (size) {
    case 1: pb_u8(p, (uint8_t)v); break;
    case 2: pb_u16(p, (uint16_t)v); break;
    case 4: pb_u32(p, (uint32_t)v); break;
    case 8: pb_u64(p, v); break;
    default: CHECK(0);
    }
}

/* `n` code units of `size` bytes each. */
static inline void pb_units(pb* p, uint32_t const* units, size_t n, size_t size)
{
    for (size_t i = 0; i < n; i += 1) {
        pb_uint(p, units[i], size);
    }
}

/* nul-terminated 8-bit string, including the nul. */
static inline void pb_sz(pb* p, char const* s) { pb_raw(p, s, strlen(s) + 1); }

/* nul-terminated 16-bit string from ASCII/Latin-1 text (or explicit units). */
static inline void pb_sz16(pb* p, char const* s)
{
    for (; *s; s += 1) {
        pb_u16(p, (uint16_t)(unsigned char)*s);
    }
    pb_u16(p, 0);
}

static inline void pb_sz32(pb* p, char const* s)
{
    for (; *s; s += 1) {
        pb_u32(p, (uint32_t)(unsigned char)*s);
    }
    pb_u32(p, 0);
}

/* Counted strings: u16 element count, then the elements (no nul). */
static inline void pb_cs8(pb* p, char const* s, uint16_t n)
{
    pb_u16(p, n);
    pb_raw(p, s, n);
}

static inline void pb_cs16(pb* p, char const* s, uint16_t n)
{
    pb_u16(p, n);
    for (uint16_t i = 0; i < n; i += 1) {
        pb_u16(p, (uint16_t)(unsigned char)s[i]);
    }
}

static inline void pb_cs32(pb* p, char const* s, uint16_t n)
{
    pb_u16(p, n);
    for (uint16_t i = 0; i < n; i += 1) {
        pb_u32(p, (uint32_t)(unsigned char)s[i]);
    }
}

/* ---- writing ----------------------------------------------------------- */

/* Writes an event through eventheader_write with the payload split over
   `pieces` vectors (1..4; 0 = no payload vector at all). Returns its result. */
static inline int write_payload(eventheader_tracepoint const* ev, void const* activity_id,
                                void const* related_id, pb const* payload, unsigned pieces)
{
    struct iovec vecs[3 + 4];
    unsigned n = ev->metadata ? EVENTHEADER_PREFIX_DATAVEC_COUNT
                              : EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA;
    memset(vecs, 0, sizeof(vecs));
    CHECK(pieces <= 4);
    if (payload && pieces) {
        size_t pos = 0;
        for (unsigned i = 0; i < pieces; i += 1) {
            size_t const end = i + 1 == pieces ? payload->len : payload->len * (i + 1) / pieces;
            vecs[n].iov_base = (void*)(payload->bytes + pos);
            vecs[n].iov_len = end - pos;
            pos = end;
            n += 1;
        }
    }
    return eventheader_write(ev, activity_id, related_id, n, vecs);
}

#endif /* CORE_METABUILD_H */
