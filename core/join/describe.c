/* SPDX-License-Identifier: MIT */
/*
 * describe.c — [unit cases] a join unit in plain terms (qcount.h,
 * qc_plan_unit_describe): for each column set the unit counts, and each
 * weight of its middle queen on odd N, one case whose rows say which
 * columns each row's queen may take; where the unit holds only some of a
 * set's top splits ([set shares], halves.h), one case per split, the top's
 * first band on the split's columns and its second band on the rest.
 *
 * A case stands for what the unit's joins count: tops on exactly the set
 * S (h queens in h columns), on odd N a middle queen in one of the pass's
 * columns, bottoms on the columns left, the whole times the set's (or
 * the set and middle column's) weight (orbits.h).  So the unit's tally is
 * the cases' weighted counts, which a program that knows nothing of
 * bands or halves can check (core/oracle/backtrack.c).
 */
#include <string.h>

#include "colex.h"
#include "join_plan.h"
#include "orbits.h"
#include "unit.h"

/* The columns of squeezed set x of the side with pattern q inside M
 * ([squeezed columns], geometry.h): bits below n-m are the column key's,
 * bit n-m+j the pattern's j-th column. */
static uint32_t unsqueeze(const qcj_geometry *g, uint32_t q, uint32_t x)
{
    const int outside = g->n - qcj_centre_cols(g);
    const uint32_t key_mask = outside >= 32 ? UINT32_MAX : (1u << outside) - 1u;
    uint32_t cols = qcj_colkey_expand(g, x & key_mask);
    uint32_t in_q = outside >= 32 ? 0 : x >> outside;
    for (uint32_t b = q; b && in_q; b &= b - 1, in_q >>= 1)
        if (in_q & 1u)
            cols |= b & -b;
    return cols;
}

/* [split by deposit] x's bits moved onto the set bits of `set`, in order. */
static uint32_t deposit_bits(uint32_t x, uint32_t set)
{
    uint32_t out = 0;
    for (; set; set &= set - 1, x >>= 1)
        if (x & 1u)
            out |= set & -set;
    return out;
}

/* The cases of top set s in the unit of pattern q, with its top splits
 * [from, to) (all of them: one case a pass), to each. */
static int describe_set(const qcj_plan *p, uint32_t q, uint32_t s, size_t from, size_t to,
                        int (*each)(void *, const qc_unit_case *), void *ctx)
{
    const qcj_geometry *g = &p->geo;
    const int n = g->n;
    uint32_t cols[32];
    int weight[32];
    /* odd N: one case per weight of the middle queen, whatever the joiner */
    const int passes = qcj_set_passes(s, q, p->centre, n, p->flip, 1, cols, weight);
    const int whole = from == 0 && to == p->splits[0].count;
    const uint32_t squeezed = qcj_squeeze(g, q, s);
    qc_unit_case c;
    for (int pass = 0; pass < passes; pass++)
        for (size_t j = from; j < to && (j == from || !whole); j++) {
            memset(&c, 0, sizeof c);
            c.weight = (uint64_t)weight[pass];
            const uint32_t first = whole ? s : unsqueeze(g, q, deposit_bits(p->splits[0].subset[j],
                                                                            squeezed));
            for (int r = 0; r < g->h; r++)
                c.rows[r] = r < g->split[0] ? first : s & ~(whole ? 0 : first);
            if (n % 2)
                c.rows[g->h] = cols[pass];
            for (int r = g->b0; r < n; r++)
                c.rows[r] = qck_full_mask(n) & ~s;
            if (each(ctx, &c))
                return QC_EHOOK;
        }
    return QC_OK;
}

int qcj_describe_unit(const qcj_plan *p, size_t unit, int (*each)(void *, const qc_unit_case *),
                      void *ctx)
{
    const qcj_geometry *g = &p->geo;
    const qcj_unit_ref ref = qcj_unit_at(p, unit);
    if (!p->counts[ref.pattern] || ref.slice >= p->slices[ref.pattern])
        return QC_OK;                       /* [no empty units], [split build]: no set */
    const uint32_t q = p->pattern[ref.pattern];
    uint64_t lo, hi;
    size_t from, to;
    qcj_unit_keys(p, unit, &lo, &hi);
    qcj_unit_splits(p, unit, &from, &to);
    const int top_free = g->h - __builtin_popcount(q);
    uint32_t key = lo < hi ? qcj_colex_at(lo, top_free) : 0;
    for (uint64_t at = lo; at < hi; at++) {
        const int rc = describe_set(p, q, q | qcj_colkey_expand(g, key), from, to, each, ctx);
        if (rc != QC_OK)
            return rc;
        if (key)
            key = qcj_colex_next(key);
    }
    return QC_OK;
}
