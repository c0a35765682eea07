/* SPDX-License-Identifier: MIT */
/*
 * mpi_run.h — counting one plan across the ranks of an MPI job.
 *
 * Hybrid: one rank per machine (or NUMA node), a team of threads inside each
 * rank.  Rank 0 owns the list of units still to count and hands them out on
 * request (pull-based: a slow or busy machine simply asks less often); every
 * rank, rank 0 included, counts with its own threads and sends each unit's
 * tally back, and rank 0 sums them (and records them in a checkpoint ledger
 * when given one).  See mpi/protocol.h for the protocol.
 *
 * The launcher check below needs no MPI, so the program can ask it in every
 * build: a plain `qcount 16` never calls MPI_Init and never loads a
 * transport; only a process started by mpirun/srun joins the job.
 */
#ifndef QC_MPI_RUN_H
#define QC_MPI_RUN_H

#include <stdlib.h>

#include "qcount.h"

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

#ifdef QC_HAVE_MPI

#include <stdint.h>

/* What one rank did, for the imbalance report. */
typedef struct qct_mpi_rank_stats {
    int rank;
    int threads;            /* counting threads                             */
    size_t units;           /* units this rank counted                      */
    double busy_seconds;    /* summed over its threads: time inside units   */
    double wall_seconds;    /* from the first hand-out to its last result   */
    qc_u128 placements;
    char host[64];
} qct_mpi_rank_stats;

typedef struct qct_mpi_result {
    qc_result total;        /* as qc_run's; threads = all ranks' threads    */
    int ranks;
    int alone;              /* rank 0 returned at once, without the other
                               ranks: the caller must end the job           */
    qct_mpi_rank_stats *per_rank;   /* [ranks] on rank 0, NULL elsewhere    */
    /* [silence] on rank 0: */
    int silent;             /* ranks still silent as the count ended: then
                               alone is set and per_rank holds rank 0's
                               stats alone (the others have threads = 0)   */
    int ever_silent;        /* ranks ever taken for silent                  */
    int first_silent;       /* the first of them, or -1                     */
    size_t handed_again;    /* units they held, handed to other ranks       */
    size_t repeats;         /* tallies of those that came twice, the same   */
    double silence;         /* the timeout, seconds                         */
} qct_mpi_result;

/* [join timeout] How long a rank waits for the others to start, in
 * seconds: QCOUNT_MPI_TIMEOUT (1 to 3600), QCT_JOIN_TIMEOUT_DEFAULT when
 * it is unset or empty, or -1 for any other value. */
#define QCT_JOIN_TIMEOUT_DEFAULT 20.0
double qct_mpi_join_timeout(void);

/* [silence] How long rank 0 waits on a worker it hears nothing from (no
 * tally, no heartbeat: protocol.h) before it hands that worker's units to
 * the other ranks, in seconds: QCOUNT_MPI_SILENCE (3 to 3600), the default
 * when unset or empty, or -1 for any other value.  10 s by default: ten
 * missed heartbeats, far beyond a busy machine's scheduling delays or a
 * congested link, so only a stopped, swapped-out or cut-off rank is taken
 * for lost, and short enough that a job loses a minute at most (with
 * qcount-mpirun's TCP keepalive, Open MPI itself notices a lost host in
 * 9 to 14 s).  A rank taken for lost that speaks again is heard: its
 * tallies of units already counted elsewhere are checked, never added. */
#define QCT_SILENCE_DEFAULT 10.0
double qct_mpi_silence(void);

/* MPI_Init_thread (FUNNELED: only the main thread talks to MPI).  Returns
 * QC_OK, or QC_EINVAL if MPI cannot give that much thread support.  When
 * MPI_Init has not returned after timeout seconds (rank 0; the others 5 s
 * later), the process says so in one line and exits with status 2. */
int qct_mpi_init(int *argc, char ***argv, double timeout);

/* The longest summary qct_mpi_handshake compares, its NUL included. */
#define QCT_SUMMARY_MAX 1024
/* Collective, after qct_mpi_init: every rank sends rank 0 its summary (of
 * its mode and options; "error: MESSAGE" for a command line it refused),
 * and rank 0 waits for each no longer than timeout seconds.  Returns
 * QC_OK on every rank when all summaries are the same.  Otherwise rank 0
 * returns QC_EINVAL (QC_ENOMEM) with one line in err naming the first rank
 * that differs (or its error, or the rank that never sent one), and must
 * end the job (qct_mpi_abort); the other ranks wait for that. */
int qct_mpi_handshake(const char *summary, double timeout, char *err, size_t errlen);
int qct_mpi_rank(void);
int qct_mpi_size(void);
void qct_mpi_finalize(void);
/* Nonzero once this rank found its launcher gone (mpirun killed): then
 * qct_mpi_count returned QC_ESTOP and MPI_Abort could hang; just exit. */
int qct_mpi_orphaned(void);
/* Ends every rank of the job now (MPI_Abort) with this exit status. */
void qct_mpi_abort(int status);

/* Counts plan over every rank of MPI_COMM_WORLD; collective.  plan may be
 * NULL on a rank that could not build it, and root_error non-NULL on rank 0
 * when it cannot go on (a bad checkpoint): then, as when the ranks' plans
 * differ (fingerprints), every rank returns QC_EINVAL and rank 0 gets the
 * reason in err.  opts->threads and bind apply on every rank; its hooks
 * (unit_known, unit_done, progress, stop: see qc_run_options) are used on
 * rank 0 only, with qc_run's meanings, except that on a stop or a failed
 * unit_done rank 0 returns QC_ESTOP or QC_EHOOK at once and alone, and
 * when a unit ran out of memory on any rank, QC_ENOMEM at once and alone
 * (err names the rank): then out->alone is set, the other ranks are left
 * waiting, and the caller must end the job (qct_mpi_abort).  [silence]
 * When workers fell silent and never spoke again, rank 0 finishes the
 * count without them and returns it (its rc as at the end, out->silent
 * set, out->alone too): the caller reports it and ends the job.  (QC_ENOMEM
 * on every rank, without out->alone: a failure seen only as the count
 * ended.)  Fills *out (free it with qct_mpi_result_free, which takes
 * NULL); totals are meaningful on rank 0.  err may be NULL (no message).
 * Precondition, not checked: out is not NULL, on every rank, as a rank
 * that returned at once would leave the others waiting in a collective
 * call. */
int qct_mpi_count(const qc_plan *plan, const qc_run_options *opts, const char *root_error,
                  qct_mpi_result *out, char *err, size_t errlen);
void qct_mpi_result_free(qct_mpi_result *r);

#endif /* QC_HAVE_MPI */
#endif
