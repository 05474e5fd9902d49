/*
Event definitions (ehd_event_def_new, ehd_event_def_write) against the
builder: for every case, the event is written once through a builder
(ehd_builder_reset with the definition's tag, ehd_builder_add_fields,
ehd_builder_write) and once through a definition of the same name, tag and
fields with the same values; both must give the same result, and when it is
0 the capture holds the pair (tests/dynamic.rs compares their bytes). Then
the errors of both functions.

Prints "pairs N"; exit status 0 if every check passed.
*/
#include <eventheader/eventheader-dynamic.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../check.h"

#define N EHD_NTS
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static unsigned g_pairs;
static ehd_builder* g_builder;
static ehd_event_set* g_set;

static size_t value_size(uint8_t encoding)
{
    switch (encoding) {
    case event_field_encoding_value8: return 1;
    case event_field_encoding_value16: return 2;
    case event_field_encoding_value32: return 4;
    case event_field_encoding_value64: return 8;
    case event_field_encoding_value128: return 16;
    default: return 0;
    }
}

/* The ehd_value of each field: a value's bytes, a string's characters, a
   struct's nothing. */
static void values_of(ehd_field const* fields, size_t count, ehd_value* values)
{
    size_t i;
    for (i = 0; i < count; i++) {
        size_t const size = value_size(fields[i].encoding);
        values[i].data = fields[i].encoding == event_field_encoding_struct ? NULL : fields[i].value;
        values[i].size = size ? size : fields[i].encoding == event_field_encoding_struct ? 0 : fields[i].count;
    }
}

/* One case both ways: the results must agree; 0 writes a pair. */
static void pair(char const* what, char const* name, uint16_t tag, ehd_field const* fields, size_t count,
                 void const* activity, void const* related)
{
    static ehd_value values[512];
    ehd_event_def* def;
    int built, defined;
    CHECK(count <= COUNT(values));
    ehd_builder_reset(g_builder, name, N, tag);
    ehd_builder_add_fields(g_builder, fields, count);
    built = ehd_builder_write(g_builder, g_set, activity, related);
    errno = 0;
    def = ehd_event_def_new(name, N, fields, count, tag);
    if (def == NULL) {
        defined = errno;
        CHECK(defined != 0);
    } else {
        values_of(fields, count, values);
        defined = ehd_event_def_write(def, g_set, values, count, activity, related);
        ehd_event_def_delete(def);
    }
    if (built != defined) {
        fprintf(stderr, "dyn_event_def: %s: builder %d, definition %d\n", what, built, defined);
        exit(1);
    }
    if (built == 0) {
        g_pairs++;
    }
}

