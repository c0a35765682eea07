/* SPDX-License-Identifier: MIT */
/*
 * join.h — the join engine's plan: what join.c builds for a board and
 * every unit reads (unit.h), and the engine run with other split
 * parameters than the plan's, for the tests.
 */
#ifndef QCJ_JOIN_H
#define QCJ_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "colex.h"
#include "geometry.h"
#include "halves.h"
#include "joiner.h"
#include "qcount.h"
#include "scratch.h"
#include "shared.h"

/* A unit: the column sets of one pattern, or one slice of them (the
 * slice-th of the pattern's `slices`, by the order of their column keys;
 * [set parts] with set_parts > 1, slice / set_parts is its column key and
 * slice % set_parts its part of the key's set); slice >= slices: the unit
 * listing part slice-slices of the pattern's band lists ([split build],
 * shared.h). */
typedef struct qcj_unit_ref {
    uint32_t pattern;     /* index into the plan's patterns            */
    uint32_t slice;
} qcj_unit_ref;

/* Read-only once built, shared by every thread counting its units; the
 * pool and the shared band lists it points to are the parts that change
 * (scratch.h, shared.h). */
typedef struct qcj_plan {
    qcj_geometry geo;
    qcj_rank rank;        /* colex rank tables for the band lists      */
    qcj_splits splits[2]; /* a half's columns between its bands: top, bottom */
    uint32_t block;       /* M as a column mask                        */
    int flip;             /* even N: the top-bottom flip is a symmetry */
    size_t patterns;      /* patterns that hold a counted set          */
    uint32_t *pattern;    /* [pattern] the top's columns inside M      */
    uint32_t *slices;     /* [pattern] units its column sets are cut into */
    uint8_t *counts;      /* [pattern] 0: its unit counts no set ([no empty units]) */
    double *cost;         /* [pattern] estimated cost, relative (join.c) */
    uint32_t set_parts;   /* [set parts] units a column set is cut into (1: none) */
    int skip_empty;       /* [no empty units]: a pattern that counts no set is no unit */
    int profile;          /* [plan profiles] the board size whose profile it takes */
    size_t units;
    /* [unit runs] The units in plan order, biggest first, as runs of one
     * pattern's consecutive slices: run r holds units [run_start[r],
     * run_start[r+1]), the first of them run[r], the next ones its next
     * slices; runs+1 starts.  So the plan holds two or so entries a
     * pattern, not one a unit (N=28: 40 million units). */
    size_t runs;
    qcj_unit_ref *run;
    size_t *run_start;
    double band;          /* [band cost] listing one pattern's bands, relative */
    double list_mean;     /* [split build] the mean cut pattern's listing weight */
    qcj_joiner_kind joiner; /* how the units join their halves (joiner.h) */
    int list_parts;       /* units listing cut patterns' lists in parts: [split build] */
    qcj_pool *pool;       /* working memory reused by the units        */
    qcj_paths *paths;     /* [path counters] of every unit counted, added up */
    qcj_shared *shared;   /* band lists of the patterns cut in slices  */
} qcj_plan;

/* The settings of a join plan other than the default one's (config.h),
 * for the tests: unit block width of n's parity, key bits, force_wide
 * (geometry.h), the units aimed at (qcj_unit_target; 1 cuts no pattern),
 * the joiner, and how bands are listed. */
typedef struct qcj_settings {
    int profile;          /* [plan profiles] the board size whose profile these are */
    int unit_cols, key_bits, force_wide;
    double unit_target;
    qcj_joiner_kind joiner;
    int halves_planes;    /* [transposed lists] (bands.c), where the bands allow it */
    int large_bands;      /* [large plans]: bands listed in place and pruned (bands.c) */
    int skip_empty;       /* [no empty units] (join.c): as in the profiles with large bands */
    int own_lists;        /* [own lists] (unit.c) */
    int set_units;        /* [set units] one unit per column set */
    uint32_t set_parts;   /* [set parts] (join.c); 1 cuts no set */
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

/* [unit runs] Unit `unit`'s pattern and slice (unit < p->units): a
 * search of the runs. */
qcj_unit_ref qcj_unit_at(const qcj_plan *p, size_t unit);

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

/* [unit cases] Unit `unit`'s cases to each (describe.c,
 * qc_plan_unit_describe). */
int qcj_describe_unit(const qcj_plan *p, size_t unit, int (*each)(void *, const qc_unit_case *),
                      void *ctx);

/* A join plan of the n-board with settings s into *out (qc_plan_free
 * frees it).  Returns QC_OK, QC_EINVAL or QC_ENOMEM. */
int qcj_plan_create_with(qc_plan **out, int n, const qcj_settings *s);

/* [probe] One unit in steps, for the sampler (bench/sample.c): start lists
 * the bands the unit counts from (to time apart), sets counts a range of
 * its column keys, end hands everything back.  The listing a whole run
 * charges to the unit is list_share of this one: 1 where the unit lists
 * its own bands, 1/k for a slice of k whose lists the run lists once (by
 * its first slice to come), 0 where the pattern's parts' units list them
 * (and are charged); a part's unit counts no key, its tally is `listed`,
 * and so does a unit whose pattern counts no set ([no empty units]). */
typedef struct qcj_probe {
    const qc_plan *plan;
    size_t unit;
    uint64_t keys;        /* the unit's column keys: sets counts [0, keys) */
    double list_share;
    qc_tally listed;      /* the listing's queens (a part's unit: its tally) */
    struct qcj_scratch *sc;
    const struct qcj_side *sides;
    uint64_t key0;
    /* [joins timed] of the last qcj_probe_sets, thread CPU seconds: in
     * the joins themselves (without the joiner's layout of the bottoms and
     * its skipped blocks, timed in a call that joins none when parts > 1),
     * and in that extra call, which a run never makes */
    double join_seconds, timing_seconds;
} qcj_probe;

int qcj_probe_start(const qc_plan *plan, size_t unit, qcj_probe *pr);
/* Counts the unit's keys [lo, hi) (hi <= pr->keys) into *out, joining
 * part `part` of `parts` of each set's top blocks or, where a join is
 * cut into tiles, of its tiles ([sampled joins], joiner.h: parts 0 or 1
 * all, part == parts none). */
int qcj_probe_sets(qcj_probe *pr, uint64_t lo, uint64_t hi, uint32_t parts, uint32_t part,
                   qc_tally *out);
void qcj_probe_end(qcj_probe *pr);
/* [path counters] The paths the plan's units took so far, added up
 * (joiner.h): read by the tests. */
void qcj_plan_paths(const qc_plan *plan, qcj_paths *out);

/* Frees the working memory and band lists the plan keeps between units,
 * so that the next unit's peak memory is its own. */
void qcj_plan_trim(const qc_plan *plan);

/* Counts the n-board on this thread with settings s into *total; adds the
 * work reported to *work when not NULL.  Returns QC_OK or an error
 * (QC_ENOMEM). */
int qcj_count_with(int n, const qcj_settings *s, unsigned __int128 *total, unsigned __int128 *work);

#endif
