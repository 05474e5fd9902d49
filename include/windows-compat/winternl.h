/*
winternl.h (windows-compat): the counted string structures that
TraceLoggingAnsiString and TraceLoggingUnicodeString take (see windows.h in
this directory). Length and MaximumLength count bytes; UNICODE_STRING's Buffer
holds WCHAR (wchar_t) characters. Defined unless _WINDOWS_COMPAT_NT_STRINGS is.
*/
#ifndef _included_windows_compat_winternl_h
#define _included_windows_compat_winternl_h 1

#include "windows.h"

#ifndef _WINDOWS_COMPAT_NT_STRINGS
#define _WINDOWS_COMPAT_NT_STRINGS 1
typedef struct _STRING {
    USHORT Length;
    USHORT MaximumLength;
    CHAR* Buffer;
} STRING, *PSTRING, ANSI_STRING, *PANSI_STRING, OEM_STRING, *POEM_STRING;
typedef STRING const* PCSTRING;
typedef ANSI_STRING const* PCANSI_STRING;
typedef OEM_STRING const* PCOEM_STRING;
typedef struct _UNICODE_STRING {
    USHORT Length;
    USHORT MaximumLength;
    WCHAR* Buffer;
} UNICODE_STRING, *PUNICODE_STRING;
typedef UNICODE_STRING const* PCUNICODE_STRING;
#endif

#endif /* _included_windows_compat_winternl_h */
