/*
 * join.h — the meet-in-the-middle ("join") engine's building blocks, shared
 * by its files and its unit tests (prefix qcj_).
 *
 * A solution is a top half (rows 0..h-1, h = N/2 rounded down), on odd N a
 * middle row h, and a bottom half (rows b0..N-1, b0 = N-h, so both halves
 * have h rows), each half a partial placement without conflicts inside it,
 * such that (1) the column sets of the halves (and the middle queen) are
 * complementary and (2) no diagonal is used twice.  Queens of different
 * parts can share only the "border diagonals": the anti-diagonals r+c and
 * the diagonals r-c+N-1 numbered h..h+W-1, W = N-1 on even N (those that
 * reach both halves) and W = N on odd N (all those through row h).  Each
 * border diagonal gets one bit of a 64-bit signature, so condition (2) is
 * `(top_sig & bottom_sig) == 0`, and on odd N also no overlap with the
 * middle queen's signature cell_sig[h][c].
 *
 * Files: join_half.c builds the halves of one column set from band
 * placements, join_pairs.c counts disjoint signature pairs (the hot loop),
 * join_symmetry.c the mirror/flip orbits and their weights, join.c the
 * engine and its units.
 */
#ifndef QC_JOIN_H
#define QC_JOIN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the board geometry of one plan (join.c) ------------------------ */

/* Each half is itself built from two bands of rows, its "first" (upper)
 * and "second" (lower) band: top rows [0, split[0]) and [split[0], h),
 * bottom rows [b0, split[1]) and [split[1], n).  The outer band of each
 * half has band_rows = h/2 rows (the top's first, the bottom's second), so
 * the bottom's bands are the top's turned over.  Queens of the two bands of
 * one half can share only the diagonals crossing the split: anti-diagonals
 * and diagonals numbered split..split+n-2, n-1 each; inner_sig gives them
 * bits 0..n-2 and n-1..2n-3, so two band placements fit together exactly
 * when their columns differ and (inner & inner) == 0. */
typedef struct qcj_geometry {
    int n;            /* board size                                        */
    int h;            /* rows in each half: top 0..h-1, bottom b0..n-1     */
    int b0;           /* first bottom row, n-h (h+1 past a middle row)      */
    int unit_lo;      /* unit columns M = [unit_lo, unit_hi): a unit fixes */
    int unit_hi;      /*   which of them the top half uses (its pattern)   */
    int key_bits;     /* k: border diagonals sorted into groups, not ANDed */
    int key_shift;    /* signature bit of the first group-key diagonal     */
    int wide;         /* 1: the ANDed part needs 64 bits, 0: it fits in 32 */
    int band_rows;    /* rows of each half's outer band, h/2               */
    int split[2];     /* first row of the second band: top, bottom         */
    uint64_t cell_sig[32][32];   /* [row][col]: the border diagonals of a queen */
    uint64_t inner_sig[32][32];  /* [row][col]: its diagonals crossing its half's split */
} qcj_geometry;

/* Fills g for board size n (1..32) with the given split parameters; with
 * force_wide the ANDed part takes 64-bit lanes even where 32 bits would do
 * (so that small boards test the path large ones take). */
void qcj_geometry_init(qcj_geometry *g, int n, int unit_cols, int key_bits, int force_wide);

/* Counts the n-board on this thread with the given split parameters (unit
 * block width of n's parity, key bits, force_wide): the engine with other
 * settings than the plan's, for the tests.  Returns QC_OK or an error. */
int qcj_count_with(int n, int unit_cols, int key_bits, int force_wide, unsigned __int128 *total);

/* The column key: the columns outside M, squeezed together (bits below
 * unit_lo stay, bits from unit_hi on move down to unit_lo). */
static inline uint32_t qcj_colkey(const qcj_geometry *g, uint32_t cols)
{
    uint32_t low = cols & ((1u << g->unit_lo) - 1u);
    uint32_t high = g->unit_hi >= 32 ? 0 : cols >> g->unit_hi;
    return low | high << g->unit_lo;
}

