/* SPDX-License-Identifier: MIT */
/*
 * test_known.c — the table that `qcount --check` compares with
 * (tools/count/known_counts.c) holds the published counts of
 * tests/known-counts.tsv for every N up to 27 and nothing beyond, and the
 * comparison names the first difference.
 */
#include <string.h>

#include "check.h"
#include "known.h"
#include "known_counts.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_known KNOWN_TSV\n");
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {0};
    known_load(argv[1], known);
    char msg[256];
    for (int n = 1; n <= QC_KNOWN_N_MAX; n++) {
        CHECK(qcc_known_compare(n, known[n].total, &known[n].unique, msg, sizeof msg) == QC_KNOWN_AGREE,
              "N=%d: %s", n, msg);
        CHECK(qcc_known_digits(n, 0) > 0 && qcc_known_digits(n, 1) > 0, "N=%d", n);
        CHECK(qcc_known_compare(n, known[n].total + 1, NULL, msg, sizeof msg) == QC_KNOWN_DIFFER
              && strstr(msg, "A000170"), "N=%d: %s", n, msg);
        qc_u128 other = known[n].unique + 1;
        CHECK(qcc_known_compare(n, known[n].total, &other, msg, sizeof msg) == QC_KNOWN_DIFFER
              && strstr(msg, "A002562"), "N=%d: %s", n, msg);
    }
    /* the published sequences end at 27; the table with them */
    for (int n = QC_KNOWN_N_MAX + 1; n <= QC_N_MAX; n++) {
        CHECK(qcc_known_compare(n, 0, NULL, msg, sizeof msg) == QC_KNOWN_NONE, "N=%d", n);
        CHECK(strstr(msg, "no known value") != NULL, "N=%d: %s", n, msg);
        CHECK(qcc_known_digits(n, 0) == 0, "N=%d", n);
    }
    CHECK(qcc_known_digits(26, 0) == 17 && qcc_known_digits(27, 0) == 18);
    /* a total past 2^53 is compared exactly, not as a double */
    CHECK(qcc_known_compare(27, known[27].total - 1, NULL, msg, sizeof msg) == QC_KNOWN_DIFFER);
    return check_report("known");
}
