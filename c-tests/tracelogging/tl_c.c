/* The C half of the TraceLogging tests: C providers, C events, C TraceLoggingValue. */
#include "tl_test.h"

TRACELOGGING_DEFINE_PROVIDER(
    TestProviderC,
    "TestProviderC",
    (0x0da7a945, 0xe9b1, 0x510f, 0x0c, 0xcf, 0xab, 0xad, 0x6b, 0x0b, 0x7e, 0x6a));
TRACELOGGING_DEFINE_PROVIDER(
    TestProviderCG,
    "TestProviderC",
    (0x0da7a945, 0xe9b1, 0x510f, 0x0c, 0xcf, 0xab, 0xad, 0x6b, 0x0b, 0x7e, 0x6a),
    TraceLoggingOptionGroupName("msft"));
TRACELOGGING_DEFINE_PROVIDER(
    TlLifecycleC,
    "TlLifecycleC",
    (0x1b2c3d4e, 0x5f60, 0x5172, 0x83, 0x94, 0xa5, 0xb6, 0xc7, 0xd8, 0xe9, 0xfa));

#define TL_PROVIDER TestProviderC
#include "tl_events.h"
#define TL_LIFE_PROVIDER TlLifecycleC
#include "tl_lifecycle.h"

int tl_reference_c(void)
{
    int failures = 0;
    failures += !VERIFY(TraceLoggingRegister(TestProviderC) == 0);
    failures += tl_interop();
    failures += tl_common_events();
    TraceLoggingUnregister(TestProviderC);
    return failures;
}

int tl_lifecycle_c(void)
{
    return tl_lifecycle("TlLifecycleC");
}

/*
The C++ "Value:*" events of the reference, written from C with the _Generic
TraceLoggingValue (except char16_t, char32_t and wchar_t values, which are
integer typedefs in C). They must match the C++ events byte for byte apart from
the provider name.
*/
int tl_values_c(void)
{
    int failures = 0;
    void* const p = (void*)(intptr_t)(-12345);
    failures += !VERIFY(TraceLoggingRegister(TestProviderC) == 0);
    TraceLoggingWrite(TestProviderC, "Value:bool",
        TraceLoggingValue((_Bool)0, "false", "a description", 0x1234), TraceLoggingValue((_Bool)1, "true"));
    TraceLoggingWrite(TestProviderC, "Value:char", TraceLoggingValue((char)0, "0"), TraceLoggingValue((char)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:schar",
        TraceLoggingValue((signed char)0, "0"), TraceLoggingValue((signed char)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:uchar",
        TraceLoggingValue((unsigned char)0, "0"), TraceLoggingValue((unsigned char)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:sshort",
        TraceLoggingValue((short)0, "0"), TraceLoggingValue((short)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:ushort",
        TraceLoggingValue((unsigned short)0, "0"), TraceLoggingValue((unsigned short)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:sint", TraceLoggingValue(0, "0"), TraceLoggingValue((int)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:uint", TraceLoggingValue(0u, "0"), TraceLoggingValue((unsigned)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:slong", TraceLoggingValue(0l, "0"), TraceLoggingValue((long)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:ulong",
        TraceLoggingValue(0ul, "0"), TraceLoggingValue((unsigned long)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:slonglong",
        TraceLoggingValue(0ll, "0"), TraceLoggingValue((long long)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:ulonglong",
        TraceLoggingValue(0ull, "0"), TraceLoggingValue((unsigned long long)'A', "A"));
    TraceLoggingWrite(TestProviderC, "Value:float", TraceLoggingValue(0.0f, "0"), TraceLoggingValue(65.0f, "65"));
    TraceLoggingWrite(TestProviderC, "Value:double", TraceLoggingValue(0.0, "0"), TraceLoggingValue(65.0, "65"));
    TraceLoggingWrite(TestProviderC, "Value:void*", TraceLoggingValue((void*)0, "0"), TraceLoggingValue(p));
    TraceLoggingWrite(TestProviderC, "Value:cvoid*",
        TraceLoggingValue((void const*)0, "0"), TraceLoggingValue((void const*)p, "p"));
    TraceLoggingWrite(TestProviderC, "Value:char*",
        TraceLoggingValue((char*)0, "0"), TraceLoggingValue((char*)"hello", "hello"));
    TraceLoggingWrite(TestProviderC, "Value:cchar*",
        TraceLoggingValue((char const*)0, "0"), TraceLoggingValue("hello", "hello"));
    TraceLoggingWrite(TestProviderC, "Value:char16_t*",
        TraceLoggingValue((char16_t*)0, "0"), TraceLoggingValue((char16_t*)u"hello", "hello"));
    TraceLoggingWrite(TestProviderC, "Value:cchar16_t*",
        TraceLoggingValue((char16_t const*)0, "0"), TraceLoggingValue(u"hello", "hello"));
    TraceLoggingWrite(TestProviderC, "Value:char32_t*",
        TraceLoggingValue((char32_t*)0, "0"), TraceLoggingValue((char32_t*)U"hello", "hello"));
    TraceLoggingWrite(TestProviderC, "Value:cchar32_t*",
        TraceLoggingValue((char32_t const*)0, "0"), TraceLoggingValue(U"hello", "hello"));
    TraceLoggingWrite(TestProviderC, "Value:wchar_t*",
        TraceLoggingValue((wchar_t*)0, "0"), TraceLoggingValue((wchar_t*)L"hello", "hello"));
    TraceLoggingWrite(TestProviderC, "Value:cwchar_t*",
        TraceLoggingValue((wchar_t const*)0, "0"), TraceLoggingValue(L"hello", "hello"));
    TraceLoggingUnregister(TestProviderC);
    return failures;
}
