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
 *   colex     column sets in colex order: ranks, binomials;
 *   bands     one side's band placements, sorted by column set;
 *   shared    band lists shared by the slices of one pattern;
 *   halves    the halves of one column set, joined from the bands;
 *   joiner    the hot loop: disjoint pairs of halves (byte tables, one
 *             file per instruction set, and the AND loop);
 *   orbits    which units and column sets count, with what weight;
 *   scratch   the working memory units reuse;
 *   unit      counting one unit from all of the above.
 * Units are independent; memory is per unit (per thread: scratch.c), and
 * nothing else is shared but the read-only plan and the band lists of
 * patterns cut into slices.  Every N >= 1 takes the same path, no special cases: N=1
 * has an empty top half (h=0) and one unit; N=2, 3 find no pairs.
 */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fingerprint.h"
#include "join_plan.h"
#include "kernel/kernel.h"
#include "orbits.h"
#include "plan.h"
#include "probe.h"
#include "settings.h"
#include "scratch.h"
#include "unit.h"

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

/* [no empty units] Whether the unit of pattern q counts some set: a top
 * set with a weight (orbits.h), on odd N with some middle column. */
static int pattern_counts(const qcj_plan *data, uint32_t q)
{
    const qcj_geometry *g = &data->geo;
    const int n = g->n, top_free = g->h - __builtin_popcount(q);
    const uint64_t keys = qcj_binomial(n - qcj_centre_cols(g), top_free);
    uint32_t key = qcj_colex_at(0, top_free);
    for (uint64_t at = 0; at < keys; at++) {
        const uint32_t s = q | qcj_colkey_expand(g, key);
        if (n % 2 == 0 && qcj_set_weight(s, q, data->centre, n, data->flip))
            return 1;
        for (uint32_t mids = n % 2 ? qck_full_mask(n) & ~s : 0; mids; mids &= mids - 1)
            if (qcj_triple_weight(s, __builtin_ctz(mids), data->centre, n))
                return 1;
        if (key)
            key = qcj_colex_next(key);
    }
    return 0;
}

/* Whether pattern q can hold a counted set, and its estimated cost (the
 * product of the top and bottom half counts, by column sets alone). */
static double pattern_cost(const qcj_plan *data, uint32_t q)
{
    const qcj_geometry *g = &data->geo;
    const int n = g->n, m = qcj_centre_cols(g), h = g->h;
    const int in_top = __builtin_popcount(q);
    if (in_top > h || h - in_top > n - m)
        return 0;
    if (!qcj_pattern_canonical(q, data->centre, n, data->flip))
        return 0;
    const uint32_t rest = data->centre & ~q;
    double tops = (double)qcj_binomial(n - m, h - in_top), cost = 0;
    if (!(n & 1))   /* even: the bottom takes all of M\q */
        return tops * (double)qcj_binomial(n - m, h - __builtin_popcount(rest));
    /* odd: the bottom takes M\q or all but one column x of it (the middle
     * queen's), and only patterns p >= q (the others are flip images) */
    for (int x = -1; x < 32; x++) {
        if (x >= 0 && !(rest >> x & 1u))
            continue;
        uint32_t p = x >= 0 ? rest & ~(1u << x) : rest;
        if (p >= q || (p == 0 && q == 0))
            cost += tops * (double)qcj_binomial(n - m, h - __builtin_popcount(p));
    }
    return cost;
}

static void plan_free(qcj_plan *data)
{
    free(data->paths);
    qcj_pool_free(data->pool);
    qcj_shared_free(data->shared);
    qcj_splits_free(&data->splits[0]);
    qcj_splits_free(&data->splits[1]);
    free(data->pattern);
    free(data->slices);
    free(data->counts);
    free(data->cost);
    free(data->run);
    free(data->run_start);
    free(data);
}

/* The patterns that can hold a counted set, biggest first, into
 * data->pattern, with their costs into *cost (the plan's).  A first pass
 * marks them in a bitmap, so that the sort holds them alone, not all 2^m
 * candidates (2^24 at N=28). */
