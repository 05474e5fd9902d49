/*
Runtime-defined events in C++ (eventheader/EventHeaderDynamic.h, namespace
ehd: the reference's API). The same events as sample.c, with provider
DynSample_Cpp.

Build (from the repository root, after cargo build):
    c++ -std=c++17 -Iinclude samples/dynamic/sample.cpp -Ltarget/debug -leventheader_tracepoint \
        -Wl,-rpath,$PWD/target/debug -o dyn_sample_cpp
Run with TRACEPOINT_CAPTURE_FILE=/tmp/events.dat (or with perf listening on
user_events:DynSample_Cpp_L4K1Gsamples and ..._L2K1Gsamples).
*/
#include <eventheader/EventHeaderDynamic.h>

#include <stdint.h>
#include <stdio.h>
#include <string>
#include <utility>
#include <vector>

using Headers = std::vector<std::pair<std::string, std::string>>;

static void WriteRequest(ehd::EventBuilder& eb, ehd::EventSet const& set, uint8_t const* activity,
    std::string_view url, int32_t status, double ms, Headers const& headers)
{
    static char const* const tags[2] = { "web", "sample" };
    uint32_t const clientIp = 0x0100007f; // 127.0.0.1, network byte order in memory
    uint16_t const clientPort = 0x5c11;   // 4444, network byte order in memory

    eb.Reset("Request")
        .AddString<char>("url", url, event_field_format_default)
        .AddValue("status", status, event_field_format_signed_int)
        .AddValue("ms", ms, event_field_format_float)
        .AddStringRange<char>("tags", &tags[0], &tags[2], event_field_format_default)
        .AddStruct("client", 2) // the next 2 fields are its members
            .AddValue("ip", clientIp, event_field_format_ip_address)
            .AddValue("port", clientPort, event_field_format_port);

    // An array of structs, with the raw methods (as with the reference):
    // struct metadata with a variable count, the members' metadata once, then
    // the count and each element's members.
    eb.RawAddMetaVcount("headers", event_field_encoding_struct, static_cast<event_field_format>(2))
        .RawAddMetaScalar("name", event_field_encoding_string_length16_char8, event_field_format_default)
        .RawAddMetaScalar("value", event_field_encoding_string_length16_char8, event_field_format_default)
        .RawAddDataValue(static_cast<uint16_t>(headers.size()));
    for (auto const& header : headers)
    {
        for (std::string const* text : { &header.first, &header.second })
        {
            auto const len = static_cast<uint16_t>(text->size());
            eb.RawAddDataValue(len).RawAddDataValues(text->data(), len);
        }
    }

    int const err = eb.Write(set, activity);
    if (err != 0)
    {
        printf("Request: write returned %d\n", err);
    }
}

int main()
{
    static uint8_t const activity[16] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
                                          0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0 };
    Headers const headers = { { "accept", "*/*" }, { "host", "example.org" } };

    ehd::Provider provider("DynSample_Cpp", "samples"); // options "Gsamples"
    printf("DynSample_Cpp: open returned %d\n", provider.Errno());

    auto const info = provider.RegisterSet(event_level_information, 0x1);
    auto const error = provider.RegisterSet(event_level_error, 0x1);
    ehd::EventBuilder eb;

    if (ehd::Enabled(info)) // non-null and somebody listens
    {
        eb.Reset("Started").Opcode(event_opcode_activity_start).Write(*info, activity);
        WriteRequest(eb, *info, activity, "/index.html", 200, 1.5, headers);
        WriteRequest(eb, *info, activity, "/favicon.ico", 404, 0.25, Headers(headers.begin(), headers.begin() + 1));
        eb.Reset("Stopped").Opcode(event_opcode_activity_stop).Write(*info, activity);
    }

    if (ehd::Enabled(error))
    {
        eb.Reset("Failure")
            .AddValue("errno", int32_t(2), event_field_format_errno)
            .AddString<char>("detail", "no such file", event_field_format_default)
            .Write(*error);
    }

    return 0; // the provider unregisters its sets when destroyed
}
