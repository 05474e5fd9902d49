/*
dynamic.cpp: runtime-defined events through the public EventHeaderDynamic.h
(C++) API, and through eventheader-dynamic.h (C) where the implementation has
one, beside bench.c's TraceLoggingWrite modes. The C++ modes compile against
any implementation of EventHeaderDynamic.h (benches/side-by-side.sh builds
this file against another one too); the C modes only against ours.

    dynamic MODE N [--tracefs-enable]

Runs MODE N times and prints "MODE N NS_PER_ITER" (wall clock around the loop).
Modes (one builder, reused, unless said otherwise):
  dynamic5cpp       Reset, AddValue int32, AddValue uint64,
                    AddNulTerminatedString of a 31-character std::string_view,
                    AddValue double, AddValue int32 as boolean, Write
  dynamic5          the same event through the C API (names NUL-terminated,
                    the string's length given): the header's inline fast paths
  dynamic5exports   the same through the exported C functions alone, as
                    programs in other languages call them: an event
                    definition made once (ehd_event_def_new), then per event
                    5 ehd_value filled and one ehd_event_def_write call
  dynamic5array     the same through one ehd_builder_write_fields call with
                    an array of 5 ehd_field (names and the string's length
                    given), filled per event as a binding fills it
  dynamic5calls     the same through the per-field exports (each name in
                    parentheses: no inline fast path; names NUL-terminated):
                    reset, 5 adds, write
  dynamic_disabled  the same event to an event set nobody listens to
                    (EhtBenchDyn_L5K2): the EventSet::Enabled() test, nothing built
  dynamic20cpp      20 fields: the 5 of dynamic5cpp four times
  dynamic4kcpp      one AddNulTerminatedString of 4096 characters

Backends as bench.c: TRACEPOINT_CAPTURE_FILE (use /dev/null), else user_events,
where --tracefs-enable enables the tracepoint EhtBenchDyn_L5K1 (and the C
mode's EhtBenchDynC_L5K1) through tracefs.
Exit status: 0; 1 if an enabled write fails or the disabled set is enabled;
3 for a C mode built against an implementation without the C API.
*/
#include <eventheader/EventHeaderDynamic.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <string_view>

#include "bench-common.h"

#define DYN_TRACEPOINT "EhtBenchDyn_L5K1"
#define DYN_C_TRACEPOINT "EhtBenchDynC_L5K1"

/* Our eventheader-dynamic.h, included by our EventHeaderDynamic.h, defines it. */
#ifdef EHD_NTS
#define HAVE_C_API 1
#endif

static char const g_str31[] = "a string of 31 characters: abcd";
static_assert(sizeof(g_str31) == 32, "31 characters");
static char g_str4k[4096];

/* Each event is built and written by a function of its own (not inlined, the
   same call in every build), called when its set is enabled: the loop holds
   the Enabled() test, as in a program that tests before it builds. */
#define WHEN_ENABLED(set, write) ((set).Enabled() ? (write) : EBADF)

__attribute__((noinline)) static int write5(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned i)
{
    return eb.Reset("Enabled5")
        .AddValue("i32", (int32_t)i, event_field_format_signed_int)
        .AddValue("u64", (uint64_t)i * 3u, event_field_format_default)
        .AddNulTerminatedString("str", std::string_view(g_str31, 31), event_field_format_default)
        .AddValue("f64", (double)i * 0.5, event_field_format_float)
        .AddValue("flag", (int32_t)(i & 1u), event_field_format_boolean)
        .Write(set);
}

__attribute__((noinline)) static int run_dynamic5cpp(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)WHEN_ENABLED(set, write5(eb, set, i));
    }
    return WHEN_ENABLED(set, write5(eb, set, n));
}

__attribute__((noinline)) static int run_disabled(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)WHEN_ENABLED(set, write5(eb, set, i));
    }
    return 0;
}

