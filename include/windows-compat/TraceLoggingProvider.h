/*
TraceLoggingProvider.h (windows-compat): for TraceLogging code ported from
Windows, which includes <TraceLoggingProvider.h>. Declares the Windows types
first (windows.h, evntprov.h of this directory), so that TraceLoggingValue,
TraceLoggingProviderId and the GUID forms of TraceLoggingGuid know GUID,
FILETIME and SYSTEMTIME, then includes the real header,
<eventheader/TraceLoggingProvider.h> (the include path must also name the
directory above this one).
*/
#ifndef _included_windows_compat_TraceLoggingProvider_h
#define _included_windows_compat_TraceLoggingProvider_h 1

#include "windows.h"
#include "evntprov.h"
#include <eventheader/TraceLoggingProvider.h>

#endif /* _included_windows_compat_TraceLoggingProvider_h */
