/*
exporter.cpp: a log exporter's record through the public EventHeaderDynamic.h
API: the shape of a logs exporter that turns each log record into one
runtime-defined event (as the OpenTelemetry C++ user_events logs exporter
does). Compiles against any implementation of EventHeaderDynamic.h
(benches/side-by-side.sh builds it against another one too).

    exporter MODE N [--tracefs-enable]

Runs MODE N times and prints "MODE N NS_PER_ITER" (wall clock around the loop).
Each record: Reset, then 16 fields: a version (uint16, hex), a struct of 3
(a 27-character time string, a severity number, a severity text), the body
(a 56-character string), an event id (int64), trace and span ids (32 and 16
hex characters), trace flags (uint8), an HTTP method (string), a status code
(int64), a duration (double), a cache hit (bool), 4 retry delays (an int32
array) and 3 tags (a string array), then Write.
Modes:
  exporter_fresh   a new EventBuilder for every record, as the exporter does
  exporter_reused  one EventBuilder for every record

Backends as bench.c: TRACEPOINT_CAPTURE_FILE (use /dev/null), else user_events,
where --tracefs-enable enables the tracepoint EhtBenchExp_L4K1 through tracefs.
Exit status: 0, or 1 if a write fails.
*/
#include <eventheader/EventHeaderDynamic.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <string_view>

#include "bench-common.h"

#define EXP_TRACEPOINT "EhtBenchExp_L4K1"

using namespace std::string_view_literals;

static std::string_view const g_time = "2024-05-01T12:34:56.789012Z"sv;
static std::string_view const g_body = "GET /api/v1/orders/12345 returned 200 after 3 retries ."sv;
static std::string_view const g_trace_id = "4bf92f3577b34da6a3ce929d0e0e4736"sv;
static std::string_view const g_span_id = "00f067aa0ba902b7"sv;
static int32_t const g_retries[4] = { 10, 20, 40, 80 };
static std::string_view const g_tags[3] = { "frontend"sv, "eu-west"sv, "canary"sv };

/* The record is built by a function of its own (not inlined, the same call
   in every build), called when the set is enabled. */
__attribute__((noinline)) static int record(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned i)
{
    eb.Reset("Log")
        .AddValue("__csver__", (uint16_t)0x0401, event_field_format_hex_int)
        .AddStruct("PartA", 3)
        .AddString("time", g_time, event_field_format_default)
        .AddValue("severityNumber", (int32_t)9, event_field_format_signed_int)
        .AddString("severityText", "INFO"sv, event_field_format_default)
        .AddString("body", g_body, event_field_format_default)
        .AddValue("eventId", (int64_t)i, event_field_format_signed_int)
        .AddString("traceId", g_trace_id, event_field_format_default)
        .AddString("spanId", g_span_id, event_field_format_default)
        .AddValue("traceFlags", (uint8_t)1, event_field_format_hex_int)
        .AddString("http.method", "GET"sv, event_field_format_default)
        .AddValue("http.status_code", (int64_t)200, event_field_format_signed_int)
        .AddValue("duration", (double)i * 0.25, event_field_format_float)
        .AddValue("cache_hit", (bool)(i & 1u), event_field_format_boolean)
        .AddValueRange("retries", g_retries, g_retries + 4, event_field_format_signed_int)
        .AddStringRange<char>("tags", g_tags, g_tags + 3, event_field_format_default);
    return eb.Write(set);
}

__attribute__((noinline)) static int record_fresh(ehd::EventSet const& set, unsigned i)
{
    ehd::EventBuilder eb;
    return record(eb, set, i);
}

__attribute__((noinline)) static int run_fresh(ehd::EventBuilder&, ehd::EventSet const& set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)(set.Enabled() ? record_fresh(set, i) : EBADF);
    }
    return set.Enabled() ? record_fresh(set, n) : EBADF;
}

__attribute__((noinline)) static int run_reused(ehd::EventBuilder& eb, ehd::EventSet const& set, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)(set.Enabled() ? record(eb, set, i) : EBADF);
    }
    return set.Enabled() ? record(eb, set, n) : EBADF;
}

int main(int argc, char* argv[])
{
    if (argc < 3) {
        fprintf(stderr, "usage: exporter exporter_fresh|exporter_reused N [--tracefs-enable]\n");
        return 2;
    }
    char const* mode = argv[1];
    unsigned const n = (unsigned)strtoul(argv[2], NULL, 10);
    bool const enable = argc > 3 && strcmp(argv[3], "--tracefs-enable") == 0;

    int (*run)(ehd::EventBuilder&, ehd::EventSet const&, unsigned) = NULL;
    if (!strcmp(mode, "exporter_fresh")) {
        run = run_fresh;
    } else if (!strcmp(mode, "exporter_reused")) {
        run = run_reused;
    } else {
        fprintf(stderr, "exporter: unknown mode %s\n", mode);
        return 2;
    }

    ehd::Provider provider("EhtBenchExp");
    ehd::EventBuilder eb;
    std::shared_ptr<ehd::EventSet const> const set = provider.RegisterSet(event_level_information, 1);
    int err = set ? set->Errno() : ENOMEM;
    if (err == 0 && enable && tracefs_enable(EXP_TRACEPOINT)) {
        err = EIO;
    }
    if (err != 0) {
        fprintf(stderr, "exporter: setup: %s\n", strerror(err));
        return 1;
    }

    double const t0 = now_ns();
    err = run(eb, *set, n);
    double const t1 = now_ns();
    if (err != 0) {
        fprintf(stderr, "exporter: %s: write failed: %s\n", mode, strerror(err));
        return 1;
    }
    printf("%s %u %.2f\n", mode, n, n ? (t1 - t0) / n : 0.0);
    return 0;
}
