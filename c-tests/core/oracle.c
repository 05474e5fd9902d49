/*
 * Byte-level oracle: re-creates events of the reference implementation's
 * capture (EventHeaderInterceptorLE64.dat, produced by the reference's
 * TraceLogging tests) through eventheader_write, with every metadata block
 * written here by hand from the format description (docs/format.md §4, §5) and
 * every payload from the values the reference test logged. Run in capture
 * mode; oracle.rs matches each of our records to the reference record
 * with the same tracepoint name, event name and occurrence, and requires the
 * bytes to be identical.
 *
 * The reference's TestProviderC and TestProviderCpp log the same events, so
 * each event function runs for both providers.
 *
 * Prints "written N" at the end.
 */
#include "metabuild.h"

#include <float.h>
#include <limits.h>

static tracepoint_provider_state g_state_c = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_provider_state g_state_cpp = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_provider_state g_state_cg = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_provider_state g_state_cppg = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_provider_state g_state_long = TRACEPOINT_PROVIDER_STATE_INIT;

static eventheader_provider const g_prov_c = { &g_state_c, "", "TestProviderC" };
static eventheader_provider const g_prov_cpp = { &g_state_cpp, NULL, "TestProviderCpp" };
static eventheader_provider const g_prov_cg = { &g_state_cg, "Gmsft", "TestProviderC" };
static eventheader_provider const g_prov_cppg = { &g_state_cppg, "Gmsft", "TestProviderCpp" };
static char g_long_name[256];
static eventheader_provider g_prov_long = { &g_state_long, "Gasdf", g_long_name };

static unsigned g_written;

static uint8_t const k_guid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8 };

typedef struct header_args {
    uint8_t version;
    uint16_t id;
    uint16_t tag;
    uint8_t opcode;
    uint8_t level;
    uint64_t keyword;
} header_args;

/* Connects a fresh event (own tracepoint_state) to the provider, writes it
   once, and disconnects it again. Alternates the header's initial flags
   (the library must add the extension bit either way) and splits the
   payload over 1..4 vectors. */
static void emit_with(eventheader_provider const* prov, mb* m, header_args const* h,
                      void const* activity_id, void const* related_id, pb const* payload)
{
    tracepoint_state state = TRACEPOINT_STATE_INIT;
    eventheader_tracepoint ev;
    ev.state = &state;
    ev.metadata = mb_end(m);
    ev.header.flags = (g_written & 1) ? eventheader_flag_default_with_extension : eventheader_flag_default;
    ev.header.version = h->version;
    ev.header.id = h->id;
    ev.header.tag = h->tag;
    ev.header.opcode = h->opcode;
    ev.header.level = h->level;
    ev.keyword = h->keyword;

    CHECK_EQ_INT(0, eventheader_connect(&ev, prov));
    CHECK(TRACEPOINT_ENABLED(&state));
    CHECK_EQ_INT(0, write_payload(&ev, activity_id, related_id, payload, 1 + g_written % 4));
    CHECK_EQ_INT(0, eventheader_connect(&ev, NULL));
    CHECK(!TRACEPOINT_ENABLED(&state));
    g_written += 1;
}

static void emit(eventheader_provider const* prov, mb* m, pb const* payload)
{
    header_args const h = { 0, 0, 0, event_opcode_info, event_level_verbose, 0 };
    emit_with(prov, m, &h, NULL, NULL, payload);
}

/* ---- events without fields, header variations, activity ids ---------- */

static void ev_no_fields(eventheader_provider const* prov, char const* name)
{
    mb m;
    mb_begin(&m, name);
    emit(prov, &m, NULL);
}

static void ev_cscalars2(eventheader_provider const* prov)
{
    mb m;
    header_args const h = { 0, 0, 0, event_opcode_activity_stop, event_level_critical_error,
                            UINT64_C(0xf123456789abcdef) };
    mb_begin(&m, "CScalars2");
    emit_with(prov, &m, &h, NULL, NULL, NULL);
}

static void ev_cscalars3(eventheader_provider const* prov)
{
    mb m;
    pb p;
    header_args const h = { 11, 1000, 0x1234, event_opcode_collection_start,
                            event_level_information, 0x85 };
    mb_begin(&m, "CScalars3");
    /* A struct whose member count (20) exceeds the fields that follow. */
    mb_field_ft(&m, "Struct20", event_field_encoding_struct, 20, 0xBEEF);
    mb_field_ft(&m, "hi", event_field_encoding_zstring_char8, event_field_format_string8, 0x12);
    mb_def(&m, "ch10", event_field_encoding_value8 | event_field_encoding_varray_flag,
           event_field_format_string8, 0x10, 0);
    pb_init(&p);
    pb_sz(&p, "hi");
    pb_cs8(&p, "How", 3);
    emit_with(prov, &m, &h, NULL, NULL, &p);
}

