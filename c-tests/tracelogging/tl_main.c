/*
TraceLogging test driver. Usage: tl_test MODE, MODE one of
  reference  write the 260 reference events (long-name provider, C, C++) in order
  lifecycle  register/unregister/re-register, unregistered writes, ProviderEnabled (C and C++)
  cvalues    TraceLoggingValue in C (_Generic) for the types C shares with C++
Run with TRACEPOINT_CAPTURE_FILE set; the Rust test checks the capture. Exit 0
when every in-process check passed.
*/
#include "tl_test.h"
#include <stdio.h>
#include <string.h>

int tl_values_c(void);

/* A provider name of 229 characters: with "_L5K0Gasdf" the tracepoint name has 239. */
#define TL_LONG_PROVIDER_NAME "Long_Provider_Name_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX0123456789"

TRACELOGGING_DEFINE_PROVIDER(
    LongProvider,
    TL_LONG_PROVIDER_NAME,
    (0x7a442600, 0x4333, 0x5126, 0x67, 0x40, 0xee, 0x3e, 0x4f, 0xa4, 0x51, 0x39),
    TraceLoggingOptionGroupName("asdf"));

static int failures_total;

static int tl_long_provider(void)
{
    int failures = 0;
    failures += !VERIFY(strcmp(TraceLoggingProviderName(LongProvider), TL_LONG_PROVIDER_NAME) == 0);
    failures += !VERIFY(strcmp(TraceLoggingProviderOptions(LongProvider), "Gasdf") == 0);
    failures += !VERIFY(TraceLoggingRegister(LongProvider) == 0);
    failures += !VERIFY(TraceLoggingWrite(LongProvider, "LongProviderEvent") == 0);
    TraceLoggingUnregister(LongProvider);
    return failures;
}

int main(int argc, char** argv)
{
    char const* mode = argc == 2 ? argv[1] : "";
    if (strcmp(mode, "reference") == 0) {
        failures_total += tl_long_provider();
        failures_total += tl_reference_c();
        failures_total += tl_reference_cpp();
    } else if (strcmp(mode, "lifecycle") == 0) {
        failures_total += tl_lifecycle_c();
        failures_total += tl_lifecycle_cpp();
    } else if (strcmp(mode, "cvalues") == 0) {
        failures_total += tl_values_c();
    } else {
        fprintf(stderr, "usage: %s reference|lifecycle|cvalues\n", argv[0]);
        return 2;
    }
    if (failures_total != 0) {
        fprintf(stderr, "%s: %d check(s) failed\n", mode, failures_total);
        return 1;
    }
    return 0;
}
