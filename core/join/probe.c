/* SPDX-License-Identifier: MIT */
/*
 * probe.c — one join unit in steps, for the sampler (probe.h): its
 * listing, then a range of its column keys counted with every join timed
 * by a joiner that wraps the level's own ([joins timed]).  A plain count
 * runs the level's joiner directly and never reaches this file.
 */
#include <time.h>

#include "join_plan.h"
#include "plan.h"
#include "probe.h"
#include "unit.h"

/* [joins timed] this thread's CPU seconds. */
static double thread_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* [joins timed] The joins of the probe under way on this thread (one at
 * a time: qcj_probe_sets runs on the calling thread): the joiner they
 * wrap, the thread CPU seconds of the joins themselves, and of the
 * timing's extra calls. */
static _Thread_local struct {
    const qcj_joiner *inner;
    double join_seconds, timing_seconds;
} timed;

/* [joins timed] The level's joiner, its joins timed.  With samples > 1
 * the call's cost beyond its joins (the bottoms laid out for the joiner,
 * the blocks skipped) is timed first, in a call that joins none, and left
 * out of join_seconds: the sampler scales that by the samples.  [warm
 * layout] That call is made twice and the second timed: the first reads
 * the bottoms from memory, the second, like the join after it, from the
 * caches.  Timed on the first, the layout's time came out too long, and
 * the joins' too short by as much times the samples: on one N=28 unit,
 * 16 samples scaled up took 0.83 of the whole joins' time a solution
 * (performance-log.md, "2026-11-29 — the sampler's joined parts made like
 * a whole join; the record plan again"). */
static int timed_count(const qcj_join_shape *shape, const qcj_groups *tops,
                       const qcj_groups *bottoms, uint32_t extra, qcj_vec *scratch, uint64_t *pairs,
                       uint64_t *tested)
{
    double t0;
    if (shape->samples > 1) {
        qcj_join_shape none = *shape;
        none.sample = none.samples;
        double t = 0, t1 = 0;
        for (int pass = 0; pass < 2; pass++) {
            uint64_t no_pairs = 0, no_tested = 0;
            t = thread_seconds();
            const int rc = timed.inner->count(&none, tops, bottoms, extra, scratch, &no_pairs,
                                              &no_tested);
            if (rc != QC_OK)
                return rc;
            t1 = thread_seconds();
            timed.timing_seconds += t1 - t;
        }
        t0 = t1 + (t1 - t);
    } else {
        t0 = thread_seconds();
    }
    const int rc = timed.inner->count(shape, tops, bottoms, extra, scratch, pairs, tested);
    timed.join_seconds += thread_seconds() - t0;
    return rc;
}

int qcj_probe_start(const qc_plan *plan, size_t unit, qcj_probe *pr)
{
    const qcj_plan *data = plan->engine_data;
    *pr = (qcj_probe){.plan = plan, .unit = unit};
    if (unit >= data->units)
        return QC_EINVAL;
    const qcj_unit_ref ref = qcj_unit_at(data, unit);
    const uint32_t slices = data->slices[ref.pattern];
    pr->list_share = slices == 1 || data->geo.own_lists ? 1 : data->list_pieces ? 0 : 1.0 / slices;
    uint64_t lo, hi;
    qcj_unit_keys(data, unit, &lo, &hi);
    pr->key0 = lo;
    pr->keys = hi - lo;
    pr->sc = qcj_pool_take(data->pool);
    if (!pr->sc)
        return QC_ENOMEM;
    int rc = qcj_unit_lists_now(data, unit, pr->sc, &pr->sides, &pr->listed);
    if (rc != QC_OK)
        qcj_probe_end(pr);
    return rc;
}

int qcj_probe_sets(qcj_probe *pr, uint64_t lo, uint64_t hi, uint32_t samples, uint32_t sample,
                   qc_tally *out)
{
    const qcj_plan *data = pr->plan->engine_data;
    out->solutions = 0;
    out->steps = 0;
    pr->join_seconds = pr->timing_seconds = 0;
    if (!pr->sides || lo > hi || hi > pr->keys)
        return pr->sides ? QC_EINVAL : QC_OK;   /* a piece's unit counts no set */
    const qcj_joiner *inner = qcj_joiner_at(qci_isa_current(), data->joiner);
    qcj_joiner wrapped = *inner;                /* [joins timed] */
    wrapped.count = timed_count;
    timed.inner = inner;
    timed.join_seconds = timed.timing_seconds = 0;
    const qcj_unit_job job = {.sides = pr->sides, .joiner = &wrapped, .lo = pr->key0 + lo,
                              .hi = pr->key0 + hi, .samples = samples, .sample = sample};
    const int rc = qcj_unit_sets_now(data, pr->unit, pr->sc, &job, out);
    pr->join_seconds = timed.join_seconds;
    pr->timing_seconds = timed.timing_seconds;
    timed.inner = NULL;
    return rc;
}

void qcj_probe_end(qcj_probe *pr)
{
    const qcj_plan *data = pr->plan->engine_data;
    if (pr->sides && pr->sides != pr->sc->side)
        qcj_shared_release(data->shared, qcj_unit_at(data, pr->unit).pattern, 1);
    qcj_plan_paths_give(data, pr->sc);
    qcj_pool_give(data->pool, pr->sc);      /* kept for the next unit, or not, as in a run */
    pr->sc = NULL;
    pr->sides = NULL;
}

void qcj_plan_trim(const qc_plan *plan)
{
    const qcj_plan *data = plan->engine_data;
    qcj_pool_trim(data->pool);
    qcj_shared_trim(data->shared);
}
