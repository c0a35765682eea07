/* SPDX-License-Identifier: MIT */
/*
 * backtrack.c — [backtrack oracle] the independent recount of a described
 * unit (qcount.h, qc_case_count, qc_plan_backtrack_unit): a search row by
 * row with bitmasks, each row's queen kept to its case's columns.  It
 * reads a unit through the public description alone and includes nothing
 * of any engine: no bands, halves, keys, tables of counts or AND loop, so
 * that a bug in the join's building blocks cannot be counted again the
 * same way.
 *
 * [batched rows] The search goes row by row over many partial placements
 * at once instead of one path at a time: a batch of up to BACKTRACK_BATCH
 * placements of rows 0..r (each kept as its columns, its two diagonal
 * directions shifted to row r+1, and the columns row r+1 has left) is
 * extended by every queen row r+1 can take, the extensions that pass the
 * [look ahead] are packed into row r+1's batch, and that batch is searched
 * before the next one of row r.  So the tree searched, and the queens
 * placed, are those of a plain backtracking search; only the order of
 * visiting differs.  Its point is that the extensions of a batch do not
 * depend on one another: no branch decides a single path, and on a CPU
 * with AVX2 eight extensions go in one vector ([eight lanes]).
 */
#include <stdlib.h>
#include <string.h>

#include "qcount.h"

/* [stop check] Queens placed between two readings of the stop flag. */
#define BACKTRACK_STOP_EVERY (1u << 20)

/* [look ahead] Rows r+2 and r+3 (those on the board) must each keep a
 * column free of the queens of rows 0..r for a placement of row r to be
 * kept.  Measured on three N=20 units: 0.82-0.89 of the time of no
 * look-ahead, 3 rows about as good as 5 or all (performance-log.md,
 * "2026-12-01 — the record plan's profiles on known boards; the
 * independent recount's cost at N=22 to 28; a real N=28 audit by
 * backtracking"); in the scalar [batched rows] a fourth row saved no time
 * ("2026-12-02 — the independent recount in batches of rows"). */

/* [batched rows] Placements of one row extended together: on two N=20
 * units 256 took 0.78-0.82 of 64's time and 0.45-0.50 of 16's; 512 and
 * 1024 took 0.89-0.92 of 256's at two and four times the memory
 * ("2026-12-02 — the independent recount in batches of rows"). */
#define BACKTRACK_BATCH 256

/* [eight lanes] The vector width of the AVX2 kernel, and the slack past a
 * batch's end that its packed stores may write. */
#define BACKTRACK_LANES 8

/* Batch r: partial placements of rows 0..r-1, as four arrays (so that
 * eight neighbours load as one vector): the columns taken, the left and
 * right diagonals shifted to row r, and the columns row r has open. */
typedef struct backtrack_row {
    uint32_t *cols, *left, *right, *open;
} backtrack_row;

/* One case's search: its rows' sets, each row's batch, the counts, and
 * the pack orders of [eight lanes] (lane k of a mask's order is the k-th
 * lane whose bit is set; made only where the AVX2 kernel runs). */
typedef struct backtrack_search {
    int n;
    uint32_t rows[QC_N_MAX];
    backtrack_row batch[QC_N_MAX];
    const int *stop;
    uint64_t solutions, placed, next_check;
    int stopped;
    int wide;                               /* the AVX2 kernel runs */
    uint32_t pack[256][BACKTRACK_LANES];
} backtrack_search;

/* Rows r+2 and r+3 of [look ahead]: their columns, and 1 for a row past
 * the board's last (whose test then always passes), else 0. */
static void look_ahead_rows(const backtrack_search *s, int r, uint32_t m[2], uint32_t past[2])
{
    for (int k = 0; k < 2; k++) {
        past[k] = r + 2 + k < s->n ? 0u : 1u;
        m[k] = past[k] ? 0u : s->rows[r + 2 + k];
    }
}

/* The placements of rows 0..r that extend batch r's placements
 * [from, from + count) by a queen of row r, kept by [look ahead], written
 * to batch r+1; returns how many.  Scalar: one placement at a time. */
