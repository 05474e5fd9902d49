/*
 * ABI layout probe: prints, as "key value" lines, the size, alignment and
 * field offsets/sizes of every public struct, the size and value of every
 * enum constant (including the target-dependent aliases), and the text the
 * name/command macros produce, as the compiler sees them through our
 * headers. Compiled as C11 and as C++17. abi_layout.rs compares the output
 * with the values of the reference ABI (docs/format.md §2, §4).
 *
 * It also pins the exported function prototypes: each is assigned to a
 * pointer of the reference's exact type, which is a hard error (C with
 * -Werror, C++ always) if a declaration differs.
 */
#include <eventheader/eventheader-tracepoint.h>
#include <eventheader/eventheader.h>
#include <tracepoint/tracepoint-capture.h>
#include <tracepoint/tracepoint-state.h>
#include <tracepoint/tracepoint.h>

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
#define ALIGNOF(t) alignof(t)
#define LANG "c++"
#else
#define ALIGNOF(t) _Alignof(t)
#define LANG "c"
#endif

#define STRUCT(t) \
    printf("sizeof.%s %zu\nalignof.%s %zu\n", #t, sizeof(t), #t, (size_t)ALIGNOF(t))
#define FIELD(t, f)                                                              \
    printf("offsetof.%s.%s %zu\nsizeof.%s.%s %zu\n", #t, #f, offsetof(t, f), #t, #f, \
           sizeof(((t*)0)->f))
#define ENUM_TYPE(t) printf("sizeof.%s %zu\n", #t, sizeof(t))
#define VALUE(v) printf("value.%s %lld\n", #v, (long long)(v))

int main(void)
{
    printf("lang %s\n", LANG);

    STRUCT(tracepoint_list_node);
    FIELD(tracepoint_list_node, next);
    FIELD(tracepoint_list_node, prev);

    STRUCT(tracepoint_provider_state);
    FIELD(tracepoint_provider_state, data_file);
    FIELD(tracepoint_provider_state, ref_count);
    FIELD(tracepoint_provider_state, tracepoint_list_head);

    STRUCT(tracepoint_state);
    FIELD(tracepoint_state, status_word);
    FIELD(tracepoint_state, write_index);
    FIELD(tracepoint_state, provider_state);
    FIELD(tracepoint_state, tracepoint_list_link);

    STRUCT(tracepoint_definition);
    FIELD(tracepoint_definition, state);
    FIELD(tracepoint_definition, tp_name_args);

    STRUCT(eventheader);
    FIELD(eventheader, flags);
    FIELD(eventheader, version);
    FIELD(eventheader, id);
    FIELD(eventheader, tag);
    FIELD(eventheader, opcode);
    FIELD(eventheader, level);

    STRUCT(eventheader_extension);
    FIELD(eventheader_extension, size);
    FIELD(eventheader_extension, kind);

    STRUCT(eventheader_tracepoint);
    FIELD(eventheader_tracepoint, state);
    FIELD(eventheader_tracepoint, metadata);
    FIELD(eventheader_tracepoint, header);
    FIELD(eventheader_tracepoint, keyword);

    STRUCT(eventheader_provider);
    FIELD(eventheader_provider, state);
    FIELD(eventheader_provider, options);
    FIELD(eventheader_provider, name);

    ENUM_TYPE(eventheader_flags);
    ENUM_TYPE(event_opcode);
    ENUM_TYPE(event_level);
    ENUM_TYPE(eventheader_extension_kind);
    ENUM_TYPE(event_field_encoding);
    ENUM_TYPE(event_field_format);

    VALUE(eventheader_flag_none);
    VALUE(eventheader_flag_pointer64);
    VALUE(eventheader_flag_little_endian);
    VALUE(eventheader_flag_extension);
    VALUE(eventheader_flag_default);
    VALUE(eventheader_flag_default_with_extension);

    VALUE(event_opcode_info);
    VALUE(event_opcode_activity_start);
    VALUE(event_opcode_activity_stop);
    VALUE(event_opcode_collection_start);
    VALUE(event_opcode_collection_stop);
    VALUE(event_opcode_extension);
    VALUE(event_opcode_reply);
    VALUE(event_opcode_resume);
    VALUE(event_opcode_suspend);
    VALUE(event_opcode_send);
    VALUE(event_opcode_receive);

    VALUE(event_level_invalid);
    VALUE(event_level_critical_error);
    VALUE(event_level_error);
    VALUE(event_level_warning);
    VALUE(event_level_information);
    VALUE(event_level_verbose);

    VALUE(eventheader_extension_kind_value_mask);
    VALUE(eventheader_extension_kind_chain_flag);
    VALUE(eventheader_extension_kind_invalid);
    VALUE(eventheader_extension_kind_metadata);
    VALUE(eventheader_extension_kind_activity_id);

    VALUE(event_field_encoding_value_mask);
    VALUE(event_field_encoding_flag_mask);
    VALUE(event_field_encoding_carray_flag);
    VALUE(event_field_encoding_varray_flag);
    VALUE(event_field_encoding_chain_flag);
    VALUE(event_field_encoding_invalid);
    VALUE(event_field_encoding_struct);
    VALUE(event_field_encoding_value8);
    VALUE(event_field_encoding_value16);
    VALUE(event_field_encoding_value32);
    VALUE(event_field_encoding_value64);
    VALUE(event_field_encoding_value128);
    VALUE(event_field_encoding_zstring_char8);
    VALUE(event_field_encoding_zstring_char16);
    VALUE(event_field_encoding_zstring_char32);
    VALUE(event_field_encoding_string_length16_char8);
    VALUE(event_field_encoding_string_length16_char16);
    VALUE(event_field_encoding_string_length16_char32);
    VALUE(event_field_encoding_binary_length16_char8);
    VALUE(event_field_encoding_value_long);
    VALUE(event_field_encoding_value_ptr);
    VALUE(event_field_encoding_value_float);
    VALUE(event_field_encoding_value_double);
    VALUE(event_field_encoding_value_wchar);
    VALUE(event_field_encoding_zstring_wchar);
    VALUE(event_field_encoding_string_length16_wchar);

    VALUE(event_field_format_value_mask);
    VALUE(event_field_format_chain_flag);
    VALUE(event_field_format_default);
    VALUE(event_field_format_unsigned_int);
    VALUE(event_field_format_signed_int);
    VALUE(event_field_format_hex_int);
    VALUE(event_field_format_errno);
    VALUE(event_field_format_pid);
    VALUE(event_field_format_time);
    VALUE(event_field_format_boolean);
    VALUE(event_field_format_float);
    VALUE(event_field_format_hex_bytes);
    VALUE(event_field_format_string8);
    VALUE(event_field_format_string_utf);
    VALUE(event_field_format_string_utf_bom);
    VALUE(event_field_format_string_xml);
    VALUE(event_field_format_string_json);
    VALUE(event_field_format_uuid);
    VALUE(event_field_format_port);
    VALUE(event_field_format_ip_address);
    VALUE(event_field_format_ip_address_obsolete);
    VALUE(event_field_format_ipv4);
    VALUE(event_field_format_ipv6);

    VALUE(EVENTHEADER_NAME_MAX);
    VALUE(EVENTHEADER_COMMAND_MAX);
    VALUE(EVENTHEADER_PREFIX_DATAVEC_COUNT_NO_METADATA);
    VALUE(EVENTHEADER_PREFIX_DATAVEC_COUNT);
    printf("value.sizeof_EVENTHEADER_COMMAND_TYPES %zu\n", sizeof(EVENTHEADER_COMMAND_TYPES));
    printf("str.EVENTHEADER_COMMAND_TYPES %s\n", EVENTHEADER_COMMAND_TYPES);

    /* The name and command macros. */
    {
        char buf[EVENTHEADER_COMMAND_MAX];
        int n;
        n = EVENTHEADER_FORMAT_TRACEPOINT_NAME(buf, sizeof(buf), "MyProvider", 5, 1, "");
        printf("str.name1 %s\nvalue.name1_ret %d\n", buf, n);
        n = EVENTHEADER_FORMAT_TRACEPOINT_NAME(buf, sizeof(buf), "OtherProvider", 3, 2, "Gmygroup");
        printf("str.name2 %s\nvalue.name2_ret %d\n", buf, n);
        n = EVENTHEADER_FORMAT_TRACEPOINT_NAME(buf, sizeof(buf), "P", 255, UINT64_C(0xf123456789abcdef), (char const*)NULL);
        printf("str.name3 %s\nvalue.name3_ret %d\n", buf, n);
        n = EVENTHEADER_FORMAT_COMMAND(buf, sizeof(buf), "MyProvider", 5, 1, "");
        printf("str.command1 %s\nvalue.command1_ret %d\n", buf, n);
        n = EVENTHEADER_FORMAT_COMMAND(buf, sizeof(buf), "OtherProvider", 3, 2, "Gmygroup");
        printf("str.command2 %s\nvalue.command2_ret %d\n", buf, n);
        /* Truncation is reported by the return value (size hidden from the
           compiler, which would otherwise warn about the truncation). */
        {
            size_t volatile small = 4;
            n = EVENTHEADER_FORMAT_TRACEPOINT_NAME(buf, small, "MyProvider", 5, 1, "");
        }
        printf("str.name_trunc %s\nvalue.name_trunc_ret %d\n", buf, n);
    }

    /* The initializers and the enabled check. */
    {
        tracepoint_provider_state ps = TRACEPOINT_PROVIDER_STATE_INIT;
        tracepoint_state ts = TRACEPOINT_STATE_INIT;
        printf("value.provider_init.data_file %d\n", ps.data_file);
        printf("value.provider_init.ref_count %u\n", ps.ref_count);
        printf("value.provider_init.head_null %d\n",
               ps.tracepoint_list_head.next == NULL && ps.tracepoint_list_head.prev == NULL);
        printf("value.state_init.status_word %u\n", ts.status_word);
        printf("value.state_init.write_index %d\n", ts.write_index);
        printf("value.state_init.provider_null %d\n", ts.provider_state == NULL);
        printf("value.state_init.link_null %d\n",
               ts.tracepoint_list_link.next == NULL && ts.tracepoint_list_link.prev == NULL);
        printf("value.enabled_init %d\n", TRACEPOINT_ENABLED(&ts) ? 1 : 0);
        ts.status_word = 1;
        printf("value.enabled_set %d\n", TRACEPOINT_ENABLED(&ts) ? 1 : 0);
    }

    /* The prototypes, with the reference's exact types. */
    {
        int (*open_provider)(tracepoint_provider_state*) = tracepoint_open_provider;
        void (*close_provider)(tracepoint_provider_state*) = tracepoint_close_provider;
        int (*open_with_tps)(tracepoint_provider_state*, tracepoint_definition const**,
                             tracepoint_definition const**) = tracepoint_open_provider_with_tracepoints;
        int (*connect)(tracepoint_state*, tracepoint_provider_state*, char const*) = tracepoint_connect;
        int (*connect2)(tracepoint_state*, tracepoint_provider_state*, char const*, unsigned) =
            tracepoint_connect2;
        int (*write)(tracepoint_state const*, unsigned, struct iovec*) = tracepoint_write;
        int (*eh_open)(eventheader_provider const*) = eventheader_open_provider;
        void (*eh_close)(eventheader_provider const*) = eventheader_close_provider;
        int (*eh_open_with)(eventheader_provider const*, eventheader_tracepoint const**,
                            eventheader_tracepoint const**) = eventheader_open_provider_with_events;
        int (*eh_connect)(eventheader_tracepoint const*, eventheader_provider const*) = eventheader_connect;
        int (*eh_write)(eventheader_tracepoint const*, void const*, void const*, uint32_t,
                        struct iovec*) = eventheader_write;
        int (*set_capture)(char const*) = tracepoint_set_capture_file;
        int const linked = open_provider && close_provider && open_with_tps && connect && connect2 &&
                           write && eh_open && eh_close && eh_open_with && eh_connect && eh_write &&
                           set_capture;
        printf("value.prototypes_linked %d\n", linked);
    }
    return 0;
}
