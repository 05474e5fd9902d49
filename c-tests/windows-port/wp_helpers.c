/* The component's providers and its helpers (see wp_component.h). */
#include <initguid.h> // this file defines the component's DEFINE_GUIDs
#include "wp_component.h"
#include <evntprov.h>
#include <MicrosoftTelemetry.h>
#include <stdarg.h>
#include <stdio.h>

// {3c8d5a31-1f27-5c4e-9d4b-7a10225e6f81}, in provider group {1d3b1c9e-8a42-4f61-a509-33217c4590ee}
TRACELOGGING_DEFINE_PROVIDER(
    g_hWinPortProvider,
    "WinPort",
    (0x3c8d5a31, 0x1f27, 0x5c4e, 0x9d, 0x4b, 0x7a, 0x10, 0x22, 0x5e, 0x6f, 0x81),
    TraceLoggingOptionGroup(0x1d3b1c9e, 0x8a42, 0x4f61, 0xa5, 0x09, 0x33, 0x21, 0x7c, 0x45, 0x90, 0xee));

// A provider whose storage is defined separately and reached only through a handle.
TRACELOGGING_DEFINE_PROVIDER_STORAGE(
    g_secondaryStorage,
    "WinPortSecondary",
    (0x52e0c3a7, 0x6b19, 0x5d02, 0x8e, 0x61, 0x0c, 0x4d, 0x93, 0x2a, 0x17, 0xb6));

TRACELOGGING_DEFINE_PROVIDER(
    g_hWinPortTelemetry,
    "WinPortTelemetry",
    (0x7f1e2d3c, 0x4b5a, 0x5968, 0x87, 0x76, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0),
    TraceLoggingOptionMicrosoftTelemetry());

LONG g_enableCallbacks;

static void NTAPI SecondaryEnableCallback(
    _In_ LPCGUID sourceId,
    ULONG isEnabled,
    UCHAR level,
    ULONGLONG matchAnyKeyword,
    ULONGLONG matchAllKeyword,
    _In_opt_ PEVENT_FILTER_DESCRIPTOR filterData,
    _Inout_opt_ PVOID callbackContext)
{
    UNREFERENCED_PARAMETER(sourceId);
    UNREFERENCED_PARAMETER(isEnabled);
    UNREFERENCED_PARAMETER(level);
    UNREFERENCED_PARAMETER(matchAnyKeyword);
    UNREFERENCED_PARAMETER(matchAllKeyword);
    UNREFERENCED_PARAMETER(filterData);
    *(LONG*)callbackContext += 1;
}

TraceLoggingHProvider GetSecondaryProvider(void)
{
    return &g_secondaryStorage;
}

HRESULT RegisterSecondaryProvider(void)
{
    return TraceLoggingRegisterEx(GetSecondaryProvider(), SecondaryEnableCallback, &g_enableCallbacks);
}

_Use_decl_annotations_
void LogHResult(TraceLoggingHProvider hProvider, char const* operation, HRESULT hr)
{
    if (FAILED(hr)) {
        TraceLoggingWrite(hProvider, "OperationFailed",
            TraceLoggingLevel(WINEVENT_LEVEL_ERROR),
            TraceLoggingKeyword(WP_KEYWORD_OPS),
            TraceLoggingString(operation, "operation"),
            TraceLoggingHResult(hr, "hr"));
    } else {
        TraceLoggingWrite(hProvider, "OperationSucceeded",
            TraceLoggingLevel(WINEVENT_LEVEL_INFO),
            TraceLoggingKeyword(WP_KEYWORD_OPS),
            TraceLoggingString(operation, "operation"),
            TraceLoggingHResult(hr, "hr"));
    }
}

