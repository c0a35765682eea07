/* SPDX-License-Identifier: MIT */
/*
 * qcount_mpi.h — the program's MPI side (qcount_mpi.c), built when
 * CMake finds MPI into the module libqcount_mpi.so, whose entry
 * count/mpi_load.c looks up by this name.
 */
#ifndef QCC_QCOUNT_MPI_H
#define QCC_QCOUNT_MPI_H

#include "options.h"

/* Joins the MPI job (within the join timeout, threads/mpi/handshake.h), checks that
 * every rank was given the same command (refused: this rank's error
 * message, or NULL), counts opts->n across its ranks, prints on rank 0;
 * returns the exit status, or QC_MPI_RUN_HERE (mpi_load.h) on rank 0 when
 * the job agreed on a mode that rank 0 runs alone. */
int qcc_mpi_main(const qca_options *opts, const char *refused, int *argc, char ***argv);

#endif
