/*
floor.c: the syscall floor. Issues the same writev calls as bench.c (same
number of iovecs, same bytes) from iovecs built once before the loop, with no
library at all: what any user_events tracing library must at least spend.

    floor MODE N [--tracefs-enable]

Modes as in bench.c: loop, disabled (a relaxed load of a zero enable word and
a branch), enabled5, activity5 (the header followed by the activity id
extension), thread5 (the same with the activity id only), empty, fields64,
string4k. Prints "MODE N NS_PER_ITER".

With TRACEPOINT_CAPTURE_FILE set, it appends capture records to that file (the
record header { u32 size; name } takes the place of the write index in vec 0,
as in the library's capture backend). Without it, it opens the kernel's
user_events_data, registers "EhtFloor_L5K1" with the EventHeader arg spec by
DIAG_IOCSREG, and writes { write_index } + event; --tracefs-enable enables the
tracepoint through tracefs first (needs root).
*/
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "../../tests/kernel/src/uev.h" /* the kernel's user_events ABI */
#include "bench-common.h"

#define TRACEPOINT_NAME "EhtFloor_L5K1"
#define MAX_VECS 80

static uint32_t g_enable_word; /* set by the kernel while enabled */
static uint32_t g_zero_word;   /* the disabled tracepoint's word */

/* The event: header, metadata extension and payload vectors. */
static uint8_t g_header[8] = { 0x07, 0, 0, 0, 0, 0, 0, 5 }; /* flags, version, id, tag, opcode, level */
/* activity5: the header, then the activity id extension (size 32, kind
   activity_id | chain_flag: the metadata follows) with both ids. */
static uint8_t g_act_header[8 + 4 + 32] = { 0x07, 0, 0, 0, 0, 0, 0, 5, 32, 0, 0x02, 0x80,
    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00,
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 };
/* thread5: the same with the activity id only (size 16). */
static uint8_t g_thread_header[8 + 4 + 16] = { 0x07, 0, 0, 0, 0, 0, 0, 5, 16, 0, 0x02, 0x80,
    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00 };
static uint8_t g_meta[4096];
static size_t g_meta_len;
static struct iovec g_vecs[MAX_VECS];
static int g_nvecs;

static int32_t g_i32 = 1;
static uint64_t g_u64 = 3;
static double g_f64 = 0.5;
static uint8_t g_bool = 1;
static char g_big[4096];

static void meta_bytes(void const* p, size_t n)
{
    memcpy(g_meta + g_meta_len, p, n);
    g_meta_len += n;
}

static void meta_begin(char const* event_name)
{
    g_meta_len = 4; /* extension header, filled in by meta_end */
    meta_bytes(event_name, strlen(event_name) + 1);
}

static void meta_field(char const* name, uint8_t encoding, uint8_t format)
{
    meta_bytes(name, strlen(name) + 1);
    uint8_t enc = format ? (uint8_t)(encoding | 0x80) : encoding;
    meta_bytes(&enc, 1);
    if (format) {
        meta_bytes(&format, 1);
    }
}

static void meta_end(void)
{
    uint16_t ext[2] = { (uint16_t)(g_meta_len - 4), 1 /* metadata */ };
    memcpy(g_meta, ext, sizeof ext);
}

static void vec(void const* p, size_t n)
{
    g_vecs[g_nvecs].iov_base = (void*)p;
    g_vecs[g_nvecs].iov_len = n;
    g_nvecs++;
}

/* Field kinds of bench.c's events: encoding, format, data. */
static void field_i32(char const* name) { meta_field(name, 4, 2); vec(&g_i32, 4); }
static void field_u64(char const* name) { meta_field(name, 5, 0); vec(&g_u64, 8); }
static void field_str(char const* name, char const* s) { meta_field(name, 7, 10); vec(s, strlen(s) + 1); }
static void field_f64(char const* name) { meta_field(name, 5, 8); vec(&g_f64, 8); }
static void field_bool(char const* name) { meta_field(name, 2, 7); vec(&g_bool, 1); }

static int build_event(char const* mode)
{
    g_nvecs = 1; /* vec 0: write index or capture record header */
    vec(g_header, sizeof g_header);
    vec(g_meta, 0); /* length set below */
    if (!strcmp(mode, "enabled5") || !strcmp(mode, "activity5") || !strcmp(mode, "thread5")) {
        if (!strcmp(mode, "activity5")) {
            g_vecs[1].iov_base = g_act_header;
            g_vecs[1].iov_len = sizeof g_act_header;
            meta_begin("Activity5");
        } else if (!strcmp(mode, "thread5")) {
            g_vecs[1].iov_base = g_thread_header;
            g_vecs[1].iov_len = sizeof g_thread_header;
            meta_begin("Thread5");
        } else {
            meta_begin("Enabled5");
        }
        field_i32("i32");
        field_u64("u64");
        field_str("str", g_short);
        field_f64("f64");
        field_bool("flag");
    } else if (!strcmp(mode, "empty")) {
        meta_begin("Empty");
    } else if (!strcmp(mode, "fields64")) {
        meta_begin("Fields64");
        for (int b = 0; b < 8; b++) {
            char name[8][4];
            for (int k = 0; k < 8; k++) {
                snprintf(name[k], sizeof name[k], "%c%d", 'a' + k, b);
            }
            field_i32(name[0]);
            field_u64(name[1]);
            field_str(name[2], g_short);
            field_f64(name[3]);
            field_bool(name[4]);
            field_i32(name[5]);
            field_u64(name[6]);
            field_f64(name[7]);
        }
    } else if (!strcmp(mode, "string4k")) {
        meta_begin("String4k");
        field_str("big", g_big);
    } else {
        return 1;
    }
    meta_end();
    g_vecs[2].iov_len = g_meta_len;
    return 0;
}

