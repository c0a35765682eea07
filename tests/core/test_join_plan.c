/* SPDX-License-Identifier: MIT */
/*
 * test_join_plan.c — the join engine as a whole: the symmetry weights
 * against orbits computed by brute force, the engine unit by unit against
 * the halving engine, every split it may choose (centre widths, key
 * bits, 64-bit lanes) and its patterns cut into slices that share band
 * lists ([even slices]), against the published totals.
 * Usage: test_join_plan KNOWN_TSV [quick|large]
 * quick: the sweeps over sizes end a board or two lower, where the code
 * is instrumented or emulated (the Release build runs them whole).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "join/join_plan.h"
#include "join/settings.h"
#include "join/orbits.h"
#include "join/probe.h"
#include "join/scratch.h"
#include "join/unit.h"
#include "kernel/kernel.h"
#include "plan.h"
#include "check.h"
#include "random.h"
#include "known.h"

/* 1 under "quick": the sweeps over sizes stop a size lower (the coarse
 * sort's two), where each size costs four or five times the one below */
static int quick;

/* [mirror by reversal] qcj_mirror against a loop over the columns: every
 * board width, the empty and full sets, single columns, sets with bits
 * past the board (which fall off), and random words. */
static void test_mirror(void)
{
    for (int n = 1; n <= 32; n++) {
        const uint32_t full = n == 32 ? UINT32_MAX : (1u << n) - 1u;
        for (int k = 0; k < 2000; k++) {
            const uint32_t s = k == 0 ? 0 : k == 1 ? full : k == 2 ? UINT32_MAX
                             : k < 3 + 32 ? 1u << (k - 3) : (uint32_t)(next_random() >> 16);
            uint32_t want = 0;
            for (int c = 0; c < n; c++)
                if (s >> c & 1u)
                    want |= 1u << (n - 1 - c);
            CHECK(qcj_mirror(s, n) == want, "n=%d s=%08x: %08x, want %08x", n, s, qcj_mirror(s, n), want);
        }
    }
}

/* Weights against brute-force orbits: over the canonical units, the
 * weights of the counted sets add up to the number of all top sets (each
 * orbit once, with its size), and each weight is its orbit's size. */
static int orbit_size(uint32_t s, int n, int flip)
{
    uint32_t full = (1u << n) - 1u, img[4] = {s, qcj_mirror(s, n), full & ~s, full & ~qcj_mirror(s, n)};
    int size = 0;
    for (int i = 0; i < (flip ? 4 : 2); i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= img[j] == img[i];
        size += !seen;
    }
    return size;
}

static void test_weights(void)
{
    for (int n = 2; n <= 14; n += 2)
        for (int m = 0; m <= n; m += 2) {
            int lo = (n - m) / 2, h = n / 2;
            uint32_t centre = (uint32_t)(((1u << m) - 1) << lo);
            uint64_t sum = 0, all = 0;
            for (uint32_t s = 0; s < 1u << n; s++) {
                if (__builtin_popcount(s) != h)
                    continue;
                all++;
                uint32_t q = s & centre;
                if (!qcj_pattern_canonical(q, centre, n, 1))
                    continue;
                int w = qcj_set_weight(s, q, centre, n, 1);
                if (w) {
                    sum += (uint64_t)w;
                    CHECK(w == orbit_size(s, n, 1), "n=%d s=%x weight %d", n, s, w);
                }
            }
            CHECK(sum == all, "n=%d m=%d: weights add to %llu, want %llu", n, m,
                  (unsigned long long)sum, (unsigned long long)all);
        }
    for (int n = 3; n <= 13; n += 2)
        for (int m = 1; m <= n; m += 2) {
            int lo = (n - m) / 2, h = n / 2;
            uint32_t centre = (uint32_t)(((1u << m) - 1) << lo), full = (1u << n) - 1u;
            uint64_t sum = 0, all = 0;
            for (uint32_t s = 0; s < 1u << n; s++) {
                if (__builtin_popcount(s) != h)
                    continue;
                for (int c = 0; c < n; c++) {
                    if (s >> c & 1u)
                        continue;
                    all++;
                    if (!qcj_pattern_canonical(s & centre, centre, n, 0))
                        continue;
                    int w = qcj_triple_weight(s, c, centre, n);
                    sum += (uint64_t)w;
                    if (w) {   /* brute-force orbit of (s, c) */
                        uint32_t b = full & ~s & ~(1u << c);
                        uint32_t ts[4] = {s, qcj_mirror(s, n), b, qcj_mirror(b, n)};
                        int cs[4] = {c, n - 1 - c, c, n - 1 - c}, size = 0;
                        for (int i = 0; i < 4; i++) {
                            int seen = 0;
                            for (int j = 0; j < i; j++)
                                seen |= ts[j] == ts[i] && cs[j] == cs[i];
                            size += !seen;
                        }
                        CHECK(w == size, "n=%d s=%x c=%d weight %d, orbit %d", n, s, c, w, size);
                    }
                }
            }
            CHECK(sum == all, "odd n=%d m=%d: weights add to %llu, want %llu", n, m,
                  (unsigned long long)sum, (unsigned long long)all);
        }
}

/* The engine unit by unit against the halving engine, and its plan's
 * units and fingerprint deterministic. */
