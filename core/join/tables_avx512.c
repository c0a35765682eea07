/* SPDX-License-Identifier: MIT */
/*
 * tables_avx512.c — the byte-table joiner ([byte tables], tables.h) of the
 * avx512 level: nibble tables looked up by VPSHUFB, 8 tops by 64 bottoms
 * a lookup (AVX-512 F and BW).  Tricks, named where they are used:
 *   [planes by transposing] a block's bit planes come from its tops'
 *                    bytes transposed by a shuffle and a word permutation
 *                    (VPERMW), then bits within each qword by three block
 *                    swaps;
 *   [tables by shuffling] a nibble's table is two shuffles of the qword
 *                    of its planes and their pairwise unions,
 *   [nibble by lane] ... four nibbles at once, one per 128-bit lane (a
 *                    shuffle's reach), each then broadcast;
 *   [vector counts]  the clash vectors are summed sixteen at a time by the
 *                    bit-sliced adders of tables_adders.h (three-input
 *                    logic, VPTERNLOG, off the shuffle port), carried
 *                    through a join's sweeps; only the carries out of the
 *                    eights are counted, by two shuffles of a popcount
 *                    table and PSADBW; the disjoint pairs are the pairs
 *                    swept less those.
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

/* [planes by transposing] The block's bit planes: byte c of qword m is
 * the plane of bit 8m + c (bit i: top i).  Missing tops (i >= n) are all
 * ones, so every plane has them.  The tops' bytes are transposed by a
 * shuffle in each lane (pairs of tops) and a word permutation across
 * lanes (VPERMW), then each 8 by 8 bit matrix (a qword: a byte of every
 * top) by three block swaps. */
static inline __attribute__((always_inline)) __m512i bit_planes(const uint64_t *tops, size_t n)
{
    const __m512i v = _mm512_mask_loadu_epi64(_mm512_set1_epi64(-1), (__mmask8)((1u << n) - 1u),
                                              tops);
    /* each lane's two tops t, t+1: byte m of t then of t+1, m = 0..7 */
    const __m512i pairs = _mm512_shuffle_epi8(
        v, _mm512_set4_epi32(0x0f070e06, 0x0d050c04, 0x0b030a02, 0x09010800));
    /* word 4m + l: lane l's pair of bytes m, so qword m holds byte m of
     * tops 0..7 in order */
    __m512i x = _mm512_permutexvar_epi16(
        _mm512_set_epi16(31, 23, 15, 7, 30, 22, 14, 6, 29, 21, 13, 5, 28, 20, 12, 4,
                         27, 19, 11, 3, 26, 18, 10, 2, 25, 17, 9, 1, 24, 16, 8, 0),
        pairs);
    /* each qword's bit c of byte r to bit r of byte c */
#define SWAP_BLOCKS(x, shift, mask)                                                               \
    do {                                                                                          \
        const __m512i t = _mm512_and_si512(_mm512_xor_si512(x, _mm512_srli_epi64(x, shift)),     \
                                           _mm512_set1_epi64((long long)(mask)));                \
        x = _mm512_xor_si512(x, _mm512_xor_si512(t, _mm512_slli_epi64(t, shift)));              \
    } while (0)
    SWAP_BLOCKS(x, 7, 0x00aa00aa00aa00aaull);
    SWAP_BLOCKS(x, 14, 0x0000cccc0000ccccull);
    SWAP_BLOCKS(x, 28, 0x00000000f0f0f0f0ull);
#undef SWAP_BLOCKS
    return x;
}

/* [tables by shuffling] Nibble j's table is two shuffles of one qword,
 * the bytes of its planes p0..p3 (dword j of the planes) and of the
 * missing tops' mask, p0|p1, p1|p2 and p2|p3:
 *     qword of j: p0 p1 p2 p3 missing p0|p1 p1|p2 p2|p3
 * entry v = (the v & 3 part) | (the v >> 2 part), each picked by VPSHUFB
 * (entry 0: the missing tops).  [nibble by lane] Four nibbles at once,
 * one a 128-bit lane, then each lane broadcast to a register. */
