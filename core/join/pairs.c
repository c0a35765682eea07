/*
 * join_pairs.c — the join engine's hot loop: given the border signatures of
 * some top halves and some bottom halves (same column-set bucket, disjoint
 * group keys), counts the pairs that share no diagonal, (a & b) == 0.
 *
 * Tricks, each named where it is used:
 *   [test-not-mask]   AVX-512 VPTESTNM gives, in one instruction, the mask of
 *                     the 16 (32-bit) or 8 (64-bit) lanes where a & b == 0;
 *   [masked decrement] that mask drives a masked subtract of -1 from a vector
 *                     of lane counters, so nothing leaves the vector unit
 *                     until the end (no popcount per step);
 *   [four tops]       four tops are tested against each loaded bottom vector,
 *                     so one load feeds four tests;
 *   [masked tail]     the last partial vector is loaded under a lane mask
 *                     (lanes off count nothing), no padding needed;
 *   [longer list in the vectors] the count is symmetric, so the longer
 *                     list goes into the vectors: fewer lanes idle in tails.
 * Without AVX-512 the plain loops below are left to the compiler's
 * vectoriser (AVX2 or SSE: compare-equal-zero and subtract).
 */
#include "join.h"

/* [bounded lanes] the vector kernels keep 32-bit lane counters: a call
 * sees at most QCJ_TOP_SLICE tops and QCJ_BOTTOM_SLICE bottoms, so a lane
 * counts at most 2^8 * 2^20 / 16 < 2^32 pairs.  The public calls slice. */
#define QCJ_TOP_SLICE ((size_t)1 << 8)
#define QCJ_BOTTOM_SLICE ((size_t)1 << 20)
/* The pairs a lane counter may see between two sums (tests set it low). */
#ifndef QCJ_LANE_LIMIT
#define QCJ_LANE_LIMIT UINT32_MAX
#endif

#if defined(__AVX512F__)
#include <immintrin.h>

/* The four lane-counter vectors of one run of the hot loop, kept in
 * registers across many group pairs and summed once at the end
 * ([counters kept]). */
typedef struct lanes32 {
    __m512i acc0, acc1, acc2, acc3;
} lanes32;

static inline __attribute__((always_inline)) void
slice32_into(const uint32_t *tops, size_t nt, const uint32_t *bottoms, size_t nb, lanes32 *l)
{
    const size_t full_vecs = nb / 16;
    const __mmask16 tail = (__mmask16)((1u << (nb % 16)) - 1u);
    __m512i acc0 = l->acc0, acc1 = l->acc1, acc2 = l->acc2, acc3 = l->acc3;
    const __m512i minus1 = _mm512_set1_epi32(-1);
    size_t i = 0;
    for (; i + 4 <= nt; i += 4) {                          /* [four tops] */
        const __m512i t0 = _mm512_set1_epi32((int)tops[i]);
        const __m512i t1 = _mm512_set1_epi32((int)tops[i + 1]);
        const __m512i t2 = _mm512_set1_epi32((int)tops[i + 2]);
        const __m512i t3 = _mm512_set1_epi32((int)tops[i + 3]);
        for (size_t v = 0; v < full_vecs; v++) {
            const __m512i b = _mm512_loadu_si512(bottoms + 16 * v);
            /* [test-not-mask] + [masked decrement] */
            acc0 = _mm512_mask_sub_epi32(acc0, _mm512_testn_epi32_mask(t0, b), acc0, minus1);
            acc1 = _mm512_mask_sub_epi32(acc1, _mm512_testn_epi32_mask(t1, b), acc1, minus1);
            acc2 = _mm512_mask_sub_epi32(acc2, _mm512_testn_epi32_mask(t2, b), acc2, minus1);
            acc3 = _mm512_mask_sub_epi32(acc3, _mm512_testn_epi32_mask(t3, b), acc3, minus1);
        }
        if (tail) {                                        /* [masked tail] */
            const __m512i b = _mm512_maskz_loadu_epi32(tail, bottoms + 16 * full_vecs);
            acc0 = _mm512_mask_sub_epi32(acc0, _mm512_mask_testn_epi32_mask(tail, t0, b), acc0, minus1);
            acc1 = _mm512_mask_sub_epi32(acc1, _mm512_mask_testn_epi32_mask(tail, t1, b), acc1, minus1);
            acc2 = _mm512_mask_sub_epi32(acc2, _mm512_mask_testn_epi32_mask(tail, t2, b), acc2, minus1);
            acc3 = _mm512_mask_sub_epi32(acc3, _mm512_mask_testn_epi32_mask(tail, t3, b), acc3, minus1);
        }
    }
    for (; i < nt; i++) {
        const __m512i t0 = _mm512_set1_epi32((int)tops[i]);
        for (size_t v = 0; v < full_vecs; v++) {
            const __m512i b = _mm512_loadu_si512(bottoms + 16 * v);
            acc0 = _mm512_mask_sub_epi32(acc0, _mm512_testn_epi32_mask(t0, b), acc0, minus1);
        }
        if (tail) {
            const __m512i b = _mm512_maskz_loadu_epi32(tail, bottoms + 16 * full_vecs);
            acc0 = _mm512_mask_sub_epi32(acc0, _mm512_mask_testn_epi32_mask(tail, t0, b), acc0, minus1);
        }
    }
    l->acc0 = acc0;
    l->acc1 = acc1;
    l->acc2 = acc2;
    l->acc3 = acc3;
}

