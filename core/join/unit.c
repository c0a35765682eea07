/* SPDX-License-Identifier: MIT */
/*
 * unit.c — counts one unit of the join engine (unit.h): the pairs (top
 * half, bottom half) of every column set the unit holds.
 *
 * Counting unit q (its pattern: the columns the top half uses inside M):
 *   1. list the placements of the bands the halves are made of: top bands
 *      on the columns outside M and q's, bottom bands outside M and M\q
 *      (bands.c), or take them from the pattern's shared lists (shared.c);
 *      [own lists] in the profiles with `own` (config.h), list them for
 *      each set S in step 2 instead, the top's on S's columns alone and
 *      the bottom's on the rest;
 *   2. for each top column set S whose orbit this unit counts (weight > 0,
 *      orbits.c), in colex order of its column key (colex.h): build the
 *      tops on S and the bottoms on ~S from the bands (halves.c) and sort
 *      each into groups by its k key diagonals (a counting sort);
 *   3. join the tops and bottoms of each group pair the sieve keeps: the
 *      plan's joiner (joiner.h), the level's byte tables unless told
 *      otherwise.
 * Only one column set's halves are in memory at a time, and of them at
 * most two chunks ([halves capped]), so a unit's memory is its band lists
 * and those chunks whatever N.
 * Odd N: both halves have h rows and the middle row h is left over; the
 * joiner says how the bottoms treat the middle queen ([middle carried],
 * [middle spared], joiner.h).  Even N takes the same path with no middle
 * queen.
 * Steps reported (qc_tally.steps): queens placed in the bands, pairs of
 * band placements tested, and pairs of halves tested by the joiner.
 */
#include <string.h>

#include "colex.h"
#include "config.h"
#include "joiner.h"
#include "kernel/kernel.h"
#include "orbits.h"
#include "unit.h"

#include "groups.h"


/* One unit while it walks its column sets. */
typedef struct unit_walk {
    const qcj_plan *p;
    qcj_scratch *sc;
    const qcj_side *sides; /* band lists: [0] the top's, [1] the bottom's */
    uint32_t q, rest;     /* the top's and the bottom's columns inside M */
    qcj_splits tops_to;   /* [set shares] the top splits up to the unit's last */
    size_t tops_from;     /*   ... from its first                         */
    const qcj_joiner *joiner;
    qcj_join_shape shape;
    size_t cap[2];        /* [halves capped] tops a chunk holds, bottoms a join holds
                           * (0: no cap); [long tops] under a memory budget */
    size_t lists[2][2];   /* ... each band list's largest so far, bytes */
    size_t bottoms_least; /* ... bottoms a join holds at least ([bottoms take the rest]) */
    uint64_t steps;       /* queens placed, pairs of band placements and of halves tested */
    qc_u128 total;
    uint32_t set;         /* the top column set being counted ...                  */
    uint32_t mid_cols;    /* ... and, odd N, the middle columns of its passes (0: even N) */
    int spread_taken;     /* [spread key sample] taken for this set: ...             */
    size_t spread_count;  /* ... the bottoms in the scratch's key_bottoms, and ...   */
    double spread_total;  /* ... the estimate of the set's bottoms                   */
} unit_walk;

/* A chunk of the tops of one column set: built (in the scratch's raw[0]),
 * then grouped at its first join, once its set's key is chosen on them and
 * on the first bottoms ([set key]). */
typedef struct top_chunk {
    size_t count;         /* tops */
    int grouped;
    const qcj_set_key *key;   /* the set's, or NULL: the geometry's */
    qcj_groups groups;
} top_chunk;

/* [tops held grouped] Under a memory budget, with the middle queen
 * carried (no spared copy of the tops), a chunk of tops is grouped in
 * place ([grouped in place]) and held so while it is joined, and the
 * last chunk's bottoms are freed before the next chunk is built: a unit
 * holds 8 bytes a top, which leaves room for longer chunks of tops, and
 * so fewer builds of the bottoms (budget_cap). */
