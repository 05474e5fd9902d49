/*
The field-array exports (ehd_builder_add_fields, ehd_builder_write_fields)
against the per-field functions: for every case, the same event built field
by field (builder A) and from an array of ehd_field (builder B) must have the
same metadata and payload bytes (read through the builder layout the header
declares) and the same result; each case is then written twice, by
ehd_builder_write from A and by ehd_builder_write_fields into B, so the
capture holds equal pairs (main.rs compares them). Then the errors:
NULL and invalid arguments, latched errors, the write's order of checks.

Built twice: with the header's inline fast paths and with EHD_NO_INLINE (the
per-field side through the exports alone). Prints "pairs N"; exit status 0
if every check passed.
*/
#include <eventheader/eventheader-dynamic.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../check.h"

#define N EHD_NTS

static unsigned g_pairs;

/* The builder's bytes, through the layout eventheader-dynamic.h declares. */
static _ehd_builder_state const* state(ehd_builder* b)
{
    return (_ehd_builder_state const*)(void const*)b;
}

static void check_same(char const* what, ehd_builder* a, ehd_builder* b)
{
    _ehd_builder_state const* sa = state(a);
    _ehd_builder_state const* sb = state(b);
    if (sa->error != sb->error || sa->meta.len != sb->meta.len || sa->data.len != sb->data.len ||
        memcmp(sa->meta.ptr, sb->meta.ptr, sa->meta.len) != 0 ||
        memcmp(sa->data.ptr, sb->data.ptr, sa->data.len) != 0) {
        fprintf(stderr,
                "dyn_field_array: %s: per-field and array differ (error %d/%d, meta %zu/%zu, data %zu/%zu)\n",
                what, sa->error, sb->error, sa->meta.len, sb->meta.len, sa->data.len, sb->data.len);
        exit(1);
    }
}

/* One case: `fields` built field by field into `a` by `per_field`, and from
   the array into `b`; both results compared, then both events written. */
typedef void (*per_field_fn)(ehd_builder* b);

static void run_case(char const* name, ehd_builder* a, ehd_builder* b, ehd_event_set* set,
                     per_field_fn per_field, ehd_field const* fields, size_t count)
{
    int ra, rb;
    ehd_builder_reset(a, name, N, 0);
    per_field(a);
    ra = ehd_builder_error(a);
    ehd_builder_reset(b, name, N, 0);
    rb = ehd_builder_add_fields(b, fields, count);
    CHECK_EQ_INT(ra, rb);
    check_same(name, a, b);
    CHECK_EQ_INT(0, ehd_builder_write(a, set, NULL, NULL));
    /* The one-call export: reset, the fields, the write; the builder keeps the event. */
    CHECK_EQ_INT(0, ehd_builder_write_fields(b, set, name, N, fields, count, NULL, NULL));
    check_same(name, a, b);
    g_pairs++;
}

