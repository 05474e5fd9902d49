// tpp_multi, C++ translation unit: defines MultiB, writes to MultiB and MultiA.
#include "multi.h"
#include <string>

TPP_DEFINE_PROVIDER(MultiB);

extern "C" {
TPP_FUNCTION(MultiB, "multi_b_fn", multi_b_fn, TPP_INT64("v", v));
}

// C++ linkage, used only here.
TPP_FUNCTION(MultiB, "multi_b_cpp_linkage", multi_b_cpp, TPP_UINT8("u", u));

extern "C" int multi_b_writes(void)
{
    int err = 0;
    // The string is a temporary: it lives until the end of the full
    // expression, which must include the write.
    err |= TPP_WRITE(MultiB, "multi_b_write",
        TPP_STRING("s", std::string("tmp-").append(multi_str("string")).c_str()));
    err |= TPP_WRITE(MultiA, "multi_a_from_cpp", TPP_INT32("v", multi_count(4)));
    err |= TPP_WRITE(MultiB, "shared_name", TPP_UINT32("id", 0xB), TPP_STRING("who", "cpp"));
    if (multi_b_cpp_enabled())
        err |= multi_b_cpp(200);
    return err;
}
