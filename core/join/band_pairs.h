/* SPDX-License-Identifier: MIT */
/*
 * band_pairs.h — the pair tests of two band lists, a vector at a time:
 * which pairs of placements (one of each band's list) share no crossing
 * diagonal, their border signatures written out as halves.  Included by
 * halves.c alone, which is built once per ISA level: static functions,
 * so that each level's compiler sees them with their caller.  Tricks,
 * named where they are used:
 *   [compress-store]   AVX-512 tests 8 pairs at once and packs the border
 *                      signatures of those that fit into the output;
 *   [permute-store]    AVX2, which has no compress, tests 4 pairs at once
 *                      and packs those that fit by a permutation chosen by
 *                      their mask (a table of 16);
 *   [short lists held] a list of up to 16 stays in two registers while the
 *                      other list's entries are tested against it;
 *   [fits first]       ... all of whose fits are found before any is
 *                      stored, so the stores do not wait on each other;
 *   [lists held]       AVX-512 keeps a list of up to 64 in registers
 *                      (eight vectors) the same way, AVX2 up to 16 (four
 *                      vectors, its short lists too),
 *                      so each entry of the other list is a test and a
 *                      packed store a vector;
 *   [guard bit]        an entry of the tested list that attacks the middle
 *                      queen gets bit 63 in its crossing diagonals, which
 *                      no placement has (geometry.h), in a copy of the
 *                      list a chunk at a time, and every entry of the
 *                      other list gets it too, so one AND tests both
 *                      conditions;
 *   [tested transposed] where the pair loop would be plain C (portable,
 *                      NEON), the band with the longer lists is kept
 *                      transposed (bands.h) and 64 pairs are tested by
 *                      ORing one transposed word for each inner bit of the other
 *                      band's placement: at N=18 the pairs fit 12% of the
 *                      time, and the loop below costs ten instructions a
 *                      pair, fit or not;
 *   [fits by mask]     the plain C pair loop (portable, NEON) takes a
 *                      short list (N=17's 4-row bands) into a mask of its
 *                      fits first, then stores only those, two of them
 *                      without a branch: about one pair in eight fits;
 *   [unrolled by 4]    ... and a longer one, unrolled, stores every pair
 *                      and keeps the fits;
 *   [list in place]    where no middle queen is attacked (even N, or none
 *                      to spare) the tested list is read where the bands
 *                      keep it, the last vector's loads masked, with no
 *                      copy: the copy, made for every split, took a
 *                      quarter of the halves' time at N=18 (avx2).
 */
#ifndef QCJ_BAND_PAIRS_H
#define QCJ_BAND_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "bands.h"
#include "config.h"

#if defined(__AVX2__) && !defined(__AVX512F__)
/* [permute-store] the dword permutation that packs the qwords of a 4-bit
 * mask to the front, a byte a dword: widened by one VPMOVZXBD that reads
 * it with the mask scaled by 8 as its index. */
static const uint8_t pack_of[16][8] = {
    {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3, 0, 1, 4, 5, 6, 7},
    {0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 0, 1, 2, 3, 6, 7}, {0, 1, 4, 5, 2, 3, 6, 7},
    {2, 3, 4, 5, 0, 1, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {6, 7, 0, 1, 2, 3, 4, 5},
    {0, 1, 6, 7, 2, 3, 4, 5}, {2, 3, 6, 7, 0, 1, 4, 5}, {0, 1, 2, 3, 6, 7, 4, 5},
    {4, 5, 6, 7, 0, 1, 2, 3}, {0, 1, 4, 5, 6, 7, 2, 3}, {2, 3, 4, 5, 6, 7, 0, 1},
    {0, 1, 2, 3, 4, 5, 6, 7},
};

static inline __m256i pack_perm(int mask)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)pack_of[mask]));
}
#endif

/* [guard bit] */
#define GUARD ((uint64_t)1 << 63)

/* [guard bit] The entries of a list tested a chunk at a time, by
 * pair_one, where some attack the middle queen: their crossing
 * diagonals, GUARD where they attack `avoid`, and their border
 * signatures. */
