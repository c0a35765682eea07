/* SPDX-License-Identifier: MIT */
/*
 * test_profile.c — [plan profiles] the record sizes' plans on boards whose
 * count is known: N=FIRST..LAST counted under the profile of board P
 * (qc_plan_create_with, [scaled profile] core/join/profile.c) at every
 * ISA level this CPU has, each total against the published one; each
 * unit's tally at every level against the portable level's (the units
 * are the same), and at the portable level against the AND loop's
 * (qc_plan_recount_unit); and the plans' path counters (settings.h,
 * [path counters]) show that the paths that cut a record unit's work
 * into pieces ran: chunks of tops and of bottoms, tiles, paired blocks
 * (the avx512vbmi level), set shares, the tops grouped in place, the
 * grouping in two passes, the sets' own keys and own lists, as profile P
 * takes them.  A plan under another profile than its board's own has
 * another fingerprint, and its own board's plan the fingerprint it always
 * had (the same as the plan made without options).
 * Usage: test_profile TSV P FIRST LAST LEVEL [UNITS_TO] [--paths]: at
 * ISA level LEVEL (exit 77 where the CPU lacks it), the units compared
 * one by one up to N=UNITS_TO (default LAST): with the portable level's,
 * and at the portable level with the AND loop's; --paths prints the
 * counters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "config.h"
#include "join/settings.h"
#include "known.h"

static qc_plan *plan_of(int n, int profile)
{
    qc_plan *plan = NULL;
    const qc_plan_options o = {.size = sizeof o, .profile = profile};
    CHECK(qc_plan_create_with(&plan, n, QC_ENGINE_JOIN, &o) == QC_OK, "n=%d profile %d", n, profile);
    return plan;
}

/* Every unit of the n-board under profile p at the level now selected,
 * into tally[] (NULL: not kept) and against want[] (NULL: none yet);
 * the total against the known one; the plan's counters added to *paths. */
static void count_plan(int n, int p, const known_count *known, qc_tally *tally,
                       const qc_tally *want, int recount, qcj_paths *paths)
{
    qc_plan *plan = plan_of(n, p);
    if (!plan)
        return;
    qc_u128 total = 0;
    size_t wrong = 0, unrecounted = 0;
    for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
        qc_tally t, again;
        CHECK(qc_plan_count_unit(plan, u, &t) == QC_OK, "n=%d p=%d unit %zu", n, p, u);
        total += t.solutions;
        if (tally)
            tally[u] = t;
        if (want && (want[u].solutions != t.solutions || want[u].steps != t.steps))
            wrong++;
        if (recount && (qc_plan_recount_unit(plan, u, &again, NULL) != QC_OK
                        || again.solutions != t.solutions))
            unrecounted++;
    }
    CHECK(total == known[n].total, "n=%d p=%d at %s: %llu, want %llu", n, p, qc_isa_name(),
          (unsigned long long)total, (unsigned long long)known[n].total);
    CHECK(wrong == 0, "n=%d p=%d at %s: %zu units differ from the portable level's", n, p,
          qc_isa_name(), wrong);
    CHECK(unrecounted == 0, "n=%d p=%d: %zu units differ from the AND loop's", n, p, unrecounted);
    qcj_paths got;
    qcj_plan_paths(plan, &got);
    uint64_t *to = (uint64_t *)paths;
    const uint64_t *from = (const uint64_t *)&got;
    for (size_t i = 0; i < sizeof got / sizeof *from; i++)
        to[i] += from[i];
    qc_plan_free(plan);
}

/* The fingerprints: profile p on the n-board is its own plan unless p is n's. */
static void check_fingerprints(int n, int p)
{
    qc_plan *own = NULL, *forced = plan_of(n, p), *same = plan_of(n, n);
    CHECK(qc_plan_create(&own, n, QC_ENGINE_JOIN) == QC_OK);
    if (own && forced && same) {
        CHECK(qc_plan_fingerprint(same) == qc_plan_fingerprint(own), "n=%d", n);
        CHECK(qc_plan_profile(own) == n && qc_plan_profile(forced) == p, "n=%d p=%d", n, p);
        CHECK(strcmp(qc_plan_profile_name(forced), qcj_profile_name(p)) == 0);
        if (p != n)
            CHECK(qc_plan_fingerprint(forced) != qc_plan_fingerprint(own), "n=%d p=%d", n, p);
    }
    qc_plan_free(own);
    qc_plan_free(forced);
    qc_plan_free(same);
}