static int list_patterns(qcj_plan *data, double **cost)
{
    const qcj_geometry *g = &data->geo;
    const int m = qcj_centre_cols(g);
    const size_t candidates = (size_t)1 << m;
    uint64_t *held = calloc((candidates + 63) / 64, sizeof *held);
    if (!held)
        return QC_ENOMEM;
    size_t count = 0;
    for (size_t bits = 0; bits < candidates; bits++)
        if (pattern_cost(data, (uint32_t)bits << g->unit_lo) > 0
            && (!data->skip_empty || pattern_counts(data, (uint32_t)bits << g->unit_lo))) {
            held[bits / 64] |= (uint64_t)1 << (bits % 64);
            count++;
        }
    unit_order *order = malloc((count ? count : 1) * sizeof *order);
    data->pattern = malloc((count ? count : 1) * sizeof *data->pattern);
    data->slices = malloc((count ? count : 1) * sizeof *data->slices);
    data->counts = malloc(count ? count : 1);
    *cost = malloc((count ? count : 1) * sizeof **cost);
    if (!order || !data->pattern || !data->slices || !data->counts || !*cost) {
        free(order);
        free(held);
        return QC_ENOMEM;
    }
    size_t at = 0;
    for (size_t w = 0; w < (candidates + 63) / 64; w++)
        for (uint64_t word = held[w]; word; word &= word - 1) {
            const uint32_t q = (uint32_t)(64 * w + (size_t)__builtin_ctzll(word)) << g->unit_lo;
            order[at++] = (unit_order){.cost = pattern_cost(data, q), .pattern = q};
        }
    free(held);
    qsort(order, count, sizeof *order, by_cost_desc);
    for (size_t i = 0; i < count; i++) {
        data->pattern[i] = order[i].pattern;
        data->counts[i] = (uint8_t)(data->skip_empty || pattern_counts(data, order[i].pattern));
        (*cost)[i] = order[i].cost;
    }
    data->patterns = count;
    free(order);
    return QC_OK;
}

/* [even slices] How many units pattern i's column sets are cut into: as
 * many as keep each under 1/unit_target (qcj_unit_target) of the board's estimated
 * cost, and no more than it has column keys (sets outside M); [set units]
 * one per column key where the plan asks for it, [set shares] times the
 * plan's set_shares. */
static uint32_t slices_of(const qcj_plan *data, size_t i, double cost, double cap, int set_units)
{
    const qcj_geometry *g = &data->geo;
    const int n = g->n, m = qcj_centre_cols(g);
    const double keys = (double)qcj_binomial(n - m, g->h - __builtin_popcount(data->pattern[i]));
    const double want = cost / cap;
    if (set_units)
        return (keys < 1 ? 1 : (uint32_t)keys) * data->set_shares;
    if (!(want < keys))                     /* as many as it has keys */
        return keys < 1 ? 1 : (uint32_t)keys;
    double k = (double)(uint64_t)want;
    if (k < want)
        k += 1;                             /* rounded up */
    return k < 1 ? 1 : (uint32_t)k;
}

/* [split build] How long listing piece j of pattern i's band lists takes,
 * relative: the rank table of its band, C(t, rows), t the side's columns
 * (it tracks the band's placements: 1808 against 19688 for sides of 10
 * and 16 columns at N=16, tables 210 and 1820). */
static double part_weight(const qcj_plan *data, uint32_t i, int j)
{
    const qcj_geometry *g = &data->geo;
    const uint32_t side = j >> 1 ? data->centre & ~data->pattern[i] : data->pattern[i];
    const int lo = j >> 1 ? (j & 1 ? g->split[1] : g->b0) : (j & 1 ? g->split[0] : 0);
    const int hi = j >> 1 ? (j & 1 ? g->n : g->split[1]) : (j & 1 ? g->h : g->split[0]);
    return (double)qcj_binomial(qcj_side_cols(g, side), hi - lo);
}

static double pattern_weight(const qcj_plan *data, uint32_t i)
{
    double w = 0;
    for (int j = 0; j < QCJ_SHARED_PIECES; j++)
        w += part_weight(data, i, j);
    return w;
}

