/* SPDX-License-Identifier: MIT */
/*
 * vec.h — the join engine's growable array: a buffer that only grows,
 * reused from column set to column set and from unit to unit (scratch.h),
 * so a unit's working memory settles at its peak.
 */
#ifndef QCJ_VEC_H
#define QCJ_VEC_H

#include <stddef.h>

typedef struct qcj_vec {
    void *p;          /* NULL until the first reserve; owner frees it */
    size_t bytes;     /* capacity: from QCJ_VEC_HUGE_FROM a mapping of its own */
} qcj_vec;

/* qcj_vec_reserve's growth, for `bytes` more than v->bytes. */
void *qcj_vec_grow(qcj_vec *v, size_t bytes, size_t keep);

/* Makes room for `bytes`, keeping the first `keep` bytes of the contents
 * (at most v->bytes; the rest of the buffer is undefined after a growth:
 * [kept prefix] in vec.c); NULL when out of memory, v unchanged (or
 * empty, where it was to keep nothing).  The
 * capacity at least doubles; from QCJ_VEC_HUGE_FROM bytes (config.h) it
 * is whole 2 MiB pages, asked for as transparent huge pages ([huge pages]
 * in vec.c).  [room inline] Room enough costs no call: the halves reserve
 * their output once a split, millions of times a board. */
static inline void *qcj_vec_reserve(qcj_vec *v, size_t bytes, size_t keep)
{
    return bytes <= v->bytes ? v->p : qcj_vec_grow(v, bytes, keep);
}

/* Frees the buffer (its pages go back to the system at once); v is empty
 * again. */
void qcj_vec_free(qcj_vec *v);

#endif
