/*
 * Every field encoding and format of docs/format.md §4, with hand-built metadata,
 * written through eventheader_write in capture mode. encodings.rs decodes
 * the capture with tracepoint_decode and checks every field's name,
 * encoding, format, tag and value against the values chosen here (typed
 * again, independently, on the Rust side).
 *
 * Provider "CoreEnc": events Scalars, Strings, Arrays, Structs on
 * CoreEnc_L5K1 and Tags on CoreEnc_L4K10 (with id/version/tag/opcode).
 */
#include "metabuild.h"

static tracepoint_provider_state g_state = TRACEPOINT_PROVIDER_STATE_INIT;
static eventheader_provider const g_prov = { &g_state, "", "CoreEnc" };

static void write_event(mb* m, eventheader const* header, uint64_t keyword, pb const* p, unsigned pieces)
{
    tracepoint_state state = TRACEPOINT_STATE_INIT;
    eventheader_tracepoint ev;
    ev.state = &state;
    ev.metadata = mb_end(m);
    ev.header = *header;
    ev.keyword = keyword;
    CHECK_EQ_INT(0, eventheader_connect(&ev, &g_prov));
    CHECK_EQ_INT(0, write_payload(&ev, NULL, NULL, p, pieces));
    CHECK_EQ_INT(0, eventheader_connect(&ev, NULL));
}

static eventheader const k_l5 = { eventheader_flag_default, 0, 0, 0, event_opcode_info, event_level_verbose };

static void scalars(void)
{
    mb m;
    pb p;
    static uint8_t const v128[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
    static uint8_t const guid[16] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
                                      0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };
    /* 2001:db8::1 */
    static uint8_t const ip6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
    static uint8_t const ip4[4] = { 192, 168, 1, 20 };
    static uint8_t const port[2] = { 0x1f, 0x90 }; /* 8080, network order */

    mb_begin(&m, "Scalars");
    mb_field(&m, "u8", event_field_encoding_value8);
    mb_field_f(&m, "i8", event_field_encoding_value8, event_field_format_signed_int);
    mb_field_f(&m, "x16", event_field_encoding_value16, event_field_format_hex_int);
    mb_field(&m, "u16", event_field_encoding_value16);
    mb_field_f(&m, "i32", event_field_encoding_value32, event_field_format_signed_int);
    mb_field_f(&m, "f32", event_field_encoding_value_float, event_field_format_float);
    mb_field_f(&m, "b32", event_field_encoding_value32, event_field_format_boolean);
    mb_field_f(&m, "errno", event_field_encoding_value32, event_field_format_errno);
    mb_field_f(&m, "pid", event_field_encoding_value32, event_field_format_pid);
    mb_field_f(&m, "t32", event_field_encoding_value32, event_field_format_time);
    mb_field_f(&m, "ip4", event_field_encoding_value32, event_field_format_ip_address);
    mb_field_f(&m, "port", event_field_encoding_value16, event_field_format_port);
    mb_field(&m, "u64", event_field_encoding_value64);
    mb_field_f(&m, "i64", event_field_encoding_value64, event_field_format_signed_int);
    mb_field_f(&m, "f64", event_field_encoding_value_double, event_field_format_float);
    mb_field_f(&m, "x64", event_field_encoding_value64, event_field_format_hex_int);
    mb_field_f(&m, "t64", event_field_encoding_value64, event_field_format_time);
    mb_field_f(&m, "u32", event_field_encoding_value32, event_field_format_unsigned_int);
    mb_field(&m, "v128", event_field_encoding_value128);
    mb_field_f(&m, "guid", event_field_encoding_value128, event_field_format_uuid);
    mb_field_f(&m, "ip6", event_field_encoding_value128, event_field_format_ip_address);
    mb_field_f(&m, "ch8", event_field_encoding_value8, event_field_format_string8);
    mb_field_f(&m, "ch16", event_field_encoding_value16, event_field_format_string_utf);
    mb_field_f(&m, "ch32", event_field_encoding_value32, event_field_format_string_utf);

    pb_init(&p);
    pb_u8(&p, 200);
    pb_u8(&p, (uint8_t)-100);
    pb_u16(&p, 0xBEEF);
    pb_u16(&p, 65000);
    pb_u32(&p, (uint32_t)-2000000000);
    pb_f32(&p, 3.5f);
    pb_u32(&p, 1);
    pb_u32(&p, 2);
    pb_u32(&p, 4242);
    pb_u32(&p, 86400);
    pb_raw(&p, ip4, 4);
    pb_raw(&p, port, 2);
    pb_u64(&p, UINT64_C(18000000000000000001));
    pb_u64(&p, (uint64_t)INT64_C(-9000000000000000001));
    pb_f64(&p, -6.25);
    pb_u64(&p, UINT64_C(0x0123456789ABCDEF));
    pb_u64(&p, 1700000000);
    pb_u32(&p, 4000000000u);
    pb_raw(&p, v128, 16);
    pb_raw(&p, guid, 16);
    pb_raw(&p, ip6, 16);
    pb_u8(&p, 'Z');
    pb_u16(&p, 0x00E9); /* e-acute */
    pb_u32(&p, 0x1F600); /* an emoji, outside the BMP */
    write_event(&m, &k_l5, 1, &p, 3);
}

