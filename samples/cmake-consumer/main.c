/*
Writes a few EventHeader events through the eventheader-tracepoint C API:
provider "CMakeConsumer", events with hand-built metadata (event and field
names, field types), a plain event, an array, and an activity (start/stop
with activity ids).

Run it with a tracer collecting the events, e.g.
    perf record -e user_events:CMakeConsumer_L4K1,user_events:CMakeConsumer_L5K2 ./cmake-consumer
or, without user_events, with the capture backend:
    TRACEPOINT_CAPTURE_FILE=events.dat ./cmake-consumer

The metadata layout is described in <eventheader/eventheader.h>:
"EventName\0", then for each field "FieldName\0", an encoding byte, and a
format byte when the encoding has the chain flag (0x80).
(TraceLoggingProvider.h generates all of this from one macro call.)
*/

#include <eventheader/eventheader-tracepoint.h>
#include <tracepoint/tracepoint-state.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

/* A metadata extension block: the eventheader_extension header followed by
   the metadata bytes. The array keeps the literal's trailing NUL, which is
   not counted in the extension's size. */
#define DEFINE_METADATA(symbol, bytes)                                      \
    static const struct {                                                   \
        eventheader_extension ext;                                          \
        char data[sizeof(bytes)];                                           \
    } symbol = { { sizeof(bytes) - 1, eventheader_extension_kind_metadata }, bytes }

/* Hello: message (zstring_char8 | chain, string_utf), count (value32 | chain, signed_int). */
DEFINE_METADATA(hello_metadata,
    "Hello\0"
    "message\0" "\x87" "\x0b"
    "count\0" "\x84" "\x02");

/* Measurement: celsius (value64 | chain, float), samples (value16 | varray: u16 count, then values). */
DEFINE_METADATA(measurement_metadata,
    "Measurement\0"
    "celsius\0" "\x85" "\x08"
    "samples\0" "\x43");

/* RequestStart: path (zstring_char8 | chain, string_utf). */
DEFINE_METADATA(request_start_metadata,
    "RequestStart\0"
    "path\0" "\x87" "\x0b");

/* RequestStop: status (value32 | chain, unsigned_int), bytes (value64, default format). */
DEFINE_METADATA(request_stop_metadata,
    "RequestStop\0"
    "status\0" "\x84" "\x01"
    "bytes\0" "\x05");

static tracepoint_provider_state provider_state = TRACEPOINT_PROVIDER_STATE_INIT;

/* Tracepoints are named CMakeConsumer_L<level>K<keyword>, e.g. CMakeConsumer_L4K1. */
static eventheader_provider const provider = { &provider_state, "", "CMakeConsumer" };

#define KEYWORD_GREETING UINT64_C(0x1)
#define KEYWORD_SENSOR UINT64_C(0x2)
#define KEYWORD_REQUEST UINT64_C(0x4)

#define DEFINE_EVENT(symbol, metadata, opcode, level, keyword)               \
    static tracepoint_state symbol##_state = TRACEPOINT_STATE_INIT;          \
    static eventheader_tracepoint const symbol = {                          \
        &symbol##_state,                                                    \
        &(metadata).ext,                                                    \
        { eventheader_flag_default_with_extension, 0, 0, 0, (opcode), (level) }, \
        (keyword) }

DEFINE_EVENT(hello_event, hello_metadata, event_opcode_info, event_level_information, KEYWORD_GREETING);
DEFINE_EVENT(measurement_event, measurement_metadata, event_opcode_info, event_level_verbose, KEYWORD_SENSOR);
DEFINE_EVENT(request_start_event, request_start_metadata, event_opcode_activity_start, event_level_information, KEYWORD_REQUEST);
DEFINE_EVENT(request_stop_event, request_stop_metadata, event_opcode_activity_stop, event_level_information, KEYWORD_REQUEST);

/* eventheader_open_provider_with_events sorts this array in place. */
static eventheader_tracepoint const* events[] = {
    &hello_event,
    &measurement_event,
    &request_start_event,
    &request_stop_event,
};

#define ARRAY_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The first EVENTHEADER_PREFIX_DATAVEC_COUNT vectors belong to the library. */
#define PAYLOAD(n) (EVENTHEADER_PREFIX_DATAVEC_COUNT + (n))

