/* SPDX-License-Identifier: MIT */
/*
 * test_cases.c — [unit cases] and [backtrack oracle] through the public
 * library (this test links libqcount.so, as test_api does): every unit of
 * the join plan of N=4..13 under the board's own profile and N=28's, and
 * of N=4..11 under N=25's and N=27's, counted by join (qc_plan_count_unit) and again from
 * its description alone (qc_plan_backtrack_unit, and the cases one by one
 * through qc_case_count), unit by unit equal, the units' sum the known
 * total.  Mutant descriptions (a case dropped, a weight changed, where
 * the case has solutions) no longer add up to join's tally.  Engines
 * without profiles or descriptions refuse them.
 *
 * Usage: test_cases KNOWN_TSV [quick]   the checks above; quick: to
 *                                       N=12 in place of 13 (where the
 *                                       code is instrumented)
 *        test_cases tallies N P         "U SOLUTIONS" for every unit of
 *                                       the join plan of N under profile
 *                                       P (0: N's own), by join, for
 *                                       tests/tools/cases_test.py
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qcount.h"
#include "check.h"
#include "known.h"

static qc_plan *join_plan(int n, int profile)
{
    qc_plan *plan = NULL;
    int rc = qc_plan_create_with(&plan, n, QC_ENGINE_JOIN,
                                 &(qc_plan_options){.size = sizeof(qc_plan_options),
                                                    .profile = profile});
    CHECK(rc == QC_OK && plan, "N=%d profile %d: rc %d", n, profile, rc);
    return rc == QC_OK ? plan : NULL;
}

/* A unit's cases, copied out of qc_plan_unit_describe's walk. */
typedef struct case_list {
    qc_unit_case *cases;
    size_t count, cap;
} case_list;

static int collect(void *ctx, const qc_unit_case *c)
{
    case_list *l = ctx;
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        qc_unit_case *grown = realloc(l->cases, cap * sizeof *grown);
        if (!grown)
            return 1;
        l->cases = grown;
        l->cap = cap;
    }
    l->cases[l->count++] = *c;
    return 0;
}

/* The cases' sum of weight x qc_case_count, skipping case `skip` (none:
 * SIZE_MAX) and counting case `bump` with weight + 1. */
static qc_u128 recount(int n, const case_list *l, size_t skip, size_t bump)
{
    qc_u128 sum = 0;
    for (size_t i = 0; i < l->count; i++) {
        if (i == skip)
            continue;
        qc_u128 s = 0;
        CHECK(qc_case_count(n, &l->cases[i], NULL, &s, NULL) == QC_OK);
        sum += s * (l->cases[i].weight + (i == bump));
    }
    return sum;
}

/* Every unit of N under profile: join's tally, the oracle's, the cases'
 * own sum; the total against the known count. */
static void check_plan(int n, int profile, qc_u128 known)
{
    qc_plan *plan = join_plan(n, profile);
    if (!plan)
        return;
    CHECK(qc_plan_profile(plan) == (profile ? profile : n), "N=%d: profile %d, asked %d", n,
          qc_plan_profile(plan), profile);
    CHECK(qc_plan_profile_name(plan)[0] != '\0', "N=%d profile %d: no name", n, profile);
    qc_u128 total = 0;
    size_t bad = 0;
    case_list l = {0};
    for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
        qc_tally join, oracle;
        CHECK(qc_plan_count_unit(plan, u, &join) == QC_OK);
        CHECK(qc_plan_backtrack_unit(plan, u, NULL, &oracle) == QC_OK);
        l.count = 0;
        CHECK(qc_plan_unit_describe(plan, u, collect, &l) == QC_OK);
        qc_u128 cases = recount(n, &l, SIZE_MAX, SIZE_MAX);
        if (join.solutions != oracle.solutions || cases != oracle.solutions)
            bad++;
        total += join.solutions;
    }
    char a[48], b[48];
    CHECK(bad == 0, "N=%d profile %d: %zu units differ from the oracle", n, profile, bad);
    CHECK(total == known, "N=%d profile %d: total %s, known %s", n, profile,
          qc_u128_format(total, a), qc_u128_format(known, b));
    free(l.cases);
    qc_plan_free(plan);
}

/* The first unit of N under profile with a case that has solutions: a
 * copy of that case dropped, and its weight raised by one, each make the
 * cases' sum differ from join's tally; the cases unchanged match it. */
static void check_mutants(int n, int profile)
{
    qc_plan *plan = join_plan(n, profile);
    if (!plan)
        return;
    case_list l = {0};
    int found = 0;
    for (size_t u = 0; u < qc_plan_unit_count(plan) && !found; u++) {
        l.count = 0;
        CHECK(qc_plan_unit_describe(plan, u, collect, &l) == QC_OK);
        for (size_t i = 0; i < l.count && !found; i++) {
            qc_u128 s = 0;
            CHECK(qc_case_count(n, &l.cases[i], NULL, &s, NULL) == QC_OK);
            if (s == 0 || l.cases[i].weight == 0)
                continue;
            found = 1;
            qc_tally join;
            CHECK(qc_plan_count_unit(plan, u, &join) == QC_OK);
            CHECK(recount(n, &l, SIZE_MAX, SIZE_MAX) == join.solutions, "N=%d unit %zu", n, u);
            CHECK(recount(n, &l, i, SIZE_MAX) != join.solutions,
                  "N=%d profile %d unit %zu: case %zu dropped, not caught", n, profile, u, i);
            CHECK(recount(n, &l, SIZE_MAX, i) != join.solutions,
                  "N=%d profile %d unit %zu: case %zu's weight changed, not caught", n, profile,
                  u, i);
        }
    }
    CHECK(found, "N=%d profile %d: no case with solutions", n, profile);
    free(l.cases);
    qc_plan_free(plan);
}

