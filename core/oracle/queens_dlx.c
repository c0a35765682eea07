/* SPDX-License-Identifier: MIT */
/*
 * queens_dlx.c — the `dlx` engine: N-Queens through the generic exact-cover
 * solver, an oracle that shares no code with the bitmask engines.
 *
 * The encoding (Knuth, "Dancing Links", section on the N-queens problem):
 * one option per square (r, c), covering four items:
 *   primary   R_r  (row r has a queen)           items 0 .. n-1
 *   primary   C_c  (column c has a queen)        items n .. 2n-1
 *   secondary A_{r+c}      (the / diagonal)      items 2n .. 4n-2
 *   secondary B_{r-c+n-1}  (the \ diagonal)      items 4n-1 .. 6n-3
 * Rows and columns must hold exactly one queen, diagonals at most one.
 *
 * Work units: one per first-row column c (unit c selects the option (0, c)
 * before the search), no symmetry, each solution counted once.
 */
#include <stdlib.h>

#include "oracle.h"
#include "queens_dlx.h"

qco_dlx_problem *qco_queens_dlx_build(int n)
{
    if (n < 1)
        return NULL;
    qco_dlx_problem *d = qco_dlx_create(2 * n, 2 * (2 * n - 1));
    if (!d)
        return NULL;
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            int items[4] = {r, n + c, 2 * n + r + c, 2 * n + (2 * n - 1) + r - c + n - 1};
            if (qco_dlx_add_option(d, items, 4) != r * n + c) {
                qco_dlx_free(d);
                return NULL;
            }
        }
    }
    return d;
}

typedef struct each_ctx {
    int n;
    uint32_t *cols;
    int (*fn)(const uint32_t *cols, void *ctx);
    void *ctx;
} each_ctx;

static int each_solution(const int *options, int count, void *arg)
{
    each_ctx *e = arg;
    for (int k = 0; k < count; k++)            /* option r*n+c: row r, column c */
        e->cols[options[k] / e->n] = (uint32_t)(options[k] % e->n);
    return e->fn(e->cols, e->ctx);
}

int64_t qco_queens_dlx_each(int n, int (*fn)(const uint32_t *cols, void *ctx), void *ctx)
{
    qco_dlx_problem *d = qco_queens_dlx_build(n);
    uint32_t *cols = malloc((size_t)(n > 0 ? n : 1) * sizeof *cols);
    if (!d || !cols) {
        qco_dlx_free(d);
        free(cols);
        return -1;
    }
    each_ctx e = {.n = n, .cols = cols, .fn = fn, .ctx = ctx};
    int64_t found = (int64_t)qco_dlx_search(d, each_solution, &e, NULL);
    qco_dlx_free(d);
    free(cols);
    return found;
}

/* Unit c: the solutions with the first-row queen on column c.  The problem
 * is built afresh per call, so calls share nothing (thread-safe). */
static int dlx_engine_count_unit(const qc_plan *plan, size_t unit, qc_tally *out)
{
    qco_dlx_problem *d = qco_queens_dlx_build(plan->n);
    if (!d)
        return QC_ENOMEM;   /* a few kB at N <= 32, but still */
    uint64_t choices = 0, found = 0;
    if (qco_dlx_select(d, (int)unit) == 0)
        found = qco_dlx_search(d, NULL, NULL, &choices);
    qco_dlx_free(d);
    out->solutions = found;
    out->steps = choices + 1;             /* the selected queen too */
    return QC_OK;
}

static void dlx_engine_release(qc_plan *plan)
{
    (void)plan;
}

const qci_engine_ops qco_dlx_ops = {
    .name = "dlx",
    .build = qco_build_by_first_column,
    .count_unit = dlx_engine_count_unit,
    .release = dlx_engine_release,
};