#define FIVE(eb, b, i) \
    (eb).AddValue("i32_" #b, (int32_t)(i) + b, event_field_format_signed_int) \
        .AddValue("u64_" #b, (uint64_t)(i) * 3u + b, event_field_format_default) \
        .AddNulTerminatedString("str_" #b, std::string_view(g_str31, 31), event_field_format_default) \
        .AddValue("f64_" #b, (double)(i) * 0.5 + b, event_field_format_float) \
        .AddValue("flag_" #b, (int32_t)(((i) >> b) & 1u), event_field_format_boolean)

__attribute__((noinline)) static int write20(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned i)
{
    eb.Reset("Fields20");
    FIVE(eb, 0, i);
    FIVE(eb, 1, i);
    FIVE(eb, 2, i);
    FIVE(eb, 3, i);
    return eb.Write(set);
}

__attribute__((noinline)) static int run_dynamic20cpp(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)WHEN_ENABLED(set, write20(eb, set, i));
    }
    return WHEN_ENABLED(set, write20(eb, set, n));
}

__attribute__((noinline)) static int write4k(ehd::EventBuilder& eb, ehd::EventSet const& set)
{
    return eb.Reset("String4k")
        .AddNulTerminatedString("big", std::string_view(g_str4k, sizeof g_str4k), event_field_format_default)
        .Write(set);
}

__attribute__((noinline)) static int run_dynamic4kcpp(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)WHEN_ENABLED(set, write4k(eb, set));
    }
    return WHEN_ENABLED(set, write4k(eb, set));
}

#ifdef HAVE_C_API
__attribute__((noinline)) static int write5_c(ehd_builder* b, ehd_event_set const* set, unsigned i)
{
    int32_t const i32 = (int32_t)i;
    uint64_t const u64 = (uint64_t)i * 3u;
    double const f64 = (double)i * 0.5;
    int32_t const flag = (int32_t)(i & 1u);
    ehd_builder_reset(b, "Enabled5", EHD_NTS, 0);
    ehd_builder_add_value(b, "i32", EHD_NTS, event_field_encoding_value32, event_field_format_signed_int, 0, &i32);
    ehd_builder_add_value(b, "u64", EHD_NTS, event_field_encoding_value64, event_field_format_default, 0, &u64);
    ehd_builder_add_string(b, "str", EHD_NTS, event_field_encoding_zstring_char8, event_field_format_default, 0,
        g_str31, 31);
    ehd_builder_add_value(b, "f64", EHD_NTS, event_field_encoding_value64, event_field_format_float, 0, &f64);
    ehd_builder_add_value(b, "flag", EHD_NTS, event_field_encoding_value32, event_field_format_boolean, 0, &flag);
    return ehd_builder_write(b, set, NULL, NULL);
}

/* The same calls, each to the exported function. */
__attribute__((noinline)) static int write5_calls(ehd_builder* b, ehd_event_set const* set, unsigned i)
{
    int32_t const i32 = (int32_t)i;
    uint64_t const u64 = (uint64_t)i * 3u;
    double const f64 = (double)i * 0.5;
    int32_t const flag = (int32_t)(i & 1u);
    (ehd_builder_reset)(b, "Enabled5", EHD_NTS, 0);
    (ehd_builder_add_value)(b, "i32", EHD_NTS, event_field_encoding_value32, event_field_format_signed_int, 0, &i32);
    (ehd_builder_add_value)(b, "u64", EHD_NTS, event_field_encoding_value64, event_field_format_default, 0, &u64);
    (ehd_builder_add_string)(b, "str", EHD_NTS, event_field_encoding_zstring_char8, event_field_format_default, 0,
        g_str31, 31);
    (ehd_builder_add_value)(b, "f64", EHD_NTS, event_field_encoding_value64, event_field_format_float, 0, &f64);
    (ehd_builder_add_value)(b, "flag", EHD_NTS, event_field_encoding_value32, event_field_format_boolean, 0, &flag);
    return ehd_builder_write(b, set, NULL, NULL);
}

/* The 5 fields' definitions: made once (their values are not read). */
static ehd_field const g_fields5[5] = {
    { "i32", 3, NULL, 0, event_field_encoding_value32, event_field_format_signed_int, 0 },
    { "u64", 3, NULL, 0, event_field_encoding_value64, event_field_format_default, 0 },
    { "str", 3, NULL, 0, event_field_encoding_zstring_char8, event_field_format_default, 0 },
    { "f64", 3, NULL, 0, event_field_encoding_value64, event_field_format_float, 0 },
    { "flag", 4, NULL, 0, event_field_encoding_value32, event_field_format_boolean, 0 },
};
static ehd_event_def* g_def5;

__attribute__((noinline)) static int write5_exports(ehd_builder* b, ehd_event_set const* set, unsigned i)
{
    int32_t const i32 = (int32_t)i;
    uint64_t const u64 = (uint64_t)i * 3u;
    double const f64 = (double)i * 0.5;
    int32_t const flag = (int32_t)(i & 1u);
    ehd_value const values[5] = {
        { &i32, sizeof i32 }, { &u64, sizeof u64 }, { g_str31, 31 }, { &f64, sizeof f64 }, { &flag, sizeof flag },
    };
    (void)b;
    return ehd_event_def_write(g_def5, set, values, 5, NULL, NULL);
}

__attribute__((noinline)) static int write5_array(ehd_builder* b, ehd_event_set const* set, unsigned i)
{
    int32_t const i32 = (int32_t)i;
    uint64_t const u64 = (uint64_t)i * 3u;
    double const f64 = (double)i * 0.5;
    int32_t const flag = (int32_t)(i & 1u);
    ehd_field const fields[5] = {
        { "i32", 3, &i32, 0, event_field_encoding_value32, event_field_format_signed_int, 0 },
        { "u64", 3, &u64, 0, event_field_encoding_value64, event_field_format_default, 0 },
        { "str", 3, g_str31, 31, event_field_encoding_zstring_char8, event_field_format_default, 0 },
        { "f64", 3, &f64, 0, event_field_encoding_value64, event_field_format_float, 0 },
        { "flag", 4, &flag, 0, event_field_encoding_value32, event_field_format_boolean, 0 },
    };
    return ehd_builder_write_fields(b, set, "Enabled5", 8, fields, 5, NULL, NULL);
}

typedef int (*write_c_fn)(ehd_builder*, ehd_event_set const*, unsigned);

__attribute__((noinline)) static int run_c(write_c_fn write, ehd_builder* b, ehd_event_set const* set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)(EHD_EVENT_SET_ENABLED(set) ? write(b, set, i) : EBADF);
    }
    return EHD_EVENT_SET_ENABLED(set) ? write(b, set, n) : EBADF;
}

