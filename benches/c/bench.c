/*
bench.c: the library's hot paths through the public TraceLogging API only.

    bench MODE N [--tracefs-enable]

Runs MODE N times and prints "MODE N NS_PER_ITER" (wall clock around the loop).
Modes:
  loop       an empty loop of N iterations (what the loop alone costs)
  disabled   TraceLoggingWrite of a 5-field event nobody listens to
  enabled5   TraceLoggingWrite of an enabled event with 5 fields
             (int32, uint64, string, float64, boolean)
  empty      TraceLoggingWrite of an enabled event with no fields
  activity5  TraceLoggingWriteActivity of the enabled5 event with an activity
             id and a related activity id
  thread5    TraceLoggingWrite of the enabled5 event on a thread with an
             activity id (as TraceLoggingThreadActivity sets it, through the
             function TraceLoggingActivity.h uses); built against another
             implementation, which has no thread activity id,
             TraceLoggingWriteActivity with that id: the same event
  fields64   TraceLoggingWrite of an enabled event with 64 fields
  string4k   TraceLoggingWrite of an enabled event with one 4 KiB string
  register   TraceLoggingRegister + TraceLoggingUnregister of a provider
             with 1000 events on 50 level/keyword pairs (prints register and
             unregister time separately as well)

Backends: with TRACEPOINT_CAPTURE_FILE set, providers write to that file and
every connected tracepoint is enabled (use /dev/null to measure the library
and the syscall without file-system costs). Without it, providers use the
kernel's user_events; --tracefs-enable then enables the benchmark's tracepoint
through tracefs (events/user_events/<name>/enable, needs root) so that enabled
events have a listener, as in the reference's measurement.

The disabled event's provider is registered only with user_events (capture mode
would enable it); its tracepoint is never enabled.
Exit status: 0, or 1 if an enabled write fails or a disabled one is enabled.
*/
#define _GNU_SOURCE
#include <eventheader/TraceLoggingProvider.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-common.h"

TRACELOGGING_DEFINE_PROVIDER(BenchOn, "EhtBench",
    (0x2b0e1a3c, 0x5d41, 0x4c6e, 0x9a, 0x10, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66));
TRACELOGGING_DEFINE_PROVIDER(BenchOff, "EhtBenchOff",
    (0x2b0e1a3c, 0x5d41, 0x4c6e, 0x9a, 0x10, 0x11, 0x22, 0x33, 0x44, 0x55, 0x67));
TRACELOGGING_DEFINE_PROVIDER(BenchReg, "EhtBenchReg",
    (0x2b0e1a3c, 0x5d41, 0x4c6e, 0x9a, 0x10, 0x11, 0x22, 0x33, 0x44, 0x55, 0x68));

/* Every BenchOn/BenchOff event has level 5 (verbose) and keyword 1. */
#define BENCH_ON_TRACEPOINT "EhtBench_L5K1"

static uint8_t const g_activity[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
    0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00 };
static uint8_t const g_related[16] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
    0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 };
static char g_big[4096];

__attribute__((noinline)) static int run_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        OPAQUE(i);
    }
    return 0;
}

__attribute__((noinline)) static int run_disabled(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(BenchOff, "Disabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1),
            FIVE_FIELDS(i));
    }
    return 0;
}

__attribute__((noinline)) static int run_enabled5(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(BenchOn, "Enabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1),
            FIVE_FIELDS(i));
    }
    return TraceLoggingWrite(BenchOn, "Enabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1),
        FIVE_FIELDS(n));
}

__attribute__((noinline)) static int run_activity5(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWriteActivity(BenchOn, "Activity5", g_activity, g_related,
            TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(i));
    }
    return TraceLoggingWriteActivity(BenchOn, "Activity5", g_activity, g_related,
        TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(n));
}

/* Built against this library (the one with tracepoint-capture.h): the
   thread's activity id, unless BENCH_TRACELOGGING_ONLY (scripts/footprint.sh's
   TraceLogging-only program: thread5 then writes as against another
   implementation). */
#if defined(__has_include) && !defined(BENCH_TRACELOGGING_ONLY)
#if __has_include(<tracepoint/tracepoint-capture.h>)
#define BENCH_THREAD_ACTIVITY 1
#endif
#endif

__attribute__((noinline)) static int run_thread5(unsigned n)
{
#ifdef BENCH_THREAD_ACTIVITY
    _eventheader_tlg_thread_activity_set(g_activity);
#define THREAD5(i) TraceLoggingWrite(BenchOn, "Thread5", TraceLoggingLevel(5), TraceLoggingKeyword(1), \
        FIVE_FIELDS(i))
#else
#define THREAD5(i) TraceLoggingWriteActivity(BenchOn, "Thread5", g_activity, NULL, \
        TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(i))
#endif
    for (unsigned i = 0; i < n; i++) {
        (void)THREAD5(i);
    }
    return THREAD5(n);
}

__attribute__((noinline)) static int run_empty(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(BenchOn, "Empty", TraceLoggingLevel(5), TraceLoggingKeyword(1));
    }
    return TraceLoggingWrite(BenchOn, "Empty", TraceLoggingLevel(5), TraceLoggingKeyword(1));
}

