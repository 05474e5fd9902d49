/*
Shared declarations of the TraceLogging tests (C and C++ translation units).

The "reference" mode of tl_test writes, in order, the 260 TraceLogging events of
the reference implementation's own test suite (providers TestProviderC,
TestProviderCpp and the long-name provider) so that the capture can be compared
byte for byte with tests/data/reference/EventHeaderInterceptorLE64.dat.
The "lifecycle" mode checks register/unregister/re-register, writes to
unregistered providers and TraceLoggingProviderEnabled, in C and in C++.
*/
#ifndef TL_TEST_H
#define TL_TEST_H

#include <eventheader/TraceLoggingProvider.h>

/* VERIFY: a failed check is printed and counted; `failures += !VERIFY(c)`. */
#include "../check.h"

/* TL_OTHER_ABI: the same events on a target where long, pointers or wchar_t
   have other sizes (scripts/cross/abis.sh compares them with the reference's
   field by field, not byte for byte). */
#if !defined(TL_OTHER_ABI) && (__SIZEOF_LONG__ != 8 || __SIZEOF_POINTER__ != 8 || __SIZEOF_WCHAR_T__ != 4)
#error "the reference events were recorded on an LP64 target with 32-bit wchar_t"
#endif

/* Providers defined in tl_c.c (C) and tl_cpp.cpp (C++), used from both languages. */
TRACELOGGING_DECLARE_PROVIDER(TestProviderC);
TRACELOGGING_DECLARE_PROVIDER(TestProviderCG);
TRACELOGGING_DECLARE_PROVIDER(TestProviderCpp);
TRACELOGGING_DECLARE_PROVIDER(TestProviderCppG);

#ifdef __cplusplus
extern "C" {
#endif

/* Each returns the number of failed checks (0 = pass) and prints what failed. */
int tl_reference_c(void);
int tl_reference_cpp(void);
int tl_lifecycle_c(void);
int tl_lifecycle_cpp(void);

#ifdef __cplusplus
}
#endif

#endif /* TL_TEST_H */
