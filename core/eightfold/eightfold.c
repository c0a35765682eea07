/*
 * eightfold.c — the 8-fold engine: all eight symmetries of the square.
 *
 * Work units are constellations (constellations.h): one queen pre-placed on each
 * border line — first row, last row, first column, last column — as in the
 * published "constellation" / Q27 "coronal" counters.  Every solution has
 * exactly one constellation, so the constellations split the solutions;
 * only the canonical one of each orbit under the dihedral group is kept and
 * its completions count |orbit| = 2, 4 or 8 times (constellations.c proves it;
 * the self-symmetric constellations, with orbits of 2 and 4, are the trap).
 * Somewhat under N^4/8 units (the attacking ones drop out): 730 at N=12,
 * 3206 at N=16, 9522 at N=20, 38604 at N=27 — fine-grained enough for
 * dynamic scheduling.  Units are numbered in the order (top, bottom, left,
 * right) ascending, and the fingerprint digests every unit's constellation
 * and weight.
 *
 * The search of a unit fills the interior rows, skipping the rows of the
 * pre-placed left/right queens; the pre-placed queens never move, so their
 * attacks on every interior row are one precomputed mask per row.  Rows go
 * in [middle-out order] (ef_rows_build), diagonals are [absolute diagonals]
 * (ef_free), and the loop is the branch-free interleaved kernel (ef_step,
 * ef_lanes), which reads the scheduler's stop flag once per subtree
 * ([stop check], with [deep seeds]).  Small N needs no special case: N=1 is the one constellation
 * (0,0,0,0), fixed by all 8 symmetries (class size 1); N=2, 3 have no
 * legal constellation; units with fewer than 4 rows to fill (N <= 7 only)
 * take the plain loop, ef_count_plain.
 *
 * Measured at N=16, one thread, CPU time, same run (tools in the README):
 * 172 M placements (halving: 571 M), 0.82 s against halving's 3.7 s.
 */
#include <stdlib.h>

#include "kernel/kernel.h"
#include "plan.h"
#include "constellations.h"

typedef struct ef_unit {
    qce_constellation k;
    uint8_t weight;            /* orbit size: 1 (N=1), 2, 4 or 8 */
} ef_unit;

typedef struct ef_data {
    ef_unit *units;
} ef_data;

/* The rows a unit's search fills, in search order ([middle-out order]),
 * and what is fixed on each: block[i] has a bit for every square of the
 * i-th row searched that is off the board, in a pre-placed queen's column,
 * or attacked by a pre-placed queen; up[i] and down[i] are the shifts that
 * bring that row's diagonals to bit 0 of the diagonal masks (row, n-1-row).
 *
 * [middle-out order]  Rows are not filled top-down.  The search starts in
 * the middle row, fills the rows below it in turn down to the bottom, then
 * those above it from the middle up to the top.  The fixed queens of the
 * last row and the side columns then prune the first sweep early, and the
 * second sweep runs into the first row's queen: N=16 visits 210 M
 * placements this way against 338 M top-down (measured; mid-out both ways
 * alternately 260 M, bottom-up first 335 M). */
typedef struct ef_level {
    uint32_t block;
    uint8_t up, down;         /* row, n-1-row */
} ef_level;

typedef struct ef_rows {
    int levels;
    /* two levels of padding past the last row: all blocked, so that a
     * look-ahead past the end reads "no free square" */
    ef_level lv[QC_N_MAX + 2];
} ef_rows;

static void ef_rows_build(int n, qce_constellation k, ef_rows *rows)
{
    int qr[4], qc[4];
    int q = qce_queens(n, k, qr, qc);
    uint32_t fixed_cols = 0;
    for (int i = 0; i < q; i++)
        fixed_cols |= 1u << qc[i];
    const uint32_t outside = ~qck_full_mask(n);
    int free_rows[QC_N_MAX], count = 0;
    for (int r = 1; r < n - 1; r++)
        if (r != k.left && r != k.right)
            free_rows[count++] = r;
    const int middle = count / 2;
    for (int i = 0; i < count; i++) {
        /* [middle-out order]: middle..last ascending, then middle-1..0 */
        int r = i < count - middle ? free_rows[middle + i] : free_rows[count - 1 - i];
        uint32_t b = outside | fixed_cols;
        for (int j = 0; j < q; j++) {
            int dist = r > qr[j] ? r - qr[j] : qr[j] - r;
            if (qc[j] + dist < n)
                b |= 1u << (qc[j] + dist);
            if (qc[j] - dist >= 0)
                b |= 1u << (qc[j] - dist);
        }
        rows->lv[i].block = b;
        rows->lv[i].up = (uint8_t)r;
        rows->lv[i].down = (uint8_t)(n - 1 - r);
    }
    rows->levels = count;
    for (int i = count; i < count + 2; i++) {
        rows->lv[i].block = ~0u;
        rows->lv[i].up = rows->lv[i].down = 0;
    }
}