/* 8 fields of the 5 kinds above; 8 x 8 = 64 fields. */
#define EIGHT(b, i) \
    TraceLoggingInt32((int32_t)(i) + b, "a" #b), \
    TraceLoggingUInt64((uint64_t)(i) + b, "b" #b), \
    TraceLoggingString(g_short, "c" #b), \
    TraceLoggingFloat64((double)(i) + b, "d" #b), \
    TraceLoggingBoolean(((i) >> b) & 1u, "e" #b), \
    TraceLoggingInt32((int32_t)(i) - b, "f" #b), \
    TraceLoggingUInt64((uint64_t)(i) - b, "g" #b), \
    TraceLoggingFloat64((double)(i) - b, "h" #b)
#define SIXTY_FOUR(i) \
    EIGHT(0, i), EIGHT(1, i), EIGHT(2, i), EIGHT(3, i), \
    EIGHT(4, i), EIGHT(5, i), EIGHT(6, i), EIGHT(7, i)

__attribute__((noinline)) static int run_fields64(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(BenchOn, "Fields64", TraceLoggingLevel(5), TraceLoggingKeyword(1),
            SIXTY_FOUR(i));
    }
    return TraceLoggingWrite(BenchOn, "Fields64", TraceLoggingLevel(5), TraceLoggingKeyword(1),
        SIXTY_FOUR(n));
}

__attribute__((noinline)) static int run_string4k(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(BenchOn, "String4k", TraceLoggingLevel(5), TraceLoggingKeyword(1),
            TraceLoggingString(g_big, "big"));
    }
    return TraceLoggingWrite(BenchOn, "String4k", TraceLoggingLevel(5), TraceLoggingKeyword(1),
        TraceLoggingString(g_big, "big"));
}

/* The registration provider: 1000 events, 20 on each of 50 level/keyword pairs
   (levels 1..5 x keywords 1 << 0..9). The function is called once while the
   provider is unregistered (all writes are no-ops); its events exist anyway. */
#define REG1(lv, kw) (void)TraceLoggingWrite(BenchReg, "Reg", TraceLoggingLevel(lv), TraceLoggingKeyword(kw));
#define REG20(lv, kw) \
    REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) \
    REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) \
    REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) \
    REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) REG1(lv, kw) REG1(lv, kw)
#define REG_LEVELS(kw) REG20(1, kw) REG20(2, kw) REG20(3, kw) REG20(4, kw) REG20(5, kw)

__attribute__((noinline)) static void reg_events(void)
{
    REG_LEVELS(0x1) REG_LEVELS(0x2) REG_LEVELS(0x4) REG_LEVELS(0x8) REG_LEVELS(0x10)
    REG_LEVELS(0x20) REG_LEVELS(0x40) REG_LEVELS(0x80) REG_LEVELS(0x100) REG_LEVELS(0x200)
}

static double g_reg_ns, g_unreg_ns;

__attribute__((noinline)) static int run_register(unsigned n)
{
    int err = 0;
    for (unsigned i = 0; i < n; i++) {
        double t0 = now_ns();
        err |= TraceLoggingRegister(BenchReg);
        double t1 = now_ns();
        TraceLoggingUnregister(BenchReg);
        g_reg_ns += t1 - t0;
        g_unreg_ns += now_ns() - t1;
    }
    return err;
}

int main(int argc, char* argv[])
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench loop|disabled|enabled5|activity5|thread5|empty|fields64|string4k|register N [--tracefs-enable]\n");
        return 2;
    }
    char const* mode = argv[1];
    unsigned n = (unsigned)strtoul(argv[2], NULL, 10);
    bool enable = argc > 3 && strcmp(argv[3], "--tracefs-enable") == 0;
    bool capture = getenv("TRACEPOINT_CAPTURE_FILE") != NULL;

    memset(g_big, 'x', sizeof g_big - 1);
    reg_events();

    int (*fn)(unsigned) = NULL;
    bool on = true;
    if (!strcmp(mode, "loop")) {
        fn = run_loop;
        on = false;
    } else if (!strcmp(mode, "disabled")) {
        fn = run_disabled;
        on = false;
    } else if (!strcmp(mode, "enabled5")) {
        fn = run_enabled5;
    } else if (!strcmp(mode, "activity5")) {
        fn = run_activity5;
    } else if (!strcmp(mode, "thread5")) {
        fn = run_thread5;
    } else if (!strcmp(mode, "empty")) {
        fn = run_empty;
    } else if (!strcmp(mode, "fields64")) {
        fn = run_fields64;
    } else if (!strcmp(mode, "string4k")) {
        fn = run_string4k;
    } else if (!strcmp(mode, "register")) {
        fn = run_register;
        on = false;
    } else {
        fprintf(stderr, "bench: unknown mode %s\n", mode);
        return 2;
    }

    int err = 0;
    if (on) {
        err = TraceLoggingRegister(BenchOn);
        if (err == 0 && enable) {
            err = tracefs_enable(BENCH_ON_TRACEPOINT) ? EIO : 0;
        }
    } else if (!strcmp(mode, "disabled") && !capture) {
        err = TraceLoggingRegister(BenchOff);
    }
    if (err != 0) {
        fprintf(stderr, "bench: TraceLoggingRegister: %s\n", strerror(err));
        return 1;
    }

    double t0 = now_ns();
    err = fn(n);
    double t1 = now_ns();

    if (err != 0) {
        fprintf(stderr, "bench: %s: write failed: %s\n", mode, strerror(err));
        return 1;
    }
    if (!strcmp(mode, "disabled")) {
        /* The benchmark is meaningless if somebody listens. */
        if (TraceLoggingProviderEnabled(BenchOff, 5, 1)) {
            fprintf(stderr, "bench: the disabled event's tracepoint is enabled\n");
            return 1;
        }
    }
    printf("%s %u %.2f\n", mode, n, n ? (t1 - t0) / n : 0.0);
    if (!strcmp(mode, "register") && n) {
        printf("register_only %u %.0f\nunregister_only %u %.0f\n", n, g_reg_ns / n, n, g_unreg_ns / n);
    }
    TraceLoggingUnregister(BenchOn);
    TraceLoggingUnregister(BenchOff);
    return 0;
}
