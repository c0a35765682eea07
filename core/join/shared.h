/* SPDX-License-Identifier: MIT */
/*
 * shared.h — band lists shared by the units of one pattern: a unit that
 * is a slice of a pattern's column sets takes the pattern's bands from
 * here, built once by whichever slice comes first, instead of listing them
 * again.
 */
#ifndef QCJ_SHARED_H
#define QCJ_SHARED_H

#include <stddef.h>
#include <stdint.h>

#include "bands.h"
#include "geometry.h"
#include "vec.h"

/* The band lists of one pattern: side[0] the top's (pattern q), side[1]
 * the bottom's (M\q), and the queens their building placed. */
typedef struct qcj_shared_sides {
    qcj_side side[2];
    uint64_t placed;
} qcj_shared_sides;

/* The plan's store of shared band lists, safe to use from many threads at
 * once.  Like the scratch pool, it is the plan's mutable part, behind a
 * pointer: counting a unit still depends on nothing but the unit. */
typedef struct qcj_shared qcj_shared;

/* A store for a plan whose patterns are cut into slices[i] units each
 * (patterns entries); NULL when out of memory. */
qcj_shared *qcj_shared_new(size_t patterns, const uint32_t *slices);
void qcj_shared_free(qcj_shared *sh);

/* The band lists of pattern `index` (top pattern q, bottom rest), built
 * now by `build` (the caller's level's qcj_side_build) with the scratch
 * vectors tmp unless another unit built them or is building them (then
 * this waits, reading *stop).  Returns QC_OK and sets *out (valid until
 * qcj_shared_release); QC_ENOMEM, or QC_ESTOP when *stop rose meanwhile. */
int qcj_shared_acquire(qcj_shared *sh, const qcj_geometry *g, const qcj_rank *r, size_t index,
                       uint32_t q, uint32_t rest, qcj_side_build_fn *build, qcj_vec tmp[3],
                       const int *stop, const qcj_shared_sides **out);
/* Hands back what acquire gave; `finished` when the unit counted all its
 * sets (once each pattern's slices have all finished, its lists are
 * recycled; lists of slices still to come are kept, a few at most). */
void qcj_shared_release(qcj_shared *sh, size_t index, int finished);

#endif
