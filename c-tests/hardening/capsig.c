/*
 * Capture files that are pipes, at their limits, and written from signal
 * handlers (docs/capture-mode.md, docs/bad-input.md); driven by
 * capture.rs. Every mode runs with the default dispositions
 * of SIGPIPE and SIGXFSZ (which kill), under a watchdog (alarm: a hang is
 * killed by SIGALRM, not waited for), and prints "done" and exits 0 when
 * every result was the documented one.
 *
 *   capsig reader-exits FIFO   capture to FIFO; its reader reads one record
 *                              and exits: the next write returns EPIPE, the
 *                              process lives, and no SIGPIPE is left pending;
 *                              the same on a pipe(2) whose read end is closed,
 *                              selected as /proc/self/fd/N (what
 *                              /dev/stdout into a pipe is). Prints
 *                              "fifo-errno 0 E" and "pipe-errno E"
 *   capsig two-writers FIFO OUT  two processes capture to FIFO, each
 *                              N records of 3000 bytes (fit in PIPE_BUF) and
 *                              a 20000-byte one (E2BIG); a reader copies the
 *                              FIFO to OUT, which capture.rs
 *                              reads record by record. Prints "writer W
 *                              ok N big E"
 *   capsig fsize-boundary PATH RLIMIT_FSIZE exactly at the end of the first
 *                              record, set before PATH is selected (the
 *                              limit is read then): the second write returns EFBIG
 *                              (nothing written, no SIGXFSZ kill), the file
 *                              stays whole, and once the limit is raised the
 *                              next write returns 0. Prints "fsize-errno 0 E 0"
 *   capsig huge PATH           a 3 GiB record (E2BIG, nothing written, no
 *                              latched error), a record of exactly 64 MiB
 *                              (0), one byte more (E2BIG), then a small one
 *                              (0). Prints "huge-errno E 0 E 0"
 *   capsig handler FIFO        a capture write blocks on a full FIFO; a
 *                              signal handler on the same thread writes a
 *                              capture event: an ordinary write (no lock to
 *                              wait for), which waits for room in the FIFO
 *                              as the interrupted one does; both complete
 *                              once the reader drains the FIFO. Prints
 *                              "handler-errno 0 interrupted-errno 0"
 */
#define _GNU_SOURCE

#include <tracepoint/tracepoint-capture.h>
#include <tracepoint/tracepoint.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../check.h"

#define NAME "HardCapSig"
/* A record: 4-byte size, the name and its NUL, the payload. */
#define HEAD (4 + sizeof(NAME))

static tracepoint_provider_state g_state = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_state g_tp = TRACEPOINT_STATE_INIT;

/* Opens the provider and connects the tracepoint (capture mode). */
static void connect_tp(void)
{
    int const err = tracepoint_open_provider(&g_state);
    CHECK(err == 0 || err == EALREADY);
    CHECK_EQ_INT(0, tracepoint_connect(&g_tp, &g_state, NAME " u8 a"));
}

/* Writes a record of `size` bytes in all: its payload is `fill` bytes. */
static int write_record(size_t size, uint8_t fill)
{
    static uint8_t payload[8192];
    CHECK(size > HEAD && size - HEAD <= sizeof(payload));
    memset(payload, fill, size - HEAD);
    struct iovec vecs[2] = { { NULL, 0 }, { payload, size - HEAD } };
    return tracepoint_write(&g_tp, 2, vecs);
}

/* Whether `sig` is pending for this thread or the process. */
static int pending(int sig)
{
    sigset_t set;
    CHECK_EQ_INT(0, sigpending(&set));
    return sigismember(&set, sig);
}

/* Selects the FIFO `path` as the capture file once a reader has it open. */
static void select_fifo(char const* path)
{
    for (int i = 0;; i += 1) {
        int const err = tracepoint_set_capture_file(path);
        if (err == 0) {
            return;
        }
        CHECK_EQ_INT(ENXIO, err); /* no reader yet */
        CHECK(i < 1000);
        usleep(10000);
    }
}

/* Copies FIFO `path` to `out` (NULL: reads `records` records of `size`
   bytes, after sleeping `delay_ms`, and exits) in a child process. */
static pid_t reader(char const* path, char const* out, int records, size_t size, int delay_ms)
{
    pid_t const pid = fork();
    CHECK(pid >= 0);
    if (pid != 0) {
        return pid;
    }
    int const fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        _exit(10);
    }
    usleep((useconds_t)delay_ms * 1000);
    static char buf[65536];
    if (out == NULL) {
        size_t want = (size_t)records * size;
        while (want > 0) {
            ssize_t const got = read(fd, buf, want < sizeof(buf) ? want : sizeof(buf));
            if (got <= 0) {
                _exit(11);
            }
            want -= (size_t)got;
        }
        _exit(0);
    }
    int const to = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (to < 0) {
        _exit(12);
    }
    for (;;) {
        ssize_t const got = read(fd, buf, sizeof(buf));
        if (got == 0) {
            _exit(0);
        }
        if (got < 0 || write(to, buf, (size_t)got) != got) {
            _exit(13);
        }
    }
}