enum { CHUNK = 64 };

typedef struct guarded {
    uint64_t inner[CHUNK];
    uint64_t border[CHUNK];
} guarded;

/* Fills gd with the len (<= CHUNK) entries at inner, border. */
static void guard_chunk(guarded *gd, const uint64_t *inner, const uint64_t *border, size_t len,
                        uint64_t avoid)
{
    for (size_t j = 0; j < len; j++) {
        gd->inner[j] = inner[j] | ((border[j] & avoid) ? GUARD : 0);
        gd->border[j] = border[j];
    }
}

#if !defined(__AVX2__) && !defined(__AVX512F__)
/* [fits by mask] pair_one's for a short list (len in 1..QCJ_HALVES_MASK_TO):
 * the fits as bits first, then only the fits stored, two of them without
 * a branch. */
static inline __attribute__((always_inline)) size_t pair_masked(uint64_t in, uint64_t bo,
                                                                const uint64_t *inner,
                                                                const uint64_t *border,
                                                                size_t len, uint64_t *out)
{
    size_t o = 0;
    uint64_t fit = 0, fit_odd = 0;
    size_t j = 0;
    for (; j + 2 <= len; j += 2) {
        fit |= (uint64_t)((in & inner[j]) == 0) << j;
        fit_odd |= (uint64_t)((in & inner[j + 1]) == 0) << (j + 1);
    }
    if (j < len)
        fit |= (uint64_t)((in & inner[j]) == 0) << j;
    fit |= fit_odd;
    const uint64_t last = (uint64_t)1 << (len - 1);   /* an entry to read */
    for (int k = 0; k < 2; k++) {
        out[o] = bo | border[__builtin_ctzll(fit | last)];
        o += fit != 0;
        fit &= fit - 1;
    }
    for (; fit; fit &= fit - 1)
        out[o++] = bo | border[__builtin_ctzll(fit)];
    return o;
}
#endif

/* The border signatures (bo | border[j]) of the len entries j with
 * (in & inner[j]) == 0, written to out; returns how many.  [list in
 * place] The vector versions read no entry past len (the last vector's
 * loads are masked: where nothing is guarded, the list is read where the
 * bands keep it) and store whole vectors: out has room for len + 8
 * entries. */
static inline size_t pair_one(uint64_t in, uint64_t bo, const uint64_t *inner,
                              const uint64_t *border, size_t len, uint64_t *out)
{
    size_t o = 0;
#if defined(__AVX512F__)
    const __m512i vin = _mm512_set1_epi64((long long)in), vbo = _mm512_set1_epi64((long long)bo);
    size_t j = 0;
    for (; j + 8 <= len; j += 8) {
        const __mmask8 fit = _mm512_testn_epi64_mask(vin, _mm512_loadu_si512(inner + j));
        const __m512i b = _mm512_loadu_si512(border + j);
        /* [compress-store] packed in a register, stored whole (a masked
         * compress straight to memory is slow on some cores) */
        _mm512_storeu_si512(out + o, _mm512_maskz_compress_epi64(fit, _mm512_or_si512(b, vbo)));
        o += (size_t)__builtin_popcount(fit);
    }
    if (j < len) {                          /* the last lanes, masked */
        const __mmask8 live = (__mmask8)((1u << (len - j)) - 1u);
        const __mmask8 fit = _mm512_mask_testn_epi64_mask(live, vin, _mm512_maskz_loadu_epi64(live, inner + j));
        const __m512i b = _mm512_maskz_loadu_epi64(live, border + j);
        _mm512_storeu_si512(out + o, _mm512_maskz_compress_epi64(fit, _mm512_or_si512(b, vbo)));
        o += (size_t)__builtin_popcount(fit);
    }
#elif defined(__AVX2__)
    const __m256i vin = _mm256_set1_epi64x((long long)in), vbo = _mm256_set1_epi64x((long long)bo);
    const __m256i zero = _mm256_setzero_si256();
    size_t j = 0;
    for (; j + 4 <= len; j += 4) {
        const __m256i w = _mm256_loadu_si256((const __m256i *)(inner + j));
        const int mask = _mm256_movemask_pd(
            _mm256_castsi256_pd(_mm256_cmpeq_epi64(_mm256_and_si256(vin, w), zero)));
        /* [permute-store] */
        const __m256i packed = _mm256_permutevar8x32_epi32(
            _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(border + j)), vbo),
            pack_perm(mask));
        _mm256_storeu_si256((__m256i *)(out + o), packed);
        o += (size_t)__builtin_popcount((unsigned)mask);
    }
    if (j < len) {                          /* the last lanes, masked */
        const __m256i live = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(len - j)),
                                                _mm256_set_epi64x(3, 2, 1, 0));
        const __m256i w = _mm256_maskload_epi64((const long long *)(inner + j), live);
        const int mask = _mm256_movemask_pd(_mm256_castsi256_pd(
            _mm256_and_si256(live, _mm256_cmpeq_epi64(_mm256_and_si256(vin, w), zero))));
        const __m256i packed = _mm256_permutevar8x32_epi32(
            _mm256_or_si256(_mm256_maskload_epi64((const long long *)(border + j), live), vbo),
            pack_perm(mask));
        _mm256_storeu_si256((__m256i *)(out + o), packed);
        o += (size_t)__builtin_popcount((unsigned)mask);
    }
