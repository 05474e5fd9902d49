/*
Linux test driver of the porting suite (not part of the ported code).

    wp_test    run the component once (capture mode: set TRACEPOINT_CAPTURE_FILE)

With EHK_READY_FILE and EHK_GO_FILE set (the real-kernel suite's
IdentityAfterRegistration runs): register, create EHK_READY_FILE, wait (up to
120 s) until EHK_GO_FILE exists, then run, so that perf can attach to the
tracepoints the registration created before the first write.

Exit status 0, or 1 if registration failed or the component misbehaved.
*/
#define _POSIX_C_SOURCE 200809L
#include "wp_component.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* Creates `ready`, then waits until `go` exists; 0, or 1 after 120 s. */
static int WaitForGo(char const* ready, char const* go)
{
    FILE* f = fopen(ready, "w");
    if (f == NULL) {
        perror(ready);
        return 1;
    }
    fputs("ready\n", f);
    fclose(f);
    for (int i = 0; access(go, F_OK) != 0; i += 1) {
        if (i == 1200) {
            fprintf(stderr, "wp_test: no %s after 120 s\n", go);
            return 1;
        }
        struct timespec const tick = { 0, 100 * 1000 * 1000 };
        nanosleep(&tick, NULL);
    }
    return 0;
}

int __cdecl main(int argc, char** argv)
{
    UNREFERENCED_PARAMETER(argv);
    char const* ready = getenv("EHK_READY_FILE");
    char const* go = getenv("EHK_GO_FILE");
    /* Level and keyword known only at run time (TraceLoggingProviderEnabled with
       non-constant arguments): INFO and LIFECYCLE, computed from argc so that the
       compiler cannot treat them as constants. */
    UCHAR level = (UCHAR)(argc > 0 ? WINEVENT_LEVEL_INFO : 0);
    ULONGLONG keyword = (ULONGLONG)(argc > 0 ? WP_KEYWORD_LIFECYCLE : 0);
    if (argc != 1) {
        fprintf(stderr, "usage: wp_test\n");
        return 2;
    }
    HRESULT hr = WinPortStart(level, keyword);
    if (hr != 0) {
        fprintf(stderr, "wp_test: registration failed: %d\n", (int)hr);
        return 1;
    }
    if (ready != NULL && go != NULL && WaitForGo(ready, go) != 0) {
        return 1;
    }
    WinPortRun(level, keyword);
    WinPortStop();
    return 0;
}
