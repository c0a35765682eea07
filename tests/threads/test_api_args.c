/* SPDX-License-Identifier: MIT */
/*
 * test_api_args.c — every public function given NULL pointers, sizes out
 * of range and columns off the board: QC_EINVAL (or the documented 0 or
 * -QC_EINVAL), outputs zeroed or untouched as the headers say, no crash;
 * and the same calls with good arguments still working beside them.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "qcount.h"
#include "qcount_solutions.h"

/* the first id past the public engines: names none */
#define NO_ENGINE ((qc_engine_id)(QC_ENGINE_BRUTE + 1))

static const uint32_t sol8[8] = {0, 4, 7, 5, 2, 6, 1, 3};   /* 1 5 8 6 3 7 2 4 */

static void formatting_and_engines(void)
{
    char buf[40];
    CHECK(qc_u128_format(12345, NULL) == NULL);
    CHECK(qc_u128_format(12345, buf) == buf && strcmp(buf, "12345") == 0);
    qc_engine_id e = QC_ENGINE_HALVING;
    CHECK(qc_engine_lookup("join", NULL) == QC_EINVAL);
    CHECK(qc_engine_lookup(NULL, &e) == QC_EINVAL && e == QC_ENGINE_HALVING);
    CHECK(qc_engine_lookup("nope", &e) == QC_EINVAL);
    CHECK(qc_engine_lookup("join", &e) == QC_OK && e == QC_ENGINE_JOIN);
    CHECK(qc_engine_name((qc_engine_id)-1) == NULL && qc_engine_name(NO_ENGINE) == NULL);
    CHECK(qc_engine_default(INT_MIN) < NO_ENGINE && qc_engine_default(INT_MAX) < NO_ENGINE);
    CHECK(qc_isa_select("garbage") == QC_EINVAL);
    CHECK(qc_isa_select(NULL) == QC_OK);
}

static void plans(void)
{
    qc_plan *p = (qc_plan *)&p;   /* set to NULL on an error */
    CHECK(qc_plan_create(NULL, 8, QC_ENGINE_HALVING) == QC_EINVAL);
    CHECK(qc_plan_create(&p, 0, QC_ENGINE_HALVING) == QC_EINVAL && p == NULL);
    p = (qc_plan *)&p;
    CHECK(qc_plan_create(&p, QC_N_MAX + 1, QC_ENGINE_HALVING) == QC_EINVAL && p == NULL);
    CHECK(qc_plan_create(&p, 8, NO_ENGINE) == QC_EINVAL && p == NULL);
    CHECK(qc_plan_create(&p, 8, (qc_engine_id)-3) == QC_EINVAL && p == NULL);
    qc_plan_free(NULL);
    /* a NULL plan's accessors */
    CHECK(qc_plan_n(NULL) == 0 && qc_plan_unit_count(NULL) == 0 && qc_plan_fingerprint(NULL) == 0);
    CHECK(qc_plan_engine(NULL) == NO_ENGINE);
    CHECK(qc_plan_unit_cost(NULL, 0) == 0);
    qc_tally t = {.solutions = 7, .steps = 7};
    CHECK(qc_plan_count_unit(NULL, 0, &t) == QC_EINVAL && t.solutions == 0 && t.steps == 0);
    CHECK(qc_plan_count_unit_until(NULL, 0, NULL, &t) == QC_EINVAL);
    const char *how = NULL;
    CHECK(qc_plan_recount_unit(NULL, 0, &t, &how) == QC_EINVAL && how && strcmp(how, "none") == 0);

    CHECK(qc_plan_create(&p, 8, QC_ENGINE_HALVING) == QC_OK && p);
    if (!p)
        return;
    size_t units = qc_plan_unit_count(p);
    CHECK(units > 0 && qc_plan_n(p) == 8 && qc_plan_engine(p) == QC_ENGINE_HALVING);
    CHECK(qc_plan_count_unit(p, 0, NULL) == QC_EINVAL);
    CHECK(qc_plan_count_unit_until(p, 0, NULL, NULL) == QC_EINVAL);
    CHECK(qc_plan_recount_unit(p, 0, NULL, NULL) == QC_EINVAL);
    t.solutions = 5;
    CHECK(qc_plan_count_unit(p, units, &t) == QC_EINVAL && t.solutions == 0);
    CHECK(qc_plan_count_unit(p, SIZE_MAX, &t) == QC_EINVAL);
    CHECK(qc_plan_unit_cost(p, units) == 0 && qc_plan_unit_cost(p, 0) > 0);
    /* and the good calls still add up */
    qc_u128 sum = 0;
    for (size_t u = 0; u < units; u++) {
        CHECK(qc_plan_count_unit(p, u, &t) == QC_OK);
        sum += t.solutions;
    }
    CHECK(sum == 92, "sum of the units of N=8: %llu", (unsigned long long)sum);

    /* runs */
    qc_result r;
    qc_run_options o = {.size = sizeof o};
    CHECK(qc_run(NULL, NULL, &r) == QC_EINVAL);
    CHECK(qc_run(p, NULL, NULL) == QC_EINVAL);
    o.threads = -1;
    CHECK(qc_run(p, &o, &r) == QC_EINVAL);
    o.threads = QC_THREADS_MAX + 1;
    CHECK(qc_run(p, &o, &r) == QC_EINVAL);
    o.threads = INT_MAX;
    CHECK(qc_run(p, &o, &r) == QC_EINVAL);
    o.threads = 1;
    o.bind = 0x40;
    CHECK(qc_run(p, &o, &r) == QC_EINVAL);
    o.bind = QC_BIND_PIN;
    CHECK(qc_run(p, &o, &r) == QC_OK && r.total == 92);
    qc_plan_free(p);
}

