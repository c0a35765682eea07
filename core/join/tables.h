/* SPDX-License-Identifier: MIT */
/*
 * tables.h — the byte-table joiners (joiner.h): what every instruction
 * set's tables share.
 *
 * [byte tables] The ANDed part of a signature (bits 0..bits-1) is read as
 * a number in base 2^b, whose digits index the tables.  The tops of each
 * key group are taken a block at a time (8 tops where a table entry is a
 * byte, 128 where it is two 64-bit words): for each digit j, a table of
 * 2^b entries whose entry v has bit i set when top i of the block has a
 * bit in common with v there.  The
 * bottoms are laid out as planes, one byte per bottom and digit (its
 * digit value).  Looking up the planes' bytes in the tables gives, for
 * each bottom, which tops of the block clash with it on digit j; ORed over
 * the digits, the zero bits are the disjoint pairs.  A block's missing
 * tops (a group of 11 has a block of 8 and one of 3) clash with every
 * entry of every table, so they count nothing.  One lookup instruction
 * tests a block against as many bottoms as its vector holds bytes.
 *
 * [runs of groups] The sieve takes the bottom groups inside ~(tg|extra)
 * 2^run neighbours at a time, run the number of its low free key bits:
 * those groups lie next to each other, so one sweep covers them all.
 *
 * The kinds, by instruction set (each in its own file):
 *   level        digit  entry  lookup
 *   portable     <=8 bit 2 words one load per digit and bottom (one word
 *                              without 128-bit vectors)
 *   avx2         4 bit  byte   VPSHUFB, 32 bottoms
 *   avx512       4 bit  byte   VPSHUFB, 64 bottoms
 *   avx512vbmi   6 bit  byte   VPERMB (one-register table), 64 bottoms
 *   neon         6 bit  byte   TBL of four registers, 16 bottoms
 */
#ifndef QCJ_TABLES_H
#define QCJ_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "config.h"

#define QCJ_TABLES_PAD 64         /* bytes readable past a plane's end */

/* Bytes between a plane and the next for len bottoms: whole 16-byte
 * rows, plus QCJ_TABLES_PAD. */
static inline size_t qcj_tables_stride(size_t len)
{
    return (len + 15) / 16 * 16 + QCJ_TABLES_PAD;
}

/* The digits of a `bits`-bit ANDed part in digits of digit_bits (at least
 * one). */
static inline int qcj_tables_digits(int bits, int digit_bits)
{
    const int digits = (bits + digit_bits - 1) / digit_bits;
    return digits > 0 ? digits : 1;
}

/* The planes of the len bottoms `low`, in digits of digit_bits: byte p of
 * plane j (at planes + j * stride) is bits digit_bits*j.. of bottom p; the
 * padding past len is zero.  [planes by chunks] The bottoms are taken
 * QCJ_TABLES_PLANES_CHUNK at a time, every plane of a chunk made before
 * the next, so that each bottom is read from memory once, not once a
 * digit (see config.h for the measurement). */
static inline void qcj_tables_planes(const uint64_t *low, size_t len, int digit_bits, int digits,
                                     uint8_t *planes, size_t stride)
{
    const uint64_t mask = (1u << digit_bits) - 1u;
    for (size_t from = 0; from < len; from += QCJ_TABLES_PLANES_CHUNK) {
        const size_t to = len - from < QCJ_TABLES_PLANES_CHUNK ? len : from + QCJ_TABLES_PLANES_CHUNK;
        for (int j = 0; j < digits; j++) {
            uint8_t *plane = planes + (size_t)j * stride;
            const int shift = digit_bits * j;
            for (size_t p = from; p < to; p++)
                plane[p] = (uint8_t)((low[p] >> shift) & mask);
        }
    }
    for (int j = 0; j < digits; j++)
        memset(planes + (size_t)j * stride + len, 0, stride - len);
}

/* [bit planes] Byte b of the result (b < bits): which of the n (<= 8)
 * tops have bit b (bit i: top i). */
static inline void qcj_tables_bit_planes(const uint64_t *tops, size_t n, int bits, uint8_t *out)
{
    for (int b = 0; b < bits; b++)
        out[b] = 0;
    for (size_t i = 0; i < n; i++)
        for (uint64_t x = tops[i]; x; x &= x - 1)
            out[__builtin_ctzll(x)] |= (uint8_t)(1u << i);
}

#endif
