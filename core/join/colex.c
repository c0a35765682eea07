/* SPDX-License-Identifier: MIT */
/*
 * colex.c — column sets in colex order (colex.h): the set of a rank, and
 * the rank tables.
 */
#include <string.h>

#include "colex.h"

uint32_t qcj_colex_at(uint64_t at, int size)
{
    /* by the combinatorial number system, largest member first: the
     * largest c with C(c, k) <= at is the k-th member */
    uint32_t x = 0;
    for (int k = size; k > 0; k--) {
        int c = k - 1;
        while (qcj_binomial(c + 1, k) <= at)
            c++;
        at -= qcj_binomial(c, k);
        x |= 1u << c;
    }
    return x;
}

void qcj_rank_init(qcj_rank *r)
{
    memset(r, 0, sizeof *r);
    for (int a = 0; a <= 32; a++)
        for (int b = 0; b <= 16; b++)
            r->binom[a][b] = (uint32_t)qcj_binomial(a, b);
    for (int v = 0; v < 256; v++)
        for (int b = 0; b < 8; b++)
            r->ones[v] += (uint8_t)(v >> b & 1);
    /* [rank by bytes] chunk[i][j][v]: the part of the rank that byte i of a
     * set adds when it holds v and j members lie below it */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j <= 16; j++)
            for (int v = 0; v < 256; v++) {
                uint32_t sum = 0;
                int index = j;
                for (int b = 0; b < 8; b++)
                    if (v >> b & 1) {
                        index++;
                        if (index <= 16)
                            sum += r->binom[8 * i + b][index];
                    }
                r->chunk[i][j][v] = sum;
            }
}
