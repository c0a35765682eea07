/* SPDX-License-Identifier: MIT */
/*
 * outbuf.h — a buffered writer straight to a file descriptor, for the
 * listing and solution modes, which print up to hundreds of megabytes.
 * It formats numbers itself (no printf in the loop) and remembers the first
 * write error (errno), so that the program ends with one line saying why.
 */
#ifndef QC_OUTBUF_H
#define QC_OUTBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct qcm_out {
    int fd;
    int error;          /* errno of the first failed write; 0 while fine */
    size_t len, cap;
    char *buf;
} qcm_out;

/* Returns 0, or -1 when the buffer cannot be allocated. */
int qcm_out_open(qcm_out *o, int fd, size_t cap);
/* Writes the buffer out; returns 0, or -1 (o->error set).  After an error
 * every write is dropped. */
int qcm_out_flush(qcm_out *o);
/* Flushes and frees the buffer; returns 0 or -1 as qcm_out_flush. */
int qcm_out_close(qcm_out *o);

/* Room for k more bytes (k <= cap): flushes when needed. */
static inline char *qcm_out_room(qcm_out *o, size_t k)
{
    if (o->len + k > o->cap)
        qcm_out_flush(o);
    return o->buf + o->len;
}

void qcm_out_write(qcm_out *o, const char *s, size_t len);
void qcm_out_puts(qcm_out *o, const char *s);
static inline void qcm_out_putc(qcm_out *o, char c)
{
    *qcm_out_room(o, 1) = c;
    o->len++;
}
/* v in decimal. */
void qcm_out_u64(qcm_out *o, uint64_t v);

#endif