static int held_tops(const unit_walk *w)
{
    return w->p->geo.memory_budget && w->joiner->middle == QCJ_MIDDLE_CARRIED;
}

/* Frees the n buffers at v (their pages go back to the system). */
static void free_vecs(qcj_vec *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        qcj_vec_free(v[i]);
}

/* [top lists freed] With [tops held grouped] and [own lists] (the unit's
 * own scratch holds its sides), the top's band lists are freed once a
 * chunk of tops is built, and listed again before the next chunk: the
 * bottoms are built and joined beside the bottom's lists alone, so a chunk
 * of tops takes the room of the top's lists or of a chunk of bottoms,
 * whichever is larger, not of both (budget_cap).  Fewer, longer chunks of
 * tops build the bottoms fewer times, and their joins cost less a pair
 * (measured: config.h, QCJ_UNIT_MEMORY_BUDGET). */
static int frees_top_lists(const unit_walk *w)
{
    return held_tops(w) && w->p->geo.own_lists && w->sides == w->sc->side;
}

/* [halves capped] The next chunk of the tops on top column set s, from
 * split *at on (halves.h), into *tops, ungrouped; none (count 0) when
 * every split is taken or none has a top. */
static int make_tops(unit_walk *w, uint32_t s, size_t *at, top_chunk *tops)
{
    const qcj_geometry *g = &w->p->geo;
    *tops = (top_chunk){0};
    const qcj_halves_request rq = {.side = &w->sides[0], .splits = &w->tops_to,
                                   .set = qcj_squeeze(g, w->q, s), .cap = w->cap[0]};
    return qcj_halves_of(&w->p->rank, &rq, at, &w->sc->raw[0], &tops->count, &w->steps);
}

/* [spread key sample] The bottoms a chunk of tops chooses its set's key
 * on ([set key]) where more of the set's bottoms follow its first join.
 * The bottoms of one set are built split after split (halves.h), and
 * their diagonals drift from the first splits to the last: a key fitted
 * to the first join's bottoms alone kept, on one N=28 set, 185 pairs
 * tested a solution in that join and up to 755 in the set's last
 * (performance-log.md, "2026-11-28 (night) — a set's key chosen on bottoms
 * spread over the set; where N=28's joins go; the record plan again").  So the
 * sample is the bottoms of g->key_splits
 * splits spread evenly over every middle column of the set's passes
 * (mid_cols; none on even N) and over the splits, up to
 * QCJ_SET_KEY_SAMPLE / key_splits taken evenly from each, into the
 * scratch's key_bottoms; each split's bottoms are built in the scratch's
 * low[1], which the join's grouping fills only after.  Their band pairs
 * count as work.  *count is the bottoms sampled, *total an estimate of
 * the set's bottoms (for the sample's size, set_key.h).  Taken once a
 * set: every chunk of its tops chooses on the same sample. */
static int spread_bottoms(unit_walk *w, size_t *count, double *total)
{
    const qcj_plan *p = w->p;
    const qcj_geometry *g = &p->geo;
    qcj_scratch *sc = w->sc;
    const int carried = w->joiner->middle == QCJ_MIDDLE_CARRIED;
    const uint32_t free_cols = qck_full_mask(g->n) & ~w->set;
    const size_t splits = p->splits[1].count, points = (size_t)g->key_splits;
    const size_t cols = w->mid_cols ? (size_t)__builtin_popcount(w->mid_cols) : 1;
    const size_t each = QCJ_SET_KEY_SAMPLE / points;
    size_t have = 0;
    double built = 0;
    for (size_t i = 0; i < points; i++) {
        const size_t u = i * cols, col = u / points;   /* point i: column col, */
        size_t at = (u % points) * splits / points;     /* ... split at         */
        uint32_t mids = w->mid_cols;
        for (size_t c = 0; c < col; c++)
            mids &= mids - 1;
        const int c = mids ? __builtin_ctz(mids) : -1;
        const uint32_t bset = c >= 0 ? free_cols & ~(1u << c) : free_cols;
        const uint64_t mid = c >= 0 ? g->cell_sig[g->h][c] : 0;
        size_t len = 0;
        const qcj_halves_request rq = {.side = &w->sides[1], .splits = &p->splits[1],
                                       .set = qcj_squeeze(g, w->rest, bset), .avoid = mid,
                                       .mark = carried ? mid : 0, .cap = 1};
        if (qcj_halves_of(&p->rank, &rq, &at, &sc->low[1], &len, &w->steps) != QC_OK)
            return QC_ENOMEM;
        const uint64_t *split = sc->low[1].p;
        const size_t take = len < each ? len : each;
        for (size_t j = 0; j < take; j++)
            sc->key_bottoms[have++] = split[j * len / take];
        built += (double)len;
    }
    *count = have;
    *total = built * (double)splits * (double)cols / (double)points;
    return QC_OK;
}

