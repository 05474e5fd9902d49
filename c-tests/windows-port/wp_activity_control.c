/*
 * EventActivityIdControl (windows-compat evntprov.h), written as Windows code
 * writes it, built as C and (-x c++) as C++; in capture mode.
 *
 * Checks here: each of the five controls on the thread's id and on the
 * caller's GUID, a thread without an id reading as the zero GUID, setting the
 * zero GUID clearing it, and ERROR_INVALID_PARAMETER with nothing changed for
 * a NULL ActivityId (every control) and for unknown control codes.
 *
 * The events, which main.rs decodes: each carries the thread's id, set through
 * EventActivityIdControl, and the GUIDs the calls returned as fields, so that
 * the decoded activity id and the GUID fields must name the same ids:
 *   NoActivity                   (no id yet)
 *   WithA    activity=A          id=A
 *   WithB    activity=B          id=B, previous=A   (GET_SET_ID)
 *   WithC    activity=C          previous=B         (CREATE_SET_ID)
 *   Cleared                      (SET_ID of the zero GUID)
 *   Explicit activity=D          id=D               (CREATE_ID, passed to TraceLoggingWriteActivity)
 *
 * Prints "done" and exits 0 when every check held.
 */
#include <windows.h>
#include <evntprov.h>
#include <TraceLoggingProvider.h>

#include <string.h>

#include "../check.h"

TRACELOGGING_DEFINE_PROVIDER(
    g_hActivityControl,
    "WinPortActivityControl",
    (0x5e4d3c2b, 0x1a09, 0x4f8e, 0x9d, 0x7c, 0x6b, 0x5a, 0x49, 0x38, 0x27, 0x16));

static GUID const g_zero = { 0, 0, 0, { 0, 0, 0, 0, 0, 0, 0, 0 } };

static int Same(GUID const* a, GUID const* b)
{
    return memcmp(a, b, sizeof(GUID)) == 0;
}

/* The thread's id, read with EVENT_ACTIVITY_CTRL_GET_ID. */
static GUID ThreadId(void)
{
    GUID id;
    memset(&id, 0xA5, sizeof(id));
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_ID, &id));
    return id;
}

/* Every way of calling it wrongly: ERROR_INVALID_PARAMETER, with neither the
   GUID nor the thread's id changed. */
static void CheckRefusals(void)
{
    static ULONG const unknown[] = { 0, 6, 7, 0x80000001u, 0xFFFFFFFFu };
    GUID const before = ThreadId();
    GUID probe;
    ULONG code;
    size_t k;
    for (code = EVENT_ACTIVITY_CTRL_GET_ID; code <= EVENT_ACTIVITY_CTRL_CREATE_SET_ID; code += 1) {
        CHECK_EQ_INT(ERROR_INVALID_PARAMETER, EventActivityIdControl(code, NULL));
    }
    for (k = 0; k != sizeof(unknown) / sizeof(unknown[0]); k += 1) {
        memset(&probe, 0x5A, sizeof(probe));
        CHECK_EQ_INT(ERROR_INVALID_PARAMETER, EventActivityIdControl(unknown[k], &probe));
        CHECK(probe.Data1 == 0x5A5A5A5Au && probe.Data4[7] == 0x5A);
        CHECK_EQ_INT(ERROR_INVALID_PARAMETER, EventActivityIdControl(unknown[k], NULL));
    }
    {
        GUID const after = ThreadId();
        CHECK(Same(&before, &after));
    }
}

int main(void)
{
    GUID a, b, c, d, swap, previous, now;
    ULONG status;

    status = TraceLoggingRegister(g_hActivityControl);
    if (status != 0) {
        fprintf(stderr, "TraceLoggingRegister: %d\n", (int)status);
        return 1;
    }

    /* A new thread has no id: GET_ID reads the zero GUID. */
    now = ThreadId();
    CHECK(Same(&now, &g_zero));
    CheckRefusals();
    TraceLoggingWrite(g_hActivityControl, "NoActivity");

    /* CREATE_ID: a new, non-zero id; the thread's is unchanged. */
    memset(&a, 0, sizeof(a));
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &a));
    CHECK(!Same(&a, &g_zero));
    now = ThreadId();
    CHECK(Same(&now, &g_zero));

    /* SET_ID: the thread's id is A (and A is left as it was). */
    swap = a;
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &swap));
    CHECK(Same(&swap, &a));
    now = ThreadId();
    CHECK(Same(&now, &a));
    CheckRefusals();
    TraceLoggingWrite(g_hActivityControl, "WithA", TraceLoggingGuid(a, "id"));

    /* GET_SET_ID: the thread's id becomes B, the GUID receives A. */
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &b));
    CHECK(!Same(&b, &a) && !Same(&b, &g_zero));
    swap = b;
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &swap));
    CHECK(Same(&swap, &a));
    now = ThreadId();
    CHECK(Same(&now, &b));
    TraceLoggingWrite(g_hActivityControl, "WithB", TraceLoggingGuid(b, "id"), TraceLoggingGuid(swap, "previous"));

    /* CREATE_SET_ID: the thread's id becomes a new one, C; the GUID receives B. */
    memset(&previous, 0, sizeof(previous));
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &previous));
    CHECK(Same(&previous, &b));
    c = ThreadId();
    CHECK(!Same(&c, &g_zero) && !Same(&c, &a) && !Same(&c, &b));
    TraceLoggingWrite(g_hActivityControl, "WithC", TraceLoggingGuid(previous, "previous"));

    /* SET_ID of the zero GUID: no id. GET_SET_ID on a thread without one: the
       GUID receives zero and the thread keeps none. */
    swap = g_zero;
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &swap));
    now = ThreadId();
    CHECK(Same(&now, &g_zero));
    swap = g_zero;
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_GET_SET_ID, &swap));
    CHECK(Same(&swap, &g_zero));
    now = ThreadId();
    CHECK(Same(&now, &g_zero));
    CheckRefusals();
    TraceLoggingWrite(g_hActivityControl, "Cleared");

    /* CREATE_SET_ID on a thread without an id: the GUID receives zero. */
    memset(&previous, 0xFF, sizeof(previous));
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_SET_ID, &previous));
    CHECK(Same(&previous, &g_zero));
    now = ThreadId();
    CHECK(!Same(&now, &g_zero) && !Same(&now, &c));
    swap = g_zero;
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_SET_ID, &swap));

    /* A created GUID as an event's own activity id. */
    CHECK_EQ_INT(ERROR_SUCCESS, EventActivityIdControl(EVENT_ACTIVITY_CTRL_CREATE_ID, &d));
    TraceLoggingWriteActivity(g_hActivityControl, "Explicit", &d, NULL, TraceLoggingGuid(d, "id"));

    TraceLoggingUnregister(g_hActivityControl);
    puts("done");
    return 0;
}
