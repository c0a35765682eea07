/*
 * unit.h — counting one unit of the join engine: the solutions whose top
 * half uses the unit's pattern inside the block M.
 */
#ifndef QCJ_UNIT_H
#define QCJ_UNIT_H

#include <stddef.h>

#include "join.h"
#include "qcount.h"
#include "scratch.h"

/* Counts unit `unit` (< p->units) into *out with the working memory sc,
 * reading the thread's stop flag (qck_stop_flag, kernel.h) once per column
 * set and during band building.  Returns QC_OK; QC_ENOMEM when out of
 * memory; QC_ESTOP when the stop flag cut the unit short.  *out is written
 * only on QC_OK. */
int qcj_count_unit(const qcj_plan *p, size_t unit, qcj_scratch *sc, qc_tally *out);

#endif
