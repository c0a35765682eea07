/* SPDX-License-Identifier: MIT */
/*
 * mpi_run.h — whether this process is a rank of an MPI run: the variables
 * its launcher (mpirun, srun) set, read without MPI.  Keeps the launcher
 * checks alone (static inline, no object file), so that the program can ask
 * them in every build: a plain `qcount 16` never calls MPI_Init and never
 * loads a transport; only a process started by a launcher loads the MPI
 * module (tools/count/mpi_load.h) and joins the job.  The MPI side itself
 * is threads/mpi/: count.h (one plan over the ranks), job.h (the job's
 * lifetime), handshake.h (the ranks' agreement on the command).
 */
#ifndef QCT_MPI_RUN_H
#define QCT_MPI_RUN_H

#include <stdlib.h>

/* A launcher variable's value: a decimal integer 0..2^20 with nothing
 * around it, or -1 (unset, empty, not a number, too big). */
static inline long qct_launcher_number(const char *name)
{
    const char *v = name ? getenv(name) : NULL;
    if (!v || !*v)
        return -1;
    long n = 0;
    for (; *v; v++) {
        if (*v < '0' || *v > '9' || n > (1L << 20))
            return -1;
        n = n * 10 + (*v - '0');
    }
    return n;
}

/* A launcher-side setting in seconds: `fallback` when the variable is
 * unset or empty, its value when a number from lo to hi, else -1 (for the
 * caller to refuse, naming it). */
static inline double qct_launcher_seconds(const char *name, double fallback, long lo, long hi)
{
    const char *set = getenv(name);
    if (!set || !*set)
        return fallback;
    const long v = qct_launcher_number(name);
    return v >= lo && v <= hi ? (double)v : -1;
}

/* This process's rank as its MPI launcher announced it in the environment,
 * or -1 when no launcher started it.  A rank counts only with the job's
 * size beside it, both numbers and rank < size, so that variables left
 * over in an environment (a copied shell, a script started from a job)
 * never make a plain count join a job that is not there:
 *   Open MPI          OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE
 *   MPICH/Hydra, srun --mpi=pmi2    PMI_RANK, PMI_SIZE
 *   PMIx (srun --mpi=pmix)          PMIX_RANK, SLURM_STEP_NUM_TASKS
 * QCOUNT_MPI=0 in the environment forces -1: a plain count, e.g. from a
 * script that an MPI launcher started. */
static inline int qct_mpi_launcher_job(long *size_out)
{
    static const char *const vars[][2] = {
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
        {"PMI_RANK", "PMI_SIZE"},
        {"PMIX_RANK", "SLURM_STEP_NUM_TASKS"},
    };
    const char *force = getenv("QCOUNT_MPI");
    if (force && force[0] == '0' && force[1] == '\0')
        return -1;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        long rank = qct_launcher_number(vars[i][0]);
        long size = qct_launcher_number(vars[i][1]);
        if (rank >= 0 && rank < size) {
            if (size_out)
                *size_out = size;
            return (int)rank;
        }
    }
    return -1;
}

static inline int qct_mpi_launcher_rank(void)
{
    return qct_mpi_launcher_job(NULL);
}

/* The job's size beside qct_mpi_launcher_rank, or 0 when none. */
static inline long qct_mpi_launcher_size(void)
{
    long size = 0;
    return qct_mpi_launcher_job(&size) >= 0 ? size : 0;
}

#endif
