/* u128.c — decimal printing of 128-bit totals (printf has no %u128). */
#include "qcount.h"

char *qc_u128_format(qc_u128 v, char *buf)
{
    char tmp[40];
    int len = 0;
    do {
        tmp[len++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < len; i++)
        buf[i] = tmp[len - 1 - i];
    buf[len] = '\0';
    return buf;
}
