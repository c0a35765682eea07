/* SPDX-License-Identifier: MIT */
/*
 * progress.h — the live progress line of qcount on stderr: work units
 * done / total, percent, elapsed, ETA, steps per second, redrawn
 * about once a second by a thread of its own and erased at the end.
 */
#ifndef QC_PROGRESS_H
#define QC_PROGRESS_H

#include "qcount.h"

typedef struct qcc_line qcc_line;

/* Starts drawing on file descriptor fd.  On a terminal (tty nonzero) the
 * line is redrawn in place and erased by qcc_line_stop; otherwise one
 * line is appended per refresh.  Returns NULL if the thread cannot start
 * (the count goes on without progress). */
qcc_line *qcc_line_start(int fd, int tty);
/* A qc_run_options.progress hook: ctx is the qcc_line. */
void qcc_line_update(void *ctx, const qc_progress *p);
/* Stops the thread and erases the line; NULL is fine. */
void qcc_line_stop(qcc_line *line);

/* Formats the line for p into buf (no newline, no control characters);
 * pure, for the tests of the format. */
void qcc_line_format(const qc_progress *p, double elapsed, char *buf, size_t len);

#endif
