/* SPDX-License-Identifier: MIT */
/*
 * known_test.c — the tests' build alone (qcount_fault): QCOUNT_TEST_KNOWN=
 * FILE replaces the table of known_counts.h with FILE's rows, in the format of
 * tests/known-counts.tsv (N, total, unique; '#' starts a comment line), so
 * that a corrupted reference copy can make --check fail.
 */
#include <stdio.h>
#include <stdlib.h>

#include "known_counts.h"
#include "known_test.h"

int qcc_known_test_load(void)
{
    const char *path = getenv("QCOUNT_TEST_KNOWN");
    if (!path)
        return 0;
    static qcc_known_row rows[64];
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int count = 0;
    char line[256];
    while (count < 64 && fgets(line, sizeof line, f)) {
        int n;
        unsigned long long total, unique;
        if (line[0] != '#' && sscanf(line, "%d %llu %llu", &n, &total, &unique) == 3)
            rows[count++] = (qcc_known_row){n, total, unique};
    }
    fclose(f);
    qcc_known_use(rows, count);
    return 0;
}
