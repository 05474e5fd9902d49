/*
 * Thread activities at their edges (TraceLoggingActivity.h), in capture mode;
 * main.rs checks the capture file as well:
 *
 *  - stopped out of nesting order: an outer thread activity stopped before
 *    the one nested in it; the inner one's stop must not give the thread the
 *    ended outer id back, but what the outer one replaced (nothing, or an
 *    enclosing activity's id); also with a TraceLoggingThreadActivityIdSetter
 *    whose saved id ends meanwhile;
 *  - an exception thrown while TraceLoggingWriteStart evaluates its fields:
 *    no start event, the activity stays new (it can start later), its
 *    destructor writes no "ActivityStop", and the thread's id is as before.
 *
 * Prints "done" and exits 0 when every check held.
 */
#include <TraceLoggingActivity.h>

#include <string.h>

#include "../check.h"

TRACELOGGING_DEFINE_PROVIDER(
    g_hEdges,
    "WinPortActivityEdges",
    (0x3c2b1a09, 0x8f7e, 0x5d6c, 0xb0, 0xa1, 0x92, 0x83, 0x74, 0x65, 0x56, 0x47));

typedef TraceLoggingThreadActivity<g_hEdges> ThreadActivity;

/* The thread's activity id as a GUID, or false for none. */
static bool ThreadId(GUID* id)
{
    uint8_t uuid[16];
    if (!_eventheader_tlg_thread_activity_get(uuid)) {
        return false;
    }
    _tlgGuidToUuid(reinterpret_cast<uint8_t*>(id), uuid);
    return true;
}

static bool Same(GUID const& a, GUID const* b)
{
    return memcmp(&a, b, sizeof(GUID)) == 0;
}

static void CheckNone()
{
    GUID id;
    CHECK(!ThreadId(&id));
}

static void CheckThreadId(GUID const* want)
{
    GUID id;
    CHECK(ThreadId(&id));
    CHECK(Same(id, want));
}

static void OutOfOrder()
{
    {
        ThreadActivity a;
        ThreadActivity b;
        CHECK_EQ_INT(0, TraceLoggingWriteStart(a, "AStart"));
        CHECK_EQ_INT(0, TraceLoggingWriteStart(b, "BStart"));
        CHECK_EQ_INT(0, TraceLoggingWriteStop(a, "AStop")); /* out of order */
        CheckThreadId(b.Id());
        CHECK_EQ_INT(0, TraceLoggingWriteStop(b, "BStop"));
        CheckNone(); /* not a's id */
    }
    {
        ThreadActivity outer;
        CHECK_EQ_INT(0, TraceLoggingWriteStart(outer, "OuterStart"));
        {
            ThreadActivity a;
            ThreadActivity b;
            CHECK_EQ_INT(0, TraceLoggingWriteStart(a, "AStart"));
            CHECK_EQ_INT(0, TraceLoggingWriteStart(b, "BStart"));
            CHECK_EQ_INT(0, TraceLoggingWriteStop(a, "AStop"));
            CHECK_EQ_INT(0, TraceLoggingWriteStop(b, "BStop"));
            CheckThreadId(outer.Id());
        }
        CHECK_EQ_INT(0, TraceLoggingWriteStop(outer, "OuterStop"));
        CheckNone();
    }
    {
        static GUID const setter = { 0x11111111, 0x2222, 0x4333, { 0x84, 0x44, 0x55, 0x55, 0x66, 0x66, 0x77, 0x77 } };
        ThreadActivity a;
        CHECK_EQ_INT(0, TraceLoggingWriteStart(a, "AStart"));
        {
            TraceLoggingThreadActivityIdSetter s(setter);
            CheckThreadId(&setter);
            CHECK_EQ_INT(0, TraceLoggingWriteStop(a, "AStop"));
            CheckThreadId(&setter);
        }
        CheckNone(); /* not a's id */
    }
}

static int Throwing(int n)
{
    if (n > 0) {
        throw n;
    }
    return n;
}

static void ThrowInStart()
{
    bool caught = false;
    try {
        ThreadActivity t;
        (void)TraceLoggingWriteStart(t, "ThrowStart", TraceLoggingInt32(Throwing(1), "n"));
    } catch (int) {
        caught = true;
    }
    CHECK(caught);
    CheckNone();

    ThreadActivity outer;
    CHECK_EQ_INT(0, TraceLoggingWriteStart(outer, "OuterStart"));
    TraceLoggingActivity<g_hEdges> plain;
    ThreadActivity inner;
    caught = false;
    try {
        (void)TraceLoggingWriteStart(plain, "ThrowStart", TraceLoggingInt32(Throwing(2), "n"));
    } catch (int) {
        caught = true;
    }
    CHECK(caught);
    CHECK(!plain.IsStarted());
    caught = false;
    try {
        (void)TraceLoggingWriteStart(inner, "ThrowStart", TraceLoggingInt32(Throwing(3), "n"));
    } catch (int) {
        caught = true;
    }
    CHECK(caught);
    CHECK(!inner.IsStarted());
    CheckThreadId(outer.Id());
    /* Still new: they can start, once. */
    CHECK_EQ_INT(0, TraceLoggingWriteStart(plain, "PlainStart", TraceLoggingInt32(Throwing(0), "n")));
    CHECK_EQ_INT(0, TraceLoggingWriteStop(plain, "PlainStop"));
    CHECK_EQ_INT(0, TraceLoggingWriteStart(inner, "InnerStart"));
    CheckThreadId(inner.Id());
    CHECK_EQ_INT(0, TraceLoggingWriteStop(inner, "InnerStop"));
    CheckThreadId(outer.Id());
    CHECK_EQ_INT(0, TraceLoggingWriteStop(outer, "OuterStop"));
    CheckNone();
}

int main()
{
    CHECK_EQ_INT(0, TraceLoggingRegister(g_hEdges));
    OutOfOrder();
    ThrowInStart();
    TraceLoggingUnregister(g_hEdges);
    printf("done\n");
    return 0;
}
