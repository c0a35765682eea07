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
    qca_print_error(msg);   /* arg may quote the user's input */
    return 2;
}

int qcm_end_stdout(qcm_out *out, int status)
{
    qcm_out_close(out);
    if (out->error)
        return qcm_fail("cannot write to stdout: %s", strerror(out->error));
    return status;
}

void qcm_put_cols(qcm_out *out, size_t n, const uint32_t *cols)
{
    for (size_t r = 0; r < n; r++) {
        if (r)
            qcm_out_putc(out, ' ');
        qcm_out_u64(out, (uint64_t)cols[r] + 1);
    }
}
