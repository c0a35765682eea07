/*
 * join.c — the meet-in-the-middle engine ("join"): counts solutions as
 * pairs (top half, bottom half) instead of walking every placement.
 *
 * See join.h for the split and the border signatures.  A work unit is a
 * pattern q: the columns the top half uses inside a block M of m central
 * columns (m grows with N, so units shrink as the board grows).  Counting
 * unit q:
 *   1. list the placements of the bands the halves are made of: top bands
 *      on the columns outside M and q's, bottom bands outside M and M\q
 *      (join_half.c, qcj_side_build);
 *   2. for each top column set S whose orbit this unit counts (weight > 0,
 *      join_symmetry.c): build the tops on S and the bottoms on ~S from the
 *      bands (qcj_halves_of) and sort each by group key, the k "key" border
 *      diagonals most likely used by both halves (a small counting sort);
 *   3. for each top group g and each bottom group that is a subset of ~g
 *      (no shared key diagonal: the sieve), count the pairs whose other
 *      border diagonals are disjoint too (join_pairs.c).
 * Only one column set's halves are in memory at a time, so a unit's memory
 * is its band lists (a few MiB) whatever N.
 * Odd N: both halves have h rows and the middle row h is left over.  Steps
 * 2-3 run over (S, middle column c): the tops of S that spare the middle
 * queen against the bottoms of ~S\{c} that spare it ([middle spared]).
 * Units are independent, so threads never wait for each other; memory is
 * per unit (per thread: join_scratch.c) and nothing else is shared but the
 * read-only geometry and rank tables.  Work reported (qc_tally.placements):
 * queens placed in the bands, pairs of band placements tested, and pairs of
 * halves tested by the hot loop.  A unit reads the thread's stop flag
 * (kernel.h) once per column set.
 *
 * Every N >= 1 takes the same path, no special cases: N=1 has an empty top
 * half (h=0) and one unit; N=2, 3 find no pairs.
 */
#include <stdlib.h>
#include <string.h>

#include "join.h"
#include "kernel/kernel.h"
#include "plan.h"

typedef struct join_data {
    qcj_geometry geo;
    qcj_rank rank;        /* colex rank tables for the band lists      */
    qcj_splits splits[2]; /* a half's columns between its bands: top, bottom */
    uint32_t block;       /* M as a column mask                        */
    int flip;             /* even N: the top-bottom flip is a symmetry */
    size_t units;
    uint32_t *patterns;   /* unit i counts pattern patterns[i]         */
    qcj_pool pool;        /* working memory reused by the units        */
} join_data;

/* ---- geometry ------------------------------------------------------- */

/* Border diagonal slot s (W per direction): s < W is the anti-diagonal
 * r+c = h+s, the rest the diagonal r-c+n-1 = h+(s-W).  The number of
 * cells of rows [r0,r1) on slot s. */
static int slot_cells(const qcj_geometry *g, int slots, int s, int r0, int r1)
{
    const int n = g->n, w = slots / 2;
    int cells = 0;
    for (int r = r0; r < r1; r++) {
        int c = s < w ? g->h + s - r : r + n - 1 - (g->h + s - w);
        cells += c >= 0 && c < n;
    }
    return cells;
}