static void symmetric_counts(void)
{
    qc_u128 r90 = 0, r180 = 0;
    CHECK(qc_symmetric_counts(8, NULL, NULL, NULL) == QC_EINVAL);
    CHECK(qc_symmetric_counts(8, &r90, NULL, NULL) == QC_EINVAL);
    CHECK(qc_symmetric_counts(8, NULL, &r180, NULL) == QC_EINVAL);
    CHECK(qc_symmetric_counts(0, &r90, &r180, NULL) == QC_EINVAL);
    CHECK(qc_symmetric_counts(33, &r90, &r180, NULL) == QC_EINVAL);
    CHECK(qc_symmetric_counts(8, &r90, &r180, NULL) == QC_OK);
    CHECK(qc_fundamental_count(8, 92, r90, r180) == 12);
    CHECK(qc_fundamental_count(0, 92, r90, r180) == 0 && qc_fundamental_count(33, 92, 0, 0) == 0);
}

static void topology(void)
{
    char buf[256];
    CHECK(qc_topology_cpus(-1, QC_BIND_PIN, buf, sizeof buf) == -QC_EINVAL);
    CHECK(qc_topology_cpus(0, 0, NULL, 64) == -QC_EINVAL);
    CHECK(qc_topology_cpus(0, 0x10, buf, sizeof buf) == -QC_EINVAL);
    int k = qc_topology_cpus(0, QC_BIND_PIN, NULL, 0);   /* the count alone */
    CHECK(k >= 0 && k == qc_topology_cpus(0, QC_BIND_PIN, buf, sizeof buf));
    CHECK(qc_topology_cores() >= 1);
}

static void enumeration(void)
{
    qc_enum *it = (qc_enum *)&it;
    uint32_t cols[QC_N_MAX];
    CHECK(qc_enum_create(NULL, 8) == QC_EINVAL);
    CHECK(qc_enum_create(&it, 0) == QC_EINVAL && it == NULL);
    CHECK(qc_enum_create(&it, 33) == QC_EINVAL && it == NULL);
    CHECK(qc_enum_next(NULL, cols) == 0 && qc_enum_placements(NULL) == 0
          && qc_enum_steps(NULL) == 0);
    qc_enum_free(NULL);
    CHECK(qc_enum_create(&it, 8) == QC_OK && it);
    if (!it)
        return;
    CHECK(qc_enum_next(it, NULL) == 0);
    CHECK(qc_enum_next(it, cols) == 1 && memcmp(cols, sol8, sizeof sol8) == 0);
    qc_enum_free(it);
}

