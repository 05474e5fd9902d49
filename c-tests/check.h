/*
 * The assertions of every C and C++ test program (c-tests/, tests/kernel/).
 *
 * Fatal checks stop at the first failure: they print the location and the
 * failed expression (or both values) and exit(1).
 *
 *   CHECK(cond)
 *   CHECK_EQ_INT(expected, actual)
 *
 * Counted checks report every failure and go on; the program ends with
 * check_finish(). Each prints "FAIL NAME FILE:LINE: cond[: message]" when
 * cond is false (NAME is check_name, "test" unless the program sets it),
 * counts the check and returns whether cond held.
 *
 *   VERIFY(cond)
 *   VERIFYF(cond, format, ...)      with a printf message
 *   REQUIRE(cond, format, ...)      VERIFYF, and `return check_finish();`
 *                                   from the calling function on failure
 *
 * check_finish() prints "NAME: N checks, M failed" on stdout and returns the
 * exit status: 1 when a check failed or none ran, else 0. The counts are per
 * translation unit.
 */
#ifndef CTESTS_CHECK_H
#define CTESTS_CHECK_H

#include <stdarg.h>
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

static __attribute__((unused)) int check_total;
static __attribute__((unused)) int check_failed;
static __attribute__((unused)) char const* check_name = "test";

/* Counts one check; on failure prints where and what, then the message
   (fmt may be null). Returns ok. */
static __attribute__((unused, format(printf, 5, 6))) int check_counted(int ok, char const* file, int line,
                                                                       char const* expr, char const* fmt, ...)
{
    check_total++;
    if (!ok) {
        check_failed++;
        fprintf(stderr, "FAIL %s %s:%d: %s", check_name, file, line, expr);
        if (fmt) {
            va_list ap;
            fputs(": ", stderr);
            va_start(ap, fmt);
            vfprintf(stderr, fmt, ap);
            va_end(ap);
        }
        fputc('\n', stderr);
    }
    return ok;
}

#define VERIFY(cond) check_counted(!!(cond), __FILE__, __LINE__, #cond, (char const*)0)
#define VERIFYF(cond, ...) check_counted(!!(cond), __FILE__, __LINE__, #cond, __VA_ARGS__)

static __attribute__((unused)) int check_finish(void)
{
    printf("%s: %d checks, %d failed\n", check_name, check_total, check_failed);
    fflush(stdout);
    return (check_failed || !check_total) ? 1 : 0;
}

#define REQUIRE(cond, ...)                  \
    do {                                    \
        if (!VERIFYF(cond, __VA_ARGS__))    \
            return check_finish();          \
    } while (0)

#endif /* CTESTS_CHECK_H */