static int32_t const i32 = -7;
static uint64_t const u64 = 0x1122334455667788u;
static double const f64 = 2.5;
static uint8_t const u8 = 0xab;
static uint16_t const u16 = 0xbeef;
static unsigned char const u128[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static int32_t const arr[4] = { 1, -2, 3, -4 };
static char const zwith[] = { 'a', 'b', 0, 'c', 'd' };
static char g_long[3000];
static char g_huge[65536];

static void scalars(ehd_builder* b)
{
    ehd_builder_add_value(b, "i32", N, event_field_encoding_value32, event_field_format_signed_int, 0, &i32);
    ehd_builder_add_value(b, "u64", 3, event_field_encoding_value64, 0, 0, &u64);
    ehd_builder_add_value(b, "a name of sixteen", 16, event_field_encoding_value64, event_field_format_float, 0, &f64);
    ehd_builder_add_value(b, "tagged", N, event_field_encoding_value8, event_field_format_hex_int, 0x1234, &u8);
    ehd_builder_add_value(b, "", 0, event_field_encoding_value16, 0, 7, &u16);
    ehd_builder_add_value(b, "u128", N, event_field_encoding_value128, event_field_format_uuid, 0, u128);
    ehd_builder_add_value(b, "a field name longer than sixteen bytes", N, event_field_encoding_value32, 0, 0, &i32);
}

static ehd_field const scalar_fields[] = {
    { "i32", N, &i32, 0, event_field_encoding_value32, event_field_format_signed_int, 0 },
    { "u64", 3, &u64, 0, event_field_encoding_value64, 0, 0 },
    { "a name of sixteen", 16, &f64, 0, event_field_encoding_value64, event_field_format_float, 0 },
    { "tagged", N, &u8, 99 /* ignored */, event_field_encoding_value8, event_field_format_hex_int, 0x1234 },
    { NULL, 0, &u16, 0, event_field_encoding_value16, 0, 7 },
    { "u128", N, u128, 0, event_field_encoding_value128, event_field_format_uuid, 0 },
    { "a field name longer than sixteen bytes", N, &i32, 0, event_field_encoding_value32, 0, 0 },
};

static void strings(ehd_builder* b)
{
    ehd_builder_add_string(b, "counted", N, event_field_encoding_string_length16_char8, 0, 0, "hello", 5);
    ehd_builder_add_string(b, "nts", N, event_field_encoding_string_length16_char8, event_field_format_string_json, 0, "{\"a\":1}", N);
    ehd_builder_add_string(b, "z", N, event_field_encoding_zstring_char8, 0, 0, zwith, sizeof zwith);
    ehd_builder_add_string(b, "znts", N, event_field_encoding_zstring_char8, 0, 3, "zero-terminated", N);
    ehd_builder_add_string(b, "empty", N, event_field_encoding_string_length16_char8, 0, 0, NULL, 0);
    ehd_builder_add_string(b, "bin", N, event_field_encoding_binary_length16_char8, 0, 0, zwith, sizeof zwith);
    ehd_builder_add_string(b, "u16", N, event_field_encoding_string_length16_char16, 0, 0, u"wide", 4);
    ehd_builder_add_string(b, "z32", N, event_field_encoding_zstring_char32, 0, 0, U"wider", N);
}

static ehd_field const string_fields[] = {
    { "counted", N, "hello", 5, event_field_encoding_string_length16_char8, 0, 0 },
    { "nts", N, "{\"a\":1}", N, event_field_encoding_string_length16_char8, event_field_format_string_json, 0 },
    { "z", N, zwith, sizeof zwith, event_field_encoding_zstring_char8, 0, 0 },
    { "znts", N, "zero-terminated", N, event_field_encoding_zstring_char8, 0, 3 },
    { "empty", N, NULL, 0, event_field_encoding_string_length16_char8, 0, 0 },
    { "bin", N, zwith, sizeof zwith, event_field_encoding_binary_length16_char8, 0, 0 },
    { "u16", N, u"wide", 4, event_field_encoding_string_length16_char16, 0, 0 },
    { "z32", N, U"wider", N, event_field_encoding_zstring_char32, 0, 0 },
};

static void structs_and_arrays(ehd_builder* b)
{
    ehd_builder_add_struct(b, "outer", N, 2, 0, NULL);
    ehd_builder_add_values(b, "varray", N, event_field_encoding_value32, event_field_format_signed_int, 0, arr, 4);
    ehd_builder_add_struct(b, "inner", N, 1, 5, NULL);
    ehd_builder_add_values(b, "carray", N, event_field_encoding_value32 | event_field_encoding_carray_flag, 0, 0, arr, 3);
    ehd_builder_add_values(b, "empty", N, event_field_encoding_value64 | event_field_encoding_varray_flag, 0, 0, NULL, 0);
}

static ehd_field const struct_fields[] = {
    { "outer", N, NULL, 2, event_field_encoding_struct, 0, 0 },
    { "varray", N, arr, 4, event_field_encoding_value32 | event_field_encoding_varray_flag, event_field_format_signed_int, 0 },
    { "inner", N, NULL, 1, event_field_encoding_struct, 0, 5 },
    { "carray", N, arr, 3, event_field_encoding_value32 | event_field_encoding_carray_flag, 0, 0 },
    { "empty", N, NULL, 0, event_field_encoding_value64 | event_field_encoding_varray_flag, 0, 0 },
};

/* Past the builder's first storage: the fields grow the buffers. */
static void growing(ehd_builder* b)
{
    unsigned i;
    for (i = 0; i < 3; i++) {
        ehd_builder_add_string(b, "long", N, event_field_encoding_string_length16_char8, 0, 0, g_long, sizeof g_long);
        ehd_builder_add_value(b, "after", N, event_field_encoding_value32, 0, 0, &i32);
    }
}

static ehd_field const growing_fields[] = {
    { "long", N, g_long, sizeof g_long, event_field_encoding_string_length16_char8, 0, 0 },
    { "after", N, &i32, 0, event_field_encoding_value32, 0, 0 },
    { "long", N, g_long, sizeof g_long, event_field_encoding_string_length16_char8, 0, 0 },
    { "after", N, &i32, 0, event_field_encoding_value32, 0, 0 },
    { "long", N, g_long, sizeof g_long, event_field_encoding_string_length16_char8, 0, 0 },
    { "after", N, &i32, 0, event_field_encoding_value32, 0, 0 },
};

static void none(ehd_builder* b)
{
    (void)b;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* An invalid field after a valid one: the error of its per-field function,
   latched; the fields before it stay. */
static void check_error(ehd_builder* b, int expected, ehd_field bad)
{
    ehd_field fields[2];
    size_t meta;
    fields[0] = scalar_fields[0];
    fields[1] = bad;
    ehd_builder_reset(b, "Bad", N, 0);
    CHECK_EQ_INT(expected, ehd_builder_add_fields(b, fields, 2));
    CHECK_EQ_INT(expected, ehd_builder_error(b));
    /* Latched: the next call returns it and adds nothing. */
    meta = state(b)->meta.len;
    CHECK_EQ_INT(expected, ehd_builder_add_fields(b, scalar_fields, 1));
    CHECK_EQ_INT(meta, state(b)->meta.len);
}

/* The array's one-pass appends against the per-field functions, field by
   field: every name and string length from 0 to 40 (the short copies' size
   classes and the longer copies), with a NUL at each place or none; every
   kind of metadata tail (format, tag); the counted string's 65535. Each
   combination is built both ways and compared (bytes and errors). */
static void compare_fields(char const* what, ehd_builder* a, ehd_builder* b, ehd_field const* fields,
                           size_t count)
{
    size_t i;
    int ra, rb;
    ehd_builder_reset(a, "Cmp", N, 0);
    for (i = 0; i < count; i++) {
        ehd_field const* f = &fields[i];
        if (f->encoding == event_field_encoding_struct) {
            ehd_builder_add_struct(a, f->name, f->name_len, (uint8_t)f->count, f->tag, NULL);
        } else if (f->encoding <= event_field_encoding_value128) {
            ehd_builder_add_value(a, f->name, f->name_len, f->encoding, f->format, f->tag, f->value);
        } else {
            ehd_builder_add_string(a, f->name, f->name_len, f->encoding, f->format, f->tag, f->value,
                                   f->count);
        }
    }
    ra = ehd_builder_error(a);
    ehd_builder_reset(b, "Cmp", N, 0);
    rb = ehd_builder_add_fields(b, fields, count);
    if (ra != rb) {
        fprintf(stderr, "dyn_field_array: %s: per-field %d, array %d\n", what, ra, rb);
        exit(1);
    }
    check_same(what, a, b);
}

static void lengths_and_nuls(ehd_builder* a, ehd_builder* b)
{
    static uint8_t const encodings[] = { event_field_encoding_zstring_char8,
                                         event_field_encoding_string_length16_char8,
                                         event_field_encoding_binary_length16_char8 };
    char name[48];
    char chars[48];
    size_t len, e;
    int nul;
    for (len = 0; len <= 40; len++) {
        for (nul = -1; nul < (int)len; nul++) {
            char what[64];
            memset(name, 'n', sizeof name);
            memset(chars, 'c', sizeof chars);
            if (nul >= 0) {
                name[nul] = 0;
                chars[nul] = 0;
            }
            for (e = 0; e < sizeof encodings; e++) {
                /* A name of this length (after a field, so that the run is
                   under way), then a string of it, then a value. */
                ehd_field const fields[] = {
                    { "first", 5, &i32, 0, event_field_encoding_value32, 0, 0 },
                    { name, len, &u64, 0, event_field_encoding_value64, event_field_format_hex_int, 0 },
                    { "s", 1, chars, len, encodings[e], 0, 0 },
                    { "last", 4, &u16, 0, event_field_encoding_value16, 0, 0 },
                };
                ehd_field const string_first[] = {
                    { "s", 1, chars, len, encodings[e], 0, 0 },
                    { "last", 4, &u16, 0, event_field_encoding_value16, 0, 0 },
                };
                snprintf(what, sizeof what, "length %zu, NUL at %d, encoding %u", len, nul,
                         encodings[e]);
                compare_fields(what, a, b, fields, COUNT(fields));
                compare_fields(what, a, b, string_first, COUNT(string_first));
            }
        }
    }
}

static void tails(ehd_builder* a, ehd_builder* b)
{
    static uint8_t const formats[] = { 0, 1, 2, 100, 127, 128, 200, 255 };
    static uint16_t const tags[] = { 0, 1, 0xff, 0x100, 0x1234, 0xffff };
    size_t f, t;
    for (f = 0; f < sizeof formats; f++) {
        for (t = 0; t < COUNT(tags); t++) {
            char what[64];
            ehd_field const fields[] = {
                { "v", 1, &u8, 0, event_field_encoding_value8, formats[f], tags[t] },
                { "u128", 4, u128, 0, event_field_encoding_value128, formats[f], tags[t] },
                { "z", 1, "zs", 2, event_field_encoding_zstring_char8, formats[f], tags[t] },
                { "c", 1, "cs", 2, event_field_encoding_string_length16_char8, formats[f], tags[t] },
                { "after", 5, &i32, 0, event_field_encoding_value32, 0, 0 },
            };
            snprintf(what, sizeof what, "format %u, tag %u", formats[f], tags[t]);
            compare_fields(what, a, b, fields, COUNT(fields));
        }
    }
}

static void counted_bounds(ehd_builder* a, ehd_builder* b)
{
    size_t counts[] = { 65534, 65535, 65536 };
    size_t i;
    for (i = 0; i < COUNT(counts); i++) {
        ehd_field const fields[] = {
            { "big", 3, g_huge, counts[i], event_field_encoding_binary_length16_char8, 0, 0 },
            { "after", 5, &i32, 0, event_field_encoding_value32, 0, 0 },
        };
        compare_fields("counted bound", a, b, fields, COUNT(fields));
    }
}

/* Events near the size limit: a first field of `fill` bytes (through the
   typed adder: it grows the buffers), then small fields through the
   one-pass appends, whose room the limit clamps: the same bytes, and
   ERANGE at the same field. */
static void near_the_limit(ehd_builder* a, ehd_builder* b)
{
    size_t fill;
    for (fill = 65300; fill <= 65470; fill += 3) {
        char what[64];
        ehd_field const fields[] = {
            { "fill", 4, g_huge, fill, event_field_encoding_binary_length16_char8, 0, 0 },
            { "v1", 2, &u64, 0, event_field_encoding_value64, 0, 0 },
            { "z", 1, "zero-terminated string", 22, event_field_encoding_zstring_char8, 0, 0 },
            { "v2", 2, u128, 0, event_field_encoding_value128, 0, 0 },
            { "v3", 2, &i32, 0, event_field_encoding_value32, 0, 0 },
        };
        snprintf(what, sizeof what, "fill %zu", fill);
        compare_fields(what, a, b, fields, COUNT(fields));
    }
}

/* The one-call write's event names: every length from 0 to 40 with a NUL at
   each place or none, as ehd_builder_reset takes them (to a disabled set:
   EBADF once built). */
static void event_names(ehd_builder* a, ehd_builder* b, ehd_event_set* off)
{
    char name[48];
    size_t len;
    int nul;
    for (len = 0; len <= 40; len++) {
        for (nul = -1; nul < (int)len; nul++) {
            int ra, rb;
            memset(name, 'e', sizeof name);
            if (nul >= 0) {
                name[nul] = 0;
            }
            ehd_builder_reset(a, name, len, 0);
            ehd_builder_add_fields(a, scalar_fields, 2);
            ra = ehd_builder_write(a, off, NULL, NULL); /* EBADF, or the latched error */
            rb = ehd_builder_write_fields(b, off, name, len, scalar_fields, 2, NULL, NULL);
            CHECK_EQ_INT(ra, rb);
            CHECK(ra == (nul < 0 ? EBADF : EINVAL));
            check_same("event name", a, b);
        }
    }
}

int main(void)
{
    ehd_provider* provider = ehd_provider_new("EhtFieldArray", N, NULL, 0);
    ehd_event_set* set = ehd_provider_register_set(provider, event_level_verbose, 1);
    ehd_event_set* off = ehd_provider_create_unregistered(provider, event_level_verbose, 2, 0);
    ehd_builder* a = ehd_builder_new(0, 0);
    ehd_builder* b = ehd_builder_new(0, 0);
    static unsigned char const activity[16] = { 1 };
    CHECK(provider && set && off && a && b);
    memset(g_long, 'x', sizeof g_long);

    run_case("Scalars", a, b, set, scalars, scalar_fields, COUNT(scalar_fields));
    run_case("Strings", a, b, set, strings, string_fields, COUNT(string_fields));
    run_case("Structs", a, b, set, structs_and_arrays, struct_fields, COUNT(struct_fields));
    run_case("Growing", a, b, set, growing, growing_fields, COUNT(growing_fields));
    run_case("NoFields", a, b, set, none, NULL, 0);

    /* NULL builder, NULL fields with a count (latched), count 0 with NULL fields. */
    CHECK_EQ_INT(EINVAL, ehd_builder_add_fields(NULL, scalar_fields, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_write_fields(NULL, set, "E", N, scalar_fields, 1, NULL, NULL));
    ehd_builder_reset(b, "E", N, 0);
    CHECK_EQ_INT(0, ehd_builder_add_fields(b, NULL, 0));
    CHECK_EQ_INT(EINVAL, ehd_builder_add_fields(b, NULL, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_error(b));

    /* Invalid fields: the errno the per-field function gives, latched. */
    {
        ehd_field bad = scalar_fields[1];
        bad.name = "nul\0inside";
        bad.name_len = 10;
        check_error(b, EINVAL, bad);
        bad = scalar_fields[1];
        bad.name = NULL;
        bad.name_len = 3;
        check_error(b, EINVAL, bad);
        bad = scalar_fields[1];
        bad.value = NULL;
        check_error(b, EINVAL, bad);
        bad = scalar_fields[1];
        bad.format = 128;
        check_error(b, EINVAL, bad);
        bad = scalar_fields[1];
        bad.encoding = 0x1f; /* no such encoding */
        check_error(b, EINVAL, bad);
        bad = string_fields[0];
        bad.encoding |= event_field_encoding_varray_flag; /* string arrays: ehd_builder_add_strings */
        check_error(b, EINVAL, bad);
        bad = struct_fields[0];
        bad.count = 0; /* members 1 ... 127 */
        check_error(b, EINVAL, bad);
        bad.count = 128;
        check_error(b, EINVAL, bad);
        bad = struct_fields[0];
        bad.encoding |= event_field_encoding_varray_flag; /* struct arrays: ehd_builder_add_struct_array */
        check_error(b, EINVAL, bad);
        bad = string_fields[0];
        bad.value = NULL; /* NULL with a count */
        check_error(b, EINVAL, bad);
        bad = struct_fields[1];
        bad.count = 65536; /* over 65535 values */
        check_error(b, ERANGE, bad);
        bad = string_fields[0];
        bad.value = g_huge;
        bad.count = sizeof g_huge; /* a counted string over 65535 characters */
        check_error(b, ERANGE, bad);
    }

    /* The one-call write: the reset's and the fields' errors first (nothing
       written), then the write's: a NULL or disabled set, a related id
       without an activity id. */
    CHECK_EQ_INT(EINVAL, ehd_builder_write_fields(b, set, "nul\0", 4, scalar_fields, 1, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_builder_error(b));
    {
        ehd_field bad = struct_fields[0];
        bad.count = 0;
        CHECK_EQ_INT(EINVAL, ehd_builder_write_fields(b, set, "NotWritten", N, &bad, 1, NULL, NULL));
        CHECK_EQ_INT(EINVAL, ehd_builder_error(b));
    }
    CHECK_EQ_INT(EBADF, ehd_builder_write_fields(b, NULL, "NoSet", N, scalar_fields, 1, NULL, NULL));
    CHECK_EQ_INT(EBADF, ehd_builder_write_fields(b, off, "Off", N, scalar_fields, 1, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_builder_write_fields(b, set, "Related", N, scalar_fields, 1, NULL, activity));
    {
        /* With an activity id; a struct of one member. */
        ehd_field partial[2];
        partial[0] = struct_fields[0];
        partial[0].count = 1;
        partial[1] = scalar_fields[0];
        CHECK_EQ_INT(0, ehd_builder_write_fields(b, set, "OneMember", N, partial, 2, activity, NULL));
        ehd_builder_reset(a, "OneMember", N, 0);
        ehd_builder_add_struct(a, "outer", N, 1, 0, NULL);
        ehd_builder_add_value(a, "i32", N, event_field_encoding_value32, event_field_format_signed_int, 0, &i32);
        CHECK_EQ_INT(0, ehd_builder_write(a, set, activity, NULL));
        check_same("OneMember", a, b);
        g_pairs++;
    }

    lengths_and_nuls(a, b);
    tails(a, b);
    counted_bounds(a, b);
    near_the_limit(a, b);
    event_names(a, b, off);
    /* A latched error: the array adds nothing and returns it. */
    ehd_builder_reset(b, "Latched", N, 0);
    ehd_builder_add_value(b, "bad", N, event_field_encoding_value32, 200, 0, &i32);
    CHECK_EQ_INT(EINVAL, ehd_builder_add_fields(b, scalar_fields, COUNT(scalar_fields)));

    printf("pairs %u\n", g_pairs);
    ehd_builder_delete(a);
    ehd_builder_delete(b);
    ehd_provider_delete(provider);
    return 0;
}
