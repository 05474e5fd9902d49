/*
The C API's error contract: every function with NULL and invalid arguments,
invalid provider names, failed registrations, latched builder errors, the
size limit (ERANGE, nothing written), disabled sets (EBADF), out of memory
(ENOMEM, through alloc_hook.h) and recovery from each.

Run in capture mode. Only events whose name starts with "Ok" may reach the
capture; the program prints "ok-events N" (how many it wrote) and
"at-limit-event-bytes B" (the size of its largest event, exactly at the
limit), which main.rs checks against the capture.
*/
#include <eventheader/eventheader-dynamic.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "alloc_hook.h"

#define N EHD_NTS

static unsigned g_ok_events;

/* Writes b to set, expecting success (the event is named Ok...). */
static void write_ok(ehd_builder* b, ehd_event_set* set)
{
    CHECK_EQ_INT(0, ehd_builder_write(b, set, NULL, NULL));
    g_ok_events++;
}

static void null_arguments(void)
{
    uint8_t v = 1;
    size_t bookmark = 123;
    void const* strings[1] = { "x" };

    errno = 0;
    CHECK(ehd_provider_new(NULL, N, NULL, 0) == NULL && errno == EINVAL);
    errno = 0;
    CHECK(ehd_provider_new(NULL, 3, "", 0) == NULL && errno == EINVAL);
    /* Only a NULL name (or no memory) gives no provider: invalid options
       make a provider that failed (EINVAL), as invalid names do. */
    {
        ehd_provider* const p = ehd_provider_new("Name", N, NULL, 4);
        ehd_provider* const q = ehd_provider_new("Name", (size_t)PTRDIFF_MAX + 1, "", 0);
        CHECK(p && q);
        CHECK_EQ_INT(EINVAL, ehd_provider_errno(p));
        CHECK(strcmp(ehd_provider_name(p), "Name") == 0 && strcmp(ehd_provider_options(p), "") == 0);
        CHECK_EQ_INT(EINVAL, ehd_event_set_errno(ehd_provider_register_set(p, 5, 1)));
        CHECK_EQ_INT(EINVAL, ehd_provider_errno(q));
        CHECK(strcmp(ehd_provider_name(q), "") == 0);
        ehd_provider_delete(p);
        ehd_provider_delete(q);
    }
    ehd_provider_delete(NULL);
    ehd_provider_unregister(NULL);
    CHECK_EQ_INT(EINVAL, ehd_provider_errno(NULL));
    CHECK(strcmp(ehd_provider_name(NULL), "") == 0);
    CHECK(strcmp(ehd_provider_options(NULL), "") == 0);
    errno = 0;
    CHECK(ehd_provider_register_set(NULL, 5, 1) == NULL && errno == EINVAL);
    errno = 0;
    CHECK(ehd_provider_create_unregistered(NULL, 5, 1, 1) == NULL && errno == EINVAL);
    CHECK(ehd_provider_find_set(NULL, 5, 1) == NULL);

    CHECK_EQ_INT(0, ehd_event_set_enabled(NULL));
    CHECK_EQ_INT(0, EHD_EVENT_SET_ENABLED(NULL));
    CHECK_EQ_INT(EINVAL, ehd_event_set_errno(NULL));
    CHECK_EQ_INT(0, ehd_event_set_level(NULL));
    CHECK(ehd_event_set_keyword(NULL) == 0);
    CHECK(ehd_event_set_retain(NULL) == NULL);
    ehd_event_set_release(NULL);

    errno = 0;
    CHECK(ehd_builder_clone(NULL) == NULL && errno == EINVAL);
    ehd_builder_delete(NULL);
    CHECK_EQ_INT(EINVAL, ehd_builder_reset(NULL, "E", N, 0));
    CHECK_EQ_INT(EINVAL, ehd_builder_error(NULL));
    CHECK_EQ_INT(EINVAL, ehd_builder_set_id_version(NULL, 1, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_set_opcode(NULL, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_set_tag(NULL, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_set_level(NULL, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_set_fields_mode(NULL, EHD_FIELDS_NORMAL));
    CHECK_EQ_INT(EINVAL, ehd_builder_add_value(NULL, "v", N, event_field_encoding_value8, 0, 0, &v));
    CHECK_EQ_INT(EINVAL, ehd_builder_add_values(NULL, "v", N, event_field_encoding_value8, 0, 0, &v, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_add_string(NULL, "s", N, event_field_encoding_zstring_char8, 0, 0, "x", N));
    CHECK_EQ_INT(EINVAL, ehd_builder_add_strings(NULL, "s", N, event_field_encoding_zstring_char8, 0, 0,
                                                 strings, NULL, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_add_struct(NULL, "s", N, 1, 0, &bookmark));
    CHECK(bookmark == EHD_NO_BOOKMARK);
    bookmark = 123;
    CHECK_EQ_INT(EINVAL, ehd_builder_add_struct_array(NULL, "s", N, 1, 0, 1, &bookmark));
    CHECK(bookmark == EHD_NO_BOOKMARK);
    CHECK_EQ_INT(EINVAL, ehd_builder_set_struct_field_count(NULL, 0, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_raw_add_meta(NULL, "r", N, event_field_encoding_value8, 0, 0, 0));
    CHECK_EQ_INT(EINVAL, ehd_builder_raw_add_data(NULL, &v, 1));
    bookmark = 123;
    CHECK_EQ_INT(EINVAL, ehd_builder_raw_add_count(NULL, 1, &bookmark));
    CHECK(bookmark == EHD_NO_BOOKMARK);
    CHECK_EQ_INT(EINVAL, ehd_builder_raw_set_count(NULL, 0, 1));
    CHECK_EQ_INT(EINVAL, ehd_builder_write(NULL, NULL, NULL, NULL));
}

static void bad_providers(void)
{
    static struct {
        char const* name;
        char const* options;
        int errno_value;
    } const cases[] = {
        { "Bad Name", "", EINVAL },
        { "Bad:Name", "", EINVAL },
        { "", "", EINVAL },
        { "Good", "gnotupper", EINVAL },
        { "Good", "HxGy", EINVAL },
        { "Good", "G_x", EINVAL },
    };
    char long_name[300];
    unsigned i;
    ehd_builder* b = ehd_builder_new(0, 0);
    CHECK(b);
    ehd_builder_reset(b, "Never", N, 0);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ehd_provider* p = ehd_provider_new(cases[i].name, N, cases[i].options, N);
        ehd_event_set* set;
        CHECK(p);
        CHECK_EQ_INT(cases[i].errno_value, ehd_provider_errno(p));
        CHECK(strcmp(ehd_provider_name(p), cases[i].name) == 0);
        CHECK(strcmp(ehd_provider_options(p), cases[i].options) == 0);
        set = ehd_provider_register_set(p, 5, 1);
        CHECK(set);
        CHECK_EQ_INT(cases[i].errno_value, ehd_event_set_errno(set));
        CHECK(!EHD_EVENT_SET_ENABLED(set));
        CHECK_EQ_INT(EBADF, ehd_builder_write(b, set, NULL, NULL));
        ehd_provider_delete(p);
    }

    /* A name with a NUL inside its length. */
    {
        ehd_provider* p = ehd_provider_new("Nul\0Name", 8, NULL, 0);
        CHECK(p);
        CHECK_EQ_INT(EINVAL, ehd_provider_errno(p));
        ehd_provider_delete(p);
    }

    /* 250 bytes fits (250 + "_L1K0" = 255 < 256); 251 does not: E2BIG. */
    memset(long_name, 'N', sizeof(long_name));
    {
        ehd_provider* p = ehd_provider_new(long_name, 250, NULL, 0);
        CHECK(p);
        CHECK_EQ_INT(0, ehd_provider_errno(p));
        CHECK(strlen(ehd_provider_name(p)) == 250);
        ehd_provider_delete(p);
        p = ehd_provider_new(long_name, 251, NULL, 0);
        CHECK(p);
        CHECK_EQ_INT(E2BIG, ehd_provider_errno(p));
        CHECK(strlen(ehd_provider_name(p)) == 251);
        CHECK_EQ_INT(E2BIG, ehd_event_set_errno(ehd_provider_register_set(p, 5, 1)));
        ehd_provider_delete(p);
    }

    /* A valid provider whose set name would be too long: that set fails. */
    {
        ehd_provider* p = ehd_provider_new(long_name, 240, NULL, 0);
        ehd_event_set* ok = ehd_provider_register_set(p, 5, 1);
        ehd_event_set* big = ehd_provider_register_set(p, 5, 0xffffffffffffffffull);
        ehd_event_set* level0 = ehd_provider_register_set(p, 0, 1);
        CHECK_EQ_INT(0, ehd_provider_errno(p));
        CHECK_EQ_INT(0, ehd_event_set_errno(ok));
        CHECK(EHD_EVENT_SET_ENABLED(ok));
        CHECK_EQ_INT(E2BIG, ehd_event_set_errno(big));
        CHECK(!EHD_EVENT_SET_ENABLED(big));
        CHECK_EQ_INT(EINVAL, ehd_event_set_errno(level0));
        CHECK(!EHD_EVENT_SET_ENABLED(level0));
        CHECK_EQ_INT(EBADF, ehd_builder_write(b, big, NULL, NULL));
        CHECK_EQ_INT(EBADF, ehd_builder_write(b, level0, NULL, NULL));
        ehd_provider_delete(p);
    }
    ehd_builder_delete(b);
}

/* Each call latches its error: the write returns it and writes nothing,
   reset clears it. */
static void latched_errors(ehd_event_set* set)
{
    ehd_builder* b = ehd_builder_new(0, 0);
    uint8_t const v8 = 1;
    uint32_t const v32 = 2;
    size_t bookmark;
    static uint8_t const id[16] = { 1 };
    CHECK(b);

    /* Before the first reset. */
    CHECK_EQ_INT(EINVAL, ehd_builder_error(b));
    CHECK_EQ_INT(EINVAL, ehd_builder_add_value(b, "v", N, event_field_encoding_value8, 0, 0, &v8));
    CHECK_EQ_INT(EINVAL, ehd_builder_write(b, set, NULL, NULL));

#define EXPECT_LATCHED(err, call)                                        \
    do {                                                                 \
        CHECK_EQ_INT(0, ehd_builder_reset(b, "Bad", N, 0));              \
        CHECK_EQ_INT(0, ehd_builder_add_value(b, "first", N,             \
                            event_field_encoding_value8, 0, 0, &v8));    \
        CHECK_EQ_INT((err), (call));                                     \
        CHECK_EQ_INT((err), ehd_builder_error(b));                       \
        CHECK_EQ_INT((err), ehd_builder_add_value(b, "later", N,         \
                                event_field_encoding_value8, 0, 0, &v8)); \
        CHECK_EQ_INT((err), ehd_builder_write(b, set, NULL, NULL));      \
    } while (0)

    EXPECT_LATCHED(EINVAL, ehd_builder_add_value(b, "nul\0inside", 10, event_field_encoding_value8, 0, 0, &v8));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_value(b, NULL, 3, event_field_encoding_value8, 0, 0, &v8));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_value(b, "v", N, event_field_encoding_zstring_char8, 0, 0, &v8));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_value(b, "v", N, event_field_encoding_value8 | event_field_encoding_varray_flag, 0, 0, &v8));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_value(b, "v", N, event_field_encoding_value8, 0, 0, NULL));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_value(b, "v", N, event_field_encoding_value8, 0x80, 0, &v8));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_values(b, "v", N, event_field_encoding_value32, 0, 0, NULL, 2));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_values(b, "v", N, event_field_encoding_value32 | 0x60, 0, 0, &v32, 1));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_values(b, "v", N, event_field_encoding_value32 | event_field_encoding_carray_flag, 0, 0, &v32, 0));
    EXPECT_LATCHED(ERANGE, ehd_builder_add_values(b, "v", N, event_field_encoding_value8, 0, 0, &v8, 70000));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_string(b, "s", N, event_field_encoding_value8, 0, 0, "x", 1));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_string(b, "s", N, event_field_encoding_string_length16_char8, 0, 0, NULL, 1));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_string(b, "s", N, event_field_encoding_string_length16_char8, 0, 0, NULL, N));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_strings(b, "s", N, event_field_encoding_zstring_char8, 0, 0, NULL, NULL, 2));
    {
        void const* strings[2] = { "a", NULL };
        EXPECT_LATCHED(EINVAL, ehd_builder_add_strings(b, "s", N, event_field_encoding_zstring_char8, 0, 0, strings, NULL, 2));
    }
    EXPECT_LATCHED(EINVAL, ehd_builder_add_struct(b, "s", N, 0, 0, &bookmark));
    CHECK(bookmark == EHD_NO_BOOKMARK);
    EXPECT_LATCHED(EINVAL, ehd_builder_add_struct(b, "s", N, 128, 0, NULL));
    EXPECT_LATCHED(EINVAL, ehd_builder_add_struct_array(b, "s", N, 0, 0, 1, NULL));
    EXPECT_LATCHED(EINVAL, ehd_builder_set_struct_field_count(b, 1, 1));
    EXPECT_LATCHED(EINVAL, ehd_builder_set_struct_field_count(b, 1000000, 1));
    EXPECT_LATCHED(EINVAL, ehd_builder_set_fields_mode(b, 3));
    EXPECT_LATCHED(EINVAL, ehd_builder_raw_add_meta(b, "r", N, 14, 0, 0, 0));
    EXPECT_LATCHED(EINVAL, ehd_builder_raw_add_meta(b, "r", N, event_field_encoding_value8 | 0x80, 0, 0, 0));
    EXPECT_LATCHED(EINVAL, ehd_builder_raw_add_data(b, NULL, 1));
    EXPECT_LATCHED(EINVAL, ehd_builder_raw_set_count(b, 5000, 1));

    /* A valid struct bookmark, then a count out of range. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "Bad", N, 0));
    CHECK_EQ_INT(0, ehd_builder_add_struct(b, "s", N, 1, 0, &bookmark));
    CHECK_EQ_INT(EINVAL, ehd_builder_set_struct_field_count(b, bookmark, 0));
    CHECK_EQ_INT(EINVAL, ehd_builder_write(b, set, NULL, NULL));
    /* EHD_NO_BOOKMARK is ignored. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "OkNoBookmark", N, 0));
    CHECK_EQ_INT(0, ehd_builder_set_struct_field_count(b, EHD_NO_BOOKMARK, 5));
    CHECK_EQ_INT(0, ehd_builder_raw_set_count(b, EHD_NO_BOOKMARK, 5));
    write_ok(b, set);

    /* Errors of the write itself leave the builder as it was. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "OkAfterWriteErrors", N, 0));
    CHECK_EQ_INT(EINVAL, ehd_builder_write(b, set, NULL, id));
    CHECK_EQ_INT(0, ehd_builder_set_level(b, event_level_error));
    CHECK_EQ_INT(EINVAL, ehd_builder_write(b, set, NULL, NULL));
    CHECK_EQ_INT(0, ehd_builder_set_level(b, 0));
    CHECK_EQ_INT(EBADF, ehd_builder_write(b, NULL, NULL, NULL));
    CHECK_EQ_INT(0, ehd_builder_error(b));
    write_ok(b, set);

    /* An invalid event name: latched at reset. */
    CHECK_EQ_INT(EINVAL, ehd_builder_reset(b, "Bad\0Name", 8, 0));
    CHECK_EQ_INT(EINVAL, ehd_builder_write(b, set, NULL, NULL));
    CHECK_EQ_INT(EINVAL, ehd_builder_reset(b, NULL, 1, 0));
    CHECK_EQ_INT(EINVAL, ehd_builder_write(b, set, NULL, NULL));
    ehd_builder_delete(b);
