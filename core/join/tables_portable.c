/* SPDX-License-Identifier: MIT */
/*
 * tables_portable.c — the byte-table joiner ([byte tables], tables.h) of
 * the portable level, in C for any 64-bit CPU: 8-bit digits whose tables
 * have entries of TBL_WORDS 64-bit words, so one load tests a block of
 * 64 * TBL_WORDS tops against a bottom.
 * Tricks, named where they are used:
 *   [two-word entries]   where the CPU has 128-bit vectors (SSE2 is in
 *                        every x86-64, Advanced SIMD in every aarch64) an
 *                        entry is two words, one vector: a load, an OR and
 *                        the adders below test 128 tops instead of 64.
 *                        Measured at N=18: blocks of 64 hold 0.77 of
 *                        their tops on average, blocks of 128 0.61, so a
 *                        lookup tests 1.6 times as many pairs; elsewhere
 *                        a vector of two words would be two operations,
 *                        and one word is kept;
 *   [word planes]        a block's bit planes are entries, bit i of word
 *                        w for top 64w + i;
 *   [planes by transposing] the planes are the tops' bit matrix
 *                        transposed, branch-free;
 *   [narrow digits]      a digit has as few bits as keep the digits as
 *                        few (7 for N=18's 28), so that fewer entries
 *                        are built;
 *   [tables by doubling] entries 2^b..2^(b+1)-1 of a table are entries
 *                        0..2^b-1 ORed with the plane of bit b;
 *   [word counts]        the clashing bits of the entries are summed
 *                        sixteen at a time by the bit-sliced adders of
 *                        tables_adders.h, carried through a join's sweeps, and only their carries
 *                        counted by the SWAR popcount, as a CPU without a
 *                        popcount instruction needs; the disjoint pairs
 *                        are the pairs swept less those.
 */
#include "joiner.h"
#include "tables.h"

#ifndef TBL_WORDS                    /* (a test builds the one-word form too) */
#if defined(__SSE2__) || defined(__aarch64__)
#define TBL_WORDS 2                   /* [two-word entries] */
#else
#define TBL_WORDS 1
#endif
#endif
#define TBL_BLOCK (64 * TBL_WORDS)
#define TBL_DIGIT_BITS 8
#define TBL_DIGITS_MAX 8
/* [narrow digits] as few bits a digit as keep the digits as few: 7 for
 * the 28 bits of N=18 (tables of 128 entries to build, not 256) */
#define TBL_DIGIT_WIDTH(bits) tbl_digit_width(bits)

static inline int tbl_digit_width(int bits)
{
    const int digits = qcj_tables_digits(bits, TBL_DIGIT_BITS);
    const int width = (bits + digits - 1) / digits;
    return width > 0 ? width : 1;
}

/* One table entry: which tops of the block clash (GNU C vectors, which
 * the compiler maps to the CPU's vectors or to plain words). */
typedef uint64_t tbl_word __attribute__((vector_size(8 * TBL_WORDS)));

typedef struct tbl_block {
    tbl_word t[TBL_DIGITS_MAX][256];   /* digit j, entry v: the tops clashing with v */
} tbl_block;

/* The bits set in x (SWAR: pairs, nibbles, then bytes summed by a
 * multiplication). */
static inline uint64_t popcount64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (x * 0x0101010101010101ull) >> 56;
}

/* The bits set in an entry (tables_adders.h). */
static inline uint64_t tbl_word_bits(tbl_word x)
{
    uint64_t count = 0;
    for (int w = 0; w < TBL_WORDS; w++)
        count += popcount64(x[w]);
    return count;
}

/* [word counts] the clashing bits counted by bit-sliced adders */
typedef uint64_t tbl_tally;
#include "tables_adders.h"

static inline uint64_t tbl_sums_total(tbl_sums s)
{
    return s.swept - tbl_sums_clashing(s);
}

/* [planes by transposing] One step of the transposition: in each run of
 * 2j of the first `rows` rows, bit c of row r and bit r of row c swapped
 * across the diagonal for the j by j blocks (their bits under mask).
 * Inlined with constant j and rows, the loops unroll: no branch, and
 * shifts by constants. */
static inline __attribute__((always_inline)) void swap_blocks(tbl_word *a, const int rows,
                                                               const int j, const uint64_t mask)
{
    for (int k0 = 0; k0 < rows; k0 += 2 * j)
        for (int k = k0; k < k0 + j; k++) {
            const tbl_word t = ((a[k] >> j) ^ a[k + j]) & mask;
            a[k] ^= t << j;
            a[k + j] ^= t;
        }
}

/* The steps of blocks 16, 8, 4, 2 and 1 over the first `rows` rows. */
static inline __attribute__((always_inline)) void swap_small_blocks(tbl_word *a, const int rows)
{
    swap_blocks(a, rows, 16, 0x0000ffff0000ffffull);
    swap_blocks(a, rows, 8, 0x00ff00ff00ff00ffull);
    swap_blocks(a, rows, 4, 0x0f0f0f0f0f0f0f0full);
    swap_blocks(a, rows, 2, 0x3333333333333333ull);
    swap_blocks(a, rows, 1, 0x5555555555555555ull);
}

