/* SPDX-License-Identifier: MIT */
/*
 * nibbles_popcnt.c — the nibble-table count loop (nibbles_loop.h) built
 * with AVX-512 VPOPCNTDQ, whose VPOPCNTQ counts the pairs of 8 bottoms in
 * one step; qcj_nib_count runs it on the CPUs that have it.
 */
#include "nibbles.h"

#include "pairs.h"

#if defined(QCJ_PAIRS_HAVE_AVX512) && defined(QCJ_NIB_VPOPCNT)
#define NIB_COUNT_NAME qcj_nib_count_popcnt
#include "nibbles_loop.h"
#endif
