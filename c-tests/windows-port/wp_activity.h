/*
The porting suite's activity component: Windows C++ code that logs activities
with <TraceLoggingActivity.h> (wp_activity.cpp), calling C code that logs with
TraceLoggingWrite while the thread is in an activity (wp_activity_c.c). It is
run by the suite's driver, wp_harness.c, through the functions of
wp_component.h. What it writes is listed, in order, in main.rs.
*/
#pragma once

#include <windows.h>
#include <winmeta.h>
#include <TraceLoggingProvider.h>

TRACELOGGING_DECLARE_PROVIDER(g_hActivityProvider);

#define WPA_KEYWORD_WORK 0x10

#ifdef __cplusplus
extern "C" {
#endif

/* wp_activity_c.c: the event "FromC" (worker, step), in the thread's activity. */
void WpaLogFromC(int worker, int step);

#ifdef __cplusplus
}
#endif
