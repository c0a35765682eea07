/* SPDX-License-Identifier: MIT */
/*
 * output.c — how the modes write and fail (see mode.h): one-line errors,
 * the end of their output on stdout, a placement as its columns.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mode.h"
#include "quote.h"

int qcm_fail(const char *fmt, const char *arg)
{
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, arg);
    qc_print_error(msg);   /* arg may quote the user's input */
    return 2;
}

int qcm_end_stdout(qc_out *out, int status)
{
    qc_out_close(out);
    if (out->error)
        return qcm_fail("cannot write to stdout: %s", strerror(out->error));
    return status;
}

void qcm_put_cols(qc_out *out, size_t n, const uint32_t *cols)
{
    for (size_t r = 0; r < n; r++) {
        if (r)
            qc_out_putc(out, ' ');
        qc_out_u64(out, (uint64_t)cols[r] + 1);
    }
}
