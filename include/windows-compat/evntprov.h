/*
evntprov.h (windows-compat): the types a TraceLoggingRegisterEx enable callback
is declared with (see windows.h in this directory). On Linux the callback is
never called: user_events has no enable notification.

Also EventActivityIdControl(ControlCode, ActivityId), as Windows declares it,
over the library's activity ids and the calling thread's activity id (the one
TraceLoggingActivity.h's thread activities set, and every TraceLogging event
the thread writes without an id of its own carries); a static inline function
of this header, so it adds nothing to the library's ABI. The controls:
    EVENT_ACTIVITY_CTRL_GET_ID         *ActivityId = the thread's id
    EVENT_ACTIVITY_CTRL_SET_ID         the thread's id = *ActivityId
    EVENT_ACTIVITY_CTRL_CREATE_ID      *ActivityId = a new id (the thread's unchanged)
    EVENT_ACTIVITY_CTRL_GET_SET_ID     swaps *ActivityId and the thread's id
    EVENT_ACTIVITY_CTRL_CREATE_SET_ID  *ActivityId = the thread's id, then the
                                       thread's id = a new id
A thread without an id reads as the zero GUID (GUID_NULL), and setting the zero
GUID leaves the thread without one, as on Windows. A new id is random (RFC 4122
version 4), never zero. Returns ERROR_SUCCESS, or ERROR_INVALID_PARAMETER (with
nothing changed) for a NULL ActivityId or an unknown ControlCode. The GUID is
the Windows structure: TraceLoggingWriteActivity(..., &guid, ...) and
TraceLoggingGuid(guid) write the same bytes as the thread's id it was read from.
This header includes <eventheader/TraceLoggingProvider.h> for it (the include
path must also name the directory above this one).
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

#ifndef EVENT_ACTIVITY_CTRL_GET_ID
#define EVENT_ACTIVITY_CTRL_GET_ID 1
#define EVENT_ACTIVITY_CTRL_SET_ID 2
#define EVENT_ACTIVITY_CTRL_CREATE_ID 3
#define EVENT_ACTIVITY_CTRL_GET_SET_ID 4
#define EVENT_ACTIVITY_CTRL_CREATE_SET_ID 5
#endif

#include <eventheader/TraceLoggingProvider.h>

/* The thread's id as a GUID: the zero GUID when it has none. (The library keeps
   ids in RFC 4122 byte order; _tlgGuidToUuid's reordering is its own inverse.) */
static inline void _tlgThreadIdGet(GUID* id) _tlgNOEXCEPT
{
    uint8_t uuid[16] = { 0 };
    (void)_eventheader_tlg_thread_activity_get(uuid);
    _tlgGuidToUuid((uint8_t*)id, uuid);
}

/* Sets the thread's id to *id (the zero GUID: none). */
static inline void _tlgThreadIdSet(GUID const* id) _tlgNOEXCEPT
{
    static uint8_t const zero[16] = { 0 };
    uint8_t uuid[16];
    _tlgGuidToUuid(uuid, id);
    _eventheader_tlg_thread_activity_set(memcmp(uuid, zero, sizeof(uuid)) != 0 ? uuid : NULL);
}

static inline ULONG EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId) _tlgNOEXCEPT
{
    GUID previous;
    uint8_t uuid[16];
    if (ActivityId == NULL) {
        return ERROR_INVALID_PARAMETER;
    }
    switch (ControlCode) {
    case EVENT_ACTIVITY_CTRL_GET_ID:
        _tlgThreadIdGet(ActivityId);
        return ERROR_SUCCESS;
    case EVENT_ACTIVITY_CTRL_SET_ID:
        _tlgThreadIdSet(ActivityId);
        return ERROR_SUCCESS;
    case EVENT_ACTIVITY_CTRL_CREATE_ID:
        _eventheader_tlg_activity_id_create(uuid);
        _tlgGuidToUuid((uint8_t*)ActivityId, uuid);
        return ERROR_SUCCESS;
    case EVENT_ACTIVITY_CTRL_GET_SET_ID:
        _tlgThreadIdGet(&previous);
        _tlgThreadIdSet(ActivityId);
        *ActivityId = previous;
        return ERROR_SUCCESS;
    case EVENT_ACTIVITY_CTRL_CREATE_SET_ID:
        _tlgThreadIdGet(&previous);
        _eventheader_tlg_activity_id_create(uuid);
        _eventheader_tlg_thread_activity_set(uuid);
        *ActivityId = previous;
        return ERROR_SUCCESS;
    default:
        return ERROR_INVALID_PARAMETER;
    }
}

#endif /* _included_windows_compat_evntprov_h */
