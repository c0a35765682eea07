/* SPDX-License-Identifier: MIT */
/*
 * unit.c — counts one unit of the join engine (unit.h): the pairs (top
 * half, bottom half) of every column set the unit holds.
 *
 * Counting unit q (its pattern: the columns the top half uses inside M):
 *   1. list the placements of the bands the halves are made of: top bands
 *      on the columns outside M and q's, bottom bands outside M and M\q
 *      (bands.c);
 *   2. for each top column set S whose orbit this unit counts (weight > 0,
 *      orbits.c): build the tops on S and the bottoms on ~S from the bands
 *      (halves.c) and sort each by group key, the k "key" border diagonals
 *      most likely used by both halves (a small counting sort);
 *   3. for each top group g and each bottom group that is a subset of ~g
 *      (no shared key diagonal: the sieve), count the pairs whose other
 *      border diagonals are disjoint too: the hot loop, on the avx512
 *      level by byte tables (nibbles.h) where the rest fits 32 bits,
 *      else by one AND per pair (pairs.h).
 * Only one column set's halves are in memory at a time, so a unit's memory
 * is its band lists (a few MiB) whatever N.
 * Odd N: both halves have h rows and the middle row h is left over.  The
 * bottoms of ~S\{c} spare the middle queen in c; the byte tables join
 * those of every c at once, each carrying its middle queen ([middle
 * carried]), the AND loop one c at a time with the tops that spare it
 * ([middle spared]).  Even N takes the same path with no middle queen.
 * Work reported (qc_tally.placements): queens placed in the bands, pairs of
 * band placements tested, and pairs of halves tested by the hot loop.
 */
#include <string.h>

#include "kernel/kernel.h"
#include "orbits.h"
#include "pairs.h"
#include "unit.h"

#if defined(__AVX512BW__) && defined(QCJ_PAIRS_HAVE_AVX512)
#include "nibbles.h"
#define NIBBLES 1       /* narrow signatures take the byte tables */
#else
#define NIBBLES 0
#endif

/* The halves of one column set sorted into groups by their k key
 * diagonals: off[g]..off[g+1] index group g's ANDed signature parts (low32
 * when narrow, low64 when wide). */
typedef struct groups {
    uint32_t *off;
    uint32_t *low32;
    uint64_t *low64;
} groups;

/* Room in offv and lowv for the groups of len halves, into gr. */
static int groups_reserve(const qcj_geometry *g, size_t len, qcj_vec *offv, qcj_vec *lowv,
                          groups *gr)
{
    gr->off = qcj_vec_reserve(offv, (((size_t)1 << g->key_bits) + 1) * sizeof *gr->off);
    void *low = qcj_vec_reserve(lowv, (len ? len : 1) * sizeof(uint64_t));
    if (!gr->off || !low || len >= UINT32_MAX)
        return QC_ENOMEM;
    gr->low32 = g->wide ? NULL : low;
    gr->low64 = g->wide ? low : NULL;
    return QC_OK;
}

/* Counting sort of the len signatures in raw by group key into gr, using
 * the side's vectors.  Returns QC_OK or QC_ENOMEM. */
static int group_halves(const qcj_geometry *g, const uint64_t *raw, size_t len, qcj_vec *offv,
                        qcj_vec *lowv, groups *gr)
{
    const size_t count = (size_t)1 << g->key_bits;
    const uint64_t kmask = count - 1;
    if (groups_reserve(g, len, offv, lowv, gr) != QC_OK)
        return QC_ENOMEM;
    uint32_t *off = gr->off;
    memset(off, 0, (count + 1) * sizeof *off);
    for (size_t i = 0; i < len; i++)
        off[((raw[i] >> g->key_shift) & kmask) + 1]++;
    for (size_t i = 1; i < count; i++)
        off[i + 1] += off[i];
    /* place: off[key] (key's start) is its fill pointer */
    if (g->wide) {
        const uint64_t keep = ~(kmask << g->key_shift);
        for (size_t i = 0; i < len; i++)
            gr->low64[off[((raw[i] >> g->key_shift) & kmask)]++] = raw[i] & keep;
    } else {
        for (size_t i = 0; i < len; i++)
            gr->low32[off[((raw[i] >> g->key_shift) & kmask)]++] = (uint32_t)raw[i];
    }
    /* each fill pointer ended at its group's end, the next one's start */
    for (size_t i = count; i > 0; i--)
        off[i] = off[i - 1];
    off[0] = 0;
    return QC_OK;
}