static inline __attribute__((always_inline)) void tbl_build(tbl_block *b, const uint64_t *tops,
                                                             size_t n, const int digits,
                                                             const int width)
{
    (void)width;                        /* always TBL_DIGIT_BITS here */
    const __m512i planes = bit_planes(tops, n);
    const __m512i missing = _mm512_set1_epi8((char)(0xffu << n));
    /* dword j: missing, p0|p1, p1|p2, p2|p3 */
    const __m512i ored = _mm512_or_si512(planes, _mm512_slli_epi32(planes, 8));
    const __m512i unions = _mm512_mask_blend_epi8(0x1111111111111111ull, ored, missing);
    const __m512i low_part = _mm512_set4_epi32(0x05010004, 0x05010004, 0x05010004, 0x05010004);
    const __m512i high_part = _mm512_set4_epi32(0x07070707, 0x03030303, 0x02020202, 0x04040404);
    for (int j0 = 0; j0 < digits; j0 += 4) {
        /* lane q: dword j0+q of the planes, then of the unions */
        const __m512i src = _mm512_permutex2var_epi32(
            planes, _mm512_set_epi32(16 + j0 + 3, 16 + j0 + 3, 16 + j0 + 3, j0 + 3,
                                     16 + j0 + 2, 16 + j0 + 2, 16 + j0 + 2, j0 + 2,
                                     16 + j0 + 1, 16 + j0 + 1, 16 + j0 + 1, j0 + 1,
                                     16 + j0, 16 + j0, 16 + j0, j0),
            unions);
        const __m512i lanes = _mm512_or_si512(_mm512_shuffle_epi8(src, low_part),
                                              _mm512_shuffle_epi8(src, high_part));
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

/* The set bits of each byte of clash. */
static inline __attribute__((always_inline)) __m512i clash_bits(__m512i clash)
{
    const __m512i ones_in = _mm512_set4_epi32(0x04030302, 0x03020201, 0x03020201, 0x02010100);
    const __m512i low = _mm512_set1_epi8(0x0f);
    return _mm512_add_epi8(_mm512_shuffle_epi8(ones_in, _mm512_and_si512(clash, low)),
                           _mm512_shuffle_epi8(ones_in, _mm512_and_si512(_mm512_srli_epi16(clash, 4), low)));
}

/* The set bits of each byte of x, summed in its eight qwords
 * (tables_adders.h). */
static inline __attribute__((always_inline)) __m512i tbl_word_bits(__m512i x)
{
    return _mm512_sad_epu8(clash_bits(x), _mm512_setzero_si512());
}

/* [vector counts] the clash vectors counted by bit-sliced adders, the
 * sixteens in qword sums */
typedef __m512i tbl_word;
typedef __m512i tbl_tally;
#include "tables_adders.h"

static inline uint64_t tbl_sums_total(tbl_sums s)
{
    return s.swept - (uint64_t)_mm512_reduce_add_epi64(tbl_sums_clashing(s));
}

static inline __attribute__((always_inline)) void tbl_sweep(const tbl_block *b,
                                                             const uint8_t *planes, size_t stride,
                                                             size_t b0, size_t nb,
                                                             const int digits, tbl_sums *sums)
{
    const uint8_t *p = planes + b0;
    TBL_SUMS_OPEN(sums);
    sums->swept += TBL_BLOCK * nb;          /* missing tops clash with all */
#define CLASH(k) clash_at(b, p + 64 * (k), stride, digits)
    for (; nb >= 16 * 64; nb -= 16 * 64, p += 16 * 64)   /* [vector counts] */
        TBL_ADD16(CLASH);
#undef CLASH
    for (; nb; nb -= nb < 64 ? nb : 64, p += 64) {  /* the tail waits for sixteen */
        __m512i clash = clash_at(b, p, stride, digits);
        if (nb < 64)
            clash = _mm512_maskz_mov_epi8(((__mmask64)1 << nb) - 1u, clash);
        TBL_WAIT(sums, clash);
    }
    TBL_SUMS_CLOSE(sums);
}

#define TBL_COUNT tables_count
#include "tables_loop.h"

const qcj_joiner qcj_tables_joiner = {
    .name = "tables",
    .middle = TBL_MIDDLE,
    .merges_passes = TBL_MIDDLE == QCJ_MIDDLE_CARRIED,
    .count = tables_count,
};