#else
    if (len - 1 < QCJ_HALVES_MASK_TO)      /* 1..QCJ_HALVES_MASK_TO */
        return pair_masked(in, bo, inner, border, len, out);
    /* [unrolled by 4] ten instructions a pair, three of them the loop's:
     * unrolled, 9.5% fewer in the halves at N=16 (callgrind), and paired
     * rounds took 0.94 (N=17) and 0.97 (N=18) of the time */
    _Pragma("GCC unroll 4")
    for (size_t j = 0; j < len; j++) {
        out[o] = bo | border[j];          /* written always, kept if it fits */
        o += (in & inner[j]) == 0;
    }
#endif
    return o;
}

/* The two lists of one split that the pair loops below pair, the shorter
 * (a) tested an entry at a time against the longer (b).  pair_split
 * builds it as a local for a loop that is always inlined, so it lives in
 * registers: no instruction more than the loops' own parameters at N=16
 * (callgrind, avx2 and portable). */
typedef struct split_lists {
    const uint64_t *inner_a;  /* list a's crossing diagonals (inner signatures) */
    const uint64_t *border_a; /* list a's border signatures */
    const uint64_t *inner_b;  /* list b's crossing diagonals */
    const uint64_t *border_b; /* list b's border signatures */
    uint32_t na, nb;          /* the lists' lengths, na <= nb */
    uint64_t avoid;           /* the border diagonals no half may use, or 0 */
    uint64_t mark;            /* ORed into every half stored */
} split_lists;

#if defined(__AVX2__) && !defined(__AVX512F__)
/* [short lists held] [lists held] AVX2's: list b (nb in 4*nv-3..4*nv)
 * held in nv vectors of 4; as pairs_held below.  o has room for na*nb + 4 entries. */
