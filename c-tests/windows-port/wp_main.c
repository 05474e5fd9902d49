/* The component's start, run and stop (see wp_component.h). */
#include "wp_component.h"
#include <MicrosoftTelemetry.h>

// {12345678-9abc-def0-0123-456789abcdef}
static GUID const g_sessionId = { 0x12345678, 0x9abc, 0xdef0, { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef } };
// {0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0}
static GUID const g_activityId = { 0x0f1e2d3c, 0x4b5a, 0x4978, { 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0 } };
// {6b3c2f10-8a41-4e5d-9c01-223344556677}
static GUID const g_parentActivityId = { 0x6b3c2f10, 0x8a41, 0x4e5d, { 0x9c, 0x01, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 } };

static BOOLEAN g_enabledBeforeRegister;
static HRESULT g_registerResult;

HRESULT WinPortStart(UCHAR level, ULONGLONG keyword)
{
    HRESULT hr;
    g_enabledBeforeRegister = TraceLoggingProviderEnabled(g_hWinPortProvider, level, keyword);
    hr = TraceLoggingRegister(g_hWinPortProvider);
    if (SUCCEEDED(hr)) {
        hr = RegisterSecondaryProvider();
    }
    if (SUCCEEDED(hr)) {
        hr = TraceLoggingRegister(g_hWinPortTelemetry);
    }
    g_registerResult = hr;

    // Call sites that write through a handle register their tracepoint when they
    // first run; asking whether their level and keyword are enabled registers the
    // tracepoint now, so that a collector can attach before the first write.
    (void)TraceLoggingProviderEnabled(g_hWinPortProvider, WINEVENT_LEVEL_ERROR, WP_KEYWORD_OPS);
    (void)TraceLoggingProviderEnabled(g_hWinPortProvider, WINEVENT_LEVEL_WARNING, WP_KEYWORD_OPS);
    (void)TraceLoggingProviderEnabled(g_hWinPortProvider, WINEVENT_LEVEL_VERBOSE, WP_KEYWORD_STORAGE);
    (void)TraceLoggingProviderEnabled(GetSecondaryProvider(), WINEVENT_LEVEL_ERROR, WP_KEYWORD_OPS);
    (void)TraceLoggingProviderEnabled(GetSecondaryProvider(), WINEVENT_LEVEL_INFO, WP_KEYWORD_OPS);
    (void)TraceLoggingProviderEnabled(GetSecondaryProvider(), WINEVENT_LEVEL_VERBOSE, WP_KEYWORD_STORAGE);
    (void)TraceLoggingProviderEnabled(GetSecondaryProvider(), WINEVENT_LEVEL_VERBOSE, 0);
    (void)TraceLoggingProviderEnabled(g_hWinPortProvider, WINEVENT_LEVEL_VERBOSE, 0);
    return hr;
}

