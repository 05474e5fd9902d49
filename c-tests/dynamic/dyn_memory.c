/*
No memory growth: 100000 events through one builder once it is warm. Counts
malloc/realloc calls (alloc_hook.h) and reads the resident set size
(/proc/self/status VmRSS) after 1000 warm-up events and after the 100000.

    dyn_memory [EVENTS]

The events have 5 fields (int32, uint64, a string of 0 to 63 characters,
double, bool) and go to the capture file. Prints
"events N allocations A rss-before-kb R1 rss-after-kb R2 anon-before-kb X1
anon-after-kb X2" (RssAnon: heap and stacks; VmRSS adds file-backed pages
such as library code faulted in); exit status 0 if every write succeeded.
*/
#include <eventheader/eventheader-dynamic.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "alloc_hook.h"

#define N EHD_NTS

/* A "Key:   N kB" line of /proc/self/status, in kB. */
static long status_kb(char const* key)
{
    char line[256];
    size_t const len = strlen(key);
    long kb = -1;
    FILE* f = fopen("/proc/self/status", "r");
    CHECK(f);
    while (fgets(line, sizeof(line), f))
        if (strncmp(line, key, len) == 0 && line[len] == ':')
            kb = strtol(line + len + 1, NULL, 10);
    fclose(f);
    CHECK(kb >= 0);
    return kb;
}

static void one_event(ehd_builder* b, ehd_event_set* set, unsigned i)
{
    static char const text[64] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    int32_t const i32 = (int32_t)i;
    uint64_t const u64 = (uint64_t)i * 3u;
    double const f64 = i * 0.5;
    int32_t const flag = (int32_t)(i & 1u);
    ehd_builder_reset(b, "Five", N, 0);
    ehd_builder_add_value(b, "i32", N, event_field_encoding_value32, event_field_format_signed_int, 0, &i32);
    ehd_builder_add_value(b, "u64", N, event_field_encoding_value64, 0, 0, &u64);
    ehd_builder_add_string(b, "str", N, event_field_encoding_string_length16_char8, 0, 0, text, i % 64);
    ehd_builder_add_value(b, "f64", N, event_field_encoding_value64, event_field_format_float, 0, &f64);
    ehd_builder_add_value(b, "flag", N, event_field_encoding_value32, event_field_format_boolean, 0, &flag);
    CHECK_EQ_INT(0, ehd_builder_write(b, set, NULL, NULL));
}

int main(int argc, char** argv)
{
    unsigned const events = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100000;
    ehd_provider* p = ehd_provider_new("DynMemory", N, NULL, 0);
    ehd_event_set* set = ehd_provider_register_set(p, 5, 1);
    ehd_builder* b = ehd_builder_new(0, 0); /* grows during the warm-up */
    unsigned long calls_before, calls_after;
    long rss_before, rss_after, anon_before, anon_after;
    unsigned i;
    CHECK(p && set && b && EHD_EVENT_SET_ENABLED(set));

    for (i = 0; i < 1000; i++)
        one_event(b, set, i);
    rss_before = status_kb("VmRSS");
    anon_before = status_kb("RssAnon");
    calls_before = alloc_calls();
    for (i = 0; i < events; i++)
        one_event(b, set, i);
    calls_after = alloc_calls();
    rss_after = status_kb("VmRSS");
    anon_after = status_kb("RssAnon");

    printf("events %u allocations %lu rss-before-kb %ld rss-after-kb %ld anon-before-kb %ld anon-after-kb %ld\n",
           events, calls_after - calls_before, rss_before, rss_after, anon_before, anon_after);
    ehd_builder_delete(b);
    ehd_provider_delete(p);
    return 0;
}
