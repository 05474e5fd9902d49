/*
 * fork(): a provider registered before fork keeps working in the parent and
 * in the child, and a child that execs leaks no descriptor of the library.
 *
 *   fork MODE [busy]
 *   fork fdcheck FD,FD,...      (exec'd by the child: see below)
 *
 * MODE: "capture" (TRACEPOINT_CAPTURE_FILE set: tracepoints enabled once
 * connected, every write must return 0) or "kernel" (real user_events; the
 * provider must open; with HARDENING_EXPECT_ENABLED=1 in the environment a
 * collector is listening on HardFork_L5K1 and HardFork_L5K2, so
 * every write must return 0, else a write returns 0 or EBADF consistently
 * with TRACEPOINT_ENABLED).
 *
 * Sequence:
 *   1. Provider "HardFork" opened, event "Parent" (HardFork_L5K1) connected;
 *      the parent writes one event (a = pid, b = 0, c = 0).
 *   2. fork(). The child (a = its pid, c = 1): the inherited tracepoint is
 *      still enabled (capture) and writes ROUNDS events b = 1..ROUNDS; it
 *      connects a new event "Child" (HardFork_L5K2) to its copy of the
 *      provider (the library's lock must be usable), writes it once
 *      (c = 3), disconnects it, closes the provider (its tracepoint is reset
 *      and writes return EBADF), then forks a grandchild that execs
 *      this program (`fork fdcheck <fds open at start>`), which fails if any
 *      other descriptor is open (the capture file and user_events_data are
 *      opened O_CLOEXEC). The child exits 0 if all passed.
 *   3. The parent waits for the child, and its tracepoint is still enabled
 *      and connected: it writes ROUNDS events b = 1..ROUNDS (c = 2).
 *   With "busy", a thread keeps connecting and disconnecting another event
 *   of the provider during 200 more forks, so fork often happens while that
 *   thread holds the library's lock; each child must still be able to
 *   connect, write and close within 5 s (alarm), then _exit(0). This checks
 *   the library resets its lock in the child (pthread_atfork).
 *
 * Output: "parent PID", "child PID" (from the child), "fdcheck ok" (from
 * the grandchild), "busy forks N hung 0" (with busy), "done".
 */
#define _GNU_SOURCE

#include "hcommon.h"

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 50
#define BUSY_FORKS 200

static tracepoint_provider_state g_state = TRACEPOINT_PROVIDER_STATE_INIT;
static eventheader_provider const g_prov = { &g_state, "", "HardFork" };
static tracepoint_state g_tp = TRACEPOINT_STATE_INIT;
static tracepoint_state g_child_tp = TRACEPOINT_STATE_INIT;
static tracepoint_state g_busy_tp = TRACEPOINT_STATE_INIT;
static h_meta g_meta_parent, g_meta_child, g_meta_busy;
static int g_kernel, g_expect_enabled;
static int g_busy_stop;

/* The descriptors open in this process, as "0,1,2". */
static void list_fds(char* out, size_t size)
{
    DIR* dir = opendir("/proc/self/fd");
    CHECK(dir != NULL);
    int const self = dirfd(dir);
    size_t len = 0;
    out[0] = 0;
    struct dirent* entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.' || atoi(entry->d_name) == self) {
            continue;
        }
        int const n = snprintf(out + len, size - len, "%s%s", len ? "," : "", entry->d_name);
        CHECK(n > 0 && (size_t)n < size - len);
        len += (size_t)n;
    }
    closedir(dir);
}

/* Execs this program as `fork fdcheck FDS`. Built for another architecture
   and run under an emulator (qemu-user, without binfmt_misc), the exec goes
   through the emulator's command line in TESTKIT_RUN (words separated by
   spaces), as the test started this process. */
