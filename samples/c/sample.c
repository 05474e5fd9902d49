/*
TraceLogging in C: define a provider, register it, write a few events, unregister.

Build (from the repository root, after cargo build):
    cc -std=c11 -Iinclude samples/c/sample.c -Ltarget/debug -leventheader_tracepoint \
        -Wl,-rpath,$PWD/target/debug -o c_sample
Run with a collector listening (e.g. perf record -e user_events:MySample_C_L4K1Gsamples),
or with TRACEPOINT_CAPTURE_FILE=/tmp/events.dat to capture the events to a file.
*/
#include <eventheader/TraceLoggingProvider.h>
#include <stdint.h>
#include <stdio.h>

TRACELOGGING_DEFINE_PROVIDER(      // defines the provider symbol MySampleProvider
    MySampleProvider,              // symbol used in the TraceLogging macros
    "MySample_C",                  // provider name: no ' ' or ':'
    // {5bc8f1f1-1bd4-5ed9-6fad-3bf3ae7f0e33} (the GUID is not used on Linux)
    (0x5bc8f1f1, 0x1bd4, 0x5ed9, 0x6f, 0xad, 0x3b, 0xf3, 0xae, 0x7f, 0x0e, 0x33),
    TraceLoggingOptionGroupName("samples"));

#define SAMPLE_KEYWORD_STARTUP 0x1

int main(int argc, char* argv[])
{
    static uint8_t const activity[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
                                          0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00 };
    int const registerResult = TraceLoggingRegister(MySampleProvider);
    int i;

    TraceLoggingWrite(MySampleProvider, "Started",
        TraceLoggingLevel(event_level_information),
        TraceLoggingKeyword(SAMPLE_KEYWORD_STARTUP),
        TraceLoggingString(argv[0], "arg0"), // explicit field name
        TraceLoggingInt32(argc));            // field name "argc"

    /* An activity: start, events inside it, stop. */
    TraceLoggingWriteActivity(MySampleProvider, "WorkStart", activity, NULL,
        TraceLoggingOpcode(event_opcode_activity_start),
        TraceLoggingLevel(event_level_information));
    for (i = 1; i < argc; i += 1) {
        TraceLoggingWriteActivity(MySampleProvider, "Argument", activity, NULL,
            TraceLoggingLevel(event_level_verbose),
            TraceLoggingValue(i, "index"),        /* int -> Int32 */
            TraceLoggingValue(argv[i], "value")); /* char* -> String */
    }
    TraceLoggingWriteActivity(MySampleProvider, "WorkStop", activity, NULL,
        TraceLoggingOpcode(event_opcode_activity_stop),
        TraceLoggingLevel(event_level_information),
        TraceLoggingStruct(2, "result"),
            TraceLoggingUInt32(0u, "code"),
            TraceLoggingUtf8String("ok", "text"));

    /* Expensive data only when someone listens. */
    if (TraceLoggingProviderEnabled(MySampleProvider, event_level_warning, 0)) {
        double const ratios[3] = { 0.5, 0.25, 0.125 };
        TraceLoggingWrite(MySampleProvider, "Ratios",
            TraceLoggingLevel(event_level_warning),
            TraceLoggingFloat64FixedArray(ratios, 3, "ratios"));
    }

    TraceLoggingUnregister(MySampleProvider);
    printf("%s: TraceLoggingRegister returned %d\n", TraceLoggingProviderName(MySampleProvider), registerResult);
    return 0;
}