static void test_engine(int n_plan_max)
{
    for (int n = 1; n <= 12; n++) {
        qc_plan *a, *b, *h;
        if (qc_plan_create(&a, n, QC_ENGINE_JOIN) != QC_OK || qc_plan_create(&b, n, QC_ENGINE_JOIN) != QC_OK ||
            qc_plan_create(&h, n, QC_ENGINE_HALVING) != QC_OK) {
            CHECK(0, "n=%d: plan not built", n);
            continue;
        }
        CHECK(qc_plan_fingerprint(a) == qc_plan_fingerprint(b), "n=%d fingerprint unstable", n);
        CHECK(qc_plan_unit_count(a) >= 1, "n=%d no units", n);
        qc_u128 join_total = 0, halving_total = 0;
        for (size_t u = 0; u < qc_plan_unit_count(a); u++) {
            qc_tally t1, t2;
            CHECK(qc_plan_count_unit(a, u, &t1) == QC_OK, "n=%d unit %zu failed", n, u);
            CHECK(qc_plan_count_unit(b, u, &t2) == QC_OK, "n=%d unit %zu failed", n, u);
            CHECK(t1.solutions == t2.solutions, "n=%d unit %zu not repeatable", n, u);
            join_total += t1.solutions;
        }
        for (size_t u = 0; u < qc_plan_unit_count(h); u++) {
            qc_tally t;
            CHECK(qc_plan_count_unit(h, u, &t) == QC_OK, "n=%d halving unit %zu failed", n, u);
            halving_total += t.solutions;
        }
        CHECK(join_total == halving_total, "n=%d: join %llu, halving %llu", n,
              (unsigned long long)join_total, (unsigned long long)halving_total);
        qc_plan_free(a);
        qc_plan_free(b);
        qc_plan_free(h);
    }
    /* large boards: the plan builds (units, fingerprint) without counting */
    for (int n = 18; n <= n_plan_max; n++) {
        qc_plan *p;
        int rc = qc_plan_create(&p, n, QC_ENGINE_JOIN);
        CHECK(rc == QC_OK, "n=%d: plan not built", n);
        if (rc == QC_OK) {
            CHECK(qc_plan_unit_count(p) > 50, "n=%d: only %zu units", n, qc_plan_unit_count(p));
            qc_plan_free(p);
        }
    }
    /* a unit cut short by the thread's stop flag: QC_ESTOP, nothing counted */
    qc_plan *p12;
    if (qc_plan_create(&p12, 12, QC_ENGINE_JOIN) == QC_OK) {
        static const int stop = 1;
        qc_tally t = {.solutions = 1, .steps = 1}, whole;
        CHECK(qc_plan_count_unit(p12, 0, &whole) == QC_OK && whole.steps > 0);
        qci_stop_flag = &stop;
        int rc = qc_plan_count_unit(p12, 0, &t);
        qci_stop_flag = NULL;
        CHECK(rc == QC_ESTOP && t.solutions == 0 && t.steps == 0,
              "stopped unit: rc %d, %llu solutions", rc, (unsigned long long)t.solutions);
        CHECK(qc_plan_count_unit(p12, 0, &t) == QC_OK && t.solutions == whole.solutions
              && t.steps == whole.steps, "unit after a stop");
        qc_plan_free(p12);
    }
    qc_plan *p16, *p17;
    if (qc_plan_create(&p16, 16, QC_ENGINE_JOIN) == QC_OK && qc_plan_create(&p17, 17, QC_ENGINE_JOIN) == QC_OK) {
        CHECK(qc_plan_fingerprint(p16) != qc_plan_fingerprint(p17), "fingerprints of 16 and 17 equal");
        qc_plan_free(p16);
        qc_plan_free(p17);
    }
}

/* Every split the engine may choose, on boards small enough to count
 * quickly: centre widths, key bits, the key in the high bits and the
 * large bands (both as from N=25), both joiners, and each chunk of tops
 * with its set's own key or the geometry's ([set key]), against the
 * published totals. */
static void test_parameters(const known_count *known)
{
    for (int n = 1; n <= 11 - quick; n++) {
        int slots = n % 2 ? 2 * n : 2 * (n - 1);
        for (int m = n % 2; m <= n; m += 2)
            for (int k = 0; k <= 8 && k <= slots; k += (n > 8 ? 3 : 1))
                for (int variant = 0; variant < 16; variant++) {
                    qcj_settings s = qcj_settings_of(n);
                    s.unit_cols = m;
                    s.key_bits = k;
                    s.force_wide = variant & 1;
                    s.joiner = variant & 2 ? QCJ_JOIN_AND : QCJ_JOIN_TABLES;
                    s.large_bands = (variant & 4) != 0;
                    s.set_key_from = variant & 8 ? 0 : s.set_key_from;   /* [set key] always */
                    /* [sort by halves of the key] at any key bits, or never */
                    s.sort_coarse_from = variant % 3 == 0 ? 1 : variant % 3 == 1 ? 64 : 2;
                    qc_u128 total = 0;
                    int rc = qcj_count_with(n, &s, &total, NULL);
                    CHECK(rc == QC_OK && total == known[n].total,
                          "n=%d m=%d k=%d wide=%d joiner %d set key %d: got %llu, want %llu", n,
                          m, k, s.force_wide, (int)s.joiner, variant >> 3, (unsigned long long)total,
                          (unsigned long long)known[n].total);
                }
    }
}

/* [sort by halves of the key] The halves grouped in two passes, at the
 * key bits of the record sizes (many groups, most empty) and at few, and
 * in one, against the published totals; and [grouped in place] (the
 * tops, under a memory budget: [tops held grouped]) at the same key
 * bits and at few (k 3: one pass of the cycles), n=12..14, its budget
 * small enough for chunks of a few tops.  Mutants that skip the second
 * pass of the cycles, or leave its groups' starts inside the coarse
 * group, fail it. */
static void test_coarse_sort(const known_count *known)
{
    for (int n = 12; n <= 15 - 2 * quick; n++)
        for (int k = 3; k <= 15; k += 3)
            for (int variant = 0; variant < 4; variant++) {
                qcj_settings s = qcj_settings_of(n);
                const int from = variant & 1 ? 64 : 1, budget = variant >= 2;
                if (budget ? n == 15 : k < 9)
                    continue;
                s.key_bits = k;
                s.sort_coarse_from = from;
                if (budget) {
                    s.fresh_scratch = 1;
                    s.memory_budget = (size_t)1 << 18;
                }
                qc_u128 total = 0;
                int rc = qcj_count_with(n, &s, &total, NULL);
                CHECK(rc == QC_OK && total == known[n].total,
                      "n=%d k=%d coarse from %d budget %d: got %llu, want %llu", n, k, from, budget,
                      (unsigned long long)total, (unsigned long long)known[n].total);
            }
}

/* [even slices] Patterns cut into slices of their column sets, sharing
 * the pattern's band lists (join/shared.c): whole (a target of 1 unit
 * cuts none), the plan's cut, and every pattern cut into single column
 * keys (a target beyond any board's work), against the published totals;
 * and the slices of each pattern of a plan, counted on this thread in
 * any order, add up to the whole pattern. */
