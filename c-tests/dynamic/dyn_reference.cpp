/*
The reference suite's 114 runtime-defined events (reference_events.h) through
the C++ API of EventHeaderDynamic.h, written the way code for the reference's
header writes them (AddBinary<char> / AddString<char> with string_views).

    dyn_reference_cpp            write the 114 events (as dyn_reference.c)
    dyn_reference_cpp --names    print the tracepoint name

Exit status 0 if every write succeeded.
*/
#include <eventheader/EventHeaderDynamic.h>

#include <stdio.h>
#include <string.h>

#include "reference_events.h"

int main(int argc, char** argv)
{
    if (argc > 1 && strcmp(argv[1], "--names") == 0) {
        printf("%s\n", REF_TRACEPOINT);
        return 0;
    }

    ehd::Provider provider{ REF_PROVIDER };
    auto const set = provider.RegisterSet(event_level_verbose, 1);
    if (!set) {
        fprintf(stderr, "dyn_reference_cpp: out of memory\n");
        return 1;
    }
    if (set->Errno() != 0) {
        fprintf(stderr, "dyn_reference_cpp: registering %s: errno %d\n", REF_TRACEPOINT, set->Errno());
    }

    ehd::EventBuilder builder;
    unsigned written = 0, failed = 0;
    for (auto const& fmt : dyn_formats) {
        for (unsigned const size : ref_sizes) {
            unsigned char one[16], big[16];
            char names[4][16];
            ref_values(size, one, big);
            ref_field_names(size, names);
            std::string_view const oneView(reinterpret_cast<char const*>(one), size);
            std::string_view const bigView(reinterpret_cast<char const*>(big), size);
            int const err = builder.Reset(fmt.name)
                .AddBinary<char>(names[0], oneView, fmt.format)
                .AddString<char>(names[1], oneView, fmt.format)
                .AddBinary<char>(names[2], bigView, fmt.format)
                .AddString<char>(names[3], bigView, fmt.format)
                .Write(*set);
            if (err != 0) {
                fprintf(stderr, "dyn_reference_cpp: %s size %u: write returned %d\n", fmt.name, size, err);
                failed += 1;
            }
            written += 1;
        }
    }

    printf("dyn_reference (C++): %u events, %u failed\n", written, failed);
    return failed == 0 && written == REF_EVENT_COUNT ? 0 : 1;
}
