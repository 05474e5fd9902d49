/* Bad-input rows that need a real kernel and a second user (guest.sh runs
 * this program as `nobody` with setpriv):
 *
 *   t_perm denied   user_events_data is not accessible: every open returns
 *                   EACCES, nothing crashes, and every later call is a no-op
 *                   (connect succeeds without registering, writes return
 *                   EBADF, close and unregister are harmless, a second open
 *                   fails the same way).
 *   t_perm granted  the same user after root granted access (group and mode):
 *                   a new open succeeds and connect registers with the kernel.
 *   t_perm suid     prints real and effective uid, registers a TraceLogging
 *                   provider and writes one event; guest.sh runs it setuid-root
 *                   and plain with TRACEPOINT_CAPTURE_FILE set, and checks that
 *                   only the plain run created the capture file.
 */
#include "ehk_common.h"

#include <eventheader/TraceLoggingProvider.h>
#include <tracepoint/tracepoint.h>

TRACELOGGING_DEFINE_PROVIDER(PermProvider, "EhkPerm",
                             (0x1b2c3d4e, 0x5f60, 0x7182, 0x93, 0xa4, 0xb5, 0xc6, 0xd7, 0xe8, 0xf9, 0x0a));

static tracepoint_provider_state g_plain = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_state g_tp = TRACEPOINT_STATE_INIT;

static int write_plain(void)
{
    uint32_t x = 7;
    struct iovec vecs[2] = {{NULL, 0}, {&x, sizeof(x)}};
    return tracepoint_write(&g_tp, 2, vecs);
}

static int denied(void)
{
    int i;
    check_name = "perm_denied";
    for (i = 0; i < 2; i++) { /* a second round: still refused, still harmless */
        VERIFYF(tracepoint_open_provider(&g_plain) == EACCES, "tracepoint_open_provider round %d", i);
        VERIFYF(g_plain.data_file == -1, "the provider stays closed (data_file %d)", g_plain.data_file);
        VERIFYF(tracepoint_connect(&g_tp, &g_plain, "EhkPermPlain u32 x") == 0, "connect to the closed provider");
        VERIFYF(g_tp.write_index == -1, "not registered (write_index %d)", g_tp.write_index);
        VERIFYF(!TRACEPOINT_ENABLED(&g_tp), "not enabled");
        VERIFYF(write_plain() == EBADF, "tracepoint_write");
        VERIFYF(TraceLoggingRegister(PermProvider) == EACCES, "TraceLoggingRegister round %d", i);
        VERIFYF(!TraceLoggingProviderEnabled(PermProvider, 5, 1), "TraceLoggingProviderEnabled");
        TraceLoggingWrite(PermProvider, "Denied", TraceLoggingLevel(5), TraceLoggingInt32(i, "round"));
        TraceLoggingUnregister(PermProvider);
        tracepoint_connect(&g_tp, NULL, NULL);
        tracepoint_close_provider(&g_plain);
        tracepoint_close_provider(&g_plain);
    }
    return check_finish();
}

static int granted(void)
{
    check_name = "perm_granted";
    REQUIRE(tracepoint_open_provider(&g_plain) == 0, "tracepoint_open_provider");
    VERIFYF(g_plain.data_file >= 0, "data_file %d", g_plain.data_file);
    VERIFYF(tracepoint_connect(&g_tp, &g_plain, "EhkPermPlain u32 x") == 0, "connect");
    VERIFYF(g_tp.write_index >= 0, "registered (write_index %d)", g_tp.write_index);
    VERIFYF(write_plain() == EBADF, "tracepoint_write with no listener");
    VERIFYF(TraceLoggingRegister(PermProvider) == 0, "TraceLoggingRegister");
    TraceLoggingWrite(PermProvider, "Granted", TraceLoggingLevel(5), TraceLoggingInt32(1, "round"));
    TraceLoggingUnregister(PermProvider);
    tracepoint_close_provider(&g_plain);
    VERIFYF(g_tp.write_index == -1, "unregistered by close (write_index %d)", g_tp.write_index);
    return check_finish();
}

static int suid(void)
{
    int reg;
    printf("ruid %u euid %u\n", (unsigned)getuid(), (unsigned)geteuid());
    reg = TraceLoggingRegister(PermProvider);
    printf("register %d\n", reg);
    TraceLoggingWrite(PermProvider, "Suid", TraceLoggingLevel(5), TraceLoggingUInt32((unsigned)getuid(), "ruid"));
    TraceLoggingUnregister(PermProvider);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "denied") == 0)
        return denied();
    if (argc == 2 && strcmp(argv[1], "granted") == 0)
        return granted();
    if (argc == 2 && strcmp(argv[1], "suid") == 0)
        return suid();
    fprintf(stderr, "usage: t_perm denied|granted|suid\n");
    return 2;
}
