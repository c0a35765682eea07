/* SPDX-License-Identifier: MIT */
/*
 * job.h — the MPI job's lifetime (init, rank, size, the end) and the watch
 * on the launcher that started this rank.
 *
 * Orphans: when the launcher's process on this machine dies (mpirun or
 * orted killed with SIGKILL), Open MPI leaves the ranks running, and a
 * rank 0 left behind would go on appending to the ledger that the next run
 * wants.  So each messenger checks that its parent process is still the
 * one that started it; a worker that finds itself orphaned exits at once,
 * rank 0 stops as on a signal (qcr_mpi_orphaned() then says why).
 */
#ifndef QCR_MPI_JOB_H
#define QCR_MPI_JOB_H

/* MPI_Init_thread (FUNNELED: only the main thread talks to MPI).  Returns
 * QC_OK, or QC_EINVAL if MPI cannot give that much thread support.
 * [join timeout] When MPI_Init has not returned after timeout seconds
 * (rank 0; the others 5 s later), the process says so in one line and
 * exits with status 2. */
int qcr_mpi_init(int *argc, char ***argv, double timeout);
int qcr_mpi_rank(void);
int qcr_mpi_size(void);
void qcr_mpi_finalize(void);
/* Ends every rank of the job now (MPI_Abort) with this exit status. */
void qcr_mpi_abort(int status);

/* Nonzero once this process's parent is no longer the launcher that
 * started it (qcr_mpi_orphaned() then says so too). */
int qcr_job_lost_launcher(void);
/* Nonzero once this rank found its launcher gone (mpirun killed): then
 * qcr_mpi_count returned QC_ESTOP and MPI_Abort could hang; just exit. */
int qcr_mpi_orphaned(void);

#endif
