/* recorder.c: a test-only implementation of <tracepoint/tracepoint.h> that
 * writes down what it is handed, built on <tracepoint/tracepoint-impl.h>.
 * Linked instead of the library, it shows exactly what tracepoint-provider.h
 * hands to the tracepoint layer; linked in front of the library (the
 * reference's interceptor pattern: the tracepoint layer replaced at link
 * time), it receives every event of the library's EventHeader layer,
 * TraceLogging and runtime-defined events too. With TPP_RECORD_PREFIX=P in
 * the environment:
 *
 *   P.cmd  one line per registration, in call order: "flags<TAB>name_args",
 *          the string the kernel would receive in DIAG_IOCSREG (a connect to
 *          an open provider; connecting to a closed provider or to NULL
 *          registers nothing, as in the library);
 *   P.dat  one record per successful write, in the capture format: u32 LE
 *          size including these 4 bytes, the tracepoint name (name_args up
 *          to the first space) NUL-terminated, then the bytes of
 *          vecs[1..count], exactly as given (no padding of empty events).
 *
 * Every connected tracepoint of an open provider is enabled. The semantics
 * follow tracepoint.h's documentation: open fails with EALREADY when open and
 * resets the tracepoints connected while it was closed; open_provider_with_
 * tracepoints sorts its array by descending address, drops duplicates and
 * NULLs, then connects each entry; close disconnects the provider's
 * tracepoints and resets them; write returns EBADF unless the tracepoint is
 * enabled. tracepoint_connect2 is the library's addition: the EventHeader
 * layer does not call it. Not thread-safe (the test programs are not
 * threaded). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <tracepoint/tracepoint.h>
#include <tracepoint/tracepoint-impl.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_REGISTERED 4096

/* The name of each registration, by write index. */
static char *g_names[MAX_REGISTERED];
static int g_registered;

/* Opens P.<suffix> for appending, or exits: a recording that silently
 * records nothing would make the test compare nothing. */
static int open_record(const char *suffix)
{
    const char *prefix = getenv("TPP_RECORD_PREFIX");
    char path[4096];
    int fd;
    if (prefix == NULL || *prefix == 0) {
        fprintf(stderr, "recorder: TPP_RECORD_PREFIX is not set\n");
        exit(97);
    }
    snprintf(path, sizeof(path), "%s.%s", prefix, suffix);
    fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "recorder: cannot open %s: %s\n", path, strerror(errno));
        exit(97);
    }
    return fd;
}

static void write_all(int fd, const void *data, size_t size)
{
    const char *p = (const char *)data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n <= 0) {
            fprintf(stderr, "recorder: write failed: %s\n", strerror(errno));
            exit(97);
        }
        p += n;
        size -= (size_t)n;
    }
}

int tracepoint_open_provider(tracepoint_provider_state *provider)
{
    if (provider == NULL)
        return EINVAL;
    if (provider->data_file != -1)
        return EALREADY;
    tracepoint_open_provider_impl(provider, open_record("dat"));
    return 0;
}

void tracepoint_close_provider(tracepoint_provider_state *provider)
{
    int fd;
    if (provider == NULL)
        return;
    fd = provider->data_file;
    tracepoint_close_provider_impl(provider);
    if (fd != -1)
        close(fd);
}

int tracepoint_connect2(tracepoint_state *tp, tracepoint_provider_state *provider,
                        const char *name_args, unsigned flags)
{
    char line[32];
    int fd;
    if (tp == NULL || (provider != NULL && name_args == NULL))
        return EINVAL;
    if (provider == NULL || provider->data_file == -1) {
        tracepoint_connect_impl(tp, provider, -1);
        return 0;
    }
    if (g_registered == MAX_REGISTERED) {
        fprintf(stderr, "recorder: more than %d registrations\n", MAX_REGISTERED);
        exit(97);
    }
    g_names[g_registered] = strndup(name_args, strcspn(name_args, " "));
    if (g_names[g_registered] == NULL) {
        fprintf(stderr, "recorder: out of memory\n");
        exit(97);
    }
    fd = open_record("cmd");
    snprintf(line, sizeof(line), "%u\t", flags);
    write_all(fd, line, strlen(line));
    write_all(fd, name_args, strlen(name_args));
    write_all(fd, "\n", 1);
    close(fd);
    tracepoint_connect_impl(tp, provider, g_registered++);
    __atomic_store_n(&tp->status_word, 1u, __ATOMIC_RELAXED);
    return 0;
}

int tracepoint_connect(tracepoint_state *tp, tracepoint_provider_state *provider, const char *name_args)
{
    return tracepoint_connect2(tp, provider, name_args, 0);
}

int tracepoint_open_provider_with_tracepoints(tracepoint_provider_state *provider,
                                              const tracepoint_definition **start,
                                              const tracepoint_definition **stop)
{
    if (provider == NULL || (start == NULL) != (stop == NULL) || stop < start)
        return EINVAL;
    return tracepoint_open_provider_with_tracepoints_impl(provider, start, stop);
}

int tracepoint_write(const tracepoint_state *tp, unsigned count, struct iovec *vecs)
{
    const tracepoint_provider_state *provider;
    const char *name;
    size_t name_len, size;
    unsigned char size_le[4];
    int index;
    if (tp == NULL || count == 0 || vecs == NULL)
        return EINVAL;
    provider = tp->provider_state;
    index = tp->write_index;
    if (__atomic_load_n(&tp->status_word, __ATOMIC_RELAXED) == 0 || provider == NULL ||
        provider->data_file == -1 || index < 0 || index >= g_registered)
        return EBADF;
    name = g_names[index];
    name_len = strlen(name);
    size = 4 + name_len + 1;
    for (unsigned i = 1; i < count; i++)
        size += vecs[i].iov_len;
    for (int i = 0; i < 4; i++)
        size_le[i] = (unsigned char)(size >> (8 * i));
    write_all(provider->data_file, size_le, 4);
    write_all(provider->data_file, name, name_len + 1);
    for (unsigned i = 1; i < count; i++)
        write_all(provider->data_file, vecs[i].iov_base, vecs[i].iov_len);
    return 0;
}
