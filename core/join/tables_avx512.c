/* SPDX-License-Identifier: MIT */
/*
 * tables_avx512.c — the byte-table joiner ([byte tables], tables.h) of the
 * avx512 level: nibble tables looked up by VPSHUFB, 8 tops by 64 bottoms
 * a lookup (AVX-512 F and BW).  Tricks, named where they are used:
 *   [nibble by lane] a block's tables are built four nibbles at once, one
 *                    per 128-bit lane (a shuffle's reach);
 *   [byte counts]    a clash byte's set bits are counted by two
 *                    shuffles of a popcount table, summed in bytes for up
 *                    to 31 vectors and widened by PSADBW; the disjoint
 *                    pairs are the pairs swept less those.
 */
#include <immintrin.h>

#include "joiner.h"
#include "tables.h"

#define TBL_BLOCK 8
#define TBL_DIGIT_BITS 4
#define TBL_DIGITS_MAX 16

typedef struct tbl_block {
    __m512i t[TBL_DIGITS_MAX];   /* nibble j's table in every lane of t[j] */
} tbl_block;

/* [byte counts] the pairs swept, and of them those that clash (qword
 * sums) */
typedef struct tbl_sums {
    uint64_t swept;
    __m512i clashing;
} tbl_sums;

static inline tbl_sums tbl_sums_zero(void)
{
    return (tbl_sums){0, _mm512_setzero_si512()};
}

static inline uint64_t tbl_sums_total(tbl_sums s)
{
    return s.swept - (uint64_t)_mm512_reduce_add_epi64(s.clashing);
}

/* [nibble by lane] the tables of nibbles lane0..lane0+3 of a block of n
 * (1..8) tops: 128-bit lane q holds nibble lane0+q's. */
static inline __attribute__((always_inline)) __m512i block_lanes(const uint64_t *tops, size_t n,
                                                                  int lane0)
{
    const __m512i v = _mm512_set4_epi32(0x0f0e0d0c, 0x0b0a0908, 0x07060504, 0x03020100);
    const __m512i shift = _mm512_add_epi64(_mm512_set_epi64(12, 12, 8, 8, 4, 4, 0, 0),
                                           _mm512_set1_epi64(4 * lane0));
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
        __m512i x = _mm512_srlv_epi64(_mm512_set1_epi64((long long)tops[i]), shift);
        x = _mm512_shuffle_epi8(x, first_byte);
        t = _mm512_mask_add_epi8(t, _mm512_test_epi8_mask(x, v), t, bit);
    }
    return t;
}

static inline __attribute__((always_inline)) void tbl_build(tbl_block *b, const uint64_t *tops,
                                                             size_t n, const int digits,
                                                             const int width)
{
    (void)width;                        /* always TBL_DIGIT_BITS here */
    for (int j0 = 0; j0 < digits; j0 += 4) {
        const __m512i lanes = block_lanes(tops, n, j0);
        b->t[j0] = _mm512_shuffle_i32x4(lanes, lanes, 0x00);
        if (j0 + 1 < digits)
            b->t[j0 + 1] = _mm512_shuffle_i32x4(lanes, lanes, 0x55);
        if (j0 + 2 < digits)
            b->t[j0 + 2] = _mm512_shuffle_i32x4(lanes, lanes, 0xaa);
        if (j0 + 3 < digits)
            b->t[j0 + 3] = _mm512_shuffle_i32x4(lanes, lanes, 0xff);
    }
}

/* Which of the 8 tops clash with each of the 64 bottoms of the planes at
 * p. */
static inline __attribute__((always_inline)) __m512i clash_at(const tbl_block *b, const uint8_t *p,
                                                               size_t stride, const int digits)
{
    __m512i clash = _mm512_shuffle_epi8(b->t[0], _mm512_loadu_si512(p));
    for (int j = 1; j < digits; j++)
        clash = _mm512_or_si512(clash, _mm512_shuffle_epi8(b->t[j], _mm512_loadu_si512(p + (size_t)j * stride)));
    return clash;
}

/* [byte counts] the set bits of each byte of clash. */
static inline __attribute__((always_inline)) __m512i clash_bits(__m512i clash)
{
    const __m512i ones_in = _mm512_set4_epi32(0x04030302, 0x03020201, 0x03020201, 0x02010100);
    const __m512i low = _mm512_set1_epi8(0x0f);
    return _mm512_add_epi8(_mm512_shuffle_epi8(ones_in, _mm512_and_si512(clash, low)),
                           _mm512_shuffle_epi8(ones_in, _mm512_and_si512(_mm512_srli_epi16(clash, 4), low)));
}

static inline __attribute__((always_inline)) void tbl_sweep(const tbl_block *b,
                                                             const uint8_t *planes, size_t stride,
                                                             size_t b0, size_t nb,
                                                             const int digits, tbl_sums *sums)
{
    const uint8_t *p = planes + b0;
    const __m512i zero = _mm512_setzero_si512();
    sums->swept += TBL_BLOCK * nb;          /* missing tops clash with all */
    __m512i bytes = zero;
    /* [byte counts] at most 8 a vector: 31 vectors fit a byte */
    for (int round = 0; nb >= 64; nb -= 64, p += 64) {
        bytes = _mm512_add_epi8(bytes, clash_bits(clash_at(b, p, stride, digits)));
        if (++round == 31) {
            sums->clashing = _mm512_add_epi64(sums->clashing, _mm512_sad_epu8(bytes, zero));
            bytes = zero;
            round = 0;
        }
    }
    if (nb)
        bytes = _mm512_add_epi8(bytes, clash_bits(_mm512_maskz_mov_epi8(((__mmask64)1 << nb) - 1u,
                                                                         clash_at(b, p, stride, digits))));
    sums->clashing = _mm512_add_epi64(sums->clashing, _mm512_sad_epu8(bytes, zero));
}

#define TBL_COUNT tables_count
#include "tables_loop.h"

const qcj_joiner qcj_tables_joiner = {
    .name = "tables",
    .middle = TBL_MIDDLE,
    .merges_passes = TBL_MIDDLE == QCJ_MIDDLE_CARRIED,
    .count = tables_count,
};
