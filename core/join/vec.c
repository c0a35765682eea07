/* SPDX-License-Identifier: MIT */
/*
 * vec.c — the join engine's growable array (vec.h).
 */
#include <stdlib.h>

#include "vec.h"

void *qcj_vec_reserve(qcj_vec *v, size_t bytes)
{
    if (bytes > v->bytes) {
        size_t want = v->bytes * 2 > bytes ? v->bytes * 2 : bytes;
        void *p = realloc(v->p, want);
        if (!p)
            return NULL;
        v->p = p;
        v->bytes = want;
    }
    return v->p;
}

void qcj_vec_free(qcj_vec *v)
{
    free(v->p);
    v->p = NULL;
    v->bytes = 0;
}
