/* SPDX-License-Identifier: MIT */
/*
 * job.h — the MPI job's lifetime (qct_mpi_init .. qct_mpi_finalize, in
 * mpi_run.h) and the watch on the launcher that started this rank.
 *
 * Orphans: when the launcher's process on this machine dies (mpirun or
 * orted killed with SIGKILL), Open MPI leaves the ranks running, and a
 * rank 0 left behind would go on appending to the ledger that the next run
 * wants.  So each messenger checks that its parent process is still the
 * one that started it; a worker that finds itself orphaned exits at once,
 * rank 0 stops as on a signal (qct_mpi_orphaned() then says why).
 */
#ifndef QCT_MPI_JOB_H
#define QCT_MPI_JOB_H

/* Nonzero once this process's parent is no longer the launcher that
 * started it (qct_mpi_orphaned() then says so too). */
int qct_job_lost_launcher(void);

#endif
