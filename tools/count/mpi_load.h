/* SPDX-License-Identifier: MIT */
/*
 * mpi_load.h — the program's way into its MPI module (libqcount_mpi.so,
 * count/qcount_mpi.c with threads/mpi/), loaded only when an MPI launcher
 * started the program, so that a plain count never loads libmpi.
 */
#ifndef QCC_MPI_LOAD_H
#define QCC_MPI_LOAD_H

#include "options.h"

/* qcc_mpi_load_main's answer to rank 0 when the job agreed on a mode that
 * one process runs (--help, --version, --list, --solve, --verify): the
 * MPI job is over, and the caller runs the mode. */
enum { QC_MPI_RUN_HERE = -1 };

/* Loads the MPI module from beside the program (the build tree's
 * lib/qcount/, or the installed lib/qcount/ found from the program's own
 * path) and runs its qcc_mpi_main: joins the job, checks that every
 * rank was given the same mode and options (refused: the command line's
 * error message, or NULL), and counts opts->n across its ranks, printing
 * on rank 0.  Returns the exit status, or QC_MPI_RUN_HERE; 2 with one
 * line on stderr (rank 0's) when the module is missing, cannot be loaded,
 * or the build has none. */
int qcc_mpi_load_main(const qca_options *opts, const char *refused, int *argc, char ***argv);

#endif
