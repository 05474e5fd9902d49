/*
 * The errno contract and the no-kernel behaviour.
 *
 *   errors capture
 *       Run with TRACEPOINT_CAPTURE_FILE set: every errno of the contract
 *       (EINVAL, E2BIG, EALREADY, EBADF) on the paths that need an open
 *       provider, and that failed calls write nothing. The one event that
 *       should be written is "CoreErr_L5K1" / "Ok" (checked by the test).
 *
 *   errors nokernel <path1> <path2>
 *       Run without TRACEPOINT_CAPTURE_FILE on a machine without
 *       user_events: open fails with an errno (printed as "open-errno N"),
 *       every later call is a safe no-op, writes return EBADF. Then
 *       tracepoint_set_capture_file(path1) selects a capture file: providers
 *       opened afterwards write "CoreSet_L5K1" records to path1; switching
 *       to path2 redirects the open provider; set_capture_file(NULL) turns
 *       capture off for providers opened later.
 */
#include "metabuild.h"

#include <tracepoint/tracepoint-capture.h>

#include <unistd.h>

static eventheader const k_hdr = { eventheader_flag_default, 0, 0, 0, event_opcode_info, event_level_verbose };

static eventheader_tracepoint make_event(tracepoint_state* state, eventheader_extension const* meta,
                                         uint8_t level, uint64_t keyword)
{
    eventheader_tracepoint ev;
    ev.state = state;
    ev.metadata = meta;
    ev.header = k_hdr;
    ev.header.level = level;
    ev.keyword = keyword;
    return ev;
}

static void check_untouched(tracepoint_state const* tp)
{
    CHECK_EQ_INT(0, tp->status_word);
    CHECK_EQ_INT(-1, tp->write_index);
    CHECK(tp->provider_state == NULL);
    CHECK(tp->tracepoint_list_link.next == NULL);
}

static int open_named(char const* name, char const* options)
{
    tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
    eventheader_provider const p = { &state, options, name };
    int const err = eventheader_open_provider(&p);
    if (err == 0) {
        eventheader_close_provider(&p);
    }
    CHECK_EQ_INT(-1, state.data_file);
    return err;
}

static char* repeat(char c, size_t n)
{
    char* s = (char*)malloc(n + 1);
    CHECK(s != NULL);
    memset(s, c, n);
    s[n] = 0;
    return s;
}

