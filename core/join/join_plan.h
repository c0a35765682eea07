/* SPDX-License-Identifier: MIT */
/*
 * join_plan.h — the join engine's plan as every unit reads it: what
 * join.c builds for a board, and where each unit lies in it (its pattern,
 * its slice, its column keys and top splits).
 */
#ifndef QCJ_JOIN_PLAN_H
#define QCJ_JOIN_PLAN_H

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
 * [set shares] with set_shares > 1, slice / set_shares is its column key and
 * slice % set_shares its share of the key's set); slice >= slices: the unit
 * listing piece slice-slices of the pattern's band lists ([split build],
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
    uint32_t centre;      /* M as a column mask                        */
    int flip;             /* even N: the top-bottom flip is a symmetry */
    size_t patterns;      /* patterns that hold a counted set          */
    uint32_t *pattern;    /* [pattern] the top's columns inside M      */
    uint32_t *slices;     /* [pattern] units its column sets are cut into */
    uint8_t *counts;      /* [pattern] 0: its unit counts no set ([no empty units]) */
    double *cost;         /* [pattern] estimated cost, relative (join.c) */
    uint32_t set_shares;   /* [set shares] units a column set is cut into (1: none) */
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
    int list_pieces;       /* units listing cut patterns' lists in pieces: [split build] */
    qcj_pool *pool;       /* working memory reused by the units        */
    qcj_paths *paths;     /* [path counters] of every unit counted, added up */
    qcj_shared *shared;   /* band lists of the patterns cut in slices  */
} qcj_plan;

/* [unit runs] Unit `unit`'s pattern and slice (unit < p->units): a
 * search of the runs. */
qcj_unit_ref qcj_unit_at(const qcj_plan *p, size_t unit);

/* [path counters] The scratch's counts of the unit it counted added to
 * the plan's (atomically: threads give theirs at once), and cleared for
 * the next; none without a scratch. */
void qcj_plan_paths_give(const qcj_plan *p, qcj_scratch *sc);

/* [unit cases] Unit `unit`'s cases to each (describe.c,
 * qc_plan_unit_describe). */
int qcj_describe_unit(const qcj_plan *p, size_t unit, int (*each)(void *, const qc_unit_case *),
                      void *ctx);

/* The column keys unit `unit` counts, [*lo, *hi) (none for a piece's
 * unit): its slice of its pattern's keys, in colex order ([set shares]:
 * its share's key alone). */
static inline void qcj_unit_keys(const qcj_plan *p, size_t unit, uint64_t *lo, uint64_t *hi)
{
    const qcj_geometry *g = &p->geo;
    const qcj_unit_ref ref = qcj_unit_at(p, unit);
    const uint32_t slices = p->slices[ref.pattern] / p->set_shares;
    const uint32_t slice = ref.slice / p->set_shares;
    const int top_free = g->h - __builtin_popcount(p->pattern[ref.pattern]);
    const uint64_t keys = qcj_binomial(g->n - qcj_centre_cols(g), top_free);
    *lo = *hi = 0;
    if (slice < slices) {
        *lo = keys * slice / slices;
        *hi = keys * (slice + 1) / slices;
    }
}

/* [set shares] The top splits (halves.h) unit `unit` joins of each column
 * set it counts, [*from, *to): all, or its equal share. */
static inline void qcj_unit_splits(const qcj_plan *p, size_t unit, size_t *from, size_t *to)
{
    const uint32_t shares = p->set_shares, share = qcj_unit_at(p, unit).slice % shares;
    const size_t count = p->splits[0].count;
    *from = count * share / shares;
    *to = count * (share + 1) / shares;
}

/* Whether unit `unit` counts from its pattern's shared lists ([even
 * slices], shared.h): a slice of a cut pattern, unless units list their
 * own ([own lists], geometry.h). */
static inline int qcj_unit_shares_lists(const qcj_plan *p, size_t unit)
{
    const qcj_unit_ref ref = qcj_unit_at(p, unit);
    return p->slices[ref.pattern] > 1 && ref.slice < p->slices[ref.pattern] && !p->geo.own_lists;
}

#endif