static inline __attribute__((always_inline)) size_t pairs_held4(const int nv, const split_lists *sl,
                                                                uint64_t *o)
{
    const uint64_t *const in_a = sl->inner_a, *const bo_a = sl->border_a;
    const uint64_t *const in_b = sl->inner_b, *const bo_b = sl->border_b;
    const uint32_t na = sl->na, nb = sl->nb;
    const uint64_t avoid = sl->avoid, mark = sl->mark;
    const __m256i lane = _mm256_set_epi64x(3, 2, 1, 0), zero = _mm256_setzero_si256();
    const __m256i vavoid = _mm256_set1_epi64x((long long)avoid);
    const __m256i guard = _mm256_set1_epi64x((long long)GUARD);
    __m256i w[4], v[4];
    for (int k = 0; k < nv; k++) {
        const __m256i live = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)nb - 4 * k), lane);
        v[k] = _mm256_maskload_epi64((const long long *)bo_b + 4 * k, live);
        const __m256i ok = _mm256_and_si256(live, _mm256_cmpeq_epi64(_mm256_and_si256(v[k], vavoid), zero));
        /* [guard bit] the lanes that are not ok */
        w[k] = _mm256_or_si256(_mm256_maskload_epi64((const long long *)in_b + 4 * k, live),
                               _mm256_andnot_si256(ok, guard));
    }
    size_t len = 0;
    for (uint32_t e = 0; e < na; e++) {
        if (bo_a[e] & avoid)
            continue;
        const __m256i vin = _mm256_set1_epi64x((long long)(in_a[e] | GUARD));
        const __m256i vbo = _mm256_set1_epi64x((long long)(bo_a[e] | mark));
        int fit[4];
        for (int k = 0; k < nv; k++)        /* [fits first] */
            fit[k] = _mm256_movemask_pd(_mm256_castsi256_pd(
                _mm256_cmpeq_epi64(_mm256_and_si256(vin, w[k]), zero)));
        for (int k = 0; k < nv; k++) {      /* [permute-store] */
            _mm256_storeu_si256((__m256i *)(o + len), _mm256_permutevar8x32_epi32(
                _mm256_or_si256(v[k], vbo), pack_perm(fit[k])));
            len += (size_t)__builtin_popcount((unsigned)fit[k]);
        }
    }
    return len;
}
#endif

#if defined(__AVX512F__)
/* [short lists held] The halves of list a with list b of at most 16
 * entries, written at o; returns how many.  List b, at most two vectors,
 * is loaded and spared once for the whole split; each entry of list a is
 * then one test and one compress per vector.  o has room for na*nb + 8
 * entries. */
static inline __attribute__((always_inline)) size_t pairs_short(const split_lists *sl, uint64_t *o)
{
    const uint64_t *const in_a = sl->inner_a, *const bo_a = sl->border_a;
    const uint64_t *const in_b = sl->inner_b, *const bo_b = sl->border_b;
    const uint32_t na = sl->na, nb = sl->nb;
    const uint64_t avoid = sl->avoid, mark = sl->mark;
    const __mmask8 live0 = nb >= 8 ? 0xff : (__mmask8)((1u << nb) - 1u);
    const __mmask8 live1 = nb >= 16 ? 0xff : nb > 8 ? (__mmask8)((1u << (nb - 8)) - 1u) : 0;
    const __m512i vavoid = _mm512_set1_epi64((long long)avoid);
    const __m512i w0 = _mm512_maskz_loadu_epi64(live0, in_b);
    const __m512i w1 = _mm512_maskz_loadu_epi64(live1, in_b + 8);
    const __m512i v0 = _mm512_maskz_loadu_epi64(live0, bo_b);
    const __m512i v1 = _mm512_maskz_loadu_epi64(live1, bo_b + 8);
    const __mmask8 ok0 = _mm512_mask_testn_epi64_mask(live0, v0, vavoid);
    const __mmask8 ok1 = _mm512_mask_testn_epi64_mask(live1, v1, vavoid);
    /* [fits first] every entry's fits, then the stores: the store
     * addresses wait on an add each, not on a mask's popcount */
    uint16_t fits[16];
    for (uint32_t e = 0; e < na; e++) {
        const __m512i vin = _mm512_set1_epi64((long long)in_a[e]);
        const unsigned spare = (bo_a[e] & avoid) == 0 ? 0xffffu : 0u;
        fits[e] = (uint16_t)(spare & ((unsigned)_mm512_mask_testn_epi64_mask(ok0, vin, w0)
                                     | (unsigned)_mm512_mask_testn_epi64_mask(ok1, vin, w1) << 8));
    }
    size_t len = 0;
    if (nb <= 8) {                          /* one vector: one store */
        for (uint32_t e = 0; e < na; e++) {
            const __m512i vbo = _mm512_set1_epi64((long long)(bo_a[e] | mark));
            _mm512_storeu_si512(o + len, _mm512_maskz_compress_epi64((__mmask8)fits[e],
                                                                     _mm512_or_si512(v0, vbo)));
            len += (size_t)__builtin_popcount(fits[e]);
        }
        return len;
    }
    for (uint32_t e = 0; e < na; e++) {
        const __m512i vbo = _mm512_set1_epi64((long long)(bo_a[e] | mark));
        const unsigned f = fits[e];
        uint64_t *dst = o + len;
        const size_t first = (size_t)__builtin_popcount(f & 0xffu);
        _mm512_storeu_si512(dst, _mm512_maskz_compress_epi64((__mmask8)f, _mm512_or_si512(v0, vbo)));
        _mm512_storeu_si512(dst + first,
                            _mm512_maskz_compress_epi64((__mmask8)(f >> 8), _mm512_or_si512(v1, vbo)));
        len += (size_t)__builtin_popcount(f);
    }
    return len;
}

