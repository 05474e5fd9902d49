/* A TraceLogging event from C, in a project that builds eventheader-tracepoint
   as part of itself (see CMakeLists.txt). */
#include <eventheader/TraceLoggingProvider.h>

#include <stdio.h>

TRACELOGGING_DEFINE_PROVIDER(SubprojectC, "Subproject_C",
    /* {5d3c9a1e-7b2f-5e40-8c61-0a9b8c7d6e5f} (not used on Linux) */
    (0x5d3c9a1e, 0x7b2f, 0x5e40, 0x8c, 0x61, 0x0a, 0x9b, 0x8c, 0x7d, 0x6e, 0x5f));

int main(void)
{
    int err = TraceLoggingRegister(SubprojectC);
    TraceLoggingWrite(SubprojectC, "Hello",
        TraceLoggingLevel(event_level_information),
        TraceLoggingString("from C", "where"),
        TraceLoggingInt32(11, "standard"));
    TraceLoggingUnregister(SubprojectC);
    printf("registered: %d\n", err);
    return err;
}