static void wait_ok(pid_t pid)
{
    int status = 0;
    CHECK_EQ_INT(pid, waitpid(pid, &status, 0));
    CHECK(WIFEXITED(status));
    CHECK_EQ_INT(0, WEXITSTATUS(status));
}

static int mode_reader_exits(char const* path)
{
    CHECK_EQ_INT(0, mkfifo(path, 0600));
    pid_t const pid = reader(path, NULL, 1, 100, 0);
    select_fifo(path);
    connect_tp();
    int const first = write_record(100, 1);
    wait_ok(pid);
    int const second = write_record(100, 2);
    printf("fifo-errno %d %d\n", first, second);
    CHECK_EQ_INT(0, first);
    CHECK_EQ_INT(EPIPE, second);
    CHECK(!pending(SIGPIPE));

    /* A pipe whose read end is gone, as /dev/stdout into a finished reader. */
    int fds[2];
    CHECK_EQ_INT(0, pipe2(fds, O_CLOEXEC));
    char self[64];
    snprintf(self, sizeof(self), "/proc/self/fd/%d", fds[1]);
    CHECK_EQ_INT(0, tracepoint_set_capture_file(self));
    CHECK_EQ_INT(0, close(fds[0]));
    int const third = write_record(100, 3);
    printf("pipe-errno %d\n", third);
    CHECK_EQ_INT(EPIPE, third);
    CHECK(!pending(SIGPIPE));
    close(fds[1]);
    printf("done\n");
    return 0;
}

#define TWO_WRITERS_RECORDS 200

static int mode_two_writers(char const* path, char const* out)
{
    CHECK_EQ_INT(0, mkfifo(path, 0600));
    pid_t const rd = reader(path, out, 0, 0, 0);
    /* Held open for writing until both writers are done: the reader sees
       the end of the FIFO only then. */
    int const hold = open(path, O_WRONLY | O_CLOEXEC);
    CHECK(hold >= 0);
    pid_t writers[2];
    for (int w = 0; w < 2; w += 1) {
        writers[w] = fork();
        CHECK(writers[w] >= 0);
        if (writers[w] == 0) {
            close(hold);
            select_fifo(path);
            connect_tp();
            int ok = 0;
            for (int i = 0; i < TWO_WRITERS_RECORDS; i += 1) {
                ok += write_record(3000, (uint8_t)(w + 1)) == 0;
            }
            /* More than PIPE_BUF: refused, not interleaved. */
            static uint8_t big[20000];
            struct iovec vecs[2] = { { NULL, 0 }, { big, sizeof(big) } };
            int const big_err = tracepoint_write(&g_tp, 2, vecs);
            printf("writer %d ok %d big %d\n", w, ok, big_err);
            fflush(stdout);
            _exit(ok == TWO_WRITERS_RECORDS && big_err == E2BIG ? 0 : 1);
        }
    }
    wait_ok(writers[0]);
    wait_ok(writers[1]);
    close(hold);
    wait_ok(rd);
    printf("done\n");
    return 0;
}

static int mode_fsize_boundary(char const* path)
{
    struct rlimit old;
    CHECK_EQ_INT(0, getrlimit(RLIMIT_FSIZE, &old));
    struct rlimit lim = old;
    lim.rlim_cur = 100; /* the first record ends the file at the limit */
    CHECK_EQ_INT(0, setrlimit(RLIMIT_FSIZE, &lim));
    /* Selected under the finite limit: its writes are guarded. */
    CHECK_EQ_INT(0, tracepoint_set_capture_file(path));
    connect_tp();
    int const first = write_record(100, 1);
    int const second = write_record(100, 2);
    CHECK(!pending(SIGXFSZ));
    CHECK_EQ_INT(0, setrlimit(RLIMIT_FSIZE, &old));
    int const third = write_record(100, 3);
    printf("fsize-errno %d %d %d\n", first, second, third);
    CHECK_EQ_INT(0, first);
    CHECK_EQ_INT(EFBIG, second);
    CHECK_EQ_INT(0, third);
    printf("done\n");
    return 0;
}