/* [eight lanes] Every case of every unit of N under profile counted by
 * the oracle's two kernels (the AVX2 one where the CPU has it, and the
 * scalar one, which the portable level runs): the same solutions and the
 * same queens placed, as they search the same tree. */
static void check_kernels(int n, int profile, int *compared)
{
    qc_plan *plan = join_plan(n, profile);
    if (!plan)
        return;
    case_list l = {0};
    for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
        l.count = 0;
        CHECK(qc_plan_unit_describe(plan, u, collect, &l) == QC_OK);
        for (size_t i = 0; i < l.count; i++) {
            qc_u128 wide = 0, scalar = 0;
            uint64_t wide_placed = 0, scalar_placed = 0;
            CHECK(qc_isa_select(NULL) == QC_OK);
            CHECK(qc_case_count(n, &l.cases[i], NULL, &wide, &wide_placed) == QC_OK);
            CHECK(qc_isa_select("portable") == QC_OK);
            CHECK(qc_case_count(n, &l.cases[i], NULL, &scalar, &scalar_placed) == QC_OK);
            CHECK(wide == scalar && wide_placed == scalar_placed,
                  "N=%d profile %d unit %zu case %zu: the kernels differ (placed %llu, %llu)", n,
                  profile, u, i, (unsigned long long)wide_placed,
                  (unsigned long long)scalar_placed);
            *compared += wide_placed != 0;
        }
    }
    CHECK(qc_isa_select(NULL) == QC_OK);
    free(l.cases);
    qc_plan_free(plan);
}

/* What the library refuses: a profile of an engine without profiles, a
 * description of an engine without them, a unit out of range. */
static void check_refusals(void)
{
    qc_plan *plan = NULL;
    const qc_plan_options eight = {.size = sizeof eight, .profile = 28};
    CHECK(qc_plan_create_with(&plan, 10, QC_ENGINE_EIGHTFOLD, &eight) == QC_ENOTSUP);
    CHECK(qc_plan_create(&plan, 10, QC_ENGINE_EIGHTFOLD) == QC_OK);
    case_list l = {0};
    qc_tally t;
    CHECK(qc_plan_unit_describe(plan, 0, collect, &l) == QC_ENOTSUP);
    CHECK(qc_plan_backtrack_unit(plan, 0, NULL, &t) == QC_ENOTSUP);
    CHECK(qc_plan_profile(plan) == 0);
    qc_plan_free(plan);
    plan = join_plan(10, 28);
    if (plan) {
        size_t units = qc_plan_unit_count(plan);
        CHECK(qc_plan_unit_describe(plan, units, collect, &l) == QC_EINVAL);
        CHECK(qc_plan_backtrack_unit(plan, units, NULL, &t) == QC_EINVAL);
        qc_plan_free(plan);
    }
    free(l.cases);
}

/* "U SOLUTIONS" for every unit of N's join plan under profile. */
static int print_tallies(int n, int profile)
{
    qc_plan *plan = join_plan(n, profile);
    if (!plan)
        return 2;
    for (size_t u = 0; u < qc_plan_unit_count(plan); u++) {
        qc_tally t;
        char s[48];
        if (qc_plan_count_unit(plan, u, &t) != QC_OK) {
            fprintf(stderr, "N=%d unit %zu: not counted\n", n, u);
            qc_plan_free(plan);
            return 2;
        }
        printf("%zu %s\n", u, qc_u128_format(t.solutions, s));
    }
    qc_plan_free(plan);
    return fflush(stdout) == 0 ? 0 : 2;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "tallies") == 0)
        return print_tallies(atoi(argv[2]), atoi(argv[3]));
    const int quick = argc == 3 && strcmp(argv[2], "quick") == 0;
    if (argc != 2 && !quick) {
        fprintf(stderr, "usage: %s KNOWN_TSV [quick] | %s tallies N P\n", argv[0], argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {{0, 0}};
    known_load(argv[1], known);
    const int profiles[] = {0, 25, 27, 28};
    const int last = quick ? 12 : 13;
    for (size_t p = 0; p < sizeof profiles / sizeof *profiles; p++)   /* 25, 27: to N=11 */
        for (int n = 4; n <= (profiles[p] == 25 || profiles[p] == 27 ? 11 : last); n++)
            check_plan(n, profiles[p], known[n].total);
    for (size_t p = 0; p < sizeof profiles / sizeof *profiles; p++)
        for (int n = 8; n <= 12; n += 2)
            check_mutants(n, profiles[p]);
    int compared = 0;
    for (int n = 4; n <= last; n++) {
        check_kernels(n, 0, &compared);
        check_kernels(n, 28, &compared);
    }
    CHECK(compared > 0, "no case placed a queen");
    check_refusals();
    return check_report("cases");
}
