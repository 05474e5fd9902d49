/*
A provider left registered is unregistered by the destructor that
TRACELOGGING_DEFINE_PROVIDER adds (priority 101). A destructor of priority 100
runs after it: its write must find the provider closed and write nothing, while
the write from main lands. Run in capture mode; the test checks the capture.
*/
#include <eventheader/TraceLoggingProvider.h>
#include <stdio.h>

TRACELOGGING_DEFINE_PROVIDER(
    AutoCloseProvider,
    "TlAutoClose",
    (0x1234abcd, 0x1111, 0x2222, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa));

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wprio-ctor-dtor"
#endif

__attribute__((destructor(100))) static void after_auto_close(void)
{
    int const enabled = TraceLoggingProviderEnabled(AutoCloseProvider, 5, 0);
    TraceLoggingWrite(AutoCloseProvider, "AfterAutoClose", TraceLoggingInt32(enabled, "enabled"));
    printf("after-auto-close enabled %d\n", enabled);
}

int main(void)
{
    int const err = TraceLoggingRegister(AutoCloseProvider);
    printf("register %d\n", err);
    TraceLoggingWrite(AutoCloseProvider, "BeforeExit", TraceLoggingInt32(1, "value"));
    /* No TraceLoggingUnregister: the provider stays registered until exit. */
    return err;
}
