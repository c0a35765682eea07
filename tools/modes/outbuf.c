/* SPDX-License-Identifier: MIT */
/*
 * outbuf.c — the buffered writer of outbuf.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outbuf.h"

int qcm_out_open(qcm_out *o, int fd, size_t cap)
{
    o->fd = fd;
    o->error = 0;
    o->len = 0;
    o->cap = cap < 64 ? 64 : cap;
    o->buf = malloc(o->cap);
    return o->buf ? 0 : -1;
}

int qcm_out_flush(qcm_out *o)
{
    size_t done = 0;
    while (!o->error && done < o->len) {
        ssize_t w = write(o->fd, o->buf + done, o->len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            o->error = errno;
        } else {
            done += (size_t)w;
        }
    }
    o->len = 0;                 /* after an error the rest is dropped */
    return o->error ? -1 : 0;
}

int qcm_out_close(qcm_out *o)
{
    int rc = qcm_out_flush(o);
    free(o->buf);
    o->buf = NULL;
    return rc;
}

void qcm_out_write(qcm_out *o, const char *s, size_t len)
{
    while (len > 0) {
        size_t k = len < o->cap ? len : o->cap;
        memcpy(qcm_out_room(o, k), s, k);
        o->len += k;
        s += k;
        len -= k;
    }
}

void qcm_out_puts(qcm_out *o, const char *s)
{
    qcm_out_write(o, s, strlen(s));
}

void qcm_out_u64(qcm_out *o, uint64_t v)
{
    char tmp[20];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    char *p = qcm_out_room(o, (size_t)k);
    for (int i = 0; i < k; i++)
        p[i] = tmp[k - 1 - i];
    o->len += (size_t)k;
}
