/* SPDX-License-Identifier: MIT */
/*
 * test_todo.c — a run's to-do list (unit_step.h): the units unit_known
 * does not hold, one bit each, found again in plan order by
 * qct_todo_next, across word edges and at the plan's end; the known ones'
 * tallies summed.
 */
#include <stdlib.h>

#include "check.h"
#include "unit_step.h"

/* A unit is known when its bit of the pattern's mask is set: units
 * u with (pattern >> (u % 97)) & 1, a period prime to 64. */
typedef struct known_by {
    uint64_t lo, hi;          /* 128 bits: the pattern over u % 97 */
} known_by;

static int is_known(const known_by *k, size_t u)
{
    const size_t b = u % 97;
    return (int)((b < 64 ? k->lo >> b : k->hi >> (b - 64)) & 1);
}

static int unit_known(void *ctx, size_t unit, qc_tally *out)
{
    if (!is_known(ctx, unit))
        return 0;
    out->solutions = unit + 1;
    out->steps = 2 * unit;
    return 1;
}

/* Walks t with qct_todo_next and checks every unit found, and only those,
 * against the pattern; returns how many it found. */
static size_t walk(const qct_todo *t, const known_by *k, size_t units)
{
    size_t found = 0, expect = 0;
    for (size_t u = qct_todo_next(t, 0); u < units; u = qct_todo_next(t, u + 1)) {
        while (expect < u) {
            CHECK(is_known(k, expect), "units %zu: unit %zu passed over", units, expect);
            expect++;
        }
        CHECK(!is_known(k, u), "units %zu: known unit %zu found", units, u);
        CHECK(qct_todo_has(t, u));
        expect = u + 1;
        found++;
    }
    while (expect < units) {
        CHECK(is_known(k, expect), "units %zu: unit %zu after the last found", units, expect);
        expect++;
    }
    CHECK(qct_todo_next(t, units) == units && qct_todo_next(t, units + 100) == units);
    CHECK(!qct_todo_has(t, units) && !qct_todo_has(t, units + 1000));
    return found;
}

static void check_pattern(const known_by *k, size_t units)
{
    qc_run_options opts = {.size = sizeof opts, .unit_known = unit_known, .hook_ctx = (void *)k};
    qct_todo t;
    qc_tally known;
    size_t resumed;
    CHECK(qct_todo_open(&t, &opts, units, &known, &resumed) == QC_OK);
    qc_tally want = {0};
    size_t want_resumed = 0;
    for (size_t u = 0; u < units; u++)
        if (is_known(k, u)) {
            want.solutions += u + 1;
            want.steps += 2 * u;
            want_resumed++;
        }
    CHECK(resumed == want_resumed && known.solutions == want.solutions
              && known.steps == want.steps,
          "units %zu: %zu resumed, want %zu", units, resumed, want_resumed);
    CHECK(t.count == units - want_resumed);
    CHECK(walk(&t, k, units) == t.count, "units %zu", units);
    qct_todo_close(&t);
    CHECK(t.bits == NULL && t.count == 0);
}

int main(void)
{
    const known_by patterns[] = {
        {0, 0},                                   /* nothing known */
        {~(uint64_t)0, ~(uint64_t)0},             /* all known */
        {0x5555555555555555u, 0xaaaaaaaaaaaaaaaau},
        {(uint64_t)1 << 63, 1},                   /* one known each side of 64 */
        {~((uint64_t)1 << 5), ~(uint64_t)0},      /* all but one in 97 */
    };
    const size_t sizes[] = {0, 1, 63, 64, 65, 127, 128, 129, 1000, 4096, 100003};
    for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            check_pattern(&patterns[p], sizes[s]);

    /* no hooks: every unit is to count */
    qct_todo t;
    qc_tally known;
    size_t resumed;
    CHECK(qct_todo_open(&t, NULL, 200, &known, &resumed) == QC_OK);
    CHECK(t.count == 200 && resumed == 0 && known.solutions == 0);
    for (size_t u = 0; u < 200; u++)
        CHECK(qct_todo_next(&t, u) == u);
    qct_todo_close(&t);
    return check_report("todo");
}