static void test_slices(const known_count *known)
{
    const double targets[] = {1, qcj_profile_of(14)->target, 1e300};
    for (int n = 1; n <= 14; n++)
        for (int i = 0; i < 3; i++) {
            qcj_settings s = qcj_settings_of(n);
            s.unit_target = targets[i];
            qc_u128 total = 0;
            int rc = qcj_count_with(n, &s, &total, NULL);
            CHECK(rc == QC_OK && total == known[n].total, "n=%d target %g: got %llu, want %llu",
                  n, targets[i], (unsigned long long)total, (unsigned long long)known[n].total);
        }
    /* backwards through the plan: each pattern's last slice first, so the
     * lists are built by another slice than the first, and recycled */
    qc_plan *p;
    if (qc_plan_create(&p, 15, QC_ENGINE_JOIN) == QC_OK) {
        const qcj_plan *jp = p->engine_data;
        size_t cut = 0;
        for (size_t i = 0; i < jp->patterns; i++)
            cut += jp->slices[i] > 1;
        CHECK(cut > 0, "n=15: no pattern cut");
        qc_u128 total = 0;
        for (size_t u = qc_plan_unit_count(p); u-- > 0;) {
            qc_tally t;
            CHECK(qc_plan_count_unit(p, u, &t) == QC_OK);
            total += t.solutions;
        }
        CHECK(total == known[15].total);
        qc_plan_free(p);
    }
}

/* [set units] Every pattern cut into one unit per column key, as from
 * QCJ_SET_UNITS_FROM_N, with its own lists (as there) and with shared
 * ones: as many units as the patterns have keys, no list parts, each
 * unit a single key, and the published totals; the fingerprint differs
 * from the plan's own wherever that cuts fewer. */
static void test_set_units(const known_count *known)
{
    for (int n = 12; n <= 16 - quick; n++)
        for (int own = 0; own < 2; own++) {
            qcj_settings s = qcj_settings_of(n);
            s.set_units = 1;
            s.own_lists = own;
            qc_plan *p, *plain;
            if (qcj_plan_create_with(&p, n, &s) != QC_OK
                || qc_plan_create(&plain, n, QC_ENGINE_JOIN) != QC_OK) {
                CHECK(0, "n=%d: plans not built", n);
                continue;
            }
            const qcj_plan *jp = p->engine_data;
            const qcj_geometry *g = &jp->geo;
            uint64_t keys = 0;
            for (size_t i = 0; i < jp->patterns; i++)
                keys += qcj_binomial(n - qcj_centre_cols(g), g->h - __builtin_popcount(jp->pattern[i]));
            size_t several = 0;
            qc_u128 total = 0;
            for (size_t u = 0; u < qc_plan_unit_count(p); u++) {
                uint64_t lo, hi;
                qcj_unit_keys(jp, u, &lo, &hi);
                several += hi - lo != 1;
                qc_tally t;
                CHECK(qc_plan_count_unit(p, u, &t) == QC_OK);
                total += t.solutions;
            }
            CHECK(qc_plan_unit_count(p) == keys && jp->list_pieces == 0 && several == 0,
                  "n=%d own %d: %zu units for %llu keys, %zu of more or fewer keys", n, own,
                  qc_plan_unit_count(p), (unsigned long long)keys, several);
            CHECK(total == known[n].total, "n=%d own %d: got %llu, want %llu", n, own,
                  (unsigned long long)total, (unsigned long long)known[n].total);
            CHECK(qc_plan_unit_count(plain) == keys
                      || qc_plan_fingerprint(p) != qc_plan_fingerprint(plain),
                  "n=%d: the fingerprint misses the set units", n);
            qc_plan_free(p);
            qc_plan_free(plain);
        }
}

/* The default plans' units and fingerprints for N=14..24, as a ledger
 * written today records them: a change to the plan at these N would leave
 * every such ledger unreadable (a resumed run refuses a ledger of another
 * plan), so it must show here. */
static void test_fingerprints_kept(void)
{
    static const struct {
        int n;
        size_t units;
        uint64_t fingerprint;
    } kept[] = {
        {14, 1320, 0x423ee5ab2e0189a8ull},
        {15, 2860, 0x0c4464d98734f8faull},
        {16, 3891, 0xf7484ca1d519d97eull},
        {17, 4331, 0x59cc5fd6da8f55b1ull},
        {18, 4416, 0x278a121d1f860528ull},
        {19, 4596, 0x344ae6748ede20bfull},
        {20, 4652, 0x4f327f0d178bdac3ull},
        {21, 5677, 0x17c8d78a7c9a006bull},
        {22, 7402, 0xc08471babc046294ull},
        {23, 12188, 0xc768053089d70d48ull},
        {24, 16159, 0xd7272343a7a162deull},
    };
    for (size_t k = 0; k < sizeof kept / sizeof *kept; k++) {
        qc_plan *p;
        if (qc_plan_create(&p, kept[k].n, QC_ENGINE_JOIN) != QC_OK) {
            CHECK(0, "n=%d: plan not built", kept[k].n);
            continue;
        }
        CHECK(qc_plan_unit_count(p) == kept[k].units && qc_plan_fingerprint(p) == kept[k].fingerprint,
              "n=%d: %zu units, fingerprint %016llx; the ledgers have %zu, %016llx", kept[k].n,
              qc_plan_unit_count(p), (unsigned long long)qc_plan_fingerprint(p), kept[k].units,
              (unsigned long long)kept[k].fingerprint);
        qc_plan_free(p);
    }
}

/* [set shares] Every column set cut into three parts by its top splits,
 * N=10..16, with own lists and with shared ones: three units a column
 * key, each counting that key alone on its third of the splits; the three
 * parts of a set add up to the set's unit in the plan of set units alone,
 * and the parts' plan counts the published totals under another
 * fingerprint. */
