/* Shared helpers for the real-kernel tests: the counted checks of
 * c-tests/check.h, tracefs access, polling, and small EventHeader metadata blobs. */
#ifndef EHK_COMMON_H
#define EHK_COMMON_H

#define _GNU_SOURCE
#include "uev.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* The checks: VERIFYF, REQUIRE, check_name, check_finish. */
#include "../../../c-tests/check.h"

static __attribute__((unused)) void ehk_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Polls an unsigned word until (word != 0) == want, up to timeout_ms. */
static __attribute__((unused)) int ehk_wait_word(const unsigned *word, int want, int timeout_ms)
{
    for (int waited = 0;; waited += 5) {
        if ((__atomic_load_n(word, __ATOMIC_RELAXED) != 0) == want)
            return 1;
        if (waited >= timeout_ms)
            return 0;
        ehk_sleep_ms(5);
    }
}

/* Writes text to a tracefs file; returns 0 or errno. */
static __attribute__((unused)) int ehk_write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return errno;
    ssize_t n = write(fd, text, strlen(text));
    int err = n < 0 ? errno : 0;
    close(fd);
    return err;
}

/* Reads a whole (small) file into a malloc'd NUL-terminated buffer, or NULL. */
static __attribute__((unused)) char *ehk_read_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (len + 1 >= cap)
            buf = realloc(buf, cap *= 2);
        ssize_t n = read(fd, buf + len, cap - len - 1);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = 0;
    return buf;
}

static __attribute__((unused)) int ehk_event_enable(const char *tp_name, int on)
{
    char path[512];
    snprintf(path, sizeof(path), EHK_TRACEFS "/events/user_events/%s/enable", tp_name);
    return ehk_write_file(path, on ? "1" : "0");
}

/* Counts the lines of the tracefs "trace" buffer that mention tp_name. */
static __attribute__((unused)) int ehk_trace_count(const char *tp_name)
{
    char *text = ehk_read_file(EHK_TRACEFS "/trace");
    char needle[300];
    int count = 0;
    snprintf(needle, sizeof(needle), " %s: ", tp_name);
    for (char *p = text; p && (p = strstr(p, needle)); p += strlen(needle))
        count++;
    free(text);
    return count;
}

/* The line for tp_name in dynamic_events (without "u:" and the newline), or
 * an empty string; buf must hold 1024 bytes. */
static __attribute__((unused)) const char *ehk_dynamic_event(const char *tp_name, char *buf)
{
    char *text = ehk_read_file(EHK_TRACEFS "/dynamic_events");
    size_t nlen = strlen(tp_name);
    buf[0] = 0;
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        if (!strncmp(line, "u:", 2) && !strncmp(line + 2, tp_name, nlen) &&
            (line[2 + nlen] == ' ' || line[2 + nlen] == 0)) {
            snprintf(buf, 1024, "%s", line + 2);
            break;
        }
        line = end ? end + 1 : NULL;
    }
    free(text);
    return buf;
}

/* Metadata extension builder: eventheader_extension {u16 size; u16 kind}
 * followed by "EventName\0" and field definitions. */
typedef struct ehk_meta {
    union {
        uint64_t align;
        unsigned char bytes[512];
    } u;
    size_t len;
} ehk_meta;

static __attribute__((unused)) void ehk_meta_put(ehk_meta *m, const void *p, size_t n)
{
    memcpy(m->u.bytes + m->len, p, n);
    m->len += n;
    uint16_t size = (uint16_t)(m->len - 4), kind = 1; /* metadata */
    memcpy(m->u.bytes, &size, 2);
    memcpy(m->u.bytes + 2, &kind, 2);
}

static __attribute__((unused)) void ehk_meta_init(ehk_meta *m, const char *event_name)
{
    m->len = 4;
    ehk_meta_put(m, event_name, strlen(event_name) + 1);
}

/* encoding with the chain bit (0x80) set takes a format byte. */
static __attribute__((unused)) void ehk_meta_field(ehk_meta *m, const char *name, uint8_t encoding, uint8_t format)
{
    ehk_meta_put(m, name, strlen(name) + 1);
    ehk_meta_put(m, &encoding, 1);
    if (encoding & 0x80)
        ehk_meta_put(m, &format, 1);
}

/* The standard payload of the pid/seq tests: metadata "Name" with fields
 * pid (u32, format pid), seq (u32), role (u8). */
#define EHK_ENC_VALUE8 2
#define EHK_ENC_VALUE32 4
#define EHK_FMT_PID 5
static __attribute__((unused)) void ehk_meta_pidseq(ehk_meta *m, const char *event_name)
{
    ehk_meta_init(m, event_name);
    ehk_meta_field(m, "pid", EHK_ENC_VALUE32 | 0x80, EHK_FMT_PID);
    ehk_meta_field(m, "seq", EHK_ENC_VALUE32, 0);
    ehk_meta_field(m, "role", EHK_ENC_VALUE8, 0);
}

