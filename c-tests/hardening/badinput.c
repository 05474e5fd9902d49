/*
 * The bad-input table (docs/bad-input.md): every row is a case here, and
 * each prints "case NAME errno N" (or "case NAME ok") after checking the
 * result itself; main.rs checks the capture file and the list of
 * cases.
 *
 *   badinput capture          TRACEPOINT_CAPTURE_FILE set: the API cases
 *   badinput names MODE       the tracepoint-name rows and a zero-initialized
 *                             provider state, in capture mode or ("kernel") against user_events:
 *                             the VM suite runs them on the real kernel,
 *                             where afterwards events/user_events/ in tracefs
 *                             must still list (a registration with an empty
 *                             name or one with '/' can make it fail with EIO
 *                             until reboot)
 *   badinput nokernel         no capture file, no user_events: open fails
 *                             (printed as "open-errno N"), everything else
 *                             is a safe no-op; and fd exhaustion
 *   badinput setfile PATH     tracepoint_set_capture_file(PATH): prints
 *                             "setfile-errno N" (read-only filesystem,
 *                             missing directory, directory)
 *   badinput writefail PATH   capture to PATH (e.g. /dev/full, or a file on
 *                             a full filesystem), write a 4 KiB event:
 *                             prints "write-errno N"
 *   badinput fsize PATH NEXT  capture to PATH under RLIMIT_FSIZE = 100
 *                             bytes (SIGXFSZ ignored): the write that
 *                             crosses the limit is short (ENOSPC), and every
 *                             later one fails with ENOSPC, also once the
 *                             limit is lifted; then capture to NEXT works
 *   badinput tmpfs DIR        the same on a nearly full file system (DIR: a
 *                             small tmpfs), whose space is freed after the
 *                             short write
 *   badinput fdexhaust        capture mode, no descriptor left: the first
 *                             open returns EMFILE, and after descriptors
 *                             are freed an open succeeds
 *
 * Events written in "capture" mode (the test counts them):
 *   HardBad_L5K1            "Ok" once, "Zero" (0-byte payload) once
 *   HardBad_L5Kffffffffffffffff  "AllBits" once
 *   <234 x 'N'>_LffKffffffffffffffff  "AtLimit" once (tracepoint name of
 *                           exactly 255 bytes)
 *   HardBad_L4K1            "Big" with a 70000-byte payload (bytes i & 0xff)
 *   HardBadRaw              a 0-byte raw event (one padding byte)
 *   HardBad_L5K1            "Twice" once after connecting twice
 */
#define _GNU_SOURCE

#include "hcommon.h"

#include <tracepoint/tracepoint-capture.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

static void report(char const* name, int err)
{
    if (err == 0) {
        printf("case %s ok\n", name);
    } else {
        printf("case %s errno %d\n", name, err);
    }
}

#define EXPECT(name, expected, expr)          \
    do {                                      \
        int const b_err_ = (expr);            \
        CHECK_EQ_INT((expected), b_err_);     \
        report((name), b_err_);               \
    } while (0)

static void check_init(tracepoint_state const* tp)
{
    CHECK_EQ_INT(0, tp->status_word);
    CHECK_EQ_INT(-1, tp->write_index);
    CHECK(tp->provider_state == NULL);
    CHECK(tp->tracepoint_list_link.next == NULL);
}

static char* repeat(char c, size_t n)
{
    char* s = (char*)malloc(n + 1);
    CHECK(s != NULL);
    memset(s, c, n);
    s[n] = 0;
    return s;
}

/* eventheader_open_provider of a throwaway provider; closes it again. */
static int try_open(char const* name, char const* options)
{
    tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    eventheader_provider const p = { &state, options, name };
    int const err = eventheader_open_provider(&p);
    eventheader_close_provider(&p);
    CHECK_EQ_INT(-1, state.data_file);
    return err;
}

/*
 * The tracepoint-name rows, on the open provider `state` (the rules of
 * src/tracepoint_name.rs, the same for both backends): each is refused
 * before anything reaches a backend, and `tp` (TRACEPOINT_STATE_INIT) is
 * left as it was. Then the provider-name rows, on throwaway providers.
 */
