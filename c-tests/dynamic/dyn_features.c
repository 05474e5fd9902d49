/*
Feature events through the C API (eventheader-dynamic.h): first the events of
features_data.h, byte for byte those of dyn_features.cpp, then events only the
C API can make:
  CArrays       constant-count arrays (values, strings, raw metadata), an array of
                structs counted by bookmark, an empty array of structs
  HeaderValues  ehd_builder_set_tag, set_level (the set's level), set_id_version,
                set_opcode, an activity id without related id
  Unchanged     HeaderValues written again after a write: the builder keeps it

Exit status 0 if every call succeeded.
*/
#include <eventheader/eventheader-dynamic.h>

#include <stdio.h>
#include <string.h>

#include "features_data.h"
#include "../check.h"

#define N EHD_NTS /* every name below is NUL-terminated */

static unsigned g_failed;

static void check_write(char const* what, int err)
{
    if (err != 0) {
        fprintf(stderr, "dyn_features: %s: write returned %d\n", what, err);
        g_failed++;
    }
}

static void values_event(ehd_builder* b, ehd_event_set* set, char const* name, uint8_t encoding,
                         void const* value)
{
    unsigned i;
    ehd_builder_reset(b, name, N, 0);
    for (i = 0; i < DYN_FORMAT_COUNT; i++)
        ehd_builder_add_value(b, dyn_formats[i].name, N, encoding, (uint8_t)dyn_formats[i].format,
                              feat_field_tag(i), value);
    check_write(name, ehd_builder_write(b, set, NULL, NULL));
}

/* Adds a counted 8-bit string field. */
static void str8(ehd_builder* b, char const* name, char const* value, size_t len, uint8_t format,
                 uint16_t tag)
{
    ehd_builder_add_string(b, name, N, event_field_encoding_string_length16_char8, format, tag, value,
                           len);
}

