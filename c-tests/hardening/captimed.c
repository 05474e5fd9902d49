/*
 * Capture records of the timed layout (TRACEPOINT_CAPTURE_LAYOUT=timed,
 * docs/format.md §7.4) from two threads and a forked child; driven by
 * capture.rs, which reads the records' time, pid and tid and compares them
 * with what each event says about itself.
 *
 *   captimed PATH N   selects PATH, then writes N events "Tick" from the
 *                     main thread and N from a second thread at the same
 *                     time, then forks a child that writes N more and
 *                     exits. Each event carries its writer's pid and tid
 *                     ("wpid", "wtid"), its sequence number ("seq") and
 *                     CLOCK_MONOTONIC just before the write ("before").
 *                     Prints "parent P", "thread1 T1", "thread2 T2",
 *                     "child C".
 *   captimed PATH      selects PATH and prints "select-errno E" (run with a
 *                     TRACEPOINT_CAPTURE_LAYOUT that is not a layout).
 */
#define _GNU_SOURCE

#include <eventheader/TraceLoggingProvider.h>
#include <tracepoint/tracepoint-capture.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../check.h"

TRACELOGGING_DEFINE_PROVIDER(g_provider, "HardCapTimed",
                             (0x1c4f2f2e, 0x1b7a, 0x4c45, 0x9a, 0x1e, 0x3e, 0x6b, 0x5a, 0x0b, 0x7d, 0x21));

static int g_count;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void write_ticks(void)
{
    int32_t const pid = (int32_t)getpid();
    int32_t const tid = (int32_t)syscall(SYS_gettid);
    for (int i = 0; i < g_count; i++) {
        int64_t const before = now_ns();
        CHECK_EQ_INT(0, TraceLoggingWrite(g_provider, "Tick", TraceLoggingInt32(i, "seq"),
                                          TraceLoggingInt32(pid, "wpid"), TraceLoggingInt32(tid, "wtid"),
                                          TraceLoggingInt64(before, "before")));
    }
}

static void* second_thread(void* arg)
{
    (void)arg;
    printf("thread2 %ld\n", (long)syscall(SYS_gettid));
    write_ticks();
    return NULL;
}

int main(int argc, char** argv)
{
    CHECK(argc == 2 || argc == 3);
    if (argc == 2) {
        printf("select-errno %d\n", tracepoint_set_capture_file(argv[1]));
        return 0;
    }
    g_count = atoi(argv[2]);
    CHECK_EQ_INT(0, tracepoint_set_capture_file(argv[1]));
    CHECK_EQ_INT(0, TraceLoggingRegister(g_provider));
    printf("parent %ld\n", (long)getpid());
    printf("thread1 %ld\n", (long)syscall(SYS_gettid));
    fflush(stdout);

    pthread_t thread;
    CHECK_EQ_INT(0, pthread_create(&thread, NULL, second_thread, NULL));
    write_ticks();
    CHECK_EQ_INT(0, pthread_join(thread, NULL));
    fflush(stdout);

    pid_t const child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        /* The forking thread's cached tid and the parent's pid are stale. */
        write_ticks();
        _exit(0);
    }
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    printf("child %ld\n", (long)child);
    TraceLoggingUnregister(g_provider);
    return 0;
}
