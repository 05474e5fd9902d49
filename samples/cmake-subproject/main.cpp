// A TraceLogging event from C++, in a project that builds eventheader-tracepoint
// as part of itself (see CMakeLists.txt).
#include <eventheader/TraceLoggingProvider.h>

#include <cstdio>
#include <string>

TRACELOGGING_DEFINE_PROVIDER(SubprojectCpp, "Subproject_Cpp",
    // {6e4d0b2f-8c30-5f51-9d72-1b0c9d8e7f60} (not used on Linux)
    (0x6e4d0b2f, 0x8c30, 0x5f51, 0x9d, 0x72, 0x1b, 0x0c, 0x9d, 0x8e, 0x7f, 0x60));

int main()
{
    int const err = TraceLoggingRegister(SubprojectCpp);
    std::string const where = "from C++";
    TraceLoggingWrite(SubprojectCpp, "Hello",
        TraceLoggingLevel(event_level_information),
        TraceLoggingValue(where.c_str(), "where"),
        TraceLoggingInt32(17, "standard"));
    TraceLoggingUnregister(SubprojectCpp);
    std::printf("registered: %d\n", err);
    return err;
}
