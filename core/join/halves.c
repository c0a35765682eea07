/*
 * join_half.c — builds the join engine's half placements: for one column
 * set at a time, every conflict-free way to put one queen in each row of a
 * half using exactly those columns.
 *
 * A half is not searched row by row (that costs a mispredicted branch or
 * two per queen placed, and the upper rows would be walked again for every
 * column set).  It is itself a join, of its two bands (join.h):
 *   1. per unit side, each band's placements are enumerated once
 *      (qcj_side_build) and sorted by the colex rank of their column set;
 *   2. the halves on set S are the pairs (first band on X, second band on
 *      S\X) over the splits X of S, whose crossing diagonals are disjoint
 *      (qcj_halves_of).  The bands are short (h/2 rows), so their lists
 *      per column set are short and the pairs are tested a vector at a
 *      time.
 * Tricks, named where they are used:
 *   [squeezed columns] column sets are kept over the t columns a side may
 *                      use, so ranks and tables stay small;
 *   [rank by bytes]    the colex rank of a set is four table lookups;
 *   [split by deposit] the subsets of S of one size are the subsets of
 *                      h bits deposited onto S's bits (PDEP);
 *   [compress-store]   AVX-512 tests 8 pairs at once and packs the border
 *                      signatures of those that fit into the output;
 *   [short lists held] a list of up to 16 stays in two registers while the
 *                      other list's entries are tested against it;
 *   [last row at once] a band's last row is written out in one loop.
 */
#include <stdlib.h>
#include <string.h>

#if defined(__BMI2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "join.h"

/* ---- squeezed columns and their ranks -------------------------------- */

/* [split by deposit] bits of x moved to the set bits of mask, in order. */
static inline uint32_t deposit(uint32_t x, uint32_t mask)
{
#if defined(__BMI2__)
    return _pdep_u32(x, mask);
#else
    uint32_t r = 0;
    for (uint32_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & bit)
            r |= mask & -mask;
    return r;
#endif
}

/* The inverse: the bits of x at mask's set bits, packed. */
static inline uint32_t extract(uint32_t x, uint32_t mask)
{
#if defined(__BMI2__)
    return _pext_u32(x, mask);
#else
    uint32_t r = 0;
    for (uint32_t bit = 1; mask; mask &= mask - 1, bit <<= 1)
        if (x & mask & -mask)
            r |= bit;
    return r;
#endif
}

uint32_t qcj_squeeze(const qcj_geometry *g, uint32_t pattern, uint32_t cols)
{
    const int m = g->unit_hi - g->unit_lo;
    const uint32_t block = (uint32_t)(((1ull << m) - 1) << g->unit_lo);
    return qcj_colkey(g, cols & ~block) | extract(cols & block, pattern) << (g->n - m);
}

void qcj_rank_init(qcj_rank *r)
{
    memset(r, 0, sizeof *r);
    for (int a = 0; a <= 32; a++) {
        r->binom[a][0] = 1;
        for (int b = 1; b <= 16 && b <= a; b++)
            r->binom[a][b] = r->binom[a - 1][b - 1] + (b <= a - 1 ? r->binom[a - 1][b] : 0);
    }
    /* [rank by bytes] chunk[i][j][v]: the part of the rank that byte i of a
     * set contributes when it holds v and j columns lie below it */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j <= 16; j++)
            for (int v = 0; v < 256; v++) {
                uint32_t sum = 0;
                int index = j;
                for (int b = 0; b < 8; b++)
                    if (v >> b & 1) {
                        index++;
                        if (index <= 16)
                            sum += r->binom[8 * i + b][index];
                    }
                r->chunk[i][j][v] = sum;
            }
}

void *qcj_vec_reserve(qcj_vec *v, size_t bytes)
{
    if (bytes > v->bytes) {
        size_t want = v->bytes * 2 > bytes ? v->bytes * 2 : bytes;
        void *p = realloc(v->p, want);
        if (!p)
            return NULL;
        v->p = p;
        v->bytes = want;
    }
    return v->p;
}