/* [absolute diagonals]  Rows are visited out of order, so diagonals are
 * not shifted row to row: a queen on (r, c) sets bit r+c of `anti` and bit
 * c-r+n-1 of `main` (64-bit: 2n-1 diagonals), and row r reads its attacked
 * columns as anti >> r and main >> (n-1-r). */
static inline uint32_t ef_free_at(uint32_t cols, uint64_t anti, uint64_t main,
                                  const ef_level *lv)
{
    return ~(cols | (uint32_t)(anti >> lv->up) | (uint32_t)(main >> lv->down) | lv->block);
}

static inline uint32_t ef_free(uint32_t cols, uint64_t anti, uint64_t main,
                               const ef_rows *rows, int level)
{
    return ef_free_at(cols, anti, main, &rows->lv[level]);
}

/* [two-row finish] The last two rows searched (levels i, j = i+1, s rows
 * apart) without a branch.  F1 = free squares of row i, F2 = free squares
 * of row j given the queens placed before row i.  A queen x in F1 and a
 * queen y in F2 clash exactly when y = x (column) or y = x +- s
 * (diagonals), three disjoint cases, so the pairs that finish the board are
 *   |F1|*|F2| - |F1 & F2| - |(F1 << s) & F2| - |(F1 >> s) & F2|.
 * The queens of row i are counted as placements, and so are the last-row
 * queens (one per solution), as in the other kernels. */
static inline uint64_t ef_finish2(uint32_t f1, uint32_t f2, int s, uint64_t *placed)
{
    uint64_t n1 = (uint64_t)__builtin_popcount(f1);
    uint64_t pairs = n1 * (uint64_t)__builtin_popcount(f2)
                   - (uint64_t)__builtin_popcount(f1 & f2)
                   - (uint64_t)__builtin_popcount((f1 << s) & f2)
                   - (uint64_t)__builtin_popcount((f1 >> s) & f2);
    *placed += n1 + pairs;
    return pairs;
}

/* Completions of the interior given the fixed rows: the plain loop, for
 * the few units with less than EF_LANE_MIN_LEVELS rows to fill. */
static uint64_t ef_count_plain(const ef_rows *rows, uint64_t *placements)
{
    const int levels = rows->levels;
    uint64_t placed = 0;
    if (levels == 0)
        return 1;
    if (levels == 1) {
        uint64_t c = (uint64_t)__builtin_popcount(~rows->lv[0].block);
        *placements += c;
        return c;
    }
    const int li = levels - 2, lj = levels - 1;
    const int s_ij = rows->lv[li].up > rows->lv[lj].up ? rows->lv[li].up - rows->lv[lj].up
                                                       : rows->lv[lj].up - rows->lv[li].up;
    if (levels == 2) {
        uint64_t c = ef_finish2(ef_free(0, 0, 0, rows, li), ef_free(0, 0, 0, rows, lj),
                                s_ij, &placed);
        *placements += placed;
        return c;
    }

    /* Level d (0 <= d <= last) holds the board before row d and the
     * squares of row d still to try; a queen on row `last` leaves two rows
     * for [two-row finish]. */
    uint32_t cols[QC_N_MAX], todo[QC_N_MAX];
    uint64_t anti[QC_N_MAX], main[QC_N_MAX];
    const int last = levels - 3;
    uint64_t solutions = 0;
    int d = 0;
    cols[0] = 0;
    anti[0] = main[0] = 0;
    todo[0] = ef_free(0, 0, 0, rows, 0);
    for (;;) {
        uint32_t t = todo[d];
        if (t == 0) {                       /* row exhausted: back up      */
            if (--d < 0)
                break;
            continue;
        }
        uint32_t bit = t & -t;              /* lowest free square          */
        todo[d] = t & (t - 1);
        uint32_t c = cols[d] | bit;         /* [absolute diagonals]        */
        uint64_t a = anti[d] | (uint64_t)bit << rows->lv[d].up;
        uint64_t m = main[d] | (uint64_t)bit << rows->lv[d].down;
        placed++;
        if (d == last) {
            solutions += ef_finish2(ef_free(c, a, m, rows, li), ef_free(c, a, m, rows, lj),
                                    s_ij, &placed);
            continue;
        }
        d++;
        cols[d] = c;
        anti[d] = a;
        main[d] = m;
        /* [look-ahead] row d+1 already blocked: nothing to try on row d */
        uint32_t ahead = ef_free(c, a, m, rows, d + 1);
        todo[d] = ahead ? ef_free(c, a, m, rows, d) : 0;
    }
    *placements += placed;
    return solutions;
}

