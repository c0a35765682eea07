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
 * Files: join_half.c enumerates half placements (grouped by column set),
 * join_pairs.c counts disjoint signature pairs (the hot loop), join_symmetry.c
 * the mirror/flip orbits and their weights, join.c the engine and its units.
 */
#ifndef QC_JOIN_H
#define QC_JOIN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the board geometry of one plan (join.c) ------------------------ */

typedef struct qcj_geometry {
    int n;            /* board size                                        */
    int h;            /* rows in each half: top 0..h-1, bottom b0..n-1     */
    int b0;           /* first bottom row, n-h (h+1 past a middle row)      */
    int unit_lo;      /* unit columns M = [unit_lo, unit_hi): a unit fixes */
    int unit_hi;      /*   which of them the top half uses (its pattern)   */
    int key_bits;     /* k: border diagonals sorted into groups, not ANDed */
    int key_shift;    /* signature bit of the first group-key diagonal     */
    int wide;         /* 1: the ANDed part needs 64 bits, 0: it fits in 32 */
    uint64_t cell_sig[32][32];  /* [row][col]: the border diagonals of a queen */
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

/* A list of half placements: column key (the columns outside M in bits
 * 0..n-m-1, those inside M above them) and border signature of each. */
typedef struct qcj_halves {
    uint32_t *colkey;
    uint64_t *sig;
    size_t len, cap;
    int failed;       /* an allocation failed: the list is incomplete */
} qcj_halves;

/* Appends to out every conflict-free placement of one queen in each row
 * r0..r1-1 whose columns inside M are `pattern` (a subset of M) less at
 * most `slack` of them, and (as a number) at least min_pattern.  Adds the
 * queens placed to *placed. */
void qcj_halves_enumerate(const qcj_geometry *g, int r0, int r1, uint32_t pattern,
                          int slack, uint32_t min_pattern, qcj_halves *out,
                          uint64_t *placed);
void qcj_halves_free(qcj_halves *list);

/* ---- the hot loop (join_pairs.c) ------------------------------------ */

/* Pairs (a in tops, b in bottoms) with (a & b) == 0. */
uint64_t qcj_count_disjoint32(const uint32_t *tops, size_t nt,
                              const uint32_t *bottoms, size_t nb);
uint64_t qcj_count_disjoint64(const uint64_t *tops, size_t nt,
                              const uint64_t *bottoms, size_t nb);

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

/* A buffer that only grows; its contents do not survive a growth. */
typedef struct qcj_buffer {
    void *p;
    size_t bytes;
} qcj_buffer;

/* Returns b's memory, at least `bytes` of it; NULL when out of memory. */
void *qcj_buffer_get(qcj_buffer *b, size_t bytes);

enum {
    QCJ_BUF_TOP_OFFSETS, QCJ_BUF_BOTTOM_OFFSETS, QCJ_BUF_TOP_LOW, QCJ_BUF_BOTTOM_LOW,
    QCJ_BUF_FILL, QCJ_BUF_IDS, QCJ_BUF_FILTER_TOP, QCJ_BUF_FILTER_TOP_OFF,
    QCJ_BUFFERS
};

/* One unit's working memory. */
typedef struct qcj_scratch {
    qcj_halves tops, bottoms;
    qcj_buffer buffer[QCJ_BUFFERS];
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