#undef EXPECT_LATCHED
}

/* Metadata + payload of at most 65467 bytes; more is ERANGE and nothing is
   written. Returns the size of the largest event written. */
static size_t size_limit(ehd_event_set* set)
{
    enum { LIMIT = 65467 };
    static char blob[70000];
    ehd_builder* b = ehd_builder_new(0, 0);
    char const name[] = "OkAtLimit";
    /* metadata: name NUL, "b" NUL, encoding; payload: u16 length, bytes */
    size_t const room = LIMIT - (sizeof(name) + 2 + 1) - 2;
    unsigned i;
    CHECK(b);
    memset(blob, 'x', sizeof(blob));

    CHECK_EQ_INT(0, ehd_builder_reset(b, name, N, 0));
    CHECK_EQ_INT(0, ehd_builder_add_string(b, "b", N, event_field_encoding_binary_length16_char8, 0, 0, blob, room));
    write_ok(b, set);

    CHECK_EQ_INT(0, ehd_builder_reset(b, "OverByOne", N, 0));
    CHECK_EQ_INT(ERANGE, ehd_builder_add_string(b, "b", N, event_field_encoding_binary_length16_char8, 0, 0, blob, room + 1));
    CHECK_EQ_INT(ERANGE, ehd_builder_write(b, set, NULL, NULL));

    CHECK_EQ_INT(0, ehd_builder_reset(b, "Huge", N, 0));
    CHECK_EQ_INT(ERANGE, ehd_builder_add_string(b, "b", N, event_field_encoding_binary_length16_char8, 0, 0, blob, sizeof(blob)));
    CHECK_EQ_INT(ERANGE, ehd_builder_write(b, set, NULL, NULL));
    /* A counted string of more than 65535 characters can never fit. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "HugeString", N, 0));
    CHECK_EQ_INT(ERANGE, ehd_builder_add_string(b, "s", N, event_field_encoding_string_length16_char16, 0, 0, blob, 35000));
    CHECK_EQ_INT(ERANGE, ehd_builder_write(b, set, NULL, NULL));

    /* Many small fields add up; the field that crosses the limit fails. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "ManyFields", N, 0));
    for (i = 0; i < 20000; i++) {
        int const err = ehd_builder_add_values(b, "field", N, event_field_encoding_value8, 0, 0, blob, 4);
        if (err != 0) {
            CHECK_EQ_INT(ERANGE, err);
            break;
        }
    }
    CHECK(i > 1000 && i < 20000);
    CHECK_EQ_INT(ERANGE, ehd_builder_write(b, set, NULL, NULL));

    /* The builder is fine after reset, and its buffers stayed bounded. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "OkAfterLimit", N, 0));
    write_ok(b, set);
    ehd_builder_delete(b);
    return 8 + 4 + (sizeof(name) + 2 + 1) + 2 + room;
}

/* The shapes decoders read: at most 8 nested structs and 255 top-level
   fields (tracepoint_decode and the reference's decoders). An event at each
   limit is written (and decodes: main.rs); one past it gets E2BIG
   at the write and is not written. Before, both were written with status 0
   and `eventheader decode` printed them raw. */
static void decoder_limits(ehd_event_set* set)
{
    ehd_builder* b = ehd_builder_new(0, 0);
    int32_t const v = 7;
    unsigned depth, i;
    CHECK(b);
    for (depth = 8; depth <= 9; depth++) {
        CHECK_EQ_INT(0, ehd_builder_reset(b, depth == 8 ? "OkNested8" : "Nested9", N, 0));
        for (i = 0; i < depth; i++)
            CHECK_EQ_INT(0, ehd_builder_add_struct(b, "s", N, 1, 0, NULL));
        CHECK_EQ_INT(0, ehd_builder_add_value(b, "v", N, event_field_encoding_value32, 0, 0, &v));
        if (depth == 8)
            write_ok(b, set);
        else
            CHECK_EQ_INT(E2BIG, ehd_builder_write(b, set, NULL, NULL));
    }
    /* The same through raw metadata. */
    for (depth = 8; depth <= 9; depth++) {
        CHECK_EQ_INT(0, ehd_builder_reset(b, depth == 8 ? "OkRawNested8" : "RawNested9", N, 0));
        for (i = 0; i < depth; i++)
            CHECK_EQ_INT(0, ehd_builder_raw_add_meta(b, "s", N, event_field_encoding_struct, 1, 0, 0));
        CHECK_EQ_INT(0, ehd_builder_add_value(b, "v", N, event_field_encoding_value32, 0, 0, &v));
        if (depth == 8)
            write_ok(b, set);
        else
            CHECK_EQ_INT(E2BIG, ehd_builder_write(b, set, NULL, NULL));
    }
    /* Siblings are not nested: 8 deep twice over. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "OkNested8Twice", N, 0));
    for (depth = 0; depth < 2; depth++) {
        for (i = 0; i < 8; i++)
            CHECK_EQ_INT(0, ehd_builder_add_struct(b, "s", N, 1, 0, NULL));
        CHECK_EQ_INT(0, ehd_builder_add_value(b, "v", N, event_field_encoding_value32, 0, 0, &v));
    }
    write_ok(b, set);
    for (i = 255; i <= 256; i++) {
        unsigned f;
        CHECK_EQ_INT(0, ehd_builder_reset(b, i == 255 ? "OkFields255" : "Fields256", N, 0));
        for (f = 0; f < i; f++)
            CHECK_EQ_INT(0, ehd_builder_add_value(b, "f", N, event_field_encoding_value32, 0, 0, &v));
        if (i == 255)
            write_ok(b, set);
        else
            CHECK_EQ_INT(E2BIG, ehd_builder_write(b, set, NULL, NULL));
    }
    /* Members of a struct are not top-level fields. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "OkFieldsInStruct", N, 0));
    CHECK_EQ_INT(0, ehd_builder_add_struct(b, "s", N, 100, 0, NULL));
    for (i = 0; i < 100 + 254; i++)
        CHECK_EQ_INT(0, ehd_builder_add_value(b, "f", N, event_field_encoding_value32, 0, 0, &v));
    write_ok(b, set);
    /* The refusal is not latched: the builder goes on. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "OkAfterShapes", N, 0));
    write_ok(b, set);
    ehd_builder_delete(b);
}

/* A huge initial capacity reserves at most what an event can hold
   (65536 bytes per buffer, plus the builder's own bookkeeping), and the
   builder works. Before, ehd_builder_new(1 << 40, 0) asked malloc for 1 TiB
   and returned NULL (ENOMEM). */
static void huge_initial_capacity(ehd_event_set* set)
{
    size_t const huge[][2] = { { (size_t)1 << 40, 0 }, { 0, (size_t)1 << 40 }, { SIZE_MAX, SIZE_MAX } };
    unsigned i;
    for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
        ehd_builder* b;
        (void)alloc_largest_since();
        b = ehd_builder_new(huge[i][0], huge[i][1]);
        CHECK(b);
        CHECK(alloc_largest_since() <= 2 * 65536 + 4096);
        CHECK_EQ_INT(0, ehd_builder_reset(b, "OkHugeCapacity", N, 0));
        write_ok(b, set);
        ehd_builder_delete(b);
    }
}

static void disabled_sets(ehd_provider* provider)
{
    ehd_builder* b = ehd_builder_new(0, 0);
    ehd_event_set* off = ehd_provider_create_unregistered(provider, 4, 0x40, 0);
    ehd_event_set* on = ehd_provider_create_unregistered(provider, 4, 0x41, 1);
    CHECK(b && off && on);
    CHECK_EQ_INT(0, ehd_event_set_errno(off));
    CHECK(!EHD_EVENT_SET_ENABLED(off) && !ehd_event_set_enabled(off));
    CHECK(EHD_EVENT_SET_ENABLED(on) && ehd_event_set_enabled(on));
    CHECK(ehd_provider_create_unregistered(provider, 4, 0x40, 1) == off);
    CHECK(ehd_provider_register_set(provider, 4, 0x40) == off);
    ehd_builder_reset(b, "NeverWritten", N, 0);
    CHECK_EQ_INT(EBADF, ehd_builder_write(b, off, NULL, NULL));
    /* Enabled but not registered: reaches no tracepoint. */
    CHECK_EQ_INT(EBADF, ehd_builder_write(b, on, NULL, NULL));
    ehd_builder_delete(b);
}

static void unregister_and_retain(void)
{
    ehd_provider* p = ehd_provider_new("DynErrorsRetain", N, NULL, 0);
    ehd_event_set* kept = ehd_provider_register_set(p, 5, 2);
    ehd_event_set* again;
    ehd_builder* b = ehd_builder_new(0, 0);
    CHECK(p && kept && b);
    CHECK(EHD_EVENT_SET_ENABLED(kept));
    CHECK(ehd_event_set_retain(kept) == kept);
    CHECK_EQ_INT(5, ehd_event_set_level(kept));
    CHECK(ehd_event_set_keyword(kept) == 2);
    ehd_builder_reset(b, "OkBeforeUnregister", N, 0);
    write_ok(b, kept);

    ehd_provider_unregister(p);
    CHECK(!EHD_EVENT_SET_ENABLED(kept));
    CHECK(ehd_provider_find_set(p, 5, 2) == NULL);
    ehd_builder_reset(b, "AfterUnregister", N, 0);
    CHECK_EQ_INT(EBADF, ehd_builder_write(b, kept, NULL, NULL));
    /* Registered again after unregister: the provider is closed. */
    again = ehd_provider_register_set(p, 5, 2);
    CHECK(again && again != kept);
    CHECK_EQ_INT(0, ehd_event_set_errno(again));
    CHECK(!EHD_EVENT_SET_ENABLED(again));

    ehd_provider_delete(p);
    /* The retained set outlives its provider, disabled. */
    CHECK(!EHD_EVENT_SET_ENABLED(kept));
    CHECK_EQ_INT(EBADF, ehd_builder_write(b, kept, NULL, NULL));
    ehd_event_set_release(kept);
    ehd_builder_delete(b);
}

static void out_of_memory(ehd_provider* provider, ehd_event_set* set)
{
    static char text[1000];
    ehd_builder* b;
    ehd_builder* copy;
    memset(text, 't', sizeof(text));

    alloc_fail(1);
    errno = 0;
    CHECK(ehd_builder_new(16, 16) == NULL && errno == ENOMEM);
    errno = 0;
    CHECK(ehd_provider_new("DynOom", N, NULL, 0) == NULL && errno == ENOMEM);
    errno = 0;
    CHECK(ehd_provider_register_set(provider, 3, 0x77) == NULL && errno == ENOMEM);
    CHECK(ehd_provider_find_set(provider, 3, 0x77) == NULL);
    alloc_fail(0);

    /* The provider still works after its failed registration. */
    CHECK(ehd_provider_register_set(provider, 3, 0x77) != NULL);

    /* Growth of a builder's buffer fails: ENOMEM, latched, nothing written. */
    b = ehd_builder_new(0, 0);
    CHECK(b);
    CHECK_EQ_INT(0, ehd_builder_reset(b, "GrowthFails", N, 0));
    alloc_fail(1);
    CHECK_EQ_INT(ENOMEM, ehd_builder_add_string(b, "s", N, event_field_encoding_binary_length16_char8, 0, 0, text, sizeof(text)));
    CHECK_EQ_INT(ENOMEM, ehd_builder_error(b));
    CHECK_EQ_INT(ENOMEM, ehd_builder_write(b, set, NULL, NULL));
    errno = 0;
    CHECK(ehd_builder_clone(b) == NULL && errno == ENOMEM);
    alloc_fail(0);

    /* Recovery: reset, then the same field grows the buffer. */
    CHECK_EQ_INT(0, ehd_builder_reset(b, "OkAfterNoMemory", N, 0));
    CHECK_EQ_INT(0, ehd_builder_add_string(b, "s", N, event_field_encoding_binary_length16_char8, 0, 0, text, sizeof(text)));
    copy = ehd_builder_clone(b);
    CHECK(copy);
    write_ok(b, set);
    write_ok(copy, set);

    /* Warm buffers need no memory: the same event again while every
       allocation fails. */
    alloc_fail(1);
    CHECK_EQ_INT(0, ehd_builder_reset(b, "OkWarmWithoutMemory", N, 0));
    CHECK_EQ_INT(0, ehd_builder_add_string(b, "s", N, event_field_encoding_binary_length16_char8, 0, 0, text, sizeof(text)));
    write_ok(b, set);
    alloc_fail(0);

    ehd_builder_delete(copy);
    ehd_builder_delete(b);
}

int main(void)
{
    ehd_provider* provider;
    ehd_event_set* set;
    size_t at_limit;

    null_arguments();
    bad_providers();

    provider = ehd_provider_new("DynErrors", N, NULL, 0);
    CHECK(provider);
    CHECK_EQ_INT(0, ehd_provider_errno(provider));
    set = ehd_provider_register_set(provider, 5, 1);
    CHECK(set && EHD_EVENT_SET_ENABLED(set));

    latched_errors(set);
    at_limit = size_limit(set);
    huge_initial_capacity(set);
    decoder_limits(set);
    disabled_sets(provider);
    unregister_and_retain();
    out_of_memory(provider, set);

    ehd_provider_delete(provider);
    printf("ok-events %u\n", g_ok_events);
    printf("at-limit-event-bytes %zu\n", at_limit);
    return 0;
}
