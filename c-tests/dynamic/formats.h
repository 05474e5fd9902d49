/*
The event_field_format values, in value order, with their names: shared by
the reference suite's runtime-defined events (reference_events.h: one event
per format) and the feature events (features_data.h: one value field per
format).
*/
#ifndef DYN_FORMATS_H
#define DYN_FORMATS_H

#include <eventheader/eventheader.h>

struct dyn_format {
    event_field_format format;
    char const* name;
};

static struct dyn_format const dyn_formats[] = {
    { event_field_format_default, "default" },
    { event_field_format_unsigned_int, "unsigned_int" },
    { event_field_format_signed_int, "signed_int" },
    { event_field_format_hex_int, "hex_int" },
    { event_field_format_errno, "errno" },
    { event_field_format_pid, "pid" },
    { event_field_format_time, "time" },
    { event_field_format_boolean, "boolean" },
    { event_field_format_float, "float" },
    { event_field_format_hex_bytes, "hex_bytes" },
    { event_field_format_string8, "string8" },
    { event_field_format_string_utf, "string_utf" },
    { event_field_format_string_utf_bom, "string_utf_bom" },
    { event_field_format_string_xml, "string_xml" },
    { event_field_format_string_json, "string_json" },
    { event_field_format_uuid, "uuid" },
    { event_field_format_port, "port" },
    { event_field_format_ip_address, "ip_address" },
    { event_field_format_ip_address_obsolete, "ip_address_obsolete" },
};

#define DYN_FORMAT_COUNT (sizeof(dyn_formats) / sizeof(dyn_formats[0]))

#endif /* DYN_FORMATS_H */
