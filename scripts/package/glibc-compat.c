/*
 * Linked into the eventheader tool by scripts/package/zig-cargo.sh: the two
 * functions Rust's standard library calls that glibc 2.17 lacks (gettid from
 * 2.30, getrandom from 2.25), as their system calls, which is what the
 * standard library falls back to where glibc lacks them. zig's glibc 2.17
 * stubs define them only at their later version, which the linker rejects.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

pid_t gettid(void);
ssize_t getrandom(void *buf, size_t len, unsigned int flags);

pid_t gettid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    return (ssize_t)syscall(SYS_getrandom, buf, len, flags);
}
