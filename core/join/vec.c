/* SPDX-License-Identifier: MIT */
/*
 * vec.c — the join engine's growable array (vec.h).
 */
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "config.h"
#include "vec.h"

void *qcj_vec_grow(qcj_vec *v, size_t bytes)
{
    size_t want = v->bytes * 2 > bytes ? v->bytes * 2 : bytes;
#if defined(MADV_HUGEPAGE)
    if (want >= QCJ_VEC_HUGE_FROM && v->bytes <= QCJ_VEC_HUGE_COPY_MAX) {
        /* [huge pages] whole 2 MiB pages, asked for before the first
         * touch, the contents copied over (the old buffer and the copy
         * are both held meanwhile: at most QCJ_VEC_HUGE_COPY_MAX more;
         * a larger vector grows by realloc, which moves its pages) */
        const size_t huge = (size_t)2 << 20;
        want = (want + huge - 1) / huge * huge;
        void *p = aligned_alloc(huge, want);
        if (!p)
            return NULL;
        (void)madvise(p, want, MADV_HUGEPAGE);      /* a hint: refused, nothing changes */
        if (v->p)
            memcpy(p, v->p, v->bytes);
        free(v->p);
        v->p = p;
        v->bytes = want;
        return p;
    }
#endif
    void *p = realloc(v->p, want);
    if (!p)
        return NULL;
    v->p = p;
    v->bytes = want;
    return p;
}

void qcj_vec_free(qcj_vec *v)
{
    free(v->p);
    v->p = NULL;
    v->bytes = 0;
}
