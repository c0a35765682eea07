/* SPDX-License-Identifier: MIT */
/*
 * profile.c — [plan profiles] the settings of a join plan (settings.h) from
 * the profile of a board size (config.h, qcj_profile_of), for its own
 * board or, scaled, for another.
 *
 * [scaled profile] On a board smaller than the profile's, by d = P - N
 * sizes, what a record board does in chunks would fit in one piece, so
 * the sizes that cut work are scaled down with the board: the halves a
 * chunk holds, the memory budget and the sieve's tiles by 2^d, the pairs
 * from which a chunk of tops gets its own key by 4^d (pairs grow as the
 * square of the halves).  The key takes the share of the border
 * diagonals it takes on board P, with the ANDed rest as wide as there
 * (64-bit lanes from P=25), and the halves are grouped in two passes from
 * QCJ_SORT_COARSE_BITS + 1 key bits where board P groups them so.  The
 * modes (how bands are listed, units per set, set shares, fresh scratch)
 * are P's.  The counts are the same; tests/core/test_profile.c reads the
 * plan's path counters (settings.h) to show the chunked paths do run.
 */
#include "config.h"
#include "settings.h"

/* Border diagonal slots of board n (geometry.h): 2W, W = n-1 or n. */
static int slots_of(int n)
{
    return n % 2 ? 2 * n : 2 * (n - 1);
}

/* x >> d, at least `least` (d <= 0: x). */
static size_t scaled(size_t x, int d, size_t least)
{
    if (d <= 0)
        return x;
    x = d >= 63 ? 0 : x >> d;
    return x < least ? least : x;
}

qcj_settings qcj_settings_for(int n, int profile)
{
    const int p = profile ? profile : n;
    const qcj_profile *row = qcj_profile_of(p);
    qcj_settings s = {
        .profile = p,
        .unit_cols = qcj_unit_cols(n),
        .key_bits = qcj_key_bits(p),
        .unit_target = row->target,
        .joiner = QCJ_JOIN_TABLES,
        .halves_transposed = row->transposed,
        .large_bands = row->large,
        .skip_empty = row->large,
        .own_lists = row->own,
        .set_units = row->sets,
        .set_shares = row->shares,
        .halves_cap = QCJ_HALVES_CAP,
        .fresh_scratch = row->fresh,
        .memory_budget = row->fresh ? QCJ_UNIT_MEMORY_BUDGET : 0,
        .set_key_from = QCJ_SET_KEY_FROM_PAIRS,
        .key_splits = QCJ_SET_KEY_SPLITS,
        .sort_coarse_from = QCJ_SORT_COARSE_FROM_BITS,
        .tile_bytes = 0,
    };
    if (p == n)
        return s;
    s.unit_cols = qcj_centre_width(n, row->less);   /* [scaled profile] P's rule, N's size */
    const int wide = slots_of(p) - s.key_bits > 32;
    int k = (s.key_bits * slots_of(n) + slots_of(p) / 2) / slots_of(p);
    if (k < 1)
        k = 1;
    if (!wide && slots_of(n) - k > 32)
        k = slots_of(n) - 32;
    s.key_bits = k;
    s.force_wide = wide;
    if (qcj_key_bits(p) >= QCJ_SORT_COARSE_FROM_BITS)
        s.sort_coarse_from = QCJ_SORT_COARSE_BITS + 1;
    const int d = p - n;
    s.halves_cap = scaled(QCJ_HALVES_CAP, d, 1);
    if (s.memory_budget)
        s.memory_budget = scaled(QCJ_UNIT_MEMORY_BUDGET, d, 1);
    s.tile_bytes = scaled(QCJ_TABLES_TILE_BYTES, d, 64);
    if (d > 0)
        s.set_key_from = QCJ_SET_KEY_FROM_PAIRS / ((double)((uint64_t)1 << (d < 31 ? d : 31))
                                                   * (double)((uint64_t)1 << (d < 31 ? d : 31)));
    return s;
}

const char *qcj_profile_name(int n)
{
    return qcj_profile_of(n)->name;
}
