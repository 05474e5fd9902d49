/* The activity component (see wp_activity.h): activities, thread activities,
   TraceLoggingFunction, moves and misuse, two threads at once; and its start,
   run and stop for the suite's driver (wp_component.h, wp_harness.c). */
#include "wp_activity.h"
#include "wp_component.h"
#include <TraceLoggingActivity.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

// {8e5a6f3b-2c71-5d94-a0b8-4c3d2e1f0a9b}
TRACELOGGING_DEFINE_PROVIDER(
    g_hActivityProvider,
    "WinPortActivity",
    (0x8e5a6f3b, 0x2c71, 0x5d94, 0xa0, 0xb8, 0x4c, 0x3d, 0x2e, 0x1f, 0x0a, 0x9b));

#if __cplusplus >= 201703L
// From C++17 on, an activity's provider may be a handle variable.
TRACELOGGING_DEFINE_PROVIDER_STORAGE(
    g_handleStorage,
    "WinPortActivityHandle",
    (0x8e5a6f3b, 0x2c71, 0x5d94, 0xa0, 0xb8, 0x4c, 0x3d, 0x2e, 0x1f, 0x0a, 0x9c));
TraceLoggingHProvider const g_hHandleProvider = &g_handleStorage;
#endif

// {0a1b2c3d-4e5f-4061-8273-8495a6b7c8d9}: a request's parent, known by id.
static GUID const g_requestParent = { 0x0a1b2c3d, 0x4e5f, 0x4061, { 0x82, 0x73, 0x84, 0x95, 0xa6, 0xb7, 0xc8, 0xd9 } };
// {5f6e7d8c-9bab-4cde-8f01-122334455667}: the thread's id under the setter.
static GUID const g_setterId = { 0x5f6e7d8c, 0x9bab, 0x4cde, { 0x8f, 0x01, 0x12, 0x23, 0x34, 0x45, 0x56, 0x67 } };
// {77665544-3322-4110-8fee-ddccbbaa9988}: an event's own id inside a thread activity.
static GUID const g_explicitId = { 0x77665544, 0x3322, 0x4110, { 0x8f, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x99, 0x88 } };

typedef TraceLoggingActivity<g_hActivityProvider, WPA_KEYWORD_WORK, WINEVENT_LEVEL_INFO> WorkActivity;
typedef TraceLoggingThreadActivity<g_hActivityProvider, WPA_KEYWORD_WORK, WINEVENT_LEVEL_INFO> ThreadWork;

HRESULT WinPortStart(UCHAR level, ULONGLONG keyword)
{
    HRESULT hr;
    (void)level;
    (void)keyword;
    hr = TraceLoggingRegister(g_hActivityProvider);
#if __cplusplus >= 201703L
    if (SUCCEEDED(hr)) {
        hr = TraceLoggingRegister(g_hHandleProvider);
    }
    // A handle's call sites register when they first run: register the
    // tracepoints of its activity's events now, before the first write.
    (void)TraceLoggingProviderEnabled(g_hHandleProvider, WINEVENT_LEVEL_WARNING, 0);
    (void)TraceLoggingProviderEnabled(g_hHandleProvider, WINEVENT_LEVEL_VERBOSE, 0);
#endif
    return hr;
}

/* A request's activity, related to its parent by id, returned by value. */
static WorkActivity StartRequest(int request)
{
    WorkActivity activity;
    activity.SetRelatedActivityId(g_requestParent);
    TraceLoggingWriteStart(activity, "RequestStart", TraceLoggingInt32(request, "request"));
    return activity;
}

/* Activities whose events name them: nesting by related id, tagged events,
   moves, the destructor's stop, misuse. */