static void name_cases(tracepoint_provider_state* state, tracepoint_state* tp)
{
    static struct {
        char const* name;
        char const* args;
        int err;
    } const rows[] = {
        { "connect-empty-name-args", " u32 a", EINVAL },
        { "connect-name-empty", "", EINVAL },
        { "connect-name-space", " ", EINVAL },
        { "connect-name-colon", "Bad:colon u32 a", EINVAL },
        { "connect-name-slash", "Bad/slash u32 a", EINVAL },
        { "connect-name-tab", "Bad\tname u32 a", EINVAL },
        { "connect-name-newline", "Bad\nname u32 a", EINVAL },
        { "connect-name-control", "Bad\x01name u32 a", EINVAL },
        { "connect-name-del", "Bad\x7fname u32 a", EINVAL },
        { "connect-name-not-utf8", "RevUtf\xff\xfe u32 a", EINVAL },
        { "connect-name-cut-utf8", "Cut\xc3 u32 a", EINVAL },
        { "connect-name-c1-control", "C1\xc2\x85name u32 a", EINVAL },
        { "connect-name-enable", "enable u32 a", EINVAL },
        { "connect-name-filter", "filter", EINVAL },
    };
    check_init(tp);
    EXPECT("connect-null-name-args", EINVAL, tracepoint_connect(tp, state, NULL));
    check_init(tp);
    {
        tracepoint_provider_state closed = TRACEPOINT_PROVIDER_STATE_INIT;
        EXPECT("connect-null-name-args-closed", EINVAL, tracepoint_connect(tp, &closed, NULL));
        check_init(tp);
        CHECK(closed.tracepoint_list_head.next == NULL);
    }
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i += 1) {
        EXPECT(rows[i].name, rows[i].err, tracepoint_connect(tp, state, rows[i].args));
        check_init(tp);
    }
    {
        char* long_name = repeat('T', 256);
        EXPECT("tracepoint-name-256", E2BIG, tracepoint_connect(tp, state, long_name));
        check_init(tp);
        free(long_name);
    }
    EXPECT("name-empty", EINVAL, try_open("", ""));
    EXPECT("name-space", EINVAL, try_open("Hard Bad", ""));
    EXPECT("name-colon", EINVAL, try_open("Hard:Bad", ""));
    EXPECT("name-slash", EINVAL, try_open("Hard/Bad", ""));
    EXPECT("name-tab", EINVAL, try_open("Hard\tBad", ""));
    EXPECT("name-newline", EINVAL, try_open("Hard\nBad", ""));
    EXPECT("name-not-utf8", EINVAL, try_open("RevUtf\xff\xfe", ""));
}

/*
 * A vector count far beyond the caller's 4-element heap array: refused
 * (EINVAL, over 1024) before any vector is read (valgrind, run by
 * tests/sanitizers.sh, sees no read past the array: summing the lengths
 * first would read far past it).
 */
static void huge_count_cases(eventheader_tracepoint const* ev)
{
    struct iovec* four = (struct iovec*)calloc(4, sizeof(struct iovec));
    CHECK(four != NULL);
    EXPECT("write-count-huge", EINVAL, tracepoint_write(ev->state, 0xffffffffu, four));
    EXPECT("eventheader-write-count-huge", EINVAL,
           eventheader_write(ev, NULL, NULL, 0xffffffffu, four));
    EXPECT("eventheader-write-count-1025", EINVAL, eventheader_write(ev, NULL, NULL, 1025, four));
    free(four);
}

/*
 * A zero-initialized provider state (not TRACEPOINT_PROVIDER_STATE_INIT,
 * so data_file is 0): a closed provider. Connect links without sending
 * anything to descriptor 0, which the library did not open and may be
 * anything, open opens it (data_file 0 is not "open"), and a reconnected
 * tracepoint registers on the library's own descriptor.
 */
