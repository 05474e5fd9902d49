/* Registration, enablement and unregistration against the real
 * kernel through the library's user_events backend (docs/format.md §6).
 *
 *   t_basic UEV_RAW WORKDIR
 *
 * Writes WORKDIR/basic.perf.data (perf toggle step) and WORKDIR/basic.expect:
 * the `ehkv summary` lines that recording must produce. */
#include "ehk_common.h"

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#define PROVIDER "EhkBasic"
#define NAME_A PROVIDER "_L5K1"
#define NAME_B PROVIDER "_L4K2"

static tracepoint_provider_state g_pstate = TRACEPOINT_PROVIDER_STATE_INIT;
static const eventheader_provider g_prov = {&g_pstate, "", PROVIDER};
static tracepoint_state g_sa = TRACEPOINT_STATE_INIT;
static tracepoint_state g_sb = TRACEPOINT_STATE_INIT;
static ehk_meta g_meta;
static uint32_t g_seq_a, g_seq_b;

static const eventheader_tracepoint g_ev_a = {
    &g_sa, NULL, {eventheader_flag_default, 0, 0, 0, event_opcode_info, event_level_verbose}, 1};
static const eventheader_tracepoint g_ev_b = {
    &g_sb, (const eventheader_extension *)g_meta.u.bytes,
    {eventheader_flag_default, 0, 0, 0, event_opcode_info, event_level_information}, 2};

/* A: no metadata, payload right after the header. */
static int write_a(void)
{
    struct ehk_pidseq v = {(uint32_t)getpid(), g_seq_a, 0};
    struct iovec vecs[3] = {{NULL, 0}, {NULL, 0}, {&v, sizeof(v)}};
    int rc = eventheader_write(&g_ev_a, NULL, NULL, 3, vecs);
    if (rc == 0)
        g_seq_a++;
    return rc;
}

/* B: with a metadata extension (pid, seq, role). */
static int write_b(void)
{
    struct ehk_pidseq v = {(uint32_t)getpid(), g_seq_b, 1};
    struct iovec vecs[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {&v, sizeof(v)}};
    int rc = eventheader_write(&g_ev_b, NULL, NULL, 4, vecs);
    if (rc == 0)
        g_seq_b++;
    return rc;
}

/* True if the word stays 0 for ms milliseconds. */
static int stays_disabled(const tracepoint_state *s, int ms)
{
    for (int i = 0; i < ms; i += 10) {
        if (TRACEPOINT_ENABLED(s))
            return 0;
        ehk_sleep_ms(10);
    }
    return 1;
}