static void capture_mode(void)
{
    tracepoint_provider_state tps = TRACEPOINT_PROVIDER_STATE_INIT;
    tracepoint_state tp = TRACEPOINT_STATE_INIT;
    struct iovec vecs[4];
    uint8_t byte = 0x42;
    memset(vecs, 0, sizeof(vecs));

    /* ---- tracepoint layer ---- */
    CHECK_EQ_INT(EINVAL, tracepoint_open_provider(NULL));
    tracepoint_close_provider(NULL); /* no-op */
    CHECK_EQ_INT(0, tracepoint_open_provider(&tps));
    CHECK(tps.data_file != -1);
    CHECK_EQ_INT(EALREADY, tracepoint_open_provider(&tps));
    CHECK(tps.data_file != -1);
    CHECK_EQ_INT(EINVAL, tracepoint_connect(NULL, &tps, "CoreErrTp u8 x"));
    CHECK_EQ_INT(EINVAL, tracepoint_connect2(NULL, &tps, "CoreErrTp u8 x", 0));
    CHECK_EQ_INT(EINVAL, tracepoint_connect(&tp, &tps, NULL));
    CHECK(!TRACEPOINT_ENABLED(&tp));
    CHECK(tracepoint_connect(&tp, &tps, "") != 0);
    CHECK(!TRACEPOINT_ENABLED(&tp));
    CHECK_EQ_INT(EINVAL, tracepoint_write(NULL, 1, vecs));
    /* Never connected: EBADF. */
    {
        tracepoint_state never = TRACEPOINT_STATE_INIT;
        CHECK_EQ_INT(EBADF, tracepoint_write(&never, 1, vecs));
    }
    CHECK_EQ_INT(0, tracepoint_connect(&tp, &tps, "CoreErrTp u8 x"));
    CHECK(TRACEPOINT_ENABLED(&tp));
    CHECK_EQ_INT(EINVAL, tracepoint_write(&tp, 1, NULL));
    /* Invalid ranges for open_with_tracepoints. */
    {
        tracepoint_provider_state other = TRACEPOINT_PROVIDER_STATE_INIT;
        tracepoint_definition const* defs[2] = { NULL, NULL };
        CHECK_EQ_INT(EINVAL, tracepoint_open_provider_with_tracepoints(&other, NULL, defs + 2));
        CHECK_EQ_INT(EINVAL, tracepoint_open_provider_with_tracepoints(&other, defs, NULL));
        CHECK_EQ_INT(EINVAL, tracepoint_open_provider_with_tracepoints(&other, defs + 2, defs));
        CHECK_EQ_INT(EINVAL, tracepoint_open_provider_with_tracepoints(NULL, defs, defs + 2));
        CHECK_EQ_INT(-1, other.data_file);
        CHECK_EQ_INT(EALREADY, tracepoint_open_provider_with_tracepoints(&tps, defs, defs + 2));
    }
    /* Disconnected: EBADF. */
    CHECK_EQ_INT(0, tracepoint_connect(&tp, NULL, NULL));
    vecs[1].iov_base = &byte;
    vecs[1].iov_len = 1;
    CHECK_EQ_INT(EBADF, tracepoint_write(&tp, 2, vecs));
    /* Connected to a closed provider: allowed, disabled; opening resets it. */
    tracepoint_close_provider(&tps);
    CHECK_EQ_INT(0, tracepoint_connect(&tp, &tps, "CoreErrTp u8 x"));
    CHECK(!TRACEPOINT_ENABLED(&tp));
    CHECK(tp.provider_state == &tps);
    CHECK_EQ_INT(EBADF, tracepoint_write(&tp, 2, vecs));
    CHECK_EQ_INT(0, tracepoint_open_provider(&tps));
    check_untouched(&tp);
    CHECK_EQ_INT(EBADF, tracepoint_write(&tp, 2, vecs));
    tracepoint_close_provider(&tps);
    tracepoint_close_provider(&tps);
    printf("tracepoint errors ok\n");

    /* ---- eventheader providers ---- */
    {
        tracepoint_provider_state st = TRACEPOINT_PROVIDER_STATE_INIT;
        eventheader_provider const no_state = { NULL, "", "CoreErr" };
        eventheader_provider const no_name = { &st, "", NULL };
        char* n250 = repeat('N', 250);
        char* n251 = repeat('N', 251);
        char* n400 = repeat('N', 400);
        CHECK_EQ_INT(EINVAL, eventheader_open_provider(NULL));
        CHECK_EQ_INT(EINVAL, eventheader_open_provider(&no_state));
        CHECK_EQ_INT(EINVAL, eventheader_open_provider(&no_name));
        CHECK_EQ_INT(-1, st.data_file);
        eventheader_close_provider(NULL);
        eventheader_close_provider(&no_state);
        CHECK_EQ_INT(EINVAL, open_named("", ""));
        CHECK_EQ_INT(EINVAL, open_named("Bad Name", ""));
        CHECK_EQ_INT(EINVAL, open_named("Bad:Name", ""));
        CHECK_EQ_INT(EINVAL, open_named(" ", NULL));
        CHECK_EQ_INT(EINVAL, open_named("Good", "gbad"));
        CHECK_EQ_INT(EINVAL, open_named("Good", "G_x"));
        CHECK_EQ_INT(EINVAL, open_named("Good", "G x"));
        CHECK_EQ_INT(EINVAL, open_named("Good", "1"));
        CHECK_EQ_INT(EINVAL, open_named("Good", "Gmy:group"));
        CHECK_EQ_INT(0, open_named("Good", "Gmygroup"));
        CHECK_EQ_INT(0, open_named("Good", "Gmygroup2Hx"));
        CHECK_EQ_INT(0, open_named("Good", NULL));
        CHECK_EQ_INT(0, open_named("Good_Name-1.x", ""));
        /* name + "_L1K0" must be shorter than EVENTHEADER_NAME_MAX. */
        CHECK_EQ_INT(0, open_named(n250, ""));
        CHECK_EQ_INT(E2BIG, open_named(n251, ""));
        CHECK_EQ_INT(E2BIG, open_named(n400, ""));
        CHECK_EQ_INT(E2BIG, open_named(n250, "Gx"));
        free(n250);
        free(n251);
        free(n400);

        /* Open twice. */
        {
            eventheader_provider const good = { &st, "", "CoreErrTwice" };
            CHECK_EQ_INT(0, eventheader_open_provider(&good));
            CHECK_EQ_INT(EALREADY, eventheader_open_provider(&good));
            CHECK_EQ_INT(EALREADY, eventheader_open_provider_with_events(&good, NULL, NULL));
            eventheader_close_provider(&good);
            CHECK_EQ_INT(-1, st.data_file);
        }
    }
    printf("provider errors ok\n");

    /* ---- eventheader events ---- */
    {
        tracepoint_provider_state st = TRACEPOINT_PROVIDER_STATE_INIT;
        eventheader_provider const prov = { &st, "", "CoreErr" };
        tracepoint_state s = TRACEPOINT_STATE_INIT;
        mb m;
        eventheader_tracepoint ev, no_meta, level0, no_state;
        uint8_t const id[16] = { 1 };
        uint8_t const payload = 0x11;

        mb_begin(&m, "Ok");
        mb_field(&m, "v", event_field_encoding_value8);
        ev = make_event(&s, mb_end(&m), event_level_verbose, 1);
        no_meta = make_event(&s, NULL, event_level_verbose, 1);
        level0 = make_event(&s, mb_end(&m), 0, 1);
        no_state = make_event(NULL, mb_end(&m), event_level_verbose, 1);

        CHECK_EQ_INT(0, eventheader_open_provider(&prov));
        CHECK_EQ_INT(EINVAL, eventheader_connect(NULL, &prov));
        CHECK_EQ_INT(EINVAL, eventheader_connect(&no_state, &prov));
        CHECK_EQ_INT(EINVAL, eventheader_connect(&level0, &prov));
        check_untouched(&s);
        {
            eventheader_provider const bad = { &st, "", "Bad Name" };
            eventheader_provider const bad_opts = { &st, "lower", "CoreErr" };
            eventheader_provider const null_state = { NULL, "", "CoreErr" };
            CHECK_EQ_INT(EINVAL, eventheader_connect(&ev, &bad));
            CHECK_EQ_INT(EINVAL, eventheader_connect(&ev, &bad_opts));
            CHECK_EQ_INT(EINVAL, eventheader_connect(&ev, &null_state));
            check_untouched(&s);
        }
        {
            /* 240 + "_L5K" + 16 hex digits = 260 >= EVENTHEADER_NAME_MAX. */
            tracepoint_provider_state st2 = TRACEPOINT_PROVIDER_STATE_INIT;
            char* n240 = repeat('K', 240);
            eventheader_provider const longp = { &st2, "", n240 };
            eventheader_tracepoint big = make_event(&s, mb_end(&m), event_level_verbose,
                                                    UINT64_C(0xffffffffffffffff));
            CHECK_EQ_INT(0, eventheader_open_provider(&longp));
            CHECK_EQ_INT(E2BIG, eventheader_connect(&big, &longp));
            check_untouched(&s);
            /* Keyword 1 fits: 240 + 5 = 245. */
            big.keyword = 1;
            CHECK_EQ_INT(0, eventheader_connect(&big, &longp));
            CHECK(TRACEPOINT_ENABLED(&s));
            CHECK_EQ_INT(0, eventheader_connect(&big, NULL));
            check_untouched(&s);
            eventheader_close_provider(&longp);
            free(n240);
        }
        {
            /* The exact limit: "_L5K" + 16 hex digits = 20 characters, so a
               235-character provider gives a 255-character tracepoint name
               (fits) and 236 gives 256 (E2BIG). */
            tracepoint_provider_state st2 = TRACEPOINT_PROVIDER_STATE_INIT;
            char* n235 = repeat('L', 235);
            char* n236 = repeat('L', 236);
            eventheader_provider const p235 = { &st2, "", n235 };
            eventheader_provider const p236 = { &st2, "", n236 };
            eventheader_tracepoint big = make_event(&s, mb_end(&m), event_level_verbose,
                                                    UINT64_C(0xf000000000000000));
            CHECK_EQ_INT(0, eventheader_open_provider(&p236));
            CHECK_EQ_INT(E2BIG, eventheader_connect(&big, &p236));
            check_untouched(&s);
            eventheader_close_provider(&p236);
            CHECK_EQ_INT(0, eventheader_open_provider(&p235));
            CHECK_EQ_INT(0, eventheader_connect(&big, &p235));
            CHECK(TRACEPOINT_ENABLED(&s));
            CHECK_EQ_INT(0, eventheader_connect(&big, NULL));
            eventheader_close_provider(&p235);
            free(n235);
            free(n236);
        }

        /* Writes before connecting: EBADF. */
        {
            struct iovec v[4];
            memset(v, 0, sizeof(v));
            CHECK_EQ_INT(EBADF, eventheader_write(&ev, NULL, NULL, 3, v));
            CHECK_EQ_INT(EINVAL, eventheader_write(NULL, NULL, NULL, 3, v));
            CHECK_EQ_INT(EINVAL, eventheader_write(&no_state, NULL, NULL, 3, v));
        }

        CHECK_EQ_INT(0, eventheader_connect(&ev, &prov));
        CHECK(TRACEPOINT_ENABLED(&s));
        {
            struct iovec v[4];
            memset(v, 0, sizeof(v));
            v[3].iov_base = (void*)&payload;
            v[3].iov_len = 1;
            CHECK_EQ_INT(EINVAL, eventheader_write(&ev, NULL, NULL, 4, NULL));
            /* Too few vectors: metadata needs 3, no metadata needs 2. */
            CHECK_EQ_INT(EINVAL, eventheader_write(&ev, NULL, NULL, 2, v));
            CHECK_EQ_INT(EINVAL, eventheader_write(&ev, NULL, NULL, 0, v));
            CHECK_EQ_INT(EINVAL, eventheader_write(&no_meta, NULL, NULL, 1, v));
            /* A related id needs an activity id. */
            CHECK_EQ_INT(EINVAL, eventheader_write(&ev, NULL, id, 4, v));
            /* The one good write. */
            CHECK_EQ_INT(0, eventheader_write(&ev, NULL, NULL, 4, v));
        }
        /* Disconnected, then provider closed: EBADF. */
        CHECK_EQ_INT(0, eventheader_connect(&ev, NULL));
        check_untouched(&s);
        {
            struct iovec v[4];
            memset(v, 0, sizeof(v));
            CHECK_EQ_INT(EBADF, eventheader_write(&ev, NULL, NULL, 3, v));
            CHECK_EQ_INT(0, eventheader_connect(&ev, &prov));
            eventheader_close_provider(&prov);
            check_untouched(&s);
            CHECK_EQ_INT(EBADF, eventheader_write(&ev, NULL, NULL, 3, v));
            eventheader_close_provider(&prov);
        }
    }
    printf("event errors ok\n");
}

