/* tpp_multi, C translation unit: defines MultiA, writes to MultiA and MultiB. */
#include "multi.h"

TPP_DEFINE_PROVIDER(MultiA);

TPP_FUNCTION(MultiA, "multi_a_fn", multi_a_fn,
    TPP_UINT32("n", n),
    TPP_STRING("s", s));

int multi_a_probe(void)
{
    return TPP_WRITE(MultiA, "multi_a_probe",
        TPP_INT32("v", multi_count(100)),
        TPP_STRING("s", multi_str("probe")));
}

int multi_a_writes(void)
{
    int err = 0;
    err |= TPP_WRITE(MultiA, "multi_a_write", TPP_INT32("v", multi_count(-1)));
    err |= TPP_WRITE(MultiB, "multi_b_from_c", TPP_UINT8("x", multi_count(2)));
    err |= TPP_WRITE(MultiA, "shared_name", TPP_UINT32("id", 0xA), TPP_STRING("who", "c"));
    return err;
}

int multi_a_never_called(void)
{
    return TPP_WRITE(MultiA, "multi_a_never_written", TPP_UINT16("z", 3));
}
