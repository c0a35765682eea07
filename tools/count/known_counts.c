/* SPDX-License-Identifier: MIT */
/*
 * known_counts.c — the published counts of known_counts.h, and the
 * comparison --check makes with them.  The rows are OEIS A000170 and
 * A002562 as tests/known-counts.tsv holds them (test_known checks that the
 * two agree).
 */
#include <stdio.h>
#include <string.h>

#include "known_counts.h"

static const qcc_known_row published[] = {
    {1, 1ull, 1ull},
    {2, 0ull, 0ull},
    {3, 0ull, 0ull},
    {4, 2ull, 1ull},
    {5, 10ull, 2ull},
    {6, 4ull, 1ull},
    {7, 40ull, 6ull},
    {8, 92ull, 12ull},
    {9, 352ull, 46ull},
    {10, 724ull, 92ull},
    {11, 2680ull, 341ull},
    {12, 14200ull, 1787ull},
    {13, 73712ull, 9233ull},
    {14, 365596ull, 45752ull},
    {15, 2279184ull, 285053ull},
    {16, 14772512ull, 1846955ull},
    {17, 95815104ull, 11977939ull},
    {18, 666090624ull, 83263591ull},
    {19, 4968057848ull, 621012754ull},
    {20, 39029188884ull, 4878666808ull},
    {21, 314666222712ull, 39333324973ull},
    {22, 2691008701644ull, 336376244042ull},
    {23, 24233937684440ull, 3029242658210ull},
    {24, 227514171973736ull, 28439272956934ull},
    {25, 2207893435808352ull, 275986683743434ull},
    {26, 22317699616364044ull, 2789712466510289ull},
    {27, 234907967154122528ull, 29363495934315694ull},
};

static const qcc_known_row *table = published;
static int rows = sizeof published / sizeof published[0];

void qcc_known_use(const qcc_known_row *r, int count)
{
    table = r ? r : published;
    rows = r ? count : (int)(sizeof published / sizeof published[0]);
}

static const qcc_known_row *find(int n)
{
    for (int i = 0; i < rows; i++)
        if (table[i].n == n)
            return &table[i];
    return NULL;
}

int qcc_known_digits(int n, int unique)
{
    const qcc_known_row *row = find(n);
    char buf[48];
    return row ? (int)strlen(qc_u128_format(unique ? row->unique : row->total, buf)) : 0;
}

qcc_known_verdict qcc_known_compare(int n, qc_u128 total, const qc_u128 *unique,
                                    char *msg, size_t msglen)
{
    const qcc_known_row *row = find(n);
    if (!row) {
        snprintf(msg, msglen, "N=%d: no known value to check against (OEIS A000170 and A002562 "
                 "give N up to %d)", n, QC_KNOWN_N_MAX);
        return QC_KNOWN_NONE;
    }
    const char *what = NULL, *seq = NULL;
    qc_u128 got = 0, want = 0;
    if (total != row->total)
        what = "total", seq = "A000170", got = total, want = row->total;
    else if (unique && *unique != row->unique)
        what = "unique count", seq = "A002562", got = *unique, want = row->unique;
    if (!what)
        return QC_KNOWN_AGREE;
    char g[48], w[48];
    snprintf(msg, msglen, "N=%d: the %s %s differs from the known %s (OEIS %s)",
             n, what, qc_u128_format(got, g), qc_u128_format(want, w), seq);
    return QC_KNOWN_DIFFER;
}
