/*
 * tracefs_enable(tracepoint): enables a user_events tracepoint through
 * tracefs (events/user_events/<name>/enable, needs root), so that the
 * benchmark's events have a listener. Returns 0, or 1 after printing why not.
 * Shared by bench.c and floor.c.
 */
#ifndef BENCHES_TRACEFS_H
#define BENCHES_TRACEFS_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int tracefs_enable(char const* tracepoint)
{
    char path[512];
    snprintf(path, sizeof path, "/sys/kernel/tracing/events/user_events/%s/enable", tracepoint);
    FILE* f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    int bad = fputs("1\n", f) < 0;
    bad |= fclose(f) != 0;
    if (bad) {
        fprintf(stderr, "cannot enable %s\n", tracepoint);
    }
    return bad;
}

#endif /* BENCHES_TRACEFS_H */
