/* SPDX-License-Identifier: MIT */
/*
 * test_isa.c — the kernels' instruction-set levels (qc_isa_select, core/isa.h)
 * agree: at every level this CPU has, each unit of every plan of the
 * engines with kernels (halving, eightfold, join) counts the same
 * solutions and placements as at the portable level (join on odd N at the
 * avx512 level: the same solutions, other work), with and without a stop
 * flag, and the totals are the published ones; the join engine's 64-bit
 * lanes too.  Usage: test_isa TSV N_MAX (N_MAX <= 16).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "check.h"
#include "join/join.h"   /* qcj_count_with: the 64-bit lanes at small N */
#include "known.h"

static const char *const levels[] = {"portable", "avx2", "avx512"};
static const qc_engine_id engines[] = {QC_ENGINE_HALVING, QC_ENGINE_EIGHTFOLD, QC_ENGINE_JOIN};

/* The tallies of one plan's units, without and with a stop flag. */
typedef struct tallies {
    size_t units;
    qc_tally *plain, *flagged;
} tallies;

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
        if (rc == QC_OK)
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

/* Same solutions, and the same work unless `work_differs`. */
static int same_tally(const qc_tally *a, const qc_tally *b, int work_differs)
{
    return a->solutions == b->solutions && (work_differs || a->placements == b->placements);
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
    /* join's nibble tables (avx512) join odd N's middle columns in one pass
     * ([middle carried]), the AND loop one column a pass: other work */
    const int work_differs = engine == QC_ENGINE_JOIN && n % 2 && !strcmp(level, "avx512");
    size_t differ = 0;
    qc_u128 total = 0;
    for (size_t u = 0; u < t.units; u++) {
        differ += !same_tally(&t.plain[u], &ref->plain[u], work_differs);
        differ += !same_tally(&t.flagged[u], &ref->flagged[u], work_differs);
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
static int check_names(int have[3])
{
    CHECK(qc_isa_select("bogus") == QC_EINVAL);
    CHECK(qc_isa_select("") == QC_EINVAL);
    CHECK(qc_isa_select("AVX2") == QC_EINVAL);
    CHECK(qc_isa_select(NULL) == QC_OK);
    const char *best = qc_isa_name();
    int count = 0, best_seen = 0;
    for (int l = 0; l < 3; l++) {
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

/* The join engine with 64-bit lanes (wide), at the running level. */
static void check_wide(const char *level, int n, const known_count *known)
{
    const int m = n % 2 ? 3 : 2;   /* a small block of n's parity */
    qc_u128 total = 0;
    int rc = qcj_count_with(n, m, 4, 1, QCJ_UNIT_TARGET, &total);
    CHECK(rc == QC_OK && total == known[n].total, "%s join wide n=%d: rc %d, total %llu", level,
          n, rc, (unsigned long long)total);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s TSV N_MAX\n", argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {0};
    known_load(argv[1], known);
    const int n_max = atoi(argv[2]);
    int have[3];
    int count = check_names(have);
    printf("levels this CPU runs: %d (best: %s)\n", count, qc_isa_name());
    for (size_t e = 0; e < sizeof engines / sizeof *engines; e++)
        for (int n = 1; n <= n_max; n++) {
            tallies ref = {0};
            qc_isa_select("portable");
            int rc = count_units(n, engines[e], &ref);
            CHECK(rc == QC_OK, "portable %s n=%d: rc %d", qc_engine_name(engines[e]), n, rc);
            for (int l = 0; l < 3 && rc == QC_OK; l++)
                if (have[l]) {
                    qc_isa_select(levels[l]);
                    check_level(levels[l], n, engines[e], &ref, known);
                    if (engines[e] == QC_ENGINE_JOIN && n >= 4)
                        check_wide(levels[l], n, known);
                }
            tallies_free(&ref);
        }
    qc_isa_select(NULL);
    return check_report("isa");
}
