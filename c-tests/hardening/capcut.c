/*
 * Capture writes cut off in the middle (docs/capture-mode.md, signal
 * handlers and threads): a thread cancelled inside its capture write, and a
 * signal handler that leaves an interrupted capture write with siglongjmp,
 * leave later capture writes working, from the same thread and from others.
 * Driven by capture.rs. Each mode blocks a capture write on a FIFO whose
 * reader does not read yet, cuts it off, and then writes again; a reader
 * process starts reading after a delay (the later writes may wait for it,
 * never longer). Runs under a watchdog (alarm: a hang is killed by SIGALRM
 * and fails the test instead of blocking the suite); prints "done" and
 * exits 0 when every result was the documented one.
 *
 *   capcut cancel FIFO    a thread's capture write blocks on the full FIFO;
 *                         the thread is cancelled and joined; then the main
 *                         thread and a new thread each write an event, and
 *                         the capture file is switched to FIFO.dat and
 *                         written. Prints "cancel-errno MAIN THREAD FILE"
 *   capcut longjmp FIFO   the main thread's capture write blocks on the
 *                         full FIFO; a SIGUSR1 handler leaves it with
 *                         siglongjmp; then the main thread and a new thread
 *                         each write an event, and the file is switched and
 *                         written. Prints "longjmp-errno MAIN THREAD FILE"
 */
#define _GNU_SOURCE

#include <tracepoint/tracepoint-capture.h>
#include <tracepoint/tracepoint.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../check.h"

#define NAME "HardCapCut"
#define HEAD (4 + sizeof(NAME))
/* One record per pipe page: 16 of them fill a 64 KiB FIFO. */
#define RECORD 4000
#define FULL (16 * RECORD)

static tracepoint_provider_state g_state = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_state g_tp = TRACEPOINT_STATE_INIT;
static char const* g_fifo;

static int write_record(uint8_t fill)
{
    uint8_t payload[RECORD - HEAD];
    memset(payload, fill, sizeof(payload));
    struct iovec vecs[2] = { { NULL, 0 }, { payload, sizeof(payload) } };
    return tracepoint_write(&g_tp, 2, vecs);
}

/* A reader of the FIFO that starts reading after `delay_ms` and reads to
   its end. */
static pid_t reader(int delay_ms)
{
    pid_t const pid = fork();
    CHECK(pid >= 0);
    if (pid != 0) {
        return pid;
    }
    int const fd = open(g_fifo, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        _exit(10);
    }
    usleep((useconds_t)delay_ms * 1000);
    static char buf[65536];
    for (;;) {
        ssize_t const got = read(fd, buf, sizeof(buf));
        if (got == 0) {
            _exit(0);
        }
        if (got < 0) {
            _exit(11);
        }
    }
}

static void start(char const* fifo)
{
    g_fifo = fifo;
    CHECK_EQ_INT(0, mkfifo(fifo, 0600));
}

/* Selects the FIFO once the reader has it open, and connects. */
static void select_and_connect(void)
{
    for (int i = 0;; i += 1) {
        int const err = tracepoint_set_capture_file(g_fifo);
        if (err == 0) {
            break;
        }
        CHECK_EQ_INT(ENXIO, err); /* no reader yet */
        CHECK(i < 1000);
        usleep(10000);
    }
    int const err = tracepoint_open_provider(&g_state);
    CHECK(err == 0 || err == EALREADY);
    CHECK_EQ_INT(0, tracepoint_connect(&g_tp, &g_state, NAME " u8 a"));
}

/* Waits until the FIFO is full: the next capture write blocks. */
static void wait_full(void)
{
    int const fd = open(g_fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    CHECK(fd >= 0);
    int queued = 0;
    for (int i = 0; queued < FULL; i += 1) {
        CHECK(i < 1000);
        usleep(10000);
        CHECK_EQ_INT(0, ioctl(fd, FIONREAD, &queued));
    }
    close(fd);
    /* The blocked write is inside writev by now. */
    usleep(100000);
}

static void* write_one(void* arg)
{
    return (void*)(intptr_t)write_record((uint8_t)(intptr_t)arg);
}

/* One event from the main thread, one from a new thread, and one to a
   regular file after a switch: their errnos. */
static void write_after(char const* label)
{
    int const main_err = write_record(0x11);
    pthread_t t;
    CHECK_EQ_INT(0, pthread_create(&t, NULL, write_one, (void*)(intptr_t)0x22));
    void* ret = NULL;
    CHECK_EQ_INT(0, pthread_join(t, &ret));
    char file[4096];
    snprintf(file, sizeof(file), "%s.dat", g_fifo);
    int const switch_err = tracepoint_set_capture_file(file);
    int const file_err = write_record(0x33);
    printf("%s-errno %d %d %d %d\n", label, main_err, (int)(intptr_t)ret, switch_err, file_err);
    CHECK_EQ_INT(0, main_err);
    CHECK_EQ_INT(0, (int)(intptr_t)ret);
    CHECK_EQ_INT(0, switch_err);
    CHECK_EQ_INT(0, file_err);
}

static void* fill_forever(void* arg)
{
    (void)arg;
    for (int i = 0;; i += 1) {
        CHECK_EQ_INT(0, write_record((uint8_t)i));
    }
    return NULL;
}

static int mode_cancel(char const* fifo)
{
    start(fifo);
    pid_t const rd = reader(1500);
    select_and_connect();
    pthread_t t;
    CHECK_EQ_INT(0, pthread_create(&t, NULL, fill_forever, NULL));
    wait_full();
    CHECK_EQ_INT(0, pthread_cancel(t));
    void* ret = NULL;
    CHECK_EQ_INT(0, pthread_join(t, &ret));
    CHECK(ret == PTHREAD_CANCELED);
    write_after("cancel");
    int status = 0;
    CHECK_EQ_INT(rd, waitpid(rd, &status, 0));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    printf("done\n");
    return 0;
}

static sigjmp_buf g_jump;
static volatile sig_atomic_t g_jumped;

static void on_usr1(int sig)
{
    (void)sig;
    g_jumped = 1;
    siglongjmp(g_jump, 1);
}

static pthread_t g_main;

static void* poke(void* arg)
{
    (void)arg;
    wait_full();
    pthread_kill(g_main, SIGUSR1);
    return NULL;
}

static int mode_longjmp(char const* fifo)
{
    start(fifo);
    pid_t const rd = reader(1500);
    select_and_connect();
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_usr1;
    CHECK_EQ_INT(0, sigaction(SIGUSR1, &sa, NULL));
    g_main = pthread_self();
    pthread_t t;
    CHECK_EQ_INT(0, pthread_create(&t, NULL, poke, NULL));
    if (sigsetjmp(g_jump, 1) == 0) {
        for (int i = 0;; i += 1) {
            CHECK_EQ_INT(0, write_record((uint8_t)i));
        }
    }
    CHECK(g_jumped);
    CHECK_EQ_INT(0, pthread_join(t, NULL));
    write_after("longjmp");
    int status = 0;
    CHECK_EQ_INT(rd, waitpid(rd, &status, 0));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    printf("done\n");
    return 0;
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    alarm(20); /* a hang is killed, not waited for */
    char const* mode = argc >= 2 ? argv[1] : "";
    if (argc == 3 && strcmp(mode, "cancel") == 0) {
        return mode_cancel(argv[2]);
    }
    if (argc == 3 && strcmp(mode, "longjmp") == 0) {
        return mode_longjmp(argv[2]);
    }
    fprintf(stderr, "usage: %s cancel FIFO|longjmp FIFO\n", argv[0]);
    return 2;
}
