/* SPDX-License-Identifier: MIT */
/*
 * fault_trap.c — the test-only fault trap (fault_hook.h): a countdown over
 * qc_plan_count_unit's calls, hung on the plan's trap (plan.h) while armed.
 */
#include <stdint.h>

#include "fault_hook.h"
#include "plan.h"

/* [fault injection] Calls left before the one that fails (0: disarmed),
 * and the unit that failed. */
static unsigned long fault_countdown;
static size_t fault_failed_unit = SIZE_MAX;

/* Nonzero for exactly one call once armed: the one that takes the
 * countdown from 1 to 0. */
static int fault_fires(size_t unit)
{
    unsigned long left = __atomic_load_n(&fault_countdown, __ATOMIC_ACQUIRE);
    while (left != 0) {
        if (__atomic_compare_exchange_n(&fault_countdown, &left, left - 1, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            if (left != 1)
                return 0;
            __atomic_store_n(&fault_failed_unit, unit, __ATOMIC_RELEASE);
            return 1;
        }
    }
    return 0;
}

void qc_plan_fault_arm(unsigned long k)
{
    __atomic_store_n(&fault_failed_unit, SIZE_MAX, __ATOMIC_RELAXED);
    __atomic_store_n(&fault_countdown, k, __ATOMIC_RELEASE);
    __atomic_store_n(&qci_plan_unit_trap, k ? fault_fires : NULL, __ATOMIC_RELEASE);
}

size_t qc_plan_fault_unit(void)
{
    return __atomic_load_n(&fault_failed_unit, __ATOMIC_ACQUIRE);
}
