/* SPDX-License-Identifier: MIT */
/*
 * nibbles_loop.h — the table count loop (nibbles.h), included by the file
 * of each slice kind, built for that kind's instructions: nibbles_avx512.c
 * (NIB_SLICE_BITS 4: VPSHUFB, AVX-512 F and BW) and septets.c
 * (NIB_SLICE_BITS 7: VPERMI2B, also VBMI, VPOPCNTDQ and GFNI).  NIB_COUNT_NAME
 * names the function it defines (a qcj_nib_kind's count); NIB_SLICES_MIN
 * and NIB_SLICES_MAX are the kind's slice counts; the includer defines
 * block_tables(t, tops, n, slices), a block's tables into registers.
 */
#ifndef QCJ_NIBBLES_LOOP_H
#define QCJ_NIBBLES_LOOP_H

#include <immintrin.h>

#include "nibbles.h"

#define NIB_LOOP_INLINE static inline __attribute__((always_inline))

/* [byte counts] the disjoint pairs among the live lanes of clash (a byte a
 * bottom, a bit a top, set where they clash), added to the qword sums
 * *sums: by VPOPCNTQ where the file is built for it (septets.c), else by
 * two shuffles of a popcount table per byte, summed by PSADBW. */
NIB_LOOP_INLINE void add_free(__m512i clash, __mmask64 live, __m512i *sums)
{
    const __m512i free = _mm512_maskz_ternarylogic_epi32(0xffff, clash, clash, clash, 0x55);
#if defined(__AVX512VPOPCNTDQ__)
    *sums = _mm512_add_epi64(*sums, _mm512_popcnt_epi64(_mm512_maskz_mov_epi8(live, free)));
#else
    const __m512i ones_in = _mm512_set4_epi32(0x04030302, 0x03020201, 0x03020201, 0x02010100);
    const __m512i low = _mm512_set1_epi8(0x0f);
    const __m512i lo = _mm512_and_si512(free, low);
    const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(free, 4), low);
    const __m512i bytes = _mm512_maskz_add_epi8(live, _mm512_shuffle_epi8(ones_in, lo),
                                                _mm512_shuffle_epi8(ones_in, hi));
    *sums = _mm512_add_epi64(*sums, _mm512_sad_epu8(bytes, _mm512_setzero_si512()));
#endif
}

#if NIB_SLICE_BITS == 7
#define NIB_TABLE_REGS 2         /* a 128-byte table: two registers */

/* Slice j's clashes for the 64 plane bytes idx (their low 7 bits). */
NIB_LOOP_INLINE __m512i lookup(const __m512i *t, int j, __m512i idx)
{
    return _mm512_permutex2var_epi8(t[2 * j], idx, t[2 * j + 1]);
}

#else
#define NIB_TABLE_REGS 1         /* a 16-byte table, in every 128-bit lane */

NIB_LOOP_INLINE __m512i lookup(const __m512i *t, int j, __m512i idx)
{
    return _mm512_shuffle_epi8(t[j], idx);
}

#endif

/* Which of the 8 tops (tables t) clash with each of the 64 bottoms of the
 * planes at p. */
NIB_LOOP_INLINE __m512i clash_at(const __m512i *t, const uint8_t *p, size_t stride, const int chunks)
{
    __m512i clash = lookup(t, 0, _mm512_loadu_si512(p));
    for (int j = 1; j < chunks; j++)
        clash = _mm512_or_si512(clash, lookup(t, j, _mm512_loadu_si512(p + (size_t)j * stride)));
    return clash;
}

/* One block's 8 tops (tables t) against bottoms [b0, b0+nb) of the planes:
 * the pairs found, into *sums. */
NIB_LOOP_INLINE void block_range(const __m512i *t, const uint8_t *planes, size_t stride, size_t b0,
                                 size_t nb, const int chunks, __m512i *sums)
{
    const uint8_t *p = planes + b0;
    for (; nb >= 64; nb -= 64, p += 64)
        add_free(clash_at(t, p, stride, chunks), ~(__mmask64)0, sums);
    if (nb)
        add_free(clash_at(t, p, stride, chunks), ((__mmask64)1 << nb) - 1u, sums);
}

NIB_LOOP_INLINE uint64_t count_chunks(const uint32_t *toff, const uint32_t *tops,
                                      const uint32_t *boff, const uint8_t *planes, size_t stride,
                                      int key_bits, const int chunks, uint64_t *tested)
{
    const uint32_t kmask = (1u << key_bits) - 1u;
    __m512i sums = _mm512_setzero_si512();
    uint64_t tried = 0;
    for (uint32_t tg = 0; tg <= kmask; tg++) {
        const uint64_t nt = toff[tg + 1] - toff[tg];
        if (nt == 0)
            continue;
        /* [runs of groups] the bottom groups inside ~tg, 2^run neighbours
         * at a time: those of each submask of its bits above its trailing
         * ones */
        const uint32_t avail = ~tg & kmask;
        const int run = __builtin_ctz(~avail);
        const uint32_t high = avail >> run;
        for (uint32_t hg = high;; hg = (hg - 1) & high) {      /* submasks of high */
            tried += nt * (boff[(hg + 1) << run] - boff[hg << run]);
            if (hg == 0)
                break;
        }
        for (uint32_t i = toff[tg]; i < toff[tg + 1]; i += 8) {   /* a block of 8 tops */
            __m512i t[NIB_TABLE_REGS * NIB_SLICES_MAX];
            block_tables(t, tops + i, toff[tg + 1] - i < 8 ? toff[tg + 1] - i : 8, chunks);
            for (uint32_t hg = high;; hg = (hg - 1) & high) {
                const size_t b0 = boff[hg << run], nb = boff[(hg + 1) << run] - b0;
                if (nb)
                    block_range(t, planes, stride, b0, nb, chunks, &sums);
                if (hg == 0)
                    break;
            }
        }
    }
    *tested += tried;
    return (uint64_t)_mm512_reduce_add_epi64(sums);
}

/* One copy of the loop per slice count (NIB_SLICES_MIN..MAX), so that its
 * loops over the slices unroll. */
static uint64_t NIB_COUNT_NAME(const uint32_t *toff, const uint32_t *tops, const uint32_t *boff,
                               const uint8_t *planes, size_t stride, int key_bits, int chunks,
                               uint64_t *tested)
{
#define NIB_CASE(c)                                                                           \
    case c:                                                                                   \
        return count_chunks(toff, tops, boff, planes, stride, key_bits,                      \
                            c < NIB_SLICES_MIN ? NIB_SLICES_MIN                               \
                            : c > NIB_SLICES_MAX ? NIB_SLICES_MAX : c, tested)
    switch (chunks) {
        NIB_CASE(3);
        NIB_CASE(4);
        NIB_CASE(5);
        NIB_CASE(6);
        NIB_CASE(7);
    default:
        return count_chunks(toff, tops, boff, planes, stride, key_bits, NIB_SLICES_MAX, tested);
    }
#undef NIB_CASE
}

#endif
