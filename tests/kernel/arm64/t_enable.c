/* Registration and the enable bit, with the aarch64 `eventheader collect` as
 * the listener (t_basic checks them with tracefs and perf).
 *
 *   t_enable READY GO ENABLED
 *
 * Registers EhkArmEnable_L5K1 and checks what the kernel lists, creates the
 * file READY and waits (up to 60 s) for the kernel to set the enable bit:
 * the guest then starts `collect` on the tracepoint, which sets it when it
 * opens its perf events and runs its command, which creates GO, once it
 * records. The program waits for GO, writes three events (seq 0, 1, 2) that
 * must succeed and creates ENABLED, upon which the command exits, collect
 * stops and the bit must clear; writes must then fail with EBADF. Prints
 * "enable: N checks, M failed"; exit status 1 on a failure. */
#include "ehk_common.h"

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#include <sys/stat.h>

#define PROVIDER "EhkArmEnable"
#define NAME PROVIDER "_L5K1"

static tracepoint_provider_state g_pstate = TRACEPOINT_PROVIDER_STATE_INIT;
static const eventheader_provider g_prov = {&g_pstate, "", PROVIDER};
static tracepoint_state g_state = TRACEPOINT_STATE_INIT;
static ehk_meta g_meta;
static uint32_t g_seq;

static const eventheader_tracepoint g_ev = {
    &g_state, (const eventheader_extension *)g_meta.u.bytes,
    {eventheader_flag_default, 0, 0, 0, event_opcode_info, event_level_verbose}, 1};

/* With a metadata extension (pid, seq, role), so that the host decodes it. */
static int write_event(void)
{
    struct ehk_pidseq v = {(uint32_t)getpid(), g_seq, 0};
    struct iovec vecs[4] = {{NULL, 0}, {NULL, 0}, {NULL, 0}, {&v, sizeof(v)}};
    int rc = eventheader_write(&g_ev, NULL, NULL, 4, vecs);
    if (rc == 0)
        g_seq++;
    return rc;
}

static int touch(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno;
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    check_name = "enable";
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 4) {
        fprintf(stderr, "usage: t_enable READY GO ENABLED\n");
        return 2;
    }
    char buf[1024];
    ehk_meta_pidseq(&g_meta, "ArmEvent");

    REQUIRE(eventheader_open_provider(&g_prov) == 0, "open_provider failed (user_events missing?)");
    REQUIRE(eventheader_connect(&g_ev, &g_prov) == 0, "connect " NAME);
    VERIFYF(g_state.write_index >= 0, "write index %d", g_state.write_index);
    VERIFYF(!strcmp(ehk_dynamic_event(NAME, buf), NAME " " EHK_REFERENCE_ARGS),
          "dynamic_events has \"%s\"", buf);
    VERIFYF(!TRACEPOINT_ENABLED(&g_state), "enabled without listener");
    VERIFYF(write_event() == EBADF, "write without listener");

    REQUIRE(touch(argv[1]) == 0, "create %s", argv[1]);
    REQUIRE(ehk_wait_word(&g_state.status_word, 1, 60000), "collect did not set the enable bit");
    /* The library registers with enable_bit 0 in a 32-bit word. */
    VERIFYF(__atomic_load_n(&g_state.status_word, __ATOMIC_RELAXED) == 1u, "status word 0x%x",
          __atomic_load_n(&g_state.status_word, __ATOMIC_RELAXED));
    /* The bit is set when collect opens its first perf event, before it records. */
    struct stat st;
    for (int ms = 0; ms < 60000 && stat(argv[2], &st) != 0; ms += 10)
        ehk_sleep_ms(10);
    REQUIRE(stat(argv[2], &st) == 0, "collect did not run its command (no %s)", argv[2]);
    int w1 = write_event(), w2 = write_event(), w3 = write_event();
    VERIFYF(w1 == 0 && w2 == 0 && w3 == 0, "enabled writes %d %d %d", w1, w2, w3);

    REQUIRE(touch(argv[3]) == 0, "create %s", argv[3]);
    VERIFYF(ehk_wait_word(&g_state.status_word, 0, 60000), "enable bit still set after collect stopped");
    VERIFYF(write_event() == EBADF, "write after collect stopped");

    eventheader_close_provider(&g_prov);
    return check_finish();
}
