/* Fork. The child inherits the registration (the kernel copies the
 * enablers to the child), its events carry its own pid, and its inherited
 * enable word follows later enable/disable.
 *
 *   t_fork --names   tracepoints perf must record
 *   t_fork           run (perf recording; EHK_EXPECT_FILE receives the expected
 *                    `ehkv summary` lines)
 */
#include "ehk_common.h"

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#define PROVIDER "EhkFork"
#define N_EACH 10

static tracepoint_provider_state g_pstate = TRACEPOINT_PROVIDER_STATE_INIT;
static const eventheader_provider g_prov = {&g_pstate, "", PROVIDER};
static ehk_meta g_meta;
static tracepoint_state g_s_rec = TRACEPOINT_STATE_INIT;    /* EhkFork_L5K1, perf */
static tracepoint_state g_s_other = TRACEPOINT_STATE_INIT;  /* EhkFork_L5K2, perf (second event) */
static tracepoint_state g_s_toggle = TRACEPOINT_STATE_INIT; /* EhkFork_L4K4, tracefs */
static const eventheader_tracepoint g_rec = {&g_s_rec, (const eventheader_extension *)g_meta.u.bytes,
                                             {eventheader_flag_default, 0, 0, 0, 0, 5}, 1};
static const eventheader_tracepoint g_other = {&g_s_other, NULL, {eventheader_flag_default, 0, 0, 0, 0, 5}, 2};
static const eventheader_tracepoint g_toggle = {&g_s_toggle, NULL, {eventheader_flag_default, 0, 0, 0, 0, 4}, 4};

static int write_rec(uint32_t seq, uint8_t role)
{
    struct ehk_pidseq v = {(uint32_t)getpid(), seq, role};
    struct iovec vecs[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {&v, sizeof(v)}};
    return eventheader_write(&g_rec, NULL, NULL, 4, vecs);
}

static void send_byte(int fd, char c)
{
    if (write(fd, &c, 1) != 1)
        _exit(99);
}

static char recv_byte(int fd)
{
    char c = 0;
    return read(fd, &c, 1) == 1 ? c : 0;
}

int main(int argc, char **argv)
{
    check_name = "fork";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 2 && !strcmp(argv[1], "--names")) {
        printf("%s_L5K1\n%s_L5K2\n", PROVIDER, PROVIDER);
        return 0;
    }
    ehk_meta_pidseq(&g_meta, "ForkEvent");
    REQUIRE(eventheader_open_provider(&g_prov) == 0, "open provider");
    REQUIRE(eventheader_connect(&g_rec, &g_prov) == 0, "connect L5K1");
    REQUIRE(eventheader_connect(&g_other, &g_prov) == 0, "connect L5K2");
    REQUIRE(eventheader_connect(&g_toggle, &g_prov) == 0, "connect L4K4");
    REQUIRE(TRACEPOINT_ENABLED(&g_s_rec), "L5K1 not enabled (perf should be recording)");
    VERIFYF(!TRACEPOINT_ENABLED(&g_s_toggle), "L4K4 enabled before tracefs enable");

    uint32_t seq = 0;
    for (; seq < N_EACH / 2; seq++)
        VERIFYF(write_rec(seq, 0) == 0, "parent write %u before fork", seq);

    int to_child[2], to_parent[2];
    REQUIRE(pipe(to_child) == 0 && pipe(to_parent) == 0, "pipe");
    pid_t parent = getpid();
    pid_t child = fork();
    REQUIRE(child >= 0, "fork: %s", strerror(errno));
    if (child == 0) {
        check_name = "fork(child)";
        VERIFYF(getpid() != parent, "child pid");
        VERIFYF(TRACEPOINT_ENABLED(&g_s_rec), "child lost the enabled state across fork");
        for (uint32_t i = 0; i < N_EACH; i++)
            VERIFYF(write_rec(i, 1) == 0, "child write %u", i);
        /* The parent enables/disables L4K4 through tracefs; the child's
         * copy of the word must follow. */
        send_byte(to_parent[1], 'r');
        VERIFYF(recv_byte(to_child[0]) == 'e', "sync");
        VERIFYF(ehk_wait_word(&g_s_toggle.status_word, 1, 2000), "child word not enabled after fork");
        struct iovec vecs[3] = {{NULL, 0}, {NULL, 0}, {&seq, sizeof(seq)}};
        VERIFYF(eventheader_write(&g_toggle, NULL, NULL, 3, vecs) == 0, "child write L4K4");
        send_byte(to_parent[1], 'w');
        VERIFYF(recv_byte(to_child[0]) == 'd', "sync");
        VERIFYF(ehk_wait_word(&g_s_toggle.status_word, 0, 2000), "child word not disabled after fork");
        VERIFYF(eventheader_write(&g_toggle, NULL, NULL, 3, vecs) == EBADF, "child write when disabled");
        fflush(stderr);
        _exit(check_failed ? 1 : 0);
    }
    for (; seq < N_EACH; seq++)
        VERIFYF(write_rec(seq, 0) == 0, "parent write %u after fork", seq);

    VERIFYF(recv_byte(to_parent[0]) == 'r', "sync");
    ehk_write_file(EHK_TRACEFS "/trace", "");
    VERIFYF(ehk_event_enable(PROVIDER "_L4K4", 1) == 0, "tracefs enable L4K4");
    VERIFYF(ehk_wait_word(&g_s_toggle.status_word, 1, 2000), "parent word not enabled");
    send_byte(to_child[1], 'e');
    VERIFYF(recv_byte(to_parent[0]) == 'w', "sync");
    VERIFYF(ehk_trace_count(PROVIDER "_L4K4") == 1, "trace has %d L4K4 events, want the child's 1",
          ehk_trace_count(PROVIDER "_L4K4"));
    VERIFYF(ehk_event_enable(PROVIDER "_L4K4", 0) == 0, "tracefs disable L4K4");
    VERIFYF(ehk_wait_word(&g_s_toggle.status_word, 0, 2000), "parent word not disabled");
    send_byte(to_child[1], 'd');
    int status = 0;
    VERIFYF(waitpid(child, &status, 0) == child, "waitpid");
    VERIFYF(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed (status 0x%x)", status);
    VERIFYF(TRACEPOINT_ENABLED(&g_s_rec), "parent lost its enabled state after the child exited");
    VERIFYF(write_rec(seq++, 0) == 0, "parent write after child exit");

    const char *expect = getenv("EHK_EXPECT_FILE");
    FILE *f = expect ? fopen(expect, "w") : NULL;
    VERIFYF(f != NULL, "EHK_EXPECT_FILE not writable");
    if (f) {
        /* ehkv prints lines sorted by name, then pid. */
        int lo = parent < child ? parent : child, hi = parent < child ? child : parent;
        fprintf(f, "%s_L5K1 %d %d\n%s_L5K1 %d %d\n", PROVIDER, lo, lo == parent ? N_EACH + 1 : N_EACH,
                PROVIDER, hi, hi == parent ? N_EACH + 1 : N_EACH);
        fclose(f);
    }
    eventheader_close_provider(&g_prov);
    return check_finish();
}
