/*
Provider handles under stress (a Linux test program, not part of the
Windows-style component): one handle call site shared by several providers
and threads.

    wp_handles THREADS WRITES

Registers THREADS providers (TRACELOGGING_DEFINE_PROVIDER_STORAGE, reached
through handles), then starts THREADS threads at once; thread t writes WRITES
events through the same helper call site with provider t (payload: t and the
sequence number), so the threads race to bind the call site's first slot and
to add the others. Then, single-threaded: unregister and register provider 1
again and write once more through it; a NULL handle and out-of-range levels.
Run in capture mode; main.rs checks that every event went to its
thread's provider exactly once. Exit status 0 when the in-process checks pass.
*/
#define _POSIX_C_SOURCE 200809L
#include <eventheader/TraceLoggingProvider.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "../check.h"

#define MAX_THREADS 8

TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_p0, "WpHandles0", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0));
TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_p1, "WpHandles1", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1));
TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_p2, "WpHandles2", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 2));
TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_p3, "WpHandles3", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3));
TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_p4, "WpHandles4", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 4));
TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_p5, "WpHandles5", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 5));
TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_p6, "WpHandles6", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 6));
TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_p7, "WpHandles7", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 7));

static TraceLoggingHProvider const g_providers[MAX_THREADS] = { &g_p0, &g_p1, &g_p2, &g_p3, &g_p4, &g_p5, &g_p6, &g_p7 };
static unsigned g_writes;
static pthread_barrier_t g_start;

/* The one call site every thread writes through. */
__attribute__((noinline)) static int Log(TraceLoggingHProvider h, int32_t thread, int32_t seq)
{
    return TraceLoggingWrite(h, "Item", TraceLoggingLevel(4), TraceLoggingKeyword(0x2),
        TraceLoggingInt32(thread, "thread"), TraceLoggingInt32(seq, "seq"));
}

static void* Writer(void* arg)
{
    int32_t const t = (int32_t)(intptr_t)arg;
    pthread_barrier_wait(&g_start);
    for (unsigned i = 0; i != g_writes; i += 1) {
        if (Log(g_providers[t], t, (int32_t)i) != 0) {
            fprintf(stderr, "thread %d: write %u failed\n", t, i);
            exit(1);
        }
    }
    return NULL;
}

int main(int argc, char** argv)
{
    pthread_t threads[MAX_THREADS];
    unsigned const count = argc == 3 ? (unsigned)atoi(argv[1]) : 0;
    g_writes = argc == 3 ? (unsigned)atoi(argv[2]) : 0;
    if (count < 1 || count > MAX_THREADS) {
        fprintf(stderr, "usage: wp_handles THREADS(1..%d) WRITES\n", MAX_THREADS);
        return 2;
    }
    for (unsigned t = 0; t != count; t += 1) {
        CHECK_EQ_INT(0, TraceLoggingRegister(g_providers[t]));
    }
    CHECK(pthread_barrier_init(&g_start, NULL, count) == 0);
    for (unsigned t = 0; t != count; t += 1) {
        CHECK(pthread_create(&threads[t], NULL, Writer, (void*)(intptr_t)t) == 0);
    }
    for (unsigned t = 0; t != count; t += 1) {
        CHECK(pthread_join(threads[t], NULL) == 0);
    }

    /* Re-registration reconnects the slot of a provider that is not the site's first. */
    if (count > 1) {
        TraceLoggingUnregister(g_providers[1]);
        CHECK_EQ_INT(0, Log(g_providers[1], 1, -1)); /* not registered: nothing written */
        CHECK(!TraceLoggingProviderEnabled(g_providers[1], 4, 0x2));
        CHECK_EQ_INT(0, TraceLoggingRegister(g_providers[1]));
        CHECK(TraceLoggingProviderEnabled(g_providers[1], 4, 0x2));
        CHECK_EQ_INT(0, Log(g_providers[1], 1, (int32_t)g_writes));
    }

    /* A NULL handle writes nothing, is never enabled, does not register; levels above 255
       are never enabled. */
    CHECK_EQ_INT(0, Log(NULL, -1, -1));
    CHECK_EQ_INT(EINVAL, TraceLoggingRegister((TraceLoggingHProvider)NULL));
    TraceLoggingUnregister((TraceLoggingHProvider)NULL);
    CHECK(!TraceLoggingProviderEnabled((TraceLoggingHProvider)NULL, 4, 0x2));
    CHECK(!TraceLoggingProviderEnabled(g_providers[0], 256 + count, 0x2));
    /* Level 0: any level; keyword 0 any keyword, else a shared bit. */
    CHECK(TraceLoggingProviderEnabled(g_providers[0], 0, 0));
    CHECK(TraceLoggingProviderEnabled(g_providers[0], 0, 0x3));
    CHECK(!TraceLoggingProviderEnabled(g_providers[0], 0, 0x100));

    for (unsigned t = 0; t != count; t += 1) {
        TraceLoggingUnregister(g_providers[t]);
    }
    CHECK(!TraceLoggingProviderEnabled(g_providers[0], 0, 0));
    return 0;
}
