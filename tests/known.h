/* SPDX-License-Identifier: MIT */
/*
 * known.h — the published counts (OEIS A000170 and A002562), read from
 * tests/known-counts.tsv so that the table lives in one place, for tests only.
 */
#ifndef QC_TEST_KNOWN_H
#define QC_TEST_KNOWN_H

#include <stdio.h>
#include <stdlib.h>

#include "qcount.h"

typedef struct known_count {
    qc_u128 total;
    qc_u128 unique;
} known_count;

/* Fills table[n] for every n in the file (up to QC_N_MAX); exits on error. */
static inline void known_load(const char *path, known_count table[QC_N_MAX + 1])
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    char line[256];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        unsigned n;
        unsigned long long total, unique;
        if (sscanf(line, "%u %llu %llu", &n, &total, &unique) == 3 && n <= QC_N_MAX) {
            table[n].total = total;
            table[n].unique = unique;
            rows++;
        }
    }
    fclose(f);
    if (rows < 20) {
        fprintf(stderr, "%s: only %d rows\n", path, rows);
        exit(2);
    }
}

#endif
