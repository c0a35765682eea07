/* SPDX-License-Identifier: MIT */
/*
 * fault_trap.c — the test-only fault trap (fault_hook.h): a countdown over
 * qc_plan_count_unit's calls and the pauses, hung on the plan's trap
 * (plan.h) while either is set.
 */
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "fault_hook.h"
#include "plan.h"
#include "stop.h"

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

/* [paused units] The file whose presence holds units, the calls let
 * through first, and the calls so far. */
static const char *pause_path;
static unsigned long pause_after, pause_calls;

/* Waits while the pause file exists, past the first pause_after calls,
 * unless the calling thread is told to stop. */
static void pause_here(void)
{
    const char *path = __atomic_load_n(&pause_path, __ATOMIC_ACQUIRE);
    if (!path || __atomic_fetch_add(&pause_calls, 1, __ATOMIC_ACQ_REL) < pause_after)
        return;
    const struct timespec tick = {0, 20 * 1000 * 1000};
    while (access(path, F_OK) == 0 && !qci_stop_raised(qci_stop_flag))
        nanosleep(&tick, NULL);
}

/* The plan's trap while a fault is armed or pauses are set. */
static int unit_trap(size_t unit)
{
    pause_here();
    return fault_fires(unit);
}

static void trap_set(void)
{
    const int on = __atomic_load_n(&fault_countdown, __ATOMIC_ACQUIRE) != 0
                || __atomic_load_n(&pause_path, __ATOMIC_ACQUIRE) != NULL;
    __atomic_store_n(&qci_plan_unit_trap, on ? unit_trap : NULL, __ATOMIC_RELEASE);
}

void qc_plan_fault_arm(unsigned long k)
{
    __atomic_store_n(&fault_failed_unit, SIZE_MAX, __ATOMIC_RELAXED);
    __atomic_store_n(&fault_countdown, k, __ATOMIC_RELEASE);
    trap_set();
}

void qc_plan_pause_while(const char *path, unsigned long after)
{
    __atomic_store_n(&pause_after, after, __ATOMIC_RELAXED);
    __atomic_store_n(&pause_calls, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&pause_path, path, __ATOMIC_RELEASE);
    trap_set();
}

size_t qc_plan_fault_unit(void)
{
    return __atomic_load_n(&fault_failed_unit, __ATOMIC_ACQUIRE);
}
