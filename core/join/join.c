/* SPDX-License-Identifier: MIT */
/*
 * join.c — the meet-in-the-middle engine ("join"): counts solutions as
 * pairs (top half, bottom half) instead of walking every placement.  This
 * file builds its plan (the units and their order) and is its entry in the
 * engine table (plan.h).
 *
 * A work unit is a pattern q: the columns the top half uses inside a block
 * M of m central columns (m grows with N, so units shrink as the board
 * grows).  The rooms of the engine, each its own file:
 *   geometry  the board split into halves and bands, border signatures;
 *   bands     one side's band placements, sorted by column set;
 *   halves    the halves of one column set, joined from the bands;
 *   pairs     the hot loop: disjoint pairs of halves, one file per backend;
 *   orbits    which units and column sets count, with what weight;
 *   scratch   the working memory units reuse;
 *   unit      counting one unit from all of the above.
 * Units are independent, so threads never wait for each other; memory is
 * per unit (per thread: scratch.c) and nothing else is shared but the
 * read-only plan.  Every N >= 1 takes the same path, no special cases: N=1
 * has an empty top half (h=0) and one unit; N=2, 3 find no pairs.
 */
#include <stdlib.h>

#include "config.h"
#include "join.h"
#include "orbits.h"
#include "plan.h"
#include "unit.h"

static double binomial(int n, int k)
{
    if (k < 0 || k > n)
        return 0;
    double b = 1;
    for (int i = 1; i <= k; i++)
        b = b * (n - k + i) / i;
    return b;
}

/* A pattern or a unit while the plan sorts them: biggest first, then by
 * pattern (its columns, or its index once patterns are numbered), then by
 * slice. */
typedef struct unit_order {
    double cost;
    uint32_t pattern;
    uint32_t slice;
} unit_order;

static int by_cost_desc(const void *a, const void *b)
{
    const unit_order *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    if (x->pattern != y->pattern)
        return x->pattern < y->pattern ? -1 : 1;
    return x->slice < y->slice ? -1 : x->slice > y->slice;
}

/* Whether pattern q can hold a counted set, and its estimated cost (the
 * product of the top and bottom half counts, by column sets alone). */
static double pattern_cost(const qcj_plan *data, uint32_t q)
{
    const qcj_geometry *g = &data->geo;
    const int n = g->n, m = qcj_block_cols(g), h = g->h;
    const int in_top = __builtin_popcount(q);
    if (in_top > h || h - in_top > n - m)
        return 0;
    if (!qcj_pattern_canonical(q, data->block, n, data->flip))
        return 0;
    const uint32_t rest = data->block & ~q;
    double tops = binomial(n - m, h - in_top), cost = 0;
    if (!(n & 1))   /* even: the bottom takes all of M\q */
        return tops * binomial(n - m, h - __builtin_popcount(rest));
    /* odd: the bottom takes M\q or all but one column x of it (the middle
     * queen's), and only patterns p >= q (the others are flip images) */
    for (int x = -1; x < 32; x++) {
        if (x >= 0 && !(rest >> x & 1u))
            continue;
        uint32_t p = x >= 0 ? rest & ~(1u << x) : rest;
        if (p >= q || (p == 0 && q == 0))
            cost += tops * binomial(n - m, h - __builtin_popcount(p));
    }
    return cost;
}

static void plan_free(qcj_plan *data)
{
    qcj_pool_free(data->pool);
    qcj_shared_free(data->shared);
    qcj_splits_free(&data->splits[0]);
    qcj_splits_free(&data->splits[1]);
    free(data->pattern);
    free(data->slices);
    free(data->unit);
    free(data->unit_cost);
    free(data);
}

/* The patterns that can hold a counted set, biggest first, into
 * data->pattern, with their costs into *cost (to free). */