/* Adds to *pairs the pairs of the tops and the nb bottoms in the
 * scratch's raw[1], by the joiner; with the middle queen spared, those of
 * middle queen mid (0: none) with the tops that spare it. */
static int join_bottoms(unit_walk *w, top_chunk *chunk, size_t nb, int more, uint64_t mid,
                        uint64_t *pairs)
{
    const qcj_geometry *g = &w->p->geo;
    qcj_scratch *sc = w->sc;
    qcj_groups bottoms, spared;
    uint32_t extra = 0;
    if (!chunk->grouped) {                  /* [set key] chosen, the tops grouped */
        chunk->key = NULL;                  /* small: the geometry's key */
        if ((double)chunk->count * (double)nb >= g->set_key_from) {
            sc->paths.set_keys++;           /* [path counters] */
            const uint64_t *bottoms = sc->raw[1].p;
            size_t sampled = nb;
            double total = (double)nb;
            if (more && g->key_splits) {    /* [spread key sample] */
                if (!w->spread_taken
                    && spread_bottoms(w, &w->spread_count, &w->spread_total) != QC_OK)
                    return QC_ENOMEM;
                w->spread_taken = 1;
                if (w->spread_count) {          /* else no bottom in the splits met */
                    sc->paths.spread_keys++;
                    bottoms = sc->key_bottoms;
                    sampled = w->spread_count;
                    total = w->spread_total;
                }
            }
            qcj_set_key_choose(g, sc->raw[0].p, chunk->count, bottoms, sampled,
                               (double)chunk->count * total, &sc->key_sample, &sc->set_key);
            chunk->key = &sc->set_key;
        }
        if (group_halves(g, chunk->key, sc->raw[0].p, chunk->count, held_tops(w), &sc->off[0],
                         &sc->low[0], &chunk->groups) != QC_OK)   /* [tops held grouped] */
            return QC_ENOMEM;
        chunk->grouped = 1;
        sc->paths.in_place += (uint64_t)held_tops(w);
        sc->paths.coarse += (uint64_t)(g->key_bits >= g->sort_coarse_from);
    }
    const qcj_groups *tops = &chunk->groups;
    if (group_halves(g, chunk->key, sc->raw[1].p, nb, 0, &sc->off[1], &sc->low[1], &bottoms)
        != QC_OK)
        return QC_ENOMEM;
    if (chunk->key)
        mid = qcj_set_key_apply(chunk->key, mid);
    if (w->joiner->middle == QCJ_MIDDLE_SPARED && mid) {
        if (spare_middle(g, tops, mid, sc, &spared) != QC_OK)
            return QC_ENOMEM;
        tops = &spared;
        extra = (uint32_t)(mid >> g->key_shift) & ((1u << g->key_bits) - 1u);
    }
    uint64_t found = 0;
    const int rc = w->joiner->count(&w->shape, tops, &bottoms, extra, &sc->joiner_scratch, &found,
                                    &w->steps);
    w->shape.join++;                                    /* [sampled tiles] */
    *pairs += found;
    return rc;
}

