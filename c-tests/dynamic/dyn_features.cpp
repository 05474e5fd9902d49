/*
Feature events through the C++ API (EventHeaderDynamic.h): every value size
and format, strings of every character size, ranges, nested structs with
bookmarks, an array of structs, header values, activity ids, two event sets.
The events are listed in features_data.h; dyn_features.c writes the same
bytes through the C API. Uses only the reference header's API, so the same
source also builds against the reference implementation.

Exit status 0 if every write succeeded (capture mode: every set is enabled).
*/
#include <eventheader/EventHeaderDynamic.h>

#include <list>
#include <stdio.h>
#include <string>
#include <vector>

#include "features_data.h"

static unsigned g_failed;

static void check_write(char const* what, int err)
{
    if (err != 0) {
        fprintf(stderr, "dyn_features_cpp: %s: write returned %d\n", what, err);
        g_failed += 1;
    }
}

template<class T>
static void values_event(ehd::EventBuilder& eb, ehd::EventSet const& set, char const* name, T const& value)
{
    eb.Reset(name);
    for (unsigned i = 0; i != DYN_FORMAT_COUNT; i += 1) {
        eb.AddValue(dyn_formats[i].name, value, dyn_formats[i].format, feat_field_tag(i));
    }
    check_write(name, eb.Write(set));
}