void qcj_geometry_init(qcj_geometry *g, int n, int unit_cols, int key_bits, int force_wide)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->h = n / 2;
    g->b0 = n - g->h;
    g->unit_lo = (n - unit_cols) / 2;
    g->unit_hi = g->unit_lo + unit_cols;
    const int w = n - 1 + n % 2;               /* border diagonals per direction */
    const int slots = w > 0 ? 2 * w : 0;
    if (key_bits > slots)
        key_bits = slots;
    g->key_bits = key_bits;
    g->wide = force_wide || slots - key_bits > 32;
    g->key_shift = g->wide ? (key_bits ? 64 - key_bits : 63) : 32;   /* k=0: shift < 64 */

    /* Key slots: the k slots with the most (top cells) x (bottom cells),
     * the ones a random pair of halves most likely both use; ties go to
     * the lower slot.  The others take signature bits 0, 1, ... in order. */
    int pos[64], taken[64] = {0};
    for (int j = 0; j < key_bits; j++) {
        int best = -1, best_score = -1;
        for (int s = 0; s < slots; s++) {
            int score = slot_cells(g, slots, s, 0, g->h) * slot_cells(g, slots, s, g->b0, n);
            if (!taken[s] && score > best_score) {
                best = s;
                best_score = score;
            }
        }
        taken[best] = 1;
        pos[best] = g->key_shift + j;
    }
    for (int s = 0, next = 0; s < slots; s++)
        if (!taken[s])
            pos[s] = next++;

    /* The bands of each half (join.h): the outer band has h/2 rows. */
    g->band_rows = g->h / 2;
    g->split[0] = g->band_rows;
    g->split[1] = g->b0 + g->h - g->band_rows;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            const int rs = r < g->h ? g->split[0] : g->split[1];
            const int v = r + c - rs, d = r - c + n - 1 - rs;
            uint64_t inner = 0;
            if (r < g->h || r >= g->b0) {           /* not odd N's middle row */
                if (v >= 0 && v <= n - 2)
                    inner |= 1ull << v;
                if (d >= 0 && d <= n - 2)
                    inner |= 1ull << (n - 1 + d);
            }
            g->inner_sig[r][c] = inner;
        }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint64_t sig = 0;
            int a = r + c - g->h;               /* anti-diagonal slot       */
            int d = r - c + n - 1 - g->h;       /* diagonal slot, less w    */
            if (a >= 0 && a < w)
                sig |= 1ull << pos[a];
            if (d >= 0 && d < w)
                sig |= 1ull << pos[w + d];
            g->cell_sig[r][c] = sig;
        }
}

/* ---- the split ------------------------------------------------------ */

/* Unit block width m (same parity as N, so M is centred).  A unit keeps
 * only its band lists, on the t = N-m+|q| columns its sides may use, and
 * one column set's halves at a time; so m bounds a unit's memory (the
 * larger m, the fewer columns each band may use) and sets how many units
 * there are to spread over threads and ranks.  m = N-10 up to N=18, then
 * N-8 (N=19: 782 units, N=20: 1049, N=24: 16159).  Measured peaks (one
 * thread, whole process, its first and largest units): N=16 9 MiB, N=18
 * 23 MiB, N=20 16 MiB, N=22 62 MiB, N=23 77 MiB, N=24 150 MiB, N=26 about
 * 930 MiB.  At most 20 (the plan lists the 2^m patterns once). */
static int join_unit_cols(int n)
{
    int m = n <= 18 ? n - 10 : n - 8;
    if (m > 20)
        m = 20 - n % 2;                 /* keeps the parity of N */
    return m < n % 2 ? n % 2 : m;
}

/* Group key bits k: the more, the fewer pairs the hot loop tests (each key
 * diagonal drops about a quarter of them), but the smaller the groups and
 * the more of each vector is a ragged tail (and on odd N the tops are
 * filtered and the bottoms grouped once per middle column).  Measured best
 * (one thread, a sample of the units from N=19 on): 4 up to N=17, 7 at
 * N=18, 6 at N=19, 9-10 at N=20, 10 at N=21, 12 at N=22: N-10 for even N
 * from 20; never fewer than leave the ANDed rest 32 bits wide (odd N >= 21
 * needs 2N-32), and at most 16. */
