/* SPDX-License-Identifier: MIT */
/*
 * bands.c — enumerates the band placements of one side of a join unit
 * (bands.h) and sorts them by the colex rank of their column set, so that
 * the halves of any column set can be combined from them (halves.c).
 *
 * A half is not searched row by row (that costs a mispredicted branch or
 * two per queen placed, and the upper rows would be walked again for every
 * column set): per unit side, each band's placements are enumerated once,
 * here, and the halves on each column set are paired from them later.
 * Tricks, named where they are used:
 *   [squeezed columns] column sets are kept over the t columns a side may
 *                      use, so ranks and tables stay small (geometry.h);
 *   [last row at once] a band's last row is written out in one loop;
 *   [in place]         a large band (N >= QCJ_LARGE_FROM_N) is
 *                      walked twice, first to count each rank's placements,
 *                      then to write each where it belongs, so that no
 *                      unsorted copy (20 bytes a placement) is ever held;
 *   [outside quota]    a half of a side with pattern p uses h-|p| columns
 *                      outside M (one more for odd N's bottom, whose middle
 *                      queen may take one of p's), so a band placement with
 *                      more is never paired: from the same N, the walk
 *                      leaves them out (a side all but inside M then lists
 *                      a fraction of its placements);
 *   [own lists]        a unit may list only the columns its halves use
 *                      (unit.c), still ranked over all the side's;
 *   [stop check]       the walk reads the thread's stop flag.
 */
#include <stdlib.h>
#include <string.h>

#include "bands.h"
#include "config.h"
#include "qcount.h"

typedef struct band_out {
    qcj_vec *tmp;          /* [0] squeezed sets, [1] inner, [2] border */
    /* [in place] set: the walk counts (placing 0) or places (1) the
     * placements into band by rank instead of appending them to tmp */
    const qcj_rank *rank;
    qcj_band *band;
    int placing;
    size_t len;
    int failed;
    int stopped;           /* the stop flag rose during the walk */
    const int *stop;       /* the thread's stop flag, or NULL */
} band_out;

/* The placements a band walk lists: a queen on each of rows [r0, r1), no
 * two attacking, on the columns `allowed`, at most `quota` of them on the
 * columns `outside` ([outside quota]). */
typedef struct band_rows {
    int r0, r1;                 /* the band's rows, r0 to r1 - 1          */
    uint32_t allowed;           /* the columns its queens may take        */
    uint32_t outside;           /* the columns outside M ...              */
    int quota;                  /* ... on which at most quota queens sit  */
    int t;                      /* the side's squeezed columns            */
    /* [squeezed columns] each column's squeezed bit, 0 off the side */
    uint32_t squeezed_of[32];
} band_rows;

/* [last row at once] appends the placements finishing with a queen on each
 * square of `free` in row r. */
static void emit_row(band_out *o, const qcj_geometry *g, int r, const uint32_t *squeezed_of,
                     uint32_t free, uint32_t sq, uint64_t inner, uint64_t border)
{
    if (o->rank) {                      /* [in place] */
        uint32_t *offsets = o->band->offsets;
        for (; free; free &= free - 1) {
            const int c = __builtin_ctz(free);
            const uint32_t k = qcj_rank_of(o->rank, sq | squeezed_of[c]);
            if (o->placing) {
                const uint32_t at = offsets[k + 1]++;
                o->band->inner[at] = inner | g->inner_sig[r][c];
                o->band->border[at] = border | g->cell_sig[r][c];
            } else {
                offsets[k + 1]++;
            }
            o->len++;
        }
        return;
    }
    size_t more = o->len + (size_t)__builtin_popcount(free);
    uint32_t *sets = qcj_vec_reserve(&o->tmp[0], more * sizeof *sets, o->len * sizeof *sets);
    uint64_t *in = qcj_vec_reserve(&o->tmp[1], more * sizeof *in, o->len * sizeof *in);
    uint64_t *bo = qcj_vec_reserve(&o->tmp[2], more * sizeof *bo, o->len * sizeof *bo);
    if (!sets || !in || !bo) {
        o->failed = 1;
        return;
    }
    size_t at = o->len;
    for (; free; free &= free - 1) {
        int c = __builtin_ctz(free);
        sets[at] = sq | squeezed_of[c];
        in[at] = inner | g->inner_sig[r][c];
        bo[at] = border | g->cell_sig[r][c];
        at++;
    }
    o->len = at;
}

/* Every placement w lists, into o (a depth-first walk with the usual
 * column and diagonal masks); the queens placed are added to *placed. */
