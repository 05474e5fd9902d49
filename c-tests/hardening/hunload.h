/*
 * What the dlopen/dlclose programs (dlclose_loop.c, dlunload.c) share: the
 * process's open descriptors and resident memory, the bound they hold the
 * memory to, and dlsym that exits on a missing symbol.
 *
 * Memory bound: from round 10 to the last, VmRSS may grow by at most
 * HARDENING_RSS_SLACK_KIB (default 1024). Under ASan and valgrind
 * (HARDENING_RSS_UNCHECKED=1, set by `testkit sanitize`) it is not checked:
 * their allocators hold freed memory, and they report leaks themselves.
 */
#ifndef HARDENING_HUNLOAD_H
#define HARDENING_HUNLOAD_H

#include "hcommon.h"

#include <dirent.h>
#include <dlfcn.h>

/* The number of open descriptors (entries of /proc/self/fd). */
static inline int h_count_fds(void)
{
    DIR* dir = opendir("/proc/self/fd");
    CHECK(dir != NULL);
    int n = 0;
    while (readdir(dir) != NULL) {
        n += 1;
    }
    closedir(dir);
    return n;
}

/* VmRSS in KiB. */
static inline long h_rss_kib(void)
{
    FILE* f = fopen("/proc/self/status", "r");
    CHECK(f != NULL);
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kib = atol(line + 6);
        }
    }
    fclose(f);
    return kib;
}

/* Checks that VmRSS grew from `first` to `last` KiB by at most the slack. */
static inline void h_check_rss(long first, long last)
{
    if (getenv("HARDENING_RSS_UNCHECKED") != NULL) {
        return;
    }
    char const* slack_env = getenv("HARDENING_RSS_SLACK_KIB");
    long const slack = slack_env != NULL ? atol(slack_env) : 1024;
    CHECK(last - first <= slack);
}

/* dlsym, or exit(1) with dlerror(). */
static inline void* h_must_sym(void* lib, char const* name)
{
    void* sym = dlsym(lib, name);
    if (sym == NULL) {
        fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
        exit(1);
    }
    return sym;
}

#endif /* HARDENING_HUNLOAD_H */