static void single_solutions(void)
{
    uint32_t out[QC_N_MAX], bad[8];
    memcpy(bad, sol8, sizeof sol8);
    bad[3] = 8;                           /* off the board */
    memset(out, 0xab, sizeof out);
    CHECK(qc_solution_transform(8, NULL, 0, out) == QC_EINVAL);
    CHECK(qc_solution_transform(8, sol8, 0, NULL) == QC_EINVAL);
    CHECK(qc_solution_transform(8, sol8, -1, out) == QC_EINVAL);
    CHECK(qc_solution_transform(8, sol8, QC_SYMMETRIES, out) == QC_EINVAL);
    CHECK(qc_solution_transform(8, bad, 1, out) == QC_EINVAL);
    CHECK(qc_solution_transform(SIZE_MAX, sol8, 1, out) == QC_EINVAL);
    CHECK(qc_solution_transform(8, out, 1, out) == QC_EINVAL);   /* aliased */
    CHECK(out[0] == 0xababababu, "out written on an error");
    CHECK(qc_solution_transform(8, sol8, 0, out) == QC_OK && memcmp(out, sol8, sizeof sol8) == 0);

    CHECK(qc_solution_canonical(33, sol8, out) == -QC_EINVAL);
    CHECK(qc_solution_canonical(0, sol8, out) == -QC_EINVAL);
    CHECK(qc_solution_canonical(8, NULL, out) == -QC_EINVAL);
    CHECK(qc_solution_canonical(8, sol8, NULL) == -QC_EINVAL);
    CHECK(qc_solution_canonical(8, bad, out) == -QC_EINVAL);
    CHECK(qc_solution_canonical(8, sol8, out) == 8);

    qc_attack a = {1, 2, QC_LINE_COLUMN};
    CHECK(qc_solution_verify(SIZE_MAX, sol8, &a) == QC_EINVAL && a.row_a == 1 && a.row_b == 2);
    CHECK(qc_solution_verify(8, NULL, &a) == QC_EINVAL);
    CHECK(qc_solution_verify(8, sol8, NULL) == QC_EINVAL);
    CHECK(qc_solution_verify(8, bad, &a) == QC_EINVAL);
    CHECK(qc_solution_verify(0, NULL, &a) == QC_OK && a.line == QC_LINE_NONE);
    CHECK(qc_solution_verify(8, sol8, &a) == QC_OK && a.line == QC_LINE_NONE);

    CHECK(qc_construct(8, NULL) == QC_EINVAL);
    CHECK(qc_construct(2, out) == QC_EINVAL && qc_construct(0, out) == QC_EINVAL);
    CHECK(qc_construct(8, out) == QC_OK && qc_solution_verify(8, out, &a) == QC_OK && a.line == QC_LINE_NONE);

    qc_minconflicts_stats st;
    CHECK(qc_minconflicts(8, 1, NULL, &st) == QC_EINVAL);
    CHECK(qc_minconflicts(3, 1, out, &st) == QC_EINVAL);
    CHECK(qc_minconflicts(((size_t)1 << 31) + 1, 1, out, NULL) == QC_EINVAL);
    CHECK(qc_minconflicts(8, 1, out, NULL) == QC_OK && qc_solution_verify(8, out, &a) == QC_OK
          && a.line == QC_LINE_NONE);
}

int main(void)
{
    formatting_and_engines();
    plans();
    symmetric_counts();
    topology();
    enumeration();
    single_solutions();
    return check_report("api_args");
}
