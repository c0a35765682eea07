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
 * Odd N: both halves have h rows and the middle row h is left over.  The
 * bottoms of unit q are those whose M-columns are M\q or M\q less one
 * column (the middle queen's), only patterns >= q (the others are flip
 * images).  Step 3 runs over (S, middle column c): the tops of S that
 * spare the middle queen, with its signature ORed in ([middle folded into
 * the top]), against the bottoms of ~S\{c}.
 * Units are independent, so threads never wait for each other; memory is
 * per unit (per thread: join_scratch.c) and nothing else is shared but the
 * read-only geometry.  Work reported (qc_tally.placements): queens placed
 * in the halves plus pairs of halves tested by the hot loop.
 *
 * Every N >= 1 takes the same path, no special cases: N=1 has an empty top
 * half (h=0) and one unit; N=2, 3 find no pairs.
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

/* Unit block width m (same parity as N, so M is centred).  A unit holds
 * about (half placements of the board) / 2^m halves, so m sets the memory
 * of a unit; but the larger m, the more often the upper rows of a half are
 * walked again (once per unit whose pattern they fit).  Measured peaks
 * (one thread, whole process): N=16 m=6 18 MiB, N=17 m=7 76 MiB, N=18 m=8
 * 80 MiB; each step of N multiplies a unit by about 2.1 and each step of m
 * divides it by 2.  m = N-10 up to N=18, then N-8 keeps a unit below about
 * 100 MiB from N=19 on (N=20: m=12, 1000 units).  At most 20 (the plan
 * lists the 2^m patterns once). */
static int join_unit_cols(int n)
{
    int m = n <= 18 ? n - 10 : n - 8;
    if (m > 20)
        m = 20 - n % 2;                 /* keeps the parity of N */
    return m < n % 2 ? n % 2 : m;
}

/* Group key bits k: the more, the fewer pairs the hot loop tests (each key
 * diagonal drops about a quarter of them), but the smaller the groups and
 * the more of each vector is a ragged tail (and on odd N each group is
 * filtered once per middle column).  Measured best: 4 up to N=17 (about
 * 1200 halves per column set at N=16), 7 at N=18, 6 at N=19, 8 beyond;
 * and never fewer than leave the ANDed rest 32 bits wide. */
