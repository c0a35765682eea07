/* SPDX-License-Identifier: MIT */
/*
 * construct.c — one solution for any n >= 4 without search: the classic
 * explicit construction (E. J. Hoffman, J. C. Loessi, R. C. Moore, 1969; in
 * the form popularised by Bernhardsson, 1991).  In 1-based columns, row by
 * row:
 *   n mod 6 not 2 or 3:  the even columns 2, 4, ..., then the odd 1, 3, ...
 *   n mod 6 = 2:         evens 2, 4, ..., n; then odds with 1 and 3 swapped
 *                        and 5 moved to the end: 3, 1, 7, 9, ..., n-1, 5
 *   n mod 6 = 3:         evens with 2 moved to the end: 4, 6, ..., n-1, 2;
 *                        then odds with 1 and 3 moved to the end:
 *                        5, 7, ..., n, 1, 3
 * Each row is written once: linear time, no memory beyond the output.
 */
#include "qcount_solutions.h"

int qc_construct(size_t n, uint32_t *cols)
{
    if (!cols || n == 0 || n == 2 || n == 3 || n > UINT32_MAX)
        return QC_EINVAL;
    size_t r = 0;
    /* put(c): the next row's queen on 1-based column c */
#define put(c) (cols[r++] = (uint32_t)((c) - 1))
    switch (n % 6) {
    case 2:
        for (size_t c = 2; c <= n; c += 2)
            put(c);
        put(3);
        put(1);
        for (size_t c = 7; c <= n; c += 2)
            put(c);
        put(5);
        break;
    case 3:
        for (size_t c = 4; c <= n; c += 2)
            put(c);
        put(2);
        for (size_t c = 5; c <= n; c += 2)
            put(c);
        put(1);
        put(3);
        break;
    default:
        for (size_t c = 2; c <= n; c += 2)
            put(c);
        for (size_t c = 1; c <= n; c += 2)
            put(c);
        break;
    }
#undef put
    return QC_OK;
}
