/* SPDX-License-Identifier: MIT */
/*
 * status_html.c — qcount status --html FILE: the run as one self-contained
 * page (status.h), for a web server to serve as the run goes: the figures
 * of the text in tables, and two inline SVG charts drawn here, units in
 * over time and the rate per host and ISA level; no script, no file
 * beside it.  The page is written whole to FILE.new-PID and renamed onto
 * FILE, so a reader never sees half of one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "quote.h"
#include "status.h"

#define CHART_W 640
#define CHART_H 240
#define CHART_PAD 48

/* s with &, <, > and " escaped */
static void text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '&')
            fputs("&amp;", out);
        else if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '"')
            fputs("&quot;", out);
        else
            fputc(*s, out);
    }
}

static int by_time(const void *a, const void *b)
{
    const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Units in over time: a step line from the first record to the newest,
 * at most 400 points, with the plan's units as the top of the scale. */
static void chart_units(FILE *out, const qcl_status_state *s, int64_t *t, size_t n)
{
    char a[40], b[40];
    fprintf(out, "<figure><svg id=\"units-chart\" xmlns=\"http://www.w3.org/2000/svg\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n"
            "<title>units in over time</title>\n", CHART_W, CHART_H, CHART_W, CHART_H);
    const int x0 = CHART_PAD, y0 = CHART_H - CHART_PAD / 2, w = CHART_W - 2 * CHART_PAD,
              h = CHART_H - CHART_PAD;
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            "stroke=\"#999\"/>\n", x0, y0 - h, w, h);
    if (n >= 1) {
        qsort(t, n, sizeof *t, by_time);
        const double span = t[n - 1] > t[0] ? (double)(t[n - 1] - t[0]) : 1.0;
        fprintf(out, "<polyline fill=\"none\" stroke=\"#2a6\" stroke-width=\"2\" points=\"");
        const size_t step = n > 400 ? n / 400 : 1;
        for (size_t i = 0; i < n; i += step) {
            double x = x0 + w * (double)(t[i] - t[0]) / span;
            double y = y0 - h * (double)(i + 1) / (double)s->units;
            fprintf(out, "%.1f,%.1f ", x, y);
        }
        fprintf(out, "%.1f,%.1f\"/>\n", (double)(x0 + w), y0 - h * (double)n / (double)s->units);
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n", x0, CHART_H - 4,
                qcl_time(t[0], a, sizeof a));
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
                x0 + w, CHART_H - 4, qcl_time(t[n - 1], b, sizeof b));
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%zu</text>\n"
            "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">0</text>\n",
            x0 - 4, y0 - h + 10, s->units, x0 - 4, y0);
    fprintf(out, "</svg><figcaption>Units in over time: %zu of %zu, the line's top "
            "the plan's units</figcaption></figure>\n", n, s->units);
}

/* Placements per CPU second for each host and level, as bars. */
static void chart_rates(FILE *out, const qcl_status_state *s)
{
    double top = 0;
    for (size_t i = 0; i < s->groups; i++)
        if (s->group[i].cpu_seconds > 0
            && (double)s->group[i].cpu_steps / s->group[i].cpu_seconds > top)
            top = (double)s->group[i].cpu_steps / s->group[i].cpu_seconds;
    const int bar = 22, height = CHART_PAD + bar * (int)(s->groups ? s->groups : 1);
    fprintf(out, "<figure><svg id=\"rate-chart\" xmlns=\"http://www.w3.org/2000/svg\" "
            "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n"
            "<title>steps per CPU second by host and ISA level</title>\n",
            CHART_W, height, CHART_W, height);
    for (size_t i = 0; i < s->groups; i++) {
        const qcl_status_group *g = &s->group[i];
        double rate = g->cpu_seconds > 0 ? (double)g->cpu_steps / g->cpu_seconds : 0;
        int y = CHART_PAD / 2 + bar * (int)i;
        fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">", 230,
                y + bar - 8);
        text(out, g->host[0] ? g->host : "-");
        fputc(' ', out);
        text(out, g->isa[0] ? g->isa : "-");
        fprintf(out, "</text>\n<rect class=\"rate\" x=\"236\" y=\"%d\" width=\"%.1f\" "
                "height=\"%d\" fill=\"#36c\"/>\n<text x=\"%.1f\" y=\"%d\" font-size=\"11\">"
                "%.3e</text>\n", y + 4, top > 0 ? 300.0 * rate / top : 0.0, bar - 6,
                240 + (top > 0 ? 300.0 * rate / top : 0.0), y + bar - 8, rate);
    }
    fprintf(out, "</svg><figcaption>Placements per CPU second by host and ISA level"
            "</figcaption></figure>\n");
}