static int g_open_errno;

static void nokernel_mode(char const* path1, char const* path2)
{
    tracepoint_provider_state tps = TRACEPOINT_PROVIDER_STATE_INIT;
    tracepoint_state tp = TRACEPOINT_STATE_INIT;
    struct iovec vecs[4];
    uint8_t byte = 0x42;
    memset(vecs, 0, sizeof(vecs));
    vecs[1].iov_base = &byte;
    vecs[1].iov_len = 1;

    CHECK(access(path1, F_OK) != 0); /* nothing captured yet */

    /* The tracepoint layer: open fails, everything else is inert. */
    tracepoint_close_provider(&tps);
    CHECK_EQ_INT(0, tracepoint_connect(&tp, &tps, "CoreNoKernel u8 x"));
    CHECK(!TRACEPOINT_ENABLED(&tp));
    g_open_errno = tracepoint_open_provider(&tps);
    printf("open-errno %d\n", g_open_errno);
    CHECK(g_open_errno != 0);
    CHECK_EQ_INT(-1, tps.data_file);
    CHECK(!TRACEPOINT_ENABLED(&tp));
    CHECK_EQ_INT(EBADF, tracepoint_write(&tp, 2, vecs));
    CHECK_EQ_INT(0, tracepoint_connect(&tp, &tps, "CoreNoKernel u8 x"));
    CHECK_EQ_INT(0, tracepoint_connect2(&tp, &tps, "CoreNoKernel u8 x", 1));
    CHECK_EQ_INT(EBADF, tracepoint_write(&tp, 2, vecs));
    /* A second attempt fails the same way (not EALREADY). */
    CHECK_EQ_INT(g_open_errno, tracepoint_open_provider(&tps));
    {
        static tracepoint_state a = TRACEPOINT_STATE_INIT;
        static tracepoint_definition const def = { &a, "CoreNoKernelA" };
        tracepoint_definition const* defs[] = { &def, NULL, &def };
        CHECK_EQ_INT(g_open_errno, tracepoint_open_provider_with_tracepoints(&tps, defs, defs + 3));
        CHECK(!TRACEPOINT_ENABLED(&a));
        CHECK_EQ_INT(EBADF, tracepoint_write(&a, 2, vecs));
    }
    CHECK_EQ_INT(0, tracepoint_connect(&tp, NULL, NULL));
    tracepoint_close_provider(&tps);
    tracepoint_close_provider(&tps);

    /* The eventheader layer. */
    {
        tracepoint_provider_state st = TRACEPOINT_PROVIDER_STATE_INIT;
        eventheader_provider const prov = { &st, "", "CoreNoKernel" };
        tracepoint_state s = TRACEPOINT_STATE_INIT;
        eventheader_tracepoint ev = make_event(&s, NULL, event_level_verbose, 1);
        eventheader_tracepoint const* events[] = { &ev, NULL, &ev };
        struct iovec v[3];
        memset(v, 0, sizeof(v));
        CHECK_EQ_INT(g_open_errno, eventheader_open_provider(&prov));
        CHECK_EQ_INT(-1, st.data_file);
        CHECK_EQ_INT(0, eventheader_connect(&ev, &prov));
        CHECK(!TRACEPOINT_ENABLED(&s));
        CHECK_EQ_INT(EBADF, eventheader_write(&ev, NULL, NULL, 2, v));
        CHECK_EQ_INT(g_open_errno, eventheader_open_provider_with_events(&prov, events, events + 3));
        CHECK(!TRACEPOINT_ENABLED(&s));
        CHECK_EQ_INT(EBADF, eventheader_write(&ev, NULL, NULL, 2, v));
        CHECK_EQ_INT(0, eventheader_connect(&ev, NULL));
        eventheader_close_provider(&prov);
        eventheader_close_provider(&prov);
    }
    CHECK(access(path1, F_OK) != 0); /* still nothing captured */
    printf("nokernel ok\n");

    /* Programmatic capture. */
    CHECK(tracepoint_set_capture_file("") != 0);
    CHECK(tracepoint_set_capture_file("/nonexistent-dir-core-c/x/capture.dat") != 0);
    CHECK_EQ_INT(0, tracepoint_set_capture_file(path1));
    CHECK(access(path1, F_OK) == 0); /* created at selection */
    {
        tracepoint_provider_state st = TRACEPOINT_PROVIDER_STATE_INIT;
        eventheader_provider const prov = { &st, "", "CoreSet" };
        tracepoint_state s = TRACEPOINT_STATE_INIT;
        eventheader_tracepoint ev = make_event(&s, NULL, event_level_verbose, 1);
        pb p;

        CHECK_EQ_INT(0, eventheader_open_provider(&prov));
        CHECK_EQ_INT(0, eventheader_connect(&ev, &prov));
        CHECK(TRACEPOINT_ENABLED(&s));
        pb_init(&p);
        pb_u8(&p, 1);
        CHECK_EQ_INT(0, write_payload(&ev, NULL, NULL, &p, 1));

        /* The open capture-mode provider follows the new file. */
        CHECK_EQ_INT(0, tracepoint_set_capture_file(path2));
        pb_init(&p);
        pb_u8(&p, 2);
        CHECK_EQ_INT(0, write_payload(&ev, NULL, NULL, &p, 1));

        /* Capture off: providers opened from now on fail again. */
        CHECK_EQ_INT(0, tracepoint_set_capture_file(NULL));
        {
            tracepoint_provider_state st2 = TRACEPOINT_PROVIDER_STATE_INIT;
            eventheader_provider const prov2 = { &st2, "", "CoreSetOff" };
            CHECK_EQ_INT(g_open_errno, eventheader_open_provider(&prov2));
        }
        eventheader_close_provider(&prov);
        CHECK(!TRACEPOINT_ENABLED(&s));
        CHECK_EQ_INT(EBADF, write_payload(&ev, NULL, NULL, &p, 1));
    }
    printf("setfile ok\n");
}

int main(int argc, char** argv)
{
    if (argc == 2 && strcmp(argv[1], "capture") == 0) {
        capture_mode();
    } else if (argc == 4 && strcmp(argv[1], "nokernel") == 0) {
        nokernel_mode(argv[2], argv[3]);
    } else {
        fprintf(stderr, "usage: errors capture | errors nokernel PATH1 PATH2\n");
        return 2;
    }
    printf("done\n");
    return 0;
}
