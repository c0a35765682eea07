/* SPDX-License-Identifier: MIT */
/*
 * pairs.h — the join engine's hot loop: given the border signatures of the
 * top and bottom halves of one column set sorted into key groups, counts
 * the pairs (top, bottom) that share no diagonal, (a & b) == 0.
 *
 * One implementation per instruction set ("backend"), each in its own file,
 * so that the tests run every one by name:
 *   pairs_portable.c  qcj_pairs_portable_*: plain C loops for the
 *                     compiler's vectoriser (any CPU), built at the
 *                     portable and avx2 levels ([per-level names], isa.h:
 *                     code outside the levels calls the portable copy);
 *   pairs_avx512.c    qcj_pairs_avx512_*: AVX-512 kernels, built at the
 *                     avx512 level alone (x86-64 only; to be called only
 *                     on a CPU that has AVX-512F).
 * The engine calls qcj_pairs_groups32/64: the AVX-512 backend at the level
 * that targets AVX-512, the portable one below.  pairs_loops.h holds the
 * loops the backends share.
 */
#ifndef QCJ_PAIRS_H
#define QCJ_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"

#if defined(QC_ISA_X86)
#define QCJ_PAIRS_HAVE_AVX512 1   /* pairs_avx512.c is built */
#endif

#define qcj_pairs_portable_disjoint32 QC_LEVEL(qcj_pairs_portable_disjoint32)
#define qcj_pairs_portable_disjoint64 QC_LEVEL(qcj_pairs_portable_disjoint64)
#define qcj_pairs_portable_groups32 QC_LEVEL(qcj_pairs_portable_groups32)
#define qcj_pairs_portable_groups64 QC_LEVEL(qcj_pairs_portable_groups64)

/* Pairs (a in tops, b in bottoms) with (a & b) == 0. */
uint64_t qcj_pairs_portable_disjoint32(const uint32_t *tops, size_t nt,
                                       const uint32_t *bottoms, size_t nb);
uint64_t qcj_pairs_portable_disjoint64(const uint64_t *tops, size_t nt,
                                       const uint64_t *bottoms, size_t nb);

/* The sieve and the hot loop together: the halves of one column set on
 * each side sorted into 2^key_bits groups by their key diagonals (group g
 * at off[g]..off[g+1]); counts the pairs (top, bottom) with (a & b) == 0
 * over the group pairs whose keys share nothing, bottom group a subset of
 * ~(top group | extra).  Adds the pairs tested to *tested. */
uint64_t qcj_pairs_portable_groups32(const uint32_t *toff, const uint32_t *tops,
                                     const uint32_t *boff, const uint32_t *bottoms,
                                     int key_bits, uint32_t extra, uint64_t *tested);
uint64_t qcj_pairs_portable_groups64(const uint32_t *toff, const uint64_t *tops,
                                     const uint32_t *boff, const uint64_t *bottoms,
                                     int key_bits, uint32_t extra, uint64_t *tested);

#if defined(QCJ_PAIRS_HAVE_AVX512)
/* The same on AVX-512 (the CPU must have AVX-512F). */
uint64_t qcj_pairs_avx512_disjoint32(const uint32_t *tops, size_t nt,
                                     const uint32_t *bottoms, size_t nb);
uint64_t qcj_pairs_avx512_disjoint64(const uint64_t *tops, size_t nt,
                                     const uint64_t *bottoms, size_t nb);
uint64_t qcj_pairs_avx512_groups32(const uint32_t *toff, const uint32_t *tops,
                                   const uint32_t *boff, const uint32_t *bottoms,
                                   int key_bits, uint32_t extra, uint64_t *tested);
uint64_t qcj_pairs_avx512_groups64(const uint32_t *toff, const uint64_t *tops,
                                   const uint32_t *boff, const uint64_t *bottoms,
                                   int key_bits, uint32_t extra, uint64_t *tested);
#endif

/* The backend the engine uses, chosen when its level is compiled. */
static inline uint64_t qcj_pairs_groups32(const uint32_t *toff, const uint32_t *tops,
                                          const uint32_t *boff, const uint32_t *bottoms,
                                          int key_bits, uint32_t extra, uint64_t *tested)
{
#if defined(__AVX512F__)
    return qcj_pairs_avx512_groups32(toff, tops, boff, bottoms, key_bits, extra, tested);
#else
    return qcj_pairs_portable_groups32(toff, tops, boff, bottoms, key_bits, extra, tested);
#endif
}

static inline uint64_t qcj_pairs_groups64(const uint32_t *toff, const uint64_t *tops,
                                          const uint32_t *boff, const uint64_t *bottoms,
                                          int key_bits, uint32_t extra, uint64_t *tested)
{
#if defined(__AVX512F__)
    return qcj_pairs_avx512_groups64(toff, tops, boff, bottoms, key_bits, extra, tested);
#else
    return qcj_pairs_portable_groups64(toff, tops, boff, bottoms, key_bits, extra, tested);
#endif
}

#endif