/* The inverse: the column set outside M that a column key stands for. */
static inline uint32_t qcj_colkey_expand(const qcj_geometry *g, uint32_t key)
{
    uint32_t low = key & ((1u << g->unit_lo) - 1u);
    uint32_t high = (uint32_t)((uint64_t)(key >> g->unit_lo) << g->unit_hi);
    return low | high;
}

/* ---- half placements (join_half.c) ---------------------------------- */

/* Column sets are handled "squeezed" to the columns a side may use: a unit
 * side (top with pattern q, or bottom with M\q) may use the columns outside
 * M and its pattern's, t = n-m+|pattern| of them; squeezed bit i < n-m is
 * column-key bit i, bit n-m+j the pattern's j-th column. */
uint32_t qcj_squeeze(const qcj_geometry *g, uint32_t pattern, uint32_t cols);

/* Colex ranks of column sets of one size inside 32 squeezed columns, by
 * table: rank(x) = sum over x's columns p_0 < p_1 < ... of C(p_i, i+1), so
 * the sets of size r of t columns number 0..C(t,r)-1. */
typedef struct qcj_rank {
    uint32_t binom[33][17];          /* C(a, b) for b <= 16 */
    uint32_t chunk[4][17][256];      /* [byte][columns below it][byte value] */
} qcj_rank;

void qcj_rank_init(qcj_rank *r);

static inline uint32_t qcj_rank_of(const qcj_rank *r, uint32_t x)
{
    uint32_t v = r->chunk[0][0][x & 255u];
    int below = __builtin_popcount(x & 255u);
    v += r->chunk[1][below][(x >> 8) & 255u];
    below += __builtin_popcount((x >> 8) & 255u);
    v += r->chunk[2][below][(x >> 16) & 255u];
    below += __builtin_popcount((x >> 16) & 255u);
    return v + r->chunk[3][below][x >> 24];
}

/* A growable array whose contents survive growth (qcj_buffer does not). */
typedef struct qcj_vec {
    void *p;
    size_t bytes;
} qcj_vec;

/* Makes room for `bytes`, keeping the contents; NULL when out of memory. */
void *qcj_vec_reserve(qcj_vec *v, size_t bytes);

/* The placements of one band (one queen in each of its rows, no two
 * attacking, columns among a side's), sorted by the colex rank of their
 * squeezed column set: offsets[rank]..offsets[rank+1]. */
typedef struct qcj_band {
    int rows;
    uint32_t *offsets;
    uint64_t *inner;      /* inner_sig of the placement's queens, ORed  */
    uint64_t *border;     /* cell_sig (border signature), ORed          */
    qcj_vec mem_offsets, mem_inner, mem_border;
} qcj_band;

/* One side of a unit: the band placements its halves are built from. */
typedef struct qcj_side {
    uint32_t pattern;     /* the side's columns inside M               */
    int t;                /* squeezed columns: n-m+|pattern|           */
    qcj_band band[2];     /* first (upper) and second (lower) band     */
} qcj_side;

/* Builds s's bands for the top (bottom = 0) or the bottom half, columns
 * outside M and `pattern`; the two bands' own scratch is `tmp`.  Adds the
 * queens placed to *placed.  Returns 0; -1 when out of memory or the rank
 * tables would be too large; -2 when *stop (if not NULL) rose meanwhile. */
int qcj_side_build(const qcj_geometry *g, const qcj_rank *r, int bottom, uint32_t pattern,
                   qcj_side *s, qcj_vec tmp[3], const int *stop, uint64_t *placed);
void qcj_side_free(qcj_side *s);

/* The splits of a half's h squeezed columns between its bands: every set
 * of `first_rows` of h bits, in increasing order (first_rows <= h <= 16). */
typedef struct qcj_splits {
    uint32_t *subset;
    size_t count;
} qcj_splits;

int qcj_splits_init(qcj_splits *sp, int h, int first_rows);
void qcj_splits_free(qcj_splits *sp);

