/* SPDX-License-Identifier: MIT */
/*
 * test_isa.c — the kernels' instruction-set levels (qc_isa_select, core/isa.h)
 * agree: at every level this CPU has, each unit of every plan of the
 * engines with kernels (halving, eightfold, join) counts the same
 * solutions and placements as at the portable level, with and without a
 * stop flag, and the totals are the published ones; the join engine with
 * its key in the high bits (force_wide) and with the AND loop too.
 * Usage: test_isa TSV N_MAX [FLAGGED_MAX]: N=1..N_MAX (at most 18; the
 * backtracking engines to N=15 at most), with a stop flag too up to
 * FLAGGED_MAX (default N_MAX).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "check.h"
#include "join/settings.h"   /* qcj_count_with: the 64-bit lanes at small N */
#include "known.h"

static const char *const levels[] = {"portable", "avx2", "avx512", "avx512vbmi", "neon"};
enum { LEVELS = sizeof levels / sizeof *levels };
static const qc_engine_id engines[] = {QC_ENGINE_HALVING, QC_ENGINE_EIGHTFOLD, QC_ENGINE_JOIN};

/* The tallies of one plan's units, without and with a stop flag. */
typedef struct tallies {
    size_t units;
    qc_tally *plain, *flagged;
} tallies;

/* The backtracking engines' kernels run the same code at every N: their
 * levels are compared up to N=15 (halving's N=18 takes minutes a level),
 * join's up to N_MAX. */
static int backtrack_max(int n_max)
{
    return n_max < 15 ? n_max : 15;
}

/* Units are counted with a stop flag too up to this N. */
static int flagged_max = 32;

static int count_units(int n, qc_engine_id engine, tallies *t)
{
    qc_plan *plan;
    if (qc_plan_create(&plan, n, engine) != QC_OK)
        return -1;
    static const int zero = 0;
    t->units = qc_plan_unit_count(plan);
    t->plain = calloc(t->units + 1, sizeof *t->plain);
    t->flagged = calloc(t->units + 1, sizeof *t->flagged);
    int rc = t->plain && t->flagged ? QC_OK : QC_ENOMEM;
    for (size_t u = 0; u < t->units && rc == QC_OK; u++) {
        rc = qc_plan_count_unit(plan, u, &t->plain[u]);
        if (rc == QC_OK && n <= flagged_max)
            rc = qc_plan_count_unit_until(plan, u, &zero, &t->flagged[u]);
    }
    qc_plan_free(plan);
    return rc;
}

static void tallies_free(tallies *t)
{
    free(t->plain);
    free(t->flagged);
}

/* Same solutions, and the same work. */
static int same_tally(const qc_tally *a, const qc_tally *b)
{
    return a->solutions == b->solutions && a->steps == b->steps;
}

/* Every unit of (n, engine) at the running level against `ref`, the
 * portable level's; the total against the published one. */
static void check_level(const char *level, int n, qc_engine_id engine, const tallies *ref,
                        const known_count *known)
{
    tallies t = {0};
    int rc = count_units(n, engine, &t);
    const char *name = qc_engine_name(engine);
    CHECK(rc == QC_OK && t.units == ref->units, "%s %s n=%d: rc %d", level, name, n, rc);
    if (rc != QC_OK || t.units != ref->units) {
        tallies_free(&t);
        return;
    }
    size_t differ = 0;
    qc_u128 total = 0;
    for (size_t u = 0; u < t.units; u++) {
        differ += !same_tally(&t.plain[u], &ref->plain[u]);
        differ += !same_tally(&t.flagged[u], &ref->flagged[u]);
        total += t.plain[u].solutions;
    }
    CHECK(differ == 0, "%s %s n=%d: %zu unit tallies differ from portable's", level, name, n,
          differ);
    CHECK(total == known[n].total, "%s %s n=%d: total %llu, want %llu", level, name, n,
          (unsigned long long)total, (unsigned long long)known[n].total);
    tallies_free(&t);
}

/* The names: unknown ones refused, portable always there, the running
 * level's name the one selected.  Fills have[] with the levels this CPU
 * runs; returns how many. */