/* Pairs (top, bottom) of one column set (pair) with no shared diagonal:
 * the sieve over key groups and the hot loop (pairs.h). */
static uint64_t join_groups(const qcj_geometry *g, const groups *top, const groups *bottom,
                            uint32_t extra, uint64_t *tested)
{
    return g->wide ? qcj_pairs_groups64(top->off, top->low64, bottom->off, bottom->low64,
                                        g->key_bits, extra, tested)
                   : qcj_pairs_groups32(top->off, top->low32, bottom->off, bottom->low32,
                                        g->key_bits, extra, tested);
}

/* Odd N by the AND loop, [middle spared]: copies the tops that spare the
 * middle queen's diagonals (signature mid) into dst; the bottoms are built
 * sparing them too (qcj_halves_of's avoid), so the hot loop need not test
 * the middle queen at all.  A top group sharing a key diagonal with it is
 * dropped whole. */
static void spare_middle(const qcj_geometry *g, const groups *src, uint64_t mid, groups *dst)
{
    const uint32_t count = 1u << g->key_bits;
    const uint32_t mid_key = (uint32_t)(mid >> g->key_shift) & (count - 1);
    const uint64_t mid_low = mid & ~((uint64_t)(count - 1) << g->key_shift);
    const uint32_t mid32 = (uint32_t)mid_low;
    uint32_t at = 0;
    for (uint32_t grp = 0; grp < count; grp++) {
        dst->off[grp] = at;
        if (grp & mid_key)
            continue;
        if (g->wide) {
            for (size_t i = src->off[grp]; i < src->off[grp + 1]; i++) {
                uint64_t t = src->low64[i];
                dst->low64[at] = t;
                at += (t & mid_low) == 0;      /* kept unless it attacks */
            }
        } else {
            for (size_t i = src->off[grp]; i < src->off[grp + 1]; i++) {
                uint32_t t = src->low32[i];
                dst->low32[at] = t;
                at += (t & mid32) == 0;
            }
        }
    }
    dst->off[count] = at;
}

/* One unit while it walks its column sets. */
typedef struct unit_walk {
    const qcj_plan *p;
    qcj_scratch *sc;
    const qcj_side *sides; /* band lists: [0] the top's, [1] the bottom's */
    uint32_t q, rest;     /* the top's and the bottom's columns inside M */
    int table_slices;     /* 0, or the byte tables' slices of the ANDed part (nibbles.h) */
#if NIBBLES
    const qcj_nib_kind *kind;   /* their kind */
#endif
    uint64_t tested;      /* pairs of band placements and of halves tested */
    qc_u128 total;
} unit_walk;

#if NIBBLES
/* The slices of g's ANDed part when the tables of kind k take it
 * (narrow), else 0. */
static int byte_table_slices(const qcj_geometry *g, const qcj_nib_kind *k)
{
    const int slots = 2 * (g->n - 1 + g->n % 2);
    return g->wide ? 0 : qcj_nib_slices(k, slots - g->key_bits);
}

/* Pairs of the tops and the nb grouped bottoms, by the tables of w's kind. */
static int pairs_by_tables(unit_walk *w, const groups *tops, const groups *bottoms, size_t nb,
                            uint64_t *pairs)
{
    qcj_scratch *sc = w->sc;
    const size_t stride = qcj_nib_stride(nb);
    uint8_t *planes = qcj_vec_reserve(&sc->nib_planes, stride * (size_t)w->table_slices);
    if (!planes)
        return QC_ENOMEM;
    qcj_nib_planes(bottoms->low32, nb, 0, w->kind->slice_bits, w->table_slices, planes, stride);
    *pairs = w->kind->count(tops->off, tops->low32, bottoms->off, planes, stride, w->p->geo.key_bits,
                            w->table_slices, &w->tested);
    return QC_OK;
}
#endif

/* The tops on top column set s, grouped into *tops; *none when there are
 * none. */
static int make_tops(unit_walk *w, uint32_t s, groups *tops, int *none)
{
    const qcj_geometry *g = &w->p->geo;
    qcj_scratch *sc = w->sc;
    size_t nt = 0;
    int rc = qcj_halves_of(&w->p->rank, &w->p->splits[0], &w->sides[0], qcj_squeeze(g, w->q, s), 0,
                           0, &sc->raw[0], &nt, &w->tested);
    *none = rc == QC_OK && nt == 0;
    if (rc != QC_OK || nt == 0)
        return rc;
    return group_halves(g, sc->raw[0].p, nt, &sc->off[0], &sc->low[0], tops);
}