static int32_t const i32 = -7;
static uint64_t const u64 = 0x1122334455667788u;
static double const f64 = 2.5;
static uint8_t const u8 = 0xab;
static uint16_t const u16 = 0xbeef;
static unsigned char const u128[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static char const zwith[] = { 'a', 'b', 0, 'c', 'd' };
static uint16_t const z16with[] = { 'w', 0, 'x' };
static uint32_t const z32with[] = { 'y', 'z', 0, 'q' };
static char g_long[3000];
static char g_huge[65536];

static ehd_field const scalar_fields[] = {
    { "i32", N, &i32, 0, event_field_encoding_value32, event_field_format_signed_int, 0 },
    { "u64", 3, &u64, 0, event_field_encoding_value64, 0, 0 },
    { "a name of sixteen", 16, &f64, 0, event_field_encoding_value64, event_field_format_float, 0 },
    { "tagged", N, &u8, 99 /* ignored */, event_field_encoding_value8, event_field_format_hex_int, 0x1234 },
    { NULL, 0, &u16, 0, event_field_encoding_value16, 0, 7 },
    { "u128", N, u128, 0, event_field_encoding_value128, event_field_format_uuid, 0 },
    { "flag", N, &i32, 0, event_field_encoding_value32, event_field_format_boolean, 0 },
    { "a field name longer than sixteen bytes", N, &i32, 0, event_field_encoding_value32, 0, 0 },
};

static ehd_field const string_fields[] = {
    { "counted", N, "hello", 5, event_field_encoding_string_length16_char8, 0, 0 },
    { "nts", N, "{\"a\":1}", N, event_field_encoding_string_length16_char8, event_field_format_string_json, 0 },
    { "z", N, zwith, sizeof zwith, event_field_encoding_zstring_char8, 0, 0 },
    { "znts", N, "zero-terminated", N, event_field_encoding_zstring_char8, 0, 3 },
    { "empty", N, NULL, 0, event_field_encoding_string_length16_char8, 0, 0 },
    { "zempty", N, NULL, 0, event_field_encoding_zstring_char8, 0, 0 },
    { "bin", N, zwith, sizeof zwith, event_field_encoding_binary_length16_char8, 0, 0 },
    { "u16", N, u"wide", 4, event_field_encoding_string_length16_char16, 0, 0 },
    { "u32", N, U"wider", 5, event_field_encoding_string_length16_char32, 0, 0 },
    { "z16", N, z16with, COUNT(z16with), event_field_encoding_zstring_char16, 0, 0 },
    { "z16nts", N, u"sixteen", N, event_field_encoding_zstring_char16, 0, 0 },
    { "z32", N, z32with, COUNT(z32with), event_field_encoding_zstring_char32, 0, 0 },
    { "z32nts", N, U"wider", N, event_field_encoding_zstring_char32, 0, 0 },
};

/* Nested structs, with tags; the members values and strings. */
static ehd_field const struct_fields[] = {
    { "outer", N, NULL, 3, event_field_encoding_struct, 0, 0 },
    { "a", N, &i32, 0, event_field_encoding_value32, 0, 0 },
    { "inner", N, NULL, 2, event_field_encoding_struct, 0, 5 },
    { "s", N, "in", 2, event_field_encoding_zstring_char8, 0, 0 },
    { "b", N, &u64, 0, event_field_encoding_value64, 0, 0 },
    { "c", N, "cs", 2, event_field_encoding_string_length16_char8, 0, 0 },
    { "after", N, &u16, 0, event_field_encoding_value16, 0, 0 },
};

static void lengths_and_nuls(void)
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
            name[len] = 0;
            if (nul >= 0) {
                chars[nul] = 0;
            }
            for (e = 0; e < sizeof encodings; e++) {
                ehd_field const fields[] = {
                    { "first", 5, &i32, 0, event_field_encoding_value32, 0, 0 },
                    { name, len, &u64, 0, event_field_encoding_value64, event_field_format_hex_int, 0 },
                    { "s", 1, chars, len, encodings[e], 0, 0 },
                    { "last", 4, &u16, 0, event_field_encoding_value16, 0, 0 },
                };
                snprintf(what, sizeof what, "length %zu, NUL at %d, encoding %u", len, nul, encodings[e]);
                pair(what, "Lengths", 0, fields, COUNT(fields), NULL, NULL);
            }
        }
    }
}

/* Events near the size limit: a counted string of `fill` bytes and small
   fields after it: both ways the same bytes, or both ERANGE. */
static void near_the_limit(void)
{
    size_t fill;
    unsigned ranged = 0;
    for (fill = 65380; fill <= 65470; fill += 3) {
        ehd_field const fields[] = {
            { "fill", 4, g_huge, fill, event_field_encoding_binary_length16_char8, 0, 0 },
            { "v1", 2, &u64, 0, event_field_encoding_value64, 0, 0 },
            { "z", 1, "zero-terminated string", 22, event_field_encoding_zstring_char8, 0, 0 },
        };
        unsigned const before = g_pairs;
        pair("near the limit", "Limit", 0, fields, COUNT(fields), NULL, NULL);
        ranged += g_pairs == before;
    }
    CHECK(ranged > 0 && ranged < 30); /* both sides of the limit */
}

/* Many fields: more vectors than the write keeps on its stack (the payload
   gathered), with an activity id and a related one. */
