/* SPDX-License-Identifier: MIT */
/*
 * job.c — the MPI job's lifetime: init, rank, size, the end, and the watch
 * on the launcher (see job.h).
 */
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "mpi_run.h"
#include "qcount.h"

static pid_t launcher_pid;   /* our parent when we started: mpirun, orted, slurmstepd */
static int orphaned;

int qcr_job_lost_launcher(void)
{
    if (launcher_pid > 1 && getppid() != launcher_pid)
        orphaned = 1;
    return orphaned;
}

int qcr_mpi_orphaned(void)
{
    return orphaned;
}

/* [join timeout] MPI_Init under a watchdog: a rank that never starts MPI
 * holds the others inside it (Open MPI's start-up exchange), which no
 * error reports.  Rank 0 says so at the timeout and exits, and the launcher
 * ends the rest; the others wait QCR_JOIN_GRACE longer, to speak only when
 * rank 0 is the one missing. */
#define QCR_JOIN_GRACE 5.0
static struct {
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    int done;
    double seconds;
} watch = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static void *watchdog(void *arg)
{
    (void)arg;
    const int rank = qct_mpi_launcher_rank();
    double wait = watch.seconds + (rank > 0 ? QCR_JOIN_GRACE : 0);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)wait;
    pthread_mutex_lock(&watch.lock);
    int rc = 0;
    while (!watch.done && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&watch.done_cond, &watch.lock, &until);
    int started = watch.done;
    pthread_mutex_unlock(&watch.lock);
    if (!started) {
        fprintf(stderr, "qcount: rank %d: the MPI job did not start within %.0f s: a rank exited or "
                        "never joined it (QCOUNT_MPI=0 on its host, another program?); run the "
                        "same qcount command on every rank\n", rank, watch.seconds);
        _exit(2);   /* the launcher ends the other ranks */
    }
    return NULL;
}

int qcr_mpi_init(int *argc, char ***argv, double timeout)
{
    launcher_pid = getppid();
    watch.seconds = timeout;
    pthread_t dog;
    int dog_made = pthread_create(&dog, NULL, watchdog, NULL) == 0;
    int provided = MPI_THREAD_SINGLE;
    int rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    pthread_mutex_lock(&watch.lock);
    watch.done = 1;
    pthread_cond_signal(&watch.done_cond);
    pthread_mutex_unlock(&watch.lock);
    if (dog_made)
        pthread_join(dog, NULL);
    if (rc != MPI_SUCCESS)
        return QC_EINVAL;
    return provided >= MPI_THREAD_FUNNELED ? QC_OK : QC_EINVAL;
}

int qcr_mpi_rank(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int qcr_mpi_size(void)
{
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}

void qcr_mpi_finalize(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

void qcr_mpi_abort(int status)
{
    MPI_Abort(MPI_COMM_WORLD, status);
}
