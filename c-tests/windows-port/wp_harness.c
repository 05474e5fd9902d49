/*
Linux test driver of the porting suite (not part of the ported code).

    wp_test                    run the component once (capture mode: set TRACEPOINT_CAPTURE_FILE)
    wp_test kernel READY GO    register, create READY, wait (up to 120 s) until GO exists, run:
                               for recording with perf between registration and the first write
    wp_test names CAPTURE      print the distinct tracepoint names of a capture file, in order

Exit status 0, or 1 if registration failed or the component misbehaved.
*/
#define _POSIX_C_SOURCE 200809L
#include "wp_component.h"
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The distinct tracepoint names of a capture file (u32 size, name, NUL, event). */
static int PrintNames(char const* path)
{
    static char names[64][256];
    unsigned count = 0;
    unsigned char record[65536 + 512];
    FILE* f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    for (;;) {
        uint32_t size;
        if (fread(&size, sizeof(size), 1, f) != 1) {
            break;
        }
        if (size < 6 || size - 4 > sizeof(record) || fread(record, size - 4, 1, f) != 1 ||
            memchr(record, 0, size - 4) == NULL || strlen((char*)record) >= sizeof(names[0])) {
            fprintf(stderr, "%s: malformed record\n", path);
            fclose(f);
            return 1;
        }
        unsigned i = 0;
        while (i != count && strcmp(names[i], (char*)record) != 0) {
            i += 1;
        }
        if (i == count) {
            if (count == sizeof(names) / sizeof(names[0])) {
                fprintf(stderr, "%s: too many tracepoint names\n", path);
                fclose(f);
                return 1;
            }
            strcpy(names[count++], (char*)record);
            puts((char*)record);
        }
    }
    fclose(f);
    return 0;
}

int main(int argc, char** argv)
{
    if (argc == 3 && strcmp(argv[1], "names") == 0) {
        return PrintNames(argv[2]);
    }
    /* Level and keyword known only at run time (TraceLoggingProviderEnabled with
       non-constant arguments): INFO and LIFECYCLE unless the environment says otherwise. */
    UCHAR level = (UCHAR)(argc > 0 ? WINEVENT_LEVEL_INFO : 0);
    ULONGLONG keyword = (ULONGLONG)(argc > 0 ? WP_KEYWORD_LIFECYCLE : 0);
    HRESULT hr = WinPortStart(level, keyword);
    if (hr != 0) {
        fprintf(stderr, "wp_test: registration failed: %d\n", (int)hr);
        return 1;
    }
    if (argc == 4 && strcmp(argv[1], "kernel") == 0) {
        FILE* ready = fopen(argv[2], "w");
        if (ready == NULL) {
            perror(argv[2]);
            return 1;
        }
        fputs("ready\n", ready);
        fclose(ready);
        for (int i = 0; access(argv[3], F_OK) != 0; i += 1) {
            if (i == 1200) {
                fprintf(stderr, "wp_test: no %s after 120 s\n", argv[3]);
                return 1;
            }
            struct timespec const tick = { 0, 100 * 1000 * 1000 };
            nanosleep(&tick, NULL);
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: wp_test [kernel READY GO]\n");
        return 2;
    }
    WinPortRun(level, keyword);
    WinPortStop();
    return 0;
}
