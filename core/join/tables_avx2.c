/* SPDX-License-Identifier: MIT */
/*
 * tables_avx2.c — the byte-table joiner ([byte tables], tables.h) of the
 * avx2 level: nibble tables looked up by VPSHUFB on 32 bytes, 8 tops by 32
 * bottoms a lookup.  Tricks, named where they are used:
 *   [planes by transposing] a block's bit planes come from its tops'
 *                        bytes transposed in registers, then bits within
 *                        each qword by three block swaps: every plane a
 *                        byte, with no branch and no scalar code;
 *   [missing by count]   where the digits end below bit 32, the missing
 *                        tops' mask comes from their count by a table
 *                        of nine bytes, and the tops' high halves are
 *                        never transposed (paired rounds at N=18: 0.96
 *                        and 0.98 of the time; 1.8% fewer instructions
 *                        at N=16);
 *   [tables by shuffling] a nibble's 16-byte table is two shuffles of the
 *                        qword of its planes and their pairwise unions;
 *   [pairs added]        the clash vectors are summed two at a time by
 *                        the bit-sliced adders of tables_adders.h, each
 *                        carry waiting for its partner, carried through a
 *                        join's sweeps, so that only a sweep's odd vector
 *                        waits; only the carries out of the eights are
 *                        counted, by two shuffles of a popcount table and
 *                        VPSADBW; the disjoint pairs are the pairs swept
 *                        less those, so no vector is inverted.  A sweep
 *                        meets some 30 vectors at N=18: summed sixteen at
 *                        a time, the 14 left over waited for sixteen, in
 *                        memory; two at a time, paired rounds (one
 *                        thread) took 0.95-0.97 of the time at N=16, 17
 *                        and 18.
 */
#include <immintrin.h>

#include "joiner.h"
#include "tables.h"

#define TBL_BLOCK 8
#define TBL_DIGIT_BITS 4
#define TBL_DIGITS_MAX 16

typedef struct tbl_block {
    __m256i t[TBL_DIGITS_MAX];   /* nibble j's table in both lanes of t[j] */
} tbl_block;

/* The set bits of each byte of x, summed in its four qwords
 * (tables_adders.h). */
static inline __attribute__((always_inline)) __m256i tbl_word_bits(__m256i x)
{
    const __m256i ones_in = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                             0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    const __m256i bytes = _mm256_add_epi8(
        _mm256_shuffle_epi8(ones_in, _mm256_and_si256(x, low)),
        _mm256_shuffle_epi8(ones_in, _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
    return _mm256_sad_epu8(bytes, _mm256_setzero_si256());
}

/* [pairs added] the clash vectors counted by bit-sliced adders, the
 * sixteens in qword sums */
typedef __m256i tbl_word;
typedef __m256i tbl_tally;
#include "tables_adders.h"

static inline uint64_t tbl_sums_total(tbl_sums s)
{
    const __m256i q = tbl_sums_clashing(s);
    const __m128i x = _mm_add_epi64(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1));
    return s.swept - (uint64_t)_mm_cvtsi128_si64(x) - (uint64_t)_mm_extract_epi64(x, 1);
}

/* [planes by transposing] The block's bit planes as bytes: byte b of
 * pl[b / 32] holds bit b of every top (in the order t0 t4 t1 t5 t2 t6 t3
 * t7, the same for every plane: a top's place in the block does not
 * matter).  Missing tops (i >= n) are taken as all ones, so that every
 * plane has them and the plane of bit 63, which no ANDed part reaches (62
 * bits at most), is the mask of the missing tops.  The tops' bytes are
 * transposed by unpacking, then each 8 by 8 bit matrix (a qword: a byte
 * of every top) by three block swaps. */
static inline __attribute__((always_inline)) void bit_planes(const uint64_t *tops, size_t n,
                                                              __m256i pl[2])
{
    __m256i a, b;
    if (n == TBL_BLOCK) {           /* most blocks: plain loads (a masked one is slower) */
        a = _mm256_loadu_si256((const __m256i *)tops);
        b = _mm256_loadu_si256((const __m256i *)tops + 1);
    } else {
        const __m256i index = _mm256_set_epi64x(3, 2, 1, 0);
        const __m256i present_a = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)n), index);
        const __m256i present_b = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)n - 4), index);
        const __m256i all = _mm256_set1_epi64x(-1);
        a = _mm256_or_si256(_mm256_maskload_epi64((const long long *)tops, present_a),
                            _mm256_xor_si256(present_a, all));
        b = _mm256_or_si256(_mm256_maskload_epi64((const long long *)tops + 4, present_b),
                            _mm256_xor_si256(present_b, all));
    }
    /* bytes of a = [t0 t1 | t2 t3], b = [t4 t5 | t6 t7] transposed: x[0]'s
     * qword m holds byte m of every top (m < 4), x[1]'s byte m+4 */
    const __m256i u0 = _mm256_unpacklo_epi8(a, b), u1 = _mm256_unpackhi_epi8(a, b);
    const __m256i v0 = _mm256_unpacklo_epi16(u0, u1), v1 = _mm256_unpackhi_epi16(u0, u1);
    const __m256i s0 = _mm256_permute2x128_si256(v0, v0, 0x01);
    const __m256i s1 = _mm256_permute2x128_si256(v1, v1, 0x01);
    __m256i x[2] = {_mm256_permute2x128_si256(_mm256_unpacklo_epi32(v0, s0),
                                              _mm256_unpackhi_epi32(v0, s0), 0x20),
                    _mm256_permute2x128_si256(_mm256_unpacklo_epi32(v1, s1),
                                              _mm256_unpackhi_epi32(v1, s1), 0x20)};
    /* each qword's bit c of byte r to bit r of byte c */
