/*
 * Assertions for the C test programs of c-tests/: on failure they print the
 * location and the failed expression (or both values) and exit(1).
 */
#ifndef CTESTS_CHECK_H
#define CTESTS_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

#define CHECK_EQ_INT(expected, actual)                                          \
    do {                                                                        \
        long long const check_e_ = (long long)(expected);                       \
        long long const check_a_ = (long long)(actual);                         \
        if (check_e_ != check_a_) {                                             \
            fprintf(stderr, "%s:%d: expected %s == %lld, got %lld\n", __FILE__, \
                    __LINE__, #actual, check_e_, check_a_);                     \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#endif /* CTESTS_CHECK_H */