static void exec_self(char const* self_exe, char const* fds)
{
    static char words[4096];
    char* argv[64];
    int argc = 0;
    char const* run = getenv("TESTKIT_RUN");
    if (run != NULL && strlen(run) < sizeof(words)) {
        strcpy(words, run);
        for (char* w = strtok(words, " "); w != NULL && argc < 60; w = strtok(NULL, " ")) {
            argv[argc++] = w;
        }
    }
    argv[argc++] = (char*)self_exe;
    argv[argc++] = (char*)"fdcheck";
    argv[argc++] = (char*)fds;
    argv[argc] = NULL;
    execvp(argv[0], argv);
    perror("execvp");
}

/* fdcheck: every open descriptor must be in the list `allowed`. */
static int fdcheck(char const* allowed)
{
    char now[4096];
    list_fds(now, sizeof(now));
    int bad = 0;
    char* save = NULL;
    for (char* fd = strtok_r(now, ",", &save); fd != NULL; fd = strtok_r(NULL, ",", &save)) {
        char key[32];
        snprintf(key, sizeof(key), ",%s,", fd);
        char padded[4200];
        snprintf(padded, sizeof(padded), ",%s,", allowed);
        if (strstr(padded, key) == NULL) {
            char link[256], target[512];
            snprintf(link, sizeof(link), "/proc/self/fd/%s", fd);
            ssize_t const n = readlink(link, target, sizeof(target) - 1);
            target[n > 0 ? n : 0] = 0;
            fprintf(stderr, "fdcheck: descriptor %s (%s) leaked across exec\n", fd, target);
            bad = 1;
        }
    }
    printf("fdcheck %s\n", bad ? "leak" : "ok");
    return bad;
}

/* A write result given what TRACEPOINT_ENABLED said just before. */
static void check_write(int err, int enabled, int line)
{
    int ok;
    if (!g_kernel || g_expect_enabled) {
        ok = err == 0;
    } else {
        /* A collector may attach or detach between the check and the write. */
        ok = err == 0 || err == EBADF;
        (void)enabled;
    }
    if (!ok) {
        fprintf(stderr, "fork.c:%d: write returned %d (enabled %d)\n", line, err, enabled);
        exit(1);
    }
}

static void write_rounds(eventheader_tracepoint const* ev, uint32_t kind)
{
    for (uint32_t i = 1; i <= ROUNDS; i += 1) {
        int const enabled = TRACEPOINT_ENABLED(ev->state);
        if (!g_kernel || g_expect_enabled) {
            CHECK(enabled);
        }
        check_write(h_write3(ev, (uint32_t)getpid(), i, kind), enabled, __LINE__);
    }
}

static void* busy_thread(void* arg)
{
    eventheader_tracepoint const* ev = (eventheader_tracepoint const*)arg;
    while (!__atomic_load_n(&g_busy_stop, __ATOMIC_ACQUIRE)) {
        CHECK_EQ_INT(0, eventheader_connect(ev, &g_prov));
        CHECK_EQ_INT(0, eventheader_connect(ev, NULL));
    }
    return NULL;
}

static void busy_forks(void)
{
    eventheader_tracepoint const busy = h_event(&g_busy_tp, &g_meta_busy, 5, 4);
    eventheader_tracepoint const child_ev = h_event(&g_child_tp, &g_meta_child, 5, 2);
    pthread_t thread;
    CHECK_EQ_INT(0, pthread_create(&thread, NULL, busy_thread, (void*)&busy));
    int hung = 0;
    int i_done = 0;
    for (int i = 0; i < BUSY_FORKS; i += 1, i_done = i) {
        pid_t const pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            alarm(getenv("HARDENING_FORK_ALARM") ? (unsigned)atoi(getenv("HARDENING_FORK_ALARM")) : 5);
            if (eventheader_connect(&child_ev, &g_prov) != 0) {
                _exit(3);
            }
            if (h_write3(&child_ev, (uint32_t)getpid(), (uint32_t)i, 4) != 0 && !g_kernel) {
                _exit(4);
            }
            eventheader_close_provider(&g_prov);
            _exit(0);
        }
        int status = 0;
        CHECK_EQ_INT(pid, waitpid(pid, &status, 0));
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
            hung += 1;
            break; /* one is enough: each costs the 5 s alarm */
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "busy fork child %d: status 0x%x\n", i, status);
            exit(1);
        }
    }
    __atomic_store_n(&g_busy_stop, 1, __ATOMIC_RELEASE);
    CHECK_EQ_INT(0, pthread_join(thread, NULL));
    printf("busy forks %d hung %d\n", i_done, hung);
    if (hung != 0) {
        fprintf(stderr,
                "fork.c: %d of %d children forked while another thread held the library's "
                "lock deadlocked in eventheader_connect (after %d good forks)\n",
                hung, i_done + 1, i_done);
        exit(1);
    }
}