/* The passes of one top column set: the middle columns joined at once
 * (a mask) and their weight.  On odd N one pass per free column c of the
 * middle queen with a weight, or, where the joiner merges passes, one per
 * weight with all its columns ([middle carried], joiner.h).  On even N:
 * one pass, no middle queen (cols 0).  Returns the number of passes. */
static int set_passes(const unit_walk *w, uint32_t s, uint32_t cols[32], int weight[32])
{
    const qcj_plan *p = w->p;
    const int merge = w->joiner->merges_passes && w->joiner->middle == QCJ_MIDDLE_CARRIED;
    return qcj_set_passes(s, w->q, p->centre, p->geo.n, p->flip, merge, cols, weight);
}

/* The pairs of one pass (set_passes: middle columns cols, or none) with
 * the tops in *tops, added to *pairs.  [halves capped] The bottoms are
 * built in the order of their splits and joined whenever they reach the
 * geometry's halves_cap, between one middle column's bottoms and the
 * next's or within one column's: the pairs add up, and so does the work
 * reported where the tops keep the geometry's key ([set key]: a chunk's
 * own key is chosen on the first bottoms it meets).  With the middle queen spared, each column's bottoms are
 * joined apart (the tops that spare it differ). */
static int count_pass(unit_walk *w, uint32_t s, uint32_t cols, int last_pass, top_chunk *tops,
                      uint64_t *pairs)
{
    const qcj_plan *p = w->p;
    const qcj_geometry *g = &p->geo;
    qcj_scratch *sc = w->sc;
    const uint32_t free_cols = qck_full_mask(g->n) & ~s;
    const int carried = w->joiner->middle == QCJ_MIDDLE_CARRIED;
    size_t nb = 0;
    uint64_t mid = 0;
    int rc = QC_OK;
    do {                                    /* each middle column, or none */
        const int c = cols ? __builtin_ctz(cols) : -1;
        const uint32_t bset = c >= 0 ? free_cols & ~(1u << c) : free_cols;
        if (c >= 0 && mid && !carried && nb) {
            rc = join_bottoms(w, tops, nb, 1, mid, pairs);   /* [middle spared]: one column's */
            nb = 0;
        }
        mid = c >= 0 ? g->cell_sig[g->h][c] : 0;
        const qcj_halves_request rq = {.side = &w->sides[1], .splits = &p->splits[1],
                                       .set = qcj_squeeze(g, w->rest, bset), .avoid = mid,
                                       .mark = carried ? mid : 0, .cap = w->cap[1]};
        size_t at = 0;
        while (rc == QC_OK && at < p->splits[1].count) {
            rc = qcj_halves_of(&p->rank, &rq, &at, &sc->raw[1], &nb, &w->steps);
            if (rc == QC_OK && w->cap[1] && nb >= w->cap[1]) {
                sc->paths.bottom_chunks++;  /* [path counters] */
                const int more = at < p->splits[1].count || (cols & (cols - 1)) || !last_pass;
                rc = join_bottoms(w, tops, nb, more, mid, pairs);   /* [halves capped] */
                nb = 0;
            }
        }
        cols &= cols - 1;
    } while (rc == QC_OK && cols);
    if (rc == QC_OK && nb)
        rc = join_bottoms(w, tops, nb, !last_pass, mid, pairs);
    return rc;
}

/* [bottoms take the rest] Where the top's lists are freed while a chunk of
 * tops is joined ([top lists freed]), the bottoms a join holds beside the
 * chunk's `tops`: what the budget leaves past the bottom's lists and the
 * tops, at QCJ_BOTTOM_BYTES a bottom, at least budget_cap's and at most
 * QCJ_BOTTOMS_GROWTH times the geometry's halves_cap.  A join of more
 * bottoms costs less a pair (measured: config.h, QCJ_BOTTOMS_GROWTH). */
