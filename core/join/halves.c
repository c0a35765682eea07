/* SPDX-License-Identifier: MIT */
/*
 * halves.c — combines the halves of one column set from a side's band
 * placements (halves.h).
 *
 * The halves on set S are the pairs (first band on X, second band on S\X)
 * over the splits X of S, whose crossing diagonals are disjoint.  The bands
 * are short (h/2 rows), so their lists per column set are short and the
 * pairs are tested a vector at a time.  Tricks, named where they are used:
 *   [split by deposit] the subsets of S of one size are the subsets of
 *                      h bits deposited onto S's bits (PDEP; without it,
 *                      two lookups in tables built for S);
 *   [splits located first] a batch of splits' lists (a deposit, two
 *                      ranks, their offsets) is found in a loop of its
 *                      own, whose chains of lookups do not depend on each
 *                      other, before the batch is paired, so that no
 *                      split's lookups wait on the last one's pairing;
 *   the pair tests of two band lists, a vector at a time, are in
 *                      band_pairs.h ([compress-store], [permute-store],
 *                      [short lists held], [fits first], [lists held],
 *                      [guard bit], [tested transposed], [fits by mask],
 *                      [unrolled by 4], [list in place]).
 */
#include <stdint.h>
#include <stdlib.h>

#if defined(__BMI2__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#include "config.h"
#include "halves.h"
#include "qcount.h"

#include "band_pairs.h"

_Static_assert(QCJ_HALVES_MASK_TO >= 1 && QCJ_HALVES_MASK_TO <= 64,
               "[fits by mask]: the fits of a list are one word");
_Static_assert(QCJ_HALVES_BATCH >= 1, "[splits located first]: a batch holds a split at least");

/* [split by deposit] bits of x moved to the set bits of `set`, in order:
 * PDEP where the level has it, else two lookups in tables of the bits of
 * x's low byte and of its high byte deposited, built for each set. */
typedef struct deposit_tables {
#if !defined(__BMI2__)
    uint32_t low[256], high[256];
#endif
    uint32_t set;
} deposit_tables;

static inline void deposit_init(deposit_tables *d, uint32_t set)
{
    d->set = set;
#if !defined(__BMI2__)
    /* by doubling: entries 2^b.. are entries 0.. with the b-th member */
    uint32_t m = set;
    d->low[0] = d->high[0] = 0;
    for (int b = 0; b < 16; b++) {          /* members 0..7 low, 8..15 high */
        const uint32_t member = m & -m;
        uint32_t *t = b < 8 ? d->low : d->high;
        const int k = b & 7;
        m &= m - 1;
        for (int v = 0; v < 1 << k; v++)
            t[(1 << k) + v] = t[v] | member;
    }
#endif
}

static inline uint32_t deposit(const deposit_tables *d, uint32_t x)
{
#if defined(__BMI2__)
    return _pdep_u32(x, d->set);
#else
    return d->low[x & 255] | d->high[(x >> 8) & 255];
#endif
}

int qcj_splits_init(qcj_splits *sp, int h, int first_rows)
{
    sp->count = 0;
    sp->subset = malloc(((size_t)1 << h) * sizeof *sp->subset);
    if (!sp->subset)
        return QC_ENOMEM;
    for (uint32_t x = 0; x < 1u << h; x++)
        if (__builtin_popcount(x) == first_rows)
            sp->subset[sp->count++] = x;
    return QC_OK;
}

void qcj_splits_free(qcj_splits *sp)
{
    free(sp->subset);
    sp->subset = NULL;
    sp->count = 0;
}


/* One split's lists: band k's placements lo[k] .. lo[k] + n[k] - 1. */
typedef struct split_at {
    uint32_t lo[2], n[2];
} split_at;

/* The halves of one split of bands b0, b1 (neither list empty) that use
 * none of the border diagonals in `avoid`, ORed with `mark`, written at o;
 * returns how many.  o has room for n[0]*n[1] + 16 entries. */
