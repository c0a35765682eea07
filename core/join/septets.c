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

#define SEPTET_BLOCK_BYTES ((size_t)5 * 128)

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
    uint8_t gather[32];
    for (int m = 0; m < 4; m++)
        for (int k = 0; k < 8; k++)
            gather[8 * m + k] = (uint8_t)(4 * (7 - k) + m);
    const __m256i rows = _mm256_permutexvar_epi8(_mm256_loadu_si256((const __m256i *)gather), v);
    const __m256i units = _mm256_set1_epi64x(0x8040201008040201ll);
    return _mm256_gf2p8affine_epi64_epi8(units, rows, 0);
}

/* One block of n (1..8) tops: slice j's table at out + 128 j, its entries
 * 0..63 then 64..127; entry v is the OR of the planes of v's bits. */
static void septet_block(const uint32_t *tops, size_t n, int slices, uint8_t *out)
{
    const __m512i planes = _mm512_castsi256_si512(bit_planes(tops, n));
    const __m512i missing = _mm512_set1_epi8((char)(0xffu << n));   /* clash with all */
    for (int j = 0; j < slices; j++) {
        __m512i lo = missing;
        for (int t = 0; t < 6 && 7 * j + t < 32; t++)
            lo = _mm512_or_si512(lo, _mm512_maskz_permutexvar_epi8(
                                         lanes_with_bit[t], _mm512_set1_epi8((char)(7 * j + t)), planes));
        __m512i hi = lo;
        if (7 * j + 6 < 32)
            hi = _mm512_or_si512(lo, _mm512_permutexvar_epi8(_mm512_set1_epi8((char)(7 * j + 6)), planes));
        _mm512_storeu_si512(out + 128 * j, lo);
        _mm512_storeu_si512(out + 128 * j + 64, hi);
    }
}

static void septet_tables(const uint32_t *off, const uint32_t *low32, size_t groups, int slices,
                          uint32_t *blk, uint8_t *tables)
{
    uint32_t block = 0;
    for (size_t g = 0; g < groups; g++) {
        blk[g] = block;
        for (uint32_t i = off[g]; i < off[g + 1]; i += 8, block++) {
            const size_t n = off[g + 1] - i < 8 ? off[g + 1] - i : 8;
            septet_block(low32 + i, n, slices, tables + SEPTET_BLOCK_BYTES * block);
        }
    }
    blk[groups] = block;
}

#define NIB_SLICE_BITS 7
#define NIB_SLICES_MIN 3
#define NIB_SLICES_MAX 5
#define NIB_BLOCK_BYTES SEPTET_BLOCK_BYTES
#define NIB_COUNT_NAME septet_count
#include "nibbles_loop.h"

const qcj_nib_kind qcj_nib_septets = {
    .name = "septets",
    .slice_bits = 7,
    .min_slices = 3,
    .max_slices = 5,
    .block_bytes = SEPTET_BLOCK_BYTES,
    .tables = septet_tables,
    .count = septet_count,
};

#endif
