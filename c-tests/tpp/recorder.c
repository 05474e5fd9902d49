/* recorder.c: a test-only implementation of <tracepoint/tracepoint.h>, linked
 * instead of the library to see exactly what tracepoint-provider.h hands to
 * the tracepoint layer. With TPP_RECORD_PREFIX=P in the environment:
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
 * follow tracepoint.h's documentation: open fails with EALREADY when open;
 * open_provider_with_tracepoints sorts its array by descending address,
 * drops duplicates and NULLs, then connects each entry; close disconnects the
 * provider's tracepoints and resets them; write returns EBADF unless the
 * tracepoint is enabled. Not thread-safe (the test programs are not
 * threaded). */
#define _GNU_SOURCE
#include <tracepoint/tracepoint.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CONNECTED 1024

struct connection {
    tracepoint_state *tp;
    tracepoint_provider_state *provider;
    const char *name_args;
};

static struct connection g_conn[MAX_CONNECTED];
static int g_write_index;

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

static struct connection *find(const tracepoint_state *tp)
{
    for (int i = 0; i < MAX_CONNECTED; i++) {
        if (g_conn[i].tp == tp)
            return &g_conn[i];
    }
    return NULL;
}

static void reset(tracepoint_state *tp)
{
    tracepoint_state init = TRACEPOINT_STATE_INIT;
    *tp = init;
}

static void disconnect(tracepoint_state *tp)
{
    struct connection *c = find(tp);
    if (c != NULL)
        memset(c, 0, sizeof(*c));
    reset(tp);
}

int tracepoint_open_provider(tracepoint_provider_state *provider)
{
    if (provider == NULL)
        return EINVAL;
    if (provider->data_file != -1)
        return EALREADY;
    /* As in the library: tracepoints connected while closed are reset. */
    for (int i = 0; i < MAX_CONNECTED; i++) {
        if (g_conn[i].tp != NULL && g_conn[i].provider == provider)
            disconnect(g_conn[i].tp);
    }
    provider->data_file = open_record("dat");
    return 0;
}

void tracepoint_close_provider(tracepoint_provider_state *provider)
{
    if (provider == NULL)
        return;
    for (int i = 0; i < MAX_CONNECTED; i++) {
        if (g_conn[i].tp != NULL && g_conn[i].provider == provider)
            disconnect(g_conn[i].tp);
    }
    if (provider->data_file != -1)
        close(provider->data_file);
    provider->data_file = -1;
}

int tracepoint_connect2(tracepoint_state *tp, tracepoint_provider_state *provider,
                        const char *name_args, unsigned flags)
{
    struct connection *c;
    if (tp == NULL || (provider != NULL && name_args == NULL))
        return EINVAL;
    disconnect(tp);
    if (provider == NULL)
        return 0;
    c = find(NULL);
    if (c == NULL) {
        fprintf(stderr, "recorder: more than %d tracepoints\n", MAX_CONNECTED);
        exit(97);
    }
    c->tp = tp;
    c->provider = provider;
    c->name_args = name_args;
    tp->provider_state = provider;
    if (provider->data_file != -1) {
        char line[32];
        int fd = open_record("cmd");
        snprintf(line, sizeof(line), "%u\t", flags);
        write_all(fd, line, strlen(line));
        write_all(fd, name_args, strlen(name_args));
        write_all(fd, "\n", 1);
        close(fd);
        tp->write_index = g_write_index++;
        __atomic_store_n(&tp->status_word, 1u, __ATOMIC_RELAXED);
    }
    return 0;
}

int tracepoint_connect(tracepoint_state *tp, tracepoint_provider_state *provider, const char *name_args)
{
    return tracepoint_connect2(tp, provider, name_args, 0);
}

static int compare_desc(const void *a, const void *b)
{
    const void *x = *(const void *const *)a;
    const void *y = *(const void *const *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

int tracepoint_open_provider_with_tracepoints(tracepoint_provider_state *provider,
                                              const tracepoint_definition **start,
                                              const tracepoint_definition **stop)
{
    size_t count, kept = 0;
    int err;
    if ((start == NULL) != (stop == NULL) || stop < start)
        return EINVAL;
    err = tracepoint_open_provider(provider);
    if (err != 0)
        return err;
    count = (size_t)(stop - start);
    if (count > 0)
        qsort((void *)start, count, sizeof(*start), compare_desc);
    for (size_t i = 0; i < count && start[i] != NULL; i++) {
        if (kept == 0 || start[kept - 1] != start[i])
            start[kept++] = start[i];
    }
    for (size_t i = kept; i < count; i++)
        start[i] = NULL;
    for (size_t i = 0; i < kept; i++)
        tracepoint_connect2(start[i]->state, provider, start[i]->tp_name_args, 0);
    return 0;
}

int tracepoint_write(const tracepoint_state *tp, unsigned count, struct iovec *vecs)
{
    const struct connection *c;
    size_t name_len, size;
    unsigned char size_le[4];
    if (tp == NULL || count == 0 || vecs == NULL)
        return EINVAL;
    c = find(tp);
    if (c == NULL || __atomic_load_n(&tp->status_word, __ATOMIC_RELAXED) == 0 ||
        c->provider->data_file == -1)
        return EBADF;
    name_len = strcspn(c->name_args, " ");
    size = 4 + name_len + 1;
    for (unsigned i = 1; i < count; i++)
        size += vecs[i].iov_len;
    for (int i = 0; i < 4; i++)
        size_le[i] = (unsigned char)(size >> (8 * i));
    write_all(c->provider->data_file, size_le, 4);
    write_all(c->provider->data_file, c->name_args, name_len);
    write_all(c->provider->data_file, "", 1);
    for (unsigned i = 1; i < count; i++)
        write_all(c->provider->data_file, vecs[i].iov_base, vecs[i].iov_len);
    return 0;
}