/* [lists held] The halves of list a with list b (nb in 8*nv-7..8*nv),
 * b held in nv vectors, written at o; returns how many.  o has room for
 * na*nb + 8 entries. */
static inline __attribute__((always_inline)) size_t pairs_held(const int nv, const split_lists *sl,
                                                               uint64_t *o)
{
    const uint64_t *const in_a = sl->inner_a, *const bo_a = sl->border_a;
    const uint64_t *const in_b = sl->inner_b, *const bo_b = sl->border_b;
    const uint32_t na = sl->na, nb = sl->nb;
    const uint64_t avoid = sl->avoid, mark = sl->mark;
    const __m512i vavoid = _mm512_set1_epi64((long long)avoid);
    __m512i w[8], v[8];
    __mmask8 ok[8];
    for (int k = 0; k < nv; k++) {
        const uint32_t left = nb - 8u * (uint32_t)k;
        const __mmask8 live = left >= 8 ? 0xff : (__mmask8)((1u << left) - 1u);
        w[k] = _mm512_maskz_loadu_epi64(live, in_b + 8 * k);
        v[k] = _mm512_maskz_loadu_epi64(live, bo_b + 8 * k);
        ok[k] = _mm512_mask_testn_epi64_mask(live, v[k], vavoid);   /* spares the middle */
    }
    size_t len = 0;
    for (uint32_t e = 0; e < na; e++) {
        if (bo_a[e] & avoid)
            continue;
        const __m512i vin = _mm512_set1_epi64((long long)in_a[e]);
        const __m512i vbo = _mm512_set1_epi64((long long)(bo_a[e] | mark));
        __mmask8 fit[8];
        for (int k = 0; k < nv; k++)        /* [fits first] */
            fit[k] = _mm512_mask_testn_epi64_mask(ok[k], vin, w[k]);
        for (int k = 0; k < nv; k++) {
            _mm512_storeu_si512(o + len, _mm512_maskz_compress_epi64(fit[k], _mm512_or_si512(v[k], vbo)));
            len += (size_t)__builtin_popcount(fit[k]);
        }
    }
    return len;
}
#endif

/* The halves of list a with list b, each entry of a against b by
 * pair_one, written at o; returns how many.  o has room for na*nb + 16
 * entries. */
static inline __attribute__((always_inline)) size_t pairs_by_entry(const split_lists *sl,
                                                                   uint64_t *o)
{
    const uint64_t *const in_a = sl->inner_a, *const bo_a = sl->border_a;
    const uint64_t *const in_b = sl->inner_b, *const bo_b = sl->border_b;
    const uint32_t na = sl->na, nb = sl->nb;
    const uint64_t avoid = sl->avoid, mark = sl->mark;
    size_t len = 0;
    if (avoid == 0) {                       /* [list in place] nothing to guard */
        for (uint32_t e = 0; e < na; e++)
            len += pair_one(in_a[e], bo_a[e] | mark, in_b, bo_b, nb, o + len);
        return len;
    }
    guarded gd;                             /* [guard bit] list b a chunk at a time */
    for (uint32_t j0 = 0; j0 < nb; j0 += CHUNK) {
        const size_t m = nb - j0 < CHUNK ? nb - j0 : CHUNK;
        guard_chunk(&gd, in_b + j0, bo_b + j0, m, avoid);
        for (uint32_t e = 0; e < na; e++)
            if ((bo_a[e] & avoid) == 0)
                len += pair_one(in_a[e] | GUARD, bo_a[e] | mark, gd.inner, gd.border, m, o + len);
    }
    return len;
}

