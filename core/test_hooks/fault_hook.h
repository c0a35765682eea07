/* SPDX-License-Identifier: MIT */
/*
 * fault_hook.h — the test-only fault trap: the CMake target
 * qcount_fault_trap, a library for the tests and the qcount_fault test
 * build of the program, never part of libqcount.  Defined in fault_trap.c.
 */
#ifndef QC_FAULT_HOOK_H
#define QC_FAULT_HOOK_H

#include <stddef.h>

/* [fault injection] After qc_plan_fault_arm(k) with k >= 1, the k-th call
 * to qc_plan_count_unit from then on (counted over all threads) fails with
 * QC_ENOMEM without counting, as a unit that ran out of memory does, and
 * the trap disarms itself; k = 0 disarms it.  qc_plan_fault_unit() says
 * which unit that call was given, or SIZE_MAX while none has failed since
 * the arming. */
void qc_plan_fault_arm(unsigned long k);
size_t qc_plan_fault_unit(void);

/* [paused units] After qc_plan_pause_while(path, after), every call to
 * qc_plan_count_unit past the first `after` (counted over all threads)
 * waits, before counting, while a file exists at path, polling every
 * 20 ms, or until the calling thread's stop flag rises (stop.h); path
 * NULL ends the pauses.  So a test holds a count mid-way for as long as
 * it needs, whatever the machine's speed, and lets it go by removing the
 * file.  path must outlive the pauses. */
void qc_plan_pause_while(const char *path, unsigned long after);

#endif
