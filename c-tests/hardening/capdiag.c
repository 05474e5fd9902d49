/*
 * What the capture path costs in system calls, and what the diagnostic
 * switch EVENTHEADER_DEBUG says (docs/capture-mode.md); driven by
 * capture.rs, which runs the `records` modes under strace and reads the
 * other modes' stderr.
 *
 *   capdiag records N PATH        selects PATH with RLIMIT_FSIZE unlimited,
 *                                 then writes N records to it
 *   capdiag records-limited N PATH  the same with RLIMIT_FSIZE finite (1 GiB)
 *                                 before PATH is selected
 *   capdiag open PATH             TRACEPOINT_CAPTURE_FILE=PATH ("-": unset),
 *                                 then opens a provider and connects a
 *                                 tracepoint. Prints "open-errno E"
 *   capdiag write-errors N        selects /dev/full and writes N records
 *                                 (each fails with ENOSPC). Prints
 *                                 "write-errors E..."
 */
#define _GNU_SOURCE

#include <tracepoint/tracepoint-capture.h>
#include <tracepoint/tracepoint.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>

#include "../check.h"

#define NAME "HardCapDiag"

static tracepoint_provider_state g_state = TRACEPOINT_PROVIDER_STATE_INIT;
static tracepoint_state g_tp = TRACEPOINT_STATE_INIT;

static int open_and_connect(void)
{
    int const err = tracepoint_open_provider(&g_state);
    if (err != 0) {
        return err;
    }
    CHECK_EQ_INT(0, tracepoint_connect(&g_tp, &g_state, NAME " u8 a"));
    return 0;
}

static int write_record(void)
{
    uint8_t payload[20] = { 1 };
    struct iovec vecs[2] = { { NULL, 0 }, { payload, sizeof(payload) } };
    return tracepoint_write(&g_tp, 2, vecs);
}

static int mode_records(int n, char const* path, int limited)
{
    struct rlimit lim;
    CHECK_EQ_INT(0, getrlimit(RLIMIT_FSIZE, &lim));
    /* Without a limit unless asked: the test may run under `ulimit -f`. */
    CHECK(lim.rlim_max == RLIM_INFINITY);
    lim.rlim_cur = limited ? (rlim_t)1 << 30 : RLIM_INFINITY;
    CHECK_EQ_INT(0, setrlimit(RLIMIT_FSIZE, &lim));
    CHECK_EQ_INT(0, tracepoint_set_capture_file(path));
    CHECK_EQ_INT(0, open_and_connect());
    for (int i = 0; i < n; i += 1) {
        CHECK_EQ_INT(0, write_record());
    }
    printf("done\n");
    return 0;
}

static int mode_open(char const* path)
{
    if (strcmp(path, "-") == 0) {
        unsetenv("TRACEPOINT_CAPTURE_FILE");
    } else {
        CHECK_EQ_INT(0, setenv("TRACEPOINT_CAPTURE_FILE", path, 1));
    }
    printf("open-errno %d\n", open_and_connect());
    printf("done\n");
    return 0;
}

static int mode_write_errors(int n)
{
    CHECK_EQ_INT(0, tracepoint_set_capture_file("/dev/full"));
    CHECK_EQ_INT(0, open_and_connect());
    printf("write-errors");
    for (int i = 0; i < n; i += 1) {
        printf(" %d", write_record());
    }
    printf("\ndone\n");
    return 0;
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    char const* mode = argc >= 2 ? argv[1] : "";
    if (argc == 4 && strcmp(mode, "records") == 0) {
        return mode_records(atoi(argv[2]), argv[3], 0);
    }
    if (argc == 4 && strcmp(mode, "records-limited") == 0) {
        return mode_records(atoi(argv[2]), argv[3], 1);
    }
    if (argc == 3 && strcmp(mode, "open") == 0) {
        return mode_open(argv[2]);
    }
    if (argc == 3 && strcmp(mode, "write-errors") == 0) {
        return mode_write_errors(atoi(argv[2]));
    }
    fprintf(stderr,
            "usage: %s records N PATH|records-limited N PATH|open PATH|write-errors N\n",
            argv[0]);
    return 2;
}