int main(int argc, char** argv)
{
    if (argc == 3 && strcmp(argv[1], "fdcheck") == 0) {
        return fdcheck(argv[2]);
    }
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "busy") != 0)) {
        fprintf(stderr, "usage: %s capture|kernel [busy]\n", argv[0]);
        return 2;
    }
    g_kernel = strcmp(argv[1], "kernel") == 0;
    CHECK(g_kernel || strcmp(argv[1], "capture") == 0);
    char const* expect = getenv("HARDENING_EXPECT_ENABLED");
    g_expect_enabled = expect != NULL && strcmp(expect, "1") == 0;

    char start_fds[4096];
    list_fds(start_fds, sizeof(start_fds));
    /* Resolved now: under valgrind, exec of /proc/self/exe would run the
       tool itself, but readlink of it gives this program. */
    static char self_exe[4096];
    ssize_t const self_len = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
    CHECK(self_len > 0);
    self_exe[self_len] = 0;

    h_meta_init(&g_meta_parent, "Parent");
    h_meta_init(&g_meta_child, "Child");
    h_meta_init(&g_meta_busy, "Busy");
    eventheader_tracepoint const ev = h_event(&g_tp, &g_meta_parent, 5, 1);
    eventheader_tracepoint const child_ev = h_event(&g_child_tp, &g_meta_child, 5, 2);

    CHECK_EQ_INT(0, eventheader_open_provider(&g_prov));
    CHECK_EQ_INT(0, eventheader_connect(&ev, &g_prov));
    check_write(h_write3(&ev, (uint32_t)getpid(), 0, 0), TRACEPOINT_ENABLED(&g_tp), __LINE__);
    printf("parent %d\n", (int)getpid());
    fflush(stdout);

    pid_t const child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        printf("child %d\n", (int)getpid());
        write_rounds(&ev, 1);
        CHECK_EQ_INT(0, eventheader_connect(&child_ev, &g_prov));
        check_write(h_write3(&child_ev, (uint32_t)getpid(), 0, 3), TRACEPOINT_ENABLED(&g_child_tp),
                    __LINE__);
        CHECK_EQ_INT(0, eventheader_connect(&child_ev, NULL));
        CHECK_EQ_INT(EBADF, h_write3(&child_ev, (uint32_t)getpid(), 1, 3));
        eventheader_close_provider(&g_prov);
        CHECK_EQ_INT(0, g_tp.status_word);
        CHECK_EQ_INT(EBADF, h_write3(&ev, (uint32_t)getpid(), 99, 1));
        fflush(stdout);

        pid_t const grandchild = fork();
        CHECK(grandchild >= 0);
        if (grandchild == 0) {
            exec_self(self_exe, start_fds);
            _exit(127);
        }
        int status = 0;
        CHECK_EQ_INT(grandchild, waitpid(grandchild, &status, 0));
        CHECK(WIFEXITED(status));
        CHECK_EQ_INT(0, WEXITSTATUS(status));
        fflush(stdout);
        _exit(0);
    }
    int status = 0;
    CHECK_EQ_INT(child, waitpid(child, &status, 0));
    CHECK(WIFEXITED(status));
    CHECK_EQ_INT(0, WEXITSTATUS(status));

    /* The child closing its copy changed nothing here. */
    CHECK(g_tp.provider_state == &g_state);
    write_rounds(&ev, 2);

    if (argc == 3) {
        fflush(stdout);
        busy_forks();
    }
    eventheader_close_provider(&g_prov);
    CHECK_EQ_INT(0, g_tp.status_word);
    printf("done\n");
    return 0;
}