/* ---- the interleaved kernel ------------------------------------------
 *
 * Each step of a plain backtracker ends in a branch the predictor cannot
 * learn (descend, try the next square, or back up), and that misprediction
 * is most of the cost of a placement.  Here a step is branch-free and
 * always places exactly one queen:
 *   [live levels]  each lane keeps a bitmask of the levels that still have
 *                  squares to try; after a placement the next level to work
 *                  on is the highest live one (one lzcnt), so backing up
 *                  costs no step of its own and no branch;
 *   [look-ahead]   a child whose next row is already blocked gets nothing
 *                  to try (a cmov, not a branch);
 *   [last-row popcount] a queen on the next-to-last row adds the free
 *                  squares of the last row as solutions (a cmov);
 *   [lanes]        EF_LANES independent searches (subtrees of one unit,
 *                  seeded by its first two rows) advance in turn, so the
 *                  dependency chain of one (load, blsr, lzcnt, load) hides
 *                  behind the work of the others.
 * A lane whose subtree is done takes the next seed: the one branch left
 * that is taken, once per subtree.
 *
 * Measured and rejected (N=15, one thread, CPU time, same run): 2, 6 and 8
 * lanes (4 is best by 5-15%); a wide look-ahead checking the next 4 rows
 * in one AVX2 / AVX-512VL vector prunes 12% more placements (22.9 M
 * against 26.2 M) but costs 10-30% more time (broadcasts from general
 * registers, and the verdict sits on the lane's dependency chain).  The
 * kernel is therefore plain C with GCC builtins: the same code on every
 * x86-64 or other 64-bit machine, and fastest here with -march=native
 * (popcnt, lzcnt, blsi/blsr, shlx/shrx). */

#ifndef EF_LANES
#define EF_LANES 4
#endif
#define EF_SEED_LEVELS 2      /* lanes start below the first two rows     */
#define EF_LANE_MIN_LEVELS 4  /* fewer rows: ef_count_plain              */

/* One level of a lane's stack: the board before that level's row, and the
 * squares of the row still to try. */
typedef struct ef_frame {
    uint32_t todo, cols;
    uint64_t anti, main;
} ef_frame;

typedef struct ef_lane {
    uint32_t live;            /* [live levels]: bit d = level d has squares left */
    int d;                    /* highest live level, -1 when done          */
    ef_frame f[QC_N_MAX + 2];
} ef_lane;

typedef struct ef_seed {
    uint32_t cols, todo;      /* the board after two rows, and the squares */
    uint64_t anti, main;      /* of the third row to try                   */
} ef_seed;

/* All boards of the first EF_SEED_LEVELS rows that leave something to try
 * on the next; counts their queens in *placed.  Returns how many. */
