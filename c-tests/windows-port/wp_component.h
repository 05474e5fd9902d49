/*
The porting suite: TraceLogging code written as it is written for Windows
(ETW), compiled on Linux with only the include path changed
(-I include/windows-compat -I include), in C and as C++.

wp_component.h is the component's shared header: provider declarations,
keywords, helpers that take a provider handle, and inline helpers (and, in
C++, templates) used by both translation units, wp_main.c and wp_helpers.c.
wp_harness.c is the Linux test driver around it. What the component writes is
listed, in order, in main.rs. The component also uses the Windows
decorations such code is full of: SAL annotations, __cdecl, generic text
(TCHAR, TEXT; winport_cpp is built with UNICODE defined), HANDLE, SIZE_T,
UNREFERENCED_PARAMETER, and a GUID from DEFINE_GUID (defined in wp_helpers.c,
which includes <initguid.h> first).
*/
#pragma once

#include <windows.h>
#include <winmeta.h>
#include <winternl.h>
#include <TraceLoggingProvider.h>

TRACELOGGING_DECLARE_PROVIDER(g_hWinPortProvider);
TRACELOGGING_DECLARE_PROVIDER(g_hWinPortTelemetry);

// {a1b2c3d4-e5f6-4718-293a-4b5c6d7e8f90}
DEFINE_GUID(WP_COMPONENT_ID, 0xa1b2c3d4, 0xe5f6, 0x4718, 0x29, 0x3a, 0x4b, 0x5c, 0x6d, 0x7e, 0x8f, 0x90);

#define WP_KEYWORD_LIFECYCLE 0x1
#define WP_KEYWORD_STORAGE   0x2
#define WP_KEYWORD_OPS       0x4

typedef struct _WP_BLOB {
    ULONG Length;
    BYTE* Buffer;
} WP_BLOB;

#ifdef __cplusplus
extern "C" {
#endif

/* wp_helpers.c */
_Ret_notnull_ TraceLoggingHProvider GetSecondaryProvider(void);
_Check_return_ HRESULT RegisterSecondaryProvider(void);
void LogHResult(_In_ TraceLoggingHProvider hProvider, _In_z_ char const* operation, HRESULT hr);
void LogStatusDetails(_In_ TraceLoggingHProvider hProvider);
void HelpersRun(void);
_Success_(return < cchName) SIZE_T __cdecl CopyName(
    _Out_writes_z_(cchName) PTSTR name, _In_ SIZE_T cchName, _In_opt_z_ PCTSTR source);
void __cdecl LogResource(_In_opt_ HANDLE handle, _In_z_ PCTSTR name, _In_reads_bytes_(cbData) BYTE const* data,
    _In_ SIZE_T cbData);
void __cdecl LogFormatted(_Printf_format_string_ char const* format, ...);
extern LONG g_enableCallbacks;

/* wp_main.c */
_Check_return_ HRESULT WinPortStart(UCHAR level, ULONGLONG keyword);
void WinPortRun(UCHAR level, ULONGLONG keyword);
void WinPortStop(void);

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
#define WP_INLINE inline
#else
#define WP_INLINE static inline
#endif

/* Inline helpers: one through a handle, one through the provider symbol. */
WP_INLINE void LogStep(_In_ TraceLoggingHProvider hProvider, int step)
{
    TraceLoggingWrite(hProvider, "Step",
        TraceLoggingLevel(WINEVENT_LEVEL_VERBOSE),
        TraceLoggingKeyword(WP_KEYWORD_STORAGE),
        TraceLoggingInt32(step));
}

WP_INLINE void LogGlobalStep(int step)
{
    TraceLoggingWrite(g_hWinPortProvider, "GlobalStep",
        TraceLoggingLevel(WINEVENT_LEVEL_VERBOSE),
        TraceLoggingKeyword(WP_KEYWORD_STORAGE),
        TraceLoggingInt32(step));
}

#ifdef __cplusplus
template<class T>
void LogTemplateValue(TraceLoggingHProvider hProvider, T value)
{
    TraceLoggingWrite(hProvider, "TemplateValue", TraceLoggingValue(value, "value"));
}

template<class T>
void LogTemplateGlobal(T value)
{
    TraceLoggingWrite(g_hWinPortProvider, "TemplateGlobal",
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingValue(value, "value"));
}
#endif
