/* SPDX-License-Identifier: MIT */
/*
 * pairs_loops.h — the loops the pair-counting backends (pairs.h) share,
 * written once as always-inline templates: each backend passes its own
 * kernel, which the compiler inlines into the loop, so nothing is called
 * through a pointer at run time.  The kernels see index ranges of lists the
 * backend keeps in `ctx`, so the loops are the same for 32- and 64-bit
 * signatures.
 *   [bounded lanes] the vector kernels keep 32-bit lane counters: a kernel
 *                   call sees at most QCJ_TOP_SLICE tops and
 *                   QCJ_BOTTOM_SLICE bottoms, so a lane counts at most
 *                   2^8 * 2^20 / 16 < 2^32 pairs;
 *   [sieve]         only the group pairs whose keys share nothing are
 *                   tested: the bottom groups that are submasks of the
 *                   keys the top group (and the middle queen) leave free.
 */
#ifndef QCJ_PAIRS_LOOPS_H
#define QCJ_PAIRS_LOOPS_H

#include <stddef.h>
#include <stdint.h>

#define QCJ_TOP_SLICE ((size_t)1 << 8)
#define QCJ_BOTTOM_SLICE ((size_t)1 << 20)

/* The lists one call counts: tops and bottoms, uint32_t or uint64_t. */
typedef struct qcj_lists {
    const void *tops, *bottoms;
} qcj_lists;

/* Counts the disjoint pairs of tops [t0, t0+nt) and bottoms [b0, b0+nb)
 * of the lists in ctx. */
typedef uint64_t qcj_range_fn(void *ctx, size_t t0, size_t nt, size_t b0, size_t nb);

#define QCJ_INLINE static inline __attribute__((always_inline))

/* [bounded lanes] all nt x nb pairs, a slice at a time. */
QCJ_INLINE uint64_t qcj_sliced(qcj_range_fn *slice, void *ctx, size_t nt, size_t nb)
{
    uint64_t count = 0;
    for (size_t j = 0; j < nb; j += QCJ_BOTTOM_SLICE) {
        size_t mb = nb - j < QCJ_BOTTOM_SLICE ? nb - j : QCJ_BOTTOM_SLICE;
        for (size_t i = 0; i < nt; i += QCJ_TOP_SLICE)
            count += slice(ctx, i, nt - i < QCJ_TOP_SLICE ? nt - i : QCJ_TOP_SLICE, j, mb);
    }
    return count;
}

/* [longer list in the vectors] the count is symmetric, so the longer list
 * goes into the vectors (the bottoms): fewer lanes idle in tails. */
QCJ_INLINE uint64_t qcj_sliced_longer_inside(qcj_range_fn *slice, const void *tops, size_t nt,
                                             const void *bottoms, size_t nb)
{
    qcj_lists l = {tops, bottoms};
    if (nb < nt) {
        l = (qcj_lists){bottoms, tops};
        size_t n = nt;
        nt = nb;
        nb = n;
    }
    return qcj_sliced(slice, &l, nt, nb);
}

/* [sieve] each top group tg against each bottom group inside
 * ~(tg | extra), both nonempty, counted by `pairs_of`; adds the pairs
 * tested to *tested. */
QCJ_INLINE uint64_t qcj_sieve(const uint32_t *toff, const uint32_t *boff, int key_bits,
                              uint32_t extra, qcj_range_fn *pairs_of, void *ctx, uint64_t *tested)
{
    const uint32_t kmask = (1u << key_bits) - 1u;
    uint64_t pairs = 0, tried = 0;
    for (uint32_t tg = 0; tg <= kmask; tg++) {
        const size_t t0 = toff[tg], nt = toff[tg + 1] - t0;
        if (nt == 0)
            continue;
        const uint32_t avail = ~(tg | extra) & kmask;
        for (uint32_t bg = avail;; bg = (bg - 1) & avail) {   /* submasks of avail */
            const size_t b0 = boff[bg], nb = boff[bg + 1] - b0;
            if (nb) {
                tried += (uint64_t)nt * nb;
                pairs += pairs_of(ctx, t0, nt, b0, nb);
            }
            if (bg == 0)
                break;
        }
    }
    *tested += tried;
    return pairs;
}

#endif
