/* SPDX-License-Identifier: MIT */
/*
 * check.h — the C tests' one assertion and their closing report.
 *
 *   CHECK(cond);                      CHECK(cond, "n=%d: got %d", n, got);
 *
 * counts the check, and when cond is false counts a failure and prints
 * "FAIL file:line: cond" with the message, if any.  check_report(name)
 * prints "name: P passed, F failed" and returns the exit status (0 when
 * nothing failed); a test's main ends in `return check_report("...")`.
 * The counters are atomic: hooks called from worker threads may CHECK.
 * Header-only, for tests only; one copy of the counters per test program.
 */
#ifndef QC_TEST_CHECK_H
#define QC_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static unsigned long check_passed, check_failed;

static void check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void check_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    __atomic_fetch_add(&check_failed, 1, __ATOMIC_RELAXED);
    printf("FAIL %s:%d: %s", file, line, cond);
    if (fmt[2] != '\0') {      /* more than the ": " every format starts with */
        va_list ap;
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
    }
    printf("\n");
    fflush(stdout);
}

/* The message is optional: ": " __VA_ARGS__ is ": " alone when there is
 * none, and ": " followed by the format otherwise (literals concatenate). */
#define CHECK(cond, ...)                                                          \
    do {                                                                          \
        if (cond)                                                                 \
            __atomic_fetch_add(&check_passed, 1, __ATOMIC_RELAXED);               \
        else                                                                      \
            check_fail(__FILE__, __LINE__, #cond, ": " __VA_ARGS__);            \
    } while (0)

/* Prints the tally under `name`; returns 0 when every check passed, else 1. */
static inline int check_report(const char *name)
{
    unsigned long passed = __atomic_load_n(&check_passed, __ATOMIC_RELAXED);
    unsigned long failed = __atomic_load_n(&check_failed, __ATOMIC_RELAXED);
    printf("%s: %lu passed, %lu failed\n", name, passed, failed);
    return failed != 0;
}

/* The number of failures so far (for a test that stops early). */
static inline unsigned long check_failures(void)
{
    return __atomic_load_n(&check_failed, __ATOMIC_RELAXED);
}

#endif
