/* SPDX-License-Identifier: MIT */
/*
 * pairs_avx512.c — the AVX-512 pair-counting backend (pairs.h), built for
 * AVX-512F whatever the rest of the build targets (run it only on a CPU
 * that has it).
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
 *   [counters kept]   the lane counters stay in registers from group pair
 *                     to group pair and are summed once per call;
 *   [bounded lanes], [sieve], [longer list in the vectors]: pairs_loops.h.
 */
#include "pairs.h"

#if defined(QCJ_PAIRS_HAVE_AVX512)
#include <immintrin.h>

#include "config.h"
#include "pairs_loops.h"

#define AVX512 __attribute__((target("avx512f")))

/* The four lane-counter vectors of one run of the hot loop. */
typedef struct lanes32 {
    __m512i acc0, acc1, acc2, acc3;
} lanes32;

static inline AVX512 void lanes32_clear(lanes32 *l)
{
    l->acc0 = l->acc1 = l->acc2 = l->acc3 = _mm512_setzero_si512();
}

static inline __attribute__((always_inline)) AVX512 void
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

static inline AVX512 uint64_t lanes32_sum(const lanes32 *l)
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

static AVX512 uint64_t slice64(const uint64_t *tops, size_t nt,
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

static inline AVX512 uint64_t slice32_at(void *ctx, size_t t0, size_t nt, size_t b0, size_t nb)
{
    const qcj_lists *l = ctx;
    lanes32 lanes;
    lanes32_clear(&lanes);
    slice32_into((const uint32_t *)l->tops + t0, nt, (const uint32_t *)l->bottoms + b0, nb, &lanes);
    return lanes32_sum(&lanes);
}

static inline AVX512 uint64_t slice64_at(void *ctx, size_t t0, size_t nt, size_t b0, size_t nb)
{
    const qcj_lists *l = ctx;
    return slice64((const uint64_t *)l->tops + t0, nt, (const uint64_t *)l->bottoms + b0, nb);
}

/* Kept out of groups32's loop, where it is the rare path: inlined there,
 * it cost the loop 10% on small groups (measured). */
__attribute__((noinline)) AVX512
uint64_t qcj_pairs_avx512_disjoint32(const uint32_t *tops, size_t nt,
                                     const uint32_t *bottoms, size_t nb)
{
    return qcj_sliced_longer_inside(slice32_at, tops, nt, bottoms, nb);
}

AVX512 uint64_t qcj_pairs_avx512_disjoint64(const uint64_t *tops, size_t nt,
                                            const uint64_t *bottoms, size_t nb)
{
    qcj_lists l = {tops, bottoms};
    return qcj_sliced(slice64_at, &l, nt, nb);
}

/* [counters kept] the sieve (pairs_loops.h) written out with the lane
 * counters kept in registers from group pair to group pair and summed
 * once: small groups (tens of halves each) would otherwise pay a reduction
 * per pair.  A lane counts at most the pairs tested since the last sum, so
 * the sum is taken before that could reach QCJ_LANE_LIMIT (config.h).  The
 * limit is a constant here, not a parameter: as one, even of an inlined
 * helper, the loop measured 3-5% slower on groups of tens of halves. */
AVX512 uint64_t qcj_pairs_avx512_groups32(const uint32_t *toff, const uint32_t *tops,
                                          const uint32_t *boff, const uint32_t *bottoms,
                                          int key_bits, uint32_t extra, uint64_t *tested)
{
    const uint32_t kmask = (1u << key_bits) - 1u;
    uint64_t pairs = 0, tried = 0;
    lanes32 lanes;
    lanes32_clear(&lanes);
    uint64_t pending = 0;
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
                if (pending + these >= QCJ_LANE_LIMIT) {
                    pairs += lanes32_sum(&lanes);
                    lanes32_clear(&lanes);
                    pending = 0;
                }
                if (these >= QCJ_LANE_LIMIT) {
                    pairs += qcj_pairs_avx512_disjoint32(tops + t0, nt, bottoms + b0, nb);
                } else {
                    pending += these;
                    if (nb >= nt)   /* [longer list in the vectors] */
                        slice32_into(tops + t0, nt, bottoms + b0, nb, &lanes);
                    else
                        slice32_into(bottoms + b0, nb, tops + t0, nt, &lanes);
                }
            }
            if (bg == 0)
                break;
        }
    }
    pairs += lanes32_sum(&lanes);
    *tested += tried;
    return pairs;
}

static inline AVX512 uint64_t disjoint64_at(void *ctx, size_t t0, size_t nt, size_t b0, size_t nb)
{
    const qcj_lists *l = ctx;
    return qcj_pairs_avx512_disjoint64((const uint64_t *)l->tops + t0, nt,
                                       (const uint64_t *)l->bottoms + b0, nb);
}

AVX512 uint64_t qcj_pairs_avx512_groups64(const uint32_t *toff, const uint64_t *tops,
                                          const uint32_t *boff, const uint64_t *bottoms,
                                          int key_bits, uint32_t extra, uint64_t *tested)
{
    qcj_lists l = {tops, bottoms};
    return qcj_sieve(toff, boff, key_bits, extra, disjoint64_at, &l, tested);
}

#endif
