/*
MicrosoftTelemetry.h (windows-compat): the telemetry provider options and
keywords that Windows telemetry code takes from MicrosoftTelemetry.h. On Linux
a provider group is part of the tracepoint names: a provider defined with
TraceLoggingOptionMicrosoftTelemetry() writes tracepoints named
"<provider>_L<level>K<keyword>G4f50731a89cf4782b3e0dce8c90476ba" (see
TraceLoggingOptionGroup in TraceLoggingProvider.h).
*/
#ifndef _included_windows_compat_MicrosoftTelemetry_h
#define _included_windows_compat_MicrosoftTelemetry_h 1

#include "TraceLoggingProvider.h"

#ifndef TraceLoggingOptionMicrosoftTelemetry
#define TraceLoggingOptionMicrosoftTelemetry() \
    TraceLoggingOptionGroup(0x4f50731a, 0x89cf, 0x4782, 0xb3, 0xe0, 0xdc, 0xe8, 0xc9, 0x4, 0x76, 0xba)
#endif
#ifndef TraceLoggingOptionWindowsCoreTelemetry
#define TraceLoggingOptionWindowsCoreTelemetry() \
    TraceLoggingOptionGroup(0xc7de053a, 0x0c2e, 0x4a44, 0x91, 0xa2, 0x52, 0x22, 0xec, 0x2e, 0xcd, 0xf1)
#endif

#ifndef MICROSOFT_KEYWORD_CRITICAL_DATA
#define MICROSOFT_KEYWORD_CRITICAL_DATA 0x0000800000000000 /* bit 47 */
#define MICROSOFT_KEYWORD_MEASURES      0x0000400000000000 /* bit 46 */
#define MICROSOFT_KEYWORD_TELEMETRY     0x0000200000000000 /* bit 45 */
#endif

#ifndef TelemetryPrivacyDataTag
#define TelemetryPrivacyDataTag(tag) TraceLoggingUInt64((tag), "PartA_PrivTags")
#define PDT_BrowsingHistory                    0x0000000000000002u
#define PDT_DeviceConnectivityAndConfiguration 0x0000000000000800u
#define PDT_InkingTypingAndSpeechUtterance     0x0000000000020000u
#define PDT_ProductAndServicePerformance       0x0000000001000000u
#define PDT_ProductAndServiceUsage             0x0000000002000000u
#endif

#endif /* _included_windows_compat_MicrosoftTelemetry_h */
