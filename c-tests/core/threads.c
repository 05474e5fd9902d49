/*
 * Concurrency in capture mode: 8 writer threads write while a toggler
 * thread keeps disconnecting and reconnecting the same tracepoints.
 *
 * Provider "CoreThreads": events A and B (tracepoint CoreThreads_L5K1, own
 * tracepoint states), metadata fields thread (value8), seq (value32), text
 * (string_length16_char8 "t<thread>-<seq>"). Plus a plain tracepoint
 * "CoreThreadsRaw" written with tracepoint_write: payload u32 thread, u32 seq.
 *
 * Each writer loops until MAX_OK writes of each kind succeeded and the
 * toggler has cycled MIN_TOGGLES times (at most HARD_CAP successes of a
 * kind), or the time limit passed; every write must return 0 or EBADF (disabled by the
 * toggler). The toggler keeps the tracepoints connected most of the time
 * (a short sleep after each reconnect) so that both outcomes occur.
 * Prints per thread "thread <i> ok <n_eventheader> <n_raw> ebadf <m>" and
 * totals; threads.rs checks that the capture has exactly the records
 * of the successful writes, each well formed.
 */
#define _POSIX_C_SOURCE 200809L

#include "metabuild.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#define WRITERS 8
#define MAX_OK 2000
#define MIN_TOGGLES 20
#define HARD_CAP (4 * MAX_OK)
#define TIME_LIMIT_NS 1500000000LL

static tracepoint_provider_state g_state = TRACEPOINT_PROVIDER_STATE_INIT;
static eventheader_provider const g_prov = { &g_state, "", "CoreThreads" };
static tracepoint_state g_sa = TRACEPOINT_STATE_INIT;
static tracepoint_state g_sb = TRACEPOINT_STATE_INIT;
static tracepoint_state g_raw = TRACEPOINT_STATE_INIT;
static mb g_ma, g_mb;
static eventheader_tracepoint g_ev_a, g_ev_b;

static int g_stop;
static unsigned g_toggles;
static long long g_start_ns;

typedef struct counts {
    unsigned index;
    unsigned ok_eh;
    unsigned ok_raw;
    unsigned ebadf;
    unsigned other;
    int other_err;
} counts;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void count_result(counts* c, int err, unsigned* ok)
{
    if (err == 0) {
        *ok += 1;
    } else if (err == EBADF) {
        c->ebadf += 1;
    } else {
        c->other += 1;
        c->other_err = err;
    }
}

static void* writer(void* arg)
{
    counts* c = (counts*)arg;
    for (uint32_t seq = 0; (c->ok_eh < MAX_OK || c->ok_raw < MAX_OK ||
                            __atomic_load_n(&g_toggles, __ATOMIC_RELAXED) < MIN_TOGGLES) &&
                           c->ok_eh < HARD_CAP && c->ok_raw < HARD_CAP;
         seq += 1) {
        if ((seq & 15) == 0 && now_ns() - g_start_ns > TIME_LIMIT_NS) {
            break;
        }
        if ((seq & 255) == 255) {
            sched_yield(); /* let the toggler run on a busy machine */
        }
        {
            char text[32];
            int const n = snprintf(text, sizeof(text), "t%u-%u", c->index, seq);
            pb p;
            pb_init(&p);
            pb_u8(&p, (uint8_t)c->index);
            pb_u32(&p, seq);
            pb_cs8(&p, text, (uint16_t)n);
            count_result(c, write_payload((seq & 1) ? &g_ev_b : &g_ev_a, NULL, NULL, &p, 1 + seq % 3),
                         &c->ok_eh);
        }
        {
            uint32_t const payload[2] = { c->index, seq };
            struct iovec v[2];
            v[0].iov_base = NULL;
            v[0].iov_len = 0;
            v[1].iov_base = (void*)payload;
            v[1].iov_len = sizeof(payload);
            count_result(c, tracepoint_write(&g_raw, 2, v), &c->ok_raw);
        }
    }
    return NULL;
}