static void zeroed_cases(int kernel)
{
    static tracepoint_provider_state zeroed;
    static tracepoint_state tp = TRACEPOINT_STATE_INIT;
    memset(&zeroed, 0, sizeof(zeroed));
    EXPECT("zeroed-provider-connect", 0, tracepoint_connect(&tp, &zeroed, "HardBadZeroed u32 a"));
    CHECK_EQ_INT(-1, tp.write_index);
    CHECK_EQ_INT(-1, zeroed.data_file);
    EXPECT("zeroed-provider-open", 0, tracepoint_open_provider(&zeroed));
    check_init(&tp); /* open reset it */
    CHECK(zeroed.data_file > 0);
    EXPECT("zeroed-provider-reconnect", 0,
           tracepoint_connect(&tp, &zeroed, "HardBadZeroed u32 a"));
    CHECK(tp.write_index >= 0);
    uint32_t value = 7;
    struct iovec vecs[2] = { { NULL, 0 }, { &value, sizeof(value) } };
    int const err = tracepoint_write(&tp, 2, vecs);
    CHECK(err == 0 || (kernel && err == EBADF));
    report("zeroed-provider-write", 0);
    tracepoint_close_provider(&zeroed);
    check_init(&tp);
}

/* events/user_events/ of tracefs lists without error and has `name`. */
static void check_tracefs_listing(char const* name)
{
    DIR* dir = opendir("/sys/kernel/tracing/events/user_events");
    CHECK(dir != NULL);
    int found = 0, n = 0;
    errno = 0;
    struct dirent* entry;
    while ((entry = readdir(dir)) != NULL) {
        n += 1;
        found |= strcmp(entry->d_name, name) == 0;
    }
    CHECK_EQ_INT(0, errno);
    closedir(dir);
    CHECK(found);
    printf("tracefs-listing ok %d\n", n);
}

static int mode_names(int kernel)
{
    static tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    static tracepoint_state tp = TRACEPOINT_STATE_INIT;
    static tracepoint_state good = TRACEPOINT_STATE_INIT;
    EXPECT("open", 0, tracepoint_open_provider(&state));
    name_cases(&state, &tp);
    zeroed_cases(kernel);
    /* Printable punctuation and UTF-8 are allowed. */
    EXPECT("connect-good-name", 0,
           tracepoint_connect(&good, &state, "HardBadGood.name-1\xc3\x9c u32 a"));
    if (kernel) {
        check_tracefs_listing("HardBadGood.name-1\xc3\x9c");
    }
    tracepoint_close_provider(&state);
    printf("done\n");
    return 0;
}

