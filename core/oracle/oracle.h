/* SPDX-License-Identifier: MIT */
/*
 * oracle.h — what the oracle engines (dlx, brute) share: their work split.
 * They share nothing else, with each other or with the fast engines.
 */
#ifndef QC_ORACLE_H
#define QC_ORACLE_H

#include "plan.h"

/* The oracles' plan build: one unit per first-row column, no symmetry, no
 * engine data.  Returns QC_OK. */
int qco_build_by_first_column(qc_plan *plan);

#endif
