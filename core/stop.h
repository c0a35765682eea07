/* SPDX-License-Identifier: MIT */
/*
 * stop.h — the calling thread's stop flag, which the engines read inside
 * a unit.
 *
 * [stop check] qci_stop_flag is the calling thread's stop flag, or NULL
 * (the default).  qc_plan_count_unit_until sets it for the length of one
 * unit.  When set and *flag turns nonzero, the engines' searches
 * (qck_count_completions, the eightfold and join engines) end within about
 * a millisecond and return QC_ESTOP with a PARTIAL tally, which the caller
 * must throw away.  Thread-local, so core/ keeps no shared state and the
 * engines' signatures need no flag.
 */
#ifndef QC_STOP_H
#define QC_STOP_H

extern _Thread_local const int *qci_stop_flag;

/* Whether the flag `stop` (NULL: none) has risen. */
static inline int qci_stop_raised(const int *stop)
{
    return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

#endif