struct ehk_pidseq {
    uint32_t pid;
    uint32_t seq;
    uint8_t role;
} __attribute__((packed));

/* --- the raw-ioctl helper (uev_raw serve) as a second process ------------ */
#include <signal.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>

typedef struct ehk_helper {
    pid_t pid;
    FILE *to;
    FILE *from;
} ehk_helper;

static __attribute__((unused)) int ehk_helper_start(ehk_helper *h, const char *path)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
        return errno;
    h->pid = fork();
    if (h->pid < 0)
        return errno;
    if (h->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        execl(path, path, "serve", (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    h->to = fdopen(in[1], "w");
    h->from = fdopen(out[0], "r");
    return 0;
}

/* Sends one command, returns the reply line (static buffer, no newline). */
static __attribute__((unused)) const char *ehk_helper_cmd(ehk_helper *h, const char *fmt, ...)
{
    static char reply[256];
    va_list ap;
    va_start(ap, fmt);
    vfprintf(h->to, fmt, ap);
    va_end(ap);
    fputc('\n', h->to);
    fflush(h->to);
    if (!fgets(reply, sizeof(reply), h->from))
        return "eof";
    reply[strcspn(reply, "\n")] = 0;
    return reply;
}

static __attribute__((unused)) int ehk_helper_stop(ehk_helper *h)
{
    int status = 0;
    fputs("quit\n", h->to);
    fclose(h->to);
    fclose(h->from);
    waitpid(h->pid, &status, 0);
    return status;
}

/* --- perf record with a control fifo ------------------------------------ */
typedef struct ehk_perf {
    pid_t pid;
    int ctl;
    int ack;
} ehk_perf;

/* Starts `perf record` on user_events:NAME for each name, events disabled
 * until ehk_perf_enable(). fifo_prefix names two fifos to create. */
static __attribute__((unused)) int ehk_perf_start(ehk_perf *p, const char *out, const char *log, const char *fifo_prefix,
                          int count, const char *const *names)
{
    char ctl[600], ack[600], control[1300];
    p->pid = -1;
    p->ctl = p->ack = -1;
    snprintf(ctl, sizeof(ctl), "%.500s.ctl", fifo_prefix);
    snprintf(ack, sizeof(ack), "%.500s.ack", fifo_prefix);
    unlink(ctl);
    unlink(ack);
    if (mkfifo(ctl, 0600) || mkfifo(ack, 0600))
        return errno;
    /* O_RDWR: opening a fifo this way does not wait for the other end. */
    p->ctl = open(ctl, O_RDWR | O_CLOEXEC);
    p->ack = open(ack, O_RDWR | O_CLOEXEC);
    if (p->ctl < 0 || p->ack < 0)
        return errno;
    snprintf(control, sizeof(control), "--control=fifo:%s,%s", ctl, ack);
    const char **argv = calloc((size_t)(2 * count + 16), sizeof(char *));
    int n = 0;
    argv[n++] = "perf";
    argv[n++] = "record";
    argv[n++] = "-q";
    argv[n++] = "--no-buildid";
    argv[n++] = "--no-buildid-cache";
    argv[n++] = control;
    argv[n++] = "-D";
    argv[n++] = "-1";
    argv[n++] = "-o";
    argv[n++] = out;
    char **events = calloc((size_t)count, sizeof(char *));
    for (int i = 0; i < count; i++) {
        if (asprintf(&events[i], "user_events:%s", names[i]) < 0)
            return ENOMEM;
        argv[n++] = "-e";
        argv[n++] = events[i];
    }
    argv[n] = NULL;
    p->pid = fork();
    if (p->pid < 0)
        return errno;
    if (p->pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execvp("perf", (char *const *)argv);
        _exit(127);
    }
    for (int i = 0; i < count; i++)
        free(events[i]);
    free(events);
    free(argv);
    return 0;
}

/* Sends "enable" and waits (up to timeout_ms) for perf's acknowledgement:
 * after this, samples are being recorded. Returns 0 or an errno. */
static __attribute__((unused)) int ehk_perf_enable(ehk_perf *p, int timeout_ms)
{
    if (write(p->ctl, "enable\n", 7) != 7)
        return errno;
    struct pollfd pfd = {p->ack, POLLIN, 0};
    if (poll(&pfd, 1, timeout_ms) != 1)
        return ETIMEDOUT;
    char buf[16];
    return read(p->ack, buf, sizeof(buf)) > 0 ? 0 : EIO;
}

/* SIGINT, then waits; returns perf's exit status (0 or 130 are normal). */
static __attribute__((unused)) int ehk_perf_stop(ehk_perf *p)
{
    int status = 0;
    kill(p->pid, SIGINT);
    waitpid(p->pid, &status, 0);
    close(p->ctl);
    close(p->ack);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGINT ? 0 : 255;
}

#endif