static int list_patterns(qcj_plan *data, double **cost)
{
    const qcj_geometry *g = &data->geo;
    const int m = qcj_block_cols(g);
    unit_order *order = malloc(sizeof *order << m);
    if (!order)
        return QC_ENOMEM;
    size_t count = 0;
    for (uint32_t bits = 0; bits < 1u << m; bits++) {
        uint32_t q = bits << g->unit_lo;
        double c = pattern_cost(data, q);
        if (c > 0)
            order[count++] = (unit_order){.cost = c, .pattern = q};
    }
    qsort(order, count, sizeof *order, by_cost_desc);
    data->pattern = malloc((count ? count : 1) * sizeof *data->pattern);
    data->slices = malloc((count ? count : 1) * sizeof *data->slices);
    *cost = malloc((count ? count : 1) * sizeof **cost);
    if (!data->pattern || !data->slices || !*cost) {
        free(order);
        return QC_ENOMEM;
    }
    for (size_t i = 0; i < count; i++) {
        data->pattern[i] = order[i].pattern;
        (*cost)[i] = order[i].cost;
    }
    data->patterns = count;
    free(order);
    return QC_OK;
}

/* [even slices] How many units pattern i's column sets are cut into: as
 * many as keep each under 1/QCJ_UNIT_TARGET of the board's estimated
 * cost, and no more than it has column keys (sets outside M). */
static uint32_t slices_of(const qcj_plan *data, size_t i, double cost, double cap)
{
    const qcj_geometry *g = &data->geo;
    const int n = g->n, m = qcj_block_cols(g);
    const double keys = binomial(n - m, g->h - __builtin_popcount(data->pattern[i]));
    const double want = cost / cap;
    if (!(want < keys))                     /* as many as it has keys */
        return keys < 1 ? 1 : (uint32_t)keys;
    double k = (double)(uint64_t)want;
    if (k < want)
        k += 1;                             /* rounded up */
    return k < 1 ? 1 : (uint32_t)k;
}

/* [shared ahead] Lays out the units: first the patterns left whole,
 * biggest first (a small one is mostly the cost of listing its bands);
 * then the slices of the cut patterns, each pattern's one after another
 * (they share its band lists, held while its slices run), except that a
 * pattern's first slice, which lists its bands, comes QCJ_SHARED_AHEAD
 * patterns early: it is done by the time the rest of its slices start, so
 * no thread waits for the lists, and no such costly unit comes last.
 * `band` is the estimated cost of listing a pattern's bands. */
static void lay_out(qcj_plan *data, const double *cost, double band, unit_order *order)
{
    size_t u = 0, cut = 0;
    uint32_t *cut_of = (uint32_t *)data->unit;   /* the cut patterns, as scratch */
    for (uint32_t i = 0; i < data->patterns; i++) {
        if (data->slices[i] == 1)
            order[u++] = (unit_order){cost[i] + band, i, 0};
        else
            cut_of[cut++] = i;
    }
    for (size_t c = 0; c < cut && c < QCJ_SHARED_AHEAD; c++) {
        const uint32_t i = cut_of[c];
        order[u++] = (unit_order){cost[i] / data->slices[i] + band, i, 0};
    }
    for (size_t c = 0; c < cut; c++) {
        const uint32_t i = cut_of[c];
        for (uint32_t j = 1; j < data->slices[i]; j++)
            order[u++] = (unit_order){cost[i] / data->slices[i], i, j};
        if (c + QCJ_SHARED_AHEAD < cut) {
            const uint32_t next = cut_of[c + QCJ_SHARED_AHEAD];
            order[u++] = (unit_order){cost[next] / data->slices[next] + band, next, 0};
        }
    }
}

/* Cuts the patterns into units and lays them out (lay_out); the plan's
 * fingerprint into *fp: the same as an uncut plan's wherever no pattern
 * is cut. */