/* A C mode: its own provider and builder. */
static int c_mode(char const* mode, write_c_fn write, unsigned n, bool enable, double* ns)
{
    ehd_provider* const provider = ehd_provider_new("EhtBenchDynC", EHD_NTS, NULL, 0);
    ehd_event_set* const set = ehd_provider_register_set(provider, 5, 1);
    ehd_builder* const b = ehd_builder_new(0, 0);
    g_def5 = ehd_event_def_new("Enabled5", 8, g_fields5, 5, 0);
    int err = !provider || !set || !b || !g_def5 ? ENOMEM : ehd_event_set_errno(set);
    if (err == 0 && enable && tracefs_enable(DYN_C_TRACEPOINT)) {
        err = EIO;
    }
    if (err != 0) {
        fprintf(stderr, "dynamic: setup: %s\n", strerror(err));
        return 1;
    }
    double const t0 = now_ns();
    err = run_c(write, b, set, n);
    *ns = now_ns() - t0;
    ehd_builder_delete(b);
    ehd_event_def_delete(g_def5);
    ehd_provider_delete(provider);
    if (err != 0) {
        fprintf(stderr, "dynamic: %s: write failed: %s\n", mode, strerror(err));
        return 1;
    }
    return 0;
}
#endif

int main(int argc, char* argv[])
{
    if (argc < 3) {
        fprintf(stderr, "usage: dynamic dynamic5cpp|dynamic5|dynamic5exports|dynamic5array|dynamic5calls|dynamic_disabled|dynamic20cpp|dynamic4kcpp N "
                        "[--tracefs-enable]\n");
        return 2;
    }
    char const* mode = argv[1];
    unsigned const n = (unsigned)strtoul(argv[2], NULL, 10);
    bool const enable = argc > 3 && strcmp(argv[3], "--tracefs-enable") == 0;
    bool const capture = getenv("TRACEPOINT_CAPTURE_FILE") != NULL;
    memset(g_str4k, 'x', sizeof g_str4k);

    double ns = 0;
    if (!strcmp(mode, "dynamic5") || !strcmp(mode, "dynamic5exports") || !strcmp(mode, "dynamic5array") ||
        !strcmp(mode, "dynamic5calls")) {
#ifdef HAVE_C_API
        write_c_fn const write = !strcmp(mode, "dynamic5") ? write5_c
            : !strcmp(mode, "dynamic5exports")             ? write5_exports
            : !strcmp(mode, "dynamic5array")               ? write5_array
                                                           : write5_calls;
        if (c_mode(mode, write, n, enable, &ns) != 0) {
            return 1;
        }
        printf("%s %u %.2f\n", mode, n, n ? ns / n : 0.0);
        return 0;
#else
        fprintf(stderr, "dynamic: %s: this implementation has no C API\n", mode);
        return 3;
#endif
    }

    int (*run)(ehd::EventBuilder&, ehd::EventSet const&, unsigned) = NULL;
    if (!strcmp(mode, "dynamic5cpp")) {
        run = run_dynamic5cpp;
    } else if (!strcmp(mode, "dynamic_disabled")) {
        run = run_disabled;
    } else if (!strcmp(mode, "dynamic20cpp")) {
        run = run_dynamic20cpp;
    } else if (!strcmp(mode, "dynamic4kcpp")) {
        run = run_dynamic4kcpp;
    } else {
        fprintf(stderr, "dynamic: unknown mode %s\n", mode);
        return 2;
    }
    bool const disabled = run == run_disabled;

    ehd::Provider provider("EhtBenchDyn");
    ehd::EventBuilder eb;
    // The disabled mode's set has its own tracepoint (keyword 2), never
    // enabled; capture mode enables every registered set, so there it stays
    // unregistered.
    std::shared_ptr<ehd::EventSet const> const set = !disabled
        ? provider.RegisterSet(event_level_verbose, 1)
        : capture ? provider.CreateUnregistered(event_level_verbose, 2)
                  : provider.RegisterSet(event_level_verbose, 2);
    int err = set ? set->Errno() : ENOMEM;
    if (err == 0 && enable && !disabled && tracefs_enable(DYN_TRACEPOINT)) {
        err = EIO;
    }
    if (err != 0) {
        fprintf(stderr, "dynamic: setup: %s\n", strerror(err));
        return 1;
    }

    double const t0 = now_ns();
    err = run(eb, *set, n);
    ns = now_ns() - t0;
    if (disabled && set->Enabled()) {
        fprintf(stderr, "dynamic: the disabled event's set is enabled\n");
        return 1;
    }
    if (err != 0) {
        fprintf(stderr, "dynamic: %s: write failed: %s\n", mode, strerror(err));
        return 1;
    }
    printf("%s %u %.2f\n", mode, n, n ? ns / n : 0.0);
    return 0;
}