static void set_vec(struct iovec* vec, void const* data, size_t size)
{
    vec->iov_base = (void*)data;
    vec->iov_len = size;
}

/* Returns 0, EBADF if nobody collects the event, else an errno. */
static int write_hello(char const* message, int32_t count)
{
    if (!TRACEPOINT_ENABLED(hello_event.state)) {
        return EBADF; /* skip building the payload */
    }
    struct iovec vecs[PAYLOAD(2)] = { 0 };
    set_vec(&vecs[PAYLOAD(0)], message, strlen(message) + 1);
    set_vec(&vecs[PAYLOAD(1)], &count, sizeof(count));
    return eventheader_write(&hello_event, NULL, NULL, ARRAY_COUNT(vecs), vecs);
}

static int write_measurement(double celsius, uint16_t const* samples, uint16_t sample_count)
{
    if (!TRACEPOINT_ENABLED(measurement_event.state)) {
        return EBADF;
    }
    struct iovec vecs[PAYLOAD(3)] = { 0 };
    set_vec(&vecs[PAYLOAD(0)], &celsius, sizeof(celsius));
    set_vec(&vecs[PAYLOAD(1)], &sample_count, sizeof(sample_count));
    set_vec(&vecs[PAYLOAD(2)], samples, sample_count * sizeof(samples[0]));
    return eventheader_write(&measurement_event, NULL, NULL, ARRAY_COUNT(vecs), vecs);
}

static int write_request_start(uint8_t const activity_id[16], uint8_t const parent_id[16], char const* path)
{
    if (!TRACEPOINT_ENABLED(request_start_event.state)) {
        return EBADF;
    }
    struct iovec vecs[PAYLOAD(1)] = { 0 };
    set_vec(&vecs[PAYLOAD(0)], path, strlen(path) + 1);
    return eventheader_write(&request_start_event, activity_id, parent_id, ARRAY_COUNT(vecs), vecs);
}

static int write_request_stop(uint8_t const activity_id[16], uint32_t status, uint64_t bytes)
{
    if (!TRACEPOINT_ENABLED(request_stop_event.state)) {
        return EBADF;
    }
    struct iovec vecs[PAYLOAD(2)] = { 0 };
    set_vec(&vecs[PAYLOAD(0)], &status, sizeof(status));
    set_vec(&vecs[PAYLOAD(1)], &bytes, sizeof(bytes));
    return eventheader_write(&request_stop_event, activity_id, NULL, ARRAY_COUNT(vecs), vecs);
}

/* Counts writes that failed for another reason than "nobody listens". */
static int report(char const* what, int err)
{
    if (err == 0) {
        printf("wrote %s\n", what);
        return 0;
    }
    if (err == EBADF) {
        printf("skipped %s (not enabled)\n", what);
        return 0;
    }
    fprintf(stderr, "writing %s failed: %s\n", what, strerror(err));
    return 1;
}

int main(void)
{
    /* Registers all four tracepoints. Failing here (e.g. no user_events in
       this kernel) is not fatal: the events then stay disabled. */
    int err = eventheader_open_provider_with_events(&provider, events, events + ARRAY_COUNT(events));
    if (err != 0) {
        fprintf(stderr,
            "eventheader_open_provider_with_events: %s\n"
            "(no user_events? TRACEPOINT_CAPTURE_FILE=path writes the events to a file)\n",
            strerror(err));
    }

    /* Activity ids are UUIDs; a real program makes a random one per activity. */
    static uint8_t const parent_id[16] = {
        0x6b, 0x3c, 0x2f, 0x10, 0x8a, 0x41, 0x4e, 0x5d, 0x9c, 0x01, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77 };
    static uint8_t const request_id[16] = {
        0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x49, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0 };
    static uint16_t const samples[] = { 215, 217, 220 };

    int failures = 0;
    failures += report("Hello 1", write_hello("Hello from CMake", 1));
    failures += report("Hello 2", write_hello("Hello again", 2));
    failures += report("Measurement", write_measurement(21.5, samples, (uint16_t)ARRAY_COUNT(samples)));
    failures += report("RequestStart", write_request_start(request_id, parent_id, "/index.html"));
    failures += report("RequestStop", write_request_stop(request_id, 200, 5120));

    eventheader_close_provider(&provider);
    return failures == 0 ? 0 : 1;
}
