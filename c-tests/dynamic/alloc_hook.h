/*
Allocation hook for the dynamic-event tests: this program's own malloc and
realloc, which the library (and libc, libstdc++) call instead of glibc's,
because a program's definitions come first in the dynamic linker's lookup.
They count calls and, while g_alloc_fail is set, fail with ENOMEM; otherwise
they forward to glibc's allocator (__libc_malloc, __libc_realloc; free stays
glibc's).

Why a hook and not RLIMIT_AS: it makes exactly the allocations of one call
fail, whatever else the process has mapped, so the test can check that call's
errno and that the next call works again; it counts allocations (the "no
allocation once warm" test); and it is deterministic, where an address-space
limit depends on what the loader, libc and the capture file have mapped.

Include in exactly one translation unit of a program. Not for sanitizer
builds (ASan and valgrind replace malloc themselves).
*/
#ifndef DYN_ALLOC_HOOK_H
#define DYN_ALLOC_HOOK_H

#include <errno.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void* __libc_malloc(size_t size);
void* __libc_realloc(void* ptr, size_t size);

/* Non-zero: every malloc and realloc fails with ENOMEM. */
static int g_alloc_fail;
/* malloc and realloc calls so far (all threads). */
static unsigned long g_alloc_calls;
/* The largest size a malloc or realloc asked for so far. */
static size_t g_alloc_largest;

static inline void alloc_note(size_t size)
{
    size_t seen = __atomic_load_n(&g_alloc_largest, __ATOMIC_RELAXED);
    while (size > seen &&
           !__atomic_compare_exchange_n(&g_alloc_largest, &seen, size, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

void* malloc(size_t size)
{
    __atomic_fetch_add(&g_alloc_calls, 1, __ATOMIC_RELAXED);
    alloc_note(size);
    if (__atomic_load_n(&g_alloc_fail, __ATOMIC_RELAXED)) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(size);
}

void* realloc(void* ptr, size_t size)
{
    __atomic_fetch_add(&g_alloc_calls, 1, __ATOMIC_RELAXED);
    alloc_note(size);
    if (__atomic_load_n(&g_alloc_fail, __ATOMIC_RELAXED)) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(ptr, size);
}

static inline void alloc_fail(int on)
{
    __atomic_store_n(&g_alloc_fail, on, __ATOMIC_RELAXED);
}

/* The largest size asked for since the last call, which starts over. */
static inline size_t alloc_largest_since(void)
{
    return __atomic_exchange_n(&g_alloc_largest, 0, __ATOMIC_RELAXED);
}

static inline unsigned long alloc_calls(void)
{
    return __atomic_load_n(&g_alloc_calls, __ATOMIC_RELAXED);
}

#ifdef __cplusplus
}
#endif

#endif /* DYN_ALLOC_HOOK_H */