int main(void)
{
    ehd_provider* provider = ehd_provider_new(FEAT_PROVIDER, N, FEAT_OPTIONS, N);
    ehd_event_set* setA = ehd_provider_register_set(provider, event_level_verbose, 0x1);
    ehd_event_set* setB = ehd_provider_register_set(provider, event_level_error, 0xf00);
    ehd_builder* b = ehd_builder_new(0, 0);
    size_t outer, inner;
    unsigned i;
    CHECK(provider && setA && setB && b);
    printf("provider %s options %s errno %d\n", ehd_provider_name(provider),
           ehd_provider_options(provider), ehd_provider_errno(provider));

    values_event(b, setA, "Values1", event_field_encoding_value8, &feat_v8);
    values_event(b, setA, "Values2", event_field_encoding_value16, &feat_v16);
    values_event(b, setA, "Values4", event_field_encoding_value32, &feat_v32);
    values_event(b, setA, "Values8", event_field_encoding_value64, &feat_v64);
    values_event(b, setA, "Values16", event_field_encoding_value128, feat_v128);

    {
        static uint16_t const s16[] = { 'w', 'i', 'd', 'e', ' ', 0xfc };
        static uint32_t const s32[] = { 'w', 'i', 'd', 'e', 'r', ' ', 0x1D11E };
        static wchar_t const sw[] = L"wchar";
        static uint16_t const z16[] = { 'z', '1', '6', 0 };
        static uint32_t const z32[] = { 'z', '3', '2', 0, 'x' };
        static wchar_t const zw[] = L"zw";
        ehd_builder_reset(b, "Strings", N, 0);
        str8(b, "s8", "hello", N, 0, 0);
        ehd_builder_add_string(b, "s16", N, event_field_encoding_string_length16_char16, 0, 0, s16, 6);
        ehd_builder_add_string(b, "s32", N, event_field_encoding_string_length16_char32, 0, 0, s32, 7);
        ehd_builder_add_string(b, "sw", N, event_field_encoding_string_length16_wchar, 0, 0, sw, N);
        ehd_builder_add_string(b, "z8", N, event_field_encoding_zstring_char8, 0, 0, "zero\0tail", 9);
        ehd_builder_add_string(b, "z16", N, event_field_encoding_zstring_char16, 0, 0, z16, N);
        ehd_builder_add_string(b, "z32", N, event_field_encoding_zstring_char32, 0, 0, z32, 5);
        ehd_builder_add_string(b, "zw", N, event_field_encoding_zstring_wchar, 0, 0, zw, 2);
        ehd_builder_add_string(b, "bin", N, event_field_encoding_binary_length16_char8, 0, 0,
                               "\x01\x02\x00\x03", 4);
        str8(b, "json", "{\"a\":1}", N, event_field_format_string_json, 7);
        str8(b, "xml", "<a/>", N, event_field_format_string_xml, 0);
        str8(b, "latin1", "caf\xe9", N, event_field_format_string8, 0);
        ehd_builder_add_string(b, "bom", N, event_field_encoding_zstring_char8,
                               event_field_format_string_utf_bom, 0, "\xef\xbb\xbf" "bom", N);
        str8(b, "hex", "AB", 2, event_field_format_hex_bytes, 0);
        str8(b, "empty", NULL, 0, 0, 0);
        check_write("Strings", ehd_builder_write(b, setA, NULL, NULL));
    }

    {
        static uint8_t const bytes[3] = { 1, 2, 3 };
        static int32_t const ints[3] = { -1, 0, 1 };
        static double const doubles[2] = { 0.5, -2.0 };
        uint8_t guids[32];
        static char const* const strs[2] = { "ab", "" };
        static uint16_t const x16[] = { 'x' }, yz16[] = { 'y', 'z' };
        void const* const strs16[2] = { x16, yz16 };
        static size_t const counts16[2] = { 1, 2 };
        static char const* const zstrs[2] = { "one", "two" };
        static wchar_t const w[] = L"w";
        void const* const wstrs[1] = { w };
        static char const* const blobs[2] = { "\x00\x01", "\xff" };
        static size_t const blob_sizes[2] = { 2, 1 };
        memcpy(guids, feat_v128, 16);
        memcpy(guids + 16, feat_activity, 16);
        ehd_builder_reset(b, "Ranges", N, 0);
        ehd_builder_add_values(b, "u8s", N, event_field_encoding_value8, 0, 0, bytes, 3);
        ehd_builder_add_values(b, "i32s", N, event_field_encoding_value32 | event_field_encoding_varray_flag,
                               event_field_format_signed_int, 0, ints, 3);
        ehd_builder_add_values(b, "f64s", N, event_field_encoding_value64, event_field_format_float, 5,
                               doubles, 2);
        ehd_builder_add_values(b, "guids", N, event_field_encoding_value128, event_field_format_uuid, 0,
                               guids, 2);
        ehd_builder_add_values(b, "none", N, event_field_encoding_value8, event_field_format_hex_int, 0,
                               NULL, 0);
        ehd_builder_add_strings(b, "strs", N, event_field_encoding_string_length16_char8, 0, 0,
                                (void const* const*)strs, NULL, 2);
        ehd_builder_add_strings(b, "strs16", N, event_field_encoding_string_length16_char16, 0, 0, strs16,
                                counts16, 2);
        ehd_builder_add_strings(b, "zstrs", N, event_field_encoding_zstring_char8, 0, 0,
                                (void const* const*)zstrs, NULL, 2);
        ehd_builder_add_strings(b, "zwstrs", N, event_field_encoding_zstring_wchar, 0, 0, wstrs, NULL, 1);
        ehd_builder_add_strings(b, "blobs", N, event_field_encoding_binary_length16_char8, 0, 0,
                                (void const* const*)blobs, blob_sizes, 2);
        check_write("Ranges", ehd_builder_write(b, setA, NULL, NULL));
    }

    {
        uint32_t const a = 1;
        uint16_t const bb = 2;
        uint8_t const d = 4;
        int64_t const after = -5;
        ehd_builder_reset(b, "Nested", N, 0x1234);
        ehd_builder_set_id_version(b, 42, 3);
        ehd_builder_set_opcode(b, event_opcode_activity_start);
        ehd_builder_add_struct(b, "outer", N, 1, 0, &outer);
        ehd_builder_add_value(b, "a", N, event_field_encoding_value32, 0, 0, &a);
        ehd_builder_add_struct(b, "inner", N, 1, 0x77, &inner);
        ehd_builder_add_value(b, "b", N, event_field_encoding_value16, 0, 0, &bb);
        str8(b, "c", "three", N, 0, 0);
        ehd_builder_set_struct_field_count(b, inner, 2);
        ehd_builder_add_struct(b, "deep", N, 1, 0, NULL);
        ehd_builder_add_struct(b, "deeper", N, 1, 0, NULL);
        ehd_builder_add_value(b, "d", N, event_field_encoding_value8, 0, 0, &d);
        ehd_builder_set_struct_field_count(b, outer, 3);
        ehd_builder_add_value(b, "after", N, event_field_encoding_value64, event_field_format_signed_int, 0,
                              &after);
        check_write("Nested", ehd_builder_write(b, setA, feat_activity, feat_related));
    }

    {
        uint8_t const tail = 9;
        ehd_builder_reset(b, "StructArray", N, 0);
        ehd_builder_add_struct_array(b, "points", N, 3, 0, 3, NULL);
        for (i = 0; i < 3; i++) {
            /* The first element's fields describe every element; the others
               only add their payload. */
            ehd_builder_set_fields_mode(b, i == 0 ? EHD_FIELDS_NORMAL : EHD_FIELDS_PAYLOAD_ONLY);
            ehd_builder_add_value(b, "x", N, event_field_encoding_value32, event_field_format_signed_int, 0,
                                  &feat_points[i].x);
            ehd_builder_add_value(b, "y", N, event_field_encoding_value32, event_field_format_signed_int, 0,
                                  &feat_points[i].y);
            str8(b, "label", feat_points[i].label, N, 0, 0);
        }
        ehd_builder_set_fields_mode(b, EHD_FIELDS_NORMAL);
        ehd_builder_add_value(b, "tail", N, event_field_encoding_value8, 0, 0, &tail);
        check_write("StructArray", ehd_builder_write(b, setA, NULL, NULL));
    }

    {
        int32_t const code = 2;
        ehd_builder_reset(b, "OnSetB", N, 0);
        ehd_builder_add_value(b, "code", N, event_field_encoding_value32, event_field_format_errno, 0, &code);
        check_write("OnSetB", ehd_builder_write(b, setB, NULL, NULL));
        check_write("OnSetB again", ehd_builder_write(b, setB, NULL, NULL));
    }

    /* --- C only --- */
    {
        /* Port numbers are in network byte order (big-endian): 80, 443, 8080. */
        static uint16_t ports[3];
        static char const* const names[2] = { "alpha", "beta" };
        static uint8_t const ids[2] = { 7, 8 };
        static uint8_t const raw[2] = { 0xaa, 0xbb };
        size_t bookmark;
        static uint8_t const port_bytes[6] = { 0, 80, 0x01, 0xbb, 0x1f, 0x90 };
        memcpy(ports, port_bytes, sizeof(ports));
        ehd_builder_reset(b, "CArrays", N, 0);
        ehd_builder_add_values(b, "ports", N, event_field_encoding_value16 | event_field_encoding_carray_flag,
                               event_field_format_port, 0, ports, 3);
        ehd_builder_add_strings(b, "names", N,
                                event_field_encoding_zstring_char8 | event_field_encoding_carray_flag, 0, 0x42,
                                (void const* const*)names, NULL, 2);
        /* A struct array whose member count is set by bookmark, and an empty one. */
        ehd_builder_add_struct_array(b, "items", N, 1, 0, 2, &bookmark);
        for (i = 0; i < 2; i++) {
            ehd_builder_set_fields_mode(b, i == 0 ? EHD_FIELDS_NORMAL : EHD_FIELDS_PAYLOAD_ONLY);
            ehd_builder_add_value(b, "id", N, event_field_encoding_value8, 0, 0, &ids[i]);
            str8(b, "name", names[i], N, 0, 0);
        }
        ehd_builder_set_fields_mode(b, EHD_FIELDS_NORMAL);
        ehd_builder_set_struct_field_count(b, bookmark, 2);
        ehd_builder_add_struct_array(b, "nothing", N, 1, 0x99, 0, NULL);
        ehd_builder_set_fields_mode(b, EHD_FIELDS_METADATA_ONLY);
        ehd_builder_add_value(b, "id", N, event_field_encoding_value8, 0, 0, &ids[0]);
        ehd_builder_set_fields_mode(b, EHD_FIELDS_NORMAL);
        ehd_builder_raw_add_meta(b, "raw", N, event_field_encoding_value8 | event_field_encoding_carray_flag,
                                 event_field_format_hex_int, 0, 2);
        ehd_builder_raw_add_data(b, raw, 2);
        check_write("CArrays", ehd_builder_write(b, setA, NULL, NULL));
    }

    {
        uint8_t const one = 1;
        ehd_builder_reset(b, "HeaderValues", N, 0x1111);
        ehd_builder_set_tag(b, 0xbeef);
        ehd_builder_set_level(b, event_level_verbose);
        ehd_builder_set_id_version(b, 7, 1);
        ehd_builder_set_opcode(b, event_opcode_activity_stop);
        ehd_builder_add_value(b, "one", N, event_field_encoding_value8, event_field_format_boolean, 0, &one);
        check_write("HeaderValues", ehd_builder_write(b, setA, feat_activity, NULL));
        check_write("Unchanged", ehd_builder_write(b, setA, NULL, NULL));
    }

    CHECK(ehd_builder_error(b) == 0);
    ehd_builder_delete(b);
    ehd_provider_delete(provider);
    printf("dyn_features (C): %u failed\n", g_failed);
    return g_failed == 0 ? 0 : 1;
}