/* Writes to out the border signature of every half of side s whose
 * squeezed column set is `set` (h columns) and that uses none of the border
 * diagonals in `avoid` (odd N: the middle queen's): each pair of band
 * placements, first band on a subset of `set` (sp) and second band on the
 * rest, that shares no crossing diagonal.  Returns how many, or SIZE_MAX
 * when out of memory; adds the pairs of band placements tested to
 * *tested. */
size_t qcj_halves_of(const qcj_rank *r, const qcj_splits *sp, const qcj_side *s, uint32_t set,
                     uint64_t avoid, qcj_vec *out, uint64_t *tested);

/* ---- the hot loop (join_pairs.c) ------------------------------------ */

/* Pairs (a in tops, b in bottoms) with (a & b) == 0. */
uint64_t qcj_count_disjoint32(const uint32_t *tops, size_t nt,
                              const uint32_t *bottoms, size_t nb);
uint64_t qcj_count_disjoint64(const uint64_t *tops, size_t nt,
                              const uint64_t *bottoms, size_t nb);

/* The sieve and the hot loop together: the halves of one column set on
 * each side sorted into 2^key_bits groups by their key diagonals (group g
 * at off[g]..off[g+1]); counts the pairs (top, bottom) with (a & b) == 0
 * over the group pairs whose keys share nothing, bottom group a subset of
 * ~(top group | extra).  Adds the pairs tested to *tested. */
uint64_t qcj_join_groups32(const uint32_t *toff, const uint32_t *tops, const uint32_t *boff,
                           const uint32_t *bottoms, int key_bits, uint32_t extra, uint64_t *tested);
uint64_t qcj_join_groups64(const uint32_t *toff, const uint64_t *tops, const uint32_t *boff,
                           const uint64_t *bottoms, int key_bits, uint32_t extra, uint64_t *tested);

/* ---- symmetry (join_symmetry.c) ------------------------------------- */

/* The columns of set s reflected left-right on an n-board. */
uint32_t qcj_mirror(uint32_t s, int n);

/* Whether pattern q (a subset of the mirror-symmetric column block m) is
 * the smallest of its images under mirror and, when flip is set, under
 * complement within m (the top-bottom flip of an even board). */
int qcj_pattern_canonical(uint32_t q, uint32_t m, int n, int flip);

/* The weight of top column set s in the unit of pattern q: 0 when another
 * set of the same unit stands for s (an image of s with the same pattern
 * and a smaller value), otherwise the number of distinct images of s, all
 * of which have as many solutions as s. */
int qcj_set_weight(uint32_t s, uint32_t q, uint32_t m, int n, int flip);

/* Odd N: the weight of the solutions with top column set s, middle queen
 * in column c and bottom column set ~s\{c}, over the group {mirror, flip}
 * acting on (top set, c, bottom set); 0 unless (s & m, s, c) is the
 * smallest of its images' (pattern, top set, c). */
int qcj_triple_weight(uint32_t s, int c, uint32_t m, int n);

/* ---- working memory (join_scratch.c) -------------------------------- */

/* One unit's working memory: [0] top side, [1] bottom side. */
typedef struct qcj_scratch {
    qcj_side side[2];
    qcj_vec band_tmp[3];      /* band placements before sorting          */
    qcj_vec raw[2];           /* halves of one column set, before grouping */
    qcj_vec low[2];           /* ... grouped: their ANDed parts            */
    qcj_vec off[2];           /* ... and the group offsets                 */
    qcj_vec spared, spared_off;   /* odd N: the tops sparing the middle queen */
} qcj_scratch;

#define QCJ_POOL_SLOTS 256
typedef struct qcj_pool {
    atomic_flag lock;
    int count;
    qcj_scratch *slot[QCJ_POOL_SLOTS];
} qcj_pool;

/* A scratch set from the pool, or a new empty one (NULL: out of memory). */
qcj_scratch *qcj_pool_take(qcj_pool *pool);
/* Gives s back (emptied lists, buffers kept). */
void qcj_pool_give(qcj_pool *pool, qcj_scratch *s);
/* Frees every set in the pool. */
void qcj_pool_clear(qcj_pool *pool);

#endif
