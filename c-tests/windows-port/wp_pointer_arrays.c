/*
 * Pointer arrays as Windows code declares them (PVOID stack[] from a stack
 * capture, const void* tables, function-pointer tables for the code-pointer
 * forms), passed to every pointer-array macro; built as C and (-x c++) as C++,
 * -Wall -Wextra -Werror. main.rs decodes the events:
 *   Pointers      voids, fixedVoids, consts, constPtrs, constConsts, names, none
 *   CodePointers  stack, fixedStack, handlers, fixedHandlers, once
 * each element's value in hex, as the sources below set it.
 *
 * Prints "done" and exits 0 when the writes succeeded and each array
 * argument was evaluated once.
 */
#include <windows.h>
#include <TraceLoggingProvider.h>

#include "../check.h"

TRACELOGGING_DEFINE_PROVIDER(
    g_hPointerArrays,
    "WinPortPointerArrays",
    (0x6f5e4d3c, 0x2b1a, 0x4c9d, 0x8e, 0x7f, 0x60, 0x51, 0x42, 0x33, 0x24, 0x15));

typedef void (*PHANDLER)(void);

int main(void)
{
    PVOID voids[3] = { (PVOID)(UINT_PTR)0x1000, (PVOID)(UINT_PTR)0x2000, (PVOID)(UINT_PTR)0x3000 };
    const void* consts[2] = { (const void*)(UINT_PTR)0x4000, (const void*)(UINT_PTR)0x5000 };
    void* const constPtrs[2] = { (void*)(UINT_PTR)0x6000, (void*)(UINT_PTR)0x7000 };
    const void* const constConsts[2] = { (const void*)(UINT_PTR)0x8000, (const void*)(UINT_PTR)0x9000 };
    char* names[2] = { (char*)(UINT_PTR)0xA000, (char*)(UINT_PTR)0xB000 };
    PVOID stack[3] = { (PVOID)(UINT_PTR)0x401000, (PVOID)(UINT_PTR)0x401234, (PVOID)(UINT_PTR)0x402000 };
    PHANDLER handlers[2] = { (PHANDLER)(UINT_PTR)0x403000, (PHANDLER)(UINT_PTR)0x404000 };
    USHORT frames = 3;
    int evaluated = 0;
    int status;

    status = TraceLoggingRegister(g_hPointerArrays);
    if (status != 0) {
        fprintf(stderr, "TraceLoggingRegister: %d\n", status);
        return 1;
    }
    status = TraceLoggingWrite(g_hPointerArrays, "Pointers",
        TraceLoggingPointerArray(voids, 3, "voids"),
        TraceLoggingPointerFixedArray(voids, 3, "fixedVoids"),
        TraceLoggingPointerArray(consts, 2, "consts"),
        TraceLoggingPointerFixedArray(constPtrs, 2, "constPtrs"),
        TraceLoggingPointerArray(constConsts, 2, "constConsts"),
        TraceLoggingPointerArray(names, 2, "names"),
        TraceLoggingPointerArray(NULL, 0, "none"));
    CHECK_EQ_INT(0, status);
    status = TraceLoggingWrite(g_hPointerArrays, "CodePointers",
        TraceLoggingCodePointerArray(stack, frames, "stack"),
        TraceLoggingCodePointerFixedArray(stack, 2, "fixedStack"),
        TraceLoggingCodePointerArray(handlers, 2, "handlers"),
        TraceLoggingCodePointerFixedArray(handlers, 2, "fixedHandlers"),
        TraceLoggingCodePointerArray(&stack[evaluated++], 1, "once"));
    CHECK_EQ_INT(0, status);
    CHECK_EQ_INT(1, evaluated);
    TraceLoggingUnregister(g_hPointerArrays);
    puts("done");
    return 0;
}