static int g_fd = -1;

__attribute__((noinline)) static int run_loop(unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        OPAQUE(i);
    }
    return 0;
}

__attribute__((noinline)) static int run_disabled(unsigned n)
{
    int err = 0;
    for (unsigned i = 0; i < n; i++) {
        if (__builtin_expect(__atomic_load_n(&g_zero_word, __ATOMIC_RELAXED) != 0, 0)) {
            err |= writev(g_fd, g_vecs, g_nvecs) < 0;
        }
    }
    return err;
}

__attribute__((noinline)) static int run_write(unsigned n)
{
    int err = 0;
    for (unsigned i = 0; i < n; i++) {
        err |= writev(g_fd, g_vecs, g_nvecs) < 0;
    }
    return err;
}

int main(int argc, char* argv[])
{
    if (argc < 3) {
        fprintf(stderr, "usage: floor loop|disabled|enabled5|activity5|thread5|empty|fields64|string4k N [--tracefs-enable]\n");
        return 2;
    }
    char const* mode = argv[1];
    unsigned n = (unsigned)strtoul(argv[2], NULL, 10);
    bool enable = argc > 3 && strcmp(argv[3], "--tracefs-enable") == 0;
    char const* capture = getenv("TRACEPOINT_CAPTURE_FILE");
    memset(g_big, 'x', sizeof g_big - 1);

    int (*fn)(unsigned) = run_write;
    if (!strcmp(mode, "loop")) {
        fn = run_loop;
    } else if (!strcmp(mode, "disabled")) {
        fn = run_disabled;
    } else if (build_event(mode) != 0) {
        fprintf(stderr, "floor: unknown mode %s\n", mode);
        return 2;
    }

    /* vec 0: what precedes the event bytes. */
    static uint8_t head[4 + sizeof TRACEPOINT_NAME];
    static uint32_t write_index;
    if (fn == run_write && capture) {
        g_fd = open(capture, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (g_fd < 0) {
            fprintf(stderr, "floor: open %s: %s\n", capture, strerror(errno));
            return 1;
        }
        uint32_t size = sizeof head;
        for (int i = 1; i < g_nvecs; i++) {
            size += (uint32_t)g_vecs[i].iov_len;
        }
        memcpy(head, &size, 4);
        memcpy(head + 4, TRACEPOINT_NAME, sizeof TRACEPOINT_NAME);
        g_vecs[0].iov_base = head;
        g_vecs[0].iov_len = sizeof head;
    } else if (fn == run_write) {
        g_fd = open("/sys/kernel/tracing/user_events_data", O_RDWR | O_CLOEXEC);
        if (g_fd < 0) {
            fprintf(stderr, "floor: open user_events_data: %s\n", strerror(errno));
            return 1;
        }
        struct ehk_user_reg reg;
        memset(&reg, 0, sizeof reg);
        reg.size = sizeof reg;
        reg.enable_bit = 0;
        reg.enable_size = sizeof g_enable_word;
        reg.enable_addr = (uint64_t)(uintptr_t)&g_enable_word;
        reg.name_args = (uint64_t)(uintptr_t)(TRACEPOINT_NAME " " EHK_REFERENCE_ARGS);
        if (ioctl(g_fd, EHK_DIAG_IOCSREG, &reg) < 0) {
            fprintf(stderr, "floor: DIAG_IOCSREG: %s\n", strerror(errno));
            return 1;
        }
        write_index = reg.write_index;
        g_vecs[0].iov_base = &write_index;
        g_vecs[0].iov_len = sizeof write_index;
        if (enable && tracefs_enable(TRACEPOINT_NAME) != 0) {
            return 1;
        }
        if (!__atomic_load_n(&g_enable_word, __ATOMIC_RELAXED)) {
            fprintf(stderr, "floor: warning: %s has no listener (writes fail with EBADF)\n", TRACEPOINT_NAME);
        }
    }

    double t0 = now_ns();
    int err = fn(n);
    double t1 = now_ns();
    if (err != 0) {
        fprintf(stderr, "floor: %s: writev failed: %s\n", mode, strerror(errno));
        return 1;
    }
    printf("%s %u %.2f\n", mode, n, n ? (t1 - t0) / n : 0.0);
    return 0;
}
