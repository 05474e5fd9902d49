/*
The porting suite: TraceLogging code written as it is written for Windows
(ETW), compiled on Linux with only the include path changed
(-I include/windows-compat -I include), in C and as C++.

wp_component.h is the component's shared header: provider declarations,
keywords, helpers that take a provider handle, and inline helpers (and, in
C++, templates) used by both translation units, wp_main.c and wp_helpers.c.
wp_harness.c is the Linux test driver around it. What the component writes is
listed, in order, in tests/windows_port.rs.
*/
#pragma once

#include <windows.h>
#include <winmeta.h>
#include <winternl.h>
#include <TraceLoggingProvider.h>

TRACELOGGING_DECLARE_PROVIDER(g_hWinPortProvider);
TRACELOGGING_DECLARE_PROVIDER(g_hWinPortTelemetry);

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
TraceLoggingHProvider GetSecondaryProvider(void);
HRESULT RegisterSecondaryProvider(void);
void LogHResult(TraceLoggingHProvider hProvider, char const* operation, HRESULT hr);
void LogStatusDetails(TraceLoggingHProvider hProvider);
void HelpersRun(void);
extern LONG g_enableCallbacks;

/* wp_main.c */
HRESULT WinPortStart(UCHAR level, ULONGLONG keyword);
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
WP_INLINE void LogStep(TraceLoggingHProvider hProvider, int step)
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
