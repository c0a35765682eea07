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

typedef struct unit_order {
    double cost;
    uint32_t pattern;
} unit_order;

static int by_cost_desc(const void *a, const void *b)
{
    const unit_order *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return x->pattern < y->pattern ? -1 : x->pattern > y->pattern;
}

/* Whether unit q can hold a counted set, and its estimated cost (the
 * product of the top and bottom half counts, by column sets alone). */
static double unit_cost(const qcj_plan *data, uint32_t q)
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
    qcj_splits_free(&data->splits[0]);
    qcj_splits_free(&data->splits[1]);
    free(data->patterns);
    free(data);
}

/* The units of data that can hold a counted set, biggest first, so that
 * the dynamic scheduler starts the long units early; their patterns into
 * data->patterns and the plan's fingerprint into *fp. */
static int order_units(qcj_plan *data, uint64_t *fp)
{
    const qcj_geometry *g = &data->geo;
    const int m = qcj_block_cols(g);
    unit_order *order = malloc(sizeof *order << m);
    if (!order)
        return QC_ENOMEM;
    size_t count = 0;
    for (uint32_t bits = 0; bits < 1u << m; bits++) {
        uint32_t q = bits << g->unit_lo;
        double cost = unit_cost(data, q);
        if (cost > 0) {
            order[count].cost = cost;
            order[count].pattern = q;
            count++;
        }
    }
    qsort(order, count, sizeof *order, by_cost_desc);
    data->patterns = malloc((count ? count : 1) * sizeof *data->patterns);
    if (!data->patterns) {
        free(order);
        return QC_ENOMEM;
    }
    uint64_t h = qc_fingerprint_mix(0, QC_ENGINE_JOIN);
    h = qc_fingerprint_mix(h, (uint64_t)g->n);
    h = qc_fingerprint_mix(h, (uint64_t)g->wide << 48 | (uint64_t)g->h << 32 | (uint64_t)m << 16
                              | (uint64_t)g->key_bits);
    for (size_t i = 0; i < count; i++) {
        data->patterns[i] = order[i].pattern;
        h = qc_fingerprint_mix(h, order[i].pattern);
    }
    free(order);
    data->units = count;
    *fp = h;
    return QC_OK;
}

/* Fills the plan's units for split parameters (unit columns, key bits,
 * 64-bit lanes even where 32 would do). */
static int join_build_with(qc_plan *plan, int unit_cols, int key_bits, int force_wide)
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
        rc = order_units(data, &fp);
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
    return join_build_with(plan, qcj_unit_cols(plan->n), qcj_key_bits(plan->n), 0);
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

static void join_release(qc_plan *plan)
{
    if (plan->engine_data)
        plan_free(plan->engine_data);
}

int qcj_count_with(int n, int unit_cols, int key_bits, int force_wide, qc_u128 *total)
{
    qc_plan plan = {.n = n, .engine = QC_ENGINE_JOIN, .ops = &qc_join_ops};
    int rc = join_build_with(&plan, unit_cols, key_bits, force_wide);
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
    .release = join_release,
};
