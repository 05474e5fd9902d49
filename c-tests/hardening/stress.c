/*
 * Stress: 8 writer threads write events while 2 threads keep registering,
 * unregistering, connecting and disconnecting.
 *
 *   stress SECONDS MODE [RATE]
 *
 * MODE: "capture" (TRACEPOINT_CAPTURE_FILE set: every tracepoint is enabled
 * as soon as it is connected), "kernel" (real user_events: the providers must
 * open; writes return 0 while a collector listens, else EBADF) or "any"
 * (whatever open returns; used without user_events, where every call must
 * be a safe no-op). RATE caps each writer at RATE writes per second per
 * event (0 = unlimited; default 2000) so a long run's capture stays small.
 *
 * Provider "HardStress" (open for the whole run):
 *   - stable[w], one tracepoint state per writer, all "HardStress_L5K1",
 *     metadata event "Stable": never touched by the churners. In capture
 *     mode every write to them must return 0.
 *   - churn[k], k < 4, "HardStress_L4K2", event "Churn": churner A keeps
 *     disconnecting them, reconnecting them, and moving them to provider
 *     "HardStressAlt" (tracepoint "HardStressAlt_L4K2") and back. Writes
 *     return 0 or EBADF.
 * Payload of writer w: a = w, b = its sequence number, c = 0 (stable) or 1
 * (churn).
 *
 * Churner B: in a loop, allocates (malloc) a provider "HardStressT<n % 16>"
 * and 3 events (levels 1..3, one listed twice, plus a NULL, in the array
 * given to eventheader_open_provider_with_events); every 64th iteration it
 * writes one event to each (event "Transient", a = 100, b = iteration,
 * c = level). Then it either closes the provider directly or disconnects
 * the events first, checks every state is back to TRACEPOINT_STATE_INIT
 * (and writes return EBADF), poisons and frees everything. Every 64th
 * iteration (offset 32) also a plain tracepoint provider:
 * tracepoint_open_provider, tracepoint_connect "HardStressRaw u32 a",
 * tracepoint_write of a 4-byte payload (counted as raw_ok), close.
 *
 * Output (parsed by main.rs):
 *   writer W stable_ok N churn_ok N churn_ebadf N
 *   churnerA cycles N
 *   churnerB cycles N transient_ok N raw_ok N
 *   total_ok N
 * Exit status 0 when every in-process check passed.
 */
#define _GNU_SOURCE

#include "hcommon.h"

#include <pthread.h>
#include <unistd.h>

#define WRITERS 8
#define CHURN 4
#define TRANSIENT_NAMES 16

enum mode { MODE_CAPTURE, MODE_KERNEL, MODE_ANY };

static enum mode g_mode;
static unsigned g_rate;
static int g_stop;

static tracepoint_provider_state g_state = TRACEPOINT_PROVIDER_STATE_INIT;
static eventheader_provider const g_prov = { &g_state, "", "HardStress" };
static tracepoint_provider_state g_alt_state = TRACEPOINT_PROVIDER_STATE_INIT;
static eventheader_provider const g_alt = { &g_alt_state, "", "HardStressAlt" };
static int g_open_err;

static h_meta g_meta_stable, g_meta_churn, g_meta_transient;
static tracepoint_state g_stable_state[WRITERS];
static eventheader_tracepoint g_stable[WRITERS];
static tracepoint_state g_churn_state[CHURN];
static eventheader_tracepoint g_churn[CHURN];

typedef struct writer_result {
    unsigned index;
    unsigned long stable_ok, churn_ok, churn_ebadf, stable_ebadf;
} writer_result;

static unsigned long g_a_cycles;
static unsigned long g_b_cycles, g_b_transient_ok, g_b_raw_ok;

static int stopping(void)
{
    return __atomic_load_n(&g_stop, __ATOMIC_ACQUIRE);
}