/* ---- bands ----------------------------------------------------------- */

/* The largest rank table a band may have (entries): keeps a unit's memory
 * bounded whatever N; the plan's split stays far below it. */
#define QCJ_RANKS_MAX ((uint32_t)1 << 26)

typedef struct band_out {
    qcj_vec *tmp;          /* [0] squeezed sets, [1] inner, [2] border */
    size_t len;
    int failed;
    int stopped;           /* the stop flag rose during the walk */
    const int *stop;       /* the thread's stop flag, or NULL */
} band_out;

/* [last row at once] appends the placements finishing with a queen on each
 * square of `free` in row r. */
static void emit_row(band_out *o, const qcj_geometry *g, int r, const uint32_t *squeezed_of,
                     uint32_t free, uint32_t sq, uint64_t inner, uint64_t border)
{
    size_t more = o->len + (size_t)__builtin_popcount(free);
    uint32_t *sets = qcj_vec_reserve(&o->tmp[0], more * sizeof *sets);
    uint64_t *in = qcj_vec_reserve(&o->tmp[1], more * sizeof *in);
    uint64_t *bo = qcj_vec_reserve(&o->tmp[2], more * sizeof *bo);
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

/* Every placement of rows [r0, r1) on the columns `allowed`, into o (a
 * depth-first walk with the usual column and diagonal masks). */
static void band_walk(band_out *o, const qcj_geometry *g, int r0, int r1, uint32_t allowed,
                      const uint32_t *squeezed_of, uint64_t *placed)
{
    if (r0 == r1) {                     /* no rows: one empty placement */
        uint32_t *sets = qcj_vec_reserve(&o->tmp[0], (o->len + 1) * sizeof *sets);
        uint64_t *in = qcj_vec_reserve(&o->tmp[1], (o->len + 1) * sizeof *in);
        uint64_t *bo = qcj_vec_reserve(&o->tmp[2], (o->len + 1) * sizeof *bo);
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
    uint64_t nodes = 0;
    int d = 0;
    const int last = r1 - r0 - 1;
    cols[0] = dl[0] = dr[0] = sq[0] = 0;
    inner[0] = border[0] = 0;
    todo[0] = allowed;
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
        d++;
        todo[d] = allowed & ~(cols[d] | dl[d] | dr[d]);
    }
    *placed += nodes;
}

/* Enumerates the band of rows [r0, r1) and sorts it by rank into b. */
static int band_build(const qcj_geometry *g, const qcj_rank *r, int r0, int r1, uint32_t allowed,
                      const uint32_t *squeezed_of, int t, qcj_band *b, qcj_vec tmp[3],
                      const int *stop, uint64_t *placed)
{
    const int rows = r1 - r0;
    b->rows = rows;
    if (rows > 16 || t > 32 || r->binom[t][rows] >= QCJ_RANKS_MAX)
        return -1;
    const uint32_t ranks = r->binom[t][rows];
    band_out o = {tmp, 0, 0, 0, stop};
    band_walk(&o, g, r0, r1, allowed, squeezed_of, placed);
    if (o.stopped)
        return -2;
    if (o.failed || o.len >= UINT32_MAX)
        return -1;
    const size_t len = o.len;
    uint32_t *sets = tmp[0].p;
    const uint64_t *in = tmp[1].p, *bo = tmp[2].p;
    b->offsets = qcj_vec_reserve(&b->mem_offsets, ((size_t)ranks + 1) * sizeof *b->offsets);
    b->inner = qcj_vec_reserve(&b->mem_inner, (len ? len : 1) * sizeof *b->inner);
    b->border = qcj_vec_reserve(&b->mem_border, (len ? len : 1) * sizeof *b->border);
    if (!b->offsets || !b->inner || !b->border)
        return -1;
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
    return 0;
}

int qcj_side_build(const qcj_geometry *g, const qcj_rank *r, int bottom, uint32_t pattern,
                   qcj_side *s, qcj_vec tmp[3], const int *stop, uint64_t *placed)
{
    const int n = g->n, m = g->unit_hi - g->unit_lo;
    const uint32_t block = (uint32_t)(((1ull << m) - 1) << g->unit_lo);
    const uint32_t full = n >= 32 ? 0xffffffffu : (1u << n) - 1u;
    const uint32_t allowed = (full & ~block) | pattern;
    s->pattern = pattern;
    s->t = n - m + __builtin_popcount(pattern);
    /* [squeezed columns] the squeezed bit of each column */
    uint32_t squeezed_of[32];
    for (int c = 0; c < 32; c++)
        squeezed_of[c] = c < n && (allowed >> c & 1u) ? qcj_squeeze(g, pattern, 1u << c) : 0;
    const int r0 = bottom ? g->b0 : 0, split = g->split[bottom], r1 = bottom ? n : g->h;
    int rc = band_build(g, r, r0, split, allowed, squeezed_of, s->t, &s->band[0], tmp, stop, placed);
    if (rc != 0)
        return rc;
    return band_build(g, r, split, r1, allowed, squeezed_of, s->t, &s->band[1], tmp, stop, placed);
}

void qcj_side_free(qcj_side *s)
{
    for (int i = 0; i < 2; i++) {
        free(s->band[i].mem_offsets.p);
        free(s->band[i].mem_inner.p);
        free(s->band[i].mem_border.p);
        memset(&s->band[i], 0, sizeof s->band[i]);
    }
}

int qcj_splits_init(qcj_splits *sp, int h, int first_rows)
{
    sp->count = 0;
    sp->subset = malloc(((size_t)1 << h) * sizeof *sp->subset);
    if (!sp->subset)
        return -1;
    for (uint32_t x = 0; x < 1u << h; x++)
        if (__builtin_popcount(x) == first_rows)
            sp->subset[sp->count++] = x;
    return 0;
}

void qcj_splits_free(qcj_splits *sp)
{
    free(sp->subset);
    sp->subset = NULL;
    sp->count = 0;
}

/* ---- halves of one column set ----------------------------------------- */

/* The border signatures (bo | border[j]) of the second-list entries j with
 * (in & inner[j]) == 0 and (border[j] & avoid) == 0, written to out;
 * returns how many.  out has room for len + 8 entries (the vector version
 * stores whole vectors). */
static inline size_t pair_one(uint64_t in, uint64_t bo, const uint64_t *inner,
                              const uint64_t *border, size_t len, uint64_t avoid, uint64_t *out)
{
    size_t o = 0;
#if defined(__AVX512F__)
    const __m512i vin = _mm512_set1_epi64((long long)in), vbo = _mm512_set1_epi64((long long)bo);
    const __m512i vavoid = _mm512_set1_epi64((long long)avoid);
    for (size_t j = 0; j < len; j += 8) {
        const __mmask8 live = len - j >= 8 ? 0xff : (__mmask8)((1u << (len - j)) - 1u);
        const __m512i w = _mm512_maskz_loadu_epi64(live, inner + j);
        const __mmask8 crossing_ok = _mm512_mask_testn_epi64_mask(live, vin, w);
        const __m512i b = _mm512_maskz_loadu_epi64(crossing_ok, border + j);
        const __mmask8 fit = _mm512_mask_testn_epi64_mask(crossing_ok, b, vavoid);
        /* [compress-store] packed in a register, stored whole (a masked
         * compress straight to memory is slow on some cores) */
        _mm512_storeu_si512(out + o, _mm512_maskz_compress_epi64(fit, _mm512_or_si512(b, vbo)));
        o += (size_t)__builtin_popcount(fit);
    }
#else
    for (size_t j = 0; j < len; j++) {
        out[o] = bo | border[j];          /* written always, kept if it fits */
        o += ((in & inner[j]) | (border[j] & avoid)) == 0;
    }
#endif
    return o;
}

size_t qcj_halves_of(const qcj_rank *r, const qcj_splits *sp, const qcj_side *s, uint32_t set,
                     uint64_t avoid, qcj_vec *out, uint64_t *tested)
{
    const qcj_band *b0 = &s->band[0], *b1 = &s->band[1];
    size_t len = 0;
    uint64_t pairs = 0;
    for (size_t i = 0; i < sp->count; i++) {
        const uint32_t x = deposit(sp->subset[i], set);      /* [split by deposit] */
        const uint32_t k0 = qcj_rank_of(r, x), k1 = qcj_rank_of(r, set ^ x);
        const uint32_t lo0 = b0->offsets[k0], n0 = b0->offsets[k0 + 1] - lo0;
        const uint32_t lo1 = b1->offsets[k1], n1 = b1->offsets[k1 + 1] - lo1;
        if (n0 == 0 || n1 == 0)
            continue;
        uint64_t *o = qcj_vec_reserve(out, (len + (size_t)n0 * n1 + 16) * sizeof *o);
        if (!o)
            return SIZE_MAX;
        pairs += (uint64_t)n0 * n1;
        /* the shorter list one entry at a time, the longer in the vectors */
        const uint64_t *in_a = b0->inner + lo0, *bo_a = b0->border + lo0;
        const uint64_t *in_b = b1->inner + lo1, *bo_b = b1->border + lo1;
        uint32_t na = n0, nb = n1;
        if (na > nb) {
            const uint64_t *t = in_a;
            in_a = in_b;
            in_b = t;
            t = bo_a;
            bo_a = bo_b;
            bo_b = t;
            na = n1;
            nb = n0;
        }
#if defined(__AVX512F__)
        if (nb <= 16) {
            /* [short lists held] the vector side, at most two vectors, is
             * loaded and spared once for the whole split; each entry of the
             * other side is then one test and one compress per vector */
            const __mmask8 live0 = nb >= 8 ? 0xff : (__mmask8)((1u << nb) - 1u);
            const __mmask8 live1 = nb >= 16 ? 0xff : nb > 8 ? (__mmask8)((1u << (nb - 8)) - 1u) : 0;
            const __m512i vavoid = _mm512_set1_epi64((long long)avoid);
            const __m512i w0 = _mm512_maskz_loadu_epi64(live0, in_b);
            const __m512i w1 = _mm512_maskz_loadu_epi64(live1, in_b + 8);
            const __m512i v0 = _mm512_maskz_loadu_epi64(live0, bo_b);
            const __m512i v1 = _mm512_maskz_loadu_epi64(live1, bo_b + 8);
            const __mmask8 ok0 = _mm512_mask_testn_epi64_mask(live0, v0, vavoid);
            const __mmask8 ok1 = _mm512_mask_testn_epi64_mask(live1, v1, vavoid);
            for (uint32_t e = 0; e < na; e++) {
                if (bo_a[e] & avoid)
                    continue;
                const __m512i vin = _mm512_set1_epi64((long long)in_a[e]);
                const __m512i vbo = _mm512_set1_epi64((long long)bo_a[e]);
                const __mmask8 fit0 = _mm512_mask_testn_epi64_mask(ok0, vin, w0);
                const __mmask8 fit1 = _mm512_mask_testn_epi64_mask(ok1, vin, w1);
                uint64_t *dst = o + len;
                _mm512_storeu_si512(dst, _mm512_maskz_compress_epi64(fit0, _mm512_or_si512(v0, vbo)));
                dst += __builtin_popcount(fit0);
                _mm512_storeu_si512(dst, _mm512_maskz_compress_epi64(fit1, _mm512_or_si512(v1, vbo)));
                len += (size_t)__builtin_popcount(fit0) + (size_t)__builtin_popcount(fit1);
            }
            continue;
        }
#endif
        for (uint32_t e = 0; e < na; e++)
            if ((bo_a[e] & avoid) == 0)
                len += pair_one(in_a[e], bo_a[e], in_b, bo_b, nb, avoid, o + len);
    }
    *tested += pairs;
    return len;
}