static void ExplicitActivities()
{
    WorkActivity outer;
    bool const startedBefore = outer.IsStarted();
    TraceLoggingWriteStart(outer, "OuterStart", TraceLoggingString("explicit", "kind"));
    int const startAgain = TraceLoggingWriteStart(outer, "OuterStartAgain");
    bool const startedDuring = outer.IsStarted();

    TraceLoggingActivity<g_hActivityProvider, WPA_KEYWORD_WORK, WINEVENT_LEVEL_VERBOSE> inner;
    inner.SetRelatedActivity(outer);
    TraceLoggingWriteStart(inner, "InnerStart");
    TraceLoggingWriteTagged(inner, "InnerStep", TraceLoggingInt32(1, "step"));
    TraceLoggingWriteTagged(outer, "OuterTagged",
        TraceLoggingLevel(WINEVENT_LEVEL_WARNING),
        TraceLoggingKeyword(0x20),
        TraceLoggingOpcode(WINEVENT_OPCODE_INFO),
        TraceLoggingGuid(*outer.Id(), "id"));
    TraceLoggingWriteStop(inner, "InnerStop", TraceLoggingHResult(S_OK, "result"));
    int const taggedAfterStop = TraceLoggingWriteTagged(inner, "InnerAfterStop");
    int const stopAgain = TraceLoggingWriteStop(inner, "InnerStopAgain");

    // Related by pointer; then a related id cleared; then one of an activity
    // that has not started (none).
    TraceLoggingActivity<g_hActivityProvider> child;
    child.SetRelatedActivityId(&g_explicitId);
    TraceLoggingWriteStart(child, "ChildStart");
    TraceLoggingWriteStop(child, "ChildStop");
    TraceLoggingActivity<g_hActivityProvider> orphan;
    TraceLoggingActivity<g_hActivityProvider> unstarted;
    orphan.SetRelatedActivityId(g_requestParent);
    orphan.SetRelatedActivityId(static_cast<GUID const*>(NULL));
    TraceLoggingWriteStart(orphan, "OrphanStart");
    TraceLoggingWriteStop(orphan, "OrphanStop");
    unstarted.SetRelatedActivity(unstarted);
    TraceLoggingWriteStart(unstarted, "UnrelatedStart");
    TraceLoggingWriteStop(unstarted, "UnrelatedStop");

    WorkActivity request = StartRequest(7);
    WorkActivity moved(std::move(request));
    TraceLoggingWriteTagged(moved, "RequestStep", TraceLoggingBoolean(request.IsStarted(), "movedFromStarted"));
    int const taggedMovedFrom = TraceLoggingWriteTagged(request, "MovedFromStep");

    TraceLoggingWriteStop(outer, "OuterStop");
    TraceLoggingWrite(g_hActivityProvider, "Results",
        TraceLoggingBoolean(startedBefore, "startedBefore"),
        TraceLoggingBoolean(startedDuring, "startedDuring"),
        TraceLoggingBoolean(outer.IsStarted(), "startedAfter"),
        TraceLoggingBoolean(startAgain == EALREADY, "startAgainEALREADY"),
        TraceLoggingBoolean(taggedAfterStop == EINVAL, "taggedAfterStopEINVAL"),
        TraceLoggingBoolean(stopAgain == EINVAL, "stopAgainEINVAL"),
        TraceLoggingBoolean(taggedMovedFrom == EINVAL, "taggedMovedFromEINVAL"),
        TraceLoggingBoolean(outer.Provider() == g_hActivityProvider, "provider"),
        TraceLoggingUInt64(WorkActivity::Keyword, "keyword"),
        TraceLoggingUInt8(WorkActivity::Level, "level"));
    // `moved` is still running: its destructor writes its stop event.
}

/* A function-scoped thread activity, named after the function. */
static void NestedWork(int n)
{
    TraceLoggingFunction(g_hActivityProvider,
        TraceLoggingLevel(WINEVENT_LEVEL_VERBOSE),
        TraceLoggingKeyword(WPA_KEYWORD_WORK),
        TraceLoggingInt32(n, "count"));
    WpaLogFromC(0, n);
    TraceLoggingWriteActivity(g_hActivityProvider, "OwnId", &g_explicitId, NULL,
        TraceLoggingLevel(WINEVENT_LEVEL_INFO));
}

