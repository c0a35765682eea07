/* SPDX-License-Identifier: MIT */
/*
 * nibbles.h — the AVX-512 hot loop on nibble tables: counts the disjoint
 * pairs (top, bottom) of one column set with byte shuffles, 8 tops by 64
 * bottoms per shuffle, instead of one AND per pair.
 *
 * [nibble tables] The ANDed part of a signature (32 bits at most: the
 * narrow case, geometry.h) is cut into slices of b bits: nibbles (b = 4)
 * or septets (b = 7), [slice kinds] below.  The tops of each key group are
 * taken 8 at a time (a block): for each slice j, a table of 2^b bytes
 * whose byte v has bit i set when top i of the block has a bit in common
 * with v there.  The bottoms are laid out as planes, one byte per bottom
 * and slice.  One byte shuffle of table j by plane j then gives, for 64
 * bottoms at once, which of the 8 tops clash with each on slice j; ORed
 * over the slices, the zero bits are the disjoint pairs.  A block's
 * missing tops (a group of 11 has a block of 8 and one of 3) clash with
 * every byte in every table, so they count nothing.
 *
 * Built at the avx512 level alone (QCJ_PAIRS_HAVE_AVX512, pairs.h), for
 * AVX-512 F and BW (septets: also VBMI, VPOPCNTDQ and GFNI): use a kind only on
 * a CPU that has what it needs (qcj_nib_kind_now).
 */
#ifndef QCJ_NIBBLES_H
#define QCJ_NIBBLES_H

#include <stddef.h>
#include <stdint.h>

#define QCJ_NIB_PAD 64           /* bytes readable past a plane's end */

/* [slice kinds] Two layouts of the tables, one per instruction:
 *   nibbles  4-bit slices, 16-byte tables, VPSHUFB (AVX-512 BW): 5..8
 *            slices of a 32-bit ANDed part;
 *   septets  7-bit slices, 128-byte tables, VPERMI2B (AVX-512 VBMI; built
 *            with VPOPCNTDQ and GFNI too, where the compiler knows all
 *            three: QCJ_NIB_SEPTETS): 3..5 slices, so half the lookups of
 *            nibbles.
 * A kind's loop is built for slices min..max: below min, the slices past
 * the bits are zeros and count nothing. */
typedef struct qcj_nib_kind {
    const char *name;
    int slice_bits, min_slices, max_slices;
    /* The sieve ([sieve], pairs_loops.h) on the tables: the disjoint pairs
     * of each top key group tg against each bottom key group inside ~tg;
     * tops by key group (toff, tops: their ANDed parts), each block's
     * tables built in registers as the loop reaches it (no memory),
     * bottoms as planes (boff, planes, stride), 2^key_bits groups each.
     * Adds the pairs tested (top, bottom; padding not counted) to
     * *tested. */
    uint64_t (*count)(const uint32_t *toff, const uint32_t *tops, const uint32_t *boff,
                      const uint8_t *planes, size_t stride, int key_bits, int slices,
                      uint64_t *tested);
} qcj_nib_kind;

extern const qcj_nib_kind qcj_nib_nibbles;
#if defined(QCJ_NIB_SEPTETS)
extern const qcj_nib_kind qcj_nib_septets;
#endif

/* The best kind this CPU runs: septets where built and the CPU has VBMI,
 * VPOPCNTDQ and GFNI, else nibbles. */
const qcj_nib_kind *qcj_nib_kind_now(void);

/* The slices of `bits` ANDed bits (1..32) for kind k. */
static inline int qcj_nib_slices(const qcj_nib_kind *k, int bits)
{
    const int slices = (bits + k->slice_bits - 1) / k->slice_bits;
    return slices < k->min_slices ? k->min_slices : slices;
}

/* The planes of the len bottoms low32, each ORed with or_in (odd N: the
 * middle queen's ANDed part, so that the tops it attacks meet no bottom),
 * in slices of slice_bits: plane j at planes + j * stride, byte p = bits
 * slice_bits*j.. of bottom p.  stride >= qcj_nib_stride(len). */
void qcj_nib_planes(const uint32_t *low32, size_t len, uint32_t or_in, int slice_bits, int slices,
                    uint8_t *planes, size_t stride);

static inline size_t qcj_nib_stride(size_t len)
{
    return (len + 15) / 16 * 16 + QCJ_NIB_PAD;
}

#endif
