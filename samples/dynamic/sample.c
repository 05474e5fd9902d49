/*
Runtime-defined events in C (eventheader/eventheader-dynamic.h): the event
names, fields and types are data here, as they would be in a log exporter or
a language binding.

Build (from the repository root, after cargo build):
    cc -std=c11 -Iinclude samples/dynamic/sample.c -Ltarget/debug -leventheader_tracepoint \
        -Wl,-rpath,$PWD/target/debug -o dyn_sample_c
Run with a collector listening (perf record -e user_events:DynSample_C_L4K1Gsamples
-e user_events:DynSample_C_L2K1Gsamples), or with TRACEPOINT_CAPTURE_FILE=/tmp/events.dat
to capture the events to a file (decode: cargo run -p eventheader-cli -- decode /tmp/events.dat).
*/
#include <eventheader/eventheader-dynamic.h>

#include <stdint.h>
#include <stdio.h>

#define NTS EHD_NTS /* the strings below are NUL-terminated */

/* One header of a request: an element of an array of structs. */
struct header {
    char const* name;
    char const* value;
};

static void write_request(ehd_builder* b, ehd_event_set* set, uint8_t const activity[16],
                          char const* url, int32_t status, double ms,
                          struct header const* headers, uint16_t header_count)
{
    static char const* const tags[2] = { "web", "sample" };
    uint32_t const client_ip = 0x0100007f; /* 127.0.0.1, network byte order in memory */
    uint16_t const client_port = 0x5c11;   /* 4444, network byte order in memory */
    uint16_t i;
    int err;

    ehd_builder_reset(b, "Request", NTS, 0);
    ehd_builder_add_string(b, "url", NTS, event_field_encoding_string_length16_char8,
                           event_field_format_default, 0, url, NTS);
    ehd_builder_add_value(b, "status", NTS, event_field_encoding_value32,
                          event_field_format_signed_int, 0, &status);
    ehd_builder_add_value(b, "ms", NTS, event_field_encoding_value64, event_field_format_float, 0, &ms);
    ehd_builder_add_strings(b, "tags", NTS, event_field_encoding_string_length16_char8,
                            event_field_format_default, 0, (void const* const*)tags, NULL, 2);

    /* A struct: the next 2 fields are its members. */
    ehd_builder_add_struct(b, "client", NTS, 2, 0, NULL);
    ehd_builder_add_value(b, "ip", NTS, event_field_encoding_value32, event_field_format_ip_address, 0,
                          &client_ip);
    ehd_builder_add_value(b, "port", NTS, event_field_encoding_value16, event_field_format_port, 0,
                          &client_port);

    /* An array of structs: the first element's fields describe all of them,
       the other elements add their payload only. */
    ehd_builder_add_struct_array(b, "headers", NTS, 2, 0, header_count, NULL);
    for (i = 0; i < header_count; i++) {
        ehd_builder_set_fields_mode(b, i == 0 ? EHD_FIELDS_NORMAL : EHD_FIELDS_PAYLOAD_ONLY);
        ehd_builder_add_string(b, "name", NTS, event_field_encoding_string_length16_char8, 0, 0,
                               headers[i].name, NTS);
        ehd_builder_add_string(b, "value", NTS, event_field_encoding_string_length16_char8, 0, 0,
                               headers[i].value, NTS);
    }
    ehd_builder_set_fields_mode(b, EHD_FIELDS_NORMAL);

    /* Errors are latched: checking the write is enough. */
    err = ehd_builder_write(b, set, activity, NULL);
    if (err != 0)
        printf("Request: write returned %d\n", err);
}

int main(void)
{
    static uint8_t const activity[16] = { 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8,
                                          0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf, 0xb0 };
    static struct header const headers[2] = { { "accept", "*/*" }, { "host", "example.org" } };
    ehd_provider* provider;
    ehd_event_set* info;
    ehd_event_set* error;
    ehd_builder* b;

    /* Provider "DynSample_C" in the provider group "samples" (options "Gsamples"). */
    provider = ehd_provider_new("DynSample_C", NTS, "Gsamples", NTS);
    if (provider == NULL)
        return 1; /* out of memory */
    printf("DynSample_C: open returned %d\n", ehd_provider_errno(provider));

    /* One event set (tracepoint) per level and keyword. */
    info = ehd_provider_register_set(provider, event_level_information, 0x1);
    error = ehd_provider_register_set(provider, event_level_error, 0x1);
    b = ehd_builder_new(0, 0);
    if (info == NULL || error == NULL || b == NULL)
        return 1;

    if (EHD_EVENT_SET_ENABLED(info)) { /* build nothing if nobody listens */
        ehd_builder_reset(b, "Started", NTS, 0);
        ehd_builder_set_opcode(b, event_opcode_activity_start);
        ehd_builder_write(b, info, activity, NULL);

        write_request(b, info, activity, "/index.html", 200, 1.5, headers, 2);
        write_request(b, info, activity, "/favicon.ico", 404, 0.25, headers, 1);

        ehd_builder_reset(b, "Stopped", NTS, 0);
        ehd_builder_set_opcode(b, event_opcode_activity_stop);
        ehd_builder_write(b, info, activity, NULL);
    }

    if (EHD_EVENT_SET_ENABLED(error)) {
        int32_t const code = 2; /* ENOENT */
        ehd_builder_reset(b, "Failure", NTS, 0);
        ehd_builder_add_value(b, "errno", NTS, event_field_encoding_value32, event_field_format_errno, 0,
                              &code);
        ehd_builder_add_string(b, "detail", NTS, event_field_encoding_string_length16_char8,
                               event_field_format_default, 0, "no such file", NTS);
        ehd_builder_write(b, error, NULL, NULL);
    }

    ehd_builder_delete(b);
    ehd_provider_delete(provider); /* unregisters the sets */
    return 0;
}