/* A thread activity: the thread's events, in C and C++, carry its id. */
static void ThreadActivities()
{
    ThreadWork work;
    TraceLoggingWriteStart(work, "ThreadStart");
    TraceLoggingWrite(g_hActivityProvider, "InThread", TraceLoggingInt32(1, "step"));
    WpaLogFromC(0, 1);
    NestedWork(2);
    TraceLoggingWrite(g_hActivityProvider, "InThread", TraceLoggingInt32(3, "step"));
    {
        TraceLoggingThreadActivityIdSetter setter(g_setterId);
        TraceLoggingWrite(g_hActivityProvider, "InSetter", TraceLoggingInt32(4, "step"));
        {
            TraceLoggingThreadActivity<g_hActivityProvider> scoped;
            TraceLoggingWriteStart(scoped, "ScopedStart");
            WpaLogFromC(0, 5);
            // Destroyed running: it writes its stop event and gives the
            // thread the setter's id back.
        }
        TraceLoggingWrite(g_hActivityProvider, "InSetter", TraceLoggingInt32(6, "step"));
        TraceLoggingThreadActivityIdSetter none(static_cast<GUID const*>(NULL));
        TraceLoggingWrite(g_hActivityProvider, "NoId", TraceLoggingInt32(7, "step"));
    }
    TraceLoggingWrite(g_hActivityProvider, "InThread", TraceLoggingInt32(8, "step"));
    TraceLoggingWriteStop(work, "ThreadStop");
    TraceLoggingWrite(g_hActivityProvider, "AfterThread", TraceLoggingInt32(9, "step"));
}

/* Turns for the two workers, so that their events come in one order. */
class Baton {
public:
    explicit Baton(int first) : m_turn(first) {}
    void Wait(int turn)
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_changed.wait(lock, [&] { return m_turn == turn; });
    }
    void Pass()
    {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_turn += 1;
        }
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_turn;
};

/* A worker thread (1 or 2) in its own thread activity, the two at once. */
static void Worker(Baton& baton, int worker)
{
    ThreadWork work;
    baton.Wait(worker);
    TraceLoggingWriteStart(work, "WorkerStart", TraceLoggingInt32(worker, "worker"));
    baton.Pass();
    baton.Wait(2 + worker);
    TraceLoggingWrite(g_hActivityProvider, "WorkerStep", TraceLoggingInt32(worker, "worker"));
    baton.Pass();
    baton.Wait(4 + worker);
    WpaLogFromC(worker, 1);
    baton.Pass();
    baton.Wait(6 + worker);
    TraceLoggingWriteStop(work, "WorkerStop", TraceLoggingInt32(worker, "worker"));
    baton.Pass();
}

/* Two workers while this thread is in its own thread activity: each thread's
   events carry its own id only. */
static void Workers()
{
    ThreadWork main;
    TraceLoggingWriteStart(main, "MainStart");
    Baton baton(1);
    std::thread first([&baton] { Worker(baton, 1); });
    std::thread second([&baton] { Worker(baton, 2); });
    first.join();
    second.join();
    TraceLoggingWrite(g_hActivityProvider, "MainAfterWorkers");
    TraceLoggingWriteStop(main, "MainStop");
}

void WinPortRun(UCHAR level, ULONGLONG keyword)
{
    (void)level;
    (void)keyword;
    ExplicitActivities();
    ThreadActivities();
    Workers();
#if __cplusplus >= 201703L
    TraceLoggingActivity<g_hHandleProvider, 0, WINEVENT_LEVEL_WARNING> handled;
    TraceLoggingWriteStart(handled, "HandleStart");
    TraceLoggingWriteTagged(handled, "HandleTagged");
    TraceLoggingWriteStop(handled, "HandleStop");
#endif
}

void WinPortStop(void)
{
#if __cplusplus >= 201703L
    TraceLoggingUnregister(g_hHandleProvider);
#endif
    TraceLoggingUnregister(g_hActivityProvider);
}
