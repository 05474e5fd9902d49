/*
Thread safety of the C API, as eventheader-dynamic.h documents it:
phase 1: 4 writer threads, each with its own builder, write 2000 events each
         to two shared event sets, while a fifth thread looks the sets up,
         tests them and retains/releases them;
phase 2: the 4 writers write to a retained set of a second provider while
         the main thread deletes that provider: each write succeeds or
         returns EBADF, nothing crashes, and after the deletion every write
         returns EBADF.

Events: DynThreads:Seq {thread, seq} on DynThreads_L5K1 (even seq) and
DynThreads_L4K2 (odd seq); DynThreadsDelete:Late {thread, seq}.
Prints "phase1-events N" and "phase2-ok K phase2-ebadf J".
*/
#define _GNU_SOURCE
#include <eventheader/eventheader-dynamic.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include "../check.h"

#define N EHD_NTS
#define WRITERS 4
#define EVENTS 2000
#define LATE_EVENTS 20000

static ehd_provider* g_provider;
static ehd_event_set* g_sets[2];
static ehd_event_set* g_late;
static int g_writers_done;
static unsigned g_late_started;
static unsigned g_late_ok[WRITERS], g_late_ebadf[WRITERS];

static void build(ehd_builder* b, char const* name, uint32_t thread, uint32_t seq)
{
    ehd_builder_reset(b, name, N, 0);
    ehd_builder_add_value(b, "thread", N, event_field_encoding_value32, 0, 0, &thread);
    ehd_builder_add_value(b, "seq", N, event_field_encoding_value32, 0, 0, &seq);
}

static void* writer(void* arg)
{
    uint32_t const t = (uint32_t)(size_t)arg;
    ehd_builder* b = ehd_builder_new(0, 0);
    uint32_t i;
    int deleted_seen = 0;
    CHECK(b);
    for (i = 0; i < EVENTS; i++) {
        build(b, "Seq", t, i);
        CHECK_EQ_INT(0, ehd_builder_write(b, g_sets[i % 2], NULL, NULL));
    }

    ehd_event_set_retain(g_late);
    __atomic_fetch_add(&g_late_started, 1, __ATOMIC_RELEASE);
    for (i = 0; i < LATE_EVENTS; i++) {
        int err;
        build(b, "Late", t, i);
        err = ehd_builder_write(b, g_late, NULL, NULL);
        if (err == 0) {
            CHECK(!deleted_seen); /* once disabled, a set stays disabled */
            g_late_ok[t]++;
        } else {
            CHECK_EQ_INT(EBADF, err);
            g_late_ebadf[t]++;
            deleted_seen = !EHD_EVENT_SET_ENABLED(g_late);
        }
    }
    ehd_event_set_release(g_late);
    ehd_builder_delete(b);
    return NULL;
}

static void* reader(void* arg)
{
    unsigned long lookups = 0;
    (void)arg;
    while (!__atomic_load_n(&g_writers_done, __ATOMIC_ACQUIRE)) {
        ehd_event_set* a = ehd_provider_find_set(g_provider, 5, 1);
        ehd_event_set* b = ehd_provider_find_set(g_provider, 4, 2);
        CHECK(a == g_sets[0] && b == g_sets[1]);
        CHECK(EHD_EVENT_SET_ENABLED(a) && ehd_event_set_enabled(b));
        ehd_event_set_release(ehd_event_set_retain(a));
        CHECK(ehd_provider_find_set(g_provider, 3, 3) == NULL);
        lookups++;
        /* Let the writers run: under valgrind, whose threads take turns,
           a lookup loop that never yields holds each turn to its end. */
        sched_yield();
    }
    CHECK(lookups > 0);
    return NULL;
}

int main(void)
{
    pthread_t writers[WRITERS], lookup;
    ehd_provider* late_provider;
    unsigned i, ok = 0, ebadf = 0;

    g_provider = ehd_provider_new("DynThreads", N, NULL, 0);
    late_provider = ehd_provider_new("DynThreadsDelete", N, NULL, 0);
    CHECK(g_provider && late_provider);
    g_sets[0] = ehd_provider_register_set(g_provider, 5, 1);
    g_sets[1] = ehd_provider_register_set(g_provider, 4, 2);
    g_late = ehd_provider_register_set(late_provider, 5, 1);
    CHECK(g_sets[0] && g_sets[1] && g_late);

    CHECK_EQ_INT(0, pthread_create(&lookup, NULL, reader, NULL));
    for (i = 0; i < WRITERS; i++)
        CHECK_EQ_INT(0, pthread_create(&writers[i], NULL, writer, (void*)(size_t)i));

    /* Delete the second provider while the writers write to its set. */
    while (__atomic_load_n(&g_late_started, __ATOMIC_ACQUIRE) < WRITERS)
        sched_yield();
    ehd_provider_delete(late_provider);

    for (i = 0; i < WRITERS; i++) {
        CHECK_EQ_INT(0, pthread_join(writers[i], NULL));
        ok += g_late_ok[i];
        ebadf += g_late_ebadf[i];
    }
    __atomic_store_n(&g_writers_done, 1, __ATOMIC_RELEASE);
    CHECK_EQ_INT(0, pthread_join(lookup, NULL));
    ehd_provider_delete(g_provider);

    CHECK_EQ_INT(WRITERS * LATE_EVENTS, ok + ebadf);
    CHECK(ebadf > 0);
    printf("phase1-events %u\n", WRITERS * EVENTS);
    printf("phase2-ok %u phase2-ebadf %u\n", ok, ebadf);
    return 0;
}