static void test_set_shares(const known_count *known)
{
    for (int n = 10; n <= 16 - quick; n++) {
        qcj_settings s = qcj_settings_of(n), sets = s;
        s.set_units = sets.set_units = 1;
        s.own_lists = n % 2;
        s.set_shares = 3;
        sets.set_shares = 1;
        qc_plan *p, *q;
        if (qcj_plan_create_with(&p, n, &s) != QC_OK || qcj_plan_create_with(&q, n, &sets) != QC_OK) {
            CHECK(0, "n=%d: plans not built", n);
            continue;
        }
        const qcj_plan *jp = p->engine_data, *jq = q->engine_data;
        CHECK(jp->set_shares == 3 && jq->set_shares == 1 && jp->patterns == jq->patterns);
        CHECK(qc_plan_unit_count(p) == 3 * qc_plan_unit_count(q), "n=%d: %zu units, %zu sets", n,
              qc_plan_unit_count(p), qc_plan_unit_count(q));
        CHECK(qc_plan_fingerprint(p) != qc_plan_fingerprint(q), "n=%d: the fingerprint misses the parts", n);
        /* the set units' tallies by pattern and key, then the parts' taken off */
        size_t *first = calloc(jq->patterns + 1, sizeof *first);
        qc_u128 *left = calloc(qc_plan_unit_count(q) + 1, sizeof *left);
        if (!first || !left) {
            CHECK(0, "n=%d: out of memory", n);
            free(first);
            free(left);
            qc_plan_free(p);
            qc_plan_free(q);
            continue;
        }
        for (size_t i = 0; i < jq->patterns; i++)
            first[i + 1] = first[i] + jq->slices[i];
        qc_u128 total = 0;
        for (size_t u = 0; u < qc_plan_unit_count(q); u++) {
            const qcj_unit_ref ref = qcj_unit_at(jq, u);
            qc_tally t;
            CHECK(qc_plan_count_unit(q, u, &t) == QC_OK);
            left[first[ref.pattern] + ref.slice] += t.solutions;
        }
        size_t wrong_keys = 0, empty_parts = 0;
        for (size_t u = 0; u < qc_plan_unit_count(p); u++) {
            const qcj_unit_ref ref = qcj_unit_at(jp, u);
            uint64_t lo, hi;
            size_t from, to;
            qcj_unit_keys(jp, u, &lo, &hi);
            qcj_unit_splits(jp, u, &from, &to);
            wrong_keys += lo != ref.slice / 3 || hi != lo + 1;
            empty_parts += !(from < to && to <= jp->splits[0].count);
            qc_tally t;
            CHECK(qc_plan_count_unit(p, u, &t) == QC_OK);
            total += t.solutions;
            left[first[ref.pattern] + ref.slice / 3] -= t.solutions;
        }
        size_t unequal = 0;
        for (size_t k = 0; k < qc_plan_unit_count(q); k++)
            unequal += left[k] != 0;
        CHECK(wrong_keys == 0 && empty_parts == 0 && unequal == 0,
              "n=%d: %zu units on other keys, %zu with no splits, %zu sets whose parts miss them", n,
              wrong_keys, empty_parts, unequal);
        char got[40], want[40];
        CHECK(total == known[n].total, "n=%d: %s in set shares, want %s", n, qc_u128_format(total, got),
              qc_u128_format(known[n].total, want));
        free(first);
        free(left);
        qc_plan_free(p);
        qc_plan_free(q);
    }
}

static int bands_equal(const qcj_band *a, const qcj_band *b, const qcj_rank *r, int t)
{
    const uint32_t ranks = r->binom[t][a->rows], len = a->offsets[ranks];
    return a->rows == b->rows && memcmp(a->offsets, b->offsets, (ranks + 1) * sizeof *a->offsets) == 0
        && memcmp(a->inner, b->inner, len * sizeof *a->inner) == 0
        && memcmp(a->border, b->border, len * sizeof *a->border) == 0;
}

/* [split build] The band lists listed in parts by the pieces' units (and
 * those a slice lists itself) are the lists qcj_side_build lists whole,
 * the pieces' units report the queens placed, and a piece's unit with the
 * stop flag up is cut short.  N=16 lists its lists in parts, N=19 not. */
static void test_split_build(void)
{
    qc_plan *p;
    if (qc_plan_create(&p, 16, QC_ENGINE_JOIN) != QC_OK) {
        CHECK(0, "n=16: plan not built");
        return;
    }
    qcj_plan *jp = p->engine_data;
    const qcj_geometry *g = &jp->geo;
    qcj_side whole[2] = {{0}};
    qcj_vec tmp[3] = {{0}};
    for (size_t i = 0; i < jp->patterns; i++) {
        const uint32_t q = jp->pattern[i], rest = jp->centre & ~q;
        uint64_t placed = 0, parts_placed = 0;
        const qcj_listing l = {.geo = g, .rank = &jp->rank, .tmp = tmp, .placed = &placed};
        CHECK(qcj_side_build_portable(&l, 0, q, UINT32_MAX, &whole[0]) == QC_OK);
        CHECK(qcj_side_build_portable(&l, 1, rest, UINT32_MAX, &whole[1]) == QC_OK);
        for (int j = 0; j < QCJ_SHARED_PIECES; j += 2) {   /* parts 0, 2 by their units */
            qc_tally t = {0};
            CHECK(qcj_shared_build_piece(jp->shared, &l, i, j, q, rest, &t) == QC_OK);
            CHECK(t.solutions == 0 && t.steps > 0);
            parts_placed += t.steps;
        }
        const qcj_shared_sides *sh;   /* parts 1, 3 by the slice */
        CHECK(qcj_shared_acquire(jp->shared, &l, i, q, rest, &sh) == QC_OK);
        for (int s = 0; s < 2; s++)
            for (int b = 0; b < 2; b++)
                CHECK(sh->side[s].t == whole[s].t && sh->side[s].pattern == whole[s].pattern
                      && bands_equal(&sh->side[s].band[b], &whole[s].band[b], &jp->rank, whole[s].t),
                      "n=16 pattern %zu side %d band %d differs", i, s, b);
        qcj_shared_release(jp->shared, i, 1);
        for (int j = 1; j < QCJ_SHARED_PIECES; j += 2) {   /* their units, after */
            qc_tally t = {0};
            CHECK(qcj_shared_build_piece(jp->shared, &l, i, j, q, rest, &t) == QC_OK);
            parts_placed += t.steps;
        }
        CHECK(parts_placed == placed, "n=16 pattern %zu: parts placed %llu, whole %llu", i,
              (unsigned long long)parts_placed, (unsigned long long)placed);
        static const int stop = 1;
        qc_tally t = {0};
        const qcj_listing stopped = {.geo = g, .rank = &jp->rank, .tmp = tmp, .stop = &stop};
        CHECK(qcj_shared_build_piece(jp->shared, &stopped, i, 0, q, rest, &t) == QC_ESTOP);
    }
    size_t parts = 0;
    for (size_t u = 0; u < jp->units; u++)
        parts += qcj_unit_at(jp, u).slice >= jp->slices[qcj_unit_at(jp, u).pattern];
    CHECK(parts == QCJ_SHARED_PIECES * jp->patterns, "n=16: %zu pieces' units", parts);
    qcj_side_free_portable(&whole[0]);
    qcj_side_free_portable(&whole[1]);
    for (int k = 0; k < 3; k++)
        qcj_vec_free(&tmp[k]);
    qc_plan_free(p);
    if (qc_plan_create(&p, 19, QC_ENGINE_JOIN) == QC_OK) {
        jp = p->engine_data;
        for (size_t u = 0; u < jp->units; u++)
            CHECK(qcj_unit_at(jp, u).slice < jp->slices[qcj_unit_at(jp, u).pattern], "n=19: a parts' unit");
        qc_plan_free(p);
    }
}

