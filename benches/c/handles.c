/*
handles.c: a provider symbol beside a provider handle (TraceLoggingHProvider),
through the public TraceLogging API only, for benches/run-callgrind.sh.

    handles MODE N [--tracefs-enable]

Runs MODE N times and prints "MODE N NS_PER_ITER". Modes (the event is
bench.c's 5-field event, level 5, keyword 1):
  symbol-disabled  TraceLoggingWrite naming the provider symbol, nobody listens
  handle-disabled  the same through a handle: a function parameter, as in a
                   helper that takes the provider (the first write binds the
                   call site; the loop measures the bound call site)
  symbol-enabled5  TraceLoggingWrite naming the provider symbol, enabled
  handle-enabled5  the same through a handle

Backends as in bench.c: with TRACEPOINT_CAPTURE_FILE every connected tracepoint
is enabled, so the disabled modes leave their provider unregistered there
(writes stay disabled); with user_events the disabled provider is registered
and never enabled, and --tracefs-enable enables the enabled modes' tracepoint.
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

TRACELOGGING_DEFINE_PROVIDER(HandlesOn, "EhtBenchH",
    (0x2b0e1a3c, 0x5d41, 0x4c6e, 0x9a, 0x10, 0x11, 0x22, 0x33, 0x44, 0x55, 0x70));
TRACELOGGING_DEFINE_PROVIDER(HandlesOff, "EhtBenchHOff",
    (0x2b0e1a3c, 0x5d41, 0x4c6e, 0x9a, 0x10, 0x11, 0x22, 0x33, 0x44, 0x55, 0x71));

#define HANDLES_ON_TRACEPOINT "EhtBenchH_L5K1"

__attribute__((noinline)) static int run_symbol_disabled(TraceLoggingHProvider h, unsigned n)
{
    (void)h;
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(HandlesOff, "Disabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(i));
    }
    return 0;
}

__attribute__((noinline)) static int run_handle_disabled(TraceLoggingHProvider h, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(h, "Disabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(i));
    }
    return 0;
}

__attribute__((noinline)) static int run_symbol_enabled5(TraceLoggingHProvider h, unsigned n)
{
    (void)h;
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(HandlesOn, "Enabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(i));
    }
    return TraceLoggingWrite(HandlesOn, "Enabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(n));
}

__attribute__((noinline)) static int run_handle_enabled5(TraceLoggingHProvider h, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        (void)TraceLoggingWrite(h, "Enabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(i));
    }
    return TraceLoggingWrite(h, "Enabled5", TraceLoggingLevel(5), TraceLoggingKeyword(1), FIVE_FIELDS(n));
}

int main(int argc, char* argv[])
{
    static struct {
        char const* name;
        int (*fn)(TraceLoggingHProvider, unsigned);
        bool on;
    } const modes[] = {
        { "symbol-disabled", run_symbol_disabled, false },
        { "handle-disabled", run_handle_disabled, false },
        { "symbol-enabled5", run_symbol_enabled5, true },
        { "handle-enabled5", run_handle_enabled5, true },
    };
    if (argc < 3) {
        fprintf(stderr, "usage: handles symbol-disabled|handle-disabled|symbol-enabled5|handle-enabled5 N [--tracefs-enable]\n");
        return 2;
    }
    char const* mode = argv[1];
    unsigned n = (unsigned)strtoul(argv[2], NULL, 10);
    bool enable = argc > 3 && strcmp(argv[3], "--tracefs-enable") == 0;
    bool capture = getenv("TRACEPOINT_CAPTURE_FILE") != NULL;
    size_t m = 0;
    while (m < sizeof modes / sizeof modes[0] && strcmp(modes[m].name, mode) != 0) {
        m++;
    }
    if (m == sizeof modes / sizeof modes[0]) {
        fprintf(stderr, "handles: unknown mode %s\n", mode);
        return 2;
    }

    TraceLoggingHProvider const h = modes[m].on ? HandlesOn : HandlesOff;
    int err = 0;
    if (modes[m].on) {
        err = TraceLoggingRegister(h);
        if (err == 0 && enable) {
            err = tracefs_enable(HANDLES_ON_TRACEPOINT) ? EIO : 0;
        }
    } else if (!capture) {
        err = TraceLoggingRegister(h);
    }
    if (err != 0) {
        fprintf(stderr, "handles: TraceLoggingRegister: %s\n", strerror(err));
        return 1;
    }

    double t0 = now_ns();
    err = modes[m].fn(h, n);
    double t1 = now_ns();
    if (err != 0) {
        fprintf(stderr, "handles: %s: write failed: %s\n", mode, strerror(err));
        return 1;
    }
    if (!modes[m].on && TraceLoggingProviderEnabled(HandlesOff, 5, 1)) {
        fprintf(stderr, "handles: the disabled event's tracepoint is enabled\n");
        return 1;
    }
    printf("%s %u %.2f\n", mode, n, n ? (t1 - t0) / n : 0.0);
    TraceLoggingUnregister(HandlesOn);
    TraceLoggingUnregister(HandlesOff);
    return 0;
}