static void many_fields(void)
{
    static ehd_field fields[300];
    static char names[300][8];
    size_t i;
    for (i = 0; i < COUNT(fields); i++) {
        snprintf(names[i], sizeof names[i], "f%zu", i);
        fields[i].name = names[i];
        fields[i].name_len = N;
        fields[i].tag = 0;
        fields[i].format = 0;
        switch (i % 3) {
        case 0:
            fields[i].encoding = event_field_encoding_value32;
            fields[i].value = &i32;
            break;
        case 1:
            fields[i].encoding = event_field_encoding_zstring_char8;
            fields[i].value = zwith;
            fields[i].count = i % 6;
            break;
        default:
            fields[i].encoding = event_field_encoding_string_length16_char8;
            fields[i].value = g_long;
            fields[i].count = i;
            break;
        }
    }
    {
        static unsigned char const activity[16] = { 1, 2, 3 };
        static unsigned char const related[16] = { 4, 5, 6 };
        size_t counts[] = { 20, 40, 41, 42, 100, 200 };
        for (i = 0; i < COUNT(counts); i++) {
            pair("many fields", "Many", 9, fields, counts[i], activity, related);
            pair("many fields, activity", "Many", 0, fields, counts[i], activity, NULL);
        }
        /* Over 255 top-level fields: E2BIG both ways. */
        pair("256 fields", "Many", 0, fields, 256, NULL, NULL);
        CHECK_EQ_INT(E2BIG, ehd_builder_write(g_builder, g_set, NULL, NULL));
    }
}

static void def_new_errors(void)
{
    ehd_field bad[2];
    ehd_field nested[10];
    size_t i;
    static char long_name[65500];
#define NEW_FAILS(expected, name, name_len, fields, count)                               \
    do {                                                                              \
        errno = 0;                                                                    \
        CHECK(ehd_event_def_new(name, name_len, fields, count, 0) == NULL);           \
        CHECK_EQ_INT(expected, errno);                                                \
    } while (0)
    NEW_FAILS(EINVAL, NULL, N, scalar_fields, 1);
    NEW_FAILS(EINVAL, NULL, 3, scalar_fields, 1);
    NEW_FAILS(EINVAL, "nul\0inside", 10, scalar_fields, 1);
    NEW_FAILS(EINVAL, "E", N, NULL, 1);
    bad[0] = scalar_fields[0];
    bad[1] = scalar_fields[1];
    bad[1].name = "nul\0inside";
    bad[1].name_len = 10;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1] = scalar_fields[1];
    bad[1].name = NULL;
    bad[1].name_len = 3;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1] = scalar_fields[1];
    bad[1].format = 128;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1].format = 0;
    bad[1].encoding = 0x1f;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1].encoding = 0;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1].encoding = event_field_encoding_value32 | event_field_encoding_varray_flag; /* value arrays */
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1].encoding = event_field_encoding_value32 | event_field_encoding_carray_flag;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1] = string_fields[0];
    bad[1].encoding |= event_field_encoding_varray_flag;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1] = struct_fields[0];
    bad[1].count = 0;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1].count = 128;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    bad[1].count = 1;
    bad[1].encoding |= event_field_encoding_varray_flag;
    NEW_FAILS(EINVAL, "E", N, bad, 2);
    /* Metadata over the size limit. */
    memset(long_name, 'n', sizeof long_name);
    bad[1] = scalar_fields[0];
    bad[1].name = long_name;
    bad[1].name_len = sizeof long_name;
    NEW_FAILS(ERANGE, "E", N, bad, 2);
    /* 9 nested structs: decoders cannot read it. */
    for (i = 0; i < 9; i++) {
        nested[i] = struct_fields[0];
        nested[i].count = 1;
    }
    nested[9] = scalar_fields[0];
    NEW_FAILS(E2BIG, "E", N, nested, 10);
    {
        /* 8 are fine. */
        ehd_event_def* def = ehd_event_def_new("E", N, nested + 1, 9, 0);
        CHECK(def != NULL);
        ehd_event_def_delete(def);
    }
    ehd_event_def_delete(NULL);
}

