/* SPDX-License-Identifier: MIT */
/*
 * report.h — printing a finished count, the same for a plain run and for
 * rank 0 of an MPI job: the bare total (and, with --unique, the fundamental
 * count) on stdout; one line "N total [unique]" of a range's table, or
 * "N a(N)" with --format=bfile; or one JSON object a line; --stats on
 * stderr; with --check, the comparison with the published counts.
 */
#ifndef QC_REPORT_H
#define QC_REPORT_H

#include <stdio.h>

#include "options.h"

/* Prints r, the count of opts->n, and with --unique its fundamental count
 * `unique` (qcc_longrun_unique), as opts asks.  json_extra, when set,
 * appends fields to the JSON object (it prints ", \"key\": value..." to
 * out: an MPI job's ranks); without it the count ran in this process, and
 * the JSON object gives the CPUs its threads ran on, r->cpus and
 * r->cpu_count ("cpus": "0-3", "cpu_count": 4).  The JSON's
 * cpu_seconds are the run's (qc_result.cpu_seconds: this process's CPU
 * time over the interval of seconds).  Returns 0; 1 when --check found a count that differs from the
 * published one (named on stderr); or 2 with a one-line message on stderr
 * when stdout cannot be written. */
int qcc_report_result(const qca_options *opts, const qc_result *r, qc_u128 unique,
                      void (*json_extra)(FILE *out, void *ctx), void *ctx);

#endif