static int mode_capture(void)
{
    static tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    static eventheader_provider const prov = { &state, "", "HardBad" };
    static tracepoint_state tp = TRACEPOINT_STATE_INIT;
    h_meta meta_ok, meta_zero, meta_all, meta_limit, meta_big, meta_twice;
    h_meta_init(&meta_ok, "Ok");
    h_meta_init(&meta_zero, "Zero");
    h_meta_init(&meta_all, "AllBits");
    h_meta_init(&meta_limit, "AtLimit");
    h_meta_init(&meta_big, "Big");
    h_meta_init(&meta_twice, "Twice");
    eventheader_tracepoint ev = h_event(&tp, &meta_ok, 5, 1);
    struct iovec vecs[8];
    memset(vecs, 0, sizeof(vecs));

    /* NULL pointers. */
    EXPECT("null-provider-open", EINVAL, eventheader_open_provider(NULL));
    EXPECT("null-provider-state-open", EINVAL, tracepoint_open_provider(NULL));
    {
        eventheader_provider const no_state = { NULL, "", "HardBad" };
        eventheader_provider const no_name = { &state, "", NULL };
        EXPECT("null-state-in-provider", EINVAL, eventheader_open_provider(&no_state));
        EXPECT("null-name-in-provider", EINVAL, eventheader_open_provider(&no_name));
        eventheader_close_provider(&no_state);
        eventheader_close_provider(&no_name);
    }
    eventheader_close_provider(NULL);
    tracepoint_close_provider(NULL);
    report("null-close", 0);
    EXPECT("null-event-connect", EINVAL, eventheader_connect(NULL, &prov));
    {
        eventheader_tracepoint no_state = ev;
        no_state.state = NULL;
        EXPECT("null-event-state-connect", EINVAL, eventheader_connect(&no_state, &prov));
        EXPECT("null-event-state-write", EINVAL,
               eventheader_write(&no_state, NULL, NULL, EVENTHEADER_PREFIX_DATAVEC_COUNT, vecs));
    }
    EXPECT("null-tracepoint-connect", EINVAL, tracepoint_connect(NULL, &state, "X u32 a"));
    EXPECT("null-event-write", EINVAL,
           eventheader_write(NULL, NULL, NULL, EVENTHEADER_PREFIX_DATAVEC_COUNT, vecs));
    EXPECT("null-tracepoint-write", EINVAL, tracepoint_write(NULL, 1, vecs));
    EXPECT("null-vecs-write", EINVAL, tracepoint_write(&tp, 1, NULL));
    {
        eventheader_tracepoint const* one[1] = { &ev };
        EXPECT("null-range", EINVAL, eventheader_open_provider_with_events(&prov, NULL, one + 1));
        EXPECT("reversed-range", EINVAL, eventheader_open_provider_with_events(&prov, one + 1, one));
    }
    check_init(&tp);

    /* Write before register. */
    EXPECT("write-before-register", EBADF, h_write3(&ev, 0, 0, 0));
    EXPECT("raw-write-before-register", EBADF, tracepoint_write(&tp, 1, vecs));
    /* Connected to a provider that is not open yet. */
    EXPECT("connect-closed-provider", 0, eventheader_connect(&ev, &prov));
    EXPECT("write-closed-provider", EBADF, h_write3(&ev, 0, 0, 0));

    /* Provider options. */
    EXPECT("options-lowercase-first", EINVAL, try_open("HardBad", "gx"));
    EXPECT("options-unsorted", EINVAL, try_open("HardBad", "HxGy"));
    EXPECT("options-bad-char", EINVAL, try_open("HardBad", "G-x"));
    {
        /* Shortest tracepoint name is name + "_L1K0" + options < 256. */
        char* fits = repeat('N', 250);
        char* over = repeat('N', 251);
        char* huge = repeat('N', 100000);
        EXPECT("name-250-open", 0, try_open(fits, ""));
        EXPECT("name-251-open", E2BIG, try_open(over, ""));
        EXPECT("name-100000-open", E2BIG, try_open(huge, ""));
        free(fits);
        free(over);
        free(huge);
    }

    /* Open, double open. */
    EXPECT("open", 0, eventheader_open_provider(&prov));
    EXPECT("double-open", EALREADY, eventheader_open_provider(&prov));
    check_init(&tp); /* opening reset the tracepoint connected while closed */

    /* Level 0, connect errors leave the event unchanged. */
    {
        eventheader_tracepoint level0 = ev;
        level0.header.level = 0;
        EXPECT("level-0", EINVAL, eventheader_connect(&level0, &prov));
        check_init(&tp);
    }
    name_cases(&state, &tp);
    EXPECT("write-after-failed-connect", EBADF, h_write3(&ev, 0, 0, 0));
    EXPECT("disconnect", 0, tracepoint_connect(&tp, NULL, NULL));
    check_init(&tp);

    /* The event that should land, then double register (connect twice). */
    EXPECT("connect", 0, eventheader_connect(&ev, &prov));
    EXPECT("write", 0, h_write3(&ev, 1, 2, 3));
    {
        eventheader_tracepoint twice = ev;
        twice.metadata = &meta_twice.u.ext;
        EXPECT("double-connect", 0, eventheader_connect(&twice, &prov));
        EXPECT("write-after-double-connect", 0, h_write3(&twice, 4, 5, 6));
    }

    /* Vector counts. */
    EXPECT("write-count-0", EINVAL, tracepoint_write(&tp, 0, vecs));
    huge_count_cases(&ev);
    {
        struct iovec* many = (struct iovec*)calloc(1025, sizeof(struct iovec));
        CHECK(many != NULL);
        EXPECT("write-count-1025", EINVAL, tracepoint_write(&tp, 1025, many));
        free(many);
    }
    EXPECT("eventheader-write-too-few-vecs", EINVAL,
           eventheader_write(&ev, NULL, NULL, EVENTHEADER_PREFIX_DATAVEC_COUNT - 1, vecs));
    {
        static uint8_t const related[16] = { 1 };
        EXPECT("related-without-activity", EINVAL,
               eventheader_write(&ev, NULL, related, EVENTHEADER_PREFIX_DATAVEC_COUNT, vecs));
    }
    {
        /* Lengths adding up to more than a record can hold: refused before
           any byte is read (the buffer is 1 byte). */
        static uint8_t one = 7;
        struct iovec huge[3] = { { NULL, 0 }, { &one, (size_t)1 << 31 }, { &one, (size_t)1 << 31 } };
        EXPECT("write-4GiB", E2BIG, tracepoint_write(&tp, 3, huge));
        struct iovec wrap[3] = { { NULL, 0 }, { &one, SIZE_MAX }, { &one, 2 } };
        EXPECT("write-length-overflow", E2BIG, tracepoint_write(&tp, 3, wrap));
    }

    /* 0-byte events. */
    {
        eventheader_tracepoint zero = ev;
        zero.metadata = &meta_zero.u.ext;
        EXPECT("eventheader-zero-payload", 0,
               eventheader_write(&zero, NULL, NULL, EVENTHEADER_PREFIX_DATAVEC_COUNT, vecs));
        static tracepoint_state raw = TRACEPOINT_STATE_INIT;
        EXPECT("raw-connect", 0, tracepoint_connect(&raw, &state, "HardBadRaw"));
        struct iovec only[1] = { { NULL, 0 } };
        EXPECT("raw-zero-bytes", 0, tracepoint_write(&raw, 1, only));
        EXPECT("raw-disconnect", 0, tracepoint_connect(&raw, NULL, NULL));
    }

    /* Over 64 KiB: capture keeps it whole (the kernel's trace buffers would
       drop it: see docs/bad-input.md). */
    {
        static tracepoint_state big_tp = TRACEPOINT_STATE_INIT;
        eventheader_tracepoint big = h_event(&big_tp, &meta_big, 4, 1);
        uint8_t* payload = (uint8_t*)malloc(70000);
        CHECK(payload != NULL);
        for (size_t i = 0; i < 70000; i += 1) {
            payload[i] = (uint8_t)i;
        }
        EXPECT("big-connect", 0, eventheader_connect(&big, &prov));
        struct iovec bv[4] = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 }, { payload, 70000 } };
        EXPECT("event-70000-bytes", 0, eventheader_write(&big, NULL, NULL, 4, bv));
        free(payload);
    }

    /* Keyword with every bit set, level 255, names at the limit. */
    {
        static tracepoint_state all_tp = TRACEPOINT_STATE_INIT;
        eventheader_tracepoint all = h_event(&all_tp, &meta_all, 5, UINT64_MAX);
        EXPECT("keyword-all-bits", 0, eventheader_connect(&all, &prov));
        EXPECT("keyword-all-bits-write", 0, h_write3(&all, 7, 8, 9));
    }
    {
        /* 234 + "_LffKffffffffffffffff" (21) = 255 bytes: fits; 235 does not. */
        char* at = repeat('N', 234);
        char* over = repeat('N', 235);
        static tracepoint_provider_state at_state = TRACEPOINT_PROVIDER_STATE_INIT;
        static tracepoint_provider_state over_state = TRACEPOINT_PROVIDER_STATE_INIT;
        eventheader_provider const at_prov = { &at_state, "", at };
        eventheader_provider const over_prov = { &over_state, "", over };
        static tracepoint_state at_tp = TRACEPOINT_STATE_INIT;
        static tracepoint_state over_tp = TRACEPOINT_STATE_INIT;
        eventheader_tracepoint at_ev = h_event(&at_tp, &meta_limit, 255, UINT64_MAX);
        eventheader_tracepoint over_ev = h_event(&over_tp, &meta_limit, 255, UINT64_MAX);
        EXPECT("name-255-open", 0, eventheader_open_provider(&at_prov));
        EXPECT("name-255-connect", 0, eventheader_connect(&at_ev, &at_prov));
        EXPECT("name-255-write", 0, h_write3(&at_ev, 255, 0, 0));
        EXPECT("name-256-open", 0, eventheader_open_provider(&over_prov));
        EXPECT("name-256-connect", E2BIG, eventheader_connect(&over_ev, &over_prov));
        check_init(&over_tp);
        EXPECT("name-256-write", EBADF, h_write3(&over_ev, 256, 0, 0));
        eventheader_close_provider(&at_prov);
        eventheader_close_provider(&over_prov);
        free(at);
        free(over);
    }

    /* Write after unregister, double unregister. */
    EXPECT("disconnect-event", 0, eventheader_connect(&ev, NULL));
    EXPECT("write-after-disconnect", EBADF, h_write3(&ev, 0, 0, 0));
    EXPECT("double-disconnect", 0, eventheader_connect(&ev, NULL));
    EXPECT("reconnect", 0, eventheader_connect(&ev, &prov));
    eventheader_close_provider(&prov);
    check_init(&tp);
    EXPECT("write-after-close", EBADF, h_write3(&ev, 0, 0, 0));
    eventheader_close_provider(&prov);
    report("double-close", 0);
    EXPECT("write-after-double-close", EBADF, h_write3(&ev, 0, 0, 0));
    printf("done\n");
    return 0;
}