static void ev_transfer(eventheader_provider const* prov, char const* name, int ids)
{
    mb m;
    header_args const h = { 0, 0, 0, event_opcode_info, event_level_verbose, 0 };
    mb_begin(&m, name);
    emit_with(prov, &m, &h, ids >= 1 ? k_guid : NULL, ids >= 2 ? k_guid : NULL, NULL);
}

static void ev_enabled(eventheader_provider const* prov, char const* name)
{
    mb m;
    pb p;
    mb_begin(&m, name);
    mb_field_f(&m, "enabled", event_field_encoding_value8, event_field_format_boolean);
    pb_init(&p);
    pb_u8(&p, 1);
    emit(prov, &m, &p);
}

/* ---- scalar integers: two fields each -------------------------------- */

typedef struct int_event {
    char const* name;
    char const* field1;
    char const* field2;
    int encoding;
    int format; /* -1: none */
    uint64_t value1;
    uint64_t value2;
    size_t size;
} int_event;

static int_event const k_ints[] = {
    { "i8", "i8", "(-128)", event_field_encoding_value8, event_field_format_signed_int, 100, (uint8_t)INT8_MIN, 1 },
    { "u8", "u8", "(255)", event_field_encoding_value8, -1, 200, UINT8_MAX, 1 },
    { "i16", "i16", "(-32767-1)", event_field_encoding_value16, event_field_format_signed_int, 30000, (uint16_t)INT16_MIN, 2 },
    { "u16", "u16", "(65535)", event_field_encoding_value16, -1, 60000, UINT16_MAX, 2 },
    { "i32", "i32", "(-2147483647-1)", event_field_encoding_value32, event_field_format_signed_int, 2000000000, (uint32_t)INT32_MIN, 4 },
    { "u32", "u32", "(4294967295U)", event_field_encoding_value32, -1, 4000000000u, UINT32_MAX, 4 },
    { "i64", "i64", "(-9223372036854775807L-1)", event_field_encoding_value64, event_field_format_signed_int, UINT64_C(9000000000000000000), (uint64_t)INT64_MIN, 8 },
    { "u64", "u64", "(18446744073709551615UL)", event_field_encoding_value64, -1, UINT64_C(18000000000000000000), UINT64_MAX, 8 },
    { "iptr", "iptr", "(-9223372036854775807L-1)", event_field_encoding_value_ptr, event_field_format_signed_int, 1234, (uint64_t)INTPTR_MIN, sizeof(void*) },
    { "uptr", "uptr", "(18446744073709551615UL)", event_field_encoding_value_ptr, -1, 4321, UINTPTR_MAX, sizeof(void*) },
    { "iL", "iL", "(-0x7fffffffffffffffL - 1L)", event_field_encoding_value_long, event_field_format_signed_int, 2000000000, (uint64_t)LONG_MIN, sizeof(long) },
    { "uL", "uL", "(0x7fffffffffffffffL * 2UL + 1UL)", event_field_encoding_value_long, -1, 4000000000u, ULONG_MAX, sizeof(long) },
};

static void ev_int(eventheader_provider const* prov, int_event const* e, int hex)
{
    mb m;
    pb p;
    char name[32];
    int const format = hex ? event_field_format_hex_int : e->format;
    snprintf(name, sizeof(name), "%s%s", hex ? "h" : "", e->name);
    mb_begin(&m, name);
    mb_def(&m, e->field1, e->encoding, format, -1, 0);
    mb_def(&m, e->field2, e->encoding, format, -1, 0);
    pb_init(&p);
    pb_uint(&p, e->value1, e->size);
    pb_uint(&p, e->value2, e->size);
    emit(prov, &m, &p);
}

/* ---- other scalars ------------------------------------------------------ */