static size_t bottoms_beside(const unit_walk *w, size_t tops)
{
    const qcj_geometry *g = &w->p->geo;
    const size_t held = w->lists[1][0] + w->lists[1][1] + tops * QCJ_TOP_HELD_BYTES;
    size_t bottoms = g->memory_budget > held ? (g->memory_budget - held) / QCJ_BOTTOM_BYTES : 0;
    if (g->halves_cap && bottoms > g->halves_cap * QCJ_BOTTOMS_GROWTH)
        bottoms = g->halves_cap * QCJ_BOTTOMS_GROWTH;
    return bottoms > w->bottoms_least ? bottoms : w->bottoms_least;
}

/* [top lists freed] At a set's end, its halves' buffers freed: the next
 * set's lists are made beside none of them. */
static void halves_done(unit_walk *w)
{
    qcj_scratch *sc = w->sc;
    qcj_vec *const halves[] = {&sc->raw[0], &sc->raw[1], &sc->low[1], &sc->joiner_scratch};
    free_vecs(halves, sizeof halves / sizeof *halves);
}

/* [own lists] Lists one side's bands of column set s (side 0: the top's,
 * on s; 1: the bottom's, on the rest) into the scratch's side, ranked as
 * over the side's columns; the queens placed go to the work reported. */
static int list_side(unit_walk *w, int side, uint32_t s, const int *stop)
{
    const qcj_plan *p = w->p;
    const uint32_t cols = side ? qck_full_mask(p->geo.n) & ~s : s;
    uint64_t placed = 0;
    const qcj_listing l = {.geo = &p->geo, .rank = &p->rank, .tmp = w->sc->band_tmp, .stop = stop,
                           .placed = &placed};
    const int rc = qcj_side_build(&l, side, side ? w->rest : w->q, cols, &w->sc->side[side]);
    w->steps += placed;
    return rc;
}

/* Adds the solutions whose top half uses column set s and one of the
 * unit's top splits ([set shares]), times their weights, to w->total
 * (set_passes).  [halves capped] Tops past the
 * geometry's halves_cap are taken in chunks, each joined with every pass's
 * bottoms, which are built again for each chunk: memory stays near two
 * chunks of halves whatever N, for the bottoms' building once more per
 * chunk (reported as work).  [top lists freed] Where the top's lists are
 * freed once a chunk is built, they are listed again for the next chunk,
 * after the last chunk's tops are freed (also reported as work). */
static int count_set(unit_walk *w, uint32_t s)
{
    uint32_t cols[32];
    int weight[32];
    const int passes = set_passes(w, s, cols, weight);
    if (passes == 0)
        return QC_OK;
    w->set = s;                             /* [spread key sample] */
    w->spread_taken = 0;
    w->mid_cols = 0;
    for (int pass = 0; pass < passes; pass++)
        w->mid_cols |= cols[pass];
    size_t at = w->tops_from;
    for (int chunk = 0; at < w->tops_to.count; chunk++) {
        top_chunk tops;
        if (held_tops(w)) {                 /* [tops held grouped] the last chunk's bottoms */
            qcj_scratch *sc = w->sc;
            qcj_vec *const last[] = {&sc->raw[1], &sc->low[1], &sc->joiner_scratch};
            free_vecs(last, sizeof last / sizeof *last);
        }
        if (chunk > 0 && frees_top_lists(w)) {   /* [top lists freed]: listed again, */
            qcj_vec_free(&w->sc->raw[0]);         /* the last chunk's tops freed first */
            w->sc->paths.top_relists++;             /* [path counters] */
            const int rc = list_side(w, 0, s, qci_stop_flag);
            if (rc != QC_OK)
                return rc;
        }
        int rc = make_tops(w, s, &at, &tops);
        if (rc != QC_OK)
            return rc;
        if (tops.count == 0)
            break;
        if (frees_top_lists(w)) {
            qcj_side_free(&w->sc->side[0]);     /* [top lists freed] */
            w->cap[1] = bottoms_beside(w, tops.count);   /* [bottoms take the rest] */
            w->sc->paths.grown_bottoms += w->cap[1] > w->bottoms_least;   /* [path counters] */
        }
        w->sc->paths.top_chunks += chunk > 0;   /* [path counters] */
        for (int pass = 0; pass < passes; pass++) {
            uint64_t pairs = 0;
            rc = count_pass(w, s, cols[pass], pass == passes - 1, &tops, &pairs);
            if (rc != QC_OK)
                return rc;
            w->total += (qc_u128)pairs * (unsigned)weight[pass];
        }
    }
    if (frees_top_lists(w))
        halves_done(w);                     /* [top lists freed] */
    return QC_OK;
}

