/*
 * eventheader_open_provider_with_events and
 * tracepoint_open_provider_with_tracepoints given arrays in read-only memory:
 * `static T const* const array[]`, which a non-PIE link puts in .rodata and a
 * PIE link in .data.rel.ro (read-only after relocation, RELRO), as the
 * linker sections of headers built that way are. The library only reads the
 * array: a write there is a SIGSEGV. In capture mode.
 *
 * Each array is registered with a provider of its own, then each of the
 * three events (tracepoints) is written once, then the provider is closed:
 *
 *   descending   in address order, highest first, no duplicates
 *   ascending    in address order, lowest first, NULLs first
 *   mixed        scrambled, with duplicates and NULLs
 *   long         80 entries of the mixed kind
 *
 * The EventHeader events are CoreRo<Array>_L4K1 with one byte, the index of
 * the event (0..2); the tracepoints CoreRoTp<Array> (one u8 field, i),
 * with the index too. rodata.rs checks the capture; the program checks each
 * call's result and each state's connection.
 */
#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check.h"

static tracepoint_state states[3] = { TRACEPOINT_STATE_INIT, TRACEPOINT_STATE_INIT, TRACEPOINT_STATE_INIT };

#define EVENT(i) \
    { &states[i], NULL, { eventheader_flag_default, 0, 0, 0, event_opcode_info, event_level_information }, 1 }
static eventheader_tracepoint const events[3] = { EVENT(0), EVENT(1), EVENT(2) };

#define MIXED(a) &a[1], &a[0], NULL, &a[2], &a[1]
#define MIXED4(a) MIXED(a), MIXED(a), MIXED(a), MIXED(a)
#define MIXED16(a) MIXED4(a), MIXED4(a), MIXED4(a), MIXED4(a)

static eventheader_tracepoint const* const ev_descending[] = { &events[2], &events[1], &events[0] };
static eventheader_tracepoint const* const ev_ascending[] = { NULL, &events[0], &events[1], &events[2] };
static eventheader_tracepoint const* const ev_mixed[] = { MIXED(events) };
static eventheader_tracepoint const* const ev_long[] = { MIXED16(events) };

static tracepoint_definition const defs_d[3] = {
    { &states[0], "CoreRoTpDescending u8 i" },
    { &states[1], "CoreRoTpDescending u8 i" },
    { &states[2], "CoreRoTpDescending u8 i" },
};
static tracepoint_definition const defs_a[3] = {
    { &states[0], "CoreRoTpAscending u8 i" },
    { &states[1], "CoreRoTpAscending u8 i" },
    { &states[2], "CoreRoTpAscending u8 i" },
};
static tracepoint_definition const defs_m[3] = {
    { &states[0], "CoreRoTpMixed u8 i" },
    { &states[1], "CoreRoTpMixed u8 i" },
    { &states[2], "CoreRoTpMixed u8 i" },
};
static tracepoint_definition const defs_l[3] = {
    { &states[0], "CoreRoTpLong u8 i" },
    { &states[1], "CoreRoTpLong u8 i" },
    { &states[2], "CoreRoTpLong u8 i" },
};
static tracepoint_definition const* const tp_descending[] = { &defs_d[2], &defs_d[1], &defs_d[0] };
static tracepoint_definition const* const tp_ascending[] = { NULL, &defs_a[0], &defs_a[1], &defs_a[2] };
static tracepoint_definition const* const tp_mixed[] = { MIXED(defs_m) };
static tracepoint_definition const* const tp_long[] = { MIXED16(defs_l) };

#define COUNT(a) (sizeof(a) / sizeof(a[0]))

/* Every state connected to provider p. */
static void check_connected(tracepoint_provider_state const* p)
{
    for (unsigned i = 0; i < 3; i += 1) {
        CHECK(TRACEPOINT_ENABLED(&states[i]));
        CHECK(states[i].provider_state == p);
    }
    CHECK_EQ_INT(3, p->ref_count);
}

static void eventheader_array(char const* name, eventheader_tracepoint const* const* start, size_t n)
{
    tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    eventheader_provider const prov = { &state, "", name };
    /* The prototype's element type is not const; the library only reads. */
    CHECK_EQ_INT(0, eventheader_open_provider_with_events(&prov, (eventheader_tracepoint const**)start,
                                                          (eventheader_tracepoint const**)start + n));
    check_connected(&state);
    for (unsigned i = 0; i < 3; i += 1) {
        uint8_t const value = (uint8_t)i;
        struct iovec vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA + 1];
        vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA].iov_base = (void*)&value;
        vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA].iov_len = 1;
        CHECK_EQ_INT(0, eventheader_write(&events[i], NULL, NULL, EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA + 1,
                                          vecs));
    }
    eventheader_close_provider(&prov);
    printf("eventheader %s ok\n", name);
}

static void tracepoint_array(char const* name, tracepoint_definition const* const* start, size_t n)
{
    tracepoint_provider_state prov = TRACEPOINT_PROVIDER_STATE_INIT;
    CHECK_EQ_INT(0, tracepoint_open_provider_with_tracepoints(&prov, (tracepoint_definition const**)start,
                                                              (tracepoint_definition const**)start + n));
    check_connected(&prov);
    for (unsigned i = 0; i < 3; i += 1) {
        uint8_t const value = (uint8_t)i;
        struct iovec vecs[2];
        vecs[0].iov_base = NULL;
        vecs[0].iov_len = 0;
        vecs[1].iov_base = (void*)&value;
        vecs[1].iov_len = 1;
        CHECK_EQ_INT(0, tracepoint_write(&states[i], 2, vecs));
    }
    tracepoint_close_provider(&prov);
    printf("tracepoint %s ok\n", name);
}


int main(int argc, char** argv)
{
    CHECK_EQ_INT(1, argc);
    (void)argv;
    eventheader_array("CoreRoDescending", ev_descending, COUNT(ev_descending));
    eventheader_array("CoreRoAscending", ev_ascending, COUNT(ev_ascending));
    eventheader_array("CoreRoMixed", ev_mixed, COUNT(ev_mixed));
    eventheader_array("CoreRoLong", ev_long, COUNT(ev_long));
    tracepoint_array("Descending", tp_descending, COUNT(tp_descending));
    tracepoint_array("Ascending", tp_ascending, COUNT(tp_ascending));
    tracepoint_array("Mixed", tp_mixed, COUNT(tp_mixed));
    tracepoint_array("Long", tp_long, COUNT(tp_long));
    printf("done\n");
    return 0;
}
