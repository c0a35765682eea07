/* SPDX-License-Identifier: MIT */
/*
 * qcount_mpi.h — the program's MPI side (qcount_mpi.c), built when
 * CMake finds MPI into the module libqcount_mpi.so, whose entry
 * count/mpi_load.c looks up by this name.
 */
#ifndef QC_QCOUNT_MPI_H
#define QC_QCOUNT_MPI_H

#include "options.h"

/* Joins the MPI job, counts opts->n across its ranks, prints on rank 0;
 * returns the exit status. */
int qcount_mpi_main(const qc_options *opts, int *argc, char ***argv);

#endif