static void print_paths(int p, const char *level, const qcj_paths *c)
{
    printf("p=%d %s: top_chunks %llu bottom_chunks %llu tiled_joins %llu paired_sweeps %llu "
           "share_units %llu in_place %llu coarse %llu set_keys %llu spread_keys %llu "
           "own_lists %llu top_relists %llu grown_bottoms %llu\n", p, level,
           (unsigned long long)c->top_chunks,
           (unsigned long long)c->bottom_chunks, (unsigned long long)c->tiled_joins,
           (unsigned long long)c->paired_sweeps, (unsigned long long)c->share_units,
           (unsigned long long)c->in_place, (unsigned long long)c->coarse,
           (unsigned long long)c->set_keys, (unsigned long long)c->spread_keys,
           (unsigned long long)c->own_lists, (unsigned long long)c->top_relists,
           (unsigned long long)c->grown_bottoms);
}

/* The paths profile p takes ran at level `level` (config.h's row). */
static void check_paths(int p, const char *level, const qcj_paths *c)
{
    const qcj_profile *row = qcj_profile_of(p);
    const qcj_settings s = qcj_settings_for(p, p);
    if (s.memory_budget || s.halves_cap) {
        CHECK(c->top_chunks > 0, "p=%d at %s: no set's tops in chunks", p, level);
        CHECK(c->bottom_chunks > 0, "p=%d at %s: no bottoms cut by the cap", p, level);
    }
    CHECK(c->tiled_joins > 0, "p=%d at %s: no join in tiles", p, level);
    if (strcmp(level, "avx512vbmi") == 0)
        CHECK(c->paired_sweeps > 0, "p=%d at %s: no paired blocks", p, level);
    CHECK((c->share_units > 0) == (row->shares > 1), "p=%d at %s: %llu units of set shares", p,
          level, (unsigned long long)c->share_units);
    CHECK((c->in_place > 0) == (s.memory_budget > 0), "p=%d at %s: %llu grouped in place", p,
          level, (unsigned long long)c->in_place);
    CHECK((c->own_lists > 0) == (row->own != 0), "p=%d at %s: %llu own lists", p, level,
          (unsigned long long)c->own_lists);
    /* [top lists freed] where the tops are held grouped in their own lists */
    CHECK((c->top_relists > 0) == (row->own && s.memory_budget && c->top_chunks > 0),
          "p=%d at %s: top lists listed again %llu times", p, level,
          (unsigned long long)c->top_relists);
    /* [bottoms take the rest] ... and the joins beside them hold more bottoms */
    CHECK((c->grown_bottoms > 0) == (row->own && s.memory_budget), "p=%d at %s: %llu grown",
          p, level, (unsigned long long)c->grown_bottoms);
    if (qcj_key_bits(p) >= QCJ_SORT_COARSE_FROM_BITS)
        CHECK(c->coarse > 0, "p=%d at %s: no grouping in two passes", p, level);
    CHECK(c->set_keys > 0 && c->spread_keys > 0, "p=%d at %s: set keys %llu, spread %llu", p,
          level, (unsigned long long)c->set_keys, (unsigned long long)c->spread_keys);
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: test_profile TSV P FIRST LAST LEVEL [UNITS_TO] [--paths]\n");
        return 2;
    }
    known_count known[QC_N_MAX + 1];
    known_load(argv[1], known);
    const int p = atoi(argv[2]), first = atoi(argv[3]), last = atoi(argv[4]);
    const char *level = argv[5];
    const int units_to = argc > 6 && argv[6][0] != '-' ? atoi(argv[6]) : last;
    const int show = strcmp(argv[argc - 1], "--paths") == 0;
    if (qc_isa_select(level) != QC_OK) {
        printf("profile: this CPU has no level %s\n", level);
        return 77;
    }
    const int portable = strcmp(level, "portable") == 0;
    for (int n = first; n <= last; n++)
        check_fingerprints(n, p);
    qcj_paths paths = {0}, reference = {0};
    for (int n = first; n <= last; n++) {
        qc_tally *want = NULL;
        if (n <= units_to && !portable) {       /* the same units at the portable level */
            qc_plan *plan = plan_of(n, p);
            want = calloc(qc_plan_unit_count(plan) + 1, sizeof *want);
            qc_plan_free(plan);
            qc_isa_select("portable");
            count_plan(n, p, known, want, NULL, 0, &reference);
            qc_isa_select(level);
        }
        count_plan(n, p, known, NULL, want, portable && n <= units_to, &paths);
        free(want);
    }
    if (show)
        print_paths(p, level, &paths);
    if (last >= 12)         /* the smallest boards are too small to cut */
        check_paths(p, level, &paths);
    qc_isa_select(NULL);
    return check_report("profile");
}
