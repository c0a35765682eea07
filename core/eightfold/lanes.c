/* SPDX-License-Identifier: MIT */
/*
 * lanes.c — the eightfold engine's search of one unit (lanes.h): the
 * branch-free interleaved kernel over the unit's rows (rows.h), built once
 * per ISA level ([per-level objects], isa.h).
 */
#include "config.h"
#include "kernel/kernel.h"
#include "lanes.h"

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
 *   [lanes]        QCE_LANES (config.h) independent searches (subtrees of one unit,
 *                  seeded by its first two rows) advance in turn, so the
 *                  dependency chain of one (load, blsr, lzcnt, load) hides
 *                  behind the work of the others.
 * A lane whose subtree is done takes the next seed: the one branch left
 * that is taken, once per subtree.
 *
 * Measured and rejected (N=15, one thread, CPU time, same run): other
 * lane counts (config.h); a wide look-ahead checking the next 4 rows
 * in one AVX2 / AVX-512VL vector prunes 12% more placements (22.9 M
 * against 26.2 M) but costs 10-30% more time (broadcasts from general
 * registers, and the verdict sits on the lane's dependency chain).  The
 * kernel is therefore plain C with GCC builtins: the same code on every
 * x86-64 or other 64-bit machine, and fastest here from the avx2 level on
 * (popcnt, lzcnt, blsi/blsr, shlx/shrx). */

#define EF_SEED_LEVELS 2      /* lanes start below the first two rows     */
#define EF_LANE_MIN_LEVELS 4  /* fewer rows: qce_count_plain              */

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
static size_t ef_seeds(const qce_rows *rows, ef_seed *out, uint64_t *placed)
{
    size_t count = 0;
    uint32_t t0 = qce_free(0, 0, 0, rows, 0);
    while (t0) {
        uint32_t b0 = t0 & -t0;
        t0 &= t0 - 1;
        (*placed)++;
        uint32_t c0 = b0;
        uint64_t a0 = (uint64_t)b0 << rows->lv[0].up, m0 = (uint64_t)b0 << rows->lv[0].down;
        uint32_t t1 = qce_free(c0, a0, m0, rows, 2) ? qce_free(c0, a0, m0, rows, 1) : 0;
        while (t1) {
            uint32_t b1 = t1 & -t1;
            t1 &= t1 - 1;
            (*placed)++;
            ef_seed s;
            s.cols = c0 | b1;
            s.anti = a0 | (uint64_t)b1 << rows->lv[1].up;
            s.main = m0 | (uint64_t)b1 << rows->lv[1].down;
            s.todo = qce_free(s.cols, s.anti, s.main, rows, 3)
                   ? qce_free(s.cols, s.anti, s.main, rows, 2) : 0;
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

static inline void ef_step(ef_lane *ln, const qce_level *lv, int last, uint64_t *solutions)
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
    const uint32_t f = qce_free_at(c, a, m, &lv[d + 1]);
    const uint32_t g = qce_free_at(c, a, m, &lv[d + 2]);    /* [look-ahead] */
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
 * Under the scheduler (qci_stop_flag set, stop.h) a unit must end soon
 * after a stop, and from N~23 one unit runs for minutes.  The flag is read
 * where a lane takes its next seed, once per subtree: a branch that is
 * already there and rarely taken.  From the two seed rows alone, a subtree
 * grows with N without bound, so with a flag the seeds are taken deeper:
 * [deep seeds] walks the rows between the two seed rows and the last
 * QCE_STOP_ROWS rows (config.h: 14, a fraction of a millisecond at any N)
 * one queen at a time and hands the lanes the boards there.  Units with at
 * most QCE_STOP_ROWS + 2 rows keep the two seed rows, their subtrees
 * already that small: up to N=19 nothing changes but the reading (N=20:
 * 153 of 9522 units go deep, from N=21 all); without a flag nothing
 * changes at all.  The lanes stay full from seed to seed: no extra ragged
 * tails.  A raised flag ends the unit with a partial count and QC_ESTOP;
 * the caller drops the count. */

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
static int ef_deep_next(ef_source *src, const qce_level *lv, ef_seed *out, uint64_t *placed)
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
        const uint32_t child = qce_free_at(c, a, m, &lv[d + 2])     /* [look-ahead] */
                             ? qce_free_at(c, a, m, &lv[d + 1]) : 0;
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

static inline int ef_source_next(ef_source *src, const qce_level *lv, int deep, ef_seed *out,
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
ef_lanes(const qce_rows *rows, ef_source *src, int level, int deep, const int *stop,
         uint64_t *steps)
{
    uint64_t solutions = 0, placed = 0, lane_steps = 0;
    const int last = rows->levels - 2;
    const qce_level *lv = rows->lv;
    ef_lane lanes[QCE_LANES];
    ef_seed seed;
    int j;
    for (j = 0; j < QCE_LANES; j++) {
        lanes[j].live = 0;
        lanes[j].d = -1;
    }
    for (j = 0; j < QCE_LANES && ef_source_next(src, lv, deep, &seed, &placed); j++)
        ef_lane_load(&lanes[j], &seed, level);
    if (j == QCE_LANES) {
        /* all lanes busy: step them in turn, refill the ones that finish */
        for (;;) {
            #pragma GCC unroll 8
            for (int k = 0; k < QCE_LANES; k++)
                ef_step(&lanes[k], lv, last, &solutions);
            lane_steps += QCE_LANES;
            int starved = 0;
            #pragma GCC unroll 8
            for (int k = 0; k < QCE_LANES; k++) {
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
    for (int k = 0; k < QCE_LANES; k++) {
        if (ef_stopped(stop))
            break;
        for (; lanes[k].live; lane_steps++)
            ef_step(&lanes[k], lv, last, &solutions);
    }
out:
    /* every lane step placed one queen; each solution is one more on the last row */
    *steps += placed + lane_steps + solutions;
    return solutions;
}

int QC_LEVEL(qce_count_rows)(const qce_rows *rows, int stop_rows, uint64_t *solutions,
                             uint64_t *steps)
{
    *solutions = 0;
    if (rows->levels < EF_LANE_MIN_LEVELS) {
        *solutions = qce_count_plain(rows, steps);
        return QC_OK;
    }
    const int *stop = qci_stop_flag;
    if (ef_stopped(stop))
        return QC_ESTOP;
    ef_seed seeds[QC_N_MAX * QC_N_MAX];
    uint64_t placed = 0;
    ef_source src = {.seeds = seeds, .count = ef_seeds(rows, seeds, &placed)};
    *steps += placed;
    if (!stop) {
        *solutions = ef_lanes(rows, &src, EF_SEED_LEVELS, 0, NULL, steps);
        return QC_OK;
    }
    const int top = rows->levels - stop_rows;
    if (top <= EF_SEED_LEVELS) {
        *solutions = ef_lanes(rows, &src, EF_SEED_LEVELS, 0, stop, steps);
    } else {
        src.top = top;
        src.d = EF_SEED_LEVELS - 1;
        *solutions = ef_lanes(rows, &src, top, 1, stop, steps);
    }
    return ef_stopped(stop) ? QC_ESTOP : QC_OK;
}
