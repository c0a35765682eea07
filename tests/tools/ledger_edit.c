/* SPDX-License-Identifier: MIT */
/*
 * ledger_edit.c — forges a ledger for the tests: adds DELTA to the
 * solutions of UNIT's record and writes the record's checksum again, so
 * that only a recount (qcount audit) or another ledger (qcount merge) can
 * tell.  Either format version.
 * Usage: ledger_edit FILE UNIT DELTA
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: ledger_edit FILE UNIT DELTA\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r+b");
    unsigned char header[QCC_LEDGER_HEADER_SIZE];
    if (!f || fread(header, 1, QCC_LEDGER_V1_HEADER_SIZE, f) != QCC_LEDGER_V1_HEADER_SIZE) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 2;
    }
    const int v1 = header[8] == 1;
    const long hs = v1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    const size_t rs = v1 ? QCC_LEDGER_V1_RECORD_SIZE : QCC_LEDGER_RECORD_SIZE;
    const size_t sum = v1 ? QCC_LEDGER_V1_RECORD_SUM_AT : QCC_LEDGER_SUM_AT;
    const uint64_t fingerprint = get64(header + 48), unit = strtoull(argv[2], NULL, 10);
    const long long delta = strtoll(argv[3], NULL, 10);
    unsigned char r[QCC_LEDGER_RECORD_SIZE];
    for (long at = hs; fseek(f, at, SEEK_SET) == 0 && fread(r, 1, rs, f) == rs; at += (long)rs) {
        if (get64(r) != unit || get64(r + sum) != qcc_ledger_checksum(fingerprint, r, sum))
            continue;
        put64(r + 8, get64(r + 8) + (uint64_t)delta);
        put64(r + sum, qcc_ledger_checksum(fingerprint, r, sum));
        if (fseek(f, at, SEEK_SET) != 0 || fwrite(r, 1, rs, f) != rs || fclose(f) != 0) {
            fprintf(stderr, "%s: cannot write\n", argv[1]);
            return 2;
        }
        return 0;
    }
    fprintf(stderr, "%s: no record of unit %llu\n", argv[1], (unsigned long long)unit);
    return 1;
}
