/*
 * Unloading the library itself: a program that does not
 * link the library, but loads it with dlopen, from the path the build
 * compiled in (TEST_LIBRARY_PATH, the manifest's Link::Loaded), directly or
 * as the dependency of a plugin.
 *
 *   dlunload self LOOPS MODE       LOOPS rounds of: dlopen the library,
 *                                  tracepoint_open_provider, connect, one
 *                                  write, close, dlclose; every 100 rounds
 *                                  and after the last, fork()
 *   dlunload plugin PLUGIN MODE    3 rounds of: dlopen PLUGIN (a library
 *                                  linked to ours that registers in its
 *                                  constructor and unregisters in its
 *                                  destructor: dlprov.c), call it, dlclose,
 *                                  fork()
 *
 * MODE: "capture" (TRACEPOINT_CAPTURE_FILE set: every write must return 0)
 * or "kernel" (real user_events: open and connect must return 0; a write
 * 0 or EBADF, as nobody listens).
 *
 * After each dlclose the library must be gone (dlopen with RTLD_NOLOAD
 * finds nothing), and a fork() must work: the library's fork handlers
 * (pthread_atfork) must have gone with it (glibc's compatibility
 * pthread_atfork, which a library without DT_NEEDED on libc binds, keeps
 * them, and the next fork calls into unmapped memory). Each child exits 0 at
 * once; the parent checks that it did.
 *
 * self: from round 10 on, the number of open descriptors must not change
 * and VmRSS must stay within hunload.h's bound (1 MiB; a leak of one
 * descriptor and about 8 KiB per round exceeds it).
 *
 * Events (capture mode): one "HardSelf" record per round, payload the u32
 * round; plugin mode writes dlprov.c's HardDl_L5K1 "Loop" events.
 * Output: "rounds N fds A B rss_kib A B", "forks N ok", "done".
 */
#define _GNU_SOURCE

#include "hunload.h"

#include <sys/wait.h>
#include <unistd.h>

#ifndef TEST_LIBRARY_PATH
#error "TEST_LIBRARY_PATH: the library to load (testkit's Link::Loaded)"
#endif

typedef int (*int_fn)(void);
typedef int (*write_u32_fn)(uint32_t);
typedef int (*open_fn)(tracepoint_provider_state*);
typedef void (*close_fn)(tracepoint_provider_state*);
typedef int (*connect_fn)(tracepoint_state*, tracepoint_provider_state*, char const*);
typedef int (*write_fn)(tracepoint_state const*, unsigned, struct iovec*);

/* dlclose, then the library (and `also`, if not NULL) must be gone. */
static void unload(void* lib, char const* also)
{
    CHECK_EQ_INT(0, dlclose(lib));
    void* again = dlopen(TEST_LIBRARY_PATH, RTLD_NOW | RTLD_NOLOAD);
    if (again != NULL) {
        fprintf(stderr, "%s still loaded after dlclose\n", TEST_LIBRARY_PATH);
        exit(1);
    }
    if (also != NULL && dlopen(also, RTLD_NOW | RTLD_NOLOAD) != NULL) {
        fprintf(stderr, "%s still loaded after dlclose\n", also);
        exit(1);
    }
}

/* fork(): the child exits 0 at once, the parent checks it did. */
static void fork_once(void)
{
    pid_t const pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        _exit(0);
    }
    int status = 0;
    CHECK_EQ_INT(pid, waitpid(pid, &status, 0));
    CHECK(WIFEXITED(status));
    CHECK_EQ_INT(0, WEXITSTATUS(status));
}

/* The write's expected result: 0 in capture mode, 0 or EBADF (nobody
   listening) on the kernel. */
static void check_write(int kernel, int err)
{
    if (kernel) {
        CHECK(err == 0 || err == EBADF);
    } else {
        CHECK_EQ_INT(0, err);
    }
}

static int mode_self(int loops, int kernel)
{
    struct h_growth growth = H_GROWTH_INIT;
    int forks = 0;
    for (int round = 0; round < loops; round += 1) {
        void* lib = dlopen(TEST_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
            fprintf(stderr, "round %d: dlopen: %s\n", round, dlerror());
            return 1;
        }
        open_fn const open_provider = (open_fn)h_must_sym(lib, "tracepoint_open_provider");
        close_fn const close_provider = (close_fn)h_must_sym(lib, "tracepoint_close_provider");
        connect_fn const connect = (connect_fn)h_must_sym(lib, "tracepoint_connect");
        write_fn const write = (write_fn)h_must_sym(lib, "tracepoint_write");

        tracepoint_provider_state provider = TRACEPOINT_PROVIDER_STATE_INIT;
        tracepoint_state tp = TRACEPOINT_STATE_INIT;
        CHECK_EQ_INT(0, open_provider(&provider));
        CHECK_EQ_INT(0, connect(&tp, &provider, "HardSelf u32 round"));
        uint32_t value = (uint32_t)round;
        struct iovec vecs[2] = { { NULL, 0 }, { &value, sizeof(value) } };
        check_write(kernel, write(&tp, 2, vecs));
        close_provider(&provider);
        unload(lib, NULL);

        if (round % 100 == 99 || round == loops - 1) {
            fork_once();
            forks += 1;
        }
        h_growth_sample(&growth, round, loops);
    }
    h_growth_check(&growth, loops);
    printf("forks %d ok\n", forks);
    printf("done\n");
    return 0;
}

static int mode_plugin(char const* plugin, int kernel)
{
    int const rounds = 3;
    for (int round = 0; round < rounds; round += 1) {
        void* lib = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
            fprintf(stderr, "dlopen: %s\n", dlerror());
            return 1;
        }
        CHECK_EQ_INT(0, ((int_fn)h_must_sym(lib, "dlprov_register_result"))());
        check_write(kernel, ((write_u32_fn)h_must_sym(lib, "dlprov_write"))((uint32_t)round));
        unload(lib, plugin);
        fork_once();
    }
    printf("forks %d ok\n", rounds);
    printf("done\n");
    return 0;
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 4 && (strcmp(argv[3], "capture") == 0 || strcmp(argv[3], "kernel") == 0)) {
        int const kernel = strcmp(argv[3], "kernel") == 0;
        if (strcmp(argv[1], "self") == 0 && atoi(argv[2]) > 0) {
            return mode_self(atoi(argv[2]), kernel);
        }
        if (strcmp(argv[1], "plugin") == 0) {
            return mode_plugin(argv[2], kernel);
        }
    }
    fprintf(stderr, "usage: %s self LOOPS capture|kernel | plugin PLUGIN capture|kernel\n",
            argv[0]);
    return 2;
}