void LogStatusDetails(TraceLoggingHProvider hProvider)
{
    // S-1-5-21-1004-1005: revision 1, 2 sub-authorities, NT authority 5.
    static BYTE const sidBytes[16] = { 1, 2, 0, 0, 0, 0, 0, 5, 0x15, 0, 0, 0, 0xec, 0x03, 0, 0 };
    // sockaddr_in: AF_INET (2), port 443, 192.0.2.7.
    static BYTE const peer[8] = { 2, 0, 0x01, 0xbb, 192, 0, 2, 7 };
    CHAR ansiText[] = "ansi text";
    WCHAR wideText[] = L"wide text";
    BYTE blobBytes[3] = { 0xde, 0xad, 0x01 };
    ANSI_STRING ansi;
    UNICODE_STRING unicode;
    WP_BLOB blob;
    ansi.Length = 9;
    ansi.MaximumLength = sizeof(ansiText);
    ansi.Buffer = ansiText;
    unicode.Length = 9 * sizeof(WCHAR);
    unicode.MaximumLength = sizeof(wideText);
    unicode.Buffer = wideText;
    blob.Length = sizeof(blobBytes);
    blob.Buffer = blobBytes;

    TraceLoggingWrite(hProvider, "Details",
        TraceLoggingLevel(WINEVENT_LEVEL_WARNING),
        TraceLoggingKeyword(WP_KEYWORD_OPS),
        TraceLoggingWinError(ERROR_ACCESS_DENIED, "win32"),
        TraceLoggingNTStatus(STATUS_ACCESS_VIOLATION, "status"),
        TraceLoggingTid(4321, "tid"),
        TraceLoggingCodePointer((void const*)(UINT_PTR)0x401000, "code"),
        TraceLoggingSid(sidBytes, "sid"),
        TraceLoggingSocketAddress(peer, sizeof(peer), "peer"),
        TraceLoggingAnsiString(&ansi, "ansi"),
        TraceLoggingUnicodeString(&unicode, "unicode"),
        TraceLoggingBinaryBuffer(&blob, WP_BLOB, "blob"));
}

_Use_decl_annotations_
SIZE_T __cdecl CopyName(PTSTR name, SIZE_T cchName, PCTSTR source)
{
    SIZE_T n = 0;
    if (source == NULL) {
        source = TEXT("(none)");
    }
    while (n + 1 < cchName && source[n] != 0) {
        name[n] = source[n];
        n += 1;
    }
    name[n] = 0;
    return n;
}

/* Adds the bytes; FALSE for an empty buffer. */
_Check_return_ _Success_(return != FALSE)
static BOOL SumBytes(_In_reads_bytes_(cbData) BYTE const* data, _In_ SIZE_T cbData, _Out_ ULONG* sum)
{
    SIZE_T i;
    *sum = 0;
    for (i = 0; i != cbData; i += 1) {
        *sum += data[i];
    }
    return cbData != 0;
}

_Use_decl_annotations_
void __cdecl LogResource(HANDLE handle, PCTSTR name, BYTE const* data, SIZE_T cbData)
{
    TCHAR shortName[8];
    SIZE_T const cchName = CopyName(shortName, sizeof(shortName) / sizeof(shortName[0]), name);
    ULONG sum;
    if (!SumBytes(data, cbData, &sum)) {
        sum = 0;
    }
    TraceLoggingWrite(g_hWinPortProvider, "Resource",
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingKeyword(WP_KEYWORD_STORAGE),
        TraceLoggingGuid(WP_COMPONENT_ID, "component"),
        TraceLoggingPointer(handle, "handle"),
        TraceLoggingValue(shortName, "name"),
        TraceLoggingValue(cchName, "nameLength"),
        TraceLoggingValue(cbData, "size"),
        TraceLoggingULong(sum, "sum"));
}

_Use_decl_annotations_
void __cdecl LogFormatted(char const* format, ...)
{
    char text[32];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    TraceLoggingWrite(g_hWinPortProvider, "Formatted",
        TraceLoggingLevel(WINEVENT_LEVEL_VERBOSE),
        TraceLoggingString(text, "text"));
}

/* The second translation unit's writes: inline helpers, an ordinary write to
   the same provider, templates (C++). */
void HelpersRun(void)
{
    LogStep(GetSecondaryProvider(), 3);
    LogGlobalStep(4);
    TraceLoggingWrite(g_hWinPortProvider, "HelperDirect",
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingInt32(5, "step"));
#ifdef __cplusplus
    LogTemplateGlobal(6);
    LogTemplateValue(GetSecondaryProvider(), 7u);
#endif
}