int main()
{
    ehd::Provider provider(FEAT_PROVIDER, FEAT_GROUP);
    auto const setA = provider.RegisterSet(event_level_verbose, 0x1);
    auto const setB = provider.RegisterSet(event_level_error, 0xf00);
    if (!setA || !setB) {
        fprintf(stderr, "dyn_features_cpp: out of memory\n");
        return 1;
    }
    printf("provider %.*s options %.*s errno %d\n", (int)provider.Name().size(), provider.Name().data(),
        (int)provider.Options().size(), provider.Options().data(), provider.Errno());

    ehd::EventBuilder eb;

    ehd::Value128 v128;
    memcpy(v128.Data, feat_v128, 16);
    values_event(eb, *setA, "Values1", feat_v8);
    values_event(eb, *setA, "Values2", feat_v16);
    values_event(eb, *setA, "Values4", feat_v32);
    values_event(eb, *setA, "Values8", feat_v64);
    values_event(eb, *setA, "Values16", v128);

    using namespace std::string_view_literals;
    eb.Reset("Strings")
        .AddString<char>("s8", "hello", event_field_format_default)
        .AddString<char16_t>("s16", u"wide \u00fc", event_field_format_default)
        .AddString<char32_t>("s32", U"wider \U0001D11E", event_field_format_default)
        .AddString<wchar_t>("sw", L"wchar", event_field_format_default)
        .AddNulTerminatedString<char>("z8", "zero\0tail"sv, event_field_format_default)
        .AddNulTerminatedString<char16_t>("z16", u"z16", event_field_format_default)
        .AddNulTerminatedString<char32_t>("z32", U"z32\0x"sv, event_field_format_default)
        .AddNulTerminatedString<wchar_t>("zw", L"zw", event_field_format_default)
        .AddBinary<char>("bin", "\x01\x02\x00\x03"sv, event_field_format_default)
        .AddString<char>("json", "{\"a\":1}", event_field_format_string_json, 7)
        .AddString<char>("xml", "<a/>", event_field_format_string_xml)
        .AddString<char>("latin1", "caf\xe9", event_field_format_string8)
        .AddNulTerminatedString<char>("bom", "\xef\xbb\xbf" "bom", event_field_format_string_utf_bom)
        .AddString<char>("hex", "AB", event_field_format_hex_bytes)
        .AddString<char>("empty", "", event_field_format_default);
    check_write("Strings", eb.Write(*setA));

    static uint8_t const bytes[3] = { 1, 2, 3 };
    std::vector<int32_t> const ints = { -1, 0, 1 };
    std::list<double> const doubles = { 0.5, -2.0 };
    ehd::Value128 guids[2];
    memcpy(guids[0].Data, feat_v128, 16);
    memcpy(guids[1].Data, feat_activity, 16);
    static char const* const strs[2] = { "ab", "" };
    std::vector<std::u16string> const strs16 = { u"x", u"yz" };
    std::vector<std::string> const zstrs = { "one", "two" };
    static wchar_t const* const wstrs[1] = { L"w" };
    std::vector<std::string_view> const blobs = { "\x00\x01"sv, "\xff"sv };
    eb.Reset("Ranges")
        .AddValueRange("u8s", &bytes[0], &bytes[3], event_field_format_default)
        .AddValueRange("i32s", ints.begin(), ints.end(), event_field_format_signed_int)
        .AddValueRange("f64s", doubles.begin(), doubles.end(), event_field_format_float, 5)
        .AddValueRange("guids", &guids[0], &guids[2], event_field_format_uuid)
        .AddValueRange("none", &bytes[0], &bytes[0], event_field_format_hex_int)
        .AddStringRange<char>("strs", &strs[0], &strs[2], event_field_format_default)
        .AddStringRange<char16_t>("strs16", strs16.begin(), strs16.end(), event_field_format_default)
        .AddNulTerminatedStringRange<char>("zstrs", zstrs.begin(), zstrs.end(), event_field_format_default)
        .AddNulTerminatedStringRange<wchar_t>("zwstrs", &wstrs[0], &wstrs[1], event_field_format_default)
        .AddBinaryRange<char>("blobs", blobs.begin(), blobs.end(), event_field_format_default);
    check_write("Ranges", eb.Write(*setA));

    size_t outer, inner;
    eb.Reset("Nested", 0x1234)
        .IdVersion(42, 3)
        .Opcode(event_opcode_activity_start)
        .AddStruct("outer", 1, 0, &outer)
            .AddValue("a", uint32_t(1), event_field_format_default)
            .AddStruct("inner", 1, 0x77, &inner)
                .AddValue("b", uint16_t(2), event_field_format_default)
                .AddString<char>("c", "three", event_field_format_default)
            .SetStructFieldCount(inner, 2)
            .AddStruct("deep", 1)
                .AddStruct("deeper", 1)
                    .AddValue("d", uint8_t(4), event_field_format_default)
        .SetStructFieldCount(outer, 3)
        .AddValue("after", int64_t(-5), event_field_format_signed_int);
    check_write("Nested", eb.Write(*setA, feat_activity, feat_related));

    // An array of structs, with the reference API's raw methods: struct
    // metadata with a variable count (format = member count), the members'
    // metadata once, then the count and each element's members.
    eb.Reset("StructArray")
        .RawAddMetaVcount("points", event_field_encoding_struct, static_cast<event_field_format>(3))
        .RawAddMetaScalar("x", event_field_encoding_value32, event_field_format_signed_int)
        .RawAddMetaScalar("y", event_field_encoding_value32, event_field_format_signed_int)
        .RawAddMetaScalar("label", event_field_encoding_string_length16_char8, event_field_format_default)
        .RawAddDataValue(uint16_t(3));
    for (auto const& p : feat_points) {
        uint16_t const len = static_cast<uint16_t>(strlen(p.label));
        eb.RawAddDataValue(p.x).RawAddDataValue(p.y).RawAddDataValue(len).RawAddDataValues(p.label, len);
    }
    eb.AddValue("tail", uint8_t(9), event_field_format_default);
    check_write("StructArray", eb.Write(*setA));

    eb.Reset("OnSetB").AddValue("code", int32_t(2), event_field_format_errno);
    check_write("OnSetB", eb.Write(*setB));
    check_write("OnSetB again", eb.Write(*setB));

    printf("dyn_features (C++): %u failed\n", g_failed);
    return g_failed == 0 ? 0 : 1;
}
