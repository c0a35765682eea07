/* SPDX-License-Identifier: MIT */
/*
 * handshake.h — the ranks' agreement on the command before counting: every
 * rank's summary of its command line compared on rank 0, and the join
 * timeout that bounds the wait for it (handshake.c).
 */
#ifndef QCR_MPI_HANDSHAKE_H
#define QCR_MPI_HANDSHAKE_H

#include <stddef.h>

/* [join timeout] How long a rank waits for the others to start, in
 * seconds: QCOUNT_MPI_TIMEOUT (1 to 3600), QCR_JOIN_TIMEOUT_DEFAULT when
 * it is unset or empty, or -1 for any other value. */
#define QCR_JOIN_TIMEOUT_DEFAULT 20.0
double qcr_mpi_join_timeout(void);

/* The longest summary qcr_mpi_handshake compares, its NUL included. */
#define QCR_SUMMARY_MAX 1024
/* Collective, after qcr_mpi_init: every rank sends rank 0 its summary (of
 * its mode and options; "error: MESSAGE" for a command line it refused),
 * and rank 0 waits for each no longer than timeout seconds.  Returns
 * QC_OK on every rank when all summaries are the same.  Otherwise rank 0
 * returns QC_EINVAL (QC_ENOMEM) with one line in err naming the first rank
 * that differs (or its error, or the rank that never sent one), and must
 * end the job (qcr_mpi_abort); the other ranks wait for that. */
int qcr_mpi_handshake(const char *summary, double timeout, char *err, size_t errlen);

#endif
