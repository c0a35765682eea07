/* SPDX-License-Identifier: MIT */
/*
 * join_plan.c — where a unit lies in the join plan (join_plan.h): the
 * search of the plan's runs, and the path counters the units hand back.
 */
#include <string.h>

#include "join_plan.h"

/* [run hint] The run of this thread's last lookup: the scans of every
 * unit in order (the progress's and the parts' costs, N=28's 40 million
 * units) find the next unit in it or the next run without a search.  A
 * hint only: checked against the plan's own runs before it is used. */
static _Thread_local size_t run_hint;

qcj_unit_ref qcj_unit_at(const qcj_plan *p, size_t unit)
{
    size_t lo = run_hint;
    if (!(lo < p->runs && p->run_start[lo] <= unit && unit < p->run_start[lo + 1])) {
        if (lo + 1 < p->runs && p->run_start[lo + 1] <= unit && unit < p->run_start[lo + 2])
            lo++;                           /* [run hint] the next run */
        else {
            size_t hi = p->runs;
            lo = 0;                         /* run_start[lo] <= unit < run_start[hi] */
            while (hi - lo > 1) {
                const size_t mid = lo + (hi - lo) / 2;
                if (p->run_start[mid] <= unit)
                    lo = mid;
                else
                    hi = mid;
            }
        }
        run_hint = lo;
    }
    return (qcj_unit_ref){.pattern = p->run[lo].pattern,
                          .slice = p->run[lo].slice + (uint32_t)(unit - p->run_start[lo])};
}

void qcj_plan_paths_give(const qcj_plan *data, qcj_scratch *sc)
{
    if (!sc)
        return;
    const uint64_t *from = (const uint64_t *)&sc->paths;
    uint64_t *to = (uint64_t *)data->paths;
    for (size_t i = 0; i < sizeof sc->paths / sizeof *from; i++)
        if (from[i])
            __atomic_fetch_add(&to[i], from[i], __ATOMIC_RELAXED);
    memset(&sc->paths, 0, sizeof sc->paths);
}

