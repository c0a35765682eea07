/* SPDX-License-Identifier: MIT */
/*
 * known_test.h — the test build's replacement of the known counts
 * (known_test.c, linked into qcount_fault alone).
 */
#ifndef QC_KNOWN_TEST_H
#define QC_KNOWN_TEST_H

/* When QCOUNT_TEST_KNOWN names a file, makes its rows the table of
 * known_counts.h.  Returns 0 (also when the variable is unset), or -1 if
 * the file cannot be read. */
int qcc_known_test_load(void);

#endif
