/*
evntprov.h (windows-compat): the types a TraceLoggingRegisterEx enable callback
is declared with (see windows.h in this directory). On Linux the callback is
never called: user_events has no enable notification.
*/
#ifndef _included_windows_compat_evntprov_h
#define _included_windows_compat_evntprov_h 1

#include "windows.h"

#ifndef _EVNTPROV_COMPAT_TYPES
#define _EVNTPROV_COMPAT_TYPES 1
typedef struct _EVENT_FILTER_DESCRIPTOR {
    ULONGLONG Ptr;
    ULONG Size;
    ULONG Type;
} EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;

typedef void (NTAPI* PENABLECALLBACK)(
    LPCGUID SourceId,
    ULONG IsEnabled,
    UCHAR Level,
    ULONGLONG MatchAnyKeyword,
    ULONGLONG MatchAllKeyword,
    PEVENT_FILTER_DESCRIPTOR FilterData,
    PVOID CallbackContext);
#endif

#ifndef EVENT_CONTROL_CODE_DISABLE_PROVIDER
#define EVENT_CONTROL_CODE_DISABLE_PROVIDER 0
#define EVENT_CONTROL_CODE_ENABLE_PROVIDER 1
#define EVENT_CONTROL_CODE_CAPTURE_STATE 2
#endif

#endif /* _included_windows_compat_evntprov_h */
