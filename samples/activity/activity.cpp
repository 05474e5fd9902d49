// Activities ported from Windows: <TraceLoggingActivity.h> with only the
// include path changed. A request is an activity whose events name it; the
// worker runs in a thread activity, so every event its thread writes, also
// through code that knows nothing of activities, carries the worker's id.
//
// Build (from the repository root, after cargo build):
//     c++ -std=c++17 -Iinclude/windows-compat -Iinclude samples/activity/activity.cpp
//         -Ltarget/debug -leventheader_tracepoint -Wl,-rpath,$PWD/target/debug -o activity_sample
// Run with TRACEPOINT_CAPTURE_FILE=/tmp/events.dat, then
//     cargo run -p eventheader-cli -- decode /tmp/events.dat
#include <windows.h>
#include <winmeta.h>
#include <TraceLoggingProvider.h>
#include <TraceLoggingActivity.h>
#include <cstdio>
#include <thread>

TRACELOGGING_DEFINE_PROVIDER(
    g_hSampleProvider,
    "MySample_Activity",
    // {5b1f0e2a-7c3d-5e4f-8a9b-0c1d2e3f4a5b}
    (0x5b1f0e2a, 0x7c3d, 0x5e4f, 0x8a, 0x9b, 0x0c, 0x1d, 0x2e, 0x3f, 0x4a, 0x5b));

#define SAMPLE_KEYWORD_REQUEST 0x1

// Code that writes plain events: inside a thread activity they carry its id.
static void LogProgress(int percent)
{
    TraceLoggingWrite(g_hSampleProvider, "Progress", TraceLoggingInt32(percent, "percent"));
}

// A worker: TraceLoggingFunction starts a thread activity named after the
// function ("Worker") and stops it when the function returns. Its start event
// is related to the thread's activity id at the time.
static void Worker(GUID const& request)
{
    TraceLoggingThreadActivityIdSetter inRequest(request);
    TraceLoggingFunction(g_hSampleProvider, TraceLoggingLevel(WINEVENT_LEVEL_INFO));
    LogProgress(50);
    LogProgress(100);
}

int main()
{
    HRESULT hr = TraceLoggingRegister(g_hSampleProvider);
    std::printf("MySample_Activity: TraceLoggingRegister returned %d\n", (int)hr);

    TraceLoggingActivity<g_hSampleProvider, SAMPLE_KEYWORD_REQUEST, WINEVENT_LEVEL_INFO> request;
    TraceLoggingWriteStart(request, "RequestStart", TraceLoggingString("/index.html", "path"));
    // The worker thread starts in the request's activity.
    std::thread worker(Worker, *request.Id());
    worker.join();
    TraceLoggingWriteTagged(request, "RequestStep", TraceLoggingInt32(200, "status"));
    TraceLoggingWriteStop(request, "RequestStop", TraceLoggingHResult(S_OK, "result"));

    TraceLoggingUnregister(g_hSampleProvider);
    return 0;
}