static int join_key_bits(int n)
{
    int slots = n % 2 ? 2 * n : 2 * (n - 1);
    int k = n <= 17 ? 4 : n == 18 ? 7 : n == 19 ? 6 : n % 2 == 0 ? n - 10 : 10;
    if (slots - k > 32)
        k = slots - 32;
    return k > 16 ? 16 : k;
}

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
static double unit_cost(const join_data *data, uint32_t q)
{
    const qcj_geometry *g = &data->geo;
    const int n = g->n, m = g->unit_hi - g->unit_lo, h = g->h;
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

/* Fills the plan's units for split parameters (unit columns, key bits,
 * 64-bit lanes even where 32 would do). */
static int join_build_with(qc_plan *plan, int unit_cols, int key_bits, int force_wide)
{
    const int n = plan->n;
    join_data *data = calloc(1, sizeof *data);
    if (!data)
        return QC_ENOMEM;
    qcj_geometry *g = &data->geo;
    qcj_geometry_init(g, n, unit_cols, key_bits, force_wide);
    const int m = g->unit_hi - g->unit_lo;
    data->block = (uint32_t)(((1ull << m) - 1) << g->unit_lo);
    data->flip = n % 2 == 0;
    qcj_rank_init(&data->rank);
    if (qcj_splits_init(&data->splits[0], g->h, g->band_rows) != 0
        || qcj_splits_init(&data->splits[1], g->h, g->h - g->band_rows) != 0) {
        qcj_splits_free(&data->splits[0]);
        free(data);
        return QC_ENOMEM;
    }

    /* The units that can hold a counted set, biggest first, so that the
     * dynamic scheduler starts the long units early. */
    unit_order *order = malloc(sizeof *order << m);
    if (!order) {
        qcj_splits_free(&data->splits[0]);
        qcj_splits_free(&data->splits[1]);
        free(data);
        return QC_ENOMEM;
    }
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
        qcj_splits_free(&data->splits[0]);
        qcj_splits_free(&data->splits[1]);
        free(data);
        return QC_ENOMEM;
    }
    uint64_t fp = qc_fingerprint_mix(0, QC_ENGINE_JOIN);
    fp = qc_fingerprint_mix(fp, (uint64_t)n);
    fp = qc_fingerprint_mix(fp, (uint64_t)g->wide << 48 | (uint64_t)g->h << 32 | (uint64_t)m << 16
                                | (uint64_t)g->key_bits);
    for (size_t i = 0; i < count; i++) {
        data->patterns[i] = order[i].pattern;
        fp = qc_fingerprint_mix(fp, order[i].pattern);
    }
    free(order);
    data->units = count;
    plan->unit_count = count;
    plan->fingerprint = fp;
    plan->engine_data = data;
    return QC_OK;
}

static int join_build(qc_plan *plan)
{
    return join_build_with(plan, join_unit_cols(plan->n), join_key_bits(plan->n), 0);
}

/* ---- one unit ------------------------------------------------------- */

/* The halves of one column set sorted into groups by their k key
 * diagonals: off[g]..off[g+1] index group g's ANDed signature parts (low32
 * when narrow, low64 when wide). */
typedef struct groups {
    uint32_t *off;
    uint32_t *low32;
    uint64_t *low64;
} groups;

/* Counting sort of the len signatures in raw by group key into gr, using
 * the side's vectors.  Returns 0, or -1 when out of memory. */
static int group_halves(const qcj_geometry *g, const uint64_t *raw, size_t len, qcj_vec *offv,
                        qcj_vec *lowv, groups *gr)
{
    const int k = g->key_bits;
    const size_t count = (size_t)1 << k;
    const uint64_t kmask = count - 1;
    gr->off = qcj_vec_reserve(offv, (count + 1) * sizeof *gr->off);
    void *low = qcj_vec_reserve(lowv, (len ? len : 1) * sizeof(uint64_t));
    if (!gr->off || !low || len >= UINT32_MAX)
        return -1;
    gr->low32 = g->wide ? NULL : low;
    gr->low64 = g->wide ? low : NULL;
    uint32_t *off = gr->off;
    memset(off, 0, (count + 1) * sizeof *off);
    for (size_t i = 0; i < len; i++)
        off[((raw[i] >> g->key_shift) & kmask) + 1]++;
    for (size_t i = 1; i < count; i++)
        off[i + 1] += off[i];
    /* place: off[key] (key's start) is its fill pointer */
    if (g->wide) {
        const uint64_t keep = ~(kmask << g->key_shift);
        for (size_t i = 0; i < len; i++)
            gr->low64[off[((raw[i] >> g->key_shift) & kmask)]++] = raw[i] & keep;
    } else {
        for (size_t i = 0; i < len; i++)
            gr->low32[off[((raw[i] >> g->key_shift) & kmask)]++] = (uint32_t)raw[i];
    }
    /* each fill pointer ended at its group's end, the next one's start */
    for (size_t i = count; i > 0; i--)
        off[i] = off[i - 1];
    off[0] = 0;
    return 0;
}

/* Pairs (top, bottom) of one column set (pair) with no shared diagonal:
 * the sieve over key groups and the hot loop (join_pairs.c). */
static uint64_t join_groups(const qcj_geometry *g, const groups *top, const groups *bottom,
                            uint32_t extra, uint64_t *tested)
{
    return g->wide ? qcj_join_groups64(top->off, top->low64, bottom->off, bottom->low64,
                                       g->key_bits, extra, tested)
                   : qcj_join_groups32(top->off, top->low32, bottom->off, bottom->low32,
                                       g->key_bits, extra, tested);
}