static size_t ef_seeds(const ef_rows *rows, ef_seed *out, uint64_t *placed)
{
    size_t count = 0;
    uint32_t t0 = ef_free(0, 0, 0, rows, 0);
    while (t0) {
        uint32_t b0 = t0 & -t0;
        t0 &= t0 - 1;
        (*placed)++;
        uint32_t c0 = b0;
        uint64_t a0 = (uint64_t)b0 << rows->lv[0].up, m0 = (uint64_t)b0 << rows->lv[0].down;
        uint32_t t1 = ef_free(c0, a0, m0, rows, 2) ? ef_free(c0, a0, m0, rows, 1) : 0;
        while (t1) {
            uint32_t b1 = t1 & -t1;
            t1 &= t1 - 1;
            (*placed)++;
            ef_seed s;
            s.cols = c0 | b1;
            s.anti = a0 | (uint64_t)b1 << rows->lv[1].up;
            s.main = m0 | (uint64_t)b1 << rows->lv[1].down;
            s.todo = ef_free(s.cols, s.anti, s.main, rows, 3)
                   ? ef_free(s.cols, s.anti, s.main, rows, 2) : 0;
            if (s.todo)
                out[count++] = s;
        }
    }
    return count;
}

/* Starts a lane on seed s, whose board holds the queens of the rows above
 * level d and whose todo the squares of row d to try. */
static inline void ef_lane_load(ef_lane *ln, const ef_seed *s, int d)
{
    ln->f[d].cols = s->cols;
    ln->f[d].anti = s->anti;
    ln->f[d].main = s->main;
    ln->f[d].todo = s->todo;
    ln->live = 1u << d;
    ln->d = d;
}

static inline void ef_step(ef_lane *ln, const ef_level *lv, int last, uint64_t *solutions)
{
    const int d = ln->d;
    ef_frame *fr = &ln->f[d];
    const uint32_t t = fr->todo;            /* nonzero: d is live          */
    const uint32_t bit = t & -t;            /* lowest free square          */
    const uint32_t rest = t & (t - 1);
    fr->todo = rest;
    const uint32_t c = fr->cols | bit;
    const uint64_t a = fr->anti | (uint64_t)bit << lv[d].up;
    const uint64_t m = fr->main | (uint64_t)bit << lv[d].down;
    const uint32_t f = ef_free_at(c, a, m, &lv[d + 1]);
    const uint32_t g = ef_free_at(c, a, m, &lv[d + 2]);    /* [look-ahead] */
    /* masks rather than ?: so that the compiler emits no branch */
    *solutions += (uint32_t)__builtin_popcount(f) & -(uint32_t)(d == last);
    const uint32_t child = f & -(uint32_t)(g != 0);  /* 0 on `last`: padding */
    fr[1].cols = c;
    fr[1].anti = a;
    fr[1].main = m;
    fr[1].todo = child;
    uint32_t live = ln->live ^ (uint32_t)(rest == 0) << d;   /* [live levels] */
    live |= (uint32_t)(child != 0) << (d + 1);
    ln->live = live;
    ln->d = 30 - __builtin_clz(live << 1 | 1);   /* highest live, or -1   */
}

/* ---- [stop check] ----------------------------------------------------
 *
 * Under the scheduler (qck_stop_flag set, kernel.h) a unit must end soon
 * after a stop, and from N~23 one unit runs for minutes.  The flag is read
 * where a lane takes its next seed, once per subtree: a branch that is
 * already there and rarely taken.  From the two seed rows alone, a subtree
 * grows with N without bound, so with a flag the seeds are taken deeper:
 * [deep seeds] walks the rows between the two seed rows and the last
 * EF_STOP_ROWS rows one queen at a time and hands the lanes the boards
 * there.  The last rows searched have about as many free columns as rows
 * whatever N is, so a subtree of 14 rows is some 10^5 placements at any N
 * (sampled at N=21, 23, 25, 27 by random descents: means 0.4-2.5 x 10^5,
 * largest 1.3 x 10^6), a fraction of a millisecond, against some 100 ns
 * per seed for the walk and the reading (12 rows: a few 10^3, too close;
 * 16 rows: 10^6-10^7, milliseconds).  Units with at most 16 rows keep
 * the two seed rows, their subtrees already that small: up to N=19 nothing
 * changes but the reading (N=20: 153 of 9522 units go deep, from N=21
 * all); without a flag nothing changes at all.  The
 * lanes stay full from seed to seed, as before: no extra ragged tails.  A
 * raised flag ends the unit with a partial count, which the caller drops. */
#ifndef EF_STOP_ROWS
#define EF_STOP_ROWS 14
#endif
_Static_assert(EF_STOP_ROWS >= 2, "the walk must stop above the two-row finish");

