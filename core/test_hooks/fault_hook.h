/* SPDX-License-Identifier: MIT */
/*
 * fault_hook.h — the plan's test-only trap, the one part of core/ that the
 * qcount_fault test build of the program sees (CMake target
 * qcount_fault_hook); never for a real count.  Defined in plan.c.
 */
#ifndef QC_FAULT_HOOK_H
#define QC_FAULT_HOOK_H

#include <stddef.h>

/* [fault injection] After qc_plan_fault_arm(k) with k >= 1, the k-th call
 * to qc_plan_count_unit from then on (counted over all threads) fails with
 * QC_ENOMEM without counting, as a unit that ran out of memory does, and
 * the trap disarms itself; k = 0 disarms it.  qc_plan_fault_unit() says
 * which unit that call was given, or SIZE_MAX while none has failed since
 * the arming.  Disarmed, qc_plan_count_unit pays one relaxed load per unit. */
void qc_plan_fault_arm(unsigned long k);
size_t qc_plan_fault_unit(void);

#endif
