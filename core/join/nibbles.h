/* SPDX-License-Identifier: MIT */
/*
 * nibbles.h — the AVX-512 hot loop on nibble tables: counts the disjoint
 * pairs (top, bottom) of one column set with byte shuffles, 8 tops by 64
 * bottoms per shuffle, instead of one AND per pair.
 *
 * [nibble tables] The ANDed part of a signature (32 bits at most: the
 * narrow case, geometry.h) is cut into `chunks` nibbles, bits 4j..4j+3.
 * The tops of each key group are taken 8 at a time (a block): for each
 * nibble j, a 16-byte table whose byte v has bit i set when top i of the
 * block has a bit in common with v there.  The bottoms are laid out as
 * planes, one byte per bottom and nibble.  One shuffle (VPSHUFB) of table
 * j by plane j then gives, for 64 bottoms at once, which of the 8 tops
 * clash with each on nibble j; ORed over the nibbles, the zero bits are
 * the disjoint pairs.  A block's missing tops (a group of 11 has a block of
 * 8 and one of 3) clash with every byte in every table, so they count
 * nothing.
 *
 * Built at the avx512 level alone (QCJ_PAIRS_HAVE_AVX512, pairs.h), for
 * AVX-512 F and BW: call it only on a CPU that has them.
 */
#ifndef QCJ_NIBBLES_H
#define QCJ_NIBBLES_H

#include <stddef.h>
#include <stdint.h>

#define QCJ_NIB_CHUNKS_MAX 8     /* nibbles of a 32-bit ANDed part */
#define QCJ_NIB_BLOCK_BYTES 128  /* one block's tables: 8 of 16 bytes */
#define QCJ_NIB_PAD 64           /* bytes readable past a plane's end */

/* The nibbles tables and planes hold for `bits` ANDed bits (1..32): those
 * that cover them, at least QCJ_NIB_CHUNKS_MIN (the loop is built for
 * 5..8: below that, the nibbles past the bits are zeros and count
 * nothing). */
#define QCJ_NIB_CHUNKS_MIN 5

static inline int qcj_nib_chunks(int bits)
{
    const int chunks = (bits + 3) / 4;
    return chunks < QCJ_NIB_CHUNKS_MIN ? QCJ_NIB_CHUNKS_MIN : chunks;
}

/* Blocks of 8 tops that key groups off[0..groups] need: the sum of
 * ceil(group size / 8). */
size_t qcj_nib_blocks(const uint32_t *off, size_t groups);

/* The tables of the tops low32 sorted into `groups` key groups (off):
 * group g's blocks are blk[g]..blk[g+1]-1 (blk has groups+1 entries), each
 * QCJ_NIB_BLOCK_BYTES at tables + QCJ_NIB_BLOCK_BYTES * block, of which
 * the first 16 * chunks are written. */
void qcj_nib_tables(const uint32_t *off, const uint32_t *low32, size_t groups, int chunks,
                    uint32_t *blk, uint8_t *tables);

/* The planes of the len bottoms low32, each ORed with or_in (odd N: the
 * middle queen's ANDed part, so that the tops it attacks meet no bottom):
 * plane j at planes + j * stride, byte p = bits 4j..4j+3 of bottom p.
 * stride >= qcj_nib_stride(len). */
void qcj_nib_planes(const uint32_t *low32, size_t len, uint32_t or_in, int chunks,
                    uint8_t *planes, size_t stride);

static inline size_t qcj_nib_stride(size_t len)
{
    return (len + 15) / 16 * 16 + QCJ_NIB_PAD;
}

/* The sieve ([sieve], pairs_loops.h) on nibble tables: the disjoint pairs
 * of each top key group tg against each bottom key group inside ~tg; tops
 * as tables (toff, blk, tables), bottoms as planes (boff, planes, stride),
 * 2^key_bits groups each.  Adds the pairs tested (top, bottom; padding not
 * counted) to *tested. */
uint64_t qcj_nib_count(const uint32_t *toff, const uint32_t *blk, const uint8_t *tables,
                       const uint32_t *boff, const uint8_t *planes, size_t stride, int key_bits,
                       int chunks, uint64_t *tested);

/* The loop's two builds (nibbles_loop.h), which qcj_nib_count picks
 * from: shuffles alone, and VPOPCNTQ (AVX-512 VPOPCNTDQ; built where the
 * compiler knows it, QCJ_NIB_VPOPCNT). */
uint64_t qcj_nib_count_shuffled(const uint32_t *toff, const uint32_t *blk, const uint8_t *tables,
                                const uint32_t *boff, const uint8_t *planes, size_t stride,
                                int key_bits, int chunks, uint64_t *tested);
uint64_t qcj_nib_count_popcnt(const uint32_t *toff, const uint32_t *blk, const uint8_t *tables,
                              const uint32_t *boff, const uint8_t *planes, size_t stride,
                              int key_bits, int chunks, uint64_t *tested);

#endif
