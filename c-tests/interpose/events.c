/*
 * Every kind of event the library writes, for the interposition test: built
 * alone (the library's own tracepoint layer, in capture mode) and with
 * c-tests/tpp/recorder.c (a tracepoint.h of the program's own, which the
 * library must then use for all of them), against the shared and the static
 * library; main.rs compares the two files record by record.
 *
 *  - TraceLogging: TraceLoggingWrite (strings, integers, a struct, an array)
 *    and TraceLoggingWriteActivity on a provider symbol, TraceLoggingWrite
 *    through a provider handle (eventheader_connect at its first run);
 *  - eventheader_write: an event with hand-built metadata, with and without
 *    an activity id;
 *  - tracepoint-provider.h: TPP_WRITE and a TPP_FUNCTION;
 *  - runtime-defined events (eventheader-dynamic.h): two fields, with and
 *    without an activity id.
 *
 * Then everything is unregistered, and each kind is written again: nothing
 * must arrive (EBADF, or nothing at all from the macros). Prints "events N"
 * (the events that should have arrived) and exits 0 if every call returned
 * what it should.
 */
#include <eventheader/TraceLoggingProvider.h>
#include <eventheader/eventheader-dynamic.h>
#include <tracepoint/tracepoint-provider.h>

#include "../check.h"
#include "../core/metabuild.h"

TRACELOGGING_DEFINE_PROVIDER(
    InterposeTlg,
    "InterposeTlg",
    (0x2f0b3a41, 0x2d7c, 0x4a53, 0x9e, 0x31, 0x60, 0x0d, 0x8c, 0x4b, 0x77, 0x12),
    TraceLoggingOptionGroupName("interpose"));

TPP_DEFINE_PROVIDER(InterposeTpp);

TPP_FUNCTION(InterposeTpp, "interpose_request", interpose_request,
    TPP_UINT16("port", port),
    TPP_STRING("path", path));

static tracepoint_provider_state g_eh_state = TRACEPOINT_PROVIDER_STATE_INIT;
static eventheader_provider const g_eh = { &g_eh_state, "", "InterposeEh" };

static uint8_t const k_activity[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static uint8_t const k_related[16] = { 0xf0, 0xe1, 0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87,
                                       0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0x0f };

#define N EHD_NTS

/* Writes one TraceLogging event through a provider handle. */
static void write_through_handle(TraceLoggingHProvider provider, int32_t value)
{
    TraceLoggingWrite(provider, "ThroughHandle", TraceLoggingInt32(value, "value"));
}

/* The TraceLogging events: 4 while registered. */
static int tracelogging(int round)
{
    int32_t const values[3] = { 3, -5, 8 };
    TraceLoggingWrite(InterposeTlg, "Simple",
        TraceLoggingInt32(round, "round"),
        TraceLoggingString("text", "str"),
        TraceLoggingUInt64(0x0123456789abcdefu, "u64"));
    TraceLoggingWrite(InterposeTlg, "Nested",
        TraceLoggingLevel(2),
        TraceLoggingKeyword(0x10),
        TraceLoggingStruct(2, "pair"),
            TraceLoggingUInt8(7, "first"),
            TraceLoggingBool(1, "second"),
        TraceLoggingInt32Array(values, 3, "values"));
    TraceLoggingWriteActivity(InterposeTlg, "WithActivity", k_activity, k_related,
        TraceLoggingOpcode(1),
        TraceLoggingString("activity", "what"));
    write_through_handle(InterposeTlg, round);
    return 4;
}

/* The eventheader_write events: 2 while registered; the expected result. */
static int hand_made(tracepoint_state* state, int expected)
{
    eventheader_tracepoint ev;
    eventheader const header = { eventheader_flag_default, 1, 42, 0, event_opcode_info,
                                 event_level_information };
    mb m;
    pb p;
    mb_begin(&m, "HandMade");
    mb_field(&m, "byte", event_field_encoding_value8);
    mb_field_f(&m, "text", event_field_encoding_zstring_char8, event_field_format_default);
    ev.state = state;
    ev.metadata = mb_end(&m);
    ev.header = header;
    ev.keyword = 5;
    pb_init(&p);
    pb_u8(&p, 0x5a);
    pb_sz(&p, "hand-made");
    CHECK_EQ_INT(expected, write_payload(&ev, NULL, NULL, &p, 2));
    CHECK_EQ_INT(expected, write_payload(&ev, k_activity, NULL, &p, 2));
    return 2;
}

/* The tracepoint-provider.h events: 2 while registered; the expected result. */
static int tpp(int round, int expected)
{
    int const result = TPP_WRITE(InterposeTpp, "interpose_start",
        TPP_INT32("round", round),
        TPP_STRING("name", "interpose"));
    CHECK_EQ_INT(expected, result);
    CHECK_EQ_INT(expected, interpose_request(8080, "/index.html"));
    return 2;
}

/* The runtime-defined events: 2 while registered; the expected result. */
static int dynamic(ehd_event_set* set, ehd_builder* b, int expected)
{
    uint32_t const count = 77;
    ehd_builder_reset(b, "Dynamic", N, 0);
    ehd_builder_add_value(b, "count", N, event_field_encoding_value32, 0, 0, &count);
    ehd_builder_add_string(b, "label", N, event_field_encoding_string_length16_char8, 0, 0, "dyn", 3);
    CHECK_EQ_INT(expected, ehd_builder_write(b, set, NULL, NULL));
    CHECK_EQ_INT(expected, ehd_builder_write(b, set, k_activity, k_related));
    return 2;
}

int main(void)
{
    tracepoint_state eh_state = TRACEPOINT_STATE_INIT;
    ehd_provider* dyn = ehd_provider_new("InterposeDyn", N, "Ginterpose", N);
    ehd_event_set* set;
    ehd_builder* b = ehd_builder_new(0, 0);
    eventheader const eh_header = { eventheader_flag_default, 0, 0, 0, event_opcode_info,
                                    event_level_information };
    eventheader_tracepoint eh_event;
    int events = 0;

    CHECK(dyn != NULL && b != NULL);
    CHECK_EQ_INT(0, ehd_provider_errno(dyn));
    /* Retained: it outlives the provider's unregistration, disabled. */
    set = ehd_event_set_retain(ehd_provider_register_set(dyn, event_level_verbose, 0x3));
    CHECK(set != NULL);

    CHECK_EQ_INT(0, TraceLoggingRegister(InterposeTlg));
    CHECK_EQ_INT(0, TPP_REGISTER_PROVIDER(InterposeTpp));
    CHECK_EQ_INT(0, eventheader_open_provider(&g_eh));
    eh_event.state = &eh_state;
    eh_event.metadata = NULL;
    eh_event.header = eh_header;
    eh_event.keyword = 5;
    CHECK_EQ_INT(0, eventheader_connect(&eh_event, &g_eh));

    events += tracelogging(1);
    events += hand_made(&eh_state, 0);
    events += tpp(1, 0);
    events += dynamic(set, b, 0);

    /* Unregistered: nothing more arrives. */
    CHECK_EQ_INT(0, eventheader_connect(&eh_event, NULL));
    eventheader_close_provider(&g_eh);
    TPP_UNREGISTER_PROVIDER(InterposeTpp);
    TraceLoggingUnregister(InterposeTlg);
    ehd_provider_unregister(dyn);
    tracelogging(2);
    hand_made(&eh_state, EBADF);
    tpp(2, EBADF);
    dynamic(set, b, EBADF);

    ehd_event_set_release(set);
    ehd_builder_delete(b);
    ehd_provider_delete(dyn);
    printf("events %d\n", events);
    return 0;
}
