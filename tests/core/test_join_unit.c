/* SPDX-License-Identifier: MIT */
/*
 * test_join_unit.c — one unit of the join engine's plan counted whole by
 * the byte tables at the running level and by the AND loop at the
 * portable level (qc_plan_recount_unit), which share no pair-counting
 * code: the same solutions.  For the boards too big to count whole here
 * (N=25: the wide tables against the AND loop).
 * Usage: test_join_unit N UNIT (UNIT: an index, or "last")
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qcount.h"
#include "check.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s N UNIT\n", argv[0]);
        return 2;
    }
    qc_plan *plan;
    if (qc_plan_create(&plan, atoi(argv[1]), QC_ENGINE_JOIN) != QC_OK) {
        fprintf(stderr, "no plan\n");
        return 2;
    }
    const size_t u = !strcmp(argv[2], "last") ? qc_plan_unit_count(plan) - 1 : strtoul(argv[2], NULL, 10);
    qc_tally tables, and_loop;
    const char *how = "";
    CHECK(qc_plan_count_unit(plan, u, &tables) == QC_OK, "unit %zu by the tables", u);
    CHECK(qc_plan_recount_unit(plan, u, &and_loop, &how) == QC_OK, "unit %zu by the AND loop", u);
    char a[40], b[40];
    printf("n=%s unit %zu: tables (%s) %s, %s %s\n", argv[1], u, qc_isa_name(),
           qc_u128_format(tables.solutions, a), how, qc_u128_format(and_loop.solutions, b));
    CHECK(tables.solutions == and_loop.solutions && tables.solutions > 0, "they differ");
    qc_plan_free(plan);
    return check_report("join unit");
}