static int extend_scalar(backtrack_search *s, int r, int from, int count)
{
    const backtrack_row *in = &s->batch[r];
    backtrack_row *out = &s->batch[r + 1];
    const uint32_t m1 = s->rows[r + 1];
    uint32_t m[2], past[2];
    look_ahead_rows(s, r, m, past);
    const uint32_t m2 = m[0], m3 = m[1], past2 = past[0], past3 = past[1];
    int kept = 0;
    for (int i = from; i < from + count; i++) {
        uint32_t open = in->open[i];
        const uint32_t cols = in->cols[i], left = in->left[i], right = in->right[i];
        s->placed += (unsigned)__builtin_popcount(open);
        while (open) {
            const uint32_t bit = open & -open;
            open ^= bit;
            const uint32_t c = cols | bit, l = (left | bit) << 1, rt = (right | bit) >> 1;
            const uint32_t next = m1 & ~(c | l | rt);
            const uint32_t ahead2 = (m2 & ~(c | l << 1 | rt >> 1)) | past2;
            const uint32_t ahead3 = (m3 & ~(c | l << 2 | rt >> 2)) | past3;
            out->cols[kept] = c;            /* written always, kept when it passes */
            out->left[kept] = l;
            out->right[kept] = rt;
            out->open[kept] = next;
            kept += (next != 0) & (ahead2 != 0) & (ahead3 != 0);
        }
    }
    return kept;
}

/* The completions of batch n-2's placements [0, count): each queen row
 * n-2 can take leaves the last row at most one column (n-1 are taken). */
static uint64_t last_rows_scalar(backtrack_search *s, int count)
{
    const backtrack_row *in = &s->batch[s->n - 2];
    const uint32_t last = s->rows[s->n - 1];
    uint64_t found = 0;
    for (int i = 0; i < count; i++) {
        uint32_t open = in->open[i];
        const uint32_t cols = in->cols[i], left = in->left[i], right = in->right[i];
        s->placed += (unsigned)__builtin_popcount(open);
        while (open) {
            const uint32_t bit = open & -open;
            open ^= bit;
            found += (last & ~((cols | bit) | (left | bit) << 1 | (right | bit) >> 1)) != 0;
        }
    }
    return found;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* [eight lanes] Placements [i, i + 8) of batch `in`, of which those from
 * `end` on are padding: their columns, diagonals, and open columns (none
 * in a padding lane, so that it places no queen). */
__attribute__((target("avx2"), always_inline)) static inline __m256i
load_lanes(const backtrack_row *in, int i, int end, __m256i *cols, __m256i *left, __m256i *right)
{
    const int lanes = end - i < BACKTRACK_LANES ? end - i : BACKTRACK_LANES;
    const __m256i live =
        _mm256_cmpgt_epi32(_mm256_set1_epi32(lanes), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    *cols = _mm256_loadu_si256((const __m256i *)(in->cols + i));
    *left = _mm256_loadu_si256((const __m256i *)(in->left + i));
    *right = _mm256_loadu_si256((const __m256i *)(in->right + i));
    return _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(in->open + i)), live);
}

/* The sum of a vector's eight lanes. */
__attribute__((target("avx2"))) static uint64_t lanes_sum(__m256i v)
{
    uint32_t lane[BACKTRACK_LANES];
    _mm256_storeu_si256((__m256i *)lane, v);
    uint64_t sum = 0;
    for (int k = 0; k < BACKTRACK_LANES; k++)
        sum += lane[k];
    return sum;
}

/* [eight lanes] extend_scalar for eight placements at a time: each round
 * takes the lowest open column of every lane (a lane with none left takes
 * none and keeps nothing), and packs the kept extensions to the front of
 * the vectors by the mask's order before storing them at batch r+1's end;
 * a batch's lanes go on until all eight are spent.  Pads a last group of
 * fewer than eight with lanes that have no open column. */
