/*
windows.h (windows-compat): the Windows types and constants that TraceLogging
code written for Windows commonly uses, for compiling it on Linux unchanged:
add -I<prefix>/include/windows-compat (after -I<prefix>/include) and the
Windows sources' #include <windows.h>, <winmeta.h>, <evntprov.h>,
<winternl.h>, <MicrosoftTelemetry.h> and <TraceLoggingProvider.h> find these
headers. This is not a Windows API: no functions, only the data types and
constants TraceLogging code passes to the TraceLogging macros.

Every type is defined only if the program has not defined it already. The
program says so with the Windows header's own guard macro, defined together
with its definition (as the Windows SDK headers do):
    GUID_DEFINED        GUID, LPGUID, LPCGUID, REFGUID
    _FILETIME_          FILETIME, PFILETIME, LPFILETIME
    _SYSTEMTIME_        SYSTEMTIME, PSYSTEMTIME, LPSYSTEMTIME
    SID_DEFINED         SID_IDENTIFIER_AUTHORITY, SID, PSID
    _HRESULT_DEFINED    HRESULT
    _NTSTATUS_DEFINED   NTSTATUS
    _WINDOWS_COMPAT_BASIC_TYPES   the integer and pointer typedefs below
The same guards tell TraceLoggingProvider.h which Windows types exist (for
TraceLoggingValue, TraceLoggingProviderId and the GUID structure forms of
TraceLoggingGuid), so include this header (or define the types) before it.

Sizes are the Windows ones (LONG, ULONG, DWORD, HRESULT, NTSTATUS: 32 bits),
except WCHAR, which is wchar_t (32 bits on Linux) so that L"..." literals keep
working; TraceLogging's wide-string macros follow wchar_t's size.
*/
#ifndef _included_windows_compat_windows_h
#define _included_windows_compat_windows_h 1

#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

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
#endif

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

/* Calling conventions and related decorations mean nothing on Linux. */
#ifndef WINAPI
#define WINAPI
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
