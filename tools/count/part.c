/* SPDX-License-Identifier: MIT */
/*
 * part.c — a plan's units dealt into parts by estimated cost (part.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "part.h"

int qcc_part_parse(const char *s, qcc_part *p)
{
    unsigned long k = 0, m = 0;
    int used = 0;
    if (!s || s[0] < '0' || s[0] > '9'
        || sscanf(s, "%10lu/%10lu%n", &k, &m, &used) != 2 || s[used] != '\0')
        return -1;
    const char *slash = s;
    while (*slash != '/')
        slash++;
    if (slash[1] < '0' || slash[1] > '9')   /* sscanf would take "1/ 2" and "1/+2" */
        return -1;
    if (k < 1 || m < 1 || k > m || m > QCC_PART_MAX)
        return -1;
    *p = (qcc_part){.index = (uint32_t)k, .count = (uint32_t)m};
    return 0;
}

/* A unit's integer weight: its cost against the largest, top, in 2^24
 * steps, rounded; at least 1 if it costs anything; 1 when none does. */
static uint64_t weight(double cost, double top)
{
    if (!(top > 0))
        return 1;
    uint64_t w = (uint64_t)(cost / top * 16777216.0 + 0.5);
    return w == 0 && cost > 0 ? 1 : w;
}

void qcc_part_deal(const qc_plan *plan, uint32_t count, uint32_t *of)
{
    const size_t units = qc_plan_unit_count(plan);
    double top = 0;
    for (size_t u = 0; u < units; u++) {
        double c = qc_plan_unit_cost(plan, u);
        if (c > top)
            top = c;
    }
    /* integer weights: 2^24 for the largest unit, at least 1 for one
     * that costs anything; every unit 1 when none has a cost */
    uint64_t total = 0;
    for (size_t u = 0; u < units; u++) {
        uint64_t w = weight(qc_plan_unit_cost(plan, u), top);
        total += w;
    }
    uint64_t before = 0;
    for (size_t u = 0; u < units; u++) {
        uint64_t w = weight(qc_plan_unit_cost(plan, u), top);
        /* the part whose share holds the middle of this unit's work;
         * twice everything, so the middle is a whole number */
        unsigned __int128 mid = (unsigned __int128)(2 * before + w) * count;
        uint64_t k = total ? (uint64_t)(mid / ((unsigned __int128)2 * total)) : 0;
        of[u] = (uint32_t)(k < count ? k + 1 : count);
        before += w;
    }
}

/* One value into the digest: a hash combine, then murmur3's finish. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

int qcc_part_fill(const qc_plan *plan, qcc_part *p, unsigned char *member)
{
    const size_t units = qc_plan_unit_count(plan);
    uint32_t *of = NULL;
    if (p->count) {
        of = malloc((units ? units : 1) * sizeof *of);
        if (!of)
            return -1;
        qcc_part_deal(plan, p->count, of);
    }
    uint64_t h = mix(0, p->count), n = 0;
    for (size_t u = 0; u < units; u++) {
        int in = !of || of[u] == p->index;
        if (member)
            member[u] = (unsigned char)in;
        if (in) {
            h = mix(h, u);
            n++;
        }
    }
    free(of);
    p->units = n;
    p->digest = h;
    return 0;
}

const char *qcc_part_name(const qcc_part *p, char *buf, size_t len)
{
    if (p->count)
        snprintf(buf, len, "%u/%u", (unsigned)p->index, (unsigned)p->count);
    else
        snprintf(buf, len, "whole");
    return buf;
}