/* Where the lanes take their seeds: the two-row seeds themselves, or
 * [deep seeds] below them, walked depth-first down to level `top`. */
typedef struct ef_source {
    const ef_seed *seeds;     /* the two-row seeds                         */
    size_t count, next;
    int top;                  /* deep: the seeds' level, > EF_SEED_LEVELS  */
    int d;                    /* deep: the level being walked, or below
                                 EF_SEED_LEVELS when a two-row seed is due */
    ef_frame f[QC_N_MAX + 2];
} ef_source;

/* [deep seeds] The next board at level src->top with squares to try on
 * it, walking down from the two-row seeds; 0 when there is none left.
 * Every queen placed on the way counts in *placed, as a lane step would
 * count it, and the same [look-ahead] prunes, so the placements and the
 * solutions of a unit are the same as with the two-row seeds. */
static int ef_deep_next(ef_source *src, const ef_level *lv, ef_seed *out, uint64_t *placed)
{
    for (;;) {
        int d = src->d;
        if (d < EF_SEED_LEVELS) {
            if (src->next == src->count)
                return 0;
            const ef_seed *s = &src->seeds[src->next++];
            d = src->d = EF_SEED_LEVELS;
            src->f[d] = (ef_frame){.todo = s->todo, .cols = s->cols, .anti = s->anti,
                                   .main = s->main};
        }
        ef_frame *fr = &src->f[d];
        const uint32_t t = fr->todo;
        if (t == 0) {                       /* row exhausted: back up      */
            src->d = d - 1;
            continue;
        }
        const uint32_t bit = t & -t;
        fr->todo = t & (t - 1);
        (*placed)++;
        const uint32_t c = fr->cols | bit;
        const uint64_t a = fr->anti | (uint64_t)bit << lv[d].up;
        const uint64_t m = fr->main | (uint64_t)bit << lv[d].down;
        const uint32_t child = ef_free_at(c, a, m, &lv[d + 2])     /* [look-ahead] */
                             ? ef_free_at(c, a, m, &lv[d + 1]) : 0;
        if (d + 1 == src->top) {
            if (child) {
                *out = (ef_seed){.cols = c, .todo = child, .anti = a, .main = m};
                return 1;
            }
            continue;
        }
        src->f[d + 1] = (ef_frame){.todo = child, .cols = c, .anti = a, .main = m};
        src->d = d + 1;                     /* nothing to try: backs up next */
    }
}

static inline int ef_source_next(ef_source *src, const ef_level *lv, int deep, ef_seed *out,
                                 uint64_t *placed)
{
    if (deep)
        return ef_deep_next(src, lv, out, placed);
    if (src->next == src->count)
        return 0;
    *out = src->seeds[src->next++];
    return 1;
}

