/*
 * join_half.c — enumerates the half placements of the join engine: every
 * conflict-free way to put one queen in each of a band of rows, restricted
 * to the placements whose columns inside the unit block M are exactly a
 * given pattern.  Each placement is stored as (column key, border
 * signature); see join.h.
 *
 * Depth-first over the rows with an explicit stack and the usual three
 * bitmasks (columns and the two diagonals shifted to the next row).  Tricks:
 *   [pattern filter]   columns of M outside the pattern are never tried;
 *   [pattern deadline] when the rows left equal the pattern columns still
 *                      unused, a row may only take one of those (and a
 *                      branch with fewer rows than that is dead);
 *   [last row at once] the last row's free squares are written out in one
 *                      loop, with no push/pop per placement;
 *   [last two rows at once] the row before it is looped over in place too.
 */
#include <stdlib.h>

#include "join.h"

/* Makes room for `more` entries; returns 0, or -1 (and marks the list
 * failed) when memory runs out. */
static int reserve(qcj_halves *l, size_t more)
{
    if (l->failed)
        return -1;
    if (l->len + more <= l->cap)
        return 0;
    size_t cap = l->cap ? l->cap : 4096;
    while (cap < l->len + more)
        cap *= 2;
    uint32_t *k = realloc(l->colkey, cap * sizeof *k);
    if (k)
        l->colkey = k;
    uint64_t *s = realloc(l->sig, cap * sizeof *s);
    if (s)
        l->sig = s;
    if (!k || !s) {
        l->failed = 1;
        return -1;
    }
    l->cap = cap;
    return 0;
}

/* [last row at once]: writes the placements that put the last queen on
 * each square of `free`, given the rows above (cols, key, sig). */
static inline int emit_row(qcj_halves *out, const uint64_t *row_sig,
                           const uint32_t *colkey_of, uint32_t free, uint32_t cols,
                           uint32_t key, uint64_t sig, uint32_t block,
                           uint32_t min_pattern)
{
    if (reserve(out, (size_t)__builtin_popcount(free)) != 0)
        return -1;
    size_t at = out->len;
    uint32_t *keys = out->colkey;
    uint64_t *sigs = out->sig;
    do {
        int c = __builtin_ctz(free);
        free &= free - 1;
        if (((cols | 1u << c) & block) < min_pattern)
            continue;             /* counted from its flip image */
        keys[at] = key | colkey_of[c];
        sigs[at] = sig | row_sig[c];
        at++;
    } while (free);
    out->len = at;
    return 0;
}

void qcj_halves_enumerate(const qcj_geometry *g, int r0, int r1, uint32_t pattern,
                          int slack, uint32_t min_pattern, qcj_halves *out,
                          uint64_t *placed)
{
    const int rows = r1 - r0;
    uint32_t block = 0;   /* M */
    for (int c = g->unit_lo; c < g->unit_hi; c++)
        block |= 1u << c;
    const uint32_t full = g->n >= 32 ? 0xffffffffu : (1u << g->n) - 1u;
    const uint32_t allowed = (full & ~block) | pattern;     /* [pattern filter] */
    if (rows == 0) {
        if (__builtin_popcount(pattern) <= slack && min_pattern == 0 && reserve(out, 1) == 0) {
            out->colkey[out->len] = 0;
            out->sig[out->len++] = 0;
        }
        return;
    }
    /* The column key of a single column: keys add up.  Columns inside M
     * go above the n-m key bits, so the key tells the pattern too. */
    uint32_t colkey_of[32];
    for (int c = 0; c < 32; c++)
        colkey_of[c] = c >= g->n ? 0
            : (block >> c & 1u) ? 1u << (g->n - (g->unit_hi - g->unit_lo) + c - g->unit_lo)
            : qcj_colkey(g, 1u << c);

    /* Level d: row r0+d, its masks, the part of the key and signature of
     * the rows above, and the squares of the row still to try. */
    uint32_t cols[32], dl[32], dr[32], key[32], todo[32];
    uint64_t sig[32];
    uint64_t nodes = 0;
    int d = 0;
    cols[0] = dl[0] = dr[0] = key[0] = 0;
    sig[0] = 0;
    /* the free squares of level d's row, [pattern deadline] applied */
#define ROW_FREE(d) ({                                                     \
        uint32_t f_ = allowed & ~(cols[d] | dl[d] | dr[d]);                 \
        uint32_t missing_ = pattern & ~cols[d];                            \
        int need_ = __builtin_popcount(missing_) - slack, left_ = rows - (d);\
        need_ > left_ ? 0u : need_ == left_ ? f_ & missing_ : f_; })
    todo[0] = ROW_FREE(0);
    const int last = rows - 1;
    for (;;) {
        uint32_t t = todo[d];
        if (t == 0) {
            if (--d < 0)
                break;
            continue;
        }
        if (d == last) {            /* only when the band is one row */
            todo[d] = 0;
            nodes += (uint64_t)__builtin_popcount(t);
            if (emit_row(out, g->cell_sig[r0 + d], colkey_of, t, cols[d],
                         key[d], sig[d], block, min_pattern) != 0)
                break;
            continue;
        }
        if (d == last - 1) {
            /* [last two rows at once]: each square of this row, then its
             * child row's free squares written out, no push or pop */
            todo[d] = 0;
            const uint64_t *here_sig = g->cell_sig[r0 + d];
            const uint64_t *next_sig = g->cell_sig[r0 + d + 1];
            int failed = 0;
            do {
                uint32_t bit = t & -t;
                int c = __builtin_ctz(t);
                t &= t - 1;
                nodes++;
                uint32_t cl = cols[d] | bit;
                uint32_t f = allowed & ~(cl | (dl[d] | bit) << 1 | (dr[d] | bit) >> 1);
                uint32_t missing = pattern & ~cl;
                int need = __builtin_popcount(missing) - slack;   /* [pattern deadline] */
                f = need > 1 ? 0u : need == 1 ? f & missing : f;
                if (f == 0)
                    continue;
                nodes += (uint64_t)__builtin_popcount(f);
                if (emit_row(out, next_sig, colkey_of, f, cl, key[d] | colkey_of[c],
                             sig[d] | here_sig[c], block, min_pattern) != 0) {
                    failed = 1;
                    break;
                }
            } while (t);
            if (failed)
                break;
            continue;
        }
        uint32_t bit = t & -t;
        int c = __builtin_ctz(t);
        todo[d] = t & (t - 1);
        nodes++;
        cols[d + 1] = cols[d] | bit;
        dl[d + 1] = (dl[d] | bit) << 1;
        dr[d + 1] = (dr[d] | bit) >> 1;
        key[d + 1] = key[d] | colkey_of[c];
        sig[d + 1] = sig[d] | g->cell_sig[r0 + d][c];
        d++;
        todo[d] = ROW_FREE(d);
    }
#undef ROW_FREE
    *placed += nodes;
}

void qcj_halves_free(qcj_halves *list)
{
    free(list->colkey);
    free(list->sig);
    list->colkey = NULL;
    list->sig = NULL;
    list->len = list->cap = 0;
}
