/* SPDX-License-Identifier: MIT */
/*
 * handshake.c — every rank's summary of its command line shown to rank 0
 * before counting (handshake.h), which waits for each one no longer than the
 * join timeout and refuses the job unless all are the same.
 *
 * [join timeout] A rank that never starts MPI (QCOUNT_MPI=0 on its host,
 * another program, one that exited) holds the others inside
 * MPI_Init, and one that started MPI but never reached the handshake
 * (stopped, or an older qcount) holds rank 0 there; neither is an error
 * MPI reports.  So both waits end at the timeout with one line: from rank
 * 0 at the timeout, from the others only later (job.c's watchdog over
 * MPI_Init), when rank 0 did not end the job first (rank 0 is the one
 * missing).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "handshake.h"
#include "mpi_run.h"
#include "qcount.h"
#include "qct_clock.h"

enum { TAG_HELLO = 21 };

double qcr_mpi_join_timeout(void)
{
    return qct_launcher_seconds("QCOUNT_MPI_TIMEOUT", QCR_JOIN_TIMEOUT_DEFAULT, 1, 3600);
}

/* ---- every rank's command line, compared on rank 0 --------------------- */

static void nap(void)
{
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
}

/* Rank 0: the verdict on what the ranks sent, into err. */
static int compare(char (*got)[QCR_SUMMARY_MAX], int ranks, char *err, size_t errlen)
{
    for (int r = 1; r < ranks; r++) {
        got[r][QCR_SUMMARY_MAX - 1] = '\0';
        if (strcmp(got[r], got[0]) == 0)
            continue;
        if (strncmp(got[r], "error: ", 7) == 0)   /* its own words were refused */
            snprintf(err, errlen, "rank %d: %s", r, got[r] + 7);
        else if (strncmp(got[0], "error: ", 7) == 0)
            snprintf(err, errlen, "%s", got[0] + 7);
        else
            snprintf(err, errlen, "rank %d was started as 'qcount %s', rank 0 as 'qcount %s': "
                     "run the same mode and options on every rank", r, got[r], got[0]);
        return QC_EINVAL;
    }
    return QC_OK;
}

int qcr_mpi_handshake(const char *summary, double timeout, char *err, size_t errlen)
{
    int me = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    char mine[QCR_SUMMARY_MAX];
    snprintf(mine, sizeof mine, "%s", summary);
    int verdict = QC_OK;
    if (me != 0) {
        MPI_Send(mine, (int)strlen(mine) + 1, MPI_CHAR, 0, TAG_HELLO, MPI_COMM_WORLD);
        MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);   /* or ended by rank 0's abort */
        return verdict;
    }
    char (*got)[QCR_SUMMARY_MAX] = calloc((size_t)ranks, sizeof *got);
    MPI_Request *req = calloc((size_t)ranks, sizeof *req);
    if (!got || !req) {
        free(got);
        free(req);
        snprintf(err, errlen, "out of memory");
        return QC_ENOMEM;
    }
    memcpy(got[0], mine, sizeof mine);
    req[0] = MPI_REQUEST_NULL;
    for (int r = 1; r < ranks; r++)
        MPI_Irecv(got[r], QCR_SUMMARY_MAX, MPI_CHAR, r, TAG_HELLO, MPI_COMM_WORLD, &req[r]);
    double deadline = qct_now_seconds() + timeout;
    int all = 0;
    while (!all) {
        MPI_Testall(ranks, req, &all, MPI_STATUSES_IGNORE);
        if (!all && qct_now_seconds() > deadline)
            break;
        if (!all)
            nap();
    }
    if (!all) {
        int missing = 1;
        for (int r = 1; r < ranks; r++) {
            int arrived = 0;
            MPI_Test(&req[r], &arrived, MPI_STATUS_IGNORE);
            if (!arrived) {
                missing = r;
                break;
            }
        }
        snprintf(err, errlen, "rank %d did not join the count within %.0f s (it exited, stopped, "
                 "or is not qcount): run the same qcount command on every rank", missing, timeout);
        verdict = QC_EINVAL;   /* the requests still open end with the job */
    } else {
        verdict = compare(got, ranks, err, errlen);
    }
    if (verdict != QC_OK)
        return verdict;   /* receives may be open into got: kept, as the caller ends the job */
    free(got);
    free(req);
    MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return verdict;
}