/* Odd N, [middle spared]: copies the tops that spare the middle queen's
 * diagonals (signature mid) into dst; the bottoms are built sparing them
 * too (qcj_halves_of's avoid), so the hot loop need not test the middle
 * queen at all.  A top group sharing a key diagonal with it is dropped
 * whole. */
static void spare_middle(const qcj_geometry *g, const groups *src, uint64_t mid, groups *dst)
{
    const uint32_t count = 1u << g->key_bits;
    const uint32_t mid_key = (uint32_t)(mid >> g->key_shift) & (count - 1);
    const uint64_t mid_low = mid & ~((uint64_t)(count - 1) << g->key_shift);
    const uint32_t mid32 = (uint32_t)mid_low;
    uint32_t at = 0;
    for (uint32_t grp = 0; grp < count; grp++) {
        dst->off[grp] = at;
        if (grp & mid_key)
            continue;
        if (g->wide) {
            for (size_t i = src->off[grp]; i < src->off[grp + 1]; i++) {
                uint64_t t = src->low64[i];
                dst->low64[at] = t;
                at += (t & mid_low) == 0;      /* kept unless it attacks */
            }
        } else {
            for (size_t i = src->off[grp]; i < src->off[grp + 1]; i++) {
                uint32_t t = src->low32[i];
                dst->low32[at] = t;
                at += (t & mid32) == 0;
            }
        }
    }
    dst->off[count] = at;
}

/* Counts unit `unit` into *out; returns QC_OK, QC_ENOMEM (*out untouched),
 * or QC_ESTOP when the thread's stop flag cut it short. */