/* The pairs of the tops and the nb bottoms in the scratch's raw[1]; on
 * odd N by the AND loop, of middle queen mid: the tops that spare it
 * ([middle spared]).  *pairs is 0 when no top spares it. */
static int join_bottoms(unit_walk *w, const groups *tops, size_t nb, uint64_t mid, uint64_t *pairs)
{
    const qcj_geometry *g = &w->p->geo;
    qcj_scratch *sc = w->sc;
    groups bottoms;
    *pairs = 0;
    if (group_halves(g, sc->raw[1].p, nb, &sc->off[1], &sc->low[1], &bottoms) != QC_OK)
        return QC_ENOMEM;
#if NIBBLES
    if (w->table_slices)
        return pairs_by_tables(w, tops, &bottoms, nb, pairs);
#endif
    const size_t keys = (size_t)1 << g->key_bits;
    if (mid) {
        groups spared;
        size_t nt = tops->off[keys];
        if (groups_reserve(g, nt, &sc->spared_off, &sc->spared, &spared) != QC_OK)
            return QC_ENOMEM;
        spare_middle(g, tops, mid, &spared);
        if (spared.off[keys] == 0)
            return QC_OK;
        const uint32_t mid_key = (uint32_t)(mid >> g->key_shift) & (uint32_t)(keys - 1);
        *pairs = join_groups(g, &spared, &bottoms, mid_key, &w->tested);
        return QC_OK;
    }
    *pairs = join_groups(g, tops, &bottoms, 0, &w->tested);
    return QC_OK;
}

/* The passes of one top column set: the middle columns joined at once and
 * their weight.  [middle carried] On odd N the byte tables take the
 * bottoms of every free column c of the middle queen, built sparing it and
 * carrying its signature (so that a top it attacks meets none of them),
 * all those of one weight in one pass; the AND loop takes one c a pass
 * ([middle spared]).  On even N: one pass, no middle queen (cols 0).
 * Returns the number of passes. */
static int set_passes(const unit_walk *w, uint32_t s, uint32_t cols[32], int weight[32])
{
    const qcj_plan *p = w->p;
    const int n = p->geo.n;
    if (n % 2 == 0) {
        cols[0] = 0;
        weight[0] = qcj_set_weight(s, w->q, p->block, n, p->flip);
        return weight[0] != 0;
    }
    int passes = 0;
    for (uint32_t mids = qck_full_mask(n) & ~s; mids; mids &= mids - 1) {
        const int c = __builtin_ctz(mids), wc = qcj_triple_weight(s, c, p->block, n);
        int at = 0;
        if (wc == 0)
            continue;
        if (w->table_slices)                 /* the pass of its weight */
            while (at < passes && weight[at] != wc)
                at++;
        else
            at = passes;
        if (at == passes) {
            cols[passes] = 0;
            weight[passes++] = wc;
        }
        cols[at] |= 1u << c;
    }
    return passes;
}

/* Adds the solutions whose top half uses column set s, times their
 * weights, to w->total (set_passes). */
static int count_set(unit_walk *w, uint32_t s)
{
    const qcj_plan *p = w->p;
    const qcj_geometry *g = &p->geo;
    qcj_scratch *sc = w->sc;
    const uint32_t free_cols = qck_full_mask(g->n) & ~s;
    uint32_t cols[32];
    int weight[32];
    const int passes = set_passes(w, s, cols, weight);
    if (passes == 0)
        return QC_OK;
    groups tops;
    int none;
    int rc = make_tops(w, s, &tops, &none);
    if (rc != QC_OK || none)
        return rc;
    for (int pass = 0; pass < passes; pass++) {
        size_t nb = 0;
        uint64_t mid = 0;
        uint32_t mids = cols[pass];
        do {                                /* each middle column, or none */
            const int c = mids ? __builtin_ctz(mids) : -1;
            mid = c >= 0 ? g->cell_sig[g->h][c] : 0;
            const uint32_t bset = c >= 0 ? free_cols & ~(1u << c) : free_cols;
            rc = qcj_halves_of(&p->rank, &p->splits[1], &w->sides[1], qcj_squeeze(g, w->rest, bset),
                               mid, w->table_slices ? mid : 0, &sc->raw[1], &nb, &w->tested);
            mids &= mids - 1;
        } while (rc == QC_OK && mids);
        uint64_t pairs = 0;
        if (rc == QC_OK && nb)
            rc = join_bottoms(w, &tops, nb, w->table_slices ? 0 : mid, &pairs);
        if (rc != QC_OK)
            return rc;
        w->total += (qc_u128)pairs * (unsigned)weight[pass];
    }
    return QC_OK;
}

