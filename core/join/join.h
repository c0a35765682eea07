/*
 * join.h — the join engine's plan: what join.c builds for a board and
 * every unit reads (unit.h), and the engine run with other split
 * parameters than the plan's, for the tests.
 */
#ifndef QCJ_JOIN_H
#define QCJ_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "geometry.h"
#include "halves.h"
#include "scratch.h"

/* Read-only once built, shared by every thread counting its units; the
 * pool it points to is the one part that changes (scratch.h). */
typedef struct qcj_plan {
    qcj_geometry geo;
    qcj_rank rank;        /* colex rank tables for the band lists      */
    qcj_splits splits[2]; /* a half's columns between its bands: top, bottom */
    uint32_t block;       /* M as a column mask                        */
    int flip;             /* even N: the top-bottom flip is a symmetry */
    size_t units;
    uint32_t *patterns;   /* unit i counts pattern patterns[i]         */
    qcj_pool *pool;       /* working memory reused by the units        */
} qcj_plan;

/* Counts the n-board on this thread with the given split parameters (unit
 * block width of n's parity, key bits, force_wide: geometry.h): the engine
 * with other settings than the plan's (config.h).  Returns QC_OK or an
 * error (QC_ENOMEM). */
int qcj_count_with(int n, int unit_cols, int key_bits, int force_wide, unsigned __int128 *total);

#endif