/* [unit runs] The estimated cost of unit ref, as the plan lays it out
 * (lay_out): a whole pattern's with the listing of its bands; a cut
 * pattern's slices share its cost, the one listing its lists (its first
 * slice, or with [split build] each piece's unit, by the piece's weight
 * against the mean cut pattern's) adding that listing; none for a unit
 * that counts no set ([no empty units]). */
static double unit_cost_of(const qcj_plan *data, qcj_unit_ref ref)
{
    const uint32_t i = ref.pattern, k = data->slices[i];
    if (!data->counts[i])
        return 0;
    if (ref.slice >= k)
        return data->band * part_weight(data, i, (int)(ref.slice - k)) / data->list_mean;
    if (k == 1)
        return data->cost[i] + data->band;
    if (ref.slice == 0 && !data->list_pieces)
        return data->cost[i] / k + data->band;
    return data->cost[i] / k;
}

/* [unit runs] Appends units slice.. slice+count-1 of pattern i. */
static void put_run(qcj_plan *data, uint32_t i, uint32_t slice, uint32_t count)
{
    if (count == 0)
        return;
    data->run[data->runs] = (qcj_unit_ref){.pattern = i, .slice = slice};
    data->run_start[data->runs++] = data->units;
    data->units += count;
}

/* The units that list cut pattern i's band lists: with `split` its
 * QCJ_SHARED_PIECES pieces' units ([split build]: slices number the
 * counting units, the pieces follow); else its first slice, which lists
 * them all. */
static void put_lists(qcj_plan *data, uint32_t i, int split)
{
    if (split)
        put_run(data, i, data->slices[i], QCJ_SHARED_PIECES);
    else
        put_run(data, i, 0, 1);
}

/* [shared ahead] Lays out the units: first the patterns left whole,
 * biggest first (a small one is mostly the cost of listing its bands);
 * then the slices of the cut patterns, each pattern's one after another
 * (they share its band lists, held while its slices run), except that the
 * units listing a pattern's band lists come QCJ_SHARED_AHEAD patterns
 * early: they are done by the time its slices start, so no thread waits
 * for the lists, and none comes last.  With `split`, the cut patterns
 * whose lists take longest come first (their costly pieces early, and the
 * shared buffers grown once, at the start).  cut_of: room for the cut
 * patterns. */
static void lay_out(qcj_plan *data, int split, unit_order *cut_of)
{
    size_t cut = 0;
    double mean = 0;
    data->units = data->runs = 0;
    for (uint32_t i = 0; i < data->patterns; i++) {
        if (data->slices[i] == 1)
            put_run(data, i, 0, 1);
        else {
            const double w = split ? pattern_weight(data, i) : 0;
            cut_of[cut++] = (unit_order){w, i, 0};
            mean += w;
        }
    }
    data->list_mean = cut ? mean / (double)cut : 1;
    qsort(cut_of, cut, sizeof *cut_of, by_cost_desc);   /* without split: as they were */
    for (size_t c = 0; c < cut && c < QCJ_SHARED_AHEAD; c++)
        put_lists(data, cut_of[c].pattern, split);
    for (size_t c = 0; c < cut; c++) {
        const uint32_t i = cut_of[c].pattern, first = split ? 0 : 1;
        put_run(data, i, first, data->slices[i] - first);
        if (c + QCJ_SHARED_AHEAD < cut)
            put_lists(data, cut_of[c + QCJ_SHARED_AHEAD].pattern, split);
    }
    data->run_start[data->runs] = data->units;
}

/* Cuts the patterns into units and lays them out (lay_out); the plan's
 * fingerprint into *fp: the same as an uncut plan's wherever no pattern
 * is cut. */
