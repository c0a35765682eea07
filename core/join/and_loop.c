/* SPDX-License-Identifier: MIT */
/*
 * and_loop.c — the AND joiner (joiner.h): one AND per pair of halves,
 * plain loops left to the compiler's vectoriser, built at every level
 * ([per-level objects], isa.h).  It shares nothing with the byte tables
 * but the groups it is given, so it is the count they are checked against
 * and the one an audit recounts a unit with.  Tricks, named where they are
 * used:
 *   [sieve]                     each top group against the bottom groups
 *                               inside ~(tg | extra) (joiner.h);
 *   [longer list in the vectors] the count is symmetric, so the longer
 *                               list goes into the inner loop.
 */
#include "joiner.h"
#include "qcount.h"

/* Pairs (a in tops, b in bottoms) with (a & b) == 0.  Kept out of the
 * sieve's loop (noinline), which with it inlined ran 6-9% slower on groups
 * of tens of halves (measured). */
__attribute__((noinline)) static uint64_t disjoint(const uint64_t *tops, size_t nt,
                                                   const uint64_t *bottoms, size_t nb)
{
    if (nb < nt) {                       /* [longer list in the vectors] */
        const uint64_t *t = tops;
        size_t n = nt;
        tops = bottoms;
        nt = nb;
        bottoms = t;
        nb = n;
    }
    uint64_t count = 0;
    for (size_t i = 0; i < nt; i++) {
        const uint64_t t = tops[i];
        uint64_t c = 0;
        for (size_t j = 0; j < nb; j++)
            c += (t & bottoms[j]) == 0;
        count += c;
    }
    return count;
}

static int and_count(const qcj_join_shape *shape, const qcj_groups *tops, const qcj_groups *bottoms,
                     uint32_t extra, qcj_vec *scratch, uint64_t *pairs, uint64_t *tested)
{
    (void)scratch;
    const uint32_t kmask = (1u << shape->key_bits) - 1u;
    const uint32_t *toff = tops->off, *boff = bottoms->off;
    uint64_t found = 0, tried = 0;
    for (uint32_t tg = 0; tg <= kmask; tg++) {          /* [sieve] */
        const size_t t0 = toff[tg], nt = toff[tg + 1] - t0;
        if (nt == 0 || !qcj_shape_joins(shape, tg, 0))
            continue;                       /* [sampled joins]: a group a part */
        const uint32_t avail = ~(tg | extra) & kmask;
        for (uint32_t bg = avail;; bg = (bg - 1) & avail) {   /* submasks of avail */
            const size_t b0 = boff[bg], nb = boff[bg + 1] - b0;
            if (nb) {
                tried += (uint64_t)nt * nb;
                found += disjoint(tops->low + t0, nt, bottoms->low + b0, nb);
            }
            if (bg == 0)
                break;
        }
    }
    *pairs = found;
    *tested += tried;
    return QC_OK;
}

/* Spares the middle queen ([middle spared], joiner.h): the AND loop tests
 * every pair, so the tops it drops are work saved (carrying it cost the
 * AND loop 46% at N=17, measured). */
const qcj_joiner qcj_and_joiner = {
    .name = "and",
    .middle = QCJ_MIDDLE_SPARED,
    .merges_passes = 0,
    .count = and_count,
};
