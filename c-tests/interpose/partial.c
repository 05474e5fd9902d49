/*
 * A tracepoint layer replaced only in part: the program defines
 * tracepoint_write (and, with PARTIAL_CONNECT, tracepoint_connect too) but
 * not the other functions the EventHeader layer calls. The library must not
 * mix its own layer with the program's (its write indexes handed to the
 * program's tracepoint_write, or the program's to its own): opening and
 * connecting fail with ENOSYS and writing with EBADF (docs/tracepoint-layer.md),
 * whether the library is shared (the rest resolve to its own functions) or
 * static (the rest resolve to nothing). Run in capture mode: the capture file
 * must stay empty, and the program's functions must never be called.
 *
 * Prints "open E", "connect E", "write E", "tlg-register E" and
 * "program-calls N", then "done"; exits 1 on any other result.
 */
#include <eventheader/TraceLoggingProvider.h>
#include <eventheader/eventheader-tracepoint.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../check.h"

TRACELOGGING_DEFINE_PROVIDER(
    PartialTlg,
    "PartialTlg",
    (0x6c1e2a0b, 0x53d4, 0x4f1a, 0x8b, 0x27, 0x0e, 0x91, 0x3a, 0x5c, 0x44, 0x70));

static int g_program_calls;

#ifdef __cplusplus
extern "C" {
#endif

int tracepoint_write(tracepoint_state const* tp, unsigned data_count, struct iovec* data_vecs)
{
    (void)tp;
    (void)data_count;
    (void)data_vecs;
    g_program_calls += 1;
    return 0;
}

#ifdef PARTIAL_CONNECT
int tracepoint_connect(tracepoint_state* tp, tracepoint_provider_state* provider,
                       char const* name_args)
{
    (void)tp;
    (void)provider;
    (void)name_args;
    g_program_calls += 1;
    return 0;
}
#endif

#ifdef __cplusplus
}
#endif

int main(void)
{
    static tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    static eventheader_provider const provider = { &state, "", "PartialEh" };
    static tracepoint_state tp = TRACEPOINT_STATE_INIT;
    static uint8_t const meta_bytes[4 + 6] = { 6, 0, 1, 0, 'E', 'v', 'e', 'n', 't', 0 };
    eventheader_tracepoint ev;
    uint32_t value = 7;
    struct iovec vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT + 1];

    setvbuf(stdout, NULL, _IOLBF, 0);
    memset(&ev, 0, sizeof(ev));
    ev.state = &tp;
    ev.metadata = (eventheader_extension const*)(void const*)meta_bytes;
    ev.header.flags = eventheader_flag_default;
    ev.header.opcode = event_opcode_info;
    ev.header.level = event_level_information;
    ev.keyword = 1;

    int const open = eventheader_open_provider(&provider);
    printf("open %d\n", open);
    int const connect = eventheader_connect(&ev, &provider);
    printf("connect %d\n", connect);
    vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT].iov_base = &value;
    vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT].iov_len = sizeof(value);
    int const write = eventheader_write(&ev, NULL, NULL, EVENTHEADER_PREFIX_DATAVEC_COUNT + 1, vecs);
    printf("write %d\n", write);
    eventheader_close_provider(&provider);

    int const tlg = TraceLoggingRegister(PartialTlg);
    printf("tlg-register %d\n", tlg);
    TraceLoggingWrite(PartialTlg, "Lost", TraceLoggingInt32(1, "n"));
    TraceLoggingUnregister(PartialTlg);

    printf("program-calls %d\n", g_program_calls);
    CHECK_EQ_INT(ENOSYS, open);
    CHECK_EQ_INT(ENOSYS, connect);
    CHECK_EQ_INT(EBADF, write);
    CHECK_EQ_INT(ENOSYS, tlg);
    CHECK_EQ_INT(0, g_program_calls);
    printf("done\n");
    return 0;
}
