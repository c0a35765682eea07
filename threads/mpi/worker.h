/* SPDX-License-Identifier: MIT */
/*
 * worker.h — the messenger of a rank other than 0: asks rank 0 for units,
 * queues them for its counting threads, sends their tallies back.
 */
#ifndef QCR_MPI_WORKER_H
#define QCR_MPI_WORKER_H

#include "rank.h"

/* Runs until rank 0 has nothing more and this rank's counters are through
 * (then it has sent LAST), or, after a failure here, until the job ends
 * (it sent FAIL and waits); exits the process when its launcher is gone. */
void qcr_worker_messenger(qcr_rank *s, int counters, qct_thread_sum *mine);

#endif
