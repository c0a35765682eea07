/* SPDX-License-Identifier: MIT */
/*
 * dlx.h — a generic exact-cover solver: Knuth's Algorithm X with dancing
 * links ("Dancing Links", 2000).  Nothing here knows about queens.
 *
 * A problem has items (columns) and options (rows); each option is a set of
 * items.  Primary items must be covered exactly once, secondary items at
 * most once.  A solution is a set of options that does this.  Items are
 * numbered 0..primary-1 (primary) and primary..primary+secondary-1
 * (secondary); options are numbered in the order they are added.
 *
 * The solver is pure: no I/O; each solution goes to a callback.  One solver
 * object is not thread-safe (the search edits its links and restores them);
 * build one per thread.
 */
#ifndef QC_DLX_H
#define QC_DLX_H

#include <stdint.h>

typedef struct qco_dlx_problem qco_dlx_problem;

/* A new empty problem; NULL when out of memory or the sizes are negative. */
qco_dlx_problem *qco_dlx_create(int primary, int secondary);
void qco_dlx_free(qco_dlx_problem *d);

/* Adds an option covering `count` distinct items; returns its number (>= 0),
 * or -1 when an item is out of range, repeated, or memory runs out. */
int qco_dlx_add_option(qco_dlx_problem *d, const int *items, int count);

/* Chooses `option` before the search, as if the search had picked it: the
 * search then only completes partial solutions that contain it.  Returns 0,
 * or -1 when the option clashes with one chosen before (or is unknown). */
int qco_dlx_select(qco_dlx_problem *d, int option);

/* Called once per solution with the chosen options (the selected ones
 * first, then in search order); return nonzero to stop the search. */
typedef int (*qco_dlx_solution_fn)(const int *options, int count, void *ctx);

/* Runs Algorithm X (item to cover: the primary item with the fewest
 * options left, the first such on ties).  Returns the number of solutions
 * found (all of them, unless the callback stopped the search), calling
 * on_solution (may be NULL) for each.  *choices (may be NULL) gets the
 * number of options the search tried, its measure of work.  The links are
 * restored afterwards: the search can be run again. */
uint64_t qco_dlx_search(qco_dlx_problem *d, qco_dlx_solution_fn on_solution, void *ctx, uint64_t *choices);

#endif