/* One pass over every unit of plan p on this thread: the total, the work
 * reported and the band parts the shared lists listed meanwhile. */
static void one_pass(qc_plan *p, qc_u128 *total, uint64_t *work, uint64_t *listed)
{
    const qcj_plan *jp = p->engine_data;
    const uint64_t before = qcj_shared_listings(jp->shared, NULL);
    *total = 0;
    *work = 0;
    for (size_t u = 0; u < qc_plan_unit_count(p); u++) {
        qc_tally t;
        CHECK(qc_plan_count_unit(p, u, &t) == QC_OK, "unit %zu", u);
        *total += t.solutions;
        *work += t.steps;
    }
    *listed = qcj_shared_listings(jp->shared, NULL) - before;
}

/* [next pass] A plan counted again does the same work: as many band
 * listings each pass (N=14 and 15 list their cut patterns' lists in
 * parts), the same total and the same work reported, unit by unit three
 * times, then through qc_run on one thread and on two. */
static void test_plan_reuse(const known_count *known)
{
    const int sizes[] = {14, 15};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        const int n = sizes[i];
        qc_plan *p;
        if (qc_plan_create(&p, n, QC_ENGINE_JOIN) != QC_OK) {
            CHECK(0, "n=%d: plan not built", n);
            continue;
        }
        const qcj_plan *jp = p->engine_data;
        size_t cut = 0;
        for (size_t k = 0; k < jp->patterns; k++)
            cut += jp->slices[k] > 1;
        qc_u128 total[3];
        uint64_t work[3], listed[3];
        for (int pass = 0; pass < 3; pass++)
            one_pass(p, &total[pass], &work[pass], &listed[pass]);
        CHECK(cut > 0 && listed[0] > 0, "n=%d: %zu patterns cut, %llu listings", n, cut,
              (unsigned long long)listed[0]);
        for (int pass = 1; pass < 3; pass++)
            CHECK(total[pass] == known[n].total && work[pass] == work[0] && listed[pass] == listed[0],
                  "n=%d pass %d: %llu listings against %llu, work %llu against %llu", n, pass + 1,
                  (unsigned long long)listed[pass], (unsigned long long)listed[0],
                  (unsigned long long)work[pass], (unsigned long long)work[0]);
        /* through qc_run, twice in turn: on one thread the same listings;
         * on two, any more are paid for by idle lists evicted while two
         * patterns ran at once (the missing reset listed 80x as many) */
        for (int run = 0; run < 4; run++) {
            const int threads = 1 + run / 2;
            uint64_t evicted0, evicted1;
            const uint64_t before = qcj_shared_listings(jp->shared, &evicted0);
            qc_run_options opts = {.size = sizeof opts, .threads = threads};
            qc_result r;
            CHECK(qc_run(p, &opts, &r) == QC_OK && r.total == known[n].total, "n=%d qc_run %d", n, run);
            const uint64_t listed_now = qcj_shared_listings(jp->shared, &evicted1) - before;
            const uint64_t evicted = evicted1 - evicted0;
            CHECK(r.steps == work[0], "n=%d qc_run %d on %d threads: work %llu, want %llu", n,
                  run, threads, (unsigned long long)r.steps, (unsigned long long)work[0]);
            CHECK(listed_now >= listed[0] &&
                      listed_now - listed[0] <= QCJ_SHARED_PIECES * evicted &&
                      (threads > 1 || listed_now == listed[0]),
                  "n=%d qc_run %d on %d threads: %llu listings, want %llu + at most %d x %llu "
                  "evictions",
                  n, run, threads, (unsigned long long)listed_now, (unsigned long long)listed[0],
                  QCJ_SHARED_PIECES, (unsigned long long)evicted);
        }
        qc_plan_free(p);
    }
}

/* [independent recount] Every unit of N=1..14 recounted by the AND loop
 * at the portable level: the same solutions, the same work on even N;
 * engines without a second path say so. */
static void test_recount(void)
{
    for (int n = 1; n <= 14; n++) {
        qc_plan *p;
        if (qc_plan_create(&p, n, QC_ENGINE_JOIN) != QC_OK) {
            CHECK(0, "n=%d: plan not built", n);
            continue;
        }
        size_t differ = 0, work_differs = 0;
        for (size_t u = 0; u < qc_plan_unit_count(p); u++) {
            qc_tally a, b;
            const char *how = NULL;
            CHECK(qc_plan_count_unit(p, u, &a) == QC_OK && qc_plan_recount_unit(p, u, &b, &how) == QC_OK
                  && how && strstr(how, "AND loop"), "n=%d unit %zu", n, u);
            differ += a.solutions != b.solutions;
            work_differs += a.steps != b.steps;
        }
        CHECK(differ == 0 && (n % 2 || work_differs == 0), "n=%d: %zu units recount otherwise", n,
              differ);
        qc_tally t;
        CHECK(qc_plan_recount_unit(p, qc_plan_unit_count(p), &t, NULL) == QC_EINVAL);
        qc_plan_free(p);
    }
    qc_plan *e;
    if (qc_plan_create(&e, 10, QC_ENGINE_EIGHTFOLD) == QC_OK) {
        qc_tally t = {.solutions = 1, .steps = 1};
        const char *how = NULL;
        CHECK(qc_plan_recount_unit(e, 0, &t, &how) == QC_ENOTSUP && t.solutions == 0
              && !strcmp(how, "none"), "eightfold has no second path");
        qc_plan_free(e);
    }
}

