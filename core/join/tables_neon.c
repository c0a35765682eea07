/* SPDX-License-Identifier: MIT */
/*
 * tables_neon.c — the byte-table joiner ([byte tables], tables.h) of the
 * neon level (64-bit Arm): 6-bit digits whose 64-byte tables TBL looks up
 * from four registers (vqtbl4q_u8), 8 tops by 16 bottoms a lookup, so a
 * 32-bit ANDed part takes 6 lookups.  Tricks, named where they are used:
 *   [tables by doubling] entries 2^b..2^(b+1)-1 of a table are entries
 *                        0..2^b-1 ORed with the plane of bit b;
 *   [byte counts]        CNT counts a byte's bits; the byte sums, at most
 *                        8 a vector, are widened every 31 vectors.
 */
#include <arm_neon.h>

#include "joiner.h"
#include "tables.h"

#define TBL_BLOCK 8
#define TBL_DIGIT_BITS 6
#define TBL_DIGITS_MAX 11

typedef struct tbl_block {
    uint8x16x4_t t[TBL_DIGITS_MAX];   /* digit j's 64 entries */
} tbl_block;

typedef uint64x2_t tbl_sums;

static inline tbl_sums tbl_sums_zero(void)
{
    return vdupq_n_u64(0);
}

static inline uint64_t tbl_sums_total(tbl_sums s)
{
    return vaddvq_u64(s);
}

static inline __attribute__((always_inline)) void tbl_build(tbl_block *blk, const uint64_t *tops,
                                                             size_t n, const int digits,
                                                             const int width)
{
    (void)width;                        /* always TBL_DIGIT_BITS here */
    uint8_t planes[64];
    qcj_tables_bit_planes(tops, n, 64, planes);
    const uint8_t missing = (uint8_t)(0xffu << n);   /* clash with all */
    for (int j = 0; j < digits; j++) {
        /* [tables by doubling] */
        uint8_t entry[64] __attribute__((aligned(16)));
        entry[0] = missing;
        for (int b = 0; b < 6; b++) {
            const int bit = 6 * j + b;
            const uint8_t p = bit < 64 ? planes[bit] : 0;
            for (int v = 0; v < 1 << b; v++)
                entry[(1 << b) + v] = entry[v] | p;
        }
        blk->t[j] = vld1q_u8_x4(entry);
    }
}

/* Which of the 8 tops clash with each of the 16 bottoms of the planes at
 * p. */
static inline __attribute__((always_inline)) uint8x16_t clash_at(const tbl_block *blk,
                                                                   const uint8_t *p, size_t stride,
                                                                   const int digits)
{
    uint8x16_t clash = vqtbl4q_u8(blk->t[0], vld1q_u8(p));
    for (int j = 1; j < digits; j++)
        clash = vorrq_u8(clash, vqtbl4q_u8(blk->t[j], vld1q_u8(p + (size_t)j * stride)));
    return clash;
}

/* The first `live` bytes of a vector: ones, the rest zeros. */
static const uint8_t live_bytes[32] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
};

static inline __attribute__((always_inline)) void tbl_sweep(const tbl_block *blk,
                                                             const uint8_t *planes, size_t stride,
                                                             size_t b0, size_t nb,
                                                             const int digits, tbl_sums *sums)
{
    const uint8_t *p = planes + b0;
    while (nb >= 16) {
        uint8x16_t bytes = vdupq_n_u8(0);   /* [byte counts] */
        for (int round = 0; round < 31 && nb >= 16; round++, nb -= 16, p += 16)
            bytes = vaddq_u8(bytes, vcntq_u8(vmvnq_u8(clash_at(blk, p, stride, digits))));
        *sums = vaddq_u64(*sums, vpaddlq_u32(vpaddlq_u16(vpaddlq_u8(bytes))));
    }
    if (nb) {
        const uint8x16_t live = vld1q_u8(live_bytes + 16 - nb);
        const uint8x16_t bytes = vcntq_u8(vandq_u8(live, vmvnq_u8(clash_at(blk, p, stride, digits))));
        *sums = vaddq_u64(*sums, vpaddlq_u32(vpaddlq_u16(vpaddlq_u8(bytes))));
    }
}

#define TBL_COUNT tables_count
#include "tables_loop.h"

const qcj_joiner qcj_tables_joiner = {
    .name = "tables",
    .middle = TBL_MIDDLE,
    .merges_passes = TBL_MIDDLE == QCJ_MIDDLE_CARRIED,
    .count = tables_count,
};
