/* SPDX-License-Identifier: MIT */
/*
 * tables_loop.h — the byte-table joiner's loop ([byte tables], tables.h),
 * written once and included by each instruction set's tables file, which
 * defines before it:
 *   TBL_BLOCK        tops a block holds (8: byte entries; 64: words)
 *   TBL_DIGIT_BITS   bits a digit
 *   TBL_DIGITS_MAX   digits of the widest ANDed part, 64 bits
 *   tbl_block        one block's tables (where the file keeps them)
 *   tbl_sums         the running count of disjoint pairs
 *   tbl_sums_zero(), tbl_sums_total(sums)
 *   tbl_build(&block, tops, n, digits)
 *       the tables of the n (1..TBL_BLOCK) tops at `tops`;
 *   tbl_sweep(&block, planes, stride, b0, nb, digits, &sums)
 *       adds the disjoint pairs of the block and bottoms [b0, b0+nb) of
 *       the planes (nb >= 1; planes readable QCJ_TABLES_PAD bytes past
 *       their end);
 *   TBL_COUNT        the name of the count function to define (static);
 *   TBL_PLANES(low, len, digits, planes, stride), optionally: the planes
 *       (qcj_tables_planes's contract); by default qcj_tables_planes.
 * `digits` is a constant in each copy of the loop (one per digit count,
 * so that the loops over the digits unroll).
 */
#ifndef QCJ_TABLES_LOOP_H
#define QCJ_TABLES_LOOP_H

#include "config.h"
#include "joiner.h"
#include "qcount.h"
#include "tables.h"

#define TBL_INLINE static inline __attribute__((always_inline))

/* [middle carried] How odd N's middle queen is treated (joiner.h): carried
 * in the bottoms, the passes of one weight merged, on every level (see
 * config.h, QCJ_TABLES_MIDDLE, for the measurements). */
#define TBL_MIDDLE QCJ_TABLES_MIDDLE

#ifndef TBL_PLANES
#define TBL_PLANES(low, len, digits, planes, stride) \
    qcj_tables_planes(low, len, TBL_DIGIT_BITS, digits, planes, stride)
#endif

/* [sieve] [runs of groups] every top group tg, a block at a time, against
 * the bottom groups inside ~(tg | extra), 2^run neighbours a sweep. */
TBL_INLINE uint64_t tbl_sieve(const qcj_groups *tops, const uint32_t *boff, const uint8_t *planes,
                              size_t stride, const qcj_join_shape *shape, uint32_t extra,
                              const int digits, uint64_t *tested)
{
    const uint32_t kmask = (1u << shape->key_bits) - 1u;
    const uint32_t *toff = tops->off;
    tbl_sums sums = tbl_sums_zero();
    uint64_t tried = 0;
    for (uint32_t tg = 0; tg <= kmask; tg++) {
        const uint64_t nt = toff[tg + 1] - toff[tg];
        if (nt == 0)
            continue;
        const uint32_t avail = ~(tg | extra) & kmask;
        const int run = __builtin_ctz(~avail);     /* its low free bits */
        const uint32_t high = avail >> run;
        uint64_t free_bottoms = 0;
        for (uint32_t hg = high;; hg = (hg - 1) & high) {      /* submasks of high */
            free_bottoms += boff[(hg + 1) << run] - boff[hg << run];
            if (hg == 0)
                break;
        }
        for (uint32_t i = toff[tg]; i < toff[tg + 1]; i += TBL_BLOCK) {
            tbl_block block;
            const size_t n = toff[tg + 1] - i < TBL_BLOCK ? toff[tg + 1] - i : TBL_BLOCK;
            if (!qcj_shape_joins(shape, tg, i))
                continue;                   /* [sampled joins] */
            tried += n * free_bottoms;
            tbl_build(&block, tops->low + i, n, digits);
            for (uint32_t hg = high;; hg = (hg - 1) & high) {
                const size_t b0 = boff[hg << run], nb = boff[(hg + 1) << run] - b0;
                if (nb)
                    tbl_sweep(&block, planes, stride, b0, nb, digits, &sums);
                if (hg == 0)
                    break;
            }
        }
    }
    *tested += tried;
    return tbl_sums_total(sums);
}

/* The joiner's count (joiner.h): the bottoms into planes (the joiner's
 * scratch), then the sieve at the digit count of the shape. */
static int TBL_COUNT(const qcj_join_shape *shape, const qcj_groups *tops,
                     const qcj_groups *bottoms, uint32_t extra, qcj_vec *work, uint64_t *pairs,
                     uint64_t *tested)
{
    const int digits = qcj_tables_digits(shape->bits, TBL_DIGIT_BITS);
    const size_t nb = bottoms->off[(size_t)1 << shape->key_bits];
    const size_t stride = qcj_tables_stride(nb);
    if (digits > TBL_DIGITS_MAX)
        return QC_EINVAL;
    uint8_t *planes = qcj_vec_reserve(work, stride * (size_t)digits);
    if (!planes)
        return QC_ENOMEM;
    TBL_PLANES(bottoms->low, nb, digits, planes, stride);
#define TBL_CASE(c)                                                                           \
    case c:                                                                                   \
        *pairs = tbl_sieve(tops, bottoms->off, planes, stride, shape, extra,                  \
                           c <= TBL_DIGITS_MAX ? c : TBL_DIGITS_MAX, tested);                 \
        return QC_OK
    switch (digits) {
        TBL_CASE(1);
        TBL_CASE(2);
        TBL_CASE(3);
        TBL_CASE(4);
        TBL_CASE(5);
        TBL_CASE(6);
        TBL_CASE(7);
        TBL_CASE(8);
#if TBL_DIGITS_MAX > 8
        TBL_CASE(9);
        TBL_CASE(10);
        TBL_CASE(11);
#endif
#if TBL_DIGITS_MAX > 11
        TBL_CASE(12);
        TBL_CASE(13);
        TBL_CASE(14);
        TBL_CASE(15);
        TBL_CASE(16);
#endif
    default:
        return QC_EINVAL;
    }
#undef TBL_CASE
}

#endif
