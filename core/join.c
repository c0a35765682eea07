/*
 * join.c — the meet-in-the-middle engine ("join"): counts solutions as
 * pairs (top half, bottom half) instead of walking every placement.
 *
 * See join.h for the split and the border signatures.  A work unit is a
 * pattern q: the columns the top half uses inside a block M of m central
 * columns (m grows with N, so units shrink as the board grows).  Counting
 * unit q:
 *   1. enumerate the top halves whose M-columns are q, and the bottom
 *      halves whose M-columns are M\q (join_half.c);
 *   2. bucket both by (column key, group key): the column key is the column
 *      set outside M, the group key the k "key" border diagonals, those
 *      most likely to be used by both halves (a counting sort, two passes);
 *   3. for each top column set S whose orbit this unit counts (weight > 0,
 *      join_symmetry.c), for each top group g and each bottom group that is
 *      a subset of ~g (no shared key diagonal: the sieve), count the pairs
 *      whose other border diagonals are disjoint too (join_pairs.c) — the
 *      bottom column key is the complement of the top's.
 * Units are independent, so threads never wait for each other; memory is
 * per unit (per thread) and nothing is shared but the read-only geometry.
 *
 * Every N >= 1 takes the same path; for N=1 the top half is empty (h=0).
 */
#include <stdlib.h>
#include <string.h>

#include "join.h"
#include "plan.h"

typedef struct join_data {
    qcj_geometry geo;
    uint32_t block;       /* M as a column mask                        */
    int flip;             /* even N: the top-bottom flip is a symmetry */
    size_t units;
    uint32_t *patterns;   /* unit i counts pattern patterns[i]         */
} join_data;

/* ---- geometry ------------------------------------------------------- */

/* Border diagonal slot s: s < n-1 is the anti-diagonal r+c = h+s, the rest
 * the diagonal r-c+n-1 = h+(s-(n-1)).  Cells of rows [r0,r1) on slot s. */
static int slot_cells(int n, int h, int s, int r0, int r1)
{
    int cells = 0;
    for (int r = r0; r < r1; r++) {
        int c = s < n - 1 ? h + s - r : r + n - 1 - (h + s - (n - 1));
        cells += c >= 0 && c < n;
    }
    return cells;
}

void qcj_geometry_init(qcj_geometry *g, int n, int unit_cols, int key_bits)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->h = n / 2;
    g->unit_lo = (n - unit_cols) / 2;
    g->unit_hi = g->unit_lo + unit_cols;
    const int slots = 2 * (n - 1);
    if (key_bits > slots)
        key_bits = slots;
    g->key_bits = key_bits;
    g->wide = slots - key_bits > 32;
    g->key_shift = g->wide ? 64 - key_bits : 32;

    /* Key slots: the k slots with the most (top cells) x (bottom cells),
     * the ones a random pair of halves most likely both use; ties go to
     * the lower slot.  The others take signature bits 0, 1, ... in order. */
    int pos[64], taken[64] = {0};
    for (int j = 0; j < key_bits; j++) {
        int best = -1, best_score = -1;
        for (int s = 0; s < slots; s++) {
            int score = slot_cells(n, g->h, s, 0, g->h) * slot_cells(n, g->h, s, g->h, n);
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

    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint64_t sig = 0;
            int a = r + c - g->h;              /* anti-diagonal slot  */
            int d = r - c + n - 1 - g->h;      /* diagonal slot - (n-1) */
            if (a >= 0 && a < n - 1)
                sig |= 1ull << pos[a];
            if (d >= 0 && d < n - 1)
                sig |= 1ull << pos[n - 1 + d];
            g->cell_sig[r][c] = sig;
        }
}

/* ---- the split ------------------------------------------------------ */

/* Unit block width m (same parity as N, so M is centred): 2^(N-m) column
 * keys per unit.  m = N-8 keeps a unit's halves to about (halves of the
 * board) / 2^(N-8), and gives N=16 some 70 units after symmetry. */
