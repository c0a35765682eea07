/*
 * clock.h — the programs' one clock: seconds on CLOCK_MONOTONIC, for
 * elapsed times and pacing (never a date).
 */
#ifndef QC_CLOCK_H
#define QC_CLOCK_H

#include <time.h>

static inline double qc_clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