static void band_walk(band_out *o, const qcj_geometry *g, const band_rows *w, uint64_t *placed)
{
    const int r0 = w->r0, r1 = w->r1, quota = w->quota;
    const uint32_t allowed = w->allowed, outside = w->outside;
    const uint32_t *squeezed_of = w->squeezed_of;
    if (r0 == r1 && o->rank) {          /* no rows: one empty placement */
        if (o->placing) {
            const uint32_t at = o->band->offsets[1]++;
            o->band->inner[at] = o->band->border[at] = 0;
        } else {
            o->band->offsets[1]++;
        }
        o->len++;
        return;
    }
    if (r0 == r1) {
        uint32_t *sets = qcj_vec_reserve(&o->tmp[0], (o->len + 1) * sizeof *sets, o->len * sizeof *sets);
        uint64_t *in = qcj_vec_reserve(&o->tmp[1], (o->len + 1) * sizeof *in, o->len * sizeof *in);
        uint64_t *bo = qcj_vec_reserve(&o->tmp[2], (o->len + 1) * sizeof *bo, o->len * sizeof *bo);
        if (!sets || !in || !bo) {
            o->failed = 1;
            return;
        }
        sets[o->len] = 0;
        in[o->len] = bo[o->len] = 0;
        o->len++;
        return;
    }
    uint32_t cols[32], dl[32], dr[32], todo[32], sq[32];
    uint64_t inner[32], border[32];
    int used[32];                       /* queens outside so far */
    uint64_t nodes = 0;
    int d = 0;
    const int last = r1 - r0 - 1;
    cols[0] = dl[0] = dr[0] = sq[0] = 0;
    inner[0] = border[0] = 0;
    used[0] = 0;
    todo[0] = quota > 0 ? allowed : allowed & ~outside;
    while (d >= 0 && !o->failed) {
        uint32_t t = todo[d];
        if (t == 0) {
            d--;
            continue;
        }
        if (d == last) {
            todo[d] = 0;
            nodes += (uint64_t)__builtin_popcount(t);
            emit_row(o, g, r0 + d, squeezed_of, t, sq[d], inner[d], border[d]);
            d--;
            continue;
        }
        /* [stop check] before each subtree of the top two rows: a band
         * of a large board (N >= 26) takes seconds to walk */
        if (d < 2 && o->stop && __atomic_load_n(o->stop, __ATOMIC_RELAXED)) {
            o->stopped = 1;
            break;
        }
        const uint32_t bit = t & -t;
        const int c = __builtin_ctz(t);
        todo[d] = t & (t - 1);
        nodes++;
        cols[d + 1] = cols[d] | bit;
        dl[d + 1] = (dl[d] | bit) << 1;
        dr[d + 1] = (dr[d] | bit) >> 1;
        sq[d + 1] = sq[d] | squeezed_of[c];
        inner[d + 1] = inner[d] | g->inner_sig[r0 + d][c];
        border[d + 1] = border[d] | g->cell_sig[r0 + d][c];
        used[d + 1] = used[d] + ((outside & bit) != 0);
        d++;
        /* [outside quota] */
        todo[d] = (used[d] < quota ? allowed : allowed & ~outside) & ~(cols[d] | dl[d] | dr[d]);
    }
    *placed += nodes;
}

/* [in place] Enumerates the band of w's rows into b, l->geo's large
 * bands, counting each rank's placements (ranks of them) on a first walk
 * and writing them on a second. */
static int band_build_in_place(const qcj_listing *l, const band_rows *w, uint32_t ranks,
                               qcj_band *b)
{
    b->offsets = qcj_vec_reserve(&b->mem_offsets, ((size_t)ranks + 1) * sizeof *b->offsets, 0);
    if (!b->offsets)
        return QC_ENOMEM;
    memset(b->offsets, 0, ((size_t)ranks + 1) * sizeof *b->offsets);
    band_out o = {.rank = l->rank, .band = b, .stop = l->stop};
    uint64_t walked = 0;
    band_walk(&o, l->geo, w, &walked);
    if (o.stopped)
        return QC_ESTOP;
    if (o.len >= UINT32_MAX)
        return QC_ENOMEM;
    const size_t len = o.len;
    b->inner = qcj_vec_reserve(&b->mem_inner, (len ? len : 1) * sizeof *b->inner, 0);
    b->border = qcj_vec_reserve(&b->mem_border, (len ? len : 1) * sizeof *b->border, 0);
    if (!b->inner || !b->border)
        return QC_ENOMEM;
    /* offsets[k+1] held rank k's count: prefix sums, then one place up,
     * make it rank k's start, the fill pointer of the placing walk, which
     * leaves it at rank k's end, rank k+1's start */
    for (uint32_t k = 1; k < ranks; k++)
        b->offsets[k + 1] += b->offsets[k];
    for (uint32_t k = ranks; k > 0; k--)
        b->offsets[k] = b->offsets[k - 1];
    b->offsets[0] = 0;
    o.placing = 1;
    o.len = 0;
    band_walk(&o, l->geo, w, &walked);
    if (o.stopped)
        return QC_ESTOP;
    *l->placed += walked / 2;           /* the work of one walk: as listed */
    return QC_OK;
}

