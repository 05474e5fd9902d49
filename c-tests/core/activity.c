/*
 * Activity ids and extension chaining, in capture mode, provider "CoreAct"
 * (tracepoint CoreAct_L5K1). Writes, in this order:
 *
 *  1 NoAct     metadata "NoAct", no activity, no payload (0-byte payload)
 *  2 Act16     metadata "Act16" + field v (value8), activity A; header
 *              id 5, version 2, tag 0x0102, opcode activity_start
 *  3 Act32     metadata "Act32", activity A + related R, no payload
 *  4 -         no metadata, activity A, payload 01 02 03
 *  5 -         no metadata, activity A + related R, no payload
 *  6 -         no metadata, no activity, payload 09
 *  7 -         no metadata, no activity, no payload (header only)
 *  8 -         no metadata pointer, header flags announce an extension,
 *              activity A, payload = a metadata extension "InPayload" with
 *              field w (value16), then w = 0x1234
 *  9 Empty     metadata "Empty", payload vectors of 0 bytes (2 of them)
 *
 * activity.rs checks the exact bytes and decodes each event.
 */
#include "metabuild.h"

static tracepoint_provider_state g_state = TRACEPOINT_PROVIDER_STATE_INIT;
static eventheader_provider const g_prov = { &g_state, "", "CoreAct" };

static uint8_t const k_a[16] = { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
                                 0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf };
static uint8_t const k_r[16] = { 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
                                 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf };

static void write_one(eventheader_extension const* metadata, eventheader const* header,
                      void const* act, void const* rel, pb const* p, unsigned pieces)
{
    tracepoint_state state = TRACEPOINT_STATE_INIT;
    eventheader_tracepoint ev;
    ev.state = &state;
    ev.metadata = metadata;
    ev.header = *header;
    ev.keyword = 1;
    CHECK_EQ_INT(0, eventheader_connect(&ev, &g_prov));
    CHECK_EQ_INT(0, write_payload(&ev, act, rel, p, pieces));
    CHECK_EQ_INT(0, eventheader_connect(&ev, NULL));
}

int main(void)
{
    eventheader const plain = { eventheader_flag_default, 0, 0, 0, event_opcode_info, event_level_verbose };
    mb m;
    pb p;

    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov));

    /* 1 */
    mb_begin(&m, "NoAct");
    write_one(mb_end(&m), &plain, NULL, NULL, NULL, 0);

    /* 2 */
    {
        eventheader const h = { eventheader_flag_default, 2, 5, 0x0102, event_opcode_activity_start,
                                event_level_verbose };
        mb_begin(&m, "Act16");
        mb_field(&m, "v", event_field_encoding_value8);
        pb_init(&p);
        pb_u8(&p, 0x2a);
        write_one(mb_end(&m), &h, k_a, NULL, &p, 1);
    }

    /* 3 */
    mb_begin(&m, "Act32");
    write_one(mb_end(&m), &plain, k_a, k_r, NULL, 0);

    /* 4 */
    pb_init(&p);
    pb_u8(&p, 1);
    pb_u8(&p, 2);
    pb_u8(&p, 3);
    write_one(NULL, &plain, k_a, NULL, &p, 2);

    /* 5 */
    write_one(NULL, &plain, k_a, k_r, NULL, 0);

    /* 6 */
    pb_init(&p);
    pb_u8(&p, 9);
    write_one(NULL, &plain, NULL, NULL, &p, 1);

    /* 7 */
    write_one(NULL, &plain, NULL, NULL, NULL, 0);

    /* 8 */
    {
        eventheader const h = { eventheader_flag_default_with_extension, 0, 0, 0, event_opcode_info,
                                event_level_verbose };
        mb_begin(&m, "InPayload");
        mb_field(&m, "w", event_field_encoding_value16);
        mb_end(&m);
        pb_init(&p);
        pb_raw(&p, m.u.bytes, m.len);
        pb_u16(&p, 0x1234);
        write_one(NULL, &h, k_a, NULL, &p, 3);
    }

    /* 9 */
    mb_begin(&m, "Empty");
    pb_init(&p);
    write_one(mb_end(&m), &plain, NULL, NULL, &p, 2);

    eventheader_close_provider(&g_prov);
    printf("written 9\n");
    return 0;
}
