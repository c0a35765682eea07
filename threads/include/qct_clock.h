/* SPDX-License-Identifier: MIT */
/*
 * qct_clock.h — the clocks of the schedulers and the program: seconds on
 * the monotonic clock, for durations (never the time of day), and the
 * process's CPU seconds beside them.
 */
#ifndef QCT_CLOCK_H
#define QCT_CLOCK_H

#include <time.h>

/* Seconds since an arbitrary fixed point; only differences mean anything. */
static inline double qct_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds this process has spent, every thread, user and system; only
 * differences mean anything. */
static inline double qct_cpu_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return 0.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
