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

typedef struct qc_out {
    int fd;
    int error;          /* errno of the first failed write; 0 while fine */
    size_t len, cap;
    char *buf;
} qc_out;

/* Returns 0, or -1 when the buffer cannot be allocated. */
int qc_out_open(qc_out *o, int fd, size_t cap);
/* Writes the buffer out; returns 0, or -1 (o->error set).  After an error
 * every write is dropped. */
int qc_out_flush(qc_out *o);
/* Flushes and frees the buffer; returns 0 or -1 as qc_out_flush. */
int qc_out_close(qc_out *o);

/* Room for k more bytes (k <= cap): flushes when needed. */
static inline char *qc_out_room(qc_out *o, size_t k)
{
    if (o->len + k > o->cap)
        qc_out_flush(o);
    return o->buf + o->len;
}

void qc_out_write(qc_out *o, const char *s, size_t len);
void qc_out_puts(qc_out *o, const char *s);
static inline void qc_out_putc(qc_out *o, char c)
{
    *qc_out_room(o, 1) = c;
    o->len++;
}
/* v in decimal. */
void qc_out_u64(qc_out *o, uint64_t v);

#endif
