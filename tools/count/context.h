/* SPDX-License-Identifier: MIT */
/*
 * context.h — what a result was counted with, for --json's "context"
 * object (as Google Benchmark's context block) and for --version: the
 * version, the instruction set the engines run with, the build's
 * features, the host, the date.
 */
#ifndef QC_CONTEXT_H
#define QC_CONTEXT_H

#include <stdio.h>

#include "options.h"

/* The instruction-set level the engines' kernels run at ("portable",
 * "avx2", "avx512", "avx512vbmi", "neon": qc_isa_name): the one place that says it ([isa
 * level]). */
const char *qcc_context_isa(void);

/* Prints ", \"context\": {...}" to out: version, isa, march, bind (from
 * opts), OpenMP and hwloc versions, MPI, host, cpus, and the date now in
 * ISO 8601 UTC. */
void qcc_context_json(FILE *out, const qca_options *opts);

/* The GNU-style --version text: name and version, licence, and the build's
 * features (MPI, ISA level, OpenMP, hwloc). */
void qcc_context_version(FILE *out);

#endif
