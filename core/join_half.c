/*
 * join_half.c — enumerates the half placements of the join engine: every
 * conflict-free way to put one queen in each of a band of rows, restricted
 * to the placements whose columns inside the unit block M are exactly a
 * given pattern.  Each placement is stored as (column key, border
 * signature); see join.h.
 *
 * Depth-first over the rows with the usual three bitmasks (columns and the
 * two diagonals shifted to the next row).  Tricks:
 *   [pattern filter]   columns of M outside the pattern are never tried;
 *   [pattern deadline] a branch stops as soon as the rows left are fewer
 *                      than the pattern columns still unused.
 */
#include <stdlib.h>

#include "join.h"

typedef struct walk {
    const qcj_geometry *g;
    int r1;
    uint32_t full, allowed, pattern;
    qcj_halves *out;
    uint64_t placed;
} walk;

static void push(qcj_halves *l, uint32_t colkey, uint64_t sig)
{
    if (l->failed)
        return;
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 4096;
        uint32_t *k = realloc(l->colkey, cap * sizeof *k);
        if (k)
            l->colkey = k;
        uint64_t *s = realloc(l->sig, cap * sizeof *s);
        if (s)
            l->sig = s;
        if (!k || !s) {
            l->failed = 1;
            return;
        }
        l->cap = cap;
    }
    l->colkey[l->len] = colkey;
    l->sig[l->len] = sig;
    l->len++;
}

static void walk_row(walk *w, int row, uint32_t cols, uint32_t dl, uint32_t dr, uint64_t sig)
{
    if (row == w->r1) {
        if ((cols & w->pattern) == w->pattern)
            push(w->out, qcj_colkey(w->g, cols), sig);
        return;
    }
    /* [pattern deadline] */
    if (__builtin_popcount(w->pattern & ~cols) > w->r1 - row)
        return;
    uint32_t free = w->allowed & ~(cols | dl | dr);   /* [pattern filter] */
    while (free) {
        uint32_t bit = free & -free;
        free &= free - 1;
        w->placed++;
        walk_row(w, row + 1, cols | bit, (dl | bit) << 1, (dr | bit) >> 1,
                 sig | w->g->cell_sig[row][__builtin_ctz(bit)]);
    }
}

void qcj_halves_enumerate(const qcj_geometry *g, int r0, int r1, uint32_t pattern,
                          qcj_halves *out, uint64_t *placed)
{
    uint32_t full = g->n >= 32 ? 0xffffffffu : (1u << g->n) - 1u;
    uint32_t block = 0;   /* M */
    for (int c = g->unit_lo; c < g->unit_hi; c++)
        block |= 1u << c;
    walk w = {
        .g = g, .r1 = r1, .full = full,
        .allowed = (full & ~block) | pattern, .pattern = pattern,
        .out = out, .placed = 0,
    };
    walk_row(&w, r0, 0, 0, 0, 0);
    *placed += w.placed;
}

void qcj_halves_free(qcj_halves *list)
{
    free(list->colkey);
    free(list->sig);
    list->colkey = NULL;
    list->sig = NULL;
    list->len = list->cap = 0;
}
