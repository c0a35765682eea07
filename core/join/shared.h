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
#include "qcount.h"
#include "vec.h"

/* [split build] A pattern's band lists are listed in QCJ_SHARED_PIECES
 * pieces, each by its own unit where the plan says so: piece j is band j&1
 * of side j>>1 (top first and second band, bottom first and second). */
#define QCJ_SHARED_PIECES 4

/* The band lists of one pattern: side[0] the top's (pattern q), side[1]
 * the bottom's (M\q). */
typedef struct qcj_shared_sides {
    qcj_side side[2];
} qcj_shared_sides;

/* The plan's store of shared band lists, safe to use from many threads at
 * once.  Like the scratch pool, it is the plan's mutable part, behind a
 * pointer: counting a unit still depends on nothing but the unit. */
typedef struct qcj_shared qcj_shared;

/* A store for a plan whose patterns are cut into slices[i] counting units
 * each (patterns entries), plus `pieces` units listing their lists' pieces
 * (QCJ_SHARED_PIECES, or 0 where the first slice to come lists them all);
 * NULL when out of memory. */
qcj_shared *qcj_shared_new(size_t patterns, const uint32_t *slices, int pieces);
void qcj_shared_free(qcj_shared *sh);

/* The band lists of pattern `index` (top pattern q, bottom rest), for a
 * counting slice: each piece not yet listed is listed now as l says (its
 * scratch vectors; l->placed is not read: the queens a piece's listing
 * placed stay with the piece, qcj_shared_build_piece), pieces that other
 * units are listing are waited for (reading *l->stop).  Returns QC_OK and
 * sets *out (valid until qcj_shared_release); QC_ENOMEM, or QC_ESTOP when
 * *l->stop rose meanwhile (then released). */
int qcj_shared_acquire(qcj_shared *sh, const qcj_listing *l, size_t index, uint32_t q,
                       uint32_t rest, const qcj_shared_sides **out);
/* Hands back what acquire gave; `finished` when the unit counted all its
 * sets.  Once each of a pattern's units has finished, its lists are
 * recycled and the pattern starts afresh ([next pass], shared.c): a plan
 * counted twice lists every pattern's bands as often the second time as
 * the first.  Lists of units still to come are kept, a few at most. */
void qcj_shared_release(qcj_shared *sh, size_t index, int finished);

/* Frees the lists no unit holds (kept for slices to come, or spare):
 * they are listed again if needed. */
void qcj_shared_trim(qcj_shared *sh);

/* The band pieces listed so far (each of the QCJ_SHARED_PIECES pieces of a
 * pattern's lists counts one), for the tests: the work of a pass.  Where
 * `evictions` is not NULL it gets the idle entries recycled so far while
 * units of their pattern were still to come: each may cost a pattern's
 * pieces listed again, so that threads running many patterns at once list
 * more than one thread does, by at most QCJ_SHARED_PIECES an eviction. */
uint64_t qcj_shared_listings(qcj_shared *sh, uint64_t *evictions);

/* [split build] The unit listing piece `piece` of pattern `index`'s band
 * lists as l says (l->placed is not read), unless another unit has listed
 * it, or is listing it: then this waits; held for the pattern's slices.
 * On QC_OK *out holds no solutions and the queens the piece's listing
 * placed; QC_ENOMEM, QC_ESTOP as acquire, *out untouched. */
int qcj_shared_build_piece(qcj_shared *sh, const qcj_listing *l, size_t index, int piece,
                           uint32_t q, uint32_t rest, qc_tally *out);

#endif
