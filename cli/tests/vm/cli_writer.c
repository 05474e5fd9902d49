/* cli_writer: writes known events through the project's library for the
 * CLI's real-kernel checks (cli/tests/vm/guest.sh; manifest program
 * cli_writer).
 *
 *   cli_writer eh N          TraceLogging provider "CliTest": N x Hello (level 4,
 *                            keyword 1: u32 i, string msg) and N x Data (level 5,
 *                            keyword 2: u32 twice = 2i, double half = i/2), and one
 *                            activity start/stop pair (level 4, keyword 1)
 *   cli_writer late FILE N   waits (at most 60 s) until FILE exists, then as eh N: a
 *                            writer whose process started before a recording
 *   cli_writer single N      N x One (u32 i) on CliSingle_L5K1
 *   cli_writer burst N       N x Burst (u32 i) on CliBurst_L5K1, as fast as possible
 *   cli_writer crit N M      N x Verbose (u32 i = 0..N-1) on CliCrit_L5K1, one
 *                            Critical (u32 i = N) on CliCrit_L1K1, then M x Verbose
 *                            (i = N+1..N+M), as fast as possible
 *   cli_writer tpp CMD DAT   registers every "flags<TAB>name args" line of CMD with
 *                            tracepoint_connect2 and writes every record of the
 *                            capture-format file DAT for those tracepoints with
 *                            tracepoint_write (the reference's tracepoint-provider.h
 *                            data); records of tracepoints CMD does not list are
 *                            skipped and counted ("skipped N")
 *
 * Prints "wrote N" (writes that returned 0) and exits 1 if a registration failed
 * or, with CLI_WRITER_EXPECT_ENABLED=1, if any write failed.
 */
#include <eventheader/TraceLoggingProvider.h>
#include <tracepoint/tracepoint.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

TRACELOGGING_DEFINE_PROVIDER(CliTest, "CliTest",
    (0x1a2b3c4d, 0x0001, 0x0002, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a));
TRACELOGGING_DEFINE_PROVIDER(CliSingle, "CliSingle",
    (0x1a2b3c4d, 0x0001, 0x0002, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0b));
TRACELOGGING_DEFINE_PROVIDER(CliBurst, "CliBurst",
    (0x1a2b3c4d, 0x0001, 0x0002, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0c));
TRACELOGGING_DEFINE_PROVIDER(CliCrit, "CliCrit",
    (0x1a2b3c4d, 0x0001, 0x0002, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0d));

static long count_arg(const char *s)
{
    char *end;
    long n = s ? strtol(s, &end, 10) : -1;
    if (!s || *end || n < 0) {
        fprintf(stderr, "cli_writer: bad count '%s'\n", s ? s : "");
        exit(2);
    }
    return n;
}