static inline int ef_stopped(const int *stop)
{
    return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

/* The lanes over every seed of src, at level `level`.  deep and stop are
 * constants at each call, so each variant compiles to its own loop, and
 * the one without a flag is the plain kernel. */
static inline __attribute__((always_inline)) uint64_t
ef_lanes(const ef_rows *rows, ef_source *src, int level, int deep, const int *stop,
         uint64_t *placements)
{
    uint64_t solutions = 0, placed = 0, steps = 0;
    const int last = rows->levels - 2;
    const ef_level *lv = rows->lv;
    ef_lane lanes[EF_LANES];
    ef_seed seed;
    int j;
    for (j = 0; j < EF_LANES; j++) {
        lanes[j].live = 0;
        lanes[j].d = -1;
    }
    for (j = 0; j < EF_LANES && ef_source_next(src, lv, deep, &seed, &placed); j++)
        ef_lane_load(&lanes[j], &seed, level);
    if (j == EF_LANES) {
        /* all lanes busy: step them in turn, refill the ones that finish */
        for (;;) {
            #pragma GCC unroll 8
            for (int k = 0; k < EF_LANES; k++)
                ef_step(&lanes[k], lv, last, &solutions);
            steps += EF_LANES;
            int starved = 0;
            #pragma GCC unroll 8
            for (int k = 0; k < EF_LANES; k++) {
                if (__builtin_expect(lanes[k].live == 0, 0)) {   /* once a subtree */
                    if (ef_stopped(stop))
                        goto out;           /* [stop check]: partial       */
                    if (ef_source_next(src, lv, deep, &seed, &placed))
                        ef_lane_load(&lanes[k], &seed, level);
                    else
                        starved = 1;
                }
            }
            if (starved)
                break;
        }
    }
    /* the tail: what is left in each lane, one lane at a time */
    for (int k = 0; k < EF_LANES; k++) {
        if (ef_stopped(stop))
            break;
        for (; lanes[k].live; steps++)
            ef_step(&lanes[k], lv, last, &solutions);
    }
out:
    /* every step placed one queen; each solution is one more on the last row */
    *placements += placed + steps + solutions;
    return solutions;
}

static uint64_t ef_count(const ef_rows *rows, uint64_t *placements)
{
    if (rows->levels < EF_LANE_MIN_LEVELS)
        return ef_count_plain(rows, placements);
    const int *stop = qck_stop_flag;
    if (ef_stopped(stop))
        return 0;
    ef_seed seeds[QC_N_MAX * QC_N_MAX];
    uint64_t placed = 0;
    ef_source src = {.seeds = seeds, .count = ef_seeds(rows, seeds, &placed)};
    *placements += placed;
    if (!stop)
        return ef_lanes(rows, &src, EF_SEED_LEVELS, 0, NULL, placements);
    const int top = rows->levels - EF_STOP_ROWS;
    if (top <= EF_SEED_LEVELS)
        return ef_lanes(rows, &src, EF_SEED_LEVELS, 0, stop, placements);
    src.top = top;
    src.d = EF_SEED_LEVELS - 1;
    return ef_lanes(rows, &src, top, 1, stop, placements);
}

/* Walks all constellations in key order; stores the canonical ones when
 * `out` is set.  Returns how many there are. */
static size_t ef_walk(int n, ef_unit *out)
{
    size_t count = 0;
    qce_constellation k;
    for (int top = 0; top < n; top++)
        for (int bottom = 0; bottom < n; bottom++)
            for (int left = 0; left < n; left++)
                for (int right = 0; right < n; right++) {
                    k.top = (int8_t)top;
                    k.bottom = (int8_t)bottom;
                    k.left = (int8_t)left;
                    k.right = (int8_t)right;
                    int size;
                    if (!qce_legal(n, k) || !qce_canonical(n, k, &size))
                        continue;
                    if (out) {
                        out[count].k = k;
                        out[count].weight = (uint8_t)size;
                    }
                    count++;
                }
    return count;
}

static int ef_build(qc_plan *plan)
{
    const int n = plan->n;
    ef_data *data = malloc(sizeof *data);
    if (!data)
        return QC_ENOMEM;
    size_t count = ef_walk(n, NULL);
    data->units = malloc((count ? count : 1) * sizeof *data->units);
    if (!data->units) {
        free(data);
        return QC_ENOMEM;
    }
    ef_walk(n, data->units);

    uint64_t h = qc_fingerprint_mix(0, QC_ENGINE_EIGHTFOLD);
    h = qc_fingerprint_mix(h, (uint64_t)n);
    for (size_t i = 0; i < count; i++) {
        const ef_unit *u = &data->units[i];
        h = qc_fingerprint_mix(h, (uint64_t)qce_key(u->k) << 8 | u->weight);
    }
    plan->fingerprint = h;
    plan->unit_count = count;
    plan->engine_data = data;
    return QC_OK;
}

static int ef_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    const ef_data *data = plan->engine_data;
    const ef_unit *u = &data->units[unit];
    ef_rows rows;
    ef_rows_build(plan->n, u->k, &rows);
    uint64_t placed = 0;
    uint64_t found = ef_count(&rows, &placed);
    out->solutions = (qc_u128)found * u->weight;
    out->placements = placed;
    return QC_OK;
}

static void ef_release(qc_plan *plan)
{
    ef_data *data = plan->engine_data;
    if (data) {
        free(data->units);
        free(data);
    }
}

const qc_engine_ops qc_eightfold_ops = {
    .name = "eightfold",
    .build = ef_build,
    .count_unit = ef_count_unit,
    .release = ef_release,
};
