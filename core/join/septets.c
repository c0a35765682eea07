/* SPDX-License-Identifier: MIT */
/*
 * septets.c — the septet kind of the table hot loop ([slice kinds],
 * nibbles.h): 7-bit slices whose 128-byte tables VPERMI2B looks up (AVX-512
 * VBMI), so a 32-bit ANDed part takes 5 lookups a vector where nibbles take
 * 8, and VPOPCNTQ (AVX-512 VPOPCNTDQ) counts the pairs.  Built with those
 * where the compiler knows them (QCJ_NIB_SEPTETS); qcj_nib_kind_now
 * picks it on the CPUs that have them (and GFNI, for the tables).  Tricks,
 * named where they are used:
 *   [bit planes] a block's tables are built from its 8 tops' bit planes
 *                (one byte per bit: which tops have it), transposed by
 *                GF2P8AFFINEQB: entry v of a slice's table is the OR of
 *                the planes of v's bits.
 */
#include "nibbles.h"

#include "pairs.h"

#if defined(QCJ_PAIRS_HAVE_AVX512) && defined(QCJ_NIB_SEPTETS)
#include <immintrin.h>

/* Lanes 0..63 of a table half whose index has bit t set, t < 6 (bit 6
 * picks the half). */
static const uint64_t lanes_with_bit[6] = {
    0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull, 0xF0F0F0F0F0F0F0F0ull,
    0xFF00FF00FF00FF00ull, 0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull,
};

/* [bit planes] byte b of the result: which of the n (1..8) tops have bit
 * b (bit i: top i), b < 32.  Byte m of every top is gathered into qword m,
 * top 7 first; GF2P8AFFINEQB with the unit bytes 1, 2, 4, ... then
 * transposes each qword's 8x8 bit matrix: byte j of qword m is the plane
 * of bit 8m+j. */
static inline __m256i bit_planes(const uint32_t *tops, size_t n)
{
    const __m256i v = _mm256_maskz_loadu_epi32((__mmask8)((1u << n) - 1u), tops);
    static const uint8_t gather[32] = {    /* qword m, byte k: byte m of top 7-k */
        28, 24, 20, 16, 12, 8, 4, 0, 29, 25, 21, 17, 13, 9, 5, 1,
        30, 26, 22, 18, 14, 10, 6, 2, 31, 27, 23, 19, 15, 11, 7, 3,
    };
    const __m256i rows = _mm256_permutexvar_epi8(_mm256_loadu_si256((const __m256i *)gather), v);
    const __m256i units = _mm256_set1_epi64x(0x8040201008040201ll);
    return _mm256_gf2p8affine_epi64_epi8(units, rows, 0);
}

/* A block of n (1..8) tops: slice j's table in t[2j] (entries 0..63) and
 * t[2j+1] (64..127); entry v is the OR of the planes of v's bits. */
static inline __attribute__((always_inline)) void block_tables(__m512i *t, const uint32_t *tops,
                                                               size_t n, const int slices)
{
    const __m512i planes = _mm512_castsi256_si512(bit_planes(tops, n));
    const __m512i missing = _mm512_set1_epi8((char)(0xffu << n));   /* clash with all */
    for (int j = 0; j < slices; j++) {
        __m512i lo = missing;
        for (int b = 0; b < 6 && 7 * j + b < 32; b++)
            lo = _mm512_or_si512(lo, _mm512_maskz_permutexvar_epi8(
                                         lanes_with_bit[b], _mm512_set1_epi8((char)(7 * j + b)), planes));
        t[2 * j] = lo;
        t[2 * j + 1] = 7 * j + 6 < 32
                           ? _mm512_or_si512(lo, _mm512_permutexvar_epi8(
                                                     _mm512_set1_epi8((char)(7 * j + 6)), planes))
                           : lo;
    }
}

#define NIB_SLICE_BITS 7
#define NIB_SLICES_MIN 3
#define NIB_SLICES_MAX 5
#define NIB_COUNT_NAME septet_count
#include "nibbles_loop.h"

const qcj_nib_kind qcj_nib_septets = {
    .name = "septets",
    .slice_bits = 7,
    .min_slices = 3,
    .max_slices = 5,
    .count = septet_count,
};

#endif
