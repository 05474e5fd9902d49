/*
Provider lifecycle checks, compiled as C (tl_c.c) and as C++ (tl_cpp.cpp) with
TL_LIFE_PROVIDER naming that language's provider. Expected capture, per language:
"Registered1" (value 1), "Registered2" (value 2), "NoIds" (value 3), "Struct"
(level 2, keyword 0x3).
*/
#ifndef TL_LIFECYCLE_H
#define TL_LIFECYCLE_H

#include "tl_test.h"
#include <errno.h>
#include <stdbool.h>
#include <string.h>

static int tl_life_evaluations;

/* A value expression with a side effect: counts its evaluations. */
static int tl_life_value(int v)
{
    tl_life_evaluations += 1;
    return v;
}

static int tl_lifecycle(char const* expectedName)
{
    int failures = 0;
    bool enabled;

    failures += !VERIFY(strcmp(TraceLoggingProviderName(TL_LIFE_PROVIDER), expectedName) == 0);
    failures += !VERIFY(strcmp(TraceLoggingProviderOptions(TL_LIFE_PROVIDER), "") == 0);

    /* Never registered: disabled, silent, and the value is not evaluated. */
    TraceLoggingUnregister(TL_LIFE_PROVIDER); /* unregistering an unregistered provider is a no-op */
    enabled = TraceLoggingProviderEnabled(TL_LIFE_PROVIDER, 5, 0);
    failures += !VERIFY(!enabled);
    tl_life_evaluations = 0;
    failures += !VERIFY(TraceLoggingWrite(TL_LIFE_PROVIDER, "BeforeRegister",
        TraceLoggingInt32(tl_life_value(0), "value")) == 0);
    failures += !VERIFY(tl_life_evaluations == 0);

    /* Registered: enabled, written, value evaluated once. */
    failures += !VERIFY(TraceLoggingRegister(TL_LIFE_PROVIDER) == 0);
    enabled = TraceLoggingProviderEnabled(TL_LIFE_PROVIDER, 5, 0);
    failures += !VERIFY(enabled);
    failures += !VERIFY(TraceLoggingWrite(TL_LIFE_PROVIDER, "Registered1",
        TraceLoggingInt32(tl_life_value(1), "value")) == 0);
    failures += !VERIFY(tl_life_evaluations == 1);

    /* Unregistered (twice): disabled again, silent, not evaluated. */
    TraceLoggingUnregister(TL_LIFE_PROVIDER);
    TraceLoggingUnregister(TL_LIFE_PROVIDER);
    enabled = TraceLoggingProviderEnabled(TL_LIFE_PROVIDER, 5, 0);
    failures += !VERIFY(!enabled);
    failures += !VERIFY(TraceLoggingWrite(TL_LIFE_PROVIDER, "AfterUnregister",
        TraceLoggingInt32(tl_life_value(9), "value")) == 0);
    failures += !VERIFY(tl_life_evaluations == 1);

    /* Registered again: the same events work again. */
    failures += !VERIFY(TraceLoggingRegister(TL_LIFE_PROVIDER) == 0);
    enabled = TraceLoggingProviderEnabled(TL_LIFE_PROVIDER, 5, 0);
    failures += !VERIFY(enabled);
    failures += !VERIFY(TraceLoggingProviderEnabled(TL_LIFE_PROVIDER, event_level_error, 0x3));
    failures += !VERIFY(TraceLoggingWrite(TL_LIFE_PROVIDER, "Registered2",
        TraceLoggingInt32(tl_life_value(2), "value")) == 0);
    failures += !VERIFY(tl_life_evaluations == 2);

    /* Activity ids that are NULL only at run time: none written; a related id
       without an activity id: EINVAL and nothing written, whether the missing
       activity id is a constant or known only at run time. */
    {
        static uint8_t const related[16] = { 1, 2, 3 };
        void const* volatile noId = NULL;
        failures += !VERIFY(TraceLoggingWriteActivity(TL_LIFE_PROVIDER, "NoIds", noId, noId,
            TraceLoggingInt32(3, "value")) == 0);
        failures += !VERIFY(TraceLoggingWriteActivity(TL_LIFE_PROVIDER, "RelatedOnly", NULL, related) == EINVAL);
        failures += !VERIFY(TraceLoggingWriteActivity(TL_LIFE_PROVIDER, "RelatedOnlyRt", noId, related) == EINVAL);
    }

    failures += !VERIFY(TraceLoggingWrite(TL_LIFE_PROVIDER, "Struct",
        TraceLoggingLevel(event_level_error),
        TraceLoggingKeyword(0x1),
        TraceLoggingKeyword(0x2),
        TraceLoggingStruct(2, "pair"),
            TraceLoggingUInt8(7, "a"),
            TraceLoggingUtf8String("b", "b")) == 0);

    TraceLoggingUnregister(TL_LIFE_PROVIDER);
    failures += !VERIFY(!TraceLoggingProviderEnabled(TL_LIFE_PROVIDER, 5, 0));
    failures += !VERIFY(!TraceLoggingProviderEnabled(TL_LIFE_PROVIDER, event_level_error, 0x3));
    failures += !VERIFY(TraceLoggingWrite(TL_LIFE_PROVIDER, "AfterUnregister2",
        TraceLoggingInt32(tl_life_value(9), "value")) == 0);
    failures += !VERIFY(tl_life_evaluations == 2);
    return failures;
}

#endif /* TL_LIFECYCLE_H */
