/*
A provider name with a space. C cannot inspect string literals at compile
time, so the library rejects the name at registration: TraceLoggingRegister
returns EINVAL and writes to the provider write nothing. Run in capture mode;
the test checks that the capture is empty.
*/
#include <eventheader/TraceLoggingProvider.h>
#include <errno.h>

TRACELOGGING_DEFINE_PROVIDER(P, "My Provider", (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));

int main(void)
{
    int const err = TraceLoggingRegister(P);
    int const written = TraceLoggingWrite(P, "E", TraceLoggingInt32(1, "one"));
    TraceLoggingUnregister(P);
    return err == EINVAL && written == 0 ? 0 : 1;
}
