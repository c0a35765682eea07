/* SPDX-License-Identifier: MIT */
/*
 * queens_dlx.h — N-Queens as an exact-cover problem for the generic DLX
 * solver (dlx.c): the oracle engine `dlx`, and a solution-by-solution
 * walk for tests that compare DLX with the other engines.
 */
#ifndef QC_QUEENS_DLX_H
#define QC_QUEENS_DLX_H

#include <stdint.h>

#include "dlx.h"

/* Builds the exact-cover problem of the n-board: option r*n+c is the queen
 * on row r, column c.  NULL when out of memory or n < 1. */
qco_dlx_problem *qco_queens_dlx_build(int n);

/* Calls fn(cols, ctx) for every solution (cols[r] = column of row r's
 * queen, 0-based), in DLX's search order; fn returns nonzero to stop.
 * Returns the number of solutions visited, or -1 when out of memory. */
int64_t qco_queens_dlx_each(int n, int (*fn)(const uint32_t *cols, void *ctx), void *ctx);

#endif
