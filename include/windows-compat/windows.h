/*
windows.h (windows-compat): the Windows types and constants that TraceLogging
code written for Windows commonly uses, for compiling it on Linux unchanged:
add -I<prefix>/include/windows-compat (after -I<prefix>/include) and the
Windows sources' #include <windows.h>, <winmeta.h>, <evntprov.h>,
<winternl.h>, <MicrosoftTelemetry.h> and <TraceLoggingProvider.h> find these
headers. This is not a Windows API: no functions (but evntprov.h's
EventActivityIdControl), only the data types and constants TraceLogging code
passes to the TraceLogging macros.

Every type is defined only if the program has not defined it already. The
program says so with the Windows header's own guard macro, defined together
with its definition (as the Windows SDK headers do):
    GUID_DEFINED        GUID, LPGUID, LPCGUID, REFGUID
    _FILETIME_          FILETIME, PFILETIME, LPFILETIME
    _SYSTEMTIME_        SYSTEMTIME, PSYSTEMTIME, LPSYSTEMTIME
    SID_DEFINED         SID_IDENTIFIER_AUTHORITY, SID, PSID
    _HRESULT_DEFINED    HRESULT
    _NTSTATUS_DEFINED   NTSTATUS
    _TCHAR_DEFINED      TCHAR (WCHAR if UNICODE is defined, else CHAR), PTSTR,
                        LPTSTR, PCTSTR, LPCTSTR
    _WINDOWS_COMPAT_BASIC_TYPES   the integer, pointer and handle typedefs below
                        (also HANDLE, PHANDLE, SIZE_T, PSIZE_T, SSIZE_T)
The same guards tell TraceLoggingProvider.h which Windows types exist (for
TraceLoggingValue, TraceLoggingProviderId and the GUID structure forms of
TraceLoggingGuid), so include this header (or define the types) before it.

Sizes are the Windows ones (LONG, ULONG, DWORD, HRESULT, NTSTATUS: 32 bits),
except WCHAR, which is wchar_t (32 bits on Linux) so that L"..." literals keep
working; TraceLogging's wide-string macros follow wchar_t's size. SIZE_T is
pointer-sized (64 bits on LP64), as on 64-bit Windows.

Also here, each defined only if not defined already: the calling-convention
keywords (__cdecl, __stdcall, WINAPI, WINAPIV, APIENTRY, NTAPI, CALLBACK: empty
on Linux), EXTERN_C, the SAL annotations (sal.h of this directory: _In_,
_Out_, _In_opt_, _In_reads_(n), _Printf_format_string_, ...), TEXT("...")
(L"..." if UNICODE is defined), UNREFERENCED_PARAMETER(P) and its DBG_
forms, INVALID_HANDLE_VALUE, and DEFINE_GUID(name, l, w1, w2, b1, ..., b8),
which declares the constant GUID name, or defines it where INITGUID is defined
(as <initguid.h> of this directory does) before this header.
*/
#ifndef _included_windows_compat_windows_h
#define _included_windows_compat_windows_h 1

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>
#include "sal.h"

#ifndef _WINDOWS_COMPAT_BASIC_TYPES
#define _WINDOWS_COMPAT_BASIC_TYPES 1
typedef int8_t INT8;
typedef uint8_t UINT8;
typedef int16_t INT16;
typedef uint16_t UINT16;
typedef int32_t INT32;
typedef uint32_t UINT32;
typedef int64_t INT64;
typedef uint64_t UINT64;
typedef intptr_t INT_PTR;
typedef uintptr_t UINT_PTR;
typedef intptr_t LONG_PTR;
typedef uintptr_t ULONG_PTR;
typedef uint8_t BYTE;
typedef uint8_t UCHAR;
typedef uint8_t BOOLEAN;
typedef uint16_t WORD;
typedef uint16_t USHORT;
typedef int32_t INT;
typedef uint32_t UINT;
typedef int32_t LONG;
typedef uint32_t ULONG;
typedef uint32_t DWORD;
typedef int32_t BOOL;
typedef int64_t LONGLONG;
typedef uint64_t ULONGLONG;
typedef uint64_t ULONG64;
typedef uint64_t DWORD64;
typedef char CHAR;
typedef wchar_t WCHAR;
typedef CHAR* PSTR;
typedef CHAR* LPSTR;
typedef CHAR const* PCSTR;
typedef CHAR const* LPCSTR;
typedef WCHAR* PWSTR;
typedef WCHAR* LPWSTR;
typedef WCHAR const* PCWSTR;
typedef WCHAR const* LPCWSTR;
typedef void VOID;
typedef void* PVOID;
typedef void* LPVOID;
typedef void const* LPCVOID;
typedef void* HANDLE;
typedef HANDLE* PHANDLE;
typedef uintptr_t SIZE_T;
typedef SIZE_T* PSIZE_T;
typedef intptr_t SSIZE_T;
#endif

