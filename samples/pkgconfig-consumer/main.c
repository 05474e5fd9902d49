/*
Writes three EventHeader events (provider "PkgConfigConsumer", event
"Counter" with a string and an unsigned field) through the
eventheader-tracepoint C API. Built by the Makefile beside it with the flags
pkg-config gives for eventheader-tracepoint.

    TRACEPOINT_CAPTURE_FILE=events.dat ./pkgconfig-consumer
*/

#include <eventheader/eventheader-tracepoint.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

/* Metadata: "Counter\0", then "label\0" zstring_char8|chain (0x87) string_utf (0x0b),
   "value\0" value32|chain (0x84) unsigned_int (0x01). The array keeps the
   literal's NUL, which the extension's size does not count. */
#define COUNTER_METADATA "Counter\0" "label\0" "\x87" "\x0b" "value\0" "\x84" "\x01"

static const struct {
    eventheader_extension ext;
    char data[sizeof(COUNTER_METADATA)];
} counter_metadata = { { sizeof(COUNTER_METADATA) - 1, eventheader_extension_kind_metadata }, COUNTER_METADATA };

static tracepoint_provider_state provider_state = TRACEPOINT_PROVIDER_STATE_INIT;
static eventheader_provider const provider = { &provider_state, "", "PkgConfigConsumer" };

/* Tracepoint PkgConfigConsumer_L4K1: level information, keyword 0x1. */
static tracepoint_state counter_state = TRACEPOINT_STATE_INIT;
static eventheader_tracepoint const counter_event = {
    &counter_state,
    &counter_metadata.ext,
    { eventheader_flag_default_with_extension, 0, 0, 0, event_opcode_info, event_level_information },
    UINT64_C(0x1),
};

static int write_counter(char const* label, uint32_t value)
{
    if (!TRACEPOINT_ENABLED(&counter_state)) {
        return EBADF; /* nobody collects the event */
    }
    /* The first EVENTHEADER_PREFIX_DATAVEC_COUNT vectors belong to the library. */
    struct iovec vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT + 2] = { 0 };
    vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT + 0].iov_base = (void*)label;
    vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT + 0].iov_len = strlen(label) + 1;
    vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT + 1].iov_base = &value;
    vecs[EVENTHEADER_PREFIX_DATAVEC_COUNT + 1].iov_len = sizeof(value);
    return eventheader_write(&counter_event, NULL, NULL, sizeof(vecs) / sizeof(vecs[0]), vecs);
}

int main(void)
{
    int err = eventheader_open_provider(&provider);
    if (err == 0) {
        err = eventheader_connect(&counter_event, &provider);
    }
    if (err != 0) {
        /* Not fatal: the event stays disabled (e.g. no user_events). */
        fprintf(stderr, "registering the tracepoint: %s\n", strerror(err));
    }

    static char const* const labels[] = { "one", "two", "three" };
    int failures = 0;
    for (uint32_t i = 0; i != 3; i += 1) {
        err = write_counter(labels[i], i + 1);
        if (err == 0) {
            printf("wrote Counter %u\n", (unsigned)(i + 1));
        } else if (err == EBADF) {
            printf("skipped Counter %u (not enabled)\n", (unsigned)(i + 1));
        } else {
            fprintf(stderr, "writing Counter %u failed: %s\n", (unsigned)(i + 1), strerror(err));
            failures += 1;
        }
    }

    eventheader_close_provider(&provider);
    return failures == 0 ? 0 : 1;
}
