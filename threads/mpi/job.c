/* SPDX-License-Identifier: MIT */
/*
 * job.c — the MPI job's lifetime: init, rank, size, the end, and the watch
 * on the launcher (see job.h).
 */
#include <mpi.h>
#include <unistd.h>

#include "job.h"
#include "mpi_run.h"

static pid_t launcher_pid;   /* our parent when we started: mpirun, orted, slurmstepd */
static int orphaned;

int qct_job_lost_launcher(void)
{
    if (launcher_pid > 1 && getppid() != launcher_pid)
        orphaned = 1;
    return orphaned;
}

int qct_mpi_orphaned(void)
{
    return orphaned;
}

int qct_mpi_init(int *argc, char ***argv)
{
    launcher_pid = getppid();
    int provided = MPI_THREAD_SINGLE;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return QC_EINVAL;
    return provided >= MPI_THREAD_FUNNELED ? QC_OK : QC_EINVAL;
}

int qct_mpi_rank(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int qct_mpi_size(void)
{
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}

void qct_mpi_finalize(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

void qct_mpi_abort(int status)
{
    MPI_Abort(MPI_COMM_WORLD, status);
}
