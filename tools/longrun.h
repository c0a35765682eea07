/*
 * longrun.h — what makes a long count safe to leave running: the
 * checkpoint ledger, the progress line and clean stops on SIGINT/SIGTERM,
 * wrapped around qc_run for the qcount program.
 */
#ifndef QC_LONGRUN_H
#define QC_LONGRUN_H

#include <stddef.h>

#include "options.h"

/* Counts plan as opts asks.  Returns 0 with *result filled; or an exit
 * status with a one-line message in msg: 2 for an error (a bad or
 * unwritable ledger), 130 or 143 when SIGINT or SIGTERM stopped the count
 * (msg says how many units the ledger holds, or that the work is lost). */
int qc_longrun(const qc_options *opts, const qc_plan *plan, qc_result *result,
               char *msg, size_t msglen);

#endif
