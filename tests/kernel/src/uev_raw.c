/* uev_raw: talks to the kernel's user_events interface with raw ioctls, with
 * no dependency on the library under test. It plays "the other process" in
 * the coexistence tests and pre-registers tracepoint names so that perf can
 * attach to them before the program under test starts.
 *
 *   uev_raw serve
 *       Line protocol on stdin/stdout, one reply line per command:
 *         reg SLOT NAME ARGS...   register "NAME ARGS..." verbatim -> "ok WRITE_INDEX" | "err ERRNO"
 *         regeh SLOT NAME         register NAME with the EventHeader arg list
 *         enabled SLOT            -> "1" | "0" (the enable word the kernel maintains)
 *         write SLOT HEX          writev(write_index, bytes) -> "ok" | "err ERRNO"
 *         unreg SLOT              DIAG_IOCSUNREG -> "ok" | "err ERRNO"
 *         del NAME                DIAG_IOCSDEL -> "ok" | "err ERRNO"
 *         pid                     -> this process's pid
 *         quit
 *   uev_raw hold READY_FILE NAME...
 *       Registers every NAME with the EventHeader arg list, creates READY_FILE,
 *       then holds the registrations until SIGTERM/SIGINT; exits non-zero if
 *       any registration failed.
 */
#define _GNU_SOURCE
#include "uev.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define SLOTS 512

static volatile uint32_t g_words[SLOTS];
static int g_index[SLOTS];
static int g_fd = -1;

static int data_fd(void)
{
    if (g_fd < 0)
        g_fd = open(EHK_DATA_FILE, O_RDWR | O_CLOEXEC);
    return g_fd;
}

static int do_reg(int slot, const char *name_args)
{
    struct ehk_user_reg reg;
    if (data_fd() < 0)
        return errno;
    memset(&reg, 0, sizeof(reg));
    reg.size = sizeof(reg);
    reg.enable_bit = 0;
    reg.enable_size = sizeof(g_words[0]);
    reg.enable_addr = (uint64_t)(uintptr_t)&g_words[slot];
    reg.name_args = (uint64_t)(uintptr_t)name_args;
    if (ioctl(g_fd, EHK_DIAG_IOCSREG, &reg) < 0)
        return errno;
    g_index[slot] = (int)reg.write_index;
    return 0;
}

static int do_unreg(int slot)
{
    struct ehk_user_unreg unreg;
    memset(&unreg, 0, sizeof(unreg));
    unreg.size = sizeof(unreg);
    unreg.disable_bit = 0;
    unreg.disable_addr = (uint64_t)(uintptr_t)&g_words[slot];
    if (data_fd() < 0 || ioctl(g_fd, EHK_DIAG_IOCSUNREG, &unreg) < 0)
        return errno;
    g_index[slot] = -1;
    return 0;
}

static int parse_slot(const char *s)
{
    char *end;
    long v = s ? strtol(s, &end, 10) : -1;
    if (!s || *end || v < 0 || v >= SLOTS)
        return -1;
    return (int)v;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void reply_rc(int rc)
{
    if (rc == 0)
        printf("ok\n");
    else
        printf("err %d\n", rc);
}

static int serve(void)
{
    char line[4096];
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof(line), stdin)) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *rest = line;
        char *cmd = strsep(&rest, " ");
        if (!strcmp(cmd, "quit")) {
            break;
        } else if (!strcmp(cmd, "pid")) {
            printf("%d\n", (int)getpid());
        } else if (!strcmp(cmd, "reg") || !strcmp(cmd, "regeh")) {
            int slot = parse_slot(strsep(&rest, " "));
            if (slot < 0 || !rest || !*rest) {
                printf("err %d\n", EINVAL);
                continue;
            }
            char buf[1024];
            if (!strcmp(cmd, "regeh"))
                snprintf(buf, sizeof(buf), "%s %s", rest, EHK_REFERENCE_ARGS);
            else
                snprintf(buf, sizeof(buf), "%s", rest);
            int rc = do_reg(slot, buf);
            if (rc == 0)
                printf("ok %d\n", g_index[slot]);
            else
                printf("err %d\n", rc);
        } else if (!strcmp(cmd, "enabled")) {
            int slot = parse_slot(strsep(&rest, " "));
            if (slot < 0)
                printf("err %d\n", EINVAL);
            else
                printf("%d\n", __atomic_load_n(&g_words[slot], __ATOMIC_RELAXED) != 0);
        } else if (!strcmp(cmd, "write")) {
            int slot = parse_slot(strsep(&rest, " "));
            unsigned char data[2048];
            size_t n = 0;
            int bad = slot < 0 || !rest;
            for (const char *p = rest; !bad && p[0] && p[1] && n < sizeof(data); p += 2) {
                int hi = hexval(p[0]), lo = hexval(p[1]);
                if (hi < 0 || lo < 0)
                    bad = 1;
                else
                    data[n++] = (unsigned char)(hi << 4 | lo);
            }
            if (bad) {
                printf("err %d\n", EINVAL);
                continue;
            }
            struct iovec iov[2] = {{&g_index[slot], sizeof(int)}, {data, n}};
            reply_rc(writev(data_fd(), iov, 2) < 0 ? errno : 0);
        } else if (!strcmp(cmd, "unreg")) {
            int slot = parse_slot(strsep(&rest, " "));
            reply_rc(slot < 0 ? EINVAL : do_unreg(slot));
        } else if (!strcmp(cmd, "del")) {
            if (!rest || data_fd() < 0)
                reply_rc(rest ? errno : EINVAL);
            else
                reply_rc(ioctl(g_fd, EHK_DIAG_IOCSDEL, rest) < 0 ? errno : 0);
        } else {
            printf("err %d\n", EINVAL);
        }
    }
    return 0;
}

static int hold(const char *ready, int count, char **names)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigprocmask(SIG_BLOCK, &set, NULL);
    if (count > SLOTS) {
        fprintf(stderr, "uev_raw hold: too many names (%d > %d)\n", count, SLOTS);
        return 1;
    }
    int failed = 0;
    for (int i = 0; i < count; i++) {
        char buf[1024];
        snprintf(buf, sizeof(buf), "%s %s", names[i], EHK_REFERENCE_ARGS);
        int rc = do_reg(i, buf);
        if (rc) {
            fprintf(stderr, "uev_raw hold: register %s: %s\n", names[i], strerror(rc));
            failed = 1;
        }
    }
    FILE *f = fopen(ready, "w");
    if (!f) {
        perror(ready);
        return 1;
    }
    fprintf(f, "%s\n", failed ? "failed" : "ok");
    fclose(f);
    int sig;
    sigwait(&set, &sig);
    for (int i = 0; i < count; i++) {
        int rc = g_index[i] >= 0 ? do_unreg(i) : 0;
        if (rc) {
            fprintf(stderr, "uev_raw hold: unregister %s: %s\n", names[i], strerror(rc));
            failed = 1;
        }
    }
    return failed;
}

int main(int argc, char **argv)
{
    for (int i = 0; i < SLOTS; i++)
        g_index[i] = -1;
    if (argc >= 2 && !strcmp(argv[1], "serve"))
        return serve();
    if (argc >= 4 && !strcmp(argv[1], "hold"))
        return hold(argv[2], argc - 3, argv + 3);
    fprintf(stderr, "usage: uev_raw serve | uev_raw hold READY_FILE NAME...\n");
    return 2;
}