static void parts_table(FILE *out, const qcl_status_state *s, const qcl_bound *b, int count)
{
    char name[24], when[40], sp[32];
    fprintf(out, "<table id=\"parts\"><tr><th>part</th><th>units</th><th>of</th>"
            "<th>work done</th><th>last record</th><th>state</th><th>ledger</th></tr>\n");
    for (int i = 0; i < count; i++) {
        const qcl_status_ledger *l = &s->ledger[i];
        const char *state = l->done >= l->part.units ? "complete"
                            : l->silent              ? "SILENT"
                                                     : "counting";
        fprintf(out, "<tr class=\"%s\"><td>%s</td><td>%zu</td><td>%llu</td><td>%.1f%%</td>"
                "<td>%s</td><td>%s", state[0] == 'S' ? "silent" : state,
                qcc_part_name(&l->part, name, sizeof name), l->done,
                (unsigned long long)l->part.units, qcl_status_percent(l->work, l->work_all),
                qcl_time(l->last_us, when, sizeof when), state);
        if (l->silent)
            fprintf(out, " for %s", qcl_status_span((double)(s->now_us - l->last_us) / 1e6, sp,
                                                     sizeof sp));
        fputs("</td><td>", out);
        text(out, b[i].path);
        fputs("</td></tr>\n", out);
    }
    for (uint32_t k = 1; s->parts && k <= s->parts; k++)
        if (!s->given[k])
            fprintf(out, "<tr class=\"missing\"><td>%u/%u</td><td>-</td><td>-</td><td>-</td>"
                    "<td>-</td><td>no ledger given</td><td></td></tr>\n", (unsigned)k,
                    (unsigned)s->parts);
    fputs("</table>\n", out);
}

static void summary(FILE *out, const qcl_status_state *s, const qcl_bound *b)
{
    const qcc_ledger_header *h = &b[0].file->header;
    char a[48], t[40], sp[32];
    fprintf(out, "<h1>qcount: N=%d</h1>\n<table id=\"summary\">\n", h->n);
    fprintf(out, "<tr><th>count</th><td>N=%d, engine ", h->n);
    text(out, h->engine);
    fprintf(out, ", fingerprint %016llx, %zu units", (unsigned long long)h->fingerprint, s->units);
    if (s->parts)
        fprintf(out, ", in %u parts", (unsigned)s->parts);
    fprintf(out, "</td></tr>\n<tr><th>coverage</th><td id=\"coverage\">%zu of %zu units, "
            "%.1f%% of the estimated work</td></tr>\n", s->covered, s->units,
            qcl_status_percent(s->work_done, s->work_all));
    if (qcl_status_complete(s))
        fprintf(out, "<tr><th>total</th><td id=\"total\">%s</td></tr>\n",
                qc_u128_format(s->sum, a));
    else
        fprintf(out, "<tr><th>solutions so far</th><td id=\"solutions\">%s (not the total)</td>"
                "</tr>\n", qc_u128_format(s->sum, a));
    double left = qcl_status_seconds_left(s);
    if (left >= 0) {
        fprintf(out, "<tr><th>left</th><td id=\"left\">%s at the recent rate (about %s)",
                qcl_status_span(left, sp, sizeof sp),
                qcl_time(s->last_us + (int64_t)(left * 1e6), t, sizeof t));
        if ((double)(s->now_us - s->last_us) / 1e6 > s->stale)
            fprintf(out, ", but no unit has finished for %s",
                    qcl_status_span((double)(s->now_us - s->last_us) / 1e6, sp, sizeof sp));
        fputs("</td></tr>\n", out);
    } else if (qcl_status_complete(s))
        fprintf(out, "<tr><th>left</th><td id=\"left\">nothing: every unit is in</td></tr>\n");
    if (s->conflicts)
        fprintf(out, "<tr><th>conflicts</th><td>%zu units with two tallies</td></tr>\n",
                s->conflicts);
    fprintf(out, "<tr><th>as of</th><td>%s</td></tr>\n</table>\n",
            qcl_time(s->now_us, t, sizeof t));
}

static void page(FILE *out, const qcl_status_state *s, const qcl_bound *b, int count,
                 double refresh, int64_t *times)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n", out);
    if (refresh > 0)
        fprintf(out, "<meta http-equiv=\"refresh\" content=\"%.0f\">\n", refresh);
    fprintf(out, "<title>qcount N=%d: %s</title>\n<style>body{font-family:sans-serif;"
            "margin:2em}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
            "padding:2px 8px;text-align:left}tr.silent td{background:#fdd}tr.complete td{"
            "background:#efe}tr.missing td{color:#a00}figure{margin:1em 0}</style>\n"
            "</head><body>\n", b[0].file->header.n,
            qcl_status_complete(s) ? "done" : "counting");
    summary(out, s, b);
    parts_table(out, s, b, count);
    memcpy(times, s->finished, s->n_finished * sizeof *times);
    chart_units(out, s, times, s->n_finished);
    chart_rates(out, s);
    fputs("</body></html>\n", out);
}

int qcl_status_html(const qcl_status_state *s, const qcl_bound *b, int count, const char *path,
                    double refresh)
{
    char tmp[4200];
    char shown_buf[QCA_PATH_SHOWN + 1];   /* [brief paths] */
    const char *shown = qca_path_brief(path, shown_buf);
    if (snprintf(tmp, sizeof tmp, "%s.new-%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        qcl_error("status", "--html '%s': the path is too long", shown);
        return 2;
    }
    int64_t *times = malloc((s->n_finished ? s->n_finished : 1) * sizeof *times);
    FILE *out = times ? fopen(tmp, "w") : NULL;
    if (!out) {
        qcl_error("status", "--html '%s': %s", shown, times ? strerror(errno) : "out of memory");
        free(times);
        return 2;
    }
    page(out, s, b, count, refresh, times);
    free(times);
    int failed = ferror(out);
    failed |= fflush(out) != 0 || fsync(fileno(out)) != 0;
    failed |= fclose(out) != 0;
    if (failed || rename(tmp, path) != 0) {
        qcl_error("status", "--html '%s': cannot write: %s", shown, strerror(errno));
        unlink(tmp);
        return 2;
    }
    return 0;
}