static int mode_nokernel(void)
{
    static tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    static eventheader_provider const prov = { &state, "", "HardBadNoKernel" };
    static tracepoint_state tp = TRACEPOINT_STATE_INIT;
    h_meta meta;
    h_meta_init(&meta, "NoKernel");
    eventheader_tracepoint const ev = h_event(&tp, &meta, 5, 1);

    /* fd exhaustion first: the library has not opened user_events_data yet. */
    struct rlimit old;
    CHECK_EQ_INT(0, getrlimit(RLIMIT_NOFILE, &old));
    struct rlimit low = old;
    low.rlim_cur = 64;
    CHECK_EQ_INT(0, setrlimit(RLIMIT_NOFILE, &low));
    int fds[64];
    int n = 0;
    for (;;) {
        int const fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            CHECK_EQ_INT(EMFILE, errno);
            break;
        }
        CHECK(n < 64);
        fds[n++] = fd;
    }
    int const exhausted = eventheader_open_provider(&prov);
    printf("exhausted-open-errno %d\n", exhausted);
    CHECK(exhausted != 0);
    for (int i = 0; i < n; i += 1) {
        close(fds[i]);
    }
    CHECK_EQ_INT(0, setrlimit(RLIMIT_NOFILE, &old));

    int const err = eventheader_open_provider(&prov);
    printf("open-errno %d\n", err);
    CHECK(err != 0);
    /* Everything else is a safe no-op. */
    CHECK_EQ_INT(0, eventheader_connect(&ev, &prov));
    CHECK_EQ_INT(0, tp.status_word);
    CHECK_EQ_INT(EBADF, h_write3(&ev, 0, 0, 0));
    CHECK_EQ_INT(0, eventheader_connect(&ev, NULL));
    eventheader_close_provider(&prov);
    eventheader_close_provider(&prov);
    printf("done\n");
    return 0;
}

