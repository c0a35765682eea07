/* SPDX-License-Identifier: MIT */
/*
 * known_counts.h — the published counts that --check compares with: OEIS
 * A000170 (all solutions) and A002562 (fundamental ones) for N = 1..27.
 * Data to compare with, never a source of results: every count the
 * program prints comes from the engine.
 */
#ifndef QC_KNOWN_COUNTS_H
#define QC_KNOWN_COUNTS_H

#include "qcount.h"

/* The largest N with published counts. */
#define QC_KNOWN_N_MAX 27

/* One row of the table. */
typedef struct qcc_known_row {
    int n;
    qc_u128 total;      /* A000170(n) */
    qc_u128 unique;     /* A002562(n) */
} qcc_known_row;

/* What a comparison found. */
typedef enum qcc_known_verdict {
    QC_KNOWN_AGREE = 0,
    QC_KNOWN_DIFFER,    /* msg names N, the sequence, both values */
    QC_KNOWN_NONE       /* no published value for this N */
} qcc_known_verdict;

/* Compares a computed total (and, when unique is not NULL, the fundamental
 * count) of N with the table; on QC_KNOWN_DIFFER or QC_KNOWN_NONE msg gets
 * one line saying so (the first difference: the total before the unique
 * count). */
qcc_known_verdict qcc_known_compare(int n, qc_u128 total, const qc_u128 *unique,
                                    char *msg, size_t msglen);

/* The width in digits of N's published total (unique: of its fundamental
 * count), or 0 when there is none: for laying out a table of counts,
 * nothing else. */
int qcc_known_digits(int n, int unique);

/* Replaces the table with rows[0..count) (kept, not copied), for the tests'
 * build alone: a corrupted reference, to see --check fail.  rows NULL puts
 * the published table back. */
void qcc_known_use(const qcc_known_row *rows, int count);

#endif
