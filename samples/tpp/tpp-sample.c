/*
Plain tracepoints with tracepoint-provider.h: typed user_events tracepoints
("tpp_sample_request u16 port; __rel_loc char[] path; ...") that perf, ftrace
and trace-cmd decode from the kernel's format file, no EventHeader involved.

Build and run (see Makefile and CMakeLists.txt for the details):
    cargo build                     # at the repository root: the library
    make -C samples/tpp run         # builds, runs in capture mode, dumps the file
With a user_events kernel, record instead (as root, while the program runs):
    perf record -e user_events:tpp_sample_request ...
*/
#include <tracepoint/tracepoint-provider.h>
#include <stdint.h>
#include <stdio.h>

/* A provider: a group of tracepoints registered and unregistered together. */
TPP_DEFINE_PROVIDER(SampleProvider);

/* Defines int sample_request(uint16_t port, char const* path, uint16_t body_len,
   uint8_t const* body) and int sample_request_enabled(void). The tracepoint
   registers as
   "tpp_sample_request u16 port; __rel_loc char[] path; __rel_loc u8[] body;". */
TPP_FUNCTION(SampleProvider, "tpp_sample_request", sample_request,
    TPP_UINT16("port", port),
    TPP_STRING("path", path),
    TPP_CUSTOM_REL_LOC("u8[] body", uint8_t, body_len, body));

int main(int argc, char* argv[])
{
    static uint8_t const body[4] = { 0xca, 0xfe, 0xba, 0xbe };
    int err;
    (void)argv;

    /* Registers every tracepoint of SampleProvider, including the ones below:
       collectors can enable them from now on. 0, or an errno (EOPNOTSUPP or
       ENOENT without user_events: then every write is a cheap no-op). */
    err = TPP_REGISTER_PROVIDER(SampleProvider);
    printf("TPP_REGISTER_PROVIDER: %d\n", err);

    /* Registers as "tpp_sample_start __rel_loc char[] greeting; s32 argc;". The
       values are evaluated only if a collector listens to tpp_sample_start. */
    err = TPP_WRITE(SampleProvider, "tpp_sample_start",
        TPP_STRING("greeting", "hello"),
        TPP_INT32("argc", argc));
    printf("tpp_sample_start: %d\n", err); /* 0, or EBADF when nobody listens */

    /* Check first when preparing the values costs something. */
    if (sample_request_enabled()) {
        err = sample_request(8080, "/index.html", sizeof(body), body);
        printf("tpp_sample_request: %d\n", err);
    }

    TPP_UNREGISTER_PROVIDER(SampleProvider);
    return 0;
}