static int join_key_bits(int n)
{
    int slots = n % 2 ? 2 * n : 2 * (n - 1);
    int k = n <= 17 ? 4 : n == 18 ? 7 : n == 19 ? 6 : 8;
    if (slots - k > 32)
        k = slots - 32;
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

    /* The units that can hold a counted set, biggest first, so that the
     * dynamic scheduler starts the long units early. */
    unit_order *order = malloc(sizeof *order << m);
    if (!order) {
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

/* A half list sorted into buckets: offsets[b]..offsets[b+1] index bucket
 * b's ANDed signature parts (low32 when narrow, low64 when wide).  A
 * bucket is (column bucket, group key).
 * The arrays live in the unit's scratch buffers. */
typedef struct buckets {
    uint32_t *offsets;    /* 32 bits: a unit holds < 2^32 halves (checked) */
    uint32_t *low32;
    uint64_t *low64;
} buckets;

/* The column bucket of a half: its column key outside M, and for odd-N
 * bottoms which column of `rest` (M less the top's pattern) it leaves to
 * the middle queen: 0 for none, else 1 + its offset in M. */
static size_t column_bucket(const qcj_geometry *g, uint32_t colkey, int odd_bottom, uint32_t rest)
{
    const int free_cols = g->n - (g->unit_hi - g->unit_lo);
    size_t low = colkey & (uint32_t)((1ull << free_cols) - 1);
    if (!odd_bottom)
        return low;
    uint32_t missing = (rest >> g->unit_lo) & ~(colkey >> free_cols);
    size_t x = missing ? (size_t)__builtin_ctz(missing) + 1 : 0;
    return x << free_cols | low;
}

/* Counting sort of l into nbuckets buckets; side 0 = tops, 1 = bottoms
 * (which scratch buffers).  Returns 0, or -1 when out of memory. */
static int bucket_halves(const qcj_geometry *g, const qcj_halves *l, size_t nbuckets,
                         int odd_bottom, uint32_t rest, qcj_scratch *sc, int side, buckets *b)
{
    const int k = g->key_bits;
    const uint64_t kmask = (1ull << k) - 1;
    const uint64_t keep = ~(kmask << g->key_shift);
    const size_t len = l->len;
    qcj_buffer *buf = sc->buffer;
    memset(b, 0, sizeof *b);
    b->offsets = qcj_buffer_get(&buf[side ? QCJ_BUF_BOTTOM_OFFSETS : QCJ_BUF_TOP_OFFSETS],
                                (nbuckets + 1) * sizeof *b->offsets);
    if (g->wide)
        b->low64 = qcj_buffer_get(&buf[side ? QCJ_BUF_BOTTOM_LOW : QCJ_BUF_TOP_LOW], len * sizeof *b->low64);
    else
        b->low32 = qcj_buffer_get(&buf[side ? QCJ_BUF_BOTTOM_LOW : QCJ_BUF_TOP_LOW], len * sizeof *b->low32);
    uint32_t *fill = qcj_buffer_get(&buf[QCJ_BUF_FILL], nbuckets * sizeof *fill);
    uint32_t *ids = qcj_buffer_get(&buf[QCJ_BUF_IDS], len * sizeof *ids);
    if (!b->offsets || (!b->low32 && !b->low64) || !fill || !ids || len >= UINT32_MAX)
        return -1;
    memset(b->offsets, 0, (nbuckets + 1) * sizeof *b->offsets);
    for (size_t i = 0; i < len; i++) {
        size_t id = column_bucket(g, l->colkey[i], odd_bottom, rest) << k
                  | ((l->sig[i] >> g->key_shift) & kmask);
        ids[i] = (uint32_t)id;
        b->offsets[id + 1]++;
    }
    for (size_t i = 0; i < nbuckets; i++)
        b->offsets[i + 1] += b->offsets[i];
    memcpy(fill, b->offsets, nbuckets * sizeof *fill);
    for (size_t i = 0; i < len; i++) {
        uint32_t at = fill[ids[i]]++;
        if (g->wide)
            b->low64[at] = l->sig[i] & keep;
        else
            b->low32[at] = (uint32_t)l->sig[i];
    }
    return 0;
}

/* Pairs (top group tg, bottom group bg) with no shared key diagonal: bg a
 * subset of ~(tg | extra) (the sieve; extra: the middle queen's key bits);
 * pairs counted by the hot loop.  toff/boff are the 2^k+1 group offsets
 * of one column bucket on each side. */
static uint64_t join_groups(const qcj_geometry *g, const uint32_t *toff, const uint32_t *boff,
                            uint32_t extra, const uint32_t *t32, const uint64_t *t64,
                            const uint32_t *b32, const uint64_t *b64, uint64_t *tested)
{
    const uint32_t kmask = (1u << g->key_bits) - 1u;
    uint64_t pairs = 0;
    for (uint32_t tg = 0; tg <= kmask; tg++) {
        const size_t t0 = toff[tg], nt = toff[tg + 1] - t0;
        if (nt == 0)
            continue;
        const uint32_t avail = ~(tg | extra) & kmask;
        for (uint32_t bg = avail;; bg = (bg - 1) & avail) {
            const size_t b0 = boff[bg], nb = boff[bg + 1] - b0;
            if (nb) {
                *tested += (uint64_t)nt * nb;
                pairs += g->wide ? qcj_count_disjoint64(t64 + t0, nt, b64 + b0, nb)
                                 : qcj_count_disjoint32(t32 + t0, nt, b32 + b0, nb);
            }
            if (bg == 0)
                break;
        }
    }
    return pairs;
}

/* Odd N, [middle folded into the top]: copies the tops of one column
 * bucket that spare the middle queen's diagonals (signature mid) into dst,
 * each ORed with mid, so that the hot loop's AND with a bottom also checks
 * the bottom against the middle queen.  A top group sharing a key diagonal
 * with the middle queen is dropped whole; doff gets the group offsets. */
static void fold_middle(const qcj_geometry *g, const uint32_t *off, const buckets *src,
                        uint64_t mid, uint32_t *d32, uint64_t *d64, uint32_t *doff)
{
    const uint32_t groups = 1u << g->key_bits;
    const uint32_t mid_key = (uint32_t)(mid >> g->key_shift) & (groups - 1);
    const uint64_t mid_low = mid & ~((uint64_t)(groups - 1) << g->key_shift);
    const uint32_t mid32 = (uint32_t)mid_low;
    uint32_t at = 0;
    for (uint32_t grp = 0; grp < groups; grp++) {
        doff[grp] = at;
        if (grp & mid_key)
            continue;
        if (g->wide) {
            for (size_t i = off[grp]; i < off[grp + 1]; i++) {
                uint64_t t = src->low64[i];
                d64[at] = t | mid_low;
                at += (t & mid_low) == 0;      /* kept unless it attacks */
            }
        } else {
            for (size_t i = off[grp]; i < off[grp + 1]; i++) {
                uint32_t t = src->low32[i];
                d32[at] = t | mid32;
                at += (t & mid32) == 0;
            }
        }
    }
    doff[groups] = at;
}

static int join_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    const join_data *data = plan->engine_data;
    const qcj_geometry *g = &data->geo;
    const int n = g->n, m = g->unit_hi - g->unit_lo, k = g->key_bits;
    const int odd = n & 1;
    const uint32_t q = data->patterns[unit];
    const uint32_t rest = data->block & ~q;
    uint64_t placed = 0, tested = 0;

    qcj_scratch *sc = qcj_pool_take((qcj_pool *)&data->pool);
    if (!sc)
        return QC_ENOMEM;
    qcj_halves *tops = &sc->tops, *bottoms = &sc->bottoms;
    qcj_halves_enumerate(g, 0, g->h, q, 0, 0, tops, &placed);
    qcj_halves_enumerate(g, g->b0, n, rest, odd, odd ? q : 0, bottoms, &placed);

    const uint32_t ckmask = (uint32_t)((1ull << (n - m)) - 1);
    const size_t groups = (size_t)1 << k;
    const size_t tbuckets = (size_t)1 << (n - m + k);
    const size_t bbuckets = odd ? (size_t)(m + 1) << (n - m + k) : tbuckets;
    buckets tb, bb;
    int ok = !tops->failed && !bottoms->failed;
    ok = ok && bucket_halves(g, tops, tbuckets, 0, rest, sc, 0, &tb) == 0;
    ok = ok && bucket_halves(g, bottoms, bbuckets, odd, rest, sc, 1, &bb) == 0;
    uint32_t *ft32 = NULL;
    uint64_t *ft64 = NULL;
    uint32_t *ftoff = NULL;
    if (ok && odd) {
        /* scratch for one column bucket's tops with the middle folded in */
        size_t max_top = 0;
        for (size_t i = 0; i < tbuckets; i += groups)
            if (tb.offsets[i + groups] - tb.offsets[i] > max_top)
                max_top = tb.offsets[i + groups] - tb.offsets[i];
        size_t w = g->wide ? sizeof(uint64_t) : sizeof(uint32_t);
        void *a = qcj_buffer_get(&sc->buffer[QCJ_BUF_FILTER_TOP], max_top * w);
        if (g->wide)
            ft64 = a;
        else
            ft32 = a;
        ftoff = qcj_buffer_get(&sc->buffer[QCJ_BUF_FILTER_TOP_OFF], (groups + 1) * sizeof *ftoff);
        ok = a && ftoff;
    }
    if (!ok) {
        /* out of memory: the unit fails and counts nothing */
        qcj_pool_give((qcj_pool *)&data->pool, sc);
        return QC_ENOMEM;
    }

    const uint32_t full = n >= 32 ? 0xffffffffu : (1u << n) - 1u;
    qc_u128 total = 0;
    for (uint32_t tk = 0; tk <= ckmask; tk++) {
        const uint32_t *toff = tb.offsets + ((size_t)tk << k);
        if (toff[0] == toff[groups])
            continue;                      /* no top half uses this set */
        const uint32_t s = q | qcj_colkey_expand(g, tk);
        if (!odd) {
            const uint32_t *boff = bb.offsets + ((size_t)(~tk & ckmask) << k);
            if (boff[0] == boff[groups])
                continue;
            const int weight = qcj_set_weight(s, q, data->block, n, data->flip);
            if (weight == 0)
                continue;
            uint64_t pairs = join_groups(g, toff, boff, 0, tb.low32, tb.low64,
                                         bb.low32, bb.low64, &tested);
            total += (qc_u128)pairs * (unsigned)weight;
            continue;
        }
        /* odd N: each free column c for the middle queen */
        for (uint32_t free = full & ~s; free; free &= free - 1) {
            const int c = __builtin_ctz(free);
            const uint32_t bset = full & ~s & ~(1u << c);
            size_t x = (data->block >> c & 1u) ? (size_t)(c - g->unit_lo) + 1 : 0;
            size_t col = x << (n - m) | qcj_colkey(g, bset);
            const uint32_t *boff = bb.offsets + (col << k);
            if (boff[0] == boff[groups])
                continue;
            const int weight = qcj_triple_weight(s, c, data->block, n);
            if (weight == 0)
                continue;
            const uint64_t mid = g->cell_sig[g->h][c];
            fold_middle(g, toff, &tb, mid, ft32, ft64, ftoff);
            if (ftoff[groups] == 0)
                continue;
            const uint32_t mid_key = (uint32_t)(mid >> g->key_shift) & ((1u << k) - 1u);
            uint64_t pairs = join_groups(g, ftoff, boff, mid_key, ft32, ft64,
                                         bb.low32, bb.low64, &tested);
            total += (qc_u128)pairs * (unsigned)weight;
        }
    }
    qcj_pool_give((qcj_pool *)&data->pool, sc);
    out->solutions = total;
    /* work done: queens placed in the halves plus pairs of halves tested */
    out->placements = placed + tested;
    return QC_OK;
}

static void join_release(qc_plan *plan)
{
    join_data *data = plan->engine_data;
    if (data) {
        qcj_pool_clear(&data->pool);
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