/* [planes by transposing] The bit planes of the block (plane b: bit b of
 * each top, top 64w + i at bit i of word w) of its first `rows` bits: the
 * tops as the rows of a 64 by 64 bit matrix (a word of each top-block
 * lane side by side), transposed by swapping ever smaller blocks across
 * the diagonal: no branch on the tops' bits.  Where rows <= 32 (every N
 * to 24) only the first 32 rows are transposed, their halves first
 * gathered (row k: top k's low half, then top k+32's).  The steps are
 * unrolled (shifts by constants, no branch a row); not inlined, so that
 * one copy serves every digit count. */
static __attribute__((noinline)) void bit_planes(const uint64_t *tops, size_t n, int rows,
                                                 tbl_word a[64])
{
    if (n == TBL_BLOCK) {                           /* a full block: no test a top */
        for (int i = 0; i < 64; i++)
            for (int w = 0; w < TBL_WORDS; w++)
                a[i][w] = tops[64 * w + i];
    } else {
        for (int i = 0; i < 64; i++)
            for (int w = 0; w < TBL_WORDS; w++) {
                const size_t at = 64 * (size_t)w + (size_t)i;
                a[i][w] = at < n ? tops[at] : 0;
            }
    }
    const uint64_t low32 = 0x00000000ffffffffull;
    if (rows <= 32) {
        for (int k = 0; k < 32; k++)               /* blocks of 32, the low rows */
            a[k] = (a[k] & low32) | a[k + 32] << 32;
        swap_small_blocks(a, 32);
        return;
    }
    for (int k = 0; k < 32; k++) {                 /* blocks of 32 */
        const tbl_word t = ((a[k] >> 32) ^ a[k + 32]) & low32;
        a[k] ^= t << 32;
        a[k + 32] ^= t;
    }
    swap_small_blocks(a, 64);
}

static inline __attribute__((always_inline)) void tbl_build(tbl_block *blk, const uint64_t *tops,
                                                             size_t n, const int digits,
                                                             const int width)
{
    tbl_word planes[64];                          /* [word planes] */
    bit_planes(tops, n, width * digits, planes);
    tbl_word missing;                             /* clash with all */
    for (int w = 0; w < TBL_WORDS; w++) {
        const size_t have = n > 64 * (size_t)w ? n - 64 * (size_t)w : 0;
        missing[w] = have >= 64 ? 0 : ~(uint64_t)0 << have;
    }
    for (int j = 0; j < digits; j++) {
        tbl_word *t = blk->t[j];         /* [tables by doubling] */
        t[0] = missing;
        t[1] = missing | planes[width * j];
        for (int b = 1; b < width; b++) {          /* [narrow digits] */
            const tbl_word p = planes[width * j + b];
            tbl_word *to = t + (1 << b);
#if defined(__OPTIMIZE__)                          /* (unoptimised builds warn) */
#pragma GCC unroll 4
#endif
            for (int v = 0; v < 1 << b; v += 2) {   /* pairs: 1 << b is even */
                to[v] = t[v] | p;
                to[v + 1] = t[v + 1] | p;
            }
        }
    }
}

/* Which tops of the block clash with the bottom at p. */
static inline __attribute__((always_inline)) tbl_word clash_at(const tbl_block *blk, const uint8_t *p,
                                                               size_t stride, const int digits)
{
    tbl_word clash = blk->t[0][p[0]];
    for (int j = 1; j < digits; j++)
        clash |= blk->t[j][p[(size_t)j * stride]];
    return clash;
}

static inline __attribute__((always_inline)) void tbl_sweep(const tbl_block *blk,
                                                             const uint8_t *planes, size_t stride,
                                                             size_t b0, size_t nb,
                                                             const int digits, tbl_sums *sums)
{
    const uint8_t *p = planes + b0;
    TBL_SUMS_OPEN(sums);
    size_t i = 0;
    sums->swept += TBL_BLOCK * nb;          /* missing tops clash with all */
#define CLASH(k) clash_at(blk, p + i + (k), stride, digits)
    for (; i + 16 <= nb; i += 16)           /* [word counts] */
        TBL_ADD16(CLASH);
#undef CLASH
    for (; i < nb; i++)                     /* the tail waits for sixteen */
        TBL_WAIT(sums, clash_at(blk, p + i, stride, digits));
    TBL_SUMS_CLOSE(sums);
}

#define TBL_COUNT tables_count
#include "tables_loop.h"

#ifndef TBL_JOINER
#define TBL_JOINER qcj_tables_joiner
#endif
const qcj_joiner TBL_JOINER = {
    .name = "tables",
    .middle = TBL_MIDDLE,
    .merges_passes = TBL_MIDDLE == QCJ_MIDDLE_CARRIED,
    .count = tables_count,
};