/* [in place] Bands listed in two walks (as from N=25) are the bands
 * listed through a copy, with the same queens placed: every pattern of
 * N=9..16 at its plan's centre width, both sides. */
static void test_bands_in_place(void)
{
    static qcj_rank rk;
    qcj_rank_init(&rk);
    qcj_vec tmp[3] = {{0}};
    for (int n = 9; n <= 16; n++) {
        qcj_geometry g;
        qcj_geometry_init(&g, n, qcj_unit_cols(n), qcj_key_bits(n), 0);
        const int m = qcj_centre_cols(&g);
        size_t differ = 0;
        for (uint32_t bits = 0; bits < 1u << m; bits++) {
            const uint32_t pattern = bits << g.unit_lo;
            for (int bottom = 0; bottom < 2; bottom++) {
                qcj_side a = {0}, b = {0};
                uint64_t placed_a = 0, placed_b = 0;
                g.bands_pruned = 0;
                g.bands_in_place = 0;
                const qcj_listing la = {.geo = &g, .rank = &rk, .tmp = tmp, .placed = &placed_a};
                const qcj_listing lb = {.geo = &g, .rank = &rk, .tmp = tmp, .placed = &placed_b};
                int ra = qcj_side_build_portable(&la, bottom, pattern, UINT32_MAX, &a);
                g.bands_in_place = 1;
                int rb = qcj_side_build_portable(&lb, bottom, pattern, UINT32_MAX, &b);
                differ += ra != QC_OK || rb != QC_OK || placed_a != placed_b
                       || !bands_equal(&a.band[0], &b.band[0], &rk, a.t)
                       || !bands_equal(&a.band[1], &b.band[1], &rk, a.t);
                qcj_side_free_portable(&a);
                qcj_side_free_portable(&b);
            }
        }
        CHECK(differ == 0, "n=%d: %zu sides listed in place differ", n, differ);
    }
    for (int k = 0; k < 3; k++)
        qcj_vec_free(&tmp[k]);
}

/* Two plans of one board counted unit by unit (the same unit numbers):
 * the units whose solutions differ, those reporting more and fewer
 * placements in b than in a, and b's total. */
typedef struct unit_diff {
    size_t differ, more, fewer;
    qc_u128 total;
} unit_diff;

static unit_diff compare_units(const qc_plan *a, const qc_plan *b)
{
    unit_diff d = {0};
    for (size_t u = 0; u < qc_plan_unit_count(a); u++) {
        qc_tally ta, tb;
        CHECK(qc_plan_count_unit(a, u, &ta) == QC_OK && qc_plan_count_unit(b, u, &tb) == QC_OK);
        d.differ += ta.solutions != tb.solutions;
        d.more += tb.steps > ta.steps;
        d.fewer += tb.steps < ta.steps;
        d.total += tb.solutions;
    }
    return d;
}

/* compare_units of the plans of board n with settings sa and sb, into
 * *d; 0 (and a failed check) where a plan was not built. */
static int compare_settings(int n, const qcj_settings *sa, const qcj_settings *sb, unit_diff *d)
{
    qc_plan *a = NULL, *b = NULL;
    const int built = qcj_plan_create_with(&a, n, sa) == QC_OK
                   && qcj_plan_create_with(&b, n, sb) == QC_OK;
    CHECK(built, "n=%d: plans not built", n);
    if (built)
        *d = compare_units(a, b);
    qc_plan_free(a);
    qc_plan_free(b);
    return built;
}

/* [outside quota] The large bands (listed in place, pruned) count every
 * unit as the plain ones: N=12..17 at the plan's settings (whose widest
 * blocks leave sides with few outside columns), unit by unit, the same
 * solutions, and no more queens placed. */
static void test_large_bands(const known_count *known, int n_max)
{
    for (int n = 12; n <= n_max; n++) {
        qcj_settings plain = qcj_settings_of(n), large = plain;
        plain.large_bands = 0;
        large.large_bands = 1;
        qc_plan *a, *b;
        if (qcj_plan_create_with(&a, n, &plain) != QC_OK || qcj_plan_create_with(&b, n, &large) != QC_OK) {
            CHECK(0, "n=%d: plans not built", n);
            continue;
        }
        CHECK(qc_plan_fingerprint(a) == qc_plan_fingerprint(b), "n=%d: the split changed", n);
        const unit_diff d = compare_units(a, b);
        CHECK(d.differ == 0 && d.more == 0 && d.total == known[n].total,
              "n=%d: %zu units differ, %zu place more", n, d.differ, d.more);
        if (n >= 14)
            CHECK(d.fewer > 0, "n=%d: the quota pruned nothing", n);
        qc_plan_free(a);
        qc_plan_free(b);
    }
}

/* Usage: test_join_plan KNOWN_TSV [large]: "large" adds the plans of
 * N=27..32 (seconds each) and the large bands of N=16, 17. */
/* [halves capped] Halves taken in chunks count the same: N=8..13 with a
 * cap of one half (the tops of every split with any their own chunk, the
 * bottoms of every such split joined apart, and on odd N every merged
 * pass of two middle columns or more joined a column at a time) against
 * no cap, unit by unit, the same solutions, and no less work reported
 * (the bottoms are built again for each chunk of tops); and so again with
 * each chunk keyed for its set ([set key]: a chunk's own key, chosen on
 * its tops and its first bottoms), solutions alone (the keys, and so the
 * pairs tested, differ from chunk to chunk). */
static void test_halves_capped(const known_count *known)
{
    for (int keyed = 0; keyed < 2; keyed++) {
        for (int n = 8; n <= 13 - quick; n++) {
            qcj_settings whole = qcj_settings_of(n), capped = whole;
            if (keyed)
                whole.set_key_from = capped.set_key_from = 0;
            whole.halves_cap = 0;
            capped.halves_cap = 1;
            unit_diff d;
            if (!compare_settings(n, &whole, &capped, &d))
                continue;
            CHECK(d.differ == 0 && d.total == known[n].total, "n=%d%s: %zu units differ capped", n,
                  keyed ? " set keys" : "", d.differ);
            CHECK(d.fewer == 0 || keyed, "n=%d: %zu units report less work capped", n, d.fewer);
        }
    }
}

