/*
 * dlopen/dlclose of a library that defines a provider, registers it in a
 * constructor and unregisters it in a destructor (dlprov.c), LOOPS times,
 * each time writing one event while the tracepoint is enabled.
 *
 *   dlclose_loop LIBRARY LOOPS MODE [forget]
 *
 * MODE: "capture" (TRACEPOINT_CAPTURE_FILE set: the tracepoint is enabled as
 * soon as the constructor registered it; every write must return 0) or
 * "kernel" (real user_events; registration must succeed; with
 * HARDENING_EXPECT_ENABLED=1 a collector listens on HardDl_L5K1 and every
 * write must return 0, else 0 or EBADF).
 *
 * Each round: dlopen(RTLD_NOW | RTLD_LOCAL), the constructor's
 * TraceLoggingRegister returned 0, dlprov_write(round) returns 0, dlclose
 * returns 0 and the library is really gone (dlopen with RTLD_NOLOAD finds
 * nothing). From round 10 on the number of open descriptors must not
 * change, and VmRSS must stay within hunload.h's bound (1 MiB).
 *
 * "forget": the library was built with -DHARDENING_FORGET (no destructor:
 * it never unregisters). In capture mode this is harmless: the library
 * keeps no pointer into a provider's or tracepoint's memory outside the
 * provider's own list, so unloading the forgetful library leaves nothing
 * dangling in ours; afterwards a fresh provider must still open, connect
 * and write. (With user_events the kernel keeps the enable address of the
 * forgotten registration: see docs/bad-input.md.)
 *
 * Output: "rounds N fds A B rss_kib A B", "after-forget ok" (forget), "done".
 */
#define _GNU_SOURCE

#include "hunload.h"

typedef int (*int_fn)(void);
typedef int (*write_fn)(uint32_t);

int main(int argc, char** argv)
{
    if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "forget") != 0)) {
        fprintf(stderr, "usage: %s LIBRARY LOOPS capture|kernel [forget]\n", argv[0]);
        return 2;
    }
    char const* path = argv[1];
    int const loops = atoi(argv[2]);
    int const kernel = strcmp(argv[3], "kernel") == 0;
    CHECK(kernel || strcmp(argv[3], "capture") == 0);
    int const forget = argc == 5;
    char const* expect = getenv("HARDENING_EXPECT_ENABLED");
    int const must_write = !kernel || (expect != NULL && strcmp(expect, "1") == 0);
    CHECK(loops > 0);

    struct h_growth growth = H_GROWTH_INIT;
    for (int round = 0; round < loops; round += 1) {
        void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (lib == NULL) {
            fprintf(stderr, "dlopen: %s\n", dlerror());
            return 1;
        }
        CHECK_EQ_INT(0, ((int_fn)h_must_sym(lib, "dlprov_register_result"))());
        int const enabled = ((int_fn)h_must_sym(lib, "dlprov_enabled"))();
        if (must_write) {
            CHECK(enabled);
        }
        int const err = ((write_fn)h_must_sym(lib, "dlprov_write"))((uint32_t)round);
        if (must_write) {
            CHECK_EQ_INT(0, err);
        } else {
            CHECK(err == 0 || err == EBADF);
        }
        CHECK_EQ_INT(0, dlclose(lib));
        void* again = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        if (again != NULL) {
            fprintf(stderr, "round %d: library still loaded after dlclose\n", round);
            return 1;
        }
        h_growth_sample(&growth, round, loops);
    }
    h_growth_check(&growth, loops);

    if (forget) {
        /* The library is still fully usable. */
        static tracepoint_provider_state state = TRACEPOINT_PROVIDER_STATE_INIT;
        static eventheader_provider const prov = { &state, "", "HardDlAfter" };
        static tracepoint_state tp = TRACEPOINT_STATE_INIT;
        h_meta meta;
        h_meta_init(&meta, "After");
        eventheader_tracepoint const ev = h_event(&tp, &meta, 5, 1);
        CHECK_EQ_INT(0, eventheader_open_provider(&prov));
        CHECK_EQ_INT(0, eventheader_connect(&ev, &prov));
        int const err = h_write3(&ev, 1, 2, 3);
        if (must_write) {
            CHECK_EQ_INT(0, err);
        }
        eventheader_close_provider(&prov);
        printf("after-forget ok\n");
    }
    printf("done\n");
    return 0;
}
