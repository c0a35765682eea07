/* SPDX-License-Identifier: MIT */
/*
 * range.h — counting in this process: one board size, or each of a range
 * FIRST-LAST in turn, every one as a long run (longrun.h) and reported
 * (report.h) as soon as it is counted.
 */
#ifndef QC_RANGE_H
#define QC_RANGE_H

#include "options.h"

/* Counts opts->n to opts->n_last, each N with its own default engine
 * unless --engine was given, and prints each result.  Stops at the first
 * N that fails, is stopped, or differs from the published count under
 * --check.  Returns the exit status: 0, 1 (--check found a difference),
 * 2 (an error, said on stderr) or 128+signal. */
int qcc_range_count(const qca_options *opts);

#endif