static void* toggler(void* arg)
{
    (void)arg;
    while (!__atomic_load_n(&g_stop, __ATOMIC_RELAXED)) {
        CHECK_EQ_INT(0, eventheader_connect(&g_ev_a, NULL));
        CHECK_EQ_INT(0, eventheader_connect(&g_ev_b, NULL));
        CHECK_EQ_INT(0, tracepoint_connect(&g_raw, NULL, NULL));
        sched_yield();
        CHECK_EQ_INT(0, eventheader_connect(&g_ev_a, &g_prov));
        CHECK_EQ_INT(0, tracepoint_connect(&g_raw, &g_state, "CoreThreadsRaw u32 thread; u32 seq"));
        CHECK_EQ_INT(0, eventheader_connect(&g_ev_b, &g_prov));
        __atomic_fetch_add(&g_toggles, 1, __ATOMIC_RELAXED);
        {
            struct timespec const pause = { 0, 50000 };
            nanosleep(&pause, NULL);
        }
    }
    return NULL;
}

int main(void)
{
    pthread_t writers[WRITERS];
    pthread_t tog;
    counts c[WRITERS];
    unsigned total_eh = 0, total_raw = 0, total_ebadf = 0;

    mb_begin(&g_ma, "A");
    mb_field(&g_ma, "thread", event_field_encoding_value8);
    mb_field(&g_ma, "seq", event_field_encoding_value32);
    mb_field(&g_ma, "text", event_field_encoding_string_length16_char8);
    mb_begin(&g_mb, "B");
    mb_field(&g_mb, "thread", event_field_encoding_value8);
    mb_field(&g_mb, "seq", event_field_encoding_value32);
    mb_field(&g_mb, "text", event_field_encoding_string_length16_char8);

    g_ev_a.state = &g_sa;
    g_ev_a.metadata = mb_end(&g_ma);
    g_ev_a.header.flags = eventheader_flag_default;
    g_ev_a.header.version = 0;
    g_ev_a.header.id = 0;
    g_ev_a.header.tag = 0;
    g_ev_a.header.opcode = event_opcode_info;
    g_ev_a.header.level = event_level_verbose;
    g_ev_a.keyword = 1;
    g_ev_b = g_ev_a;
    g_ev_b.state = &g_sb;
    g_ev_b.metadata = mb_end(&g_mb);

    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov));
    CHECK_EQ_INT(0, eventheader_connect(&g_ev_a, &g_prov));
    CHECK_EQ_INT(0, eventheader_connect(&g_ev_b, &g_prov));
    CHECK_EQ_INT(0, tracepoint_connect(&g_raw, &g_state, "CoreThreadsRaw u32 thread; u32 seq"));

    g_start_ns = now_ns();
    CHECK_EQ_INT(0, pthread_create(&tog, NULL, toggler, NULL));
    for (unsigned i = 0; i < WRITERS; i += 1) {
        memset(&c[i], 0, sizeof(c[i]));
        c[i].index = i;
        CHECK_EQ_INT(0, pthread_create(&writers[i], NULL, writer, &c[i]));
    }
    for (unsigned i = 0; i < WRITERS; i += 1) {
        CHECK_EQ_INT(0, pthread_join(writers[i], NULL));
    }
    __atomic_store_n(&g_stop, 1, __ATOMIC_RELAXED);
    CHECK_EQ_INT(0, pthread_join(tog, NULL));
    eventheader_close_provider(&g_prov);

    for (unsigned i = 0; i < WRITERS; i += 1) {
        if (c[i].other) {
            fprintf(stderr, "thread %u: %u writes failed with errno %d\n", i, c[i].other, c[i].other_err);
            return 1;
        }
        printf("thread %u ok %u %u ebadf %u\n", i, c[i].ok_eh, c[i].ok_raw, c[i].ebadf);
        total_eh += c[i].ok_eh;
        total_raw += c[i].ok_raw;
        total_ebadf += c[i].ebadf;
    }
    printf("total ok %u %u ebadf %u toggles %u ms %lld\n", total_eh, total_raw, total_ebadf, g_toggles,
           (now_ns() - g_start_ns) / 1000000);
    return 0;
}