/* A write result that is allowed in the current mode. */
static void check_write(int err, int must_succeed, int line)
{
    if (err == 0 || (err == EBADF && !must_succeed)) {
        return;
    }
    fprintf(stderr, "stress.c:%d: unexpected write result %d\n", line, err);
    exit(1);
}

static void* writer(void* arg)
{
    writer_result* r = (writer_result*)arg;
    unsigned const w = r->index;
    eventheader_tracepoint const* stable = &g_stable[w];
    eventheader_tracepoint const* churn = &g_churn[w % CHURN];
    int const stable_must = g_mode == MODE_CAPTURE;
    long long const start = h_now_ns();
    for (uint32_t seq = 0; !stopping(); seq += 1) {
        if (g_rate != 0 && (seq & 15) == 0) {
            /* Stay at or under g_rate writes per second. */
            while (!stopping()) {
                long long const elapsed = h_now_ns() - start;
                if ((long long)seq * 1000000000LL <= (long long)g_rate * elapsed) {
                    break;
                }
                usleep(1000);
            }
        }
        if (TRACEPOINT_ENABLED(stable->state) || g_mode != MODE_KERNEL) {
            int const err = h_write3(stable, w, seq, 0);
            check_write(err, stable_must, __LINE__);
            if (err == 0) {
                r->stable_ok += 1;
            } else {
                r->stable_ebadf += 1;
            }
        }
        /* Write without looking at the enable word first: the library must
           cope with a tracepoint being disconnected under it. */
        int const err = h_write3(churn, w, seq, 1);
        check_write(err, 0, __LINE__);
        if (err == 0) {
            r->churn_ok += 1;
        } else {
            r->churn_ebadf += 1;
        }
    }
    return NULL;
}

static void check_connect(int err, int line)
{
    /* Connecting to an open provider succeeds in capture and kernel mode;
       without user_events the providers are closed and connect still
       returns 0 (init-on-first-use). */
    if (err != 0) {
        fprintf(stderr, "stress.c:%d: connect returned %d\n", line, err);
        exit(1);
    }
}

static void* churner_a(void* arg)
{
    (void)arg;
    unsigned long cycles = 0;
    while (!stopping()) {
        for (unsigned k = 0; k < CHURN; k += 1) {
            check_connect(eventheader_connect(&g_churn[k], NULL), __LINE__);
            CHECK_EQ_INT(0, g_churn_state[k].status_word);
            check_connect(eventheader_connect(&g_churn[k], (cycles & 3) == 1 ? &g_alt : &g_prov),
                          __LINE__);
            if (g_mode == MODE_CAPTURE) {
                CHECK(TRACEPOINT_ENABLED(&g_churn_state[k]));
            }
            /* Connecting again while connected re-registers. */
            if ((cycles & 7) == 3) {
                check_connect(eventheader_connect(&g_churn[k], &g_prov), __LINE__);
            }
        }
        cycles += 1;
        if ((cycles & 63) == 0) {
            sched_yield();
        }
    }
    g_a_cycles = cycles;
    return NULL;
}

static void check_init(tracepoint_state const* tp)
{
    CHECK_EQ_INT(0, tp->status_word);
    CHECK_EQ_INT(-1, tp->write_index);
    CHECK(tp->provider_state == NULL);
    CHECK(tp->tracepoint_list_link.next == NULL);
    CHECK(tp->tracepoint_list_link.prev == NULL);
}