/* Enumerates the band of w's rows and sorts it by rank into b. */
static int band_build(const qcj_listing *l, const band_rows *w, qcj_band *b)
{
    const qcj_rank *r = l->rank;
    qcj_vec *tmp = l->tmp;
    const int rows = w->r1 - w->r0, t = w->t;
    b->rows = rows;
    if (rows > 16 || t > 32 || r->binom[t][rows] >= QCJ_RANKS_MAX)
        return QC_ENOMEM;
    const uint32_t ranks = r->binom[t][rows];
    if (l->geo->bands_in_place)
        return band_build_in_place(l, w, ranks, b);
    band_out o = {.tmp = tmp, .stop = l->stop};
    band_walk(&o, l->geo, w, l->placed);
    if (o.stopped)
        return QC_ESTOP;
    if (o.failed || o.len >= UINT32_MAX)
        return QC_ENOMEM;
    const size_t len = o.len;
    uint32_t *sets = tmp[0].p;
    const uint64_t *in = tmp[1].p, *bo = tmp[2].p;
    b->offsets = qcj_vec_reserve(&b->mem_offsets, ((size_t)ranks + 1) * sizeof *b->offsets, 0);
    b->inner = qcj_vec_reserve(&b->mem_inner, (len ? len : 1) * sizeof *b->inner, 0);
    b->border = qcj_vec_reserve(&b->mem_border, (len ? len : 1) * sizeof *b->border, 0);
    if (!b->offsets || !b->inner || !b->border)
        return QC_ENOMEM;
    /* counting sort by rank: count, prefix sums, place (offsets[k+1] is
     * the fill pointer of rank k during the placing pass) */
    memset(b->offsets, 0, ((size_t)ranks + 1) * sizeof *b->offsets);
    for (size_t i = 0; i < len; i++) {
        sets[i] = qcj_rank_of(r, sets[i]);
        b->offsets[sets[i] + 1]++;
    }
    for (uint32_t k = 1; k < ranks; k++)
        b->offsets[k + 1] += b->offsets[k];
    for (uint32_t k = ranks; k > 0; k--)
        b->offsets[k] = b->offsets[k - 1];
    b->offsets[0] = 0;
    for (size_t i = 0; i < len; i++) {
        uint32_t at = b->offsets[sets[i] + 1]++;
        b->inner[at] = in[i];
        b->border[at] = bo[i];
    }
    return QC_OK;
}

#if QCJ_HALVES_TRANSPOSED
/* [transposed lists] b's inner signatures by bit, in b->transposed, with
 * transposed_words words for every 64 placements: inner bits 0..2n-3, then a
 * word of zeros that a lookup past the last bit finds (halves.c). */
static int band_transpose(const qcj_geometry *g, qcj_band *b, size_t len)
{
    const int words = 2 * g->n - 1;
    const size_t chunks = (len + 63) / 64;
    b->transposed_words = words;
    b->transposed = qcj_vec_reserve(&b->mem_transposed,
                                (chunks ? chunks : 1) * (size_t)words * sizeof *b->transposed, 0);
    if (!b->transposed)
        return QC_ENOMEM;
    for (size_t c = 0; c < chunks; c++) {
        /* the chunk's 64 signatures as a 64 by 64 bit matrix, transposed
         * by swapping ever smaller blocks across the diagonal: no branch
         * on the bits, no read of a word just written */
        uint64_t a[64];
        for (size_t i = 0; i < 64; i++)
            a[i] = 64 * c + i < len ? b->inner[64 * c + i] : 0;
        static const uint64_t masks[6] = {0x00000000ffffffffull, 0x0000ffff0000ffffull,
                                          0x00ff00ff00ff00ffull, 0x0f0f0f0f0f0f0f0full,
                                          0x3333333333333333ull, 0x5555555555555555ull};
        for (int st = 0; st < 6; st++) {
            const int j = 32 >> st;
            for (int k = 0; k < 64; k++)
                if (!(k & j)) {
                    const uint64_t t = ((a[k] >> j) ^ a[k + j]) & masks[st];
                    a[k] ^= t << j;
                    a[k + j] ^= t;
                }
        }
        uint64_t *pl = b->transposed + c * (size_t)words;
        for (int d = 0; d < words - 1; d++)
            pl[d] = a[d];
        pl[words - 1] = 0;
    }
    return QC_OK;
}