/* [memory budget] Sets w->cap for the column set whose bands w->sides
 * hold.  With no budget, both sides' caps are the geometry's halves_cap.
 * With one, the band lists, each at its largest so far in the unit (the
 * pages a list touched stay with it), leave a room of the budget to the
 * halves.  [long tops] A chunk of bottoms holds at most halves_cap (and
 * half the room) at QCJ_BOTTOM_BYTES a bottom, and a chunk of tops what
 * the room has left at QCJ_TOP_BYTES a top (config.h), or with [tops held
 * grouped] at QCJ_TOP_HELD_BYTES: a column set's
 * bottoms are built again for each chunk of its tops, so the fewer chunks
 * of tops the fewer builds, while a join of fewer bottoms meets each top
 * block in more tiles ([bottom tiles]).  [top lists freed] Where the
 * top's lists are freed while its tops are joined, a chunk of tops takes
 * the budget less the bottom's lists and the larger of the top's lists
 * (held while the chunk is built) and a chunk of bottoms (held while it
 * is joined).  Neither cap falls below a
 * sixteenth of the halves the budget holds, so that a unit whose lists
 * fill it still goes on.  Where a cap falls, the halves' buffers, which
 * hold the pages of larger chunks, are freed first.  With a budget the
 * scratch is fresh for each unit ([fresh scratch]), so the unit's peak is
 * its own. */
static void budget_cap(unit_walk *w)
{
    const qcj_geometry *g = &w->p->geo;
    if (!g->memory_budget) {
        w->cap[0] = w->cap[1] = g->halves_cap;
        return;
    }
    size_t lists = 0;
    for (int side = 0; side < 2; side++)
        for (int b = 0; b < 2; b++) {
            const qcj_band *bd = &w->sides[side].band[b];
            const size_t ranks = w->p->rank.binom[w->sides[side].t][bd->rows];
            const size_t len = bd->offsets[ranks];
            size_t bytes = len * (sizeof *bd->inner + sizeof *bd->border)
                         + (ranks + 1) * sizeof *bd->offsets;
            if (bd->transposed)
                bytes += (len + 63) / 64 * (size_t)bd->transposed_words * sizeof *bd->transposed;
            if (bd->bit_at)
                bytes += len * 2 * (size_t)bd->rows;
            if (bytes > w->lists[side][b])
                w->lists[side][b] = bytes;
            lists += w->lists[side][b];
        }
    const size_t room = g->memory_budget > lists ? g->memory_budget - lists : 0;
    const size_t least = g->memory_budget / (QCJ_TOP_BYTES + QCJ_BOTTOM_BYTES) / 16 + 1;
    size_t bottoms = room / 2 / QCJ_BOTTOM_BYTES;
    if (bottoms < least)
        bottoms = least;
    if (g->halves_cap && bottoms > g->halves_cap)
        bottoms = g->halves_cap;
    const size_t top_bytes = held_tops(w) ? QCJ_TOP_HELD_BYTES : QCJ_TOP_BYTES;
    size_t tops_room = room > bottoms * QCJ_BOTTOM_BYTES ? room - bottoms * QCJ_BOTTOM_BYTES : 0;
    if (frees_top_lists(w)) {               /* [top lists freed] */
        const size_t top_lists = w->lists[0][0] + w->lists[0][1];
        const size_t beside = top_lists > bottoms * QCJ_BOTTOM_BYTES ? top_lists
                                                                     : bottoms * QCJ_BOTTOM_BYTES;
        const size_t held = lists - top_lists + beside;   /* the bottom's lists and that */
        tops_room = g->memory_budget > held ? g->memory_budget - held : 0;
    }
    size_t tops = tops_room / top_bytes;
    if (tops < least)
        tops = least;
    if (tops > QCJ_TOPS_CAP_MOST)
        tops = QCJ_TOPS_CAP_MOST;
    if ((w->cap[0] && tops < w->cap[0]) || (w->cap[1] && bottoms < w->cap[1])) {
        qcj_scratch *sc = w->sc;
        qcj_vec *const halves[] = {&sc->raw[0], &sc->raw[1], &sc->low[0], &sc->low[1],
                                   &sc->spared, &sc->joiner_scratch};
        free_vecs(halves, sizeof halves / sizeof *halves);
    }
    w->cap[0] = tops;
    w->cap[1] = w->bottoms_least = bottoms;
}