static inline __attribute__((always_inline)) size_t pair_split(const qcj_band *b0,
                                                               const qcj_band *b1,
                                                               const split_at *split,
                                                               uint64_t avoid, uint64_t mark,
                                                               uint64_t *o)
{
    const uint32_t lo0 = split->lo[0], n0 = split->n[0], lo1 = split->lo[1], n1 = split->n[1];
#if QCJ_HALVES_TRANSPOSED
    /* [tested transposed] the transposed band's list against the other's,
     * a copy of the loop for each number of lookups */
    const int p1 = b1->transposed != NULL;
    const qcj_band *pb = p1 ? b1 : b0, *ob = p1 ? b0 : b1;
    if (pb->transposed && ob->bit_at && ob->rows >= 1 && ob->rows <= 8) {
        const uint32_t lo_o = p1 ? lo0 : lo1;
        const transposed_lists tl = {
            .pb = pb, .lo = p1 ? lo1 : lo0, .n = p1 ? n1 : n0,
            .bit_at = ob->bit_at + (size_t)lo_o * (size_t)(2 * ob->rows),
            .border_o = ob->border + lo_o, .no = p1 ? n0 : n1, .avoid = avoid, .mark = mark,
        };
        switch (2 * ob->rows) {
#define LOOKUPS(k) case k: return pairs_transposed(k, &tl, o);
            LOOKUPS(2) LOOKUPS(4) LOOKUPS(6) LOOKUPS(8) LOOKUPS(10) LOOKUPS(12) LOOKUPS(14) LOOKUPS(16)
#undef LOOKUPS
        }
        return 0;
    }
#endif
    /* the shorter list one entry at a time, the longer in the vectors */
    const int swap = n0 > n1;
    const split_lists sl = {
        .inner_a = swap ? b1->inner + lo1 : b0->inner + lo0,
        .border_a = swap ? b1->border + lo1 : b0->border + lo0,
        .inner_b = swap ? b0->inner + lo0 : b1->inner + lo1,
        .border_b = swap ? b0->border + lo0 : b1->border + lo1,
        .na = swap ? n1 : n0, .nb = swap ? n0 : n1, .avoid = avoid, .mark = mark,
    };
#if defined(__AVX512F__)
    if (sl.nb <= 16)
        return pairs_short(&sl, o);
    if (sl.nb <= 64) {                      /* [lists held] */
        switch ((sl.nb + 7) / 8) {
#define HELD(nv) case nv: return pairs_held(nv, &sl, o);
            HELD(3) HELD(4) HELD(5) HELD(6) HELD(7) HELD(8)
#undef HELD
        }
    }
#elif defined(__AVX2__)
    if (sl.nb <= 16) {                      /* [short lists held] [lists held] */
        switch ((sl.nb + 3) / 4) {
        case 1: return pairs_held4(1, &sl, o);
        case 2: return pairs_held4(2, &sl, o);
        case 3: return pairs_held4(3, &sl, o);
        default: return pairs_held4(4, &sl, o);
        }
    }
#endif
    return pairs_by_entry(&sl, o);
}

int qcj_halves_of(const qcj_rank *r, const qcj_halves_request *rq, size_t *at, qcj_vec *out,
                  size_t *len_out, uint64_t *tested)
{
    const qcj_splits *sp = rq->splits;
    const qcj_band *b0 = &rq->side->band[0], *b1 = &rq->side->band[1];
    const uint32_t set = rq->set;
    const uint64_t avoid = rq->avoid, mark = rq->mark;
    size_t len = *len_out;
    uint64_t pairs = 0;
    /* [halves capped] the loop's condition: a cap of 0 never stops it */
    const size_t stop_at = rq->cap ? rq->cap : SIZE_MAX;
    size_t i = *at;
    deposit_tables dep;
    deposit_init(&dep, set);
    while (i < sp->count && len < stop_at) {
        /* [splits located first] */
        enum { BATCH = QCJ_HALVES_BATCH };
        split_at located[BATCH];
        const size_t i0 = i, end = sp->count - i < BATCH ? sp->count : i + BATCH;
        for (size_t j = i0; j < end; j++) {
            const uint32_t x = deposit(&dep, sp->subset[j]);     /* [split by deposit] */
            const uint32_t k0 = qcj_rank_of(r, x), k1 = qcj_rank_of(r, set ^ x);
            const uint32_t l0 = b0->offsets[k0], l1 = b1->offsets[k1];
            located[j - i0] = (split_at){.lo = {l0, l1},
                                         .n = {b0->offsets[k0 + 1] - l0, b1->offsets[k1 + 1] - l1}};
        }
        for (; i < end && len < stop_at; i++) {
            const split_at *const split = &located[i - i0];
            const uint32_t n0 = split->n[0], n1 = split->n[1];
            if (n0 == 0 || n1 == 0)
                continue;
            uint64_t *o = qcj_vec_reserve(out, (len + (size_t)n0 * n1 + 16) * sizeof *o,
                                          len * sizeof *o);
            if (!o)
                return QC_ENOMEM;
            pairs += (uint64_t)n0 * n1;
            len += pair_split(b0, b1, split, avoid, mark, o + len);
        }
    }
    *tested += pairs;
    *len_out = len;
    *at = i;
    return QC_OK;
}
