/* One of two writer processes sharing one tracepoint.
 *
 *   t_writer --names   tracepoints perf must record
 *   t_writer COUNT     register EhkMulti_L5K1 and write COUNT events (pid, seq);
 *                      appends its expected `ehkv summary` line to EHK_EXPECT_FILE
 */
#include "ehk_common.h"

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#include <sched.h>

#define PROVIDER "EhkMulti"

static tracepoint_provider_state g_pstate = TRACEPOINT_PROVIDER_STATE_INIT;
static const eventheader_provider g_prov = {&g_pstate, "", PROVIDER};
static ehk_meta g_meta;
static tracepoint_state g_s = TRACEPOINT_STATE_INIT;
static tracepoint_state g_s2 = TRACEPOINT_STATE_INIT;
static const eventheader_tracepoint g_ev = {&g_s, (const eventheader_extension *)g_meta.u.bytes,
                                            {eventheader_flag_default, 0, 0, 0, 0, 5}, 1};
static const eventheader_tracepoint g_ev2 = {&g_s2, NULL, {eventheader_flag_default, 0, 0, 0, 0, 5}, 2};

int main(int argc, char **argv)
{
    check_name = "writer";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 2 && !strcmp(argv[1], "--names")) {
        printf("%s_L5K1\n%s_L5K2\n", PROVIDER, PROVIDER);
        return 0;
    }
    int count = argc == 2 ? atoi(argv[1]) : 0;
    REQUIRE(count > 0, "usage: t_writer COUNT");
    ehk_meta_pidseq(&g_meta, "MultiEvent");
    REQUIRE(eventheader_open_provider(&g_prov) == 0, "open provider");
    REQUIRE(eventheader_connect(&g_ev, &g_prov) == 0, "connect L5K1");
    REQUIRE(eventheader_connect(&g_ev2, &g_prov) == 0, "connect L5K2");
    REQUIRE(TRACEPOINT_ENABLED(&g_s), "not enabled (perf should be recording)");
    int written = 0;
    for (int i = 0; i < count; i++) {
        struct ehk_pidseq v = {(uint32_t)getpid(), (uint32_t)i, 0};
        struct iovec vecs[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {&v, sizeof(v)}};
        int rc = eventheader_write(&g_ev, NULL, NULL, 4, vecs);
        VERIFYF(rc == 0, "write %d: %d", i, rc);
        written += rc == 0;
        if (i % 16 == 0)
            sched_yield();
    }
    const char *expect = getenv("EHK_EXPECT_FILE");
    int fd = expect ? open(expect, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : -1;
    VERIFYF(fd >= 0, "EHK_EXPECT_FILE not writable");
    if (fd >= 0) {
        char line[128];
        int n = snprintf(line, sizeof(line), "%s_L5K1 %d %d\n", PROVIDER, (int)getpid(), written);
        VERIFYF(write(fd, line, (size_t)n) == n, "write expect line");
        close(fd);
    }
    eventheader_close_provider(&g_prov);
    return check_finish();
}
