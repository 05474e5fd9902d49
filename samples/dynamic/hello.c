#include <eventheader/eventheader-dynamic.h>

int main(void)
{
    ehd_provider* p = ehd_provider_new("MyCompany_MyComponent", EHD_NTS, "", 0);
    ehd_event_set* info = ehd_provider_register_set(p, event_level_information, 0x1);
    ehd_builder* b = ehd_builder_new(0, 0);            /* reuse it: no allocation once warm */
    if (EHD_EVENT_SET_ENABLED(info)) {                 /* one inline load */
        int32_t status = 200;
        ehd_builder_reset(b, "Request", EHD_NTS, 0);   /* name and fields are run-time data */
        ehd_builder_add_string(b, "url", EHD_NTS, event_field_encoding_string_length16_char8,
                               event_field_format_default, 0, "/index.html", EHD_NTS);
        ehd_builder_add_value(b, "status", EHD_NTS, event_field_encoding_value32,
                              event_field_format_signed_int, 0, &status);
        ehd_builder_write(b, info, NULL, NULL);        /* 0 or an errno */
    }
    ehd_builder_delete(b);
    ehd_provider_delete(p);
    return 0;
}
