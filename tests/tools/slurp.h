/* SPDX-License-Identifier: MIT */
/*
 * slurp.h — the ledger tests' one file reader: a whole regular file into
 * memory.  Header-only, for tests only.
 */
#ifndef QC_TEST_SLURP_H
#define QC_TEST_SLURP_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* The bytes of regular file p (to free) and their count in *len; NULL with
 * *len 0 when p is missing or not a regular file. */
static unsigned char *slurp(const char *p, size_t *len)
{
    struct stat st;
    FILE *f = stat(p, &st) == 0 && S_ISREG(st.st_mode) ? fopen(p, "rb") : NULL;
    if (!f) {
        *len = 0;
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)n + 1);
    *len = b ? fread(b, 1, (size_t)n, f) : 0;
    fclose(f);
    return b;
}

#endif
