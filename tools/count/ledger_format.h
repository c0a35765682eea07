/* SPDX-License-Identifier: MIT */
/*
 * ledger_format.h — the ledger's bytes (the format is in ledger.h): the
 * fields of a header or record in and out, for ledger.c and ledger_read.c.
 * Private to tools/count/.
 */
#ifndef QCC_LEDGER_FORMAT_H
#define QCC_LEDGER_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "ledger.h"

/* [byte order] Every field is written and read a byte at a time, least
 * significant first: the file is little-endian whatever the host, and the
 * same file reads on any machine (tests/tools/test_ledger.c pins the bytes). */

static inline void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static inline uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline uint32_t get32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* A string field into out (size bytes, from size - 1 bytes of the
 * field), one printable line: other bytes as '?'. */
void qcc_ledger_get_string(char *out, size_t size, const unsigned char *p);
/* The header at the start of buf (len bytes) into *h.  Pure: no I/O.  0,
 * or -1 with the problem named in err (the caller prefixes the file name). */
int qcc_ledger_parse_header(const unsigned char *buf, size_t len, qcc_ledger_header *h,
                            char *err, size_t errlen);
/* The tally of record r: its solutions and steps (bytes 8..31). */
qc_tally qcc_ledger_get_tally(const unsigned char *r);

#endif
