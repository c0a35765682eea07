/* SPDX-License-Identifier: MIT */
/*
 * ledger_read.h — a ledger's header and records read from its file and
 * checked, for opening it to resume (ledger.c) and for loading it whole
 * (ledger_read.c).  Private to tools/count/.
 */
#ifndef QCC_LEDGER_READ_H
#define QCC_LEDGER_READ_H

#include <stddef.h>
#include <stdint.h>

#include "ledger.h"

/* Takes the good record r (its unit already checked against the units):
 * 0, -1 for a unit it already has, -2 out of memory. */
typedef int (*qcc_ledger_take)(void *ctx, const unsigned char *r, uint64_t unit,
                               const qcc_ledger_header *h);

/* The header of the len-byte file fd into *h, as qcc_ledger_parse_header. */
int qcc_ledger_read_header(int fd, size_t len, qcc_ledger_header *h, char *err, size_t errlen);
/* [ledger windows] The records of the len-byte file fd whose header is h,
 * read a window of whole records at a time (never the whole file: a
 * ledger of N=28 holds 40.1 million records, 5.1 GB): good ones go to
 * take; a bad or zero record is allowed only in the tail (nothing good
 * after it).  *good_end: the byte just after the last good record.  0, or
 * -1 with the problem named in err (the caller prefixes the file name). */
int qcc_ledger_read_records(int fd, size_t len, const qcc_ledger_header *h, qcc_ledger_take take,
                            void *ctx, size_t *good_end, char *err, size_t errlen);
/* Whether the ledger with header h is the one for part: 0 or -1 (err). */
int qcc_ledger_check_part(const qcc_ledger_header *h, const qcc_part *part, char *err,
                          size_t errlen);

#endif