static int count_unit(const join_data *data, size_t unit, qcj_scratch *sc, qc_tally *out)
{
    const qcj_geometry *g = &data->geo;
    const qcj_rank *rk = &data->rank;
    const int n = g->n, m = g->unit_hi - g->unit_lo;
    const int odd = n & 1;
    const uint32_t q = data->patterns[unit];
    const uint32_t rest = data->block & ~q;
    const int *stop = qck_stop_flag;
    uint64_t placed = 0, tested = 0;

    qcj_side *top = &sc->side[0], *bottom = &sc->side[1];
    int built = qcj_side_build(g, rk, 0, q, top, sc->band_tmp, stop, &placed);
    if (built == 0)
        built = qcj_side_build(g, rk, 1, rest, bottom, sc->band_tmp, stop, &placed);
    if (built != 0)
        return built == -2 ? QC_ESTOP : QC_ENOMEM;

    const uint32_t ckmask = (uint32_t)((1ull << (n - m)) - 1);
    const int top_free = g->h - __builtin_popcount(q);   /* top columns outside M */
    const uint32_t q_sq = (uint32_t)((1ull << __builtin_popcount(q)) - 1) << (n - m);
    const uint32_t rest_sq = (uint32_t)((1ull << __builtin_popcount(rest)) - 1) << (n - m);
    const uint32_t full = n >= 32 ? 0xffffffffu : (1u << n) - 1u;
    groups tg, bg, sg = {0};
    qc_u128 total = 0;
    if (top_free < 0 || top_free > n - m)
        goto done;
    for (uint32_t tk = 0; tk <= ckmask; tk++) {
        if (__builtin_popcount(tk) != top_free)
            continue;
        if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
            return QC_ESTOP;                /* [stop check] once per set */
        const uint32_t s = q | qcj_colkey_expand(g, tk);
        if (!odd) {
            const int weight = qcj_set_weight(s, q, data->block, n, data->flip);
            if (weight == 0)
                continue;
            size_t nt = qcj_halves_of(rk, &data->splits[0], top, tk | q_sq, 0, &sc->raw[0], &tested);
            if (nt == 0)
                continue;
            size_t nb = qcj_halves_of(rk, &data->splits[1], bottom, (~tk & ckmask) | rest_sq,
                                      0, &sc->raw[1], &tested);
            if (nt == SIZE_MAX || nb == SIZE_MAX)
                return QC_ENOMEM;
            if (nb == 0)
                continue;
            if (group_halves(g, sc->raw[0].p, nt, &sc->off[0], &sc->low[0], &tg) != 0
                || group_halves(g, sc->raw[1].p, nb, &sc->off[1], &sc->low[1], &bg) != 0)
                return QC_ENOMEM;
            total += (qc_u128)join_groups(g, &tg, &bg, 0, &tested) * (unsigned)weight;
            continue;
        }
        /* odd N: each free column c for the middle queen */
        size_t nt = 0;
        int tops_made = 0;
        for (uint32_t free = full & ~s; free; free &= free - 1) {
            const int c = __builtin_ctz(free);
            const int weight = qcj_triple_weight(s, c, data->block, n);
            if (weight == 0)
                continue;
            if (!tops_made) {               /* the tops of s, once */
                tops_made = 1;
                nt = qcj_halves_of(rk, &data->splits[0], top, tk | q_sq, 0, &sc->raw[0], &tested);
                if (nt == SIZE_MAX)
                    return QC_ENOMEM;
                if (nt == 0)
                    break;
                if (group_halves(g, sc->raw[0].p, nt, &sc->off[0], &sc->low[0], &tg) != 0)
                    return QC_ENOMEM;
                sg.off = qcj_vec_reserve(&sc->spared_off, (((size_t)1 << g->key_bits) + 1) * sizeof *sg.off);
                void *f = qcj_vec_reserve(&sc->spared, nt * sizeof(uint64_t));
                if (!sg.off || !f)
                    return QC_ENOMEM;
                sg.low32 = g->wide ? NULL : f;
                sg.low64 = g->wide ? f : NULL;
            }
            const uint32_t bset = full & ~s & ~(1u << c);
            const uint64_t mid = g->cell_sig[g->h][c];
            size_t nb = qcj_halves_of(rk, &data->splits[1], bottom, qcj_squeeze(g, rest, bset),
                                      mid, &sc->raw[1], &tested);
            if (nb == SIZE_MAX)
                return QC_ENOMEM;
            if (nb == 0)
                continue;
            spare_middle(g, &tg, mid, &sg);
            if (sg.off[(size_t)1 << g->key_bits] == 0)
                continue;
            if (group_halves(g, sc->raw[1].p, nb, &sc->off[1], &sc->low[1], &bg) != 0)
                return QC_ENOMEM;
            const uint32_t mid_key = (uint32_t)(mid >> g->key_shift) & ((1u << g->key_bits) - 1u);
            total += (qc_u128)join_groups(g, &sg, &bg, mid_key, &tested) * (unsigned)weight;
        }
    }
done:
    out->solutions = total;
    /* work done: queens placed in the bands, pairs of band placements
     * tested, and pairs of halves tested */
    out->placements = placed + tested;
    return QC_OK;
}

static int join_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    const join_data *data = plan->engine_data;
    qcj_scratch *sc = qcj_pool_take((qcj_pool *)&data->pool);
    int rc = sc ? count_unit(data, unit, sc, out) : QC_ENOMEM;
    qcj_pool_give((qcj_pool *)&data->pool, sc);
    /* a unit cut short by a stop counted part of its sets: the caller,
     * who raised the flag, drops it (qcount.h) */
    return rc == QC_ESTOP ? QC_OK : rc;
}

static void join_release(qc_plan *plan)
{
    join_data *data = plan->engine_data;
    if (data) {
        qcj_pool_clear(&data->pool);
        qcj_splits_free(&data->splits[0]);
        qcj_splits_free(&data->splits[1]);
        free(data->patterns);
        free(data);
    }
}

int qcj_count_with(int n, int unit_cols, int key_bits, int force_wide, qc_u128 *total)
{
    qc_plan plan = {.n = n, .engine = QC_ENGINE_JOIN, .ops = &qc_join_ops};
    int rc = join_build_with(&plan, unit_cols, key_bits, force_wide);
    if (rc != QC_OK)
        return rc;
    *total = 0;
    for (size_t u = 0; u < plan.unit_count; u++) {
        qc_tally t;
        if (join_count_unit(&plan, u, &t) != QC_OK) {
            join_release(&plan);
            return QC_ENOMEM;
        }
        *total += t.solutions;
    }
    join_release(&plan);
    return QC_OK;
}

const qc_engine_ops qc_join_ops = {
    .name = "join",
    .build = join_build,
    .count_unit = join_count_unit,
    .release = join_release,
};
