// The C++ half of the TraceLogging tests: C++ providers, the shared events
// compiled as C++, and the C++ TraceLoggingValue events.
#include "tl_test.h"

TRACELOGGING_DEFINE_PROVIDER(
    TestProviderCpp,
    "TestProviderCpp",
    (0x13238a16, 0xc3e5, 0x5fa1, 0x9d, 0x5b, 0x0e, 0x7d, 0xce, 0x1d, 0x4e, 0x1b));
TRACELOGGING_DEFINE_PROVIDER(
    TestProviderCppG,
    "TestProviderCpp",
    (0x13238a16, 0xc3e5, 0x5fa1, 0x9d, 0x5b, 0x0e, 0x7d, 0xce, 0x1d, 0x4e, 0x1b),
    TraceLoggingOptionGroupName("msft"));
TRACELOGGING_DEFINE_PROVIDER(
    TlLifecycleCpp,
    "TlLifecycleCpp",
    (0x2c3d4e5f, 0x6071, 0x5283, 0x94, 0xa5, 0xb6, 0xc7, 0xd8, 0xe9, 0xfa, 0x0b));

#define TL_PROVIDER TestProviderCpp
#include "tl_events.h"
#define TL_LIFE_PROVIDER TlLifecycleCpp
#include "tl_lifecycle.h"

namespace {

// TraceLoggingValue with every type the C++ overloads accept.
int values()
{
    void* const p = reinterpret_cast<void*>(static_cast<intptr_t>(-12345));
    char16_t const* const nullU16 = nullptr;
    TraceLoggingWrite(TestProviderCpp, "Value:bool",
        TraceLoggingValue(false, "false", "a description", 0x1234), TraceLoggingValue(true, "true"));
    TraceLoggingWrite(TestProviderCpp, "Value:char", TraceLoggingValue('\0', "0"), TraceLoggingValue('A', "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:char16", TraceLoggingValue(u'\0', "0"), TraceLoggingValue(u'A', "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:char32", TraceLoggingValue(U'\0', "0"), TraceLoggingValue(U'A', "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:wchar", TraceLoggingValue(L'\0', "0"), TraceLoggingValue(L'A', "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:schar",
        TraceLoggingValue(static_cast<signed char>(0), "0"), TraceLoggingValue(static_cast<signed char>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:uchar",
        TraceLoggingValue(static_cast<unsigned char>(0), "0"), TraceLoggingValue(static_cast<unsigned char>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:sshort",
        TraceLoggingValue(static_cast<short>(0), "0"), TraceLoggingValue(static_cast<short>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:ushort",
        TraceLoggingValue(static_cast<unsigned short>(0), "0"), TraceLoggingValue(static_cast<unsigned short>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:sint", TraceLoggingValue(0, "0"), TraceLoggingValue(static_cast<int>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:uint",
        TraceLoggingValue(0u, "0"), TraceLoggingValue(static_cast<unsigned>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:slong",
        TraceLoggingValue(0l, "0"), TraceLoggingValue(static_cast<long>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:ulong",
        TraceLoggingValue(0ul, "0"), TraceLoggingValue(static_cast<unsigned long>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:slonglong",
        TraceLoggingValue(0ll, "0"), TraceLoggingValue(static_cast<long long>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:ulonglong",
        TraceLoggingValue(0ull, "0"), TraceLoggingValue(static_cast<unsigned long long>('A'), "A"));
    TraceLoggingWrite(TestProviderCpp, "Value:float", TraceLoggingValue(0.0f, "0"), TraceLoggingValue(65.0f, "65"));
    TraceLoggingWrite(TestProviderCpp, "Value:double", TraceLoggingValue(0.0, "0"), TraceLoggingValue(65.0, "65"));
    TraceLoggingWrite(TestProviderCpp, "Value:void*",
        TraceLoggingValue(static_cast<void*>(nullptr), "0"), TraceLoggingValue(p));
    TraceLoggingWrite(TestProviderCpp, "Value:cvoid*",
        TraceLoggingValue(static_cast<void const*>(nullptr), "0"), TraceLoggingValue(static_cast<void const*>(p), "p"));
    TraceLoggingWrite(TestProviderCpp, "Value:char*",
        TraceLoggingValue(static_cast<char*>(nullptr), "0"), TraceLoggingValue(const_cast<char*>("hello"), "hello"));
    TraceLoggingWrite(TestProviderCpp, "Value:cchar*",
        TraceLoggingValue(static_cast<char const*>(nullptr), "0"), TraceLoggingValue("hello", "hello"));
    TraceLoggingWrite(TestProviderCpp, "Value:char16_t*",
        TraceLoggingValue(static_cast<char16_t*>(nullptr), "0"), TraceLoggingValue(const_cast<char16_t*>(u"hello"), "hello"));
    TraceLoggingWrite(TestProviderCpp, "Value:cchar16_t*",
        TraceLoggingValue(nullU16, "0"), TraceLoggingValue(u"hello", "hello"));
    TraceLoggingWrite(TestProviderCpp, "Value:char32_t*",
        TraceLoggingValue(static_cast<char32_t*>(nullptr), "0"), TraceLoggingValue(const_cast<char32_t*>(U"hello"), "hello"));
    TraceLoggingWrite(TestProviderCpp, "Value:cchar32_t*",
        TraceLoggingValue(static_cast<char32_t const*>(nullptr), "0"), TraceLoggingValue(U"hello", "hello"));
    TraceLoggingWrite(TestProviderCpp, "Value:wchar_t*",
        TraceLoggingValue(static_cast<wchar_t*>(nullptr), "0"), TraceLoggingValue(const_cast<wchar_t*>(L"hello"), "hello"));
    TraceLoggingWrite(TestProviderCpp, "Value:cwchar_t*",
        TraceLoggingValue(static_cast<wchar_t const*>(nullptr), "0"), TraceLoggingValue(L"hello", "hello"));
    return 0;
}

} // namespace

extern "C" int tl_reference_cpp(void)
{
    int failures = 0;
    failures += !VERIFY(TraceLoggingRegister(TestProviderCpp) == 0);
    failures += tl_interop();
    failures += tl_common_events();
    failures += values();
    TraceLoggingUnregister(TestProviderCpp);
    return failures;
}

extern "C" int tl_lifecycle_cpp(void)
{
    return tl_lifecycle("TlLifecycleCpp");
}
