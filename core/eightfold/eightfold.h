/* SPDX-License-Identifier: MIT */
/*
 * eightfold.h — the eightfold engine's unit count with its stop-check
 * depth as a parameter: the engine counts with QCE_STOP_ROWS (config.h);
 * the tests count with other depths, so that small boards take the
 * [deep seeds] too.
 */
#ifndef QC_EIGHTFOLD_H
#define QC_EIGHTFOLD_H

#include "plan.h"

/* Counts unit `unit` of an eightfold plan into *out as the engine's
 * count_unit does, with [deep seeds] spanning the last stop_rows rows
 * under a stop flag (kernel.h).  Returns QC_OK; QC_ESTOP when the thread's
 * stop flag was raised before the count ended (*out then holds the partial
 * tally, to be dropped); QC_EINVAL when plan is not an eightfold plan,
 * unit is out of range or stop_rows < 2. */
int qce_count_unit_with(const qc_plan *plan, size_t unit, int stop_rows, qc_tally *out);

#endif