static int mode_huge(char const* path)
{
    CHECK_EQ_INT(0, tracepoint_set_capture_file(path));
    connect_tp();
    /* 3 GiB of readable zero pages, never touched by a refused write. */
    size_t const gib = (size_t)1 << 30;
    void* const zeros = mmap(NULL, gib, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(zeros != MAP_FAILED);
    struct iovec huge[4] = { { NULL, 0 }, { zeros, gib }, { zeros, gib }, { zeros, gib } };
    int const e3g = tracepoint_write(&g_tp, 4, huge);
    /* Exactly the largest record eventheader decode reads, then one byte more. */
    size_t const max = (size_t)64 << 20;
    struct iovec at[2] = { { NULL, 0 }, { zeros, max - HEAD } };
    int const e64m = tracepoint_write(&g_tp, 2, at);
    struct iovec over[2] = { { NULL, 0 }, { zeros, max - HEAD + 1 } };
    int const e64m1 = tracepoint_write(&g_tp, 2, over);
    int const small = write_record(100, 7);
    printf("huge-errno %d %d %d %d\n", e3g, e64m, e64m1, small);
    CHECK_EQ_INT(E2BIG, e3g);
    CHECK_EQ_INT(0, e64m);
    CHECK_EQ_INT(E2BIG, e64m1);
    CHECK_EQ_INT(0, small);
    munmap(zeros, gib);
    printf("done\n");
    return 0;
}

static volatile sig_atomic_t g_handler_errno = -1;

static void on_usr1(int sig)
{
    (void)sig;
    /* Its own buffer: the interrupted write's is in use. */
    static uint8_t payload[100 - HEAD];
    struct iovec vecs[2] = { { NULL, 0 }, { payload, sizeof(payload) } };
    g_handler_errno = tracepoint_write(&g_tp, 2, vecs);
}

static pthread_t g_main;
static char const* g_fifo;

/* Signals the main thread once the FIFO is full (its next capture write
   blocks), and a little later. */
static void* poke(void* arg)
{
    (void)arg;
    int const fd = open(g_fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    CHECK(fd >= 0);
    int queued = 0;
    for (int i = 0; queued < 16 * 4000; i += 1) {
        CHECK(i < 1000);
        usleep(10000);
        CHECK_EQ_INT(0, ioctl(fd, FIONREAD, &queued));
    }
    close(fd);
    usleep(100000);
    pthread_kill(g_main, SIGUSR1);
    return NULL;
}

static int mode_handler(char const* path)
{
    CHECK_EQ_INT(0, mkfifo(path, 0600));
    /* The reader starts reading 1.5 s from now; the FIFO holds 64 KiB
       (16 pages: one 4000-byte record each). */
    int const records = 40;
    pid_t const pid = reader(path, NULL, records, 4000, 1500);
    select_fifo(path);
    connect_tp();
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    CHECK_EQ_INT(0, sigaction(SIGUSR1, &sa, NULL));
    g_main = pthread_self();
    g_fifo = path;
    pthread_t t;
    CHECK_EQ_INT(0, pthread_create(&t, NULL, poke, NULL));
    /* Fills the FIFO: a write blocks in writev when the signal arrives. */
    int last = 0;
    for (int i = 0; i < records && last == 0; i += 1) {
        last = write_record(4000, (uint8_t)i);
    }
    CHECK_EQ_INT(0, pthread_join(t, NULL));
    printf("handler-errno %d interrupted-errno %d\n", (int)g_handler_errno, last);
    CHECK_EQ_INT(0, g_handler_errno);
    CHECK_EQ_INT(0, last);
    wait_ok(pid);
    /* Outside a capture write, a handler's capture write is an ordinary one:
       it goes to a regular file now. */
    char file[4096];
    snprintf(file, sizeof(file), "%s.dat", path);
    CHECK_EQ_INT(0, tracepoint_set_capture_file(file));
    g_handler_errno = -1;
    CHECK_EQ_INT(0, raise(SIGUSR1));
    printf("handler-outside-errno %d\n", (int)g_handler_errno);
    CHECK_EQ_INT(0, g_handler_errno);
    printf("done\n");
    return 0;
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    /* The dispositions that kill: nothing may raise them. */
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    alarm(60); /* a deadlock is killed, not waited for */
    char const* mode = argc >= 2 ? argv[1] : "";
    if (argc == 3 && strcmp(mode, "reader-exits") == 0) {
        return mode_reader_exits(argv[2]);
    }
    if (argc == 4 && strcmp(mode, "two-writers") == 0) {
        return mode_two_writers(argv[2], argv[3]);
    }
    if (argc == 3 && strcmp(mode, "fsize-boundary") == 0) {
        return mode_fsize_boundary(argv[2]);
    }
    if (argc == 3 && strcmp(mode, "huge") == 0) {
        return mode_huge(argv[2]);
    }
    if (argc == 3 && strcmp(mode, "handler") == 0) {
        return mode_handler(argv[2]);
    }
    fprintf(stderr,
            "usage: %s reader-exits FIFO|two-writers FIFO OUT|fsize-boundary P|huge P|handler "
            "FIFO\n",
            argv[0]);
    return 2;
}
