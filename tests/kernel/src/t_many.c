/* Many tracepoints. 50 level/keyword pairs (levels 1-5 x keywords
 * 1<<0..1<<9) of one provider, registered at once through
 * eventheader_open_provider_with_events from a shuffled pointer array with
 * duplicates and NULLs; all must be enable-able, and 1000 events (20 each,
 * interleaved) must reach perf.
 *
 *   t_many --names   tracepoints perf must record
 *   t_many           run (EHK_EXPECT_FILE receives the expected `ehkv summary` lines)
 */
#include "ehk_common.h"

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#define PROVIDER "EhkMany"
#define LEVELS 5
#define KEYWORDS 10
#define N_TP (LEVELS * KEYWORDS)
#define PER_TP 20

static tracepoint_provider_state g_pstate = TRACEPOINT_PROVIDER_STATE_INIT;
static const eventheader_provider g_prov = {&g_pstate, "", PROVIDER};
static ehk_meta g_meta;
static tracepoint_state g_states[N_TP];
static eventheader_tracepoint g_events[N_TP];

static void name_of(int i, char *buf, size_t size)
{
    snprintf(buf, size, "%s_L%xK%llx", PROVIDER, 1 + i / KEYWORDS, 1ULL << (i % KEYWORDS));
}

int main(int argc, char **argv)
{
    check_name = "many";
    setvbuf(stdout, NULL, _IOLBF, 0);
    char name[EVENTHEADER_NAME_MAX], dyn[1024], want[1024];
    if (argc == 2 && !strcmp(argv[1], "--names")) {
        for (int i = 0; i < N_TP; i++) {
            name_of(i, name, sizeof(name));
            printf("%s\n", name);
        }
        return 0;
    }
    ehk_meta_pidseq(&g_meta, "ManyEvent");
    for (int i = 0; i < N_TP; i++) {
        tracepoint_state init = TRACEPOINT_STATE_INIT;
        g_states[i] = init;
        eventheader_tracepoint ev = {&g_states[i], (const eventheader_extension *)g_meta.u.bytes,
                                     {eventheader_flag_default, 0, 0, 0, 0, (uint8_t)(1 + i / KEYWORDS)},
                                     1ULL << (i % KEYWORDS)};
        g_events[i] = ev;
    }
    /* Every event twice, in a scrambled order, with NULLs mixed in. */
    const eventheader_tracepoint *ptrs[2 * N_TP + 7];
    int n = 0;
    for (int i = 0; i < N_TP; i++)
        ptrs[n++] = &g_events[(i * 17) % N_TP];
    for (int i = 0; i < 7; i++)
        ptrs[n++] = NULL;
    for (int i = N_TP - 1; i >= 0; i--)
        ptrs[n++] = &g_events[(i * 31) % N_TP];
    for (int i = 0; i < n; i++) { /* deterministic shuffle */
        int j = (i * 7919 + 13) % n;
        const eventheader_tracepoint *t = ptrs[i];
        ptrs[i] = ptrs[j];
        ptrs[j] = t;
    }
    REQUIRE(eventheader_open_provider_with_events(&g_prov, ptrs, ptrs + n) == 0, "open_provider_with_events");

    int enabled = 0, listed = 0;
    for (int i = 0; i < N_TP; i++) {
        name_of(i, name, sizeof(name));
        VERIFYF(g_states[i].write_index >= 0, "%s not connected", name);
        enabled += TRACEPOINT_ENABLED(&g_states[i]) != 0;
        snprintf(want, sizeof(want), "%s %s", name, EHK_REFERENCE_ARGS);
        listed += !strcmp(ehk_dynamic_event(name, dyn), want);
    }
    VERIFYF(enabled == N_TP, "%d of %d tracepoints enabled", enabled, N_TP);
    VERIFYF(listed == N_TP, "%d of %d tracepoints in dynamic_events with the reference args", listed, N_TP);

    int written = 0;
    for (int round = 0; round < PER_TP; round++) {
        for (int i = 0; i < N_TP; i++) {
            struct ehk_pidseq v = {(uint32_t)getpid(), (uint32_t)round, (uint8_t)i};
            struct iovec vecs[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {&v, sizeof(v)}};
            int rc = eventheader_write(&g_events[i], NULL, NULL, 4, vecs);
            written += rc == 0;
        }
    }
    VERIFYF(written == N_TP * PER_TP, "%d of %d writes succeeded", written, N_TP * PER_TP);
    printf("many: %d tracepoints registered, %d enabled, %d events written\n", N_TP, enabled, written);

    const char *expect = getenv("EHK_EXPECT_FILE");
    FILE *f = expect ? fopen(expect, "w") : NULL;
    VERIFYF(f != NULL, "EHK_EXPECT_FILE not writable");
    if (f) {
        /* ehkv sorts by name (byte order); sort ours the same way. */
        char names[N_TP][64];
        for (int i = 0; i < N_TP; i++)
            name_of(i, names[i], sizeof(names[i]));
        qsort(names, N_TP, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);
        for (int i = 0; i < N_TP; i++)
            fprintf(f, "%s %d %d\n", names[i], (int)getpid(), PER_TP);
        fclose(f);
    }
    eventheader_close_provider(&g_prov);
    return check_finish();
}