static inline uint64_t lanes32_sum(const lanes32 *l)
{
    /* lane counters stay below 2^32 by [bounded lanes]; widen to add */
    __m512i sum = _mm512_add_epi64(_mm512_cvtepu32_epi64(_mm512_castsi512_si256(l->acc0)),
                                   _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(l->acc0, 1)));
    sum = _mm512_add_epi64(sum, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(l->acc1)));
    sum = _mm512_add_epi64(sum, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(l->acc1, 1)));
    sum = _mm512_add_epi64(sum, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(l->acc2)));
    sum = _mm512_add_epi64(sum, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(l->acc2, 1)));
    sum = _mm512_add_epi64(sum, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(l->acc3)));
    sum = _mm512_add_epi64(sum, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(l->acc3, 1)));
    return (uint64_t)_mm512_reduce_add_epi64(sum);
}

static const lanes32 lanes32_zero;

static uint64_t slice32(const uint32_t *tops, size_t nt,
                              const uint32_t *bottoms, size_t nb)
{
    lanes32 l = lanes32_zero;
    slice32_into(tops, nt, bottoms, nb, &l);
    return lanes32_sum(&l);
}

static uint64_t slice64(const uint64_t *tops, size_t nt,
                        const uint64_t *bottoms, size_t nb)
{
    const size_t full_vecs = nb / 8;
    const __mmask8 tail = (__mmask8)((1u << (nb % 8)) - 1u);
    __m512i acc0 = _mm512_setzero_si512(), acc1 = acc0;
    const __m512i minus1 = _mm512_set1_epi64(-1);
    size_t i = 0;
    for (; i + 2 <= nt; i += 2) {
        const __m512i t0 = _mm512_set1_epi64((long long)tops[i]);
        const __m512i t1 = _mm512_set1_epi64((long long)tops[i + 1]);
        for (size_t v = 0; v < full_vecs; v++) {
            const __m512i b = _mm512_loadu_si512(bottoms + 8 * v);
            acc0 = _mm512_mask_sub_epi64(acc0, _mm512_testn_epi64_mask(t0, b), acc0, minus1);
            acc1 = _mm512_mask_sub_epi64(acc1, _mm512_testn_epi64_mask(t1, b), acc1, minus1);
        }
        if (tail) {
            const __m512i b = _mm512_maskz_loadu_epi64(tail, bottoms + 8 * full_vecs);
            acc0 = _mm512_mask_sub_epi64(acc0, _mm512_mask_testn_epi64_mask(tail, t0, b), acc0, minus1);
            acc1 = _mm512_mask_sub_epi64(acc1, _mm512_mask_testn_epi64_mask(tail, t1, b), acc1, minus1);
        }
    }
    for (; i < nt; i++) {
        const __m512i t0 = _mm512_set1_epi64((long long)tops[i]);
        for (size_t v = 0; v < full_vecs; v++) {
            const __m512i b = _mm512_loadu_si512(bottoms + 8 * v);
            acc0 = _mm512_mask_sub_epi64(acc0, _mm512_testn_epi64_mask(t0, b), acc0, minus1);
        }
        if (tail) {
            const __m512i b = _mm512_maskz_loadu_epi64(tail, bottoms + 8 * full_vecs);
            acc0 = _mm512_mask_sub_epi64(acc0, _mm512_mask_testn_epi64_mask(tail, t0, b), acc0, minus1);
        }
    }
    return (uint64_t)_mm512_reduce_add_epi64(_mm512_add_epi64(acc0, acc1));
}

#else /* portable: plain loops for the compiler's vectoriser */

static uint64_t slice32(const uint32_t *tops, size_t nt,
                              const uint32_t *bottoms, size_t nb)
{
    uint64_t count = 0;
    for (size_t i = 0; i < nt; i++) {
        const uint32_t t = tops[i];
        uint32_t c = 0;                 /* 32-bit lanes vectorise best */
        for (size_t j = 0; j < nb; j++)
            c += (t & bottoms[j]) == 0;
        count += c;
    }
    return count;
}

static uint64_t slice64(const uint64_t *tops, size_t nt,
                        const uint64_t *bottoms, size_t nb)
{
    uint64_t count = 0;
    for (size_t i = 0; i < nt; i++) {
        const uint64_t t = tops[i];
        uint64_t c = 0;
        for (size_t j = 0; j < nb; j++)
            c += (t & bottoms[j]) == 0;
        count += c;
    }
    return count;
}

