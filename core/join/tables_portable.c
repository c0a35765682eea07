/* SPDX-License-Identifier: MIT */
/*
 * tables_portable.c — the byte-table joiner ([byte tables], tables.h) of
 * the portable level, in plain C for any 64-bit CPU: 8-bit digits whose
 * tables have 64-bit entries, so one load tests 64 tops against a bottom.
 * Tricks, named where they are used:
 *   [word planes]        a block's bit planes are 64-bit words, bit i for
 *                        top i;
 *   [tables by doubling] entries 2^b..2^(b+1)-1 of a table are entries
 *                        0..2^b-1 ORed with the plane of bit b;
 *   [word counts]        the free bits of the words are summed eight
 *                        words at a time by bit-sliced adders, and only
 *                        their carries counted by the SWAR popcount, as a
 *                        CPU without a popcount instruction needs.
 */
#include "joiner.h"
#include "tables.h"

#define TBL_BLOCK 64
#define TBL_DIGIT_BITS 8
#define TBL_DIGITS_MAX 8
#define TBL_HELD 0                    /* 16 KiB of tables: read where they are stored */

typedef struct tbl_block {
    uint64_t t[TBL_DIGITS_MAX][256];   /* digit j, entry v: the tops clashing with v */
} tbl_block;

typedef uint64_t tbl_sums;

static inline tbl_sums tbl_sums_zero(void)
{
    return 0;
}

static inline uint64_t tbl_sums_total(tbl_sums s)
{
    return s;
}

/* The bits set in x (SWAR: pairs, nibbles, then bytes summed by a
 * multiplication). */
static inline uint64_t popcount64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (x * 0x0101010101010101ull) >> 56;
}

static inline __attribute__((always_inline)) void tbl_build(tbl_block *blk, const uint64_t *tops,
                                                             size_t n, const int digits)
{
    uint64_t planes[64] = {0};           /* [word planes] */
    for (size_t i = 0; i < n; i++)
        for (uint64_t x = tops[i]; x; x &= x - 1)
            planes[__builtin_ctzll(x)] |= (uint64_t)1 << i;
    const uint64_t missing = n == 64 ? 0 : ~(uint64_t)0 << n;   /* clash with all */
    for (int j = 0; j < digits; j++) {
        uint64_t *t = blk->t[j];         /* [tables by doubling] */
        t[0] = missing;
        for (int b = 0; b < 8; b++) {
            const uint64_t p = 8 * j + b < 64 ? planes[8 * j + b] : 0;
            for (int v = 0; v < 1 << b; v++)
                t[(1 << b) + v] = t[v] | p;
        }
    }
}

/* Which tops of the block clash with the bottom at p. */
static inline __attribute__((always_inline)) uint64_t clash_at(const tbl_block *blk, const uint8_t *p,
                                                               size_t stride, const int digits)
{
    uint64_t clash = blk->t[0][p[0]];
    for (int j = 1; j < digits; j++)
        clash |= blk->t[j][p[(size_t)j * stride]];
    return clash;
}

/* [word counts] a full adder over words: *high gets the carries and
 * *low the sums of a + b + c, bit by bit. */
static inline void add3(uint64_t *high, uint64_t *low, uint64_t a, uint64_t b, uint64_t c)
{
    const uint64_t u = a ^ b;
    *high = (a & b) | (u & c);
    *low = u ^ c;
}

static inline __attribute__((always_inline)) void tbl_sweep(const tbl_block *blk,
                                                             const uint8_t *planes, size_t stride,
                                                             size_t b0, size_t nb,
                                                             const int digits, tbl_sums *sums)
{
    const uint8_t *p = planes + b0;
    uint64_t eights = 0, fours = 0, twos = 0, ones = 0, fours_a, fours_b, twos_a, twos_b, eight;
    size_t i = 0;
    /* [word counts] eight words at a time into bit-sliced counters of
     * ones, twos and fours (Harley and Seal): one popcount per 8 words */
#define FREE(k) (~clash_at(blk, p + i + (k), stride, digits))
    for (; i + 8 <= nb; i += 8) {
        add3(&twos_a, &ones, ones, FREE(0), FREE(1));
        add3(&twos_b, &ones, ones, FREE(2), FREE(3));
        add3(&fours_a, &twos, twos, twos_a, twos_b);
        add3(&twos_a, &ones, ones, FREE(4), FREE(5));
        add3(&twos_b, &ones, ones, FREE(6), FREE(7));
        add3(&fours_b, &twos, twos, twos_a, twos_b);
        add3(&eight, &fours, fours, fours_a, fours_b);
        eights += popcount64(eight);
    }
#undef FREE
    uint64_t count = 8 * eights + 4 * popcount64(fours) + 2 * popcount64(twos) + popcount64(ones);
    for (; i < nb; i++)
        count += popcount64(~clash_at(blk, p + i, stride, digits));
    *sums += count;
}

#define TBL_COUNT tables_count
#include "tables_loop.h"

const qcj_joiner qcj_tables_joiner = {
    .name = "tables",
    .middle = TBL_MIDDLE,
    .merges_passes = TBL_MIDDLE == QCJ_MIDDLE_CARRIED,
    .count = tables_count,
};
