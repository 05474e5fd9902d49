/* tpp_custom: the four TPP_CUSTOM_ field kinds, with the values of the
 * reference data's write_custom/fn_custom (tpp_all.h), in declarations the
 * kernel accepts. tpp_all.h declares "u8[16] id", which Linux rejects with
 * EINVAL at registration: the only fixed-size arrays user_events knows are
 * char[N] and unsigned char[N]. Here the 16 bytes are "unsigned char[16] id".
 * Registers, writes both, unregisters; exit 0 if both writes returned 0. */
#include <tracepoint/tracepoint-provider.h>

#include <stdio.h>
#include <string.h>

TPP_DEFINE_PROVIDER(TppCustom);

TPP_FUNCTION(TppCustom, "TppCustom_fn", custom_fn,
    TPP_CUSTOM_BYVAL("u16 port", uint16_t, port),
    TPP_CUSTOM_BYREF("unsigned char[16] id", uint8_t, 16, id),
    TPP_CUSTOM_REL_LOC("u8[] blob", uint8_t, blob_len, blob),
    TPP_CUSTOM_REL_LOC_STR("char[] text", char, text));

int main(void)
{
    static uint8_t const id[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    static uint8_t const blob[5] = { 0xde, 0xad, 0xbe, 0xef, 0x00 };
    int err = TPP_REGISTER_PROVIDER(TppCustom);
    int w1, w2;
    if (err != 0) {
        fprintf(stderr, "registration failed: %d (%s)\n", err, strerror(err));
        return 1;
    }
    w1 = TPP_WRITE(TppCustom, "TppCustom_write",
        TPP_CUSTOM_BYVAL("u16 port", uint16_t, 8080),
        TPP_CUSTOM_BYREF("unsigned char[16] id", uint8_t, 16, id),
        TPP_CUSTOM_REL_LOC("u8[] blob", uint8_t, 5, blob),
        TPP_CUSTOM_REL_LOC("u8[] none", uint8_t, 0, blob),
        TPP_CUSTOM_REL_LOC_STR("char[] text", char, "rel-loc text"));
    w2 = custom_fn(443, id, 4, blob, "custom");
    printf("TppCustom_write: %d\nTppCustom_fn: %d\n", w1, w2);
    TPP_UNREGISTER_PROVIDER(TppCustom);
    return w1 != 0 || w2 != 0;
}