/* [fresh scratch] [memory budget] A plan whose units start from no working
 * memory and aim at a budget of a few KiB (their own band lists, set by
 * set, so that the chunks' cap moves from set to set, and falls, which
 * frees the halves' buffers) against a plan of kept memory and no
 * budget, both listing set by set, unit by unit: the
 * same solutions, the known totals, and no less work reported (smaller
 * chunks build the bottoms again).  Units are counted twice, in turn, so
 * that a unit follows one of another plan's. */
static void test_memory_budget(const known_count *known)
{
    const size_t budgets[] = {1u << 11, 1u << 14, 1u << 18};
    for (int n = 8; n <= 13 - quick; n++)
        for (size_t b = 0; b < sizeof budgets / sizeof *budgets; b++) {
            qcj_settings plain = qcj_settings_of(n), lean;
            plain.own_lists = 1;
            plain.unit_target = 1;          /* no pattern cut: units of many sets */
            lean = plain;
            lean.fresh_scratch = 1;
            lean.memory_budget = budgets[b];
            qc_plan *a, *c;
            if (qcj_plan_create_with(&a, n, &plain) != QC_OK
                || qcj_plan_create_with(&c, n, &lean) != QC_OK) {
                CHECK(0, "n=%d: plans not built", n);
                continue;
            }
            const unit_diff d = compare_units(a, c), again = compare_units(a, c);
            CHECK(d.differ + again.differ == 0 && d.total == known[n].total,
                  "n=%d budget %zu: %zu units differ", n, budgets[b], d.differ + again.differ);
            CHECK(d.fewer + again.fewer == 0, "n=%d budget %zu: %zu units report less work", n,
                  budgets[b], d.fewer + again.fewer);
            if (b == 0 && n >= 10)      /* n=9's tops fit the room [long tops] leaves */
                CHECK(d.more + again.more > 0, "n=%d: a budget of %zu bytes cut no unit's halves", n,
                      budgets[b]);
            qc_plan_free(a);
            qc_plan_free(c);
        }
}

/* [listing freed] Under a memory budget a unit that lists its own bands
 * frees the placements its listing held before sorting once the lists
 * are made, so they are not held beside its halves; with no budget the
 * scratch keeps them for the next unit.  Units of n=12 and 13 (one
 * pattern a unit, lists of their own), listed by the probe, whose scratch
 * is then read; then counted, the same solutions both ways. */
static void test_listing_freed(void)
{
    for (int n = 12; n <= 13; n++) {
        qcj_settings kept = qcj_settings_of(n), lean;
        kept.own_lists = 0;
        kept.unit_target = 1;               /* no pattern cut: no shared lists */
        kept.fresh_scratch = 0;
        kept.memory_budget = 0;
        lean = kept;
        lean.fresh_scratch = 1;
        lean.memory_budget = (size_t)1 << 20;
        qc_plan *a, *b;
        if (qcj_plan_create_with(&a, n, &kept) != QC_OK || qcj_plan_create_with(&b, n, &lean) != QC_OK) {
            CHECK(0, "n=%d: plans not built", n);
            continue;
        }
        size_t held = 0, freed = 0, listed = 0;
        const size_t units = qc_plan_unit_count(a);
        for (size_t u = 0; u < units && u < 64; u++) {
            qcj_probe pa, pb;
            qc_tally ta = {0}, tb = {0};
            if (qcj_probe_start(a, u, &pa) != QC_OK || qcj_probe_start(b, u, &pb) != QC_OK) {
                CHECK(0, "n=%d unit %zu: not listed", n, u);
                break;
            }
            if (pa.sides && pa.listed.steps) {
                listed++;
                held += pa.sc->band_tmp[0].p || pa.sc->band_tmp[1].p || pa.sc->band_tmp[2].p;
                freed += !pb.sc->band_tmp[0].p && !pb.sc->band_tmp[1].p && !pb.sc->band_tmp[2].p;
            }
            CHECK(qcj_probe_sets(&pa, 0, pa.keys, 0, 0, &ta) == QC_OK
                      && qcj_probe_sets(&pb, 0, pb.keys, 0, 0, &tb) == QC_OK
                      && ta.solutions == tb.solutions,
                  "n=%d unit %zu: counted differently after its listing was freed", n, u);
            qcj_probe_end(&pa);
            qcj_probe_end(&pb);
        }
        CHECK(listed > 0 && held == listed, "n=%d: %zu of %zu listings held with no budget", n, held,
              listed);
        CHECK(freed == listed, "n=%d: %zu of %zu listings freed under a budget", n, freed, listed);
        qc_plan_free(a);
        qc_plan_free(b);
    }
}

/* Settings of n for units of many column sets, listed set by set, whose
 * halves come in chunks of 64 a side, with no memory budget. */
static qcj_settings chunked_settings(int n)
{
    qcj_settings s = qcj_settings_of(n);
    s.own_lists = 1;
    s.unit_target = 1;
    s.halves_cap = 64;
    s.memory_budget = 0;
    return s;
}

/* [long tops] Under a memory budget the tops' chunks take the room the
 * lists leave, while the bottoms' stay at halves_cap: so the bottoms are
 * built again for fewer chunks of tops.  With halves_cap at 64 a side,
 * units counted with a budget of 1 MiB (tops uncapped at these sizes)
 * against units with no budget (tops capped at 64 too): the same
 * solutions unit by unit, the known totals, never more work, and less
 * for some units. */
static void test_long_tops(const known_count *known)
{
    for (int n = 12; n <= 14; n++) {   /* below 12 no set has 64 tops */
        const qcj_settings capped = chunked_settings(n);
        qcj_settings budgeted = capped;
        budgeted.fresh_scratch = 1;
        budgeted.memory_budget = (size_t)1 << 20;
        unit_diff d;
        if (!compare_settings(n, &capped, &budgeted, &d))
            continue;
        CHECK(d.differ == 0 && d.total == known[n].total, "n=%d: %zu units differ", n, d.differ);
        CHECK(d.more == 0, "n=%d: %zu units report more work with long tops", n, d.more);
        CHECK(d.fewer > 0, "n=%d: no unit built its bottoms fewer times with long tops", n);
    }
}

/* [spread key sample] Bottoms in chunks of 64 (so that more follow most
 * chunks of tops' first join) and a key for every chunk of tops: the key
 * chosen on bottoms spread over the set's splits against one chosen on
 * the first join's bottoms, n=12..14, unit by unit: the same solutions and
 * the known totals, and other work for some units (the spread sample is
 * taken, and keys other bottoms).  A mutant building the sample in the
 * join's own bottoms fails the counts. */