/* Column keys of a pattern with `free` top columns outside M: C(cols, free). */
static uint64_t key_count(int cols, int free)
{
    if (free < 0 || free > cols)
        return 0;
    uint64_t c = 1;
    for (int i = 1; i <= free; i++)
        c = c * (uint64_t)(cols - free + i) / (uint64_t)i;
    return c;
}

/* The at-th set of `size` columns in increasing order of their masks
 * (colex order), by the combinatorial number system, largest column
 * first. */
static uint32_t key_at(uint64_t at, int size)
{
    uint32_t key = 0;
    for (int k = size; k > 0; k--) {
        int c = k - 1;
        while (key_count(c + 1, k) <= at)
            c++;
        at -= key_count(c, k);
        key |= 1u << c;
    }
    return key;
}

/* Counts slice `slice` of `slices` of w's pattern's column keys (in
 * increasing order of the keys with the top's number of columns outside
 * M; one slice of one: all of them) into w. */
static int count_keys(unit_walk *w, uint32_t slice, uint32_t slices, const int *stop)
{
    const qcj_geometry *g = &w->p->geo;
    const int top_free = g->h - __builtin_popcount(w->q);   /* top columns outside M */
    const uint64_t keys = key_count(g->n - qcj_block_cols(g), top_free);
    const uint64_t lo = keys * slice / slices, hi = keys * (slice + 1) / slices;
    uint32_t tk = lo < hi ? key_at(lo, top_free) : 0;
    for (uint64_t at = lo; at < hi; at++) {
        if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
            return QC_ESTOP;                /* [stop check] once per set */
        int rc = count_set(w, w->q | qcj_colkey_expand(g, tk));
        if (rc != QC_OK)
            return rc;
        if (tk) {                           /* the next key of as many columns */
            uint32_t low = tk & -tk, up = tk + low;
            tk = up | (((tk ^ up) >> 2) / low);
        }
    }
    return QC_OK;
}

int QC_LEVEL(qcj_count_unit)(const qcj_plan *p, size_t unit, qcj_scratch *sc, qc_tally *out)
{
    const qcj_geometry *g = &p->geo;
    const int *stop = qck_stop_flag;
    const qcj_unit_ref ref = p->unit[unit];
    const uint32_t slices = p->slices[ref.pattern];
    unit_walk w = {.p = p, .sc = sc, .sides = sc->side, .q = p->pattern[ref.pattern]};
#if NIBBLES
    w.kind = qcj_nib_kind_now();
    w.table_slices = byte_table_slices(g, w.kind);
#endif
    w.rest = p->block & ~w.q;
    uint64_t placed = 0;
    const qcj_shared_sides *shared = NULL;
    int rc;
    if (ref.slice >= slices)                /* [split build] a part of its band lists */
        return qcj_shared_build_part(p->shared, g, &p->rank, ref.pattern, (int)(ref.slice - slices),
                                     w.q, w.rest, sc->band_tmp, stop, out);
    if (slices == 1) {                      /* the unit lists its own bands */
        rc = qcj_side_build(g, &p->rank, 0, w.q, &sc->side[0], sc->band_tmp, stop, &placed);
        if (rc == QC_OK)
            rc = qcj_side_build(g, &p->rank, 1, w.rest, &sc->side[1], sc->band_tmp, stop, &placed);
    } else {                                /* [even slices] a share of the sets */
        rc = qcj_shared_acquire(p->shared, g, &p->rank, ref.pattern, w.q, w.rest, sc->band_tmp,
                                stop, &shared);
        if (rc != QC_OK)
            return rc;
        w.sides = shared->side;             /* their work: the parts' units */
    }
    if (rc == QC_OK)
        rc = count_keys(&w, ref.slice, slices, stop);
    if (shared)
        qcj_shared_release(p->shared, ref.pattern, rc == QC_OK);
    if (rc != QC_OK)
        return rc;
    out->solutions = w.total;
    out->placements = placed + w.tested;
    return QC_OK;
}