/* One event with `n` fields of the same encoding and format. */
static void ev_same(eventheader_provider const* prov, char const* name, char const* const* fields,
                    uint64_t const* values, size_t n, int encoding, int format, size_t size)
{
    mb m;
    pb p;
    mb_begin(&m, name);
    for (size_t i = 0; i < n; i += 1) {
        mb_def(&m, fields[i], encoding, format, -1, 0);
    }
    pb_init(&p);
    for (size_t i = 0; i < n; i += 1) {
        pb_uint(&p, values[i], size);
    }
    emit(prov, &m, &p);
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void ev_scalars(eventheader_provider const* prov)
{
    {
        /* float: 3.14f, 1/3, NaN (as x86 produces it, sign bit set), -Inf */
        char const* const f[] = { "f32", "1/3", "NaN", "-Inf" };
        float const third = 1.0f / 3.0f;
        float const pi = 3.14f;
        uint32_t a, b;
        uint64_t v[4];
        memcpy(&a, &pi, 4);
        memcpy(&b, &third, 4);
        v[0] = a;
        v[1] = b;
        v[2] = 0xFFC00000u;
        v[3] = 0xFF800000u;
        ev_same(prov, "f32", f, v, 4, event_field_encoding_value_float, event_field_format_float, 4);
    }
    {
        char const* const f[] = { "f64", "1/3", "NaN", "-Inf" };
        double const third = 1.0 / 3.0;
        double const tau = 6.28;
        uint64_t v[4];
        memcpy(&v[0], &tau, 8);
        memcpy(&v[1], &third, 8);
        v[2] = UINT64_C(0xFFF8000000000000);
        v[3] = UINT64_C(0xFFF0000000000000);
        ev_same(prov, "f64", f, v, 4, event_field_encoding_value_double, event_field_format_float, 8);
    }
    {
        char const* const f[] = { "b0", "b1", "(255)" };
        uint64_t const v[] = { 0, 1, 255 };
        ev_same(prov, "b8", f, v, 3, event_field_encoding_value8, event_field_format_boolean, 1);
    }
    {
        char const* const f[] = { "b0", "b1", "(-2147483647-1)" };
        uint64_t const v[] = { 0, 1, (uint32_t)INT32_MIN };
        ev_same(prov, "b32", f, v, 3, event_field_encoding_value32, event_field_format_boolean, 4);
    }
    {
        char const* const f[] = { "ch", "FE" };
        uint64_t const v[] = { 'A', 0xFE };
        ev_same(prov, "ch", f, v, 2, event_field_encoding_value8, event_field_format_string8, 1);
    }
    {
        char const* const f[] = { "u16ch", "FFFE" };
        uint64_t const v[] = { 'A', 0xFFFE };
        ev_same(prov, "u16ch", f, v, 2, event_field_encoding_value16, event_field_format_string_utf, 2);
    }
    {
        char const* const f[] = { "u32ch", "FFFE", "10FFFF", "FFFEFDFC" };
        uint64_t const v[] = { 'A', 0xFFFE, 0x10FFFF, 0xFFFEFDFC };
        ev_same(prov, "u32ch", f, v, 4, event_field_encoding_value32, event_field_format_string_utf, 4);
    }
    {
        char const* const f[] = { "wch", "FFFE", "10FFFF", "0x7fffffff" };
        uint64_t const v[] = { 'B', 0xFFFE, 0x10FFFF, 0x7fffffff };
        ev_same(prov, "wch", f, v, 4, event_field_encoding_value_wchar, event_field_format_string_utf,
                sizeof(wchar_t));
    }
    {
        char const* const f[] = { "pSamplePtr", "UINTPTR_MAX" };
        uint64_t const v[] = { (uintptr_t)-12345, UINTPTR_MAX };
        ev_same(prov, "ptr", f, v, 2, event_field_encoding_value_ptr, event_field_format_hex_int,
                sizeof(void*));
    }
    {
        char const* const f[] = { "i32", "(2147483647)" };
        uint64_t const v[] = { 2000000000, INT32_MAX };
        ev_same(prov, "pid", f, v, 2, event_field_encoding_value32, event_field_format_pid, 4);
    }
    {
        /* Ports are in network byte order: 80 -> bytes 00 50. */
        char const* const f[] = { "port80", "(65535)" };
        uint64_t const v[] = { 0x5000, 0xFFFF };
        ev_same(prov, "port", f, v, 2, event_field_encoding_value16, event_field_format_port, 2);
    }
    {
        char const* const f[] = { "(-2147483647-1)", "1", "131" };
        uint64_t const v[] = { (uint32_t)INT32_MIN, 1, 131 };
        ev_same(prov, "errno", f, v, 3, event_field_encoding_value32, event_field_format_errno, 4);
    }
    {
        char const* const f[] = { "i32", "(-2147483647-1)", "(2147483647)", "0" };
        uint64_t const v[] = { 2000000000, (uint32_t)INT32_MIN, INT32_MAX, 0 };
        ev_same(prov, "t32", f, v, 4, event_field_encoding_value32, event_field_format_time, 4);
    }
    {
        char const* const f[] = { "i64", "(-9223372036854775807L-1)", "(9223372036854775807L)", "0",
                                  "-11644473600", "-11644473601", "910692730085", "910692730086" };
        uint64_t const v[] = { UINT64_C(9000000000000000000), (uint64_t)INT64_MIN, INT64_MAX, 0,
                               (uint64_t)INT64_C(-11644473600), (uint64_t)INT64_C(-11644473601),
                               UINT64_C(910692730085), UINT64_C(910692730086) };
        ev_same(prov, "t64", f, v, COUNT(f), event_field_encoding_value64, event_field_format_time, 8);
    }
    {
        mb m;
        pb p;
        mb_begin(&m, "guid");
        mb_field_f(&m, "guid", event_field_encoding_value128, event_field_format_uuid);
        pb_init(&p);
        pb_raw(&p, k_guid, 16);
        emit(prov, &m, &p);
    }
    {
        /* IPv4 in network byte order: 127.0.0.1 -> bytes 7f 00 00 01. */
        char const* const f[] = { "ipv4", "(4294967295U)" };
        uint64_t const v[] = { 0x0100007F, UINT32_MAX };
        ev_same(prov, "ipV4", f, v, 2, event_field_encoding_value32, event_field_format_ipv4, 4);
    }
    {
        mb m;
        pb p;
        uint8_t addr[16];
        mb_begin(&m, "ipV6");
        mb_field_f(&m, "ipv6", event_field_encoding_value128, event_field_format_ipv6);
        mb_field_f(&m, "fefe..fe00", event_field_encoding_value128, event_field_format_ipv6);
        pb_init(&p);
        for (int i = 0; i < 16; i += 1) {
            addr[i] = (uint8_t)(i + 1);
        }
        pb_raw(&p, addr, 16);
        memset(addr, 0xfe, 15);
        addr[15] = 0;
        pb_raw(&p, addr, 16);
        emit(prov, &m, &p);
    }
}

/* ---- strings: a NULL (empty) string, then a real one ------------------ */

static void ev_string_pair(eventheader_provider const* prov, char const* name, char const* field,
                           int encoding, int format, char const* text, size_t unit)
{
    mb m;
    pb p;
    int const counted = (encoding == event_field_encoding_string_length16_char8 ||
                         encoding == event_field_encoding_string_length16_char16 ||
                         encoding == event_field_encoding_string_length16_char32);
    mb_begin(&m, name);
    mb_def(&m, "NULL", encoding, format, -1, 0);
    mb_def(&m, field, encoding, format, -1, 0);
    pb_init(&p);
    for (int pass = 0; pass < 2; pass += 1) {
        char const* const s = pass == 0 ? "" : text;
        size_t const n = strlen(s);
        if (counted) {
            pb_u16(&p, (uint16_t)n);
        }
        for (size_t i = 0; i < n; i += 1) {
            pb_uint(&p, (unsigned char)s[i], unit);
        }
        if (!counted) {
            pb_uint(&p, 0, unit);
        }
    }
    emit(prov, &m, &p);
}

static void ev_strings(eventheader_provider const* prov)
{
    int const F = event_field_format_string8;
    size_t const W = sizeof(wchar_t);
    ev_string_pair(prov, "sz", "ch10", event_field_encoding_zstring_char8, F, "HowAreU8?", 1);
    ev_string_pair(prov, "sz8", "ch10", event_field_encoding_zstring_char8, -1, "HowAreU8?", 1);
    ev_string_pair(prov, "wsz", "wch10", event_field_encoding_zstring_wchar, -1, "Goodbye!!", W);
    ev_string_pair(prov, "sz16", "u16ch10", event_field_encoding_zstring_char16, -1, "HowAreU16", 2);
    ev_string_pair(prov, "sz32", "u32ch10", event_field_encoding_zstring_char32, -1, "HowAreU32", 4);
    ev_string_pair(prov, "csz", "ch10", event_field_encoding_string_length16_char8, F, "HowAr", 1);
    ev_string_pair(prov, "csz8", "ch10", event_field_encoding_string_length16_char8, -1, "HowAr", 1);
    ev_string_pair(prov, "cwsz", "wch10", event_field_encoding_string_length16_wchar, -1, "Goodb", W);
    ev_string_pair(prov, "csz16", "u16ch10", event_field_encoding_string_length16_char16, -1, "HowAr", 2);
    ev_string_pair(prov, "csz32", "u32ch10", event_field_encoding_string_length16_char32, -1, "HowAr", 4);
    /* Binary data logged as a counted 8-bit string with the hex_bytes format. */
    ev_string_pair(prov, "bin", "ch10", event_field_encoding_string_length16_char8,
                   event_field_format_hex_bytes, "HowAr", 1);
}

/* ---- arrays: a 1-element carray "a1" and a 1-element varray "s" -------- */

static void ev_array1(eventheader_provider const* prov, char const* name, int encoding, int format,
                      void const* element, size_t size)
{
    mb m;
    pb p;
    mb_begin(&m, name);
    mb_carray(&m, "a1", encoding, format, 1);
    mb_varray(&m, "s", encoding, format);
    pb_init(&p);
    pb_raw(&p, element, size);
    pb_u16(&p, 1);
    pb_raw(&p, element, size);
    emit(prov, &m, &p);
}

static void ev_arrays(eventheader_provider const* prov)
{
    static struct {
        char const* name;
        int encoding;
        int format;
        uint64_t value;
        size_t size;
    } const ints[] = {
        { "i8", event_field_encoding_value8, event_field_format_signed_int, 100, 1 },
        { "u8", event_field_encoding_value8, -1, 200, 1 },
        { "i16", event_field_encoding_value16, event_field_format_signed_int, 30000, 2 },
        { "u16", event_field_encoding_value16, -1, 60000, 2 },
        { "i32", event_field_encoding_value32, event_field_format_signed_int, 2000000000, 4 },
        { "u32", event_field_encoding_value32, -1, 4000000000u, 4 },
        { "i64", event_field_encoding_value64, event_field_format_signed_int, UINT64_C(9000000000000000000), 8 },
        { "u64", event_field_encoding_value64, -1, UINT64_C(18000000000000000000), 8 },
        { "iptr", event_field_encoding_value_ptr, event_field_format_signed_int, 1234, sizeof(void*) },
        { "uptr", event_field_encoding_value_ptr, -1, 4321, sizeof(void*) },
        { "iL", event_field_encoding_value_long, event_field_format_signed_int, 2000000000, sizeof(long) },
        { "uL", event_field_encoding_value_long, -1, 4000000000u, sizeof(long) },
    };
    for (int hex = 0; hex < 2; hex += 1) {
        for (size_t i = 0; i < COUNT(ints); i += 1) {
            char name[32];
            pb v;
            pb_init(&v);
            pb_uint(&v, ints[i].value, ints[i].size);
            snprintf(name, sizeof(name), "%sa%s", hex ? "h" : "", ints[i].name);
            ev_array1(prov, name, ints[i].encoding, hex ? event_field_format_hex_int : ints[i].format,
                      v.bytes, v.len);
        }
    }
    {
        float const f = 3.14f;
        double const d = 6.28;
        uint8_t const b8 = 1;
        uint32_t const b32 = 1;
        uint64_t const ptr = (uintptr_t)-12345;
        uint32_t const n32 = 2000000000;
        uint16_t const port = 60000;
        uint64_t const n64 = UINT64_C(9000000000000000000);
        ev_array1(prov, "af32", event_field_encoding_value_float, event_field_format_float, &f, 4);
        ev_array1(prov, "af64", event_field_encoding_value_double, event_field_format_float, &d, 8);
        ev_array1(prov, "ab8", event_field_encoding_value8, event_field_format_boolean, &b8, 1);
        ev_array1(prov, "ab32", event_field_encoding_value32, event_field_format_boolean, &b32, 4);
        ev_array1(prov, "aptr", event_field_encoding_value_ptr, event_field_format_hex_int, &ptr, 8);
        ev_array1(prov, "apid", event_field_encoding_value32, event_field_format_pid, &n32, 4);
        ev_array1(prov, "aport", event_field_encoding_value16, event_field_format_port, &port, 2);
        ev_array1(prov, "aerrno", event_field_encoding_value32, event_field_format_errno, &n32, 4);
        ev_array1(prov, "aft", event_field_encoding_value32, event_field_format_time, &n32, 4);
        ev_array1(prov, "auft", event_field_encoding_value64, event_field_format_time, &n64, 8);
    }
    {
        /* Character arrays: carray "a4" of 4 units, varray "s5" of 5 units. */
        static struct {
            char const* name;
            int encoding;
            int format;
            size_t unit;
            char const* text;
        } const chars[] = {
            { "ach", event_field_encoding_value8, event_field_format_string8, 1, "HowAr" },
            { "ach16", event_field_encoding_value16, event_field_format_string_utf, 2, "HowAr" },
            { "ach32", event_field_encoding_value32, event_field_format_string_utf, 4, "HowAr" },
            { "awch", event_field_encoding_value_wchar, event_field_format_string_utf, sizeof(wchar_t), "Goodb" },
        };
        for (size_t i = 0; i < COUNT(chars); i += 1) {
            mb m;
            pb p;
            mb_begin(&m, chars[i].name);
            mb_carray(&m, "a4", chars[i].encoding, chars[i].format, 4);
            mb_varray(&m, "s5", chars[i].encoding, chars[i].format);
            pb_init(&p);
            for (int k = 0; k < 4; k += 1) {
                pb_uint(&p, (unsigned char)chars[i].text[k], chars[i].unit);
            }
            pb_u16(&p, 5);
            for (int k = 0; k < 5; k += 1) {
                pb_uint(&p, (unsigned char)chars[i].text[k], chars[i].unit);
            }
            emit(prov, &m, &p);
        }
    }
    {
        /* value128 varrays: "s0" empty, "s1" one element. */
        static struct {
            char const* name;
            int format;
        } const v128[] = {
            { "ag", event_field_format_uuid },
            { "ahexbytes", event_field_format_hex_bytes },
        };
        for (size_t i = 0; i < COUNT(v128); i += 1) {
            mb m;
            pb p;
            mb_begin(&m, v128[i].name);
            mb_varray(&m, "s0", event_field_encoding_value128, v128[i].format);
            mb_varray(&m, "s1", event_field_encoding_value128, v128[i].format);
            pb_init(&p);
            pb_u16(&p, 0);
            pb_u16(&p, 1);
            pb_raw(&p, k_guid, 16);
            emit(prov, &m, &p);
        }
    }
}

/* ---- every encoding with a given format -------------------------------- */

/* "hjkl" as NChar8/16/32 (nul-terminated) and LChar8/16/32 (counted), with
   bom: 0 none, 1 native-order BOM, 2 byte-swapped text with BOM. */
static void add_hjkl(mb* m, pb* p, int format, int bom)
{
    static char const* const names[] = { "NChar8", "NChar16", "NChar32", "LChar8", "LChar16", "LChar32" };
    static int const encodings[] = {
        event_field_encoding_zstring_char8, event_field_encoding_zstring_char16,
        event_field_encoding_zstring_char32, event_field_encoding_string_length16_char8,
        event_field_encoding_string_length16_char16, event_field_encoding_string_length16_char32,
    };
    for (int i = 0; i < 6; i += 1) {
        mb_def(m, names[i], encodings[i], format, -1, 0);
    }
    for (int counted = 0; counted < 2; counted += 1) {
        for (size_t unit = 1; unit <= 4; unit *= 2) {
            uint32_t units[8];
            size_t n = 0;
            if (bom && unit == 1) {
                units[n++] = 0xEF;
                units[n++] = 0xBB;
                units[n++] = 0xBF;
            } else if (bom) {
                units[n++] = 0xFEFF;
            }
            for (char const* s = "hjkl"; *s; s += 1) {
                units[n++] = (unsigned char)*s;
            }
            if (bom == 2 && unit != 1) {
                for (size_t k = 0; k < n; k += 1) {
                    units[k] = unit == 2 ? (uint32_t)(((units[k] & 0xff) << 8) | (units[k] >> 8))
                                         : __builtin_bswap32(units[k]);
                }
            }
            if (counted) {
                pb_u16(p, (uint16_t)n);
                pb_units(p, units, n, unit);
            } else {
                pb_units(p, units, n, unit);
                pb_uint(p, 0, unit);
            }
        }
    }
}

static void ev_formats(eventheader_provider const* prov)
{
    {
        mb m;
        pb p;
        mb_begin(&m, "Default");
        mb_field(&m, "V8", event_field_encoding_value8);
        mb_field(&m, "V16", event_field_encoding_value16);
        mb_field(&m, "V32", event_field_encoding_value32);
        mb_field(&m, "V64", event_field_encoding_value64);
        mb_field(&m, "V128", event_field_encoding_value128);
        pb_init(&p);
        pb_u8(&p, 200);
        pb_u16(&p, 60000);
        pb_u32(&p, 4000000000u);
        pb_u64(&p, UINT64_C(18000000000000000000));
        pb_raw(&p, k_guid, 16);
        add_hjkl(&m, &p, -1, 0);
        emit(prov, &m, &p);
    }
    {
        mb m;
        pb p;
        int const H = event_field_format_hex_bytes;
        mb_begin(&m, "HexBytes");
        mb_field_f(&m, "V8", event_field_encoding_value8, H);
        mb_field_f(&m, "V16", event_field_encoding_value16, H);
        mb_field_f(&m, "V32", event_field_encoding_value32, H);
        mb_field_f(&m, "V64", event_field_encoding_value64, H);
        mb_field_f(&m, "V128", event_field_encoding_value128, H);
        pb_init(&p);
        pb_raw(&p, k_guid, 1);
        pb_raw(&p, k_guid, 2);
        pb_raw(&p, k_guid, 4);
        pb_raw(&p, k_guid, 8);
        pb_raw(&p, k_guid, 16);
        add_hjkl(&m, &p, H, 0);
        emit(prov, &m, &p);
    }
    {
        char const* const f[] = { "false16", "true16", "u16", "i16" };
        uint64_t const v[] = { 0, 1, 60000, 30000 };
        ev_same(prov, "Bool16", f, v, 4, event_field_encoding_value16, event_field_format_boolean, 2);
    }
    {
        static struct {
            char const* name;
            int format;
            int bom;
        } const texts[] = {
            { "StringUtf", event_field_format_string_utf, 0 },
            { "StringUtfBom-NoBom", event_field_format_string_utf_bom, 0 },
            { "StringXml-NoBom", event_field_format_string_xml, 0 },
            { "StringJson-NoBom", event_field_format_string_json, 0 },
            { "StringUtfBom-Bom", event_field_format_string_utf_bom, 1 },
            { "StringXml-Bom", event_field_format_string_xml, 1 },
            { "StringJson-Bom", event_field_format_string_json, 1 },
            { "StringUtfBom-XBom", event_field_format_string_utf_bom, 2 },
            { "StringXml-XBom", event_field_format_string_xml, 2 },
            { "StringJson-XBom", event_field_format_string_json, 2 },
        };
        for (size_t i = 0; i < COUNT(texts); i += 1) {
            mb m;
            pb p;
            mb_begin(&m, texts[i].name);
            pb_init(&p);
            add_hjkl(&m, &p, texts[i].format, texts[i].bom);
            emit(prov, &m, &p);
        }
    }
}

/* ---- structs and arrays of structs -------------------------------------- */

static void packed_metadata(mb* m, char const* name)
{
    mb_begin(m, name);
    mb_field_f(m, "five", event_field_encoding_value32, event_field_format_signed_int);
    mb_struct(m, "Struct1", 1);
    mb_field(m, "NChar8", event_field_encoding_zstring_char8);
    mb_varray(m, "StructArray", event_field_encoding_struct, 1);
    mb_struct(m, "Struct2", 2);
    mb_field_f(m, "K", event_field_encoding_value8, event_field_format_string8);
    mb_field_f(m, "NChar16", event_field_encoding_zstring_char16, event_field_format_hex_bytes);
    mb_field_f(m, "five", event_field_encoding_value32, event_field_format_signed_int);
}

static void ev_structs(eventheader_provider const* prov)
{
    {
        mb m;
        pb p;
        /* Struct2 elements: K, then NChar16 without BOM, with a native BOM,
           and byte-swapped with BOM. */
        static uint32_t const plain[] = { 'h', 'j', 'k', 'l', 0 };
        static uint32_t const bom[] = { 0xFEFF, 'h', 'j', 'k', 'l', 0 };
        static uint32_t const swapped[] = { 0xFFFE, 0x6800, 0x6A00, 0x6B00, 0x6C00, 0 };
        packed_metadata(&m, "Packed");
        pb_init(&p);
        pb_u32(&p, 5);
        pb_sz(&p, "hjkl");
        pb_u16(&p, 3);
        pb_u8(&p, 'A');
        pb_units(&p, plain, COUNT(plain), 2);
        pb_u8(&p, 'B');
        pb_units(&p, bom, COUNT(bom), 2);
        pb_u8(&p, 'C');
        pb_units(&p, swapped, COUNT(swapped), 2);
        pb_u32(&p, 5);
        emit(prov, &m, &p);
    }
    {
        mb m;
        pb p;
        packed_metadata(&m, "Packed0");
        pb_init(&p);
        pb_u32(&p, 5);
        pb_sz(&p, "hjkl");
        pb_u16(&p, 0);
        pb_u32(&p, 5);
        emit(prov, &m, &p);
    }
    {
        mb m;
        pb p;
        mb_begin(&m, "PackedComplexArray");
        mb_field_f(&m, "five", event_field_encoding_value32, event_field_format_signed_int);
        mb_varray(&m, "MyStrings3", event_field_encoding_zstring_char8, -1);
        mb_field_f(&m, "five", event_field_encoding_value32, event_field_format_signed_int);
        pb_init(&p);
        pb_u32(&p, 5);
        pb_u16(&p, 3);
        pb_sz(&p, "ABC");
        pb_sz(&p, "");
        pb_sz(&p, "XYZ");
        pb_u32(&p, 5);
        emit(prov, &m, &p);
    }
}

/* ---- the events both reference providers log ---------------------------- */

static void common_events(eventheader_provider const* prov)
{
    ev_no_fields(prov, "CScalars1");
    ev_cscalars2(prov);
    ev_cscalars3(prov);
    ev_transfer(prov, "Transfer00", 0);
    ev_transfer(prov, "Transfer10", 1);
    ev_transfer(prov, "Transfer11", 2);
    for (int hex = 0; hex < 2; hex += 1) {
        for (size_t i = 0; i < COUNT(k_ints); i += 1) {
            ev_int(prov, &k_ints[i], hex);
        }
    }
    ev_scalars(prov);
    ev_strings(prov);
    ev_arrays(prov);
    ev_formats(prov);
    ev_structs(prov);
}

/* Events only the C++ provider logs. */
static void cpp_events(eventheader_provider const* prov)
{
    {
        mb m;
        pb p;
        mb_begin(&m, "Value:bool");
        mb_field_ft(&m, "false", event_field_encoding_value8, event_field_format_boolean, 0x1234);
        mb_field_f(&m, "true", event_field_encoding_value8, event_field_format_boolean);
        pb_init(&p);
        pb_u8(&p, 0);
        pb_u8(&p, 1);
        emit(prov, &m, &p);
    }
    {
        char const* const f[] = { "0", "A" };
        uint64_t const v[] = { 0, 'A' };
        ev_same(prov, "Value:char", f, v, 2, event_field_encoding_value8, event_field_format_string8, 1);
        ev_same(prov, "Value:char16", f, v, 2, event_field_encoding_value16, event_field_format_string_utf, 2);
        ev_same(prov, "Value:schar", f, v, 2, event_field_encoding_value8, event_field_format_signed_int, 1);
        ev_same(prov, "Value:slong", f, v, 2, event_field_encoding_value_long, event_field_format_signed_int,
                sizeof(long));
    }
    {
        mb m;
        pb p;
        mb_begin(&m, "Value:char*");
        mb_field_f(&m, "0", event_field_encoding_zstring_char8, event_field_format_string8);
        mb_field_f(&m, "hello", event_field_encoding_zstring_char8, event_field_format_string8);
        pb_init(&p);
        pb_sz(&p, "");
        pb_sz(&p, "hello");
        emit(prov, &m, &p);
    }
}

int main(void)
{
    /* The longest provider name the reference test uses: 239-character
       tracepoint name "Long_Provider_Name_X...X0123456789_L5K0Gasdf". */
    snprintf(g_long_name, sizeof(g_long_name), "Long_Provider_Name_%.*s0123456789", 200,
             "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
             "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"
             "XXXXXXXX");
    CHECK_EQ_INT(229, strlen(g_long_name));

    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov_c));
    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov_cpp));
    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov_cg));
    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov_cppg));
    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov_long));

    ev_no_fields(&g_prov_long, "LongProviderEvent");
    ev_enabled(&g_prov_cg, "EventCG");
    ev_enabled(&g_prov_cppg, "EventCppG");
    common_events(&g_prov_c);
    common_events(&g_prov_cpp);
    cpp_events(&g_prov_cpp);

    eventheader_close_provider(&g_prov_long);
    eventheader_close_provider(&g_prov_cppg);
    eventheader_close_provider(&g_prov_cg);
    eventheader_close_provider(&g_prov_cpp);
    eventheader_close_provider(&g_prov_c);

    printf("written %u\n", g_written);
    return 0;
}
