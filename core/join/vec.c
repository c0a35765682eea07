/* SPDX-License-Identifier: MIT */
/*
 * vec.c — the join engine's growable array (vec.h).
 *
 * [mapped vectors] On Linux a vector of QCJ_VEC_HUGE_FROM bytes or more
 * (config.h) is an anonymous mapping of its own, aligned to 2 MiB:
 *   - [huge pages] its pages are asked for as transparent huge pages
 *     before the first touch, so that the band lists, read at scattered
 *     column sets, need fewer TLB entries;
 *   - [moved, not copied] a mapped vector grows by mremap into a new
 *     aligned range, whatever it keeps: its pages move, none is copied
 *     or held twice, pages never touched stay untouched, and the pages
 *     it had are not faulted in again (a unit that starts from no
 *     memory, [fresh scratch], grows each buffer by doublings);
 *   - freeing it gives its pages back to the system at once, whatever the
 *     allocator's thresholds, so a unit's memory is its own ([fresh
 *     scratch], scratch.h).
 * [kept prefix] A growth keeps only the prefix the caller names: the
 * buffers rewritten whole (band lists, grouped halves, the joiners'
 * planes) keep none, the appended ones (halves, band placements) what
 * they hold, not the capacity: a copy into a first mapping copies that
 * alone, and the C allocator's buffers (smaller vectors, and all of them
 * off Linux) that keep nothing are let go before the new one is taken.
 */
#define _GNU_SOURCE 1

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "config.h"
#include "vec.h"

#if defined(__linux__) && defined(MREMAP_FIXED) && defined(MAP_ANONYMOUS)
#define QCJ_VEC_MAPPED 1
#define HUGE_PAGE ((size_t)2 << 20)

/* A range of `bytes` (a multiple of HUGE_PAGE) at a 2 MiB boundary,
 * reserved (mapped, untouched), or NULL. */
static void *map_aligned(size_t bytes)
{
    uint8_t *raw = mmap(NULL, bytes + HUGE_PAGE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    const size_t head = (HUGE_PAGE - (uintptr_t)raw % HUGE_PAGE) % HUGE_PAGE;
    if (head)
        munmap(raw, head);
    munmap(raw + head + bytes, HUGE_PAGE - head);
    return raw + head;
}

static int is_mapped(const qcj_vec *v)
{
    return v->bytes >= QCJ_VEC_HUGE_FROM;
}
#else
#define QCJ_VEC_MAPPED 0
#endif

void *qcj_vec_grow(qcj_vec *v, size_t bytes, size_t keep)
{
    size_t want = v->bytes * 2 > bytes ? v->bytes * 2 : bytes;
    if (keep > v->bytes)
        keep = v->bytes;
#if QCJ_VEC_MAPPED
    if (want >= QCJ_VEC_HUGE_FROM) {
        want = (want + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
        void *p = map_aligned(want);
        if (!p)
            return NULL;
        if (is_mapped(v)) {                 /* [moved, not copied] onto the new range */
            void *moved = mremap(v->p, v->bytes, want, MREMAP_MAYMOVE | MREMAP_FIXED, p);
            if (moved == MAP_FAILED) {
                munmap(p, want);
                return NULL;
            }
        } else if (v->p) {                  /* from the allocator's: its prefix copied */
            memcpy(p, v->p, keep);
            free(v->p);
        }
        (void)madvise(p, want, MADV_HUGEPAGE);      /* [huge pages] a hint: refused, nothing changes */
        v->p = p;
        v->bytes = want;
        return p;
    }
#endif
    void *p;
    if (keep) {
        p = realloc(v->p, want);
    } else {                                /* [kept prefix] none: let go first */
        free(v->p);
        v->p = NULL;
        v->bytes = 0;
        p = malloc(want);
    }
    if (!p)
        return NULL;
    v->p = p;
    v->bytes = want;
    return p;
}

void qcj_vec_free(qcj_vec *v)
{
#if QCJ_VEC_MAPPED
    if (is_mapped(v)) {
        munmap(v->p, v->bytes);
        v->p = NULL;
        v->bytes = 0;
        return;
    }
#endif
    free(v->p);
    v->p = NULL;
    v->bytes = 0;
}
