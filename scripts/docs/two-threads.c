/*
The recording of the timeline picture in docs/cli.md (scripts/docs/screenshot.sh
builds and runs it): a request on the main thread and a query on a worker thread,
each an activity with activities nested in it, written with
TraceLoggingWriteActivity (opcode start, then opcode stop with the same id; the
related id of a start names its parent). Plain events mark points inside them.
The sleeps give each slice a width that shows in the picture.
*/
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <eventheader/TraceLoggingProvider.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

TRACELOGGING_DEFINE_PROVIDER(
    Demo,
    "Demo",
    // {9c4e3b7a-2f1d-4c8e-a6b5-3d2e1f0a9b8c} (the GUID is not used on Linux)
    (0x9c4e3b7a, 0x2f1d, 0x4c8e, 0xa6, 0xb5, 0x3d, 0x2e, 0x1f, 0x0a, 0x9b, 0x8c));

typedef struct activity {
    uint8_t id[16];
} activity;

/* A fresh activity id: a counter in the last byte, enough for one process. */
static activity new_id(uint8_t n)
{
    activity a;
    memset(a.id, 0x5a, sizeof a.id);
    a.id[15] = n;
    return a;
}

static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

/* act: the activity id; parent: the related id, or NULL */
#define START(name, act, parent, ...) \
    TraceLoggingWriteActivity(Demo, name, (act), (parent), \
        TraceLoggingOpcode(event_opcode_activity_start), __VA_ARGS__)
#define STOP(name, act, ...) \
    TraceLoggingWriteActivity(Demo, name, (act), NULL, \
        TraceLoggingOpcode(event_opcode_activity_stop), __VA_ARGS__)

static activity g_request;

/* The worker: Query holds Connect and Fetch. */
static void* worker(void* unused)
{
    activity query = new_id(3), connect = new_id(4), fetch = new_id(5);
    (void)unused;
    START("Query", query.id, g_request.id, TraceLoggingString("SELECT * FROM items", "sql"));
    START("Connect", connect.id, query.id, TraceLoggingString("db:5432", "server"));
    sleep_ms(4);
    STOP("Connect", connect.id, TraceLoggingInt32(0, "status"));
    START("Fetch", fetch.id, query.id, TraceLoggingInt32(100, "limit"));
    sleep_ms(9);
    TraceLoggingWrite(Demo, "Rows", TraceLoggingInt32(64, "count"));
    sleep_ms(5);
    STOP("Fetch", fetch.id, TraceLoggingInt32(100, "rows"));
    sleep_ms(2);
    STOP("Query", query.id, TraceLoggingInt32(0, "status"));
    return NULL;
}

/* The main thread: Request holds Parse and Render, Render holds Layout. */
int main(void)
{
    activity parse = new_id(2), render = new_id(6), layout = new_id(7);
    pthread_t thread;
    g_request = new_id(1);
    TraceLoggingRegister(Demo);

    START("Request", g_request.id, NULL, TraceLoggingString("GET /items", "path"));
    START("Parse", parse.id, g_request.id, TraceLoggingInt32(412, "bytes"));
    sleep_ms(6);
    STOP("Parse", parse.id, TraceLoggingInt32(0, "status"));
    if (pthread_create(&thread, NULL, worker, NULL) != 0) {
        worker(NULL);
    } else {
        sleep_ms(6);
        TraceLoggingWrite(Demo, "CacheMiss", TraceLoggingString("/items", "key"));
        pthread_join(thread, NULL);
    }
    START("Render", render.id, g_request.id, TraceLoggingString("items.html", "template"));
    START("Layout", layout.id, render.id, TraceLoggingInt32(100, "rows"));
    sleep_ms(5);
    STOP("Layout", layout.id, TraceLoggingInt32(0, "status"));
    sleep_ms(3);
    STOP("Render", render.id, TraceLoggingInt32(8192, "bytes"));
    STOP("Request", g_request.id, TraceLoggingInt32(200, "status"));

    TraceLoggingUnregister(Demo);
    return 0;
}
