/* SPDX-License-Identifier: MIT */
/*
 * settings.h — the join plan's settings, for the tests and the sampler:
 * the profiles that choose them from N (profile.c), a plan or a count
 * under any settings (join.c), and the paths its units took.
 */
#ifndef QCJ_SETTINGS_H
#define QCJ_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "joiner.h"
#include "qcount.h"

/* The settings of a join plan other than the default one's (config.h),
 * for the tests: centre width of n's parity, key bits, force_wide
 * (geometry.h), the units aimed at (qcj_unit_target; 1 cuts no pattern),
 * the joiner, and how bands are listed. */
typedef struct qcj_settings {
    int profile;          /* [plan profiles] the board size whose profile these are */
    int unit_cols, key_bits, force_wide;
    double unit_target;
    qcj_joiner_kind joiner;
    int halves_transposed;    /* [transposed lists] (bands.c), where the bands allow it */
    int large_bands;      /* [large plans]: bands listed in place and pruned (bands.c) */
    int skip_empty;       /* [no empty units] (join.c): as in the profiles with large bands */
    int own_lists;        /* [own lists] (unit.c) */
    int set_units;        /* [set units] one unit per column set */
    uint32_t set_shares;   /* [set shares] (join.c); 1 cuts no set */
    size_t halves_cap;   /* [halves capped] (unit.c): QCJ_HALVES_CAP; 0 none */
    int fresh_scratch;    /* [fresh scratch] (scratch.h) */
    size_t memory_budget; /* [memory budget] (unit.c): QCJ_UNIT_MEMORY_BUDGET with fresh
                           * scratch; 0 none */
    double set_key_from;  /* [set key] (unit.c): QCJ_SET_KEY_FROM_PAIRS; 0 every chunk */
    int sort_coarse_from; /* [sort by halves of the key] (unit.c): QCJ_SORT_COARSE_FROM_BITS */
    int key_splits;       /* [spread key sample] (unit.c): QCJ_SET_KEY_SPLITS; 0 the first
                           * join's bottoms alone */
    size_t tile_bytes;    /* [bottom tiles] (joiner.h): 0 QCJ_TABLES_TILE_BYTES */
} qcj_settings;

/* [plan profiles] The settings of the n-board's plan under the profile
 * of board size `profile` (0 or n: its own; profile.c, [scaled profile]),
 * and that profile's name (config.h). */
qcj_settings qcj_settings_for(int n, int profile);
const char *qcj_profile_name(int profile);

/* The default plan's settings for board size n. */
static inline qcj_settings qcj_settings_of(int n)
{
    return qcj_settings_for(n, 0);
}

/* A join plan of the n-board with settings s into *out (qc_plan_free
 * frees it).  Returns QC_OK, QC_EINVAL or QC_ENOMEM. */
int qcj_plan_create_with(qc_plan **out, int n, const qcj_settings *s);

/* [path counters] The paths the plan's units took so far, added up
 * (joiner.h): read by the tests. */
void qcj_plan_paths(const qc_plan *plan, qcj_paths *out);

/* Counts the n-board on this thread with settings s into *total; adds the
 * steps to *steps when not NULL.  Returns QC_OK or an error
 * (QC_ENOMEM). */
int qcj_count_with(int n, const qcj_settings *s, unsigned __int128 *total,
                   unsigned __int128 *steps);

#endif