#endif

uint64_t qcj_count_disjoint32(const uint32_t *tops, size_t nt,
                              const uint32_t *bottoms, size_t nb)
{
    if (nb < nt) {   /* [longer list in the vectors]: fewer ragged tails */
        const uint32_t *t = tops;
        size_t n = nt;
        tops = bottoms;
        nt = nb;
        bottoms = t;
        nb = n;
    }
    uint64_t count = 0;
    for (size_t j = 0; j < nb; j += QCJ_BOTTOM_SLICE) {
        size_t mb = nb - j < QCJ_BOTTOM_SLICE ? nb - j : QCJ_BOTTOM_SLICE;
        for (size_t i = 0; i < nt; i += QCJ_TOP_SLICE)
            count += slice32(tops + i, nt - i < QCJ_TOP_SLICE ? nt - i : QCJ_TOP_SLICE,
                             bottoms + j, mb);
    }
    return count;
}

uint64_t qcj_count_disjoint64(const uint64_t *tops, size_t nt,
                              const uint64_t *bottoms, size_t nb)
{
    uint64_t count = 0;
    for (size_t j = 0; j < nb; j += QCJ_BOTTOM_SLICE) {
        size_t mb = nb - j < QCJ_BOTTOM_SLICE ? nb - j : QCJ_BOTTOM_SLICE;
        for (size_t i = 0; i < nt; i += QCJ_TOP_SLICE)
            count += slice64(tops + i, nt - i < QCJ_TOP_SLICE ? nt - i : QCJ_TOP_SLICE,
                             bottoms + j, mb);
    }
    return count;
}

/* [counters kept] the sieve over group pairs, with the lane counters kept
 * in registers from pair to pair and summed once: small groups (tens of
 * halves each) would otherwise pay a reduction per pair.  A lane counts
 * at most the pairs tested since the last sum, so the sum is taken before
 * that could pass 2^32. */
uint64_t qcj_join_groups32(const uint32_t *toff, const uint32_t *tops, const uint32_t *boff,
                           const uint32_t *bottoms, int key_bits, uint32_t extra, uint64_t *tested)
{
    const uint32_t kmask = (1u << key_bits) - 1u;
    uint64_t pairs = 0, tried = 0;
#if defined(__AVX512F__)
    lanes32 lanes = lanes32_zero;
    uint64_t pending = 0;
#endif
    for (uint32_t tg = 0; tg <= kmask; tg++) {
        const size_t t0 = toff[tg], nt = toff[tg + 1] - t0;
        if (nt == 0)
            continue;
        const uint32_t avail = ~(tg | extra) & kmask;
        for (uint32_t bg = avail;; bg = (bg - 1) & avail) {   /* submasks of avail */
            const size_t b0 = boff[bg], nb = boff[bg + 1] - b0;
            if (nb) {
                const uint64_t these = (uint64_t)nt * nb;
                tried += these;
#if defined(__AVX512F__)
                if (pending + these >= QCJ_LANE_LIMIT) {
                    pairs += lanes32_sum(&lanes);
                    lanes = lanes32_zero;
                    pending = 0;
                }
                if (these >= QCJ_LANE_LIMIT) {
                    pairs += qcj_count_disjoint32(tops + t0, nt, bottoms + b0, nb);
                } else {
                    pending += these;
                    if (nb >= nt)   /* [longer list in the vectors] */
                        slice32_into(tops + t0, nt, bottoms + b0, nb, &lanes);
                    else
                        slice32_into(bottoms + b0, nb, tops + t0, nt, &lanes);
                }
#else
                pairs += qcj_count_disjoint32(tops + t0, nt, bottoms + b0, nb);
#endif
            }
            if (bg == 0)
                break;
        }
    }
#if defined(__AVX512F__)
    pairs += lanes32_sum(&lanes);
#endif
    *tested += tried;
    return pairs;
}

uint64_t qcj_join_groups64(const uint32_t *toff, const uint64_t *tops, const uint32_t *boff,
                           const uint64_t *bottoms, int key_bits, uint32_t extra, uint64_t *tested)
{
    const uint32_t kmask = (1u << key_bits) - 1u;
    uint64_t pairs = 0, tried = 0;
    for (uint32_t tg = 0; tg <= kmask; tg++) {
        const size_t t0 = toff[tg], nt = toff[tg + 1] - t0;
        if (nt == 0)
            continue;
        const uint32_t avail = ~(tg | extra) & kmask;
        for (uint32_t bg = avail;; bg = (bg - 1) & avail) {
            const size_t b0 = boff[bg], nb = boff[bg + 1] - b0;
            if (nb) {
                tried += (uint64_t)nt * nb;
                pairs += qcj_count_disjoint64(tops + t0, nt, bottoms + b0, nb);
            }
            if (bg == 0)
                break;
        }
    }
    *tested += tried;
    return pairs;
}