static void transient_round(unsigned long iter)
{
    char name[32];
    snprintf(name, sizeof(name), "HardStressT%lu", iter % TRANSIENT_NAMES);

    tracepoint_provider_state* state = (tracepoint_provider_state*)malloc(sizeof(*state));
    eventheader_provider* prov = (eventheader_provider*)malloc(sizeof(*prov));
    tracepoint_state* tps = (tracepoint_state*)malloc(3 * sizeof(*tps));
    eventheader_tracepoint* evs = (eventheader_tracepoint*)malloc(3 * sizeof(*evs));
    CHECK(state && prov && tps && evs);
    tracepoint_provider_state const state_init = TRACEPOINT_PROVIDER_STATE_INIT;
    tracepoint_state const tp_init = TRACEPOINT_STATE_INIT;
    *state = state_init;
    prov->state = state;
    prov->options = (iter & 1) ? "Ghardening" : "";
    prov->name = name;
    for (unsigned i = 0; i < 3; i += 1) {
        tps[i] = tp_init;
        evs[i] = h_event(&tps[i], &g_meta_transient, (uint8_t)(i + 1), iter & 0xff);
    }
    eventheader_tracepoint const* list[6] = { &evs[2], NULL, &evs[0], &evs[1], &evs[2], NULL };
    int const err = eventheader_open_provider_with_events(prov, list, list + 6);
    if (g_mode != MODE_ANY) {
        CHECK_EQ_INT(0, err);
    }
    for (unsigned i = 0; i < 3 && (iter & 63) == 0; i += 1) {
        int const werr = h_write3(&evs[i], 100, (uint32_t)iter, i + 1);
        check_write(werr, g_mode == MODE_CAPTURE, __LINE__);
        if (werr == 0) {
            g_b_transient_ok += 1;
        }
    }
    if (iter & 2) {
        for (unsigned i = 0; i < 3; i += 1) {
            CHECK_EQ_INT(0, eventheader_connect(&evs[i], NULL));
            CHECK_EQ_INT(0, eventheader_connect(&evs[i], NULL)); /* twice: no-op */
        }
    }
    eventheader_close_provider(prov);
    eventheader_close_provider(prov); /* twice: no-op */
    for (unsigned i = 0; i < 3; i += 1) {
        check_init(&tps[i]);
        CHECK_EQ_INT(EBADF, h_write3(&evs[i], 100, (uint32_t)iter, 9));
    }
    CHECK_EQ_INT(-1, state->data_file);
    /* Poison before freeing: a library that kept a pointer into these blocks
       would trip ASan / valgrind, or read garbage. */
    memset(tps, 0xa5, 3 * sizeof(*tps));
    memset(state, 0xa5, sizeof(*state));
    free(evs);
    free(tps);
    free(prov);
    free(state);

    if ((iter & 63) == 32) {
        tracepoint_provider_state raw_state = TRACEPOINT_PROVIDER_STATE_INIT;
        tracepoint_state raw_tp = TRACEPOINT_STATE_INIT;
        int const oerr = tracepoint_open_provider(&raw_state);
        if (g_mode != MODE_ANY) {
            CHECK_EQ_INT(0, oerr);
        }
        CHECK_EQ_INT(0, tracepoint_connect(&raw_tp, &raw_state, "HardStressRaw u32 a"));
        uint32_t value = (uint32_t)iter;
        struct iovec vecs[2] = { { NULL, 0 }, { &value, sizeof(value) } };
        int const werr = tracepoint_write(&raw_tp, 2, vecs);
        check_write(werr, g_mode == MODE_CAPTURE, __LINE__);
        if (werr == 0) {
            g_b_raw_ok += 1;
        }
        tracepoint_close_provider(&raw_state);
        check_init(&raw_tp);
    }
}

static void* churner_b(void* arg)
{
    (void)arg;
    unsigned long iter = 0;
    while (!stopping()) {
        transient_round(iter);
        iter += 1;
    }
    g_b_cycles = iter;
    return NULL;
}

