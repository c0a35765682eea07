/* SPDX-License-Identifier: MIT */
/*
 * status_figures.c — the figures qcount status prints in text, JSON and
 * HTML alike (status.h): whether the count is complete, the time left at
 * the recent rate, spans of time and shares in percent.
 */
#include <stdio.h>

#include "status.h"

int qcl_status_complete(const qcl_status_state *s)
{
    return s->covered == s->units && !s->conflicts;
}

/* The seconds left at the recent rate, or -1 when there is no rate. */
double qcl_status_seconds_left(const qcl_status_state *s)
{
    if (qcl_status_complete(s) || s->recent_span <= 0 || s->recent_work <= 0)
        return -1;
    double left = s->work_all - s->work_done;
    return (left > 0 ? left : 0) * s->recent_span / s->recent_work;
}

/* A span of seconds as "0.4 s", "14 min", "3.2 h", "2.1 d". */
const char *qcl_status_span(double seconds, char *buf, size_t len)
{
    if (seconds < 10)
        snprintf(buf, len, "%.1f s", seconds);
    else if (seconds < 120)
        snprintf(buf, len, "%.0f s", seconds);
    else if (seconds < 7200)
        snprintf(buf, len, "%.0f min", seconds / 60);
    else if (seconds < 2 * 86400)
        snprintf(buf, len, "%.1f h", seconds / 3600);
    else
        snprintf(buf, len, "%.1f d", seconds / 86400);
    return buf;
}

/* part of whole in percent, from 0 to 100 (sums of costs round off) */
double qcl_status_percent(double part, double whole)
{
    double p = whole > 0 ? 100.0 * part / whole : 100.0;
    return p < 0 ? 0 : p > 100 ? 100 : p;
}