static int order_units(qcj_plan *data, double unit_target, uint64_t *fp)
{
    const qcj_geometry *g = &data->geo;
    double *cost = NULL, total = 0;
    int rc = list_patterns(data, &cost);
    if (rc != QC_OK) {
        free(cost);
        return rc;
    }
    size_t units = 0;
    for (size_t i = 0; i < data->patterns; i++)
        total += cost[i];
    for (size_t i = 0; i < data->patterns; i++) {
        data->slices[i] = slices_of(data, i, cost[i], total / unit_target);
        units += data->slices[i];
    }
    unit_order *order = malloc((units ? units : 1) * sizeof *order);
    data->unit = malloc((units ? units : 1) * sizeof *data->unit);
    data->unit_cost = malloc((units ? units : 1) * sizeof *data->unit_cost);
    data->shared = qcj_shared_new(data->patterns, data->slices);
    if (!order || !data->unit || !data->unit_cost || !data->shared) {
        free(order);
        free(cost);
        return QC_ENOMEM;
    }
    /* [band cost] listing a pattern's bands costs about the same whatever
     * the pattern: some 3-9% of the mean pattern's estimate */
    lay_out(data, cost, QCJ_BAND_COST * total / (double)(data->patterns ? data->patterns : 1), order);
    uint64_t h = qc_fingerprint_mix(0, QC_ENGINE_JOIN);
    h = qc_fingerprint_mix(h, (uint64_t)g->n);
    h = qc_fingerprint_mix(h, (uint64_t)g->wide << 48 | (uint64_t)g->h << 32
                              | (uint64_t)qcj_block_cols(g) << 16 | (uint64_t)g->key_bits);
    for (size_t u = 0; u < units; u++) {
        const uint32_t i = order[u].pattern, k = data->slices[i];
        data->unit[u] = (qcj_unit_ref){.pattern = i, .slice = order[u].slice};
        data->unit_cost[u] = order[u].cost;
        h = qc_fingerprint_mix(h, data->pattern[i]);
        if (k > 1)
            h = qc_fingerprint_mix(h, (uint64_t)k << 32 | order[u].slice);
    }
    free(order);
    free(cost);
    data->units = units;
    *fp = h;
    return QC_OK;
}

/* Fills the plan's units for split parameters (unit columns, key bits,
 * 64-bit lanes even where 32 would do, the units aimed at). */
static int join_build_with(qc_plan *plan, int unit_cols, int key_bits, int force_wide,
                           double unit_target)
{
    const int n = plan->n;
    qcj_plan *data = calloc(1, sizeof *data);
    if (!data)
        return QC_ENOMEM;
    qcj_geometry *g = &data->geo;
    qcj_geometry_init(g, n, unit_cols, key_bits, force_wide);
    data->block = qcj_block(g);
    data->flip = n % 2 == 0;
    qcj_rank_init(&data->rank);
    uint64_t fp = 0;
    data->pool = qcj_pool_new();
    int rc = data->pool ? QC_OK : QC_ENOMEM;
    if (rc == QC_OK)
        rc = qcj_splits_init(&data->splits[0], g->h, g->band_rows);
    if (rc == QC_OK)
        rc = qcj_splits_init(&data->splits[1], g->h, g->h - g->band_rows);
    if (rc == QC_OK)
        rc = order_units(data, unit_target, &fp);
    if (rc != QC_OK) {
        plan_free(data);
        return rc;
    }
    plan->unit_count = data->units;
    plan->fingerprint = fp;
    plan->engine_data = data;
    return QC_OK;
}

static int join_build(qc_plan *plan)
{
    return join_build_with(plan, qcj_unit_cols(plan->n), qcj_key_bits(plan->n), 0, QCJ_UNIT_TARGET);
}

/* A unit cut short by the stop flag returns QC_ESTOP: the caller drops it
 * (qc_plan_count_unit zeroes *out on any error). */
static int join_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    const qcj_plan *data = plan->engine_data;
    qcj_scratch *sc = qcj_pool_take(data->pool);
    int rc = sc ? qcj_count_unit(data, unit, sc, out) : QC_ENOMEM;
    qcj_pool_give(data->pool, sc);
    return rc;
}

static double join_unit_cost(const qc_plan *plan, size_t unit)
{
    const qcj_plan *data = plan->engine_data;
    return data->unit_cost[unit];
}

static void join_release(qc_plan *plan)
{
    if (plan->engine_data)
        plan_free(plan->engine_data);
}

int qcj_count_with(int n, int unit_cols, int key_bits, int force_wide, double unit_target,
                   qc_u128 *total)
{
    qc_plan plan = {.n = n, .engine = QC_ENGINE_JOIN, .ops = &qc_join_ops};
    int rc = join_build_with(&plan, unit_cols, key_bits, force_wide, unit_target);
    if (rc != QC_OK)
        return rc;
    *total = 0;
    for (size_t u = 0; u < plan.unit_count && rc == QC_OK; u++) {
        qc_tally t;
        rc = join_count_unit(&plan, u, &t);
        if (rc == QC_OK)
            *total += t.solutions;
    }
    join_release(&plan);
    return rc;
}

const qc_engine_ops qc_join_ops = {
    .name = "join",
    .build = join_build,
    .count_unit = join_count_unit,
    .unit_cost = join_unit_cost,
    .release = join_release,
};