/* [transposed lists] The inner bits of each of b's len placements, 2 *
 * rows bytes a placement (a queen crosses the split on two diagonals at
 * most), padded with the index of the transposed word of zeros. */
static int band_bit_at(const qcj_geometry *g, qcj_band *b, size_t len)
{
    const int per = 2 * b->rows;
    const uint64_t past = (uint64_t)1 << (2 * g->n - 2);
    b->bit_at = qcj_vec_reserve(&b->mem_bit_at, (len ? len : 1) * (size_t)(per ? per : 1), 0);
    if (!b->bit_at)
        return QC_ENOMEM;
    for (size_t i = 0; i < len; i++) {
        uint8_t *at = b->bit_at + i * (size_t)per;
        uint64_t x = b->inner[i];
        for (int k = 0; k < per; k++) {     /* past the last bit: the zeros' */
            at[k] = (uint8_t)__builtin_ctzll(x | past);
            x &= x - 1;
        }
    }
    return QC_OK;
}
#endif

/* Band `band` of side s on the side's columns in `only` (qcj_side_build). */
static int side_band(const qcj_listing *l, int bottom, int band, uint32_t pattern, uint32_t only,
                     qcj_side *s)
{
    const qcj_geometry *g = l->geo;
    const int n = g->n;
    const uint32_t side_cols = (qck_full_mask(n) & ~qcj_centre(g)) | pattern;
    band_rows w;
    w.t = qcj_side_cols(g, pattern);
    /* [squeezed columns] the squeezed bit of each column, over all the
     * side's columns whatever `only` leaves out, so that ranks are the
     * same */
    for (int c = 0; c < 32; c++)
        w.squeezed_of[c] = c < n && (side_cols >> c & 1u) ? qcj_squeeze(g, pattern, 1u << c) : 0;
    w.allowed = side_cols & only;       /* [own lists] */
    const int split = g->split[bottom];
    w.r0 = band ? split : bottom ? g->b0 : 0;
    w.r1 = !band ? split : bottom ? n : g->h;
    /* [outside quota] with the large bands alone: below, every placement
     * is listed, and the work reported stays what it was */
    w.outside = qck_full_mask(n) & ~qcj_centre(g);
    w.quota = g->bands_pruned ? g->h - __builtin_popcount(pattern) + (bottom && n % 2)
                              : w.r1 - w.r0;
    qcj_band *b = &s->band[band];
    b->transposed = NULL;
    b->bit_at = NULL;
    int rc = band_build(l, &w, b);
#if QCJ_HALVES_TRANSPOSED
    /* [transposed lists] the band by the middle row (the longer lists)
     * transposed, for the halves' tests transposed */
    if (rc == QC_OK && g->halves_transposed) {
        const size_t len = b->offsets[l->rank->binom[w.t][b->rows]];
        rc = band == !bottom ? band_transpose(g, b, len) : band_bit_at(g, b, len);
    }
#endif
    return rc;
}

int qcj_side_build_band(const qcj_listing *l, int bottom, int band, uint32_t pattern, qcj_side *s)
{
    return side_band(l, bottom, band, pattern, UINT32_MAX, s);
}

int qcj_side_build(const qcj_listing *l, int bottom, uint32_t pattern, uint32_t only, qcj_side *s)
{
    s->pattern = pattern;
    s->t = qcj_side_cols(l->geo, pattern);
    int rc = side_band(l, bottom, 0, pattern, only, s);
    if (rc != QC_OK)
        return rc;
    return side_band(l, bottom, 1, pattern, only, s);
}

void qcj_side_free(qcj_side *s)
{
    for (int i = 0; i < 2; i++) {
        qcj_vec_free(&s->band[i].mem_offsets);
        qcj_vec_free(&s->band[i].mem_inner);
        qcj_vec_free(&s->band[i].mem_border);
        qcj_vec_free(&s->band[i].mem_transposed);
        qcj_vec_free(&s->band[i].mem_bit_at);
        memset(&s->band[i], 0, sizeof s->band[i]);
    }
}