#define SWAP_BLOCKS(x, shift, mask)                                                               \
    do {                                                                                          \
        const __m256i t = _mm256_and_si256(_mm256_xor_si256(x, _mm256_srli_epi64(x, shift)),     \
                                           _mm256_set1_epi64x((long long)(mask)));               \
        x = _mm256_xor_si256(x, _mm256_xor_si256(t, _mm256_slli_epi64(t, shift)));               \
    } while (0)
    for (int h = 0; h < 2; h++) {
        SWAP_BLOCKS(x[h], 7, 0x00aa00aa00aa00aaull);
        SWAP_BLOCKS(x[h], 14, 0x0000cccc0000ccccull);
        SWAP_BLOCKS(x[h], 28, 0x00000000f0f0f0f0ull);
        pl[h] = x[h];
    }
#undef SWAP_BLOCKS
}

/* [tables by shuffling] Nibble j's table is two shuffles of one qword,
 * the bytes of its planes p0..p3 (the missing tops are in all of them)
 * and of p0|p1, p2|p3 and the missing tops' mask:
 *     qword of j: p0 p1 p2 p3 missing p0|p1 p1|p2 p2|p3
 * entry v = (the v & 3 part) | (the v >> 2 part), each picked by
 * VPSHUFB (entry 0: the missing tops). */
