/*
 * What the dlopen/dlclose programs (dlclose_loop.c, dlunload.c) share: the
 * process's open descriptors and resident memory, sampled over the loop and
 * checked (the bound they hold the memory to), and dlsym that exits on a
 * missing symbol.
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

/* Descriptors and VmRSS at round 10 (the last round, if there are fewer)
   and at the last round of a load/unload loop. */
struct h_growth {
    int fds_first, fds_last;
    long rss_first, rss_last;
};
#define H_GROWTH_INIT { -1, -1, -1, -1 }

/* Samples at the end of round `round` of `loops`. */
static inline void h_growth_sample(struct h_growth* g, int round, int loops)
{
    if (round == 9 || (round == loops - 1 && g->fds_first < 0)) {
        g->fds_first = h_count_fds();
        g->rss_first = h_rss_kib();
    }
    if (round == loops - 1) {
        g->fds_last = h_count_fds();
        g->rss_last = h_rss_kib();
    }
}

/* Prints the samples, then checks that the descriptors did not grow and
   VmRSS stayed within the bound. */
static inline void h_growth_check(struct h_growth const* g, int loops)
{
    printf("rounds %d fds %d %d rss_kib %ld %ld\n", loops, g->fds_first, g->fds_last,
           g->rss_first, g->rss_last);
    CHECK_EQ_INT(g->fds_first, g->fds_last);
    h_check_rss(g->rss_first, g->rss_last);
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