static void write_errors(ehd_event_set* off)
{
    ehd_event_def* def = ehd_event_def_new("Errors", N, string_fields, 2, 0);
    ehd_event_def* scalars = ehd_event_def_new("Scalars", N, scalar_fields, 2, 0);
    ehd_event_def* empty = ehd_event_def_new("Empty", N, NULL, 0, 0);
    ehd_value values[2] = { { "hello", 5 }, { "nts", N } };
    ehd_value scalar_values[2] = { { &i32, 4 }, { &u64, 8 } };
    static unsigned char const activity[16] = { 7 };
    CHECK(def && scalars && empty);
    CHECK_EQ_INT(0, ehd_event_def_write(def, g_set, values, 2, NULL, NULL));
    g_pairs++; /* written twice: a pair of its own */
    CHECK_EQ_INT(0, ehd_event_def_write(def, g_set, values, 2, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(NULL, g_set, values, 2, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(def, g_set, values, 1, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(def, g_set, values, 3, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(def, g_set, NULL, 2, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(def, g_set, NULL, 0, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(def, g_set, values, 2, NULL, activity));
    CHECK_EQ_INT(EBADF, ehd_event_def_write(def, NULL, values, 2, NULL, NULL));
    CHECK_EQ_INT(EBADF, ehd_event_def_write(def, off, values, 2, NULL, NULL));
    /* A value NULL with a size; a value's size not the encoding's. */
    values[0].data = NULL;
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(def, g_set, values, 2, NULL, NULL));
    values[1].data = NULL;
    values[0].data = "hello";
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(def, g_set, values, 2, NULL, NULL));
    values[1].data = "nts";
    scalar_values[1].size = 4;
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(scalars, g_set, scalar_values, 2, NULL, NULL));
    scalar_values[1].size = N;
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(scalars, g_set, scalar_values, 2, NULL, NULL));
    scalar_values[1].size = 8;
    scalar_values[0].data = NULL;
    CHECK_EQ_INT(EINVAL, ehd_event_def_write(scalars, g_set, scalar_values, 2, NULL, NULL));
    /* A counted string over 65535 characters; an event over the limit. */
    values[0].data = g_huge;
    values[0].size = 65536;
    CHECK_EQ_INT(ERANGE, ehd_event_def_write(def, g_set, values, 2, NULL, NULL));
    values[0].size = 65535;
    CHECK_EQ_INT(ERANGE, ehd_event_def_write(def, g_set, values, 2, NULL, NULL));
    /* Invalid values come before the set's errors. */
    CHECK_EQ_INT(ERANGE, ehd_event_def_write(def, NULL, values, 2, NULL, NULL));
    /* No fields: NULL values with count 0. */
    CHECK_EQ_INT(0, ehd_event_def_write(empty, g_set, NULL, 0, NULL, NULL));
    CHECK_EQ_INT(0, ehd_event_def_write(empty, g_set, NULL, 0, NULL, NULL));
    g_pairs++;
    ehd_event_def_delete(def);
    ehd_event_def_delete(scalars);
    ehd_event_def_delete(empty);
}

int main(void)
{
    ehd_provider* provider = ehd_provider_new("EhtEventDef", N, NULL, 0);
    ehd_event_set* off;
    static unsigned char const activity[16] = { 1 };
    static unsigned char const related[16] = { 2 };
    g_set = ehd_provider_register_set(provider, event_level_verbose, 1);
    off = ehd_provider_create_unregistered(provider, event_level_verbose, 2, 0);
    g_builder = ehd_builder_new(0, 0);
    CHECK(provider && g_set && off && g_builder);
    memset(g_long, 'x', sizeof g_long);
    memset(g_huge, 'h', sizeof g_huge);

    pair("scalars", "Scalars", 0, scalar_fields, COUNT(scalar_fields), NULL, NULL);
    pair("scalars, tag", "Scalars", 0xbeef, scalar_fields, COUNT(scalar_fields), activity, NULL);
    pair("scalars, ids", "Scalars", 1, scalar_fields, COUNT(scalar_fields), activity, related);
    pair("strings", "Strings", 0, string_fields, COUNT(string_fields), NULL, NULL);
    pair("structs", "Structs", 0, struct_fields, COUNT(struct_fields), NULL, NULL);
    pair("no fields", "NoFields", 0, NULL, 0, NULL, NULL);
    pair("empty name", "", 0, scalar_fields, 1, NULL, NULL);
    {
        ehd_field const long_strings[] = {
            { "long", N, g_long, sizeof g_long, event_field_encoding_string_length16_char8, 0, 0 },
            { "zlong", N, g_long, sizeof g_long, event_field_encoding_zstring_char8, 0, 0 },
            { "blong", N, g_long, sizeof g_long, event_field_encoding_binary_length16_char8, 0, 0 },
        };
        pair("long strings", "Long", 0, long_strings, COUNT(long_strings), NULL, NULL);
    }
    lengths_and_nuls();
    near_the_limit();
    many_fields();
    def_new_errors();
    write_errors(off);

    printf("pairs %u\n", g_pairs);
    ehd_builder_delete(g_builder);
    ehd_provider_delete(provider);
    return 0;
}
