/* SPDX-License-Identifier: MIT */
/*
 * scratch.h — the join engine's working memory: one unit's buffers (a
 * scratch set), and the pool that hands them from unit to unit.
 */
#ifndef QCJ_SCRATCH_H
#define QCJ_SCRATCH_H

#include "bands.h"
#include "joiner.h"
#include "set_key.h"
#include "vec.h"

/* One unit's working memory: [0] top side, [1] bottom side. */
typedef struct qcj_scratch {
    qcj_side side[2];
    qcj_vec band_tmp[3];      /* band placements before sorting          */
    qcj_vec raw[2];           /* halves of one column set, before grouping */
    qcj_vec low[2];           /* ... grouped: their ANDed parts            */
    qcj_vec off[2];           /* ... and the group offsets                 */
    qcj_vec spared, spared_off;   /* odd N, [middle spared]: the tops sparing the middle queen */
    qcj_vec joiner_scratch;       /* the joiner's own (joiner.h)            */
    qcj_set_key set_key;          /* [set key] the column set's (unit.c)    */
    qcj_set_key_sample key_sample;    /* ... and its choice's working memory */
    uint64_t key_bottoms[QCJ_SET_KEY_SAMPLE];   /* ... its bottoms ([spread key sample]) */
    qcj_paths paths;              /* [path counters] of the unit under way */
} qcj_scratch;

/* A pool of scratch sets, safe to use from many threads at once.  A plan
 * owns one through a pointer: the pool is what changes while the plan
 * counts, the plan itself is never written (qc_plan_count_unit takes it
 * const). */
typedef struct qcj_pool qcj_pool;

/* An empty pool, or NULL when out of memory.  A set given back is kept,
 * buffers and all, for the next unit while they hold at most keep_max
 * bytes ([kept scratch], scratch.c), and freed otherwise; with keep_max 0
 * ([fresh scratch]) each unit starts from no working memory, so a
 * thread's peak is its largest unit's own. */
qcj_pool *qcj_pool_new(size_t keep_max);
/* A scratch set from the pool, or a new empty one (NULL: out of memory). */
qcj_scratch *qcj_pool_take(qcj_pool *pool);
/* Gives s back (kept for the next unit, or freed: qcj_pool_new); s may
 * be NULL. */
void qcj_pool_give(qcj_pool *pool, qcj_scratch *s);
/* Frees a scratch set that is not in a pool. */
void qcj_scratch_free(qcj_scratch *s);
/* Frees the sets the pool keeps (none may be taken meanwhile). */
void qcj_pool_trim(qcj_pool *pool);
/* Frees the pool and every set in it; pool may be NULL. */
void qcj_pool_free(qcj_pool *pool);

#endif
