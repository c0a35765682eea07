/* SPDX-License-Identifier: MIT */
/*
 * ledger_dump.c — prints a checkpoint ledger as text, for the tests (and
 * for a curious user): the header fields, then one line per record,
 *   record UNIT SOLUTIONS PLACEMENTS      (checksum good)
 *   bad INDEX / zero INDEX                (checksum fails / all zero)
 * and "tail BYTES" for a partial record at the end; format versions 1
 * and 2 (by the header's size field).  It reads the format
 * on its own, trusting nothing but the checksum function, so a test can
 * check what the program wrote (each unit exactly once, the sum).
 * Usage: ledger_dump FILE
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

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ledger_dump FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    unsigned char header[QCC_LEDGER_HEADER_SIZE];
    if (fread(header, 1, 16, f) != 16 || memcmp(header, QCC_LEDGER_MAGIC, 8) != 0) {
        fprintf(stderr, "%s: not a ledger\n", argv[1]);
        return 1;
    }
    const int v1 = (get64(header + 8) & 0xffffffffu) == 1;
    const size_t hs = v1 ? QCC_LEDGER_V1_HEADER_SIZE : QCC_LEDGER_HEADER_SIZE;
    const size_t rs = v1 ? QCC_LEDGER_V1_RECORD_SIZE : QCC_LEDGER_RECORD_SIZE;
    const size_t hsum = v1 ? QCC_LEDGER_V1_HEADER_SUM_AT : QCC_LEDGER_SUM_AT;
    const size_t rsum = v1 ? QCC_LEDGER_V1_RECORD_SUM_AT : QCC_LEDGER_SUM_AT;
    if (fread(header + 16, 1, hs - 16, f) != hs - 16) {
        fprintf(stderr, "%s: not a ledger\n", argv[1]);
        return 1;
    }
    uint64_t fingerprint = get64(header + 48);
    char engine[17] = {0};
    memcpy(engine, header + 24, 16);
    printf("version %u\nn %u\nengine %s\nunits %llu\nfingerprint %016llx\nheader %s\n",
           (unsigned)(get64(header + 8) & 0xffffffffu), (unsigned)(get64(header + 16) & 0xffffffffu),
           engine, (unsigned long long)get64(header + 40), (unsigned long long)fingerprint,
           get64(header + hsum) == qcc_ledger_checksum(0, header, hsum) ? "good" : "bad");
    if (!v1)
        printf("part %u/%u\n", (unsigned)(get64(header + 56) & 0xffffffffu),
               (unsigned)(get64(header + 60) & 0xffffffffu));
    unsigned char r[QCC_LEDGER_RECORD_SIZE];
    size_t k, index = 0;
    while ((k = fread(r, 1, rs, f)) == rs) {
        index++;
        int zero = 1;
        for (size_t i = 0; i < rs; i++)
            zero &= r[i] == 0;
        if (get64(r + rsum) == qcc_ledger_checksum(fingerprint, r, rsum)) {
            char sol[48];
            qc_u128 s = (qc_u128)get64(r + 8) | (qc_u128)get64(r + 16) << 64;
            printf("record %llu %s %llu\n", (unsigned long long)get64(r), qc_u128_format(s, sol),
                   (unsigned long long)get64(r + 24));
        } else {
            printf("%s %zu\n", zero ? "zero" : "bad", index);
        }
    }
    if (k)
        printf("tail %zu\n", k);
    fclose(f);
    return 0;
}
