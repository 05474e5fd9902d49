#include <eventheader/TraceLoggingProvider.h>

TRACELOGGING_DEFINE_PROVIDER(MyProvider, "MyCompany_MyComponent",
    /* The provider's GUID, as on Windows (not used on Linux). */
    (0x8e5d1e3c, 0x0d6b, 0x5c2a, 0x9e, 0x7f, 0x61, 0x2c, 0x4a, 0x90, 0x33, 0x1b));

int main(int argc, char* argv[])
{
    TraceLoggingRegister(MyProvider);
    TraceLoggingWrite(MyProvider, "Started",        /* tracepoint MyCompany_MyComponent_L4K1 */
        TraceLoggingLevel(event_level_information),
        TraceLoggingKeyword(0x1),
        TraceLoggingString(argv[0], "program"),     /* evaluated only if someone listens */
        TraceLoggingInt32(argc, "argc"));
    TraceLoggingUnregister(MyProvider);
    return 0;
}