static void test_spread_key(const known_count *known)
{
    for (int n = 12; n <= 14; n++) {
        qcj_settings first = chunked_settings(n), spread;
        first.set_key_from = 0;
        first.key_splits = 0;
        spread = first;
        spread.key_splits = QCJ_SET_KEY_SPLITS;
        unit_diff d;
        if (!compare_settings(n, &first, &spread, &d))
            continue;
        CHECK(d.differ == 0 && d.total == known[n].total, "n=%d: %zu units differ", n, d.differ);
        CHECK(d.more + d.fewer > 0, "n=%d: no unit's key came from the spread sample", n);
    }
}

/* Placements in a side's two bands. */
static uint64_t side_placements(const qcj_side *s, const qcj_rank *r)
{
    uint64_t n = 0;
    for (int b = 0; b < 2; b++)
        n += s->band[b].offsets[r->binom[s->t][s->band[b].rows]];
    return n;
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The halves of side s on squeezed set `set`, sorted, into out; their
 * number. */
static size_t sorted_halves(const qcj_plan *jp, int bottom, const qcj_side *s, uint32_t set,
                            qcj_vec *out)
{
    size_t len = 0, at = 0;
    uint64_t tested = 0;
    const qcj_halves_request rq = {.side = s, .splits = &jp->splits[bottom], .set = set};
    CHECK(qcj_halves_of_at(qci_isa_current(), &jp->rank, &rq, &at, out, &len, &tested) == QC_OK);
    if (len)
        qsort(out->p, len, sizeof(uint64_t), by_value);
    return len;
}

/* [own lists] Units listing their bands set by set, each side on the
 * set's columns alone, count as units listing them whole or sharing their
 * pattern's: N=12..16 with own lists against without, the same plan, unit
 * by unit the same solutions.  And for the first set of every pattern, a
 * side listed on that set's columns (qcj_side_build's `only`) gives the
 * same halves on it as the side listed whole, from no more placements,
 * fewer for some. */
static void test_own_lists(const known_count *known)
{
    for (int n = 12; n <= 16 - quick; n++) {
        qcj_settings shared = qcj_settings_of(n), own = shared;
        shared.own_lists = 0;
        own.own_lists = 1;
        qc_plan *a, *b;
        if (qcj_plan_create_with(&a, n, &shared) != QC_OK || qcj_plan_create_with(&b, n, &own) != QC_OK) {
            CHECK(0, "n=%d: plans not built", n);
            continue;
        }
        CHECK(qc_plan_fingerprint(a) == qc_plan_fingerprint(b), "n=%d: the plan changed", n);
        const unit_diff d = compare_units(a, b);
        CHECK(d.differ == 0 && d.total == known[n].total, "n=%d: %zu units differ with own lists", n,
              d.differ);
        const qcj_plan *jp = b->engine_data;
        const qcj_geometry *g = &jp->geo;
        qcj_side whole = {0}, only = {0};
        qcj_vec tmp[3] = {{0}}, hw = {0}, ho = {0};
        size_t unequal = 0, more = 0, fewer = 0;
        for (size_t i = 0; i < jp->patterns; i++) {
            const uint32_t q = jp->pattern[i], rest = jp->centre & ~q;
            const int top_free = g->h - __builtin_popcount(q);
            if (top_free < 0 || top_free > g->n - qcj_centre_cols(g))
                continue;
            const uint32_t set = q | qcj_colkey_expand(g, qcj_colex_at(0, top_free));
            for (int bottom = 0; bottom < 2; bottom++) {
                const uint32_t pat = bottom ? rest : q;
                const uint32_t cols = bottom ? qck_full_mask(n) & ~set : set;
                uint64_t placed = 0;
                const qcj_listing l = {.geo = g, .rank = &jp->rank, .tmp = tmp, .placed = &placed};
                CHECK(qcj_side_build(&l, bottom, pat, UINT32_MAX, &whole) == QC_OK);
                CHECK(qcj_side_build(&l, bottom, pat, cols, &only) == QC_OK);
                const uint64_t pw = side_placements(&whole, &jp->rank), po = side_placements(&only, &jp->rank);
                more += po > pw;
                fewer += po < pw;
                /* the bottom's halves on the set's complement (odd N: all
                 * of it less one column, the middle queen's, the first) */
                uint32_t hset = cols;
                if (bottom && n % 2)
                    hset &= hset - 1;
                const size_t lw = sorted_halves(jp, bottom, &whole, qcj_squeeze(g, pat, hset), &hw);
                const size_t lo = sorted_halves(jp, bottom, &only, qcj_squeeze(g, pat, hset), &ho);
                unequal += lw != lo || (lw && memcmp(hw.p, ho.p, lw * sizeof(uint64_t)) != 0);
            }
        }
        CHECK(unequal == 0 && more == 0 && fewer > 0,
              "n=%d: %zu sides with other halves, %zu with more placements, %zu fewer", n, unequal,
              more, fewer);
        qcj_side_free(&whole);
        qcj_side_free(&only);
        for (int i = 0; i < 3; i++)
            free(tmp[i].p);
        free(hw.p);
        free(ho.p);
        qc_plan_free(a);
        qc_plan_free(b);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc == 3 ? argv[2] : "";
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(mode, "large") && strcmp(mode, "quick"))) {
        fprintf(stderr, "usage: %s KNOWN_TSV [quick|large]\n", argv[0]);
        return 2;
    }
    const int large = !strcmp(mode, "large");
    quick = !strcmp(mode, "quick");
    static known_count known[QC_N_MAX + 1];
    known_load(argv[1], known);
    if (large) {
        test_engine(32);
        test_large_bands(known, 17);
        return check_report("join plan, large");
    }
    test_mirror();
    test_weights();
    test_engine(26);
    test_parameters(known);
    test_coarse_sort(known);
    test_slices(known);
    test_split_build();
    test_plan_reuse(known);
    test_recount();
    test_halves_capped(known);
    test_memory_budget(known);
    test_listing_freed();
    test_long_tops(known);
    test_spread_key(known);
    test_own_lists(known);
    test_set_units(known);
    test_set_shares(known);
    test_fingerprints_kept();
    test_bands_in_place();
    test_large_bands(known, 15);
    return check_report("join plan");
}