int main(int argc, char **argv)
{
    check_name = "basic";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 3) {
        fprintf(stderr, "usage: t_basic UEV_RAW WORKDIR\n");
        return 2;
    }
    const char *uev_raw = argv[1], *dir = argv[2];
    char path[512], buf[1024];
    ehk_meta_pidseq(&g_meta, "BasicB");

    /* Not yet connected: nothing enabled, writes answer EBADF. */
    VERIFYF(!TRACEPOINT_ENABLED(&g_sa), "fresh state enabled");
    VERIFYF(write_a() == EBADF, "write before connect");

    REQUIRE(eventheader_open_provider(&g_prov) == 0, "open_provider failed (user_events missing?)");
    REQUIRE(eventheader_connect(&g_ev_a, &g_prov) == 0, "connect " NAME_A);
    REQUIRE(eventheader_connect(&g_ev_b, &g_prov) == 0, "connect " NAME_B);
    VERIFYF(g_sa.write_index >= 0 && g_sb.write_index >= 0 && g_sa.write_index != g_sb.write_index,
          "write indexes %d %d", g_sa.write_index, g_sb.write_index);

    /* The kernel lists both with exactly the reference argument list. */
    VERIFYF(!strcmp(ehk_dynamic_event(NAME_A, buf), NAME_A " " EHK_REFERENCE_ARGS),
          "dynamic_events has \"%s\"", buf);
    VERIFYF(!strcmp(ehk_dynamic_event(NAME_B, buf), NAME_B " " EHK_REFERENCE_ARGS),
          "dynamic_events has \"%s\"", buf);
    snprintf(path, sizeof(path), EHK_TRACEFS "/events/user_events/%s/format", NAME_A);
    char *format = ehk_read_file(path);
    static const char *const fields[] = {
        "field:u8 eventheader_flags;\toffset:8;\tsize:1;\tsigned:0;",
        "field:u8 version;\toffset:9;\tsize:1;\tsigned:0;",
        "field:u16 id;\toffset:10;\tsize:2;\tsigned:0;",
        "field:u16 tag;\toffset:12;\tsize:2;\tsigned:0;",
        "field:u8 opcode;\toffset:14;\tsize:1;\tsigned:0;",
        "field:u8 level;\toffset:15;\tsize:1;\tsigned:0;",
    };
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        VERIFYF(format && strstr(format, fields[i]), "format lacks \"%s\"", fields[i]);
    free(format);

    /* Nobody listens yet. */
    VERIFYF(!TRACEPOINT_ENABLED(&g_sa) && !TRACEPOINT_ENABLED(&g_sb), "enabled without listener");
    VERIFYF(write_a() == EBADF, "disabled write A");
    VERIFYF(write_b() == EBADF, "disabled write B");

    /* tracefs enable toggles exactly A's word. */
    ehk_write_file(EHK_TRACEFS "/trace", "");
    VERIFYF(ehk_event_enable(NAME_A, 1) == 0, "tracefs enable A");
    VERIFYF(ehk_wait_word(&g_sa.status_word, 1, 2000), "A not enabled by tracefs");
    VERIFYF(!TRACEPOINT_ENABLED(&g_sb), "B enabled by A's enable");
    int rc_w1 = write_a(), rc_w2 = write_a(), rc_w3 = write_a();
    VERIFYF(rc_w1 == 0 && rc_w2 == 0 && rc_w3 == 0, "enabled writes %d %d %d", rc_w1, rc_w2, rc_w3);
    VERIFYF(write_b() == EBADF, "B written while disabled");
    VERIFYF(ehk_trace_count(NAME_A) == 3, "trace buffer has %d A events, want 3", ehk_trace_count(NAME_A));
    VERIFYF(ehk_event_enable(NAME_A, 0) == 0, "tracefs disable A");
    VERIFYF(ehk_wait_word(&g_sa.status_word, 0, 2000), "A still enabled after tracefs disable");
    VERIFYF(write_a() == EBADF, "write after tracefs disable");

    /* perf record toggles both words; events reach perf.data. */
    ehk_perf perf = {-1, -1, -1};
    const char *names[] = {NAME_A, NAME_B};
    char out[512], log[512], fifo[512];
    snprintf(out, sizeof(out), "%s/basic.perf.data", dir);
    snprintf(log, sizeof(log), "%s/basic.perf.log", dir);
    snprintf(fifo, sizeof(fifo), "%s/basic.fifo", dir);
    REQUIRE(ehk_perf_start(&perf, out, log, fifo, 2, names) == 0, "perf start");
    VERIFYF(ehk_wait_word(&g_sa.status_word, 1, 60000), "perf did not enable A");
    VERIFYF(ehk_wait_word(&g_sb.status_word, 1, 60000), "perf did not enable B");
    VERIFYF(ehk_perf_enable(&perf, 60000) == 0, "perf enable/ack");
    g_seq_a = g_seq_b = 0; /* ehkv expects seq 0,1,... in what perf saw */
    VERIFYF(write_a() == 0 && write_a() == 0 && write_b() == 0, "writes under perf");
    int perf_rc = ehk_perf_stop(&perf);
    VERIFYF(perf_rc == 0 || perf_rc == 130, "perf record exit %d (see %s)", perf_rc, log);
    VERIFYF(ehk_wait_word(&g_sa.status_word, 0, 10000), "A still enabled after perf exit");
    VERIFYF(ehk_wait_word(&g_sb.status_word, 0, 10000), "B still enabled after perf exit");
    VERIFYF(write_a() == EBADF, "write after perf exit");
    snprintf(path, sizeof(path), "%s/basic.expect", dir);
    FILE *expect = fopen(path, "w");
    if (expect) {
        fprintf(expect, "%s %d %d\n%s %d %d\n", NAME_A, (int)getpid(), 2, NAME_B, (int)getpid(), 1);
        fclose(expect);
    }

    /* Unregistration: a second process keeps the tracepoints alive, so they
     * can still be enabled; our words must no longer follow. */
    ehk_helper h;
    REQUIRE(ehk_helper_start(&h, uev_raw) == 0, "helper start");
    VERIFYF(!strncmp(ehk_helper_cmd(&h, "regeh 0 %s", NAME_A), "ok", 2), "helper register A");
    VERIFYF(!strncmp(ehk_helper_cmd(&h, "regeh 1 %s", NAME_B), "ok", 2), "helper register B");

    VERIFYF(eventheader_connect(&g_ev_a, NULL) == 0, "disconnect A");
    VERIFYF(g_sa.write_index == -1, "write_index after disconnect %d", g_sa.write_index);
    VERIFYF(write_a() == EBADF, "write after disconnect");
    VERIFYF(ehk_event_enable(NAME_A, 1) == 0, "tracefs enable A (held by helper)");
    VERIFYF(!strcmp(ehk_helper_cmd(&h, "enabled 0"), "1"), "helper's A word not enabled");
    VERIFYF(stays_disabled(&g_sa, 300), "kernel updated A's word after unregister");
    VERIFYF(write_a() == EBADF, "write to disconnected A while enabled");
    VERIFYF(ehk_event_enable(NAME_A, 0) == 0, "tracefs disable A");

    /* Reconnecting makes the kernel follow the word again. */
    VERIFYF(eventheader_connect(&g_ev_a, &g_prov) == 0, "reconnect A");
    VERIFYF(ehk_event_enable(NAME_A, 1) == 0, "tracefs enable A again");
    VERIFYF(ehk_wait_word(&g_sa.status_word, 1, 2000), "reconnected A not enabled");
    VERIFYF(ehk_event_enable(NAME_A, 0) == 0, "tracefs disable A again");
    VERIFYF(ehk_wait_word(&g_sa.status_word, 0, 2000), "reconnected A not disabled");

    /* Closing the provider unregisters everything. */
    eventheader_close_provider(&g_prov);
    VERIFYF(ehk_event_enable(NAME_A, 1) == 0 && ehk_event_enable(NAME_B, 1) == 0, "enable after close");
    VERIFYF(!strcmp(ehk_helper_cmd(&h, "enabled 0"), "1") && !strcmp(ehk_helper_cmd(&h, "enabled 1"), "1"),
          "helper's words not enabled");
    VERIFYF(stays_disabled(&g_sa, 300) && stays_disabled(&g_sb, 10), "kernel updated a word after close");
    VERIFYF(write_a() == EBADF && write_b() == EBADF, "write after close");
    ehk_event_enable(NAME_A, 0);
    ehk_event_enable(NAME_B, 0);
    VERIFYF(!strcmp(ehk_helper_cmd(&h, "unreg 0"), "ok"), "helper unregister A");
    VERIFYF(!strcmp(ehk_helper_cmd(&h, "unreg 1"), "ok"), "helper unregister B");
    VERIFYF(ehk_helper_stop(&h) == 0, "helper exit");
    eventheader_close_provider(&g_prov); /* second close is a no-op */
    return check_finish();
}
