/* SPDX-License-Identifier: MIT */
/*
 * qct_clock.h — the one clock of the schedulers and the program: seconds
 * on the monotonic clock, for durations (never the time of day).
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

#endif
