/*
 * What the benchmark programs (bench.c, floor.c, handles.c, dynamic.cpp)
 * share, so that they measure the same event the same way:
 * - tracefs_enable(tracepoint): enables a user_events tracepoint through
 *   tracefs (events/user_events/<name>/enable, needs root), so that the
 *   benchmark's events have a listener. Returns 0, or 1 after printing why not.
 * - now_ns(): CLOCK_MONOTONIC in nanoseconds.
 * - OPAQUE(x): keeps a loop counter opaque so that an empty loop is not folded.
 * - g_short: the string field's value.
 * - FIVE_FIELDS(i): the TraceLogging fields of the 5-field event (int32,
 *   uint64, string, float64, boolean); floor.c writes the same bytes by hand.
 */
#ifndef BENCHES_BENCH_COMMON_H
#define BENCHES_BENCH_COMMON_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int tracefs_enable(char const* tracepoint)
{
    char path[512];
    snprintf(path, sizeof path, "/sys/kernel/tracing/events/user_events/%s/enable", tracepoint);
    FILE* f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    int bad = fputs("1\n", f) < 0;
    bad |= fclose(f) != 0;
    if (bad) {
        fprintf(stderr, "cannot enable %s\n", tracepoint);
    }
    return bad;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define OPAQUE(x) __asm__ volatile("" : "+r"(x))

static char const g_short[] = "hello, world";

#define FIVE_FIELDS(i) \
    TraceLoggingInt32((int32_t)(i), "i32"), \
    TraceLoggingUInt64((uint64_t)(i) * 3u, "u64"), \
    TraceLoggingString(g_short, "str"), \
    TraceLoggingFloat64((double)(i) * 0.5, "f64"), \
    TraceLoggingBoolean((i) & 1u, "flag")

#endif /* BENCHES_BENCH_COMMON_H */