static int join_unit_cols(int n)
{
    int m = n - (getenv("QCJ_M") ? atoi(getenv("QCJ_M")) : 8);
    return m < n % 2 ? n % 2 : m;
}

/* Group key bits: 4 for the sieve, more where the ANDed rest would not fit
 * in 32 bits (N >= 18), at most 8. */
static int join_key_bits(int n)
{
    int k = getenv("QCJ_K") ? atoi(getenv("QCJ_K")) : 4;
    if (2 * (n - 1) - k > 32)
        k = 2 * (n - 1) - 32;
    return k > 8 ? 8 : k;
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

static int join_build(qc_plan *plan)
{
    const int n = plan->n;
    join_data *data = calloc(1, sizeof *data);
    if (!data)
        return QC_ENOMEM;
    qcj_geometry *g = &data->geo;
    qcj_geometry_init(g, n, join_unit_cols(n), join_key_bits(n));
    const int m = g->unit_hi - g->unit_lo;
    data->block = (uint32_t)(((1ull << m) - 1) << g->unit_lo);
    data->flip = n % 2 == 0;

    /* The canonical feasible patterns, biggest first (cost estimate: the
     * product of the top and bottom column sets per pattern), so that the
     * dynamic scheduler starts the long units early. */
    unit_order *order = malloc(sizeof *order << m);
    if (!order) {
        free(data);
        return QC_ENOMEM;
    }
    size_t count = 0;
    for (uint32_t bits = 0; bits < 1u << m; bits++) {
        uint32_t q = bits << g->unit_lo;
        int in_top = __builtin_popcount(q), in_bottom = m - in_top;
        int top_rest = g->h - in_top, bottom_rest = n - g->h - in_bottom;
        if (top_rest < 0 || bottom_rest < 0)
            continue;
        if (!qcj_pattern_canonical(q, data->block, n, data->flip))
            continue;
        order[count].cost = binomial(n - m, top_rest);
        order[count].cost *= order[count].cost;
        order[count].pattern = q;
        count++;
    }
    qsort(order, count, sizeof *order, by_cost_desc);
    data->patterns = malloc((count ? count : 1) * sizeof *data->patterns);
    if (!data->patterns) {
        free(order);
        free(data);
        return QC_ENOMEM;
    }
    uint64_t fp = qc_fingerprint_mix(0, QC_ENGINE_JOIN);
    fp = qc_fingerprint_mix(fp, (uint64_t)n);
    fp = qc_fingerprint_mix(fp, (uint64_t)g->h << 32 | (uint64_t)m << 16 | (uint64_t)g->key_bits);
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

/* ---- one unit ------------------------------------------------------- */

/* Counting sort of a half list into buckets (column key, group key):
 * offsets[b]..offsets[b+1] index the bucket's ANDed signature parts, kept
 * in low32 (narrow) or low64 (wide). */
typedef struct buckets {
    size_t *offsets;
    uint32_t *low32;
    uint64_t *low64;
} buckets;

static int bucket_halves(const qcj_geometry *g, const qcj_halves *l, size_t nbuckets, buckets *b)
{
    const uint64_t kmask = (1ull << g->key_bits) - 1;
    const uint64_t keep = ~(kmask << g->key_shift);
    b->offsets = calloc(nbuckets + 1, sizeof *b->offsets);
    b->low32 = NULL;
    b->low64 = NULL;
    if (g->wide)
        b->low64 = malloc((l->len ? l->len : 1) * sizeof *b->low64);
    else
        b->low32 = malloc((l->len ? l->len : 1) * sizeof *b->low32);
    if (!b->offsets || (!b->low32 && !b->low64))
        return -1;
    for (size_t i = 0; i < l->len; i++) {
        size_t id = (size_t)l->colkey[i] << g->key_bits | ((l->sig[i] >> g->key_shift) & kmask);
        b->offsets[id + 1]++;
    }
    for (size_t i = 0; i < nbuckets; i++)
        b->offsets[i + 1] += b->offsets[i];
    size_t *fill = malloc((nbuckets ? nbuckets : 1) * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, b->offsets, nbuckets * sizeof *fill);
    for (size_t i = 0; i < l->len; i++) {
        size_t id = (size_t)l->colkey[i] << g->key_bits | ((l->sig[i] >> g->key_shift) & kmask);
        size_t at = fill[id]++;
        if (g->wide)
            b->low64[at] = l->sig[i] & keep;
        else
            b->low32[at] = (uint32_t)l->sig[i];
    }
    free(fill);
    return 0;
}

static void buckets_free(buckets *b)
{
    free(b->offsets);
    free(b->low32);
    free(b->low64);
}

static void join_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    const join_data *data = plan->engine_data;
    const qcj_geometry *g = &data->geo;
    const int n = g->n, m = g->unit_hi - g->unit_lo;
    const uint32_t q = data->patterns[unit];
    uint64_t placed = 0, tested = 0;

    qcj_halves tops = {0}, bottoms = {0};
    qcj_halves_enumerate(g, 0, g->h, q, &tops, &placed);
    qcj_halves_enumerate(g, g->h, n, data->block & ~q, &bottoms, &placed);

    const int k = g->key_bits;
    const uint32_t kmask = (1u << k) - 1u;
    const uint32_t ckmask = (uint32_t)((1ull << (n - m)) - 1);
    const size_t nbuckets = (size_t)1 << (n - m + k);
    buckets tb, bb;
    int ok = !tops.failed && !bottoms.failed;
    ok = bucket_halves(g, &tops, nbuckets, &tb) == 0 && ok;
    ok = bucket_halves(g, &bottoms, nbuckets, &bb) == 0 && ok;
    qcj_halves_free(&tops);
    qcj_halves_free(&bottoms);
    if (!ok) {
        /* out of memory in a pure call: no way to report it but abort,
         * since a wrong total must never come out */
        abort();
    }

    qc_u128 total = 0;
    for (uint32_t tk = 0; tk <= ckmask; tk++) {
        const size_t *toff = tb.offsets + ((size_t)tk << k);
        if (toff[0] == toff[kmask + 1])
            continue;                      /* no top half uses this set */
        const uint32_t bk = ~tk & ckmask;  /* the complementary columns */
        const size_t *boff = bb.offsets + ((size_t)bk << k);
        if (boff[0] == boff[kmask + 1])
            continue;
        const uint32_t s = q | qcj_colkey_expand(g, tk);
        const int weight = qcj_set_weight(s, q, data->block, n, data->flip);
        if (weight == 0)
            continue;
        uint64_t pairs = 0;
        for (uint32_t tg = 0; tg <= kmask; tg++) {
            const size_t t0 = toff[tg], nt = toff[tg + 1] - t0;
            if (nt == 0)
                continue;
            /* the sieve: bottom groups sharing no key diagonal with tg */
            const uint32_t avail = ~tg & kmask;
            for (uint32_t bg = avail;; bg = (bg - 1) & avail) {
                const size_t b0 = boff[bg], nb = boff[bg + 1] - b0;
                if (nb) {
                    tested += (uint64_t)nt * nb;
                    pairs += g->wide
                        ? qcj_count_disjoint64(tb.low64 + t0, nt, bb.low64 + b0, nb)
                        : qcj_count_disjoint32(tb.low32 + t0, nt, bb.low32 + b0, nb);
                }
                if (bg == 0)
                    break;
            }
        }
        total += (qc_u128)pairs * (unsigned)weight;
    }
    buckets_free(&tb);
    buckets_free(&bb);
    out->solutions = total;
    /* work done: queens placed in the halves plus pairs of halves tested */
    out->placements = placed + tested;
}

static void join_release(qc_plan *plan)
{
    join_data *data = plan->engine_data;
    if (data) {
        free(data->patterns);
        free(data);
    }
}

const qc_engine_ops qc_join_ops = {
    .name = "join",
    .build = join_build,
    .count_unit = join_count_unit,
    .release = join_release,
};
