/* SPDX-License-Identifier: MIT */
/*
 * shared.c — band lists shared by the slices of a pattern (shared.h).
 *
 * Where a pattern's column sets are cut into several units (slices, so
 * that threads and ranks get even work), each slice needs the same band
 * lists.  Listing them once per slice would add its cost (5-7% of a
 * pattern's work at N=16..18) as many times as there are slices, so the
 * plan keeps them here: the first slice to arrive builds them, slices
 * that arrive meanwhile wait for it (building takes a few percent of a
 * slice's time, and the plan orders a pattern's slices one after another,
 * so a pattern's lists are built once and read by all its slices), and
 * once every slice has finished, the entry's buffers go to a spare list
 * for the next pattern.  Lists of slices still to come (a stopped or
 * resumed run) are kept while few (QCJ_SHARED_IDLE), else recycled and
 * built again if needed.  A spinlock guards the entries; it is held for a
 * few list operations, never while building.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "config.h"
#include "qcount.h"
#include "shared.h"

enum { BUILDING, READY };

typedef struct entry {
    qcj_shared_sides s;
    size_t index;         /* the pattern whose lists these are         */
    int state;            /* BUILDING (by one unit) or READY           */
    int users;            /* units holding the lists                   */
    uint64_t last_use;    /* for choosing which idle entry to recycle  */
    struct entry *next;
} entry;

struct qcj_shared {
    atomic_flag lock;
    size_t patterns;
    size_t *left;         /* per pattern: slices not yet finished      */
    entry *live;          /* entries holding a pattern's lists         */
    entry *spare;         /* recycled entries, buffers kept            */
    int spares;
    uint64_t clock;
};

static void lock(qcj_shared *sh)
{
    while (atomic_flag_test_and_set_explicit(&sh->lock, memory_order_acquire))
        ;
}

static void unlock(qcj_shared *sh)
{
    atomic_flag_clear_explicit(&sh->lock, memory_order_release);
}

qcj_shared *qcj_shared_new(size_t patterns, const uint32_t *slices)
{
    qcj_shared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return NULL;
    atomic_flag_clear(&sh->lock);
    sh->patterns = patterns;
    sh->left = malloc((patterns ? patterns : 1) * sizeof *sh->left);
    if (!sh->left) {
        free(sh);
        return NULL;
    }
    for (size_t i = 0; i < patterns; i++)
        sh->left[i] = slices[i];
    return sh;
}

static void entry_free(entry *e)
{
    qcj_side_free(&e->s.side[0]);
    qcj_side_free(&e->s.side[1]);
    free(e);
}

static void list_free(entry *e)
{
    while (e) {
        entry *next = e->next;
        entry_free(e);
        e = next;
    }
}

void qcj_shared_free(qcj_shared *sh)
{
    if (!sh)
        return;
    list_free(sh->live);
    list_free(sh->spare);
    free(sh->left);
    free(sh);
}

/* Unlinks e from the live list (lock held). */
static void unlink_live(qcj_shared *sh, entry *e)
{
    entry **at = &sh->live;
    while (*at != e)
        at = &(*at)->next;
    *at = e->next;
}

/* Moves an unlinked entry to the spare list, or frees it when enough
 * spares are kept (lock held). */
static void recycle(qcj_shared *sh, entry *e)
{
    if (sh->spares >= QCJ_SHARED_SPARES) {
        entry_free(e);
        return;
    }
    e->next = sh->spare;
    sh->spare = e;
    sh->spares++;
}

/* Recycles the least recently used idle entries (no user, slices still to
 * come) beyond QCJ_SHARED_IDLE (lock held). */
static void trim_idle(qcj_shared *sh)
{
    for (;;) {
        int idle = 0;
        entry *oldest = NULL;
        for (entry *e = sh->live; e; e = e->next)
            if (e->users == 0) {
                idle++;
                if (!oldest || e->last_use < oldest->last_use)
                    oldest = e;
            }
        if (idle <= QCJ_SHARED_IDLE)
            return;
        unlink_live(sh, oldest);
        recycle(sh, oldest);
    }
}

static entry *find(qcj_shared *sh, size_t index)
{
    entry *e = sh->live;
    while (e && e->index != index)
        e = e->next;
    return e;
}

/* Builds e's lists, which this unit alone holds (state BUILDING). */
static int build_lists(entry *e, const qcj_geometry *g, const qcj_rank *r, uint32_t q,
                       uint32_t rest, qcj_side_build_fn *build, qcj_vec tmp[3], const int *stop)
{
    e->s.placed = 0;
    int rc = build(g, r, 0, q, &e->s.side[0], tmp, stop, &e->s.placed);
    if (rc == QC_OK)
        rc = build(g, r, 1, rest, &e->s.side[1], tmp, stop, &e->s.placed);
    return rc;
}

int qcj_shared_acquire(qcj_shared *sh, const qcj_geometry *g, const qcj_rank *r, size_t index,
                       uint32_t q, uint32_t rest, qcj_side_build_fn *build, qcj_vec tmp[3],
                       const int *stop, const qcj_shared_sides **out)
{
    for (;;) {
        lock(sh);
        entry *e = find(sh, index);
        if (e && e->state == READY) {
            e->users++;
            unlock(sh);
            *out = &e->s;
            return QC_OK;
        }
        if (!e) {                       /* first here: build them */
            e = sh->spare;
            if (e) {
                sh->spare = e->next;
                sh->spares--;
            } else if (!(e = calloc(1, sizeof *e))) {
                unlock(sh);
                return QC_ENOMEM;
            }
            e->index = index;
            e->state = BUILDING;
            e->users = 1;
            e->next = sh->live;
            sh->live = e;
            trim_idle(sh);
            unlock(sh);
            int rc = build_lists(e, g, r, q, rest, build, tmp, stop);
            lock(sh);
            if (rc != QC_OK) {          /* waiters find none and build */
                unlink_live(sh, e);
                recycle(sh, e);
            } else {
                e->state = READY;
                *out = &e->s;
            }
            unlock(sh);
            return rc;
        }
        unlock(sh);                     /* another unit is building them */
        if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
            return QC_ESTOP;
        sched_yield();
    }
}

void qcj_shared_release(qcj_shared *sh, size_t index, int finished)
{
    lock(sh);
    entry *e = find(sh, index);
    e->users--;
    if (finished && sh->left[index] > 0)
        sh->left[index]--;
    e->last_use = ++sh->clock;
    if (e->users == 0 && sh->left[index] == 0) {
        unlink_live(sh, e);
        recycle(sh, e);
    }
    unlock(sh);
}