static int mode_setfile(char const* path)
{
    int const err = tracepoint_set_capture_file(path);
    printf("setfile-errno %d\n", err);
    /* A failed selection leaves capture off: open goes to the kernel. */
    static tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    int const open_err = tracepoint_open_provider(&state);
    printf("open-errno %d\n", open_err);
    tracepoint_close_provider(&state);
    printf("done\n");
    return 0;
}

static int write_one(size_t size)
{
    static tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    static tracepoint_state tp = TRACEPOINT_STATE_INIT;
    int err = tracepoint_open_provider(&state);
    if (err != 0 && err != EALREADY) {
        return -err;
    }
    CHECK_EQ_INT(0, tracepoint_connect(&tp, &state, "HardBadFull u8 a"));
    uint8_t* payload = (uint8_t*)calloc(1, size);
    CHECK(payload != NULL);
    struct iovec vecs[2] = { { NULL, 0 }, { payload, size } };
    err = tracepoint_write(&tp, 2, vecs);
    free(payload);
    return err;
}

static int mode_writefail(char const* path)
{
    int const set = tracepoint_set_capture_file(path);
    printf("setfile-errno %d\n", set);
    CHECK_EQ_INT(0, set);
    int const err = write_one(4096);
    printf("write-errno %d\n", err);
    CHECK(err > 0);
    printf("done\n");
    return 0;
}