static int order_units(qcj_plan *data, double unit_target, int set_units, uint64_t *fp)
{
    const qcj_geometry *g = &data->geo;
    double total = 0;
    int rc = list_patterns(data, &data->cost);
    if (rc != QC_OK)
        return rc;
    size_t cut = 0;
    for (size_t i = 0; i < data->patterns; i++)
        total += data->cost[i];
    /* [band cost] listing a pattern's bands costs about the same whatever
     * the pattern: some 3-9% of the mean pattern's estimate.  [split
     * build] Where that passes a slice's cost (under 246 patterns: N <= 18),
     * the lists are listed in pieces, a unit each. */
    data->band = QCJ_BAND_COST * total / (double)(data->patterns ? data->patterns : 1);
    const int split = !set_units && data->band > total / unit_target;
    for (size_t i = 0; i < data->patterns; i++) {
        data->slices[i] = slices_of(data, i, data->cost[i], total / unit_target, set_units);
        cut += data->slices[i] > 1;
    }
    unit_order *cut_of = malloc((cut + 1) * sizeof *cut_of);
    data->run = malloc((2 * data->patterns + 1) * sizeof *data->run);   /* two a cut pattern at most */
    data->run_start = malloc((2 * data->patterns + 2) * sizeof *data->run_start);
    data->shared = qcj_shared_new(data->patterns, data->slices, split ? QCJ_SHARED_PIECES : 0);
    data->list_pieces = split ? QCJ_SHARED_PIECES : 0;
    if (!cut_of || !data->run || !data->run_start || !data->shared) {
        free(cut_of);
        return QC_ENOMEM;
    }
    lay_out(data, split, cut_of);
    free(cut_of);
    uint64_t h = qc_fingerprint_mix(0, QC_ENGINE_JOIN);
    if (data->profile != g->n)              /* [plan profiles] another board's: its own plans */
        h = qc_fingerprint_mix(h, (uint64_t)data->profile << 32 | 0x70726f66u);
    h = qc_fingerprint_mix(h, (uint64_t)g->n);
    h = qc_fingerprint_mix(h, (uint64_t)g->wide << 48 | (uint64_t)g->h << 32
                              | (uint64_t)qcj_centre_cols(g) << 16 | (uint64_t)g->key_bits);
    for (size_t r = 0; r < data->runs; r++) {
        const uint32_t i = data->run[r].pattern, k = data->slices[i];
        for (size_t u = data->run_start[r]; u < data->run_start[r + 1]; u++) {
            h = qc_fingerprint_mix(h, data->pattern[i]);
            if (k > 1)
                h = qc_fingerprint_mix(h, (uint64_t)k << 32
                                              | (data->run[r].slice + (uint32_t)(u - data->run_start[r])));
        }
    }
    *fp = h;
    return QC_OK;
}

/* Fills the plan's units for settings s (settings.h). */
static int join_build_with(qc_plan *plan, const qcj_settings *s)
{
    const int n = plan->n;
    qcj_plan *data = calloc(1, sizeof *data);
    if (!data)
        return QC_ENOMEM;
    qcj_geometry *g = &data->geo;
    qcj_geometry_init(g, n, s->unit_cols, s->key_bits, s->force_wide);
    g->bands_in_place = g->bands_pruned = s->large_bands;
    g->halves_transposed = s->halves_transposed && g->halves_transposed_fit;
    g->own_lists = s->own_lists;
    g->tile_bytes = s->tile_bytes;
    g->halves_cap = s->halves_cap;
    g->memory_budget = s->memory_budget;
    g->set_key_from = s->set_key_from;
    g->key_splits = s->key_splits;
    g->sort_coarse_from = s->sort_coarse_from;
    data->set_shares = s->set_units && s->set_shares > 1 ? s->set_shares : 1;
    data->skip_empty = s->skip_empty;
    data->profile = s->profile ? s->profile : n;
    data->joiner = s->joiner;
    data->centre = qcj_centre(g);
    data->flip = n % 2 == 0;
    qcj_rank_init(&data->rank);
    uint64_t fp = 0;
    data->pool = qcj_pool_new(s->fresh_scratch ? 0 : QCJ_SCRATCH_KEPT_MAX);
    data->paths = calloc(1, sizeof *data->paths);
    int rc = data->pool && data->paths ? QC_OK : QC_ENOMEM;
    if (rc == QC_OK)
        rc = qcj_splits_init(&data->splits[0], g->h, g->band_rows);
    if (rc == QC_OK)
        rc = qcj_splits_init(&data->splits[1], g->h, g->h - g->band_rows);
    if (rc == QC_OK)
        rc = order_units(data, s->unit_target, s->set_units, &fp);
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
    const qcj_settings s = qcj_settings_for(plan->n, plan->profile);
    return join_build_with(plan, &s);
}