/* [own lists] Lists the bands of column set s alone into the scratch's
 * sides: the top's on s, the bottom's on the rest (odd N's middle queen's
 * column among them), ranked as over the sides' columns; the queens
 * placed go to the work reported. */
static int list_set(unit_walk *w, uint32_t s, const int *stop)
{
    w->sc->paths.own_lists++;               /* [path counters] */
    int rc = list_side(w, 0, s, stop);
    if (rc == QC_OK)
        rc = list_side(w, 1, s, stop);
    return rc;
}

/* Counts w's pattern's column keys [lo, hi) (colex order of the keys with
 * the top's number of columns outside M) into w. */
static int count_keys(unit_walk *w, uint64_t lo, uint64_t hi, const int *stop)
{
    const qcj_geometry *g = &w->p->geo;
    const int top_free = g->h - __builtin_popcount(w->q);   /* top columns outside M */
    uint32_t key = lo < hi ? qcj_colex_at(lo, top_free) : 0;
    for (uint64_t at = lo; at < hi; at++) {
        if (qci_stop_raised(stop))
            return QC_ESTOP;                /* [stop check] once per set */
        const uint32_t s = w->q | qcj_colkey_expand(g, key);
        int rc = g->own_lists ? list_set(w, s, stop) : QC_OK;
        if (rc == QC_OK && (g->own_lists || at == lo))
            budget_cap(w);                  /* [memory budget] for these lists */
        if (rc == QC_OK)
            rc = count_set(w, s);
        if (rc != QC_OK)
            return rc;
        if (key)
            key = qcj_colex_next(key);
    }
    return QC_OK;
}

/* [listing freed] Under a memory budget, the placements a listing held
 * before sorting (the scratch's band_tmp, 20 bytes a placement) are freed
 * as soon as a unit's band lists are made, so that they are not held
 * beside the halves, which the budget does not count them against: the
 * last units of N=24's plan, whose two top bands list 125 MiB each,
 * peaked at 516 MiB with them, past a thread's 512, and at 421 MiB
 * without (performance-log.md, "2026-12-06 — the Zen 5 again: …").
 * With [fresh scratch] they would be freed at the unit's end anyway, and
 * such a unit lists once; [own lists], listed set by set, keep theirs. */
static void listing_done(const qcj_geometry *g, qcj_scratch *sc)
{
    if (!g->memory_budget)
        return;
    for (int i = 0; i < 3; i++)
        qcj_vec_free(&sc->band_tmp[i]);
}

