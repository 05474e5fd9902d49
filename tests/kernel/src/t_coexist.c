/* Coexistence with another process that registers the same
 * tracepoint names through raw ioctls (as the reference library does):
 * the arg spec rule of docs/format.md §3.3.
 *
 *   t_coexist UEV_RAW
 */
#include "ehk_common.h"

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#define PROVIDER "EhkCoex"

static tracepoint_provider_state g_pstate = TRACEPOINT_PROVIDER_STATE_INIT;
static const eventheader_provider g_prov = {&g_pstate, "", PROVIDER};

#define EVENT(var, level, keyword)                                                  \
    static tracepoint_state var##_state = TRACEPOINT_STATE_INIT;                    \
    static const eventheader_tracepoint var = {                                     \
        &var##_state, NULL, {eventheader_flag_default, 0, 0, 0, 0, level}, keyword}

EVENT(g_first_helper, 5, 1);  /* EhkCoex_L5K1: helper registers first */
EVENT(g_first_ours, 5, 2);    /* EhkCoex_L5K2: we register first */
EVENT(g_conflict, 5, 4);      /* EhkCoex_L5K4: helper holds a different arg list */
EVENT(g_grouped, 4, 8);       /* EhkCoex_L4K8: name with level/keyword variety */

static int write_one(const eventheader_tracepoint *ev, uint32_t value)
{
    struct iovec vecs[3] = {{NULL, 0}, {NULL, 0}, {&value, sizeof(value)}};
    return eventheader_write(ev, NULL, NULL, 3, vecs);
}

static int reply_is(const char *reply, const char *want)
{
    return !strcmp(reply, want);
}

/* Both processes registered `name`: enable it through tracefs, both words
 * must follow, and both processes' writes must land in the trace buffer. */
static void check_shared(ehk_helper *h, int slot, const char *name, const eventheader_tracepoint *ev)
{
    ehk_write_file(EHK_TRACEFS "/trace", "");
    VERIFYF(!TRACEPOINT_ENABLED(ev->state), "%s enabled before enable", name);
    VERIFYF(reply_is(ehk_helper_cmd(h, "enabled %d", slot), "0"), "%s: helper enabled early", name);
    VERIFYF(ehk_event_enable(name, 1) == 0, "enable %s", name);
    VERIFYF(ehk_wait_word(&ev->state->status_word, 1, 2000), "%s: our word not enabled", name);
    VERIFYF(reply_is(ehk_helper_cmd(h, "enabled %d", slot), "1"), "%s: helper word not enabled", name);
    VERIFYF(write_one(ev, 1) == 0, "%s: our write", name);
    /* header: flags 3, version 0, id 0, tag 0, opcode 0, level 5 + 4 payload bytes */
    VERIFYF(reply_is(ehk_helper_cmd(h, "write %d 030000000000000502000000", slot), "ok"),
          "%s: helper write", name);
    VERIFYF(ehk_trace_count(name) == 2, "%s: trace has %d events, want 2", name, ehk_trace_count(name));
    VERIFYF(ehk_event_enable(name, 0) == 0, "disable %s", name);
    VERIFYF(ehk_wait_word(&ev->state->status_word, 0, 2000), "%s: our word not disabled", name);
    VERIFYF(reply_is(ehk_helper_cmd(h, "enabled %d", slot), "0"), "%s: helper word not disabled", name);
}

int main(int argc, char **argv)
{
    check_name = "coexist";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 2) {
        fprintf(stderr, "usage: t_coexist UEV_RAW\n");
        return 2;
    }
    char reply[256];
    ehk_helper h;
    REQUIRE(ehk_helper_start(&h, argv[1]) == 0, "helper start");
    int other_pid = atoi(ehk_helper_cmd(&h, "pid"));
    VERIFYF(other_pid > 0 && other_pid != getpid(), "helper is a separate process (%d)", other_pid);

    /* 1. The other process registers first with the reference's exact
     *    command string; ours joins. */
    snprintf(reply, sizeof(reply), "%s", ehk_helper_cmd(&h, "regeh 0 %s_L5K1", PROVIDER));
    VERIFYF(!strncmp(reply, "ok ", 3), "helper first registration: %s", reply);
    REQUIRE(eventheader_open_provider(&g_prov) == 0, "open provider");
    VERIFYF(eventheader_connect(&g_first_helper, &g_prov) == 0, "connect after helper");
    check_shared(&h, 0, PROVIDER "_L5K1", &g_first_helper);

    /* 2. Ours first, the other process joins with the exact string. */
    VERIFYF(eventheader_connect(&g_first_ours, &g_prov) == 0, "connect first");
    snprintf(reply, sizeof(reply), "%s", ehk_helper_cmd(&h, "regeh 1 %s_L5K2", PROVIDER));
    VERIFYF(!strncmp(reply, "ok ", 3), "helper registration after ours: %s", reply);
    check_shared(&h, 1, PROVIDER "_L5K2", &g_first_ours);

    /* 3. A different argument list for a name we registered is refused. */
    snprintf(reply, sizeof(reply), "%s",
             ehk_helper_cmd(&h, "reg 2 %s_L5K2 u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u16 level",
                            PROVIDER));
    VERIFYF(!strcmp(reply, "err 98"), "different arg list (u16 level) got \"%s\", want EADDRINUSE", reply);
    snprintf(reply, sizeof(reply), "%s",
             ehk_helper_cmd(&h, "reg 2 %s_L5K2 u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 lvl",
                            PROVIDER));
    VERIFYF(!strcmp(reply, "err 98"), "different field name (lvl) got \"%s\", want EADDRINUSE", reply);
    snprintf(reply, sizeof(reply), "%s", ehk_helper_cmd(&h, "reg 2 %s_L5K2 u32 payload", PROVIDER));
    VERIFYF(!strcmp(reply, "err 98"), "different arg list (u32 payload) got \"%s\", want EADDRINUSE", reply);
    snprintf(reply, sizeof(reply), "%s", ehk_helper_cmd(&h, "reg 2 %s_L5K2", PROVIDER));
    VERIFYF(!strcmp(reply, "err 98"), "empty arg list got \"%s\", want EADDRINUSE", reply);

    /* The kernel compares parsed fields, not text: the same list spelled
     * without spaces (as older reference headers did) joins. */
    snprintf(reply, sizeof(reply), "%s",
             ehk_helper_cmd(&h, "reg 5 %s_L5K2 u8 eventheader_flags;u8 version;u16 id;u16 tag;u8 opcode;u8 level",
                            PROVIDER));
    VERIFYF(!strncmp(reply, "ok ", 3), "same fields, other spacing: %s", reply);
    VERIFYF(reply_is(ehk_helper_cmd(&h, "unreg 5"), "ok"), "helper unregister slot 5");

    /* 4. The reverse: the other process holds the name with another arg
     *    list, so our connect fails with EADDRINUSE and stays harmless. */
    snprintf(reply, sizeof(reply), "%s", ehk_helper_cmd(&h, "reg 3 %s_L5K4 u32 other", PROVIDER));
    VERIFYF(!strncmp(reply, "ok ", 3), "helper registers conflicting spec: %s", reply);
    int rc = eventheader_connect(&g_conflict, &g_prov);
    VERIFYF(rc == EADDRINUSE, "connect to a name held with another arg list returned %d", rc);
    VERIFYF(g_conflict_state.write_index == -1, "failed connect left write_index %d",
          g_conflict_state.write_index);
    VERIFYF(ehk_event_enable(PROVIDER "_L5K4", 1) == 0, "enable conflicting name");
    VERIFYF(reply_is(ehk_helper_cmd(&h, "enabled 3"), "1"), "helper word for conflicting name");
    VERIFYF(!TRACEPOINT_ENABLED(&g_conflict_state), "failed connect got an enable word");
    rc = write_one(&g_conflict, 7);
    VERIFYF(rc == EBADF, "write through failed connect returned %d", rc);
    ehk_event_enable(PROVIDER "_L5K4", 0);

    /* 5. Unregistering on one side leaves the other side working. */
    VERIFYF(eventheader_connect(&g_grouped, &g_prov) == 0, "connect L4K8");
    snprintf(reply, sizeof(reply), "%s", ehk_helper_cmd(&h, "regeh 4 %s_L4K8", PROVIDER));
    VERIFYF(!strncmp(reply, "ok ", 3), "helper L4K8: %s", reply);
    VERIFYF(reply_is(ehk_helper_cmd(&h, "unreg 4"), "ok"), "helper unregister L4K8");
    VERIFYF(ehk_event_enable(PROVIDER "_L4K8", 1) == 0, "enable L4K8 after helper left");
    VERIFYF(ehk_wait_word(&g_grouped_state.status_word, 1, 2000), "our L4K8 word after helper left");
    VERIFYF(reply_is(ehk_helper_cmd(&h, "enabled 4"), "0"), "helper word followed after unregister");
    VERIFYF(write_one(&g_grouped, 9) == 0, "write L4K8");
    ehk_event_enable(PROVIDER "_L4K8", 0);

    eventheader_close_provider(&g_prov);
    for (int slot = 0; slot < 4; slot++) {
        const char *r = ehk_helper_cmd(&h, "unreg %d", slot);
        VERIFYF(slot == 2 || reply_is(r, "ok"), "helper unregister slot %d: %s", slot, r);
    }
    VERIFYF(ehk_helper_stop(&h) == 0, "helper exit");
    return check_finish();
}
