/* SPDX-License-Identifier: MIT */
/*
 * pairs_portable.c — the portable pair-counting backend (pairs.h): plain
 * loops left to the compiler's vectoriser (AVX2 or SSE: compare-equal-zero
 * and subtract), for any CPU.
 */
#include "pairs.h"
#include "pairs_loops.h"

static inline uint64_t slice32(const uint32_t *tops, size_t nt, const uint32_t *bottoms, size_t nb)
{
    uint64_t count = 0;
    for (size_t i = 0; i < nt; i++) {
        const uint32_t t = tops[i];
        uint32_t c = 0;                 /* 32-bit lanes vectorise best */
        for (size_t j = 0; j < nb; j++)
            c += (t & bottoms[j]) == 0;
        count += c;
    }
    return count;
}

static inline uint64_t slice64(const uint64_t *tops, size_t nt, const uint64_t *bottoms, size_t nb)
{
    uint64_t count = 0;
    for (size_t i = 0; i < nt; i++) {
        const uint64_t t = tops[i];
        uint64_t c = 0;
        for (size_t j = 0; j < nb; j++)
            c += (t & bottoms[j]) == 0;
        count += c;
    }
    return count;
}

static inline uint64_t slice32_at(void *ctx, size_t t0, size_t nt, size_t b0, size_t nb)
{
    const qcj_lists *l = ctx;
    return slice32((const uint32_t *)l->tops + t0, nt, (const uint32_t *)l->bottoms + b0, nb);
}

static inline uint64_t slice64_at(void *ctx, size_t t0, size_t nt, size_t b0, size_t nb)
{
    const qcj_lists *l = ctx;
    return slice64((const uint64_t *)l->tops + t0, nt, (const uint64_t *)l->bottoms + b0, nb);
}

/* The counts of one group pair: kept out of the sieve's loop (noinline),
 * which inlined them runs 6-9% slower on groups of tens of halves
 * (measured, 64-bit). */
__attribute__((noinline))
uint64_t qcj_pairs_portable_disjoint32(const uint32_t *tops, size_t nt,
                                       const uint32_t *bottoms, size_t nb)
{
    return qcj_sliced_longer_inside(slice32_at, tops, nt, bottoms, nb);
}

__attribute__((noinline))
uint64_t qcj_pairs_portable_disjoint64(const uint64_t *tops, size_t nt,
                                       const uint64_t *bottoms, size_t nb)
{
    qcj_lists l = {tops, bottoms};
    return qcj_sliced(slice64_at, &l, nt, nb);
}

static inline uint64_t disjoint32_at(void *ctx, size_t t0, size_t nt, size_t b0, size_t nb)
{
    const qcj_lists *l = ctx;
    return qcj_pairs_portable_disjoint32((const uint32_t *)l->tops + t0, nt,
                                         (const uint32_t *)l->bottoms + b0, nb);
}

static inline uint64_t disjoint64_at(void *ctx, size_t t0, size_t nt, size_t b0, size_t nb)
{
    const qcj_lists *l = ctx;
    return qcj_pairs_portable_disjoint64((const uint64_t *)l->tops + t0, nt,
                                         (const uint64_t *)l->bottoms + b0, nb);
}

uint64_t qcj_pairs_portable_groups32(const uint32_t *toff, const uint32_t *tops,
                                     const uint32_t *boff, const uint32_t *bottoms,
                                     int key_bits, uint32_t extra, uint64_t *tested)
{
    qcj_lists l = {tops, bottoms};
    return qcj_sieve(toff, boff, key_bits, extra, disjoint32_at, &l, tested);
}

uint64_t qcj_pairs_portable_groups64(const uint32_t *toff, const uint64_t *tops,
                                     const uint32_t *boff, const uint64_t *bottoms,
                                     int key_bits, uint32_t extra, uint64_t *tested)
{
    qcj_lists l = {tops, bottoms};
    return qcj_sieve(toff, boff, key_bits, extra, disjoint64_at, &l, tested);
}
