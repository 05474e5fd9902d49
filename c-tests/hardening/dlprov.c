/*
 * A shared library (built with -fPIC -shared, linked to the library) that
 * defines a TraceLogging provider "HardDl", registers it from a constructor
 * and, unless built with -DHARDENING_FORGET, unregisters it from a
 * destructor. Loaded and unloaded in a loop by dlclose_loop.c.
 *
 * Exports dlprov_enabled() (TraceLoggingProviderEnabled at level 5,
 * keyword 1), dlprov_register_result() (what the constructor's
 * TraceLoggingRegister returned) and dlprov_write(i) (TraceLoggingWrite of
 * event "Loop" with u32 field "i"; returns its errno).
 */
#include <eventheader/TraceLoggingProvider.h>

#include <stdint.h>

TRACELOGGING_DEFINE_PROVIDER(
    HardDlProvider,
    "HardDl",
    (0x1b3c5d7e, 0x9f21, 0x4a6b, 0x8c, 0x0d, 0x2e, 0x4f, 0x60, 0x71, 0x82, 0x93));

static int g_register_result = -1;

__attribute__((constructor)) static void dlprov_init(void)
{
    g_register_result = TraceLoggingRegister(HardDlProvider);
}

#ifndef HARDENING_FORGET
__attribute__((destructor)) static void dlprov_fini(void)
{
    TraceLoggingUnregister(HardDlProvider);
}
#endif

__attribute__((visibility("default"))) int dlprov_register_result(void)
{
    return g_register_result;
}

__attribute__((visibility("default"))) int dlprov_enabled(void)
{
    return TraceLoggingProviderEnabled(HardDlProvider, 5, 1) ? 1 : 0;
}

__attribute__((visibility("default"))) int dlprov_write(uint32_t i)
{
    return TraceLoggingWrite(HardDlProvider, "Loop", TraceLoggingLevel(5), TraceLoggingKeyword(1),
                             TraceLoggingUInt32(i, "i"));
}
