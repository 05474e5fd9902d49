/* tpp_multi: three providers over three translation units (C and C++).
 *   MultiA     defined in multi_a.c,  tracepoints in multi_a.c and multi_b.cpp
 *   MultiB     defined in multi_b.cpp, tracepoints in multi_b.cpp and multi_a.c
 *   MultiNone  defined in multi_main.c, no tracepoints at all */
#ifndef TPP_MULTI_H
#define TPP_MULTI_H

#include <tracepoint/tracepoint-provider.h>

TPP_DECLARE_PROVIDER(MultiA);
TPP_DECLARE_PROVIDER(MultiB);
TPP_DECLARE_PROVIDER(MultiNone);

#ifdef __cplusplus
extern "C" {
#endif

/* Counts the evaluations of field value expressions (multi_main.c). */
extern int multi_evaluations;
int multi_count(int value);
char const* multi_str(char const* value);

/* multi_a.c (C) */
int multi_a_fn(uint32_t n, char const* s); /* TPP_FUNCTION, MultiA "multi_a_fn" */
int multi_a_fn_enabled(void);
int multi_a_probe(void);                   /* one TPP_WRITE to MultiA, 2 counted values */
int multi_a_writes(void);                  /* writes to MultiA and MultiB; 0 if all succeeded */
int multi_a_never_called(void);            /* its tracepoint is registered all the same */

/* multi_b.cpp (C++) */
int multi_b_fn(int64_t v); /* TPP_FUNCTION in extern "C", MultiB "multi_b_fn" */
int multi_b_fn_enabled(void);
int multi_b_writes(void);  /* writes to MultiB and MultiA; 0 if all succeeded */

#ifdef __cplusplus
}
#endif

#endif