static int check_names(int have[LEVELS])
{
    CHECK(qc_isa_select("bogus") == QC_EINVAL);
    CHECK(qc_isa_select("") == QC_EINVAL);
    CHECK(qc_isa_select("AVX2") == QC_EINVAL);
    CHECK(qc_isa_select(NULL) == QC_OK);
    const char *best = qc_isa_name();
    int count = 0, best_seen = 0;
    for (int l = 0; l < LEVELS; l++) {
        int rc = qc_isa_select(levels[l]);
        CHECK(rc == QC_OK || rc == QC_ENOTSUP, "%s: rc %d", levels[l], rc);
        have[l] = rc == QC_OK;
        count += have[l];
        if (have[l]) {
            CHECK(strcmp(qc_isa_name(), levels[l]) == 0, "%s selected, %s runs", levels[l],
                  qc_isa_name());
            best_seen = strcmp(best, levels[l]) == 0;   /* the highest one had */
        }
    }
    CHECK(have[0], "portable must always run");
    CHECK(best_seen, "the automatic level %s is not the best one this CPU runs", best);
    qc_isa_select(NULL);
    CHECK(strcmp(qc_isa_name(), best) == 0, "NULL chose %s, not %s", qc_isa_name(), best);
    return count;
}

/* The join engine at the running level with its key in the high bits,
 * its large bands and every chunk of tops keyed for its set (force_wide,
 * large_bands, set_key_from 0: as on large boards): the
 * published total; up to FLAGGED_MAX, also with a small block, and every
 * unit's solutions against the AND loop's recount (portable level; its
 * work on odd N differs: [middle spared], joiner.h), and the AND loop's
 * total. */
static void check_settings(const char *level, int n, const known_count *known)
{
    qcj_settings s = qcj_settings_of(n);
    s.force_wide = 1;
    s.large_bands = 1;
    s.set_key_from = 0;   /* [set key] every chunk its set's own key, as large boards' */
    qc_plan *plan;
    int rc = qcj_plan_create_with(&plan, n, &s);
    CHECK(rc == QC_OK, "%s wide n=%d: no plan", level, n);
    if (rc != QC_OK)
        return;
    const int per_unit = n <= flagged_max;
    qc_u128 total = 0;
    size_t differ = 0;
    for (size_t u = 0; u < qc_plan_unit_count(plan) && rc == QC_OK; u++) {
        qc_tally t, and_loop;
        rc = qc_plan_count_unit(plan, u, &t);
        if (rc == QC_OK && per_unit) {
            rc = qc_plan_recount_unit(plan, u, &and_loop, NULL);
            differ += t.solutions != and_loop.solutions;
        }
        total += t.solutions;
    }
    qc_plan_free(plan);
    CHECK(rc == QC_OK && total == known[n].total && differ == 0,
          "%s join wide n=%d: rc %d, total %llu, %zu units unlike the AND loop's", level, n, rc,
          (unsigned long long)total, differ);
    if (!per_unit)
        return;
    s.unit_cols = n % 2 ? 3 : 2;   /* a small block of n's parity */
    s.key_bits = 4;
    total = 0;
    rc = qcj_count_with(n, &s, &total, NULL);
    CHECK(rc == QC_OK && total == known[n].total, "%s join wide, small block, n=%d: rc %d", level,
          n, rc);
    s = qcj_settings_of(n);
    s.joiner = QCJ_JOIN_AND;
    total = 0;
    rc = qcj_count_with(n, &s, &total, NULL);
    CHECK(rc == QC_OK && total == known[n].total, "%s join AND loop n=%d: rc %d, total %llu",
          level, n, rc, (unsigned long long)total);
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s TSV N_MAX [FLAGGED_MAX]\n", argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {0};
    known_load(argv[1], known);
    const int n_max = atoi(argv[2]);
    flagged_max = argc == 4 ? atoi(argv[3]) : n_max;
    int have[LEVELS];
    int count = check_names(have);
    printf("levels this CPU runs: %d (best: %s)\n", count, qc_isa_name());
    for (size_t e = 0; e < sizeof engines / sizeof *engines; e++)
        for (int n = 1; n <= (engines[e] == QC_ENGINE_JOIN ? n_max : backtrack_max(n_max)); n++) {
            tallies ref = {0};
            qc_isa_select("portable");
            int rc = count_units(n, engines[e], &ref);
            CHECK(rc == QC_OK, "portable %s n=%d: rc %d", qc_engine_name(engines[e]), n, rc);
            for (int l = 0; l < LEVELS && rc == QC_OK; l++)
                if (have[l]) {
                    qc_isa_select(levels[l]);
                    check_level(levels[l], n, engines[e], &ref, known);
                    if (engines[e] == QC_ENGINE_JOIN && n >= 4)
                        check_settings(levels[l], n, known);
                }
            tallies_free(&ref);
        }
    qc_isa_select(NULL);
    return check_report("isa");
}