#ifndef INVALID_HANDLE_VALUE
#define INVALID_HANDLE_VALUE ((HANDLE)(intptr_t)-1)
#endif

/* Generic text: TCHAR and TEXT("...") are wide where UNICODE is defined. */
#ifndef _TCHAR_DEFINED
#define _TCHAR_DEFINED 1
#ifdef UNICODE
typedef WCHAR TCHAR;
#else
typedef CHAR TCHAR;
#endif
typedef TCHAR* PTSTR;
typedef TCHAR* LPTSTR;
typedef TCHAR const* PCTSTR;
typedef TCHAR const* LPCTSTR;
#endif
#ifndef TEXT
#ifdef UNICODE
#define TEXT(quote) _WINDOWS_COMPAT_WIDE(quote)
#define _WINDOWS_COMPAT_WIDE(quote) L##quote
#else
#define TEXT(quote) quote
#endif
#endif

/* Marks a parameter or variable as used (here: cast to void, so that
   -Wunused-parameter and -Wunused-value stay quiet). */
#ifndef UNREFERENCED_PARAMETER
#define UNREFERENCED_PARAMETER(P) ((void)(P))
#endif
#ifndef DBG_UNREFERENCED_PARAMETER
#define DBG_UNREFERENCED_PARAMETER(P) ((void)(P))
#endif
#ifndef DBG_UNREFERENCED_LOCAL_VARIABLE
#define DBG_UNREFERENCED_LOCAL_VARIABLE(V) ((void)(V))
#endif

#ifndef EXTERN_C
#ifdef __cplusplus
#define EXTERN_C extern "C"
#else
#define EXTERN_C extern
#endif
#endif

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

/* Calling conventions and related decorations mean nothing on Linux. */
#ifndef __cdecl
#define __cdecl
#endif
#ifndef __stdcall
#define __stdcall
#endif
#ifndef WINAPI
#define WINAPI
#endif
#ifndef WINAPIV
#define WINAPIV
#endif
#ifndef APIENTRY
#define APIENTRY
#endif
#ifndef NTAPI
#define NTAPI
#endif
#ifndef CALLBACK
#define CALLBACK
#endif

#ifndef GUID_DEFINED
#define GUID_DEFINED 1
typedef struct _GUID {
    uint32_t Data1;
    uint16_t Data2;
    uint16_t Data3;
    uint8_t Data4[8];
} GUID;
typedef GUID* LPGUID;
typedef GUID const* LPCGUID;
#ifdef __cplusplus
typedef GUID const& REFGUID;
#else
typedef GUID const* REFGUID;
#endif
#endif

/*
DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8): the GUID
constant name, {l, w1, w2, {b1, ..., b8}}. Declared (extern) by default; defined
where INITGUID is defined, usually by including <initguid.h> before the
header with the DEFINE_GUIDs in one source file. A weak definition, so that
several files may define the same GUID (as Windows' selectany definition).
*/
#ifndef DEFINE_GUID
#ifdef INITGUID
#define DEFINE_GUID _WINDOWS_COMPAT_DEFINE_GUID
#else
#define DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) EXTERN_C GUID const name
#endif
#endif
#ifdef __cplusplus
#define _WINDOWS_COMPAT_GUID_LINKAGE extern "C"
#else
#define _WINDOWS_COMPAT_GUID_LINKAGE
#endif
#define _WINDOWS_COMPAT_DEFINE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
    _WINDOWS_COMPAT_GUID_LINKAGE GUID const name __attribute__((weak)) = \
        { l, w1, w2, { b1, b2, b3, b4, b5, b6, b7, b8 } }