static inline __attribute__((always_inline)) void tbl_build(tbl_block *blk, const uint64_t *tops,
                                                             size_t n, const int digits,
                                                             const int width)
{
    (void)width;                        /* always TBL_DIGIT_BITS here */
    __m256i pl[2];
    bit_planes(tops, n, pl);
    /* the missing tops' mask (plane 63) in every byte: [missing by count]
     * where the digits stop short of bit 32, so that the planes of the
     * tops' high halves are never made; missing_of[n] has the bits of
     * tops n..7 in the planes' order t0 t4 t1 t5 t2 t6 t3 t7 */
    static const uint8_t missing_of[TBL_BLOCK + 1] = {0xff, 0xfe, 0xfa, 0xea, 0xaa,
                                                      0xa8, 0xa0, 0x80, 0x00};
    const __m256i missing = digits <= 8 ? _mm256_set1_epi8((char)missing_of[n])
                                        : _mm256_shuffle_epi8(_mm256_permute4x64_epi64(pl[1], 0xff),
                                                              _mm256_set1_epi8(7));
    const __m256i first_byte = _mm256_set1_epi32(0xff);
    /* qwords of digit j at q[8 (j / 8) + order[j % 8]] */
    uint64_t q[16] __attribute__((aligned(32)));
    for (int h = 0; h < 2 && 8 * h < digits; h++) {
        const __m256i d = pl[h];
        const __m256i e = _mm256_blendv_epi8(_mm256_or_si256(d, _mm256_slli_epi32(d, 8)), missing,
                                             first_byte);
        _mm256_store_si256((__m256i *)(q + 8 * h), _mm256_unpacklo_epi32(d, e));
        _mm256_store_si256((__m256i *)(q + 8 * h + 4), _mm256_unpackhi_epi32(d, e));
    }
    static const int order[8] = {0, 1, 4, 5, 2, 3, 6, 7};
    const __m256i low_part = _mm256_setr_epi8(4, 0, 1, 5, 4, 0, 1, 5, 4, 0, 1, 5, 4, 0, 1, 5,
                                              4, 0, 1, 5, 4, 0, 1, 5, 4, 0, 1, 5, 4, 0, 1, 5);
    const __m256i high_part = _mm256_setr_epi8(4, 4, 4, 4, 2, 2, 2, 2, 3, 3, 3, 3, 7, 7, 7, 7,
                                               4, 4, 4, 4, 2, 2, 2, 2, 3, 3, 3, 3, 7, 7, 7, 7);
    for (int j = 0; j < digits; j++) {
        const __m256i src = _mm256_set1_epi64x((long long)q[8 * (j >> 3) + order[j & 7]]);
        blk->t[j] = _mm256_or_si256(_mm256_shuffle_epi8(src, low_part),
                                    _mm256_shuffle_epi8(src, high_part));
    }
}

/* Which of the 8 tops clash with each of the 32 bottoms of the planes at
 * p. */
static inline __attribute__((always_inline)) __m256i clash_at(const tbl_block *blk, const uint8_t *p,
                                                               size_t stride, const int digits)
{
    __m256i clash = _mm256_shuffle_epi8(blk->t[0], _mm256_loadu_si256((const __m256i *)p));
    for (int j = 1; j < digits; j++)
        clash = _mm256_or_si256(clash, _mm256_shuffle_epi8(blk->t[j], _mm256_loadu_si256(
                                                                          (const __m256i *)(p + (size_t)j * stride))));
    return clash;
}

/* The first `live` bytes of a vector: ones, the rest zeros. */
static const uint8_t live_bytes[64] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
};

static inline __attribute__((always_inline)) void tbl_sweep(const tbl_block *blk,
                                                             const uint8_t *planes, size_t stride,
                                                             size_t b0, size_t nb,
                                                             const int digits, tbl_sums *sums)
{
    const uint8_t *p = planes + b0;
    TBL_SUMS_OPEN(sums);
    TBL_PAIRS_OPEN(sums);
    sums->swept += TBL_BLOCK * nb;          /* missing tops clash with all */
    for (; nb >= 2 * 32; nb -= 2 * 32, p += 2 * 32)      /* [pairs added] */
        TBL_ADD2(clash_at(blk, p, stride, digits), clash_at(blk, p + 32, stride, digits));
    if (nb > 32) {                          /* a whole vector and a ragged one */
        const __m256i ragged = _mm256_and_si256(
            clash_at(blk, p + 32, stride, digits),
            _mm256_loadu_si256((const __m256i *)(live_bytes + 64 - nb)));
        TBL_ADD2(clash_at(blk, p, stride, digits), ragged);
    } else if (nb) {                        /* one vector waits for its partner */
        __m256i clash = clash_at(blk, p, stride, digits);
        if (nb < 32)
            clash = _mm256_and_si256(clash, _mm256_loadu_si256((const __m256i *)(live_bytes + 32 - nb)));
        TBL_WAIT(sums, clash);
    }
    TBL_PAIRS_CLOSE(sums);
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
