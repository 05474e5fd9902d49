/*
initguid.h (windows-compat): included before the headers whose DEFINE_GUIDs
this source file defines (see DEFINE_GUID in windows.h of this directory):
defines INITGUID and makes DEFINE_GUID define its GUID instead of declaring it.
*/
#ifndef _included_windows_compat_initguid_h
#define _included_windows_compat_initguid_h 1

#ifndef INITGUID
#define INITGUID 1
#endif
#include "windows.h"

#undef DEFINE_GUID
#define DEFINE_GUID _WINDOWS_COMPAT_DEFINE_GUID

#endif /* _included_windows_compat_initguid_h */
