/* C code of the activity component (see wp_activity.h): plain TraceLoggingWrite
   calls, which carry the calling thread's activity id. */
#include "wp_activity.h"

void WpaLogFromC(int worker, int step)
{
    TraceLoggingWrite(g_hActivityProvider, "FromC",
        TraceLoggingLevel(WINEVENT_LEVEL_INFO),
        TraceLoggingKeyword(WPA_KEYWORD_WORK),
        TraceLoggingInt32(worker, "worker"),
        TraceLoggingInt32(step, "step"));
}
