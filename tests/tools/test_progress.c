/* SPDX-License-Identifier: MIT */
/*
 * test_progress.c — the progress line's words (tools/count/progress.c):
 * the share done and the ETA by the units' estimated work, which a part's
 * run sums in more than one order ([rounding]).
 */
#include <stdio.h>
#include <string.h>

#include "progress.h"
#include "check.h"

static void line_of(double done, double resumed, double total, double elapsed, char *buf,
                    size_t len)
{
    const qc_progress p = {.units_done = 3, .units_total = 10, .units_resumed = 3,
                           .work_done = done, .work_total = total, .work_resumed = resumed};
    qcc_line_format(&p, elapsed, buf, len);
}

int main(void)
{
    char line[256];
    /* nothing done: a hair under zero by rounding */
    line_of(-1e-12, -1e-12, 1e6, 5, line, sizeof line);
    CHECK(strstr(line, "(0.0%)") && strstr(line, "ETA --"), "%s", line);
    /* nothing counted this run, resumed work a hair off by rounding */
    line_of(500000 + 1e-10, 500000, 1e6, 5, line, sizeof line);
    CHECK(strstr(line, "(50.0%)") && strstr(line, "ETA --"), "%s", line);
    /* half counted in 10 s: 10 s to go */
    line_of(500000, 0, 1e6, 10, line, sizeof line);
    CHECK(strstr(line, "(50.0%)") && strstr(line, "ETA 0:00:10"), "%s", line);
    /* done, a hair over the total */
    line_of(1e6 + 1e-9, 0, 1e6, 10, line, sizeof line);
    CHECK(strstr(line, "(100.0%)") != NULL, "%s", line);
    return check_report("progress");
}
