/* SPDX-License-Identifier: MIT */
/*
 * mode.h — what the modes beyond counting share (private to modes/): the
 * entry of each mode, their one-line errors and the end of their output.
 *
 * Conventions shared by the three, so that their outputs feed each other:
 * a placement is one line of the columns of the queens, row by row, top to
 * bottom, columns numbered from 1 to N, separated by single spaces; '#'
 * starts a comment to the end of the line.  Output goes through a buffered
 * writer; a closed pipe (`qcount 16 --list | head -1`) ends the program
 * as it ends every qcount and the GNU tools: killed by SIGPIPE, silently
 * (status 141); any other write error, and EPIPE when SIGPIPE was left
 * ignored by the parent, is a one-line error, status 2.
 */
#ifndef QC_MODE_H
#define QC_MODE_H

#include <stddef.h>
#include <stdint.h>

#include "options.h"
#include "qcount_solutions.h"
#include "outbuf.h"

/* The modes, each returning the exit status (list.c, solve.c, verify.c). */
int qcm_list(const qca_options *opts);
int qcm_solve(const qca_options *opts);
int qcm_verify(const qca_options *opts);

/* output.c: prints "qcount: " fmt (with arg) on stderr; returns 2. */
int qcm_fail(const char *fmt, const char *arg);
/* Closes out (the writer to stdout) and returns status, or 2 with the
 * reason after a write error. */
int qcm_end_stdout(qcm_out *out, int status);
/* Writes a placement (cols 0-based) as its columns from 1, no newline. */
void qcm_put_cols(qcm_out *out, size_t n, const uint32_t *cols);

#endif
