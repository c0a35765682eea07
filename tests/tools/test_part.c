/* SPDX-License-Identifier: MIT */
/*
 * test_part.c — the parts a plan is dealt into (tools/count/part.h): every
 * unit in exactly one part, each part a run of consecutive units, parts
 * balanced by estimated cost to within the largest unit; and the plan
 * (unit count, fingerprint, every unit's cost) and so the deal, the same
 * at every ISA level this CPU has, so that parts run on unlike machines
 * fit together.  (The thread count never reaches a plan: qc_plan_create
 * takes none.)
 * Usage: test_part N_FIRST N_LAST
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "part.h"

#define MAX_PARTS 7

static const char *const levels[] = {"portable", "avx2", "avx512", "avx512vbmi", "neon"};

/* The deal of plan into m parts, checked for coverage, order and balance. */
static void check_deal(const qc_plan *plan, uint32_t m, uint32_t *of)
{
    const size_t units = qc_plan_unit_count(plan);
    qcc_part_deal(plan, m, of);
    double cost[MAX_PARTS + 1] = {0}, total = 0, top = 0;
    size_t count[MAX_PARTS + 1] = {0};
    for (size_t u = 0; u < units; u++) {
        CHECK(of[u] >= 1 && of[u] <= m, "N=%d unit %zu in part %u of %u", qc_plan_n(plan), u,
              of[u], m);
        CHECK(u == 0 || of[u] >= of[u - 1], "N=%d M=%u: parts not consecutive at unit %zu",
              qc_plan_n(plan), m, u);
        double c = qc_plan_unit_cost(plan, u);
        cost[of[u]] += c;
        count[of[u]]++;
        total += c;
        if (c > top)
            top = c;
    }
    for (uint32_t k = 1; k <= m; k++) {
        CHECK(cost[k] <= total / m + top * 1.0001 + 1e-9 && cost[k] >= total / m - top * 1.0001 - 1e-9,
              "N=%d part %u/%u: cost %g of %g (largest unit %g)", qc_plan_n(plan), k, m, cost[k],
              total, top);
        /* qcc_part_fill agrees with the deal */
        qcc_part p = {.index = k, .count = m};
        CHECK(qcc_part_fill(plan, &p, NULL) == 0 && p.units == count[k]);
    }
}

int main(int argc, char **argv)
{
    int first = argc > 1 ? atoi(argv[1]) : 1, last = argc > 2 ? atoi(argv[2]) : 16;
    const qc_engine_id engines[] = {QC_ENGINE_JOIN, QC_ENGINE_EIGHTFOLD, QC_ENGINE_HALVING};
    qcc_part parse;
    CHECK(qcc_part_parse("2/7", &parse) == 0 && parse.index == 2 && parse.count == 7);
    CHECK(qcc_part_parse("0/7", &parse) == -1 && qcc_part_parse("8/7", &parse) == -1
          && qcc_part_parse("1/ 2", &parse) == -1 && qcc_part_parse("1/2x", &parse) == -1
          && qcc_part_parse("-1/2", &parse) == -1 && qcc_part_parse("1/+2", &parse) == -1);
    for (int n = first; n <= last; n++) {
        for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
            qc_plan *ref = NULL;
            uint32_t *ref_of[MAX_PARTS + 1] = {0};
            int tried = 0;
            for (size_t l = 0; l < sizeof levels / sizeof *levels; l++) {
                if (qc_isa_select(levels[l]) != QC_OK)
                    continue;   /* this CPU lacks it */
                qc_plan *plan;
                if (qc_plan_create(&plan, n, engines[e]) != QC_OK) {
                    CHECK(0, "N=%d %s: no plan", n, qc_engine_name(engines[e]));
                    continue;
                }
                const size_t units = qc_plan_unit_count(plan);
                if (!ref) {
                    ref = plan;
                    for (uint32_t m = 1; m <= MAX_PARTS; m++) {
                        ref_of[m] = malloc((units ? units : 1) * sizeof *ref_of[m]);
                        check_deal(plan, m, ref_of[m]);
                    }
                    tried++;
                    continue;
                }
                tried++;
                CHECK(units == qc_plan_unit_count(ref)
                      && qc_plan_fingerprint(plan) == qc_plan_fingerprint(ref),
                      "N=%d %s: the plan at %s differs from the one at portable", n,
                      qc_engine_name(engines[e]), levels[l]);
                int same_cost = units == qc_plan_unit_count(ref);
                for (size_t u = 0; same_cost && u < units; u++)
                    same_cost = qc_plan_unit_cost(plan, u) == qc_plan_unit_cost(ref, u);
                CHECK(same_cost, "N=%d %s: unit costs at %s differ", n, qc_engine_name(engines[e]),
                      levels[l]);
                uint32_t *of = malloc((units ? units : 1) * sizeof *of);
                for (uint32_t m = 1; m <= MAX_PARTS && units == qc_plan_unit_count(ref); m++) {
                    qcc_part_deal(plan, m, of);
                    CHECK(memcmp(of, ref_of[m], units * sizeof *of) == 0,
                          "N=%d %s M=%u: dealt otherwise at %s", n, qc_engine_name(engines[e]), m,
                          levels[l]);
                }
                free(of);
                qc_plan_free(plan);
            }
            CHECK(tried >= 1);
            for (uint32_t m = 1; m <= MAX_PARTS; m++)
                free(ref_of[m]);
            qc_plan_free(ref);
        }
    }
    qc_isa_select(NULL);
    return check_report("part");
}