#if QCJ_HALVES_TRANSPOSED
/* [tested transposed] The lists of one split that pairs_transposed
 * pairs: one of band pb, whose lists are transposed (bands.h), and one
 * of the other band. */
typedef struct transposed_lists {
    const qcj_band *pb;       /* the band whose lists are transposed */
    uint32_t lo, n;           /* its list: the n placements from lo */
    const uint8_t *bit_at;    /* the other list's inner bits (qcj_band's bit_at), from its first */
    const uint64_t *border_o; /* the other list's border signatures */
    uint32_t no;              /* the other list's length */
    uint64_t avoid;           /* the border diagonals no half may use, or 0 */
    uint64_t mark;            /* ORed into every half stored */
} transposed_lists;

/* [tested transposed] The halves of tl's two lists, written at o; returns
 * how many.  For each 64 placements of pb that its list touches, each
 * placement of the other list ORs the transposed words of its `bits`
 * inner bits (a queen crosses the split on two diagonals at most; past
 * its last bit, the word of zeros): the placements of pb it clashes
 * with, 64 pairs tested in `bits` lookups.  Its fits among the live ones
 * (those that spare the middle queen) are stored four at a time without a
 * branch, the spare stores at the next free place, then one at a time:
 * at N=18, 2.8 fits on average.  o has room for n*no entries and one. */
static inline __attribute__((always_inline)) size_t pairs_transposed(const int bits,
                                                                     const transposed_lists *tl,
                                                                     uint64_t *o)
{
    const qcj_band *const pb = tl->pb;
    const uint32_t lo = tl->lo, n = tl->n, no = tl->no;
    const uint8_t *const bit_at = tl->bit_at;
    const uint64_t *const bo_o = tl->border_o;
    const uint64_t avoid = tl->avoid, mark = tl->mark;
    const int words = pb->transposed_words;
    size_t len = 0;
    for (uint32_t c = lo / 64; c <= (lo + n - 1) / 64; c++) {
        const uint64_t *pl = pb->transposed + (size_t)c * (size_t)words;
        const uint64_t *bo_p = pb->border + (size_t)c * 64;
        const uint32_t first = c * 64 < lo ? lo - c * 64 : 0;
        const uint32_t end = lo + n - c * 64 < 64 ? lo + n - c * 64 : 64;
        uint64_t live = (end == 64 ? ~(uint64_t)0 : ((uint64_t)1 << end) - 1)
                      & (~(uint64_t)0 << first);
        if (avoid) {                        /* the placements that spare the middle */
            uint64_t hit = 0;
            for (uint32_t i = first; i < end; i++)
                hit |= (uint64_t)((bo_p[i] & avoid) != 0) << i;
            live &= ~hit;
        }
        const uint64_t last = (uint64_t)1 << (end - 1);   /* a placement to read */
        for (uint32_t e = 0; e < no; e++) {
            const uint8_t *at = bit_at + (size_t)e * (size_t)bits;
            uint64_t clash = pl[at[0]];
            for (int k = 1; k < bits; k++)
                clash |= pl[at[k]];
            uint64_t fit = ~clash & live & -(uint64_t)((bo_o[e] & avoid) == 0);
            const uint64_t bo = bo_o[e] | mark;
#define STORE_FIT()                                                                          \
    do {                                                                                     \
        o[len] = bo_p[__builtin_ctzll(fit | last)] | bo;                                     \
        len += fit != 0;                                                                     \
        fit &= fit - 1;                                                                      \
    } while (0)
            STORE_FIT();
            STORE_FIT();
            STORE_FIT();
            STORE_FIT();
            while (fit)
                STORE_FIT();
#undef STORE_FIT
        }
    }
    return len;
}
#endif

#endif
