/*
dynamic.cpp: runtime-defined events (eventheader-dynamic.h, EventHeaderDynamic.h)
through the public APIs only, beside bench.c's TraceLoggingWrite modes.

    dynamic MODE N [--tracefs-enable]

Runs MODE N times and prints "MODE N NS_PER_ITER" (wall clock around the loop).
Modes:
  dynamic5          the C API: reset, the 5 fields of bench.c's enabled5 (int32,
                    uint64, NUL-terminated string, float64, bool32), write; one
                    builder reused
  dynamic5cpp       the same event through the C++ API (ehd::EventBuilder)
  dynamic_disabled  the same event to an event set nobody listens to: the
                    inline EHD_EVENT_SET_ENABLED test, nothing built

Backends as bench.c: TRACEPOINT_CAPTURE_FILE (use /dev/null), else user_events,
where --tracefs-enable enables the tracepoint EhtBenchDyn_L5K1 through tracefs.
Exit status: 0, or 1 if an enabled write fails or the disabled set is enabled.
*/
#include <eventheader/EventHeaderDynamic.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-common.h"

#define DYN_TRACEPOINT "EhtBenchDyn_L5K1"

static int write_c(ehd_builder* b, ehd_event_set const* set, unsigned i)
{
    if (!EHD_EVENT_SET_ENABLED(set)) {
        return EBADF;
    }
    int32_t const i32 = (int32_t)i;
    uint64_t const u64 = (uint64_t)i * 3u;
    double const f64 = (double)i * 0.5;
    int32_t const flag = (int32_t)(i & 1u);
    ehd_builder_reset(b, "Enabled5", EHD_NTS, 0);
    ehd_builder_add_value(b, "i32", EHD_NTS, event_field_encoding_value32, event_field_format_signed_int, 0, &i32);
    ehd_builder_add_value(b, "u64", EHD_NTS, event_field_encoding_value64, event_field_format_default, 0, &u64);
    ehd_builder_add_string(b, "str", EHD_NTS, event_field_encoding_zstring_char8, event_field_format_default, 0,
        g_short, EHD_NTS);
    ehd_builder_add_value(b, "f64", EHD_NTS, event_field_encoding_value64, event_field_format_float, 0, &f64);
    ehd_builder_add_value(b, "flag", EHD_NTS, event_field_encoding_value32, event_field_format_boolean, 0, &flag);
    return ehd_builder_write(b, set, NULL, NULL);
}

__attribute__((noinline)) static int run_dynamic5(ehd_builder* b, ehd_event_set const* set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)write_c(b, set, i);
    }
    return write_c(b, set, n);
}

static int write_cpp(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned i)
{
    if (!set.Enabled()) {
        return EBADF;
    }
    return eb.Reset("Enabled5")
        .AddValue("i32", (int32_t)i, event_field_format_signed_int)
        .AddValue("u64", (uint64_t)i * 3u, event_field_format_default)
        .AddNulTerminatedString<char>("str", g_short, event_field_format_default)
        .AddValue("f64", (double)i * 0.5, event_field_format_float)
        .AddValue("flag", (int32_t)(i & 1u), event_field_format_boolean)
        .Write(set);
}

__attribute__((noinline)) static int run_dynamic5cpp(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)write_cpp(eb, set, i);
    }
    return write_cpp(eb, set, n);
}

__attribute__((noinline)) static int run_disabled(ehd_builder* b, ehd_event_set const* set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)write_c(b, set, i);
    }
    return 0;
}

int main(int argc, char* argv[])
{
    if (argc < 3) {
        fprintf(stderr, "usage: dynamic dynamic5|dynamic5cpp|dynamic_disabled N [--tracefs-enable]\n");
        return 2;
    }
    char const* mode = argv[1];
    unsigned const n = (unsigned)strtoul(argv[2], NULL, 10);
    bool const enable = argc > 3 && strcmp(argv[3], "--tracefs-enable") == 0;
    bool const capture = getenv("TRACEPOINT_CAPTURE_FILE") != NULL;

    ehd::Provider provider("EhtBenchDyn");
    ehd::EventBuilder eb;
    ehd_builder* const b = ehd_builder_new(0, 0);
    std::shared_ptr<ehd::EventSet const> set;
    ehd_provider* const cprovider = ehd_provider_new("EhtBenchDynC", EHD_NTS, NULL, 0);
    ehd_event_set* cset = NULL;
    int err = 0;
    if (!strcmp(mode, "dynamic_disabled")) {
        // Capture mode enables every registered set: use one that is not.
        cset = capture ? ehd_provider_create_unregistered(cprovider, 5, 1, 0)
                       : ehd_provider_register_set(cprovider, 5, 1);
    } else if (!strcmp(mode, "dynamic5") || !strcmp(mode, "dynamic5cpp")) {
        set = provider.RegisterSet(event_level_verbose, 1);
        cset = ehd_provider_register_set(cprovider, 5, 1);
        err = set ? set->Errno() : ENOMEM;
        if (err == 0 && enable) {
            err = tracefs_enable(DYN_TRACEPOINT) || tracefs_enable("EhtBenchDynC_L5K1") ? EIO : 0;
        }
    } else {
        fprintf(stderr, "dynamic: unknown mode %s\n", mode);
        return 2;
    }
    if (err != 0 || !b || !cset) {
        fprintf(stderr, "dynamic: setup: %s\n", strerror(err ? err : ENOMEM));
        return 1;
    }

    double const t0 = now_ns();
    if (!strcmp(mode, "dynamic5")) {
        err = run_dynamic5(b, cset, n);
    } else if (!strcmp(mode, "dynamic5cpp")) {
        err = run_dynamic5cpp(eb, *set, n);
    } else {
        err = run_disabled(b, cset, n);
        if (EHD_EVENT_SET_ENABLED(cset)) {
            fprintf(stderr, "dynamic: the disabled event's set is enabled\n");
            return 1;
        }
    }
    double const t1 = now_ns();
    if (err != 0) {
        fprintf(stderr, "dynamic: %s: write failed: %s\n", mode, strerror(err));
        return 1;
    }

    printf("%s %u %.2f\n", mode, n, n ? (t1 - t0) / n : 0.0);
    ehd_builder_delete(b);
    ehd_provider_delete(cprovider);
    return 0;
}