#ifndef _FILETIME_
#define _FILETIME_ 1
/* 100-nanosecond intervals since 1601-01-01 (UTC, unless a "local" FILETIME). */
typedef struct _FILETIME {
    uint32_t dwLowDateTime;
    uint32_t dwHighDateTime;
} FILETIME, *PFILETIME, *LPFILETIME;
#endif

#ifndef _SYSTEMTIME_
#define _SYSTEMTIME_ 1
typedef struct _SYSTEMTIME {
    uint16_t wYear;
    uint16_t wMonth;
    uint16_t wDayOfWeek;
    uint16_t wDay;
    uint16_t wHour;
    uint16_t wMinute;
    uint16_t wSecond;
    uint16_t wMilliseconds;
} SYSTEMTIME, *PSYSTEMTIME, *LPSYSTEMTIME;
#endif

#ifndef SID_DEFINED
#define SID_DEFINED 1
typedef struct _SID_IDENTIFIER_AUTHORITY {
    uint8_t Value[6];
} SID_IDENTIFIER_AUTHORITY;
/* Variable length: 8 bytes + SubAuthorityCount 32-bit sub-authorities. */
typedef struct _SID {
    uint8_t Revision;
    uint8_t SubAuthorityCount;
    SID_IDENTIFIER_AUTHORITY IdentifierAuthority;
    uint32_t SubAuthority[1];
} SID;
typedef void* PSID;
#endif

#ifndef _HRESULT_DEFINED
#define _HRESULT_DEFINED 1
typedef int32_t HRESULT;
#endif
#ifndef SUCCEEDED
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#endif
#ifndef FAILED
#define FAILED(hr) (((HRESULT)(hr)) < 0)
#endif
#ifndef HRESULT_FROM_WIN32
#define HRESULT_FROM_WIN32(x) \
    ((HRESULT)(x) <= 0 ? (HRESULT)(x) : (HRESULT)(((uint32_t)(x) & 0x0000FFFFu) | 0x80070000u))
#endif
#ifndef S_OK
#define S_OK ((HRESULT)0)
#define S_FALSE ((HRESULT)1)
#define E_NOTIMPL ((HRESULT)0x80004001)
#define E_POINTER ((HRESULT)0x80004003)
#define E_ABORT ((HRESULT)0x80004004)
#define E_FAIL ((HRESULT)0x80004005)
#define E_UNEXPECTED ((HRESULT)0x8000FFFF)
#define E_ACCESSDENIED ((HRESULT)0x80070005)
#define E_OUTOFMEMORY ((HRESULT)0x8007000E)
#define E_INVALIDARG ((HRESULT)0x80070057)
#endif

#ifndef ERROR_SUCCESS
#define ERROR_SUCCESS 0
#define ERROR_FILE_NOT_FOUND 2
#define ERROR_PATH_NOT_FOUND 3
#define ERROR_ACCESS_DENIED 5
#define ERROR_INVALID_HANDLE 6
#define ERROR_NOT_ENOUGH_MEMORY 8
#define ERROR_INVALID_PARAMETER 87
#define ERROR_INSUFFICIENT_BUFFER 122
#define ERROR_ALREADY_EXISTS 183
#endif

#ifndef _NTSTATUS_DEFINED
#define _NTSTATUS_DEFINED 1
typedef int32_t NTSTATUS;
#endif
#ifndef NT_SUCCESS
#define NT_SUCCESS(status) (((NTSTATUS)(status)) >= 0)
#endif
#ifndef STATUS_SUCCESS
#define STATUS_SUCCESS ((NTSTATUS)0x00000000)
#define STATUS_UNSUCCESSFUL ((NTSTATUS)0xC0000001)
#define STATUS_ACCESS_VIOLATION ((NTSTATUS)0xC0000005)
#define STATUS_INVALID_PARAMETER ((NTSTATUS)0xC000000D)
#define STATUS_NO_MEMORY ((NTSTATUS)0xC0000017)
#define STATUS_ACCESS_DENIED ((NTSTATUS)0xC0000022)
#endif

#endif /* _included_windows_compat_windows_h */