void qcj_plan_paths(const qc_plan *plan, qcj_paths *out)
{
    const qcj_plan *data = plan->engine_data;
    const uint64_t *from = (const uint64_t *)data->paths;
    uint64_t *to = (uint64_t *)out;
    for (size_t i = 0; i < sizeof *out / sizeof *to; i++)
        to[i] = __atomic_load_n(&from[i], __ATOMIC_RELAXED);
}

/* A unit cut short by the stop flag returns QC_ESTOP: the caller drops it
 * (qc_plan_count_unit zeroes *out on any error). */
static int join_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    const qcj_plan *data = plan->engine_data;
    qcj_scratch *sc = qcj_pool_take(data->pool);
    int rc = sc ? qcj_count_unit_now(data, unit, sc, out) : QC_ENOMEM;
    qcj_plan_paths_give(data, sc);
    qcj_pool_give(data->pool, sc);
    return rc;
}


/* [independent recount] the AND loop at the portable level: none of the
 * byte tables' code, nor any level's vector code (qc_plan_recount_unit). */
static int join_recount_unit(const qc_plan *plan, size_t unit, qc_tally *out, const char **how)
{
    const qcj_plan *data = plan->engine_data;
    qcj_scratch *sc = qcj_pool_take(data->pool);
    int rc = sc ? qcj_count_unit_at(QC_ISA_PORTABLE, data, unit, sc, QCJ_JOIN_AND, out) : QC_ENOMEM;
    qcj_plan_paths_give(data, sc);
    qcj_pool_give(data->pool, sc);
    *how = "join AND loop, portable level";
    return rc;
}

static int join_describe_unit(const qc_plan *plan, size_t unit,
                              int (*each)(void *, const qc_unit_case *), void *ctx)
{
    return qcj_describe_unit(plan->engine_data, unit, each, ctx);
}

static const char *join_profile_name(const qc_plan *plan)
{
    return qcj_profile_name(((const qcj_plan *)plan->engine_data)->profile);
}

static double join_unit_cost(const qc_plan *plan, size_t unit)
{
    const qcj_plan *data = plan->engine_data;
    return unit_cost_of(data, qcj_unit_at(data, unit));
}

static void join_release(qc_plan *plan)
{
    if (plan->engine_data)
        plan_free(plan->engine_data);
}

int qcj_plan_create_with(qc_plan **out, int n, const qcj_settings *s)
{
    *out = NULL;
    if (n < QC_N_MIN || n > QC_N_MAX)
        return QC_EINVAL;
    qc_plan *plan = calloc(1, sizeof *plan);
    if (!plan)
        return QC_ENOMEM;
    *plan = (qc_plan){.n = n, .engine = QC_ENGINE_JOIN, .ops = &qcj_ops,
                      .profile = s->profile == n ? 0 : s->profile};
    int rc = join_build_with(plan, s);
    if (rc != QC_OK) {
        free(plan);
        return rc;
    }
    *out = plan;
    return QC_OK;
}

int qcj_count_with(int n, const qcj_settings *s, qc_u128 *total, qc_u128 *steps)
{
    qc_plan *plan;
    int rc = qcj_plan_create_with(&plan, n, s);
    if (rc != QC_OK)
        return rc;
    *total = 0;
    for (size_t u = 0; u < plan->unit_count && rc == QC_OK; u++) {
        qc_tally t;
        rc = join_count_unit(plan, u, &t);
        if (rc == QC_OK) {
            *total += t.solutions;
            if (steps)
                *steps += t.steps;
        }
    }
    join_release(plan);                 /* as qc_plan_free, without the registry */
    free(plan);
    return rc;
}

const qci_engine_ops qcj_ops = {
    .name = "join",
    .build = join_build,
    .count_unit = join_count_unit,
    .recount_unit = join_recount_unit,
    .unit_cost = join_unit_cost,
    .describe_unit = join_describe_unit,
    .profile_name = join_profile_name,
    .release = join_release,
};
