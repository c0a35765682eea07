/* SPDX-License-Identifier: MIT */
/*
 * sampling.c — a stratified random sample of a plan's units and its
 * estimates (sampling.h).
 */
#include <math.h>
#include <stdlib.h>

#include "sampling.h"

uint64_t qcb_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static const double *sort_cost;   /* qsort's comparison reads it */

static int by_cost_desc(const void *a, const void *b)
{
    const double x = sort_cost[*(const size_t *)a], y = sort_cost[*(const size_t *)b];
    if (x != y)
        return x > y ? -1 : 1;
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

void qcb_sample_free(qcb_sample *s)
{
    free(s->unit);
    free(s->stratum);
    free(s->units_in);
    free(s->cost_in);
    free(s->cost);
    *s = (qcb_sample){0};
}

int qcb_draw(const double *cost, size_t units, int strata, size_t k, uint64_t seed,
             qcb_sample *out)
{
    *out = (qcb_sample){0};
    if (units == 0 || strata < 1 || k < 1)
        return -1;
    if ((size_t)strata > units)
        strata = (int)units;
    size_t *order = malloc(units * sizeof *order);
    out->unit = malloc((size_t)strata * k * sizeof *out->unit);
    out->stratum = malloc((size_t)strata * k * sizeof *out->stratum);
    out->cost = malloc((size_t)strata * k * sizeof *out->cost);
    out->units_in = calloc((size_t)strata, sizeof *out->units_in);
    out->cost_in = calloc((size_t)strata, sizeof *out->cost_in);
    if (!order || !out->unit || !out->stratum || !out->cost || !out->units_in || !out->cost_in) {
        free(order);
        qcb_sample_free(out);
        return -1;
    }
    out->strata = strata;
    double total = 0;
    for (size_t u = 0; u < units; u++) {
        order[u] = u;
        total += cost[u];
    }
    sort_cost = cost;
    qsort(order, units, sizeof *order, by_cost_desc);
    /* [strata] a unit's stratum: where its estimated cost starts in the
     * sorted list, in H equal shares of the whole (a stratum may stay
     * empty where one unit spans more than a share) */
    uint64_t state = seed;
    double before = 0;
    size_t first = 0;
    for (int h = 0; h < strata; h++) {
        size_t end = first;
        while (end < units && (h == strata - 1 || before < total * (double)(h + 1) / strata)) {
            before += cost[order[end]];
            end++;
        }
        out->units_in[h] = end - first;
        for (size_t i = first; i < end; i++)
            out->cost_in[h] += cost[order[i]];
        /* k drawn without replacement: a partial Fisher-Yates shuffle */
        const size_t take = end - first < k ? end - first : k;
        for (size_t i = 0; i < take; i++) {
            const size_t j = first + i + (size_t)(qcb_next(&state) % (end - first - i));
            const size_t t = order[first + i];
            order[first + i] = order[j];
            order[j] = t;
            out->unit[out->count] = order[first + i];
            out->stratum[out->count] = h;
            out->cost[out->count] = cost[order[first + i]];
            out->count++;
        }
        first = end;
    }
    free(order);
    return 0;
}

/* Student's t, 97.5% quantile, for df degrees of freedom (interpolated
 * in 1/df between tabulated values; 1.96 with none). */
static double t975(int df)
{
    static const struct {
        int df;
        double t;
    } table[] = {{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776},  {5, 2.571},   {6, 2.447},
                 {7, 2.365},  {8, 2.306}, {9, 2.262}, {10, 2.228}, {12, 2.179},  {15, 2.131},
                 {20, 2.086}, {25, 2.060}, {30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}};
    const size_t rows = sizeof table / sizeof *table;
    if (df <= 0)
        return 1.96;
    for (size_t i = 0; i < rows; i++) {
        if (df == table[i].df)
            return table[i].t;
        if (df < table[i].df) {
            const double a = 1.0 / table[i - 1].df, b = 1.0 / table[i].df, x = 1.0 / df;
            return table[i].t + (table[i - 1].t - table[i].t) * (x - b) / (a - b);
        }
    }
    const double b = 1.0 / table[rows - 1].df, x = 1.0 / df;
    return 1.96 + (table[rows - 1].t - 1.96) * x / b;
}

/* [ratio to the estimate] the total of y, its variance and degrees of
 * freedom. */
static double total_of(const qcb_sample *s, const double *y, double *var, int *df)
{
    double value = 0;
    *var = 0;
    *df = 0;
    for (int h = 0; h < s->strata; h++) {
        double sy = 0, sx = 0;
        size_t n = 0;
        for (size_t i = 0; i < s->count; i++)
            if (s->stratum[i] == h) {
                sy += y[i];
                sx += s->cost[i];
                n++;
            }
        if (n == 0 || sx <= 0)
            continue;
        const double r = sy / sx, nh = (double)s->units_in[h];
        value += s->cost_in[h] * r;
        if (n < s->units_in[h] && n > 1) {   /* a stratum taken whole has no error */
            double ss = 0;
            for (size_t i = 0; i < s->count; i++)
                if (s->stratum[i] == h) {
                    const double e = y[i] - r * s->cost[i];
                    ss += e * e;
                }
            *var += nh * nh * (1 - (double)n / nh) * ss / (double)(n - 1) / (double)n;
            *df += (int)n - 1;
        }
    }
    return value;
}

qcb_estimate qcb_total(const qcb_sample *s, const double *y)
{
    double var;
    int df;
    const double value = total_of(s, y, &var, &df);
    return (qcb_estimate){value, t975(df) * sqrt(var), df};
}

qcb_estimate qcb_ratio(const qcb_sample *s, const double *y, const double *z)
{
    double var_y, var_z, var_u;
    int df;
    const double ty = total_of(s, y, &var_y, &df), tz = total_of(s, z, &var_z, &df);
    if (tz == 0)
        return (qcb_estimate){0, 0, 0};
    const double r = ty / tz;
    double *u = malloc((s->count ? s->count : 1) * sizeof *u);
    if (!u)
        return (qcb_estimate){r, INFINITY, 0};
    for (size_t i = 0; i < s->count; i++)
        u[i] = y[i] - r * z[i];
    total_of(s, u, &var_u, &df);
    free(u);
    return (qcb_estimate){r, t975(df) * sqrt(var_u) / fabs(tz), df};
}

qcb_estimate qcb_mean(const qcb_sample *s, const double *y)
{
    double all = 0, value = 0, var = 0;
    int df = 0;
    for (int h = 0; h < s->strata; h++)
        all += (double)s->units_in[h];
    for (int h = 0; h < s->strata; h++) {
        double sum = 0, sq = 0;
        size_t n = 0;
        for (size_t i = 0; i < s->count; i++)
            if (s->stratum[i] == h) {
                sum += y[i];
                sq += y[i] * y[i];
                n++;
            }
        if (n == 0)
            continue;
        const double w = (double)s->units_in[h] / all, mean = sum / (double)n;
        value += w * mean;
        if (n > 1 && n < s->units_in[h]) {
            const double s2 = (sq - (double)n * mean * mean) / (double)(n - 1);
            var += w * w * (1 - (double)n / (double)s->units_in[h]) * (s2 > 0 ? s2 : 0) / (double)n;
            df += (int)n - 1;
        }
    }
    return (qcb_estimate){value, t975(df) * sqrt(var), df};
}