/*
 * The whole records of the capture file `path` (the rest, if any, is one
 * torn record at its end); prints "PREFIX-records N torn T".
 */
static int whole_records(char const* path, char const* prefix)
{
    FILE* f = fopen(path, "rb");
    CHECK(f != NULL);
    int records = 0;
    long torn = 0;
    for (;;) {
        unsigned char size_bytes[4];
        size_t const got = fread(size_bytes, 1, 4, f);
        if (got == 0) {
            break;
        }
        uint32_t const size = (uint32_t)size_bytes[0] | (uint32_t)size_bytes[1] << 8 |
                              (uint32_t)size_bytes[2] << 16 | (uint32_t)size_bytes[3] << 24;
        long const start = ftell(f) - (long)got;
        CHECK(fseek(f, 0, SEEK_END) == 0);
        long const end = ftell(f);
        if (got < 4 || size < 4 || start + (long)size > end) {
            torn = end - start;
            break;
        }
        CHECK(fseek(f, start + (long)size, SEEK_SET) == 0);
        records += 1;
    }
    fclose(f);
    printf("%s-records %d torn %ld\n", prefix, records, torn);
    return records;
}

/*
 * A short write under RLIMIT_FSIZE: the write that crosses the limit leaves
 * a partial record and returns ENOSPC; from then on every capture write
 * returns ENOSPC without writing (the limit says EFBIG, and once it is
 * raised a write would succeed, but land after the partial record where no
 * reader finds it), so every write that returned 0 is a whole record.
 * Selecting a capture file again (NEXT) starts over.
 */
static int mode_fsize(char const* path, char const* next)
{
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old;
    CHECK_EQ_INT(0, getrlimit(RLIMIT_FSIZE, &old));
    struct rlimit lim = old;
    lim.rlim_cur = 100;
    CHECK_EQ_INT(0, setrlimit(RLIMIT_FSIZE, &lim));
    CHECK_EQ_INT(0, tracepoint_set_capture_file(path));
    int const first = write_one(40);  /* 4 + 12 + 40 = 56 bytes: fits */
    int const second = write_one(80); /* crosses 100: short write */
    int const third = write_one(10);  /* at the limit */
    CHECK_EQ_INT(0, setrlimit(RLIMIT_FSIZE, &old));
    int const fourth = write_one(10); /* room again */
    printf("fsize-errno %d %d %d %d\n", first, second, third, fourth);
    CHECK_EQ_INT(0, first);
    CHECK_EQ_INT(ENOSPC, second);
    CHECK_EQ_INT(ENOSPC, third);
    CHECK_EQ_INT(ENOSPC, fourth);
    CHECK_EQ_INT(1, whole_records(path, "fsize"));
    CHECK_EQ_INT(0, tracepoint_set_capture_file(next));
    int const fifth = write_one(10);
    printf("next-errno %d\n", fifth);
    CHECK_EQ_INT(0, fifth);
    CHECK_EQ_INT(1, whole_records(next, "next"));
    printf("done\n");
    return 0;
}

/*
 * A nearly full file system (a 64 KiB tmpfs, run in `unshare -m` by
 * main.rs): after one record the file system is filled up
 * (DIR/fill), so the capture file has only the rest of its last page; 1 KiB
 * events are written until one is short, the fill is removed, and 4 more
 * are written: each of them returns ENOSPC. Every write that returned 0 is
 * a whole record of DIR/cap.dat. Prints "tmpfs-errno E..." and the records.
 */