int QC_LEVEL(qcj_unit_lists)(const qcj_plan *p, size_t unit, qcj_scratch *sc,
                             const qcj_side **sides, qc_tally *out)
{
    const qcj_geometry *g = &p->geo;
    const int *stop = qci_stop_flag;
    const qcj_unit_ref ref = qcj_unit_at(p, unit);
    const uint32_t slices = p->slices[ref.pattern];
    const uint32_t q = p->pattern[ref.pattern], rest = p->centre & ~q;
    out->solutions = 0;
    out->steps = 0;
    *sides = NULL;
    if (qci_stop_raised(stop))
        return QC_ESTOP;                    /* [stop check] even with nothing to list */
    if (!p->counts[ref.pattern])            /* [no empty units]: no set to count */
        return QC_OK;
    uint64_t placed = 0;
    const qcj_listing l = {.geo = g, .rank = &p->rank, .tmp = sc->band_tmp, .stop = stop,
                           .placed = &placed};
    if (ref.slice >= slices)                /* [split build] a piece of its band lists */
        return g->own_lists ? QC_OK         /* [own lists]: nobody reads them */
                            : qcj_shared_build_piece(p->shared, &l, ref.pattern,
                                                     (int)(ref.slice - slices), q, rest, out);
    if (qcj_unit_shares_lists(p, unit)) {   /* [even slices] the pattern's shared lists */
        const qcj_shared_sides *shared;
        int rc = qcj_shared_acquire(p->shared, &l, ref.pattern, q, rest, &shared);
        if (rc == QC_OK)
            *sides = shared->side;          /* their work: the pieces' units */
        listing_done(g, sc);
        return rc;
    }
    if (g->own_lists) {                     /* [own lists] listed set by set */
        *sides = sc->side;
        return QC_OK;
    }
    /* the unit lists its own bands */
    int rc = qcj_side_build(&l, 0, q, UINT32_MAX, &sc->side[0]);
    if (rc == QC_OK)
        rc = qcj_side_build(&l, 1, rest, UINT32_MAX, &sc->side[1]);
    if (rc == QC_OK) {
        *sides = sc->side;
        out->steps = placed;
    }
    listing_done(g, sc);
    return rc;
}

int QC_LEVEL(qcj_unit_sets)(const qcj_plan *p, size_t unit, qcj_scratch *sc,
                            const qcj_unit_job *job, qc_tally *out)
{
    const qcj_geometry *g = &p->geo;
    const qcj_unit_ref ref = qcj_unit_at(p, unit);
    unit_walk w = {.p = p, .sc = sc, .sides = job->sides, .q = p->pattern[ref.pattern],
                   .joiner = job->joiner,
                   .shape = {.key_bits = g->key_bits, .bits = g->and_bits, .samples = job->samples,
                             .sample = job->sample, .tile_bytes = g->tile_bytes,
                             .paths = &sc->paths}};
    w.rest = p->centre & ~w.q;
    size_t to;
    qcj_unit_splits(p, unit, &w.tops_from, &to);
    w.tops_to = (qcj_splits){.subset = p->splits[0].subset, .count = to};
    sc->paths.share_units += w.tops_from > 0 || to < p->splits[0].count;   /* [path counters] */
    const int rc = count_keys(&w, job->lo, job->hi, qci_stop_flag);
    if (rc != QC_OK)
        return rc;
    out->solutions = w.total;
    out->steps = w.steps;
    return QC_OK;
}

int QC_LEVEL(qcj_count_unit)(const qcj_plan *p, size_t unit, qcj_scratch *sc,
                             qcj_joiner_kind joiner, qc_tally *out)
{
    const qcj_side *sides;
    qc_tally listed, counted = {.solutions = 0, .steps = 0};
    int rc = QC_LEVEL(qcj_unit_lists)(p, unit, sc, &sides, &listed);
    if (rc != QC_OK || !sides) {            /* a piece's unit: its listing */
        if (rc == QC_OK)
            *out = listed;
        return rc;
    }
    qcj_unit_job job = {.sides = sides, .joiner = qcj_joiner_of(joiner)};
    qcj_unit_keys(p, unit, &job.lo, &job.hi);
    rc = QC_LEVEL(qcj_unit_sets)(p, unit, sc, &job, &counted);
    if (qcj_unit_shares_lists(p, unit))
        qcj_shared_release(p->shared, qcj_unit_at(p, unit).pattern, rc == QC_OK);
    if (rc != QC_OK)
        return rc;
    out->solutions = counted.solutions;
    out->steps = listed.steps + counted.steps;
    return QC_OK;
}
