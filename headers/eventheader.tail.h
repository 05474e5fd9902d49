
/*
Target-dependent values, as macros so that they keep the type of the enum
they alias in C++ and need no compiler support beyond the preprocessor.
*/

/* eventheader_flags for this target (pointer size, byte order), no extensions. */
#define eventheader_flag_default ((eventheader_flags)( \
    (EVENTHEADER_LITTLE_ENDIAN ? eventheader_flag_little_endian : 0) | \
    (sizeof(void*) == 8 ? eventheader_flag_pointer64 : 0)))

/* eventheader_flags for this target, one or more extensions present. */
#define eventheader_flag_default_with_extension \
    ((eventheader_flags)(eventheader_flag_default | eventheader_flag_extension))

#if __SIZEOF_LONG__ == 8
/* long-sized value (value32 or value64). */
#define event_field_encoding_value_long event_field_encoding_value64
#else
#define event_field_encoding_value_long event_field_encoding_value32
#endif

#if __SIZEOF_POINTER__ == 8
/* pointer-sized value (value32 or value64). */
#define event_field_encoding_value_ptr event_field_encoding_value64
#else
#define event_field_encoding_value_ptr event_field_encoding_value32
#endif

/* float-sized value (value32). */
#define event_field_encoding_value_float event_field_encoding_value32

/* double-sized value (value64). */
#define event_field_encoding_value_double event_field_encoding_value64

#if __SIZEOF_WCHAR_T__ == 2
/* wchar_t-sized value, nul-terminated wchar_t string, counted wchar_t string. */
#define event_field_encoding_value_wchar event_field_encoding_value16
#define event_field_encoding_zstring_wchar event_field_encoding_zstring_char16
#define event_field_encoding_string_length16_wchar event_field_encoding_string_length16_char16
#else
#define event_field_encoding_value_wchar event_field_encoding_value32
#define event_field_encoding_zstring_wchar event_field_encoding_zstring_char32
#define event_field_encoding_string_length16_wchar event_field_encoding_string_length16_char32
#endif

/* Older names of the IP address formats. */
#define event_field_format_ipv4 event_field_format_ip_address
#define event_field_format_ipv6 event_field_format_ip_address_obsolete

#if defined(__cplusplus) || defined(static_assert)
static_assert(sizeof(float) == 4 && sizeof(double) == 8, "Unsupported float/double size.");
static_assert(sizeof(eventheader) == 8, "eventheader must be 8 bytes.");
static_assert(sizeof(eventheader_extension) == 4, "eventheader_extension must be 4 bytes.");
#endif

/*
EVENTHEADER_FORMAT_TRACEPOINT_NAME(buf, buf_size, provider_name, level, keyword, options)
writes the tracepoint name "ProviderName_L<level>K<keyword><options>" into buf
and returns what snprintf returns: success if >= 0 and < buf_size.
Requires <stdio.h> and <inttypes.h>. Uses a GNU statement expression.
*/
#define EVENTHEADER_FORMAT_TRACEPOINT_NAME( \
    tracepointName, tracepointNameMax, providerName, eventLevel, eventKeyword, options) \
    (__extension__({ \
        char const* const _eh_provider = (providerName); \
        uint8_t const _eh_level = (eventLevel); \
        uint64_t const _eh_keyword = (eventKeyword); \
        char const* const _eh_options = (options); \
        snprintf((tracepointName), (tracepointNameMax), "%s_L%xK%" PRIx64 "%s", \
            _eh_provider, (unsigned)_eh_level, _eh_keyword, _eh_options ? _eh_options : ""); \
    }))

/*
EVENTHEADER_FORMAT_COMMAND(buf, buf_size, provider_name, level, keyword, options)
writes the registration command "ProviderName_L<level>K<keyword><options> "
EVENTHEADER_COMMAND_TYPES into buf (use a buffer of EVENTHEADER_COMMAND_MAX)
and returns what snprintf returns: success if >= 0 and < buf_size.
Requires <stdio.h> and <inttypes.h>. Uses a GNU statement expression.
*/
#define EVENTHEADER_FORMAT_COMMAND( \
    command, commandMax, providerName, eventLevel, eventKeyword, options) \
    (__extension__({ \
        char const* const _eh_provider = (providerName); \
        uint8_t const _eh_level = (eventLevel); \
        uint64_t const _eh_keyword = (eventKeyword); \
        char const* const _eh_options = (options); \
        snprintf((command), (commandMax), "%s_L%xK%" PRIx64 "%s %s", \
            _eh_provider, (unsigned)_eh_level, _eh_keyword, _eh_options ? _eh_options : "", \
            EVENTHEADER_COMMAND_TYPES); \
    }))