static int mode_tmpfs(char const* dir)
{
    char path[4096], fill[4096];
    snprintf(path, sizeof(path), "%s/cap.dat", dir);
    snprintf(fill, sizeof(fill), "%s/fill", dir);
    CHECK_EQ_INT(0, tracepoint_set_capture_file(path));
    int ok = 0;
    CHECK_EQ_INT(0, write_one(100));
    ok += 1;
    {
        int const fd = open(fill, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        CHECK(fd >= 0);
        static char zeros[4096];
        while (write(fd, zeros, sizeof(zeros)) > 0) {
        }
        CHECK_EQ_INT(ENOSPC, errno);
        close(fd);
    }
    printf("tmpfs-errno");
    int err = 0;
    for (int i = 0; i < 8 && err == 0; i += 1) {
        err = write_one(1000);
        printf(" %d", err);
        ok += err == 0;
    }
    CHECK_EQ_INT(ENOSPC, err);
    CHECK_EQ_INT(0, unlink(fill));
    for (int i = 0; i < 4; i += 1) {
        err = write_one(1000);
        printf(" %d", err);
        CHECK_EQ_INT(ENOSPC, err);
    }
    printf("\n");
    CHECK(ok >= 2); /* at least one 1 KiB record fitted before the short one */
    CHECK_EQ_INT(ok, whole_records(path, "tmpfs"));
    printf("done\n");
    return 0;
}

static int mode_fdexhaust(char const* path)
{
    struct rlimit old;
    CHECK_EQ_INT(0, getrlimit(RLIMIT_NOFILE, &old));
    struct rlimit low = old;
    low.rlim_cur = 64;
    CHECK_EQ_INT(0, setrlimit(RLIMIT_NOFILE, &low));
    int fds[64];
    int n = 0;
    for (;;) {
        int const fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            break;
        }
        CHECK(n < 64);
        fds[n++] = fd;
    }
    int const set = tracepoint_set_capture_file(path);
    printf("exhausted-setfile-errno %d\n", set);
    CHECK_EQ_INT(EMFILE, set);
    for (int i = 0; i < n; i += 1) {
        close(fds[i]);
    }
    CHECK_EQ_INT(0, setrlimit(RLIMIT_NOFILE, &old));
    CHECK_EQ_INT(0, tracepoint_set_capture_file(path));
    CHECK_EQ_INT(0, write_one(1));
    printf("recovered ok\n");
    printf("done\n");
    return 0;
}

int main(int argc, char** argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    char const* mode = argc >= 2 ? argv[1] : "";
    if (argc == 2 && strcmp(mode, "capture") == 0) {
        return mode_capture();
    }
    if (argc == 3 && strcmp(mode, "names") == 0 &&
        (strcmp(argv[2], "capture") == 0 || strcmp(argv[2], "kernel") == 0)) {
        return mode_names(strcmp(argv[2], "kernel") == 0);
    }
    if (argc == 2 && strcmp(mode, "nokernel") == 0) {
        return mode_nokernel();
    }
    if (argc == 3 && strcmp(mode, "setfile") == 0) {
        return mode_setfile(argv[2]);
    }
    if (argc == 3 && strcmp(mode, "writefail") == 0) {
        return mode_writefail(argv[2]);
    }
    if (argc == 4 && strcmp(mode, "fsize") == 0) {
        return mode_fsize(argv[2], argv[3]);
    }
    if (argc == 3 && strcmp(mode, "tmpfs") == 0) {
        return mode_tmpfs(argv[2]);
    }
    if (argc == 3 && strcmp(mode, "fdexhaust") == 0) {
        return mode_fdexhaust(argv[2]);
    }
    fprintf(stderr,
            "usage: %s capture|names capture|names kernel|nokernel|setfile P|writefail P|fsize "
            "P NEXT|tmpfs DIR|fdexhaust P\n",
            argv[0]);
    return 2;
}