__attribute__((target("avx2"))) static int extend_avx2(backtrack_search *s, int r, int from,
                                                       int count)
{
    const backtrack_row *in = &s->batch[r];
    backtrack_row *out = &s->batch[r + 1];
    uint32_t m[2], past[2];
    look_ahead_rows(s, r, m, past);
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i row1 = _mm256_set1_epi32((int)s->rows[r + 1]);
    const __m256i row2 = _mm256_set1_epi32((int)m[0]), row3 = _mm256_set1_epi32((int)m[1]);
    const __m256i past2 = _mm256_set1_epi32((int)past[0]), past3 = _mm256_set1_epi32((int)past[1]);
    __m256i placed = zero;
    int kept = 0;
    for (int i = from; i < from + count; i += BACKTRACK_LANES) {
        __m256i cols, left, right;
        __m256i open = load_lanes(in, i, from + count, &cols, &left, &right);
        while (!_mm256_testz_si256(open, open)) {
            const __m256i bit = _mm256_and_si256(open, _mm256_sub_epi32(zero, open));
            open = _mm256_xor_si256(open, bit);
            const __m256i has = _mm256_andnot_si256(_mm256_cmpeq_epi32(bit, zero), one);
            placed = _mm256_add_epi32(placed, has);
            const __m256i c = _mm256_or_si256(cols, bit);
            const __m256i l = _mm256_slli_epi32(_mm256_or_si256(left, bit), 1);
            const __m256i rt = _mm256_srli_epi32(_mm256_or_si256(right, bit), 1);
            const __m256i next = _mm256_andnot_si256(_mm256_or_si256(c, _mm256_or_si256(l, rt)), row1);
            const __m256i ahead2 = _mm256_or_si256(
                _mm256_andnot_si256(_mm256_or_si256(c, _mm256_or_si256(_mm256_slli_epi32(l, 1),
                                                                       _mm256_srli_epi32(rt, 1))),
                                    row2),
                past2);
            const __m256i ahead3 = _mm256_or_si256(
                _mm256_andnot_si256(_mm256_or_si256(c, _mm256_or_si256(_mm256_slli_epi32(l, 2),
                                                                       _mm256_srli_epi32(rt, 2))),
                                    row3),
                past3);
            /* dropped: no bit taken, or a row below with no column left */
            const __m256i drop = _mm256_or_si256(
                _mm256_or_si256(_mm256_cmpeq_epi32(bit, zero), _mm256_cmpeq_epi32(next, zero)),
                _mm256_or_si256(_mm256_cmpeq_epi32(ahead2, zero), _mm256_cmpeq_epi32(ahead3, zero)));
            const int keep = ~_mm256_movemask_ps(_mm256_castsi256_ps(drop)) & 0xff;
            const __m256i order = _mm256_loadu_si256((const __m256i *)s->pack[keep]);
            _mm256_storeu_si256((__m256i *)(out->cols + kept), _mm256_permutevar8x32_epi32(c, order));
            _mm256_storeu_si256((__m256i *)(out->left + kept), _mm256_permutevar8x32_epi32(l, order));
            _mm256_storeu_si256((__m256i *)(out->right + kept), _mm256_permutevar8x32_epi32(rt, order));
            _mm256_storeu_si256((__m256i *)(out->open + kept), _mm256_permutevar8x32_epi32(next, order));
            kept += __builtin_popcount((unsigned)keep);
        }
    }
    s->placed += lanes_sum(placed);
    return kept;
}

/* last_rows_scalar for eight placements at a time. */
__attribute__((target("avx2"))) static uint64_t last_rows_avx2(backtrack_search *s, int count)
{
    const backtrack_row *in = &s->batch[s->n - 2];
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i last = _mm256_set1_epi32((int)s->rows[s->n - 1]);
    __m256i found = zero, placed = zero;
    for (int i = 0; i < count; i += BACKTRACK_LANES) {
        __m256i cols, left, right;
        __m256i open = load_lanes(in, i, count, &cols, &left, &right);
        while (!_mm256_testz_si256(open, open)) {
            const __m256i bit = _mm256_and_si256(open, _mm256_sub_epi32(zero, open));
            open = _mm256_xor_si256(open, bit);
            const __m256i has = _mm256_andnot_si256(_mm256_cmpeq_epi32(bit, zero), one);
            placed = _mm256_add_epi32(placed, has);
            const __m256i taken = _mm256_or_si256(
                _mm256_or_si256(cols, bit),
                _mm256_or_si256(_mm256_slli_epi32(_mm256_or_si256(left, bit), 1),
                                _mm256_srli_epi32(_mm256_or_si256(right, bit), 1)));
            const __m256i free = _mm256_andnot_si256(taken, last);
            /* counted where the lane took a queen and left the last row one */
            found = _mm256_add_epi32(found, _mm256_andnot_si256(_mm256_cmpeq_epi32(free, zero), has));
        }
    }
    s->placed += lanes_sum(placed);
    return lanes_sum(found);
}

/* Whether the AVX2 kernel runs: the CPU has AVX2 and the library's level
 * is not forced to portable (qc_isa_select, QCOUNT_ISA). */
static int backtrack_wide(void)
{
    const char *level = qc_isa_name();
    return __builtin_cpu_supports("avx2") && !(level && strcmp(level, "portable") == 0);
}
#else
static int extend_avx2(backtrack_search *s, int r, int from, int count)
{
    return extend_scalar(s, r, from, count);
}
static uint64_t last_rows_avx2(backtrack_search *s, int count)
{
    return last_rows_scalar(s, count);
}
static int backtrack_wide(void)
{
    return 0;
}
#endif

/* Searches batch r's placements [0, count) to the last row, a batch of
 * row r+1 at a time; adds the solutions to s->solutions.  Sets s->stopped
 * and returns early when *stop is set ([stop check]). */
