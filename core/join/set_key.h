/* SPDX-License-Identifier: MIT */
/*
 * set_key.h — [set key] the key diagonals of one column set: which k
 * border diagonals sort its halves into groups (joiner.h), chosen from a
 * sample of its tops and bottoms, and the byte table that lays a border
 * signature out for them.
 *
 * The geometry's key (geometry.h) holds the k diagonals a random pair of
 * halves most likely both uses over the whole board.  The halves of one
 * top column set S use only the diagonals through S's columns (tops) and
 * through the others' (bottoms), and not evenly, so a key fitted to the
 * set keeps far fewer pairs of halves for the hot loop: on one column set
 * of N=27, 24 times fewer (performance-log.md, "2026-11-27 — a key for each
 * column set ([set key]); the record plan's N=22, 27 and 28 again").  A set
 * key moves bits only, the same way in every half of the set, so two halves are disjoint
 * after it exactly when before, and no count depends on which key is
 * chosen; the work reported (pairs of halves tested) does.
 */
#ifndef QCJ_SET_KEY_H
#define QCJ_SET_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "geometry.h"
#include "isa.h"

/* set_key.c is built once per ISA level: [per-level names] (isa.h) */
#define qcj_set_key_choose QC_LEVEL(qcj_set_key_choose)
#define qcj_set_key_lay_out QC_LEVEL(qcj_set_key_lay_out)

/* A signature's new layout: the j-th key diagonal at bit key_shift + j
 * (geometry.h), the other diagonals at bits 0, 1, ... in the order of
 * their bits before, as the geometry lays out its own key. */
typedef struct qcj_set_key {
    uint64_t byte[8][256];   /* byte[i][v]: where byte i's bits v go */
} qcj_set_key;

/* qcj_set_key_choose's working memory (in the unit's scratch). */
typedef struct qcj_set_key_sample {
    uint64_t top_uses[64][QCJ_SET_KEY_SAMPLE / 64];   /* [b]: the tops that use bit b */
    uint64_t alive[QCJ_SET_KEY_SAMPLE][QCJ_SET_KEY_SAMPLE / 64];  /* [t]: bottoms t is still paired with */
    uint64_t uses[64][QCJ_SET_KEY_SAMPLE / 64];   /* [b]: the bottoms that use bit b */
} qcj_set_key_sample;

/* Lays *key out for the k = g->key_bits signature bits bits[0..k) (the
 * geometry's layout, each a border diagonal's, all different), key bit j
 * taking bits[j]. */
void qcj_set_key_lay_out(const qcj_geometry *g, const int *bits, qcj_set_key *key);

/* Chooses the key of one column set from its tops[0..nt) and
 * bottoms[0..nb) (border signatures in the geometry's layout, before
 * qcj_set_key_apply; bottoms may be a sample of the set's) and lays *key
 * out for it, with the working memory *sample; `pairs` is the number of
 * pairs of halves the key will sieve (nt * nb where the bottoms are all
 * the set's).  Greedy, on an even sample of m halves a side (m the
 * largest power of two up to QCJ_SET_KEY_SAMPLE, 64 at least, with m^4 <=
 * pairs / 4): each key bit in turn is the diagonal that most pairs of the
 * sample, disjoint on the bits chosen so far, both use; ties (and a
 * sample with no such pair left) go to the diagonal most pairs of the
 * whole sample use, then to the geometry's key bits first, in its order,
 * then to the lower bit.  [tiles by top use] The bits chosen are then laid
 * out in increasing order of the sampled tops that use them (ties in the
 * order chosen): a tiled join cuts its bottoms into tiles by the key's
 * high bits, and builds a top block's tables again for each tile it
 * meets, one for each set of high bits its tops leave free
 * (tables_loop.h, [bottom tiles]); with the bits most tops use on top,
 * a top meets fewer tiles, in longer sweeps.  On one N=28 unit, 0.52
 * times the blocks built and 0.88 times the joins' time
 * (performance-log.md, "2026-11-28 (late night) — a set's key bits laid out by
 * the tops' use; what a tiled join's time is; the record plan again").
 * Deterministic: the same halves give the same key. */
void qcj_set_key_choose(const qcj_geometry *g, const uint64_t *tops, size_t nt,
                        const uint64_t *bottoms, size_t nb, double pairs,
                        qcj_set_key_sample *sample, qcj_set_key *key);

/* Signature sig laid out by key: eight lookups. */
static inline uint64_t qcj_set_key_apply(const qcj_set_key *key, uint64_t sig)
{
    uint64_t out = 0;
    for (int i = 0; i < 8; i++)
        out |= key->byte[i][(sig >> 8 * i) & 0xff];
    return out;
}

#endif
