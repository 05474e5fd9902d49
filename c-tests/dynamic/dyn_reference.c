/*
The reference suite's 114 runtime-defined events (reference_events.h) through
the C API of eventheader-dynamic.h.

    dyn_reference            write the 114 events (TRACEPOINT_CAPTURE_FILE: to that
                             file; else to user_events, where every write must succeed,
                             i.e. a collector must listen)
    dyn_reference --names    print the tracepoint name (one per line)

Exit status 0 if every call succeeded.
*/
#include <eventheader/eventheader-dynamic.h>

#include <stdio.h>
#include <string.h>

#include "reference_events.h"

int main(int argc, char** argv)
{
    ehd_provider* provider;
    ehd_event_set* set;
    ehd_builder* builder;
    unsigned f, s, written = 0, failed = 0;

    if (argc > 1 && strcmp(argv[1], "--names") == 0) {
        printf("%s\n", REF_TRACEPOINT);
        return 0;
    }

    provider = ehd_provider_new(REF_PROVIDER, EHD_NTS, NULL, 0);
    set = ehd_provider_register_set(provider, event_level_verbose, 1);
    builder = ehd_builder_new(256, 256);
    if (!provider || !set || !builder) {
        fprintf(stderr, "dyn_reference: out of memory\n");
        return 1;
    }
    if (ehd_event_set_errno(set) != 0)
        fprintf(stderr, "dyn_reference: registering %s: errno %d\n", REF_TRACEPOINT,
                ehd_event_set_errno(set));

    for (f = 0; f < DYN_FORMAT_COUNT; f++) {
        uint8_t const format = (uint8_t)dyn_formats[f].format;
        for (s = 0; s < REF_SIZE_COUNT; s++) {
            unsigned const size = ref_sizes[s];
            unsigned char one[16], big[16];
            char names[4][16];
            int err;
            ref_values(size, one, big);
            ref_field_names(size, names);
            ehd_builder_reset(builder, dyn_formats[f].name, EHD_NTS, 0);
            ehd_builder_add_string(builder, names[0], EHD_NTS,
                                   event_field_encoding_binary_length16_char8, format, 0, one, size);
            ehd_builder_add_string(builder, names[1], EHD_NTS,
                                   event_field_encoding_string_length16_char8, format, 0, one, size);
            ehd_builder_add_string(builder, names[2], EHD_NTS,
                                   event_field_encoding_binary_length16_char8, format, 0, big, size);
            ehd_builder_add_string(builder, names[3], EHD_NTS,
                                   event_field_encoding_string_length16_char8, format, 0, big, size);
            err = ehd_builder_write(builder, set, NULL, NULL);
            if (err != 0) {
                fprintf(stderr, "dyn_reference: %s size %u: write returned %d\n",
                        dyn_formats[f].name, size, err);
                failed++;
            }
            written++;
        }
    }

    ehd_builder_delete(builder);
    ehd_provider_delete(provider);
    printf("dyn_reference (C): %u events, %u failed\n", written, failed);
    return failed == 0 && written == REF_EVENT_COUNT ? 0 : 1;
}