int main(int argc, char** argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s SECONDS capture|kernel|any [RATE]\n", argv[0]);
        return 2;
    }
    double const seconds = atof(argv[1]);
    if (strcmp(argv[2], "capture") == 0) {
        g_mode = MODE_CAPTURE;
    } else if (strcmp(argv[2], "kernel") == 0) {
        g_mode = MODE_KERNEL;
    } else if (strcmp(argv[2], "any") == 0) {
        g_mode = MODE_ANY;
    } else {
        fprintf(stderr, "bad mode %s\n", argv[2]);
        return 2;
    }
    g_rate = argc == 4 ? (unsigned)strtoul(argv[3], NULL, 10) : 2000;
    CHECK(seconds > 0);

    h_meta_init(&g_meta_stable, "Stable");
    h_meta_init(&g_meta_churn, "Churn");
    h_meta_init(&g_meta_transient, "Transient");
    tracepoint_state const tp_init = TRACEPOINT_STATE_INIT;

    g_open_err = eventheader_open_provider(&g_prov);
    int const alt_err = eventheader_open_provider(&g_alt);
    printf("open %d %d\n", g_open_err, alt_err);
    if (g_mode != MODE_ANY) {
        CHECK_EQ_INT(0, g_open_err);
        CHECK_EQ_INT(0, alt_err);
    }
    for (unsigned w = 0; w < WRITERS; w += 1) {
        g_stable_state[w] = tp_init;
        g_stable[w] = h_event(&g_stable_state[w], &g_meta_stable, 5, 1);
        CHECK_EQ_INT(0, eventheader_connect(&g_stable[w], &g_prov));
    }
    for (unsigned k = 0; k < CHURN; k += 1) {
        g_churn_state[k] = tp_init;
        g_churn[k] = h_event(&g_churn_state[k], &g_meta_churn, 4, 2);
        CHECK_EQ_INT(0, eventheader_connect(&g_churn[k], &g_prov));
    }

    pthread_t writers[WRITERS], churners[2];
    writer_result results[WRITERS];
    memset(results, 0, sizeof(results));
    for (unsigned w = 0; w < WRITERS; w += 1) {
        results[w].index = w;
        CHECK_EQ_INT(0, pthread_create(&writers[w], NULL, writer, &results[w]));
    }
    CHECK_EQ_INT(0, pthread_create(&churners[0], NULL, churner_a, NULL));
    CHECK_EQ_INT(0, pthread_create(&churners[1], NULL, churner_b, NULL));

    long long const end = h_now_ns() + (long long)(seconds * 1e9);
    while (h_now_ns() < end) {
        usleep(20000);
    }
    __atomic_store_n(&g_stop, 1, __ATOMIC_RELEASE);
    for (unsigned w = 0; w < WRITERS; w += 1) {
        CHECK_EQ_INT(0, pthread_join(writers[w], NULL));
    }
    CHECK_EQ_INT(0, pthread_join(churners[0], NULL));
    CHECK_EQ_INT(0, pthread_join(churners[1], NULL));

    unsigned long total = 0;
    for (unsigned w = 0; w < WRITERS; w += 1) {
        writer_result const* r = &results[w];
        printf("writer %u stable_ok %lu churn_ok %lu churn_ebadf %lu\n", w, r->stable_ok,
               r->churn_ok, r->churn_ebadf);
        if (g_mode == MODE_CAPTURE) {
            CHECK_EQ_INT(0, r->stable_ebadf);
            CHECK(r->stable_ok > 0);
        }
        total += r->stable_ok + r->churn_ok;
    }
    printf("churnerA cycles %lu\n", g_a_cycles);
    printf("churnerB cycles %lu transient_ok %lu raw_ok %lu\n", g_b_cycles, g_b_transient_ok,
           g_b_raw_ok);
    total += g_b_transient_ok + g_b_raw_ok;
    printf("total_ok %lu\n", total);
    CHECK(g_a_cycles > 0);
    CHECK(g_b_cycles > 0);

    eventheader_close_provider(&g_prov);
    eventheader_close_provider(&g_alt);
    for (unsigned w = 0; w < WRITERS; w += 1) {
        check_init(&g_stable_state[w]);
    }
    for (unsigned k = 0; k < CHURN; k += 1) {
        /* Each churn event is connected to HardStress or HardStressAlt. */
        check_init(&g_churn_state[k]);
    }
    return 0;
}