void WinPortRun(UCHAR level, ULONGLONG keyword)
{
    // 2024-03-15T12:34:56.1234567Z and 1999-12-31T23:59:59Z as FILETIMEs.
    FILETIME startTime = { 0x2fb32e87, 0x01da76d5 };
    FILETIME times[2] = { { 0x2fb32e87, 0x01da76d5 }, { 0x24d4a980, 0x01bf53eb } };
    // Friday 2024-03-15 12:34:56.789 and Tuesday 2000-02-29 06:07:08.000.
    SYSTEMTIME localTime = { 2024, 3, 5, 15, 12, 34, 56, 789 };
    SYSTEMTIME dates[2] = { { 2024, 3, 5, 15, 12, 34, 56, 789 }, { 2000, 2, 2, 29, 6, 7, 8, 0 } };
    GUID guids[2];
    void const* code[2] = { (void const*)(UINT_PTR)0x401000, (void const*)(UINT_PTR)0x402000 };
    GUID providerId = TraceLoggingProviderId(g_hWinPortProvider);
    GUID sessionId = g_sessionId;
    BOOLEAN runtimeLevel, handle, anyLevel;
    guids[0] = g_sessionId;
    guids[1] = g_activityId;

    TraceLoggingWrite(g_hWinPortProvider, "Started",
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingKeyword(WP_KEYWORD_LIFECYCLE),
        TraceLoggingChannel(WINEVENT_CHANNEL_TRACELOGGING),
        TraceLoggingDescription("The component started."),
        TraceLoggingCustomAttribute("Owner", "Porting"),
        TraceLoggingCustomAttribute("Area", "Diagnostics"),
        TraceLoggingString("winport", "component"),
        TraceLoggingHResult(g_registerResult, "registerResult"),
        TraceLoggingGuid(sessionId, "sessionId"),
        TraceLoggingGuid(providerId, "providerId"),
        TraceLoggingFileTime(startTime, "startTime"),
        TraceLoggingFileTimeUtc(startTime, "startTimeUtc"),
        TraceLoggingSystemTime(localTime, "localTime"),
        TraceLoggingSystemTimeUtc(localTime, "utcTime"));

    LogHResult(g_hWinPortProvider, "open", E_ACCESSDENIED);
    LogHResult(GetSecondaryProvider(), "read", S_OK);
    LogHResult(GetSecondaryProvider(), "write", E_FAIL);
    LogStep(g_hWinPortProvider, 1);
    LogGlobalStep(2);
    HelpersRun();
    LogStatusDetails(g_hWinPortProvider);
    {
        static BYTE const data[4] = { 1, 2, 3, 250 };
        LogResource(INVALID_HANDLE_VALUE, TEXT("configuration"), data, sizeof(data));
        LogResource(NULL, TEXT("log"), data, 0);
        LogFormatted("%s-%d", "step", 10);
    }

    TraceLoggingWrite(g_hWinPortProvider, "Arrays",
        TraceLoggingLevel(WINEVENT_LEVEL_VERBOSE),
        TraceLoggingKeyword(WP_KEYWORD_STORAGE),
        TraceLoggingGuidArray(guids, 2, "guids"),
        TraceLoggingGuidFixedArray(guids, 2, "fixedGuids"),
        TraceLoggingFileTimeArray(times, 2, "times"),
        TraceLoggingFileTimeUtcFixedArray(times, 2, "fixedTimes"),
        TraceLoggingSystemTimeArray(dates, 2, "dates"),
        TraceLoggingSystemTimeUtcFixedArray(dates, 2, "fixedDates"),
        TraceLoggingCodePointerArray(code, 2, "code"));

    TraceLoggingWrite(g_hWinPortProvider, "Values",
        TraceLoggingLevel(WINEVENT_LEVEL_VERBOSE),
        TraceLoggingKeyword(WP_KEYWORD_STORAGE),
        TraceLoggingValue(sessionId, "guid"),
        TraceLoggingValue(startTime, "fileTime"),
        TraceLoggingValue(localTime, "systemTime"));

    runtimeLevel = TraceLoggingProviderEnabled(g_hWinPortProvider, level, keyword);
    handle = TraceLoggingProviderEnabled(GetSecondaryProvider(), WINEVENT_LEVEL_ERROR, WP_KEYWORD_OPS);
    anyLevel = TraceLoggingProviderEnabled(g_hWinPortProvider, 0, 0);
    TraceLoggingWrite(g_hWinPortProvider, "Enabled",
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingKeyword(WP_KEYWORD_LIFECYCLE),
        TraceLoggingBoolean(g_enabledBeforeRegister, "beforeRegister"),
        TraceLoggingBoolean(runtimeLevel, "runtimeLevel"),
        TraceLoggingBoolean(handle, "handle"),
        TraceLoggingBoolean(anyLevel, "anyLevel"),
        TraceLoggingInt32(g_enableCallbacks, "enableCallbacks"));

    TraceLoggingWriteActivity(g_hWinPortProvider, "ActivityStart", &g_activityId, &g_parentActivityId,
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingKeyword(WP_KEYWORD_LIFECYCLE),
        TraceLoggingOpcode(WINEVENT_OPCODE_START));
    TraceLoggingWriteEx(g_hWinPortProvider, "ActivityStop", 0, 0, &g_activityId, NULL,
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingKeyword(WP_KEYWORD_LIFECYCLE),
        TraceLoggingOpcode(WINEVENT_OPCODE_STOP));

    TraceLoggingWrite(g_hWinPortTelemetry, "Usage",
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingKeyword(MICROSOFT_KEYWORD_MEASURES),
        TelemetryPrivacyDataTag(PDT_ProductAndServiceUsage),
        TraceLoggingWideString(L"feature", "name"));

#ifdef __cplusplus
    LogTemplateGlobal(8);
    LogTemplateValue(g_hWinPortProvider, 9.5);
#endif

    // Unregister and register again: the handle call site is registered again.
    TraceLoggingUnregister(GetSecondaryProvider());
    LogHResult(GetSecondaryProvider(), "unregistered", E_FAIL);
    (void)RegisterSecondaryProvider();
    LogHResult(GetSecondaryProvider(), "again", E_FAIL);
}

void WinPortStop(void)
{
    TraceLoggingUnregister(g_hWinPortTelemetry);
    TraceLoggingUnregister(GetSecondaryProvider());
    TraceLoggingUnregister(g_hWinPortProvider);
    LogHResult(g_hWinPortProvider, "stopped", E_FAIL);
    LogGlobalStep(99);
}