static void search_rows(backtrack_search *s, int r, int count)
{
    if (r == s->n - 2) {
        s->solutions += s->wide ? last_rows_avx2(s, count) : last_rows_scalar(s, count);
        return;
    }
    for (int from = 0; from < count && !s->stopped; from += BACKTRACK_BATCH) {
        const int part = count - from < BACKTRACK_BATCH ? count - from : BACKTRACK_BATCH;
        const int kept = s->wide ? extend_avx2(s, r, from, part) : extend_scalar(s, r, from, part);
        if (kept)
            search_rows(s, r + 1, kept);
        if (s->placed >= s->next_check) {   /* [stop check] */
            s->next_check = s->placed + BACKTRACK_STOP_EVERY;
            if (s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED))
                s->stopped = 1;
        }
    }
}

/* Room for every row's batch, zeroed (the vector loads read whole lanes):
 * batch r (the placements of rows 0..r-1, with row r's open columns)
 * holds the extensions of BACKTRACK_BATCH placements of batch r-1, at
 * most as many each as row r-1 has columns, and [eight lanes]' slack;
 * batch 0 holds the one empty placement.  Returns the block, or NULL. */
static uint32_t *backtrack_rows_alloc(backtrack_search *s)
{
    size_t room[QC_N_MAX], total = 0;
    for (int r = 0; r < s->n; r++) {
        const size_t cols = r == 0 ? 0 : (size_t)__builtin_popcount(s->rows[r - 1]);
        room[r] = (r == 0 ? 1 : BACKTRACK_BATCH * cols) + BACKTRACK_LANES;
        total += room[r];
    }
    uint32_t *block = calloc(4 * total, sizeof *block);
    if (!block)
        return NULL;
    uint32_t *at = block;
    for (int r = 0; r < s->n; r++) {
        s->batch[r] = (backtrack_row){at, at + room[r], at + 2 * room[r], at + 3 * room[r]};
        at += 4 * room[r];
    }
    return block;
}

int qc_case_count(int n, const qc_unit_case *c, const int *stop, qc_u128 *solutions,
                  uint64_t *steps)
{
    if (solutions)
        *solutions = 0;
    if (!c || !solutions || n < QC_N_MIN || n > QC_N_MAX)
        return QC_EINVAL;
    const uint32_t full = n == 32 ? UINT32_MAX : (1u << n) - 1u;
    if (n == 1) {
        const unsigned one = (unsigned)__builtin_popcount(c->rows[0] & full);
        *solutions = one;
        if (steps)
            *steps += one;
        return QC_OK;
    }
    backtrack_search *s = malloc(sizeof *s);
    if (!s)
        return QC_ENOMEM;
    memset(s, 0, sizeof *s);
    s->n = n;
    s->stop = stop;
    s->next_check = BACKTRACK_STOP_EVERY;
    s->wide = backtrack_wide();
    for (int r = 0; r < n; r++)
        s->rows[r] = c->rows[r] & full;
    for (unsigned keep = 0; s->wide && keep < 256; keep++) {
        int k = 0;
        for (uint32_t lane = 0; lane < BACKTRACK_LANES; lane++)
            if (keep >> lane & 1u)
                s->pack[keep][k++] = lane;
    }
    uint32_t *block = backtrack_rows_alloc(s);
    if (!block) {
        free(s);
        return QC_ENOMEM;
    }
    s->batch[0].open[0] = s->rows[0];   /* row 0's one placement: none yet */
    if (s->rows[0])
        search_rows(s, 0, 1);
    const int rc = s->stopped ? QC_ESTOP : QC_OK;
    if (rc == QC_OK) {
        *solutions = s->solutions;
        if (steps)
            *steps += s->placed + s->solutions;
    }
    free(block);
    free(s);
    return rc;
}

/* qc_plan_backtrack_unit's walk over the cases. */
typedef struct backtrack_walk {
    int n;
    const int *stop;
    qc_tally sum;
    int rc;
} backtrack_walk;

static int backtrack_case(void *ctx, const qc_unit_case *c)
{
    backtrack_walk *w = ctx;
    qc_u128 found;
    w->rc = qc_case_count(w->n, c, w->stop, &found, &w->sum.steps);
    if (w->rc != QC_OK)
        return 1;
    w->sum.solutions += found * c->weight;
    return 0;
}

int qc_plan_backtrack_unit(const qc_plan *plan, size_t unit, const int *stop, qc_tally *out)
{
    if (!out)
        return QC_EINVAL;
    out->solutions = 0;
    out->steps = 0;
    backtrack_walk w = {.n = qc_plan_n(plan), .stop = stop, .rc = QC_OK};
    int rc = qc_plan_unit_describe(plan, unit, backtrack_case, &w);
    if (rc == QC_EHOOK)
        rc = w.rc;                          /* the case's own error */
    if (rc == QC_OK)
        *out = w.sum;
    return rc;
}
