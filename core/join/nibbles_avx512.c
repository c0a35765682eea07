/* SPDX-License-Identifier: MIT */
/*
 * nibbles_avx512.c — the nibble kind of the table hot loop (nibbles.h):
 * tables of the tops, planes of the bottoms (for both kinds), the shuffles
 * that count their disjoint pairs, and the choice of kind.  Tricks, named
 * where they are used:
 *   [nibble tables]  nibbles.h;
 *   [nibble by lane] a table block is built for four nibbles at once, one
 *                    per 128-bit lane (a shuffle's reach);
 *   [byte counts]    a byte's zero bits are counted by two shuffles of a
 *                    popcount table, summed in bytes (at most 8 a round)
 *                    and widened (PSADBW) before a byte could pass 255.
 */
#include "nibbles.h"

#include "pairs.h"

#if defined(QCJ_PAIRS_HAVE_AVX512)
#include <immintrin.h>

#define AVX512BW __attribute__((target("avx512f,avx512bw")))
#define NIB_INLINE static inline __attribute__((always_inline)) AVX512BW

/* [nibble by lane] the tables of nibbles lane0..lane0+3 for one block of
 * n (1..8) tops: lane q holds nibble lane0+q's table. */
NIB_INLINE __m512i block_lanes(const uint32_t *tops, size_t n, int lane0)
{
    const __m512i v = _mm512_set4_epi32(0x0f0e0d0c, 0x0b0a0908, 0x07060504, 0x03020100);
    const __m512i shift = _mm512_add_epi32(
        _mm512_set_epi32(12, 12, 12, 12, 8, 8, 8, 8, 4, 4, 4, 4, 0, 0, 0, 0),
        _mm512_set1_epi32(4 * lane0));
    const __m512i first_byte = _mm512_setzero_si512();
    __m512i t = _mm512_setzero_si512();
    for (size_t i = 0; i < 8; i++) {
        const __m512i bit = _mm512_set1_epi8((char)(1u << i));
        if (i >= n) {                    /* a missing top clashes with all */
            t = _mm512_or_si512(t, bit);
            continue;
        }
        /* each lane's nibble in every byte of the lane (the bits above it
         * are another nibble's, and v, below 16, ignores them) */
        __m512i x = _mm512_srlv_epi32(_mm512_set1_epi32((int)tops[i]), shift);
        x = _mm512_shuffle_epi8(x, first_byte);
        t = _mm512_mask_add_epi8(t, _mm512_test_epi8_mask(x, v), t, bit);
    }
    return t;
}

/* A block's tables, nibble j's broadcast to every lane of t[j]. */
NIB_INLINE void block_tables(__m512i *t, const uint32_t *tops, size_t n, const int chunks)
{
    const __m512i low = block_lanes(tops, n, 0);
    const __m512i high = chunks > 4 ? block_lanes(tops, n, 4) : low;
    t[0] = _mm512_shuffle_i32x4(low, low, 0x00);
    t[1] = _mm512_shuffle_i32x4(low, low, 0x55);
    t[2] = _mm512_shuffle_i32x4(low, low, 0xaa);
    t[3] = _mm512_shuffle_i32x4(low, low, 0xff);
    if (chunks > 4)
        t[4] = _mm512_shuffle_i32x4(high, high, 0x00);
    if (chunks > 5)
        t[5] = _mm512_shuffle_i32x4(high, high, 0x55);
    if (chunks > 6)
        t[6] = _mm512_shuffle_i32x4(high, high, 0xaa);
    if (chunks > 7)
        t[7] = _mm512_shuffle_i32x4(high, high, 0xff);
}

AVX512BW void qcj_nib_planes(const uint32_t *low32, size_t len, uint32_t or_in, int slice_bits,
                             int chunks, uint8_t *planes, size_t stride)
{
    const __m512i low_nibble = _mm512_set1_epi32((1 << slice_bits) - 1);
    const __m512i extra = _mm512_set1_epi32((int)or_in);
    for (size_t p = 0; p < len; p += 16) {
        const __mmask16 live = len - p >= 16 ? 0xffff : (__mmask16)((1u << (len - p)) - 1u);
        const __m512i x = _mm512_or_si512(_mm512_maskz_loadu_epi32(live, low32 + p), extra);
        for (int j = 0; j < chunks; j++) {
            const __m512i nib = _mm512_and_si512(_mm512_srli_epi32(x, (unsigned)(slice_bits * j)), low_nibble);
            _mm_storeu_si128((__m128i *)(planes + (size_t)j * stride + p), _mm512_cvtepi32_epi8(nib));
        }
    }
}

#define NIB_SLICE_BITS 4
#define NIB_SLICES_MIN 5
#define NIB_SLICES_MAX 8
#define NIB_COUNT_NAME nibble_count
#include "nibbles_loop.h"

const qcj_nib_kind qcj_nib_nibbles = {
    .name = "nibbles",
    .slice_bits = 4,
    .min_slices = 5,
    .max_slices = 8,
    .count = nibble_count,
};

const qcj_nib_kind *qcj_nib_kind_now(void)
{
#if defined(QCJ_NIB_SEPTETS)
    static int septets = -1;             /* the same answer for every thread */
    if (__atomic_load_n(&septets, __ATOMIC_RELAXED) < 0)
        __atomic_store_n(&septets,
                         __builtin_cpu_supports("avx512vbmi")
                             && __builtin_cpu_supports("avx512vpopcntdq")
                             && __builtin_cpu_supports("gfni"),
                         __ATOMIC_RELAXED);
    if (__atomic_load_n(&septets, __ATOMIC_RELAXED))
        return &qcj_nib_septets;
#endif
    return &qcj_nib_nibbles;
}

#endif