static void strings(void)
{
    mb m;
    pb p;
    static uint8_t const bin[5] = { 0xde, 0xad, 0xbe, 0xef, 0x00 };

    mb_begin(&m, "Strings");
    mb_field(&m, "z8", event_field_encoding_zstring_char8);
    mb_field(&m, "z16", event_field_encoding_zstring_char16);
    mb_field(&m, "z32", event_field_encoding_zstring_char32);
    mb_field_f(&m, "zjson", event_field_encoding_zstring_char8, event_field_format_string_json);
    mb_field(&m, "s8", event_field_encoding_string_length16_char8);
    mb_field(&m, "s16", event_field_encoding_string_length16_char16);
    mb_field(&m, "s32", event_field_encoding_string_length16_char32);
    mb_field(&m, "bin", event_field_encoding_binary_length16_char8);
    mb_field(&m, "empty", event_field_encoding_zstring_char8);
    mb_field(&m, "s8empty", event_field_encoding_string_length16_char8);
    mb_field_f(&m, "hexstr", event_field_encoding_zstring_char8, event_field_format_hex_bytes);

    pb_init(&p);
    pb_sz(&p, "hello");
    pb_sz16(&p, "wide16");
    pb_sz32(&p, "wide32");
    pb_sz(&p, "{\"a\":1}");
    pb_cs8(&p, "counted", 7);
    pb_cs16(&p, "c16", 3);
    pb_cs32(&p, "c32!", 4);
    pb_u16(&p, 5);
    pb_raw(&p, bin, 5);
    pb_sz(&p, "");
    pb_u16(&p, 0);
    pb_sz(&p, "AB");
    write_event(&m, &k_l5, 1, &p, 4);
}

static void arrays(void)
{
    mb m;
    pb p;
    mb_begin(&m, "Arrays");
    mb_carray(&m, "ca32", event_field_encoding_value32, -1, 3);
    mb_varray(&m, "va16", event_field_encoding_value16, event_field_format_signed_int);
    mb_varray(&m, "vaz", event_field_encoding_zstring_char8, -1);
    mb_carray(&m, "ca8hex", event_field_encoding_value8, event_field_format_hex_int, 2);
    mb_varray(&m, "va0", event_field_encoding_value64, -1);
    mb_carray(&m, "cas16", event_field_encoding_string_length16_char16, -1, 2);

    pb_init(&p);
    pb_u32(&p, 1);
    pb_u32(&p, 2);
    pb_u32(&p, 3);
    pb_u16(&p, 4);
    pb_u16(&p, (uint16_t)-1);
    pb_u16(&p, 2);
    pb_u16(&p, (uint16_t)-3);
    pb_u16(&p, 4);
    pb_u16(&p, 3);
    pb_sz(&p, "a");
    pb_sz(&p, "");
    pb_sz(&p, "bc");
    pb_u8(&p, 0x0a);
    pb_u8(&p, 0xff);
    pb_u16(&p, 0);
    pb_cs16(&p, "xy", 2);
    pb_cs16(&p, "z", 1);
    write_event(&m, &k_l5, 1, &p, 2);
}

static void structs(void)
{
    mb m;
    pb p;
    mb_begin(&m, "Structs");
    mb_struct(&m, "outer", 3);
    mb_field(&m, "a", event_field_encoding_value8);
    mb_struct(&m, "inner", 2);
    mb_field(&m, "x", event_field_encoding_value16);
    mb_field(&m, "s", event_field_encoding_zstring_char8);
    mb_field_f(&m, "b", event_field_encoding_value32, event_field_format_signed_int);
    mb_field(&m, "after", event_field_encoding_value8);
    mb_varray(&m, "sarr", event_field_encoding_struct, 2);
    mb_field_f(&m, "k", event_field_encoding_value8, event_field_format_string8);
    mb_field(&m, "v", event_field_encoding_value16);
    /* Arrays inside a struct. (A constant-length array *of* structs is
       valid metadata too, but tracepoint_decode 0.5.0 cannot decode it.) */
    mb_struct(&m, "holder", 2);
    mb_carray(&m, "cv", event_field_encoding_value16, -1, 2);
    mb_varray(&m, "vs", event_field_encoding_zstring_char8, -1);

    pb_init(&p);
    pb_u8(&p, 7);
    pb_u16(&p, 300);
    pb_sz(&p, "in");
    pb_u32(&p, (uint32_t)-1);
    pb_u8(&p, 9);
    pb_u16(&p, 2);
    pb_u8(&p, 'A');
    pb_u16(&p, 1);
    pb_u8(&p, 'B');
    pb_u16(&p, 2);
    pb_u16(&p, 5);
    pb_u16(&p, 6);
    pb_u16(&p, 2);
    pb_sz(&p, "p");
    pb_sz(&p, "q");
    write_event(&m, &k_l5, 1, &p, 1);
}

static void tags(void)
{
    mb m;
    pb p;
    eventheader const h = { eventheader_flag_default, 3, 77, 0xABCD, event_opcode_activity_start,
                            event_level_information };
    mb_begin(&m, "Tags");
    mb_field_ft(&m, "tagged", event_field_encoding_value32, event_field_format_hex_int, 0x1234);
    mb_field_ft(&m, "tstruct", event_field_encoding_struct, 1, 0xBEEF);
    mb_field(&m, "m", event_field_encoding_value8);
    mb_field_ft(&m, "ztag", event_field_encoding_zstring_char8, event_field_format_string_utf, 1);
    mb_def(&m, "catag", event_field_encoding_value16 | event_field_encoding_carray_flag,
           event_field_format_unsigned_int, 0x7777, 2);

    pb_init(&p);
    pb_u32(&p, 0xCAFE);
    pb_u8(&p, 1);
    pb_sz(&p, "t");
    pb_u16(&p, 10);
    pb_u16(&p, 20);
    write_event(&m, &h, 0x10, &p, 2);
}

int main(void)
{
    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov));
    scalars();
    strings();
    arrays();
    structs();
    tags();
    eventheader_close_provider(&g_prov);
    printf("written 5\n");
    return 0;
}