static int eh(long n)
{
    static const uint8_t activity[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    int rc = TraceLoggingRegister(CliTest);
    if (rc != 0) {
        fprintf(stderr, "cli_writer: TraceLoggingRegister: %d\n", rc);
        return 1;
    }
    TraceLoggingWriteActivity(CliTest, "Start", activity, NULL,
        TraceLoggingOpcode(event_opcode_activity_start),
        TraceLoggingLevel(event_level_information), TraceLoggingKeyword(1));
    for (long i = 0; i < n; i++) {
        TraceLoggingWrite(CliTest, "Hello",
            TraceLoggingLevel(event_level_information), TraceLoggingKeyword(1),
            TraceLoggingUInt32((uint32_t)i, "i"), TraceLoggingString("hello", "msg"));
        TraceLoggingWrite(CliTest, "Data",
            TraceLoggingLevel(event_level_verbose), TraceLoggingKeyword(2),
            TraceLoggingUInt32((uint32_t)(2 * i), "twice"), TraceLoggingFloat64(i / 2.0, "half"));
    }
    TraceLoggingWriteActivity(CliTest, "Stop", activity, NULL,
        TraceLoggingOpcode(event_opcode_activity_stop),
        TraceLoggingLevel(event_level_information), TraceLoggingKeyword(1));
    TraceLoggingUnregister(CliTest);
    printf("wrote %ld\n", 2 * n + 2);
    return 0;
}

static int single(long n)
{
    int rc = TraceLoggingRegister(CliSingle);
    if (rc != 0) {
        fprintf(stderr, "cli_writer: TraceLoggingRegister: %d\n", rc);
        return 1;
    }
    for (long i = 0; i < n; i++)
        TraceLoggingWrite(CliSingle, "One", TraceLoggingLevel(event_level_verbose),
            TraceLoggingKeyword(1), TraceLoggingUInt32((uint32_t)i, "i"));
    TraceLoggingUnregister(CliSingle);
    printf("wrote %ld\n", n);
    return 0;
}

static int burst(long n)
{
    int rc = TraceLoggingRegister(CliBurst);
    if (rc != 0) {
        fprintf(stderr, "cli_writer: TraceLoggingRegister: %d\n", rc);
        return 1;
    }
    for (long i = 0; i < n; i++)
        TraceLoggingWrite(CliBurst, "Burst", TraceLoggingLevel(event_level_verbose),
            TraceLoggingKeyword(1), TraceLoggingUInt32((uint32_t)i, "i"));
    TraceLoggingUnregister(CliBurst);
    printf("wrote %ld\n", n);
    return 0;
}

static int crit(long n, long m)
{
    int rc = TraceLoggingRegister(CliCrit);
    if (rc != 0) {
        fprintf(stderr, "cli_writer: TraceLoggingRegister: %d\n", rc);
        return 1;
    }
    for (long i = 0; i < n + 1 + m; i++) {
        if (i == n)
            TraceLoggingWrite(CliCrit, "Critical", TraceLoggingLevel(event_level_critical_error),
                TraceLoggingKeyword(1), TraceLoggingUInt32((uint32_t)i, "i"));
        else
            TraceLoggingWrite(CliCrit, "Verbose", TraceLoggingLevel(event_level_verbose),
                TraceLoggingKeyword(1), TraceLoggingUInt32((uint32_t)i, "i"));
    }
    TraceLoggingUnregister(CliCrit);
    printf("wrote %ld\n", n + 1 + m);
    return 0;
}

#define TPP_MAX 64

static int tpp(const char *cmd_path, const char *dat_path)
{
    static tracepoint_provider_state provider = TRACEPOINT_PROVIDER_STATE_INIT;
    static tracepoint_state states[TPP_MAX];
    static char names[TPP_MAX][256];
    int count = 0, failed = 0, written = 0, skipped = 0, rc;
    char line[1024];
    FILE *f = fopen(cmd_path, "r");
    if (!f) {
        perror(cmd_path);
        return 1;
    }
    rc = tracepoint_open_provider(&provider);
    if (rc != 0) {
        fprintf(stderr, "cli_writer: tracepoint_open_provider: %d\n", rc);
        fclose(f);
        return 1;
    }
    while (fgets(line, sizeof(line), f) && count < TPP_MAX) {
        char *nl = strchr(line, '\n');
        char *tab = strchr(line, '\t');
        if (nl)
            *nl = 0;
        if (!tab)
            continue;
        unsigned flags = (unsigned)strtoul(line, NULL, 10);
        const char *name_args = tab + 1;
        size_t len = strcspn(name_args, " ");
        if (len >= sizeof(names[0]))
            continue;
        memcpy(names[count], name_args, len);
        names[count][len] = 0;
        states[count] = (tracepoint_state)TRACEPOINT_STATE_INIT;
        rc = tracepoint_connect2(&states[count], &provider, name_args, flags);
        if (rc != 0) {
            fprintf(stderr, "cli_writer: connect \"%s\": %d\n", name_args, rc);
            failed++;
        }
        count++;
    }
    fclose(f);
    f = fopen(dat_path, "rb");
    if (!f) {
        perror(dat_path);
        return 1;
    }
    for (;;) {
        uint32_t size;
        static unsigned char rec[65536];
        if (fread(&size, 4, 1, f) != 1)
            break;
        if (size < 5 || size - 4 > sizeof(rec) || fread(rec, size - 4, 1, f) != 1) {
            fprintf(stderr, "cli_writer: bad record in %s\n", dat_path);
            failed++;
            break;
        }
        size_t name_len = strnlen((char *)rec, size - 4);
        int i;
        for (i = 0; i < count && strcmp(names[i], (char *)rec) != 0; i++)
            ;
        if (name_len == size - 4) {
            fprintf(stderr, "cli_writer: record without a NUL-terminated name\n");
            failed++;
            continue;
        }
        if (i == count) {
            skipped++;
            continue;
        }
        struct iovec vecs[2] = { { NULL, 0 }, { rec + name_len + 1, size - 4 - name_len - 1 } };
        rc = tracepoint_write(&states[i], 2, vecs);
        if (rc == 0)
            written++;
        else if (getenv("CLI_WRITER_EXPECT_ENABLED")) {
            fprintf(stderr, "cli_writer: write %s: %d\n", names[i], rc);
            failed++;
        }
    }
    fclose(f);
    tracepoint_close_provider(&provider);
    printf("wrote %d\nskipped %d\n", written, skipped);
    return failed ? 1 : 0;
}

/* Waits until `path` exists (at most 60 s); 0 once it does. */
static int wait_for(const char *path)
{
    const struct timespec tick = { 0, 50 * 1000 * 1000 };
    int i;
    for (i = 0; i < 1200; i++) {
        if (access(path, F_OK) == 0)
            return 0;
        nanosleep(&tick, NULL);
    }
    fprintf(stderr, "cli_writer: %s never appeared\n", path);
    return 1;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 3 && !strcmp(argv[1], "eh"))
        return eh(count_arg(argv[2]));
    if (argc == 4 && !strcmp(argv[1], "late"))
        return wait_for(argv[2]) ? 1 : eh(count_arg(argv[3]));
    if (argc == 3 && !strcmp(argv[1], "single"))
        return single(count_arg(argv[2]));
    if (argc == 3 && !strcmp(argv[1], "burst"))
        return burst(count_arg(argv[2]));
    if (argc == 4 && !strcmp(argv[1], "crit"))
        return crit(count_arg(argv[2]), count_arg(argv[3]));
    if (argc == 4 && !strcmp(argv[1], "tpp"))
        return tpp(argv[2], argv[3]);
    fprintf(stderr, "usage: cli_writer eh N | late FILE N | single N | burst N | crit N M | tpp CMD DAT\n");
    return 2;
}
