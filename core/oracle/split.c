/* SPDX-License-Identifier: MIT */
/* split.c — the oracle engines' work split: one unit per first-row column. */
#include "fingerprint.h"
#include "oracle.h"

int qco_build_by_first_column(qc_plan *plan)
{
    plan->unit_count = (size_t)plan->n;
    uint64_t h = qc_fingerprint_mix(0, (uint64_t)plan->engine);
    plan->fingerprint = qc_fingerprint_mix(h, (uint64_t)plan->n);
    plan->engine_data = NULL;
    return QC_OK;
}
