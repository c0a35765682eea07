/* SPDX-License-Identifier: MIT */
/*
 * shared.c — band lists shared by the slices of a pattern (shared.h).
 *
 * Where a pattern's column sets are cut into several units (slices, so
 * that threads and ranks get even work), each slice needs the same band
 * lists.  Listing them once per slice would add its cost (5-9% of a
 * pattern's work at N=16..18) as many times as there are slices, so the
 * plan keeps them here.  [split build] The lists are listed in pieces (one
 * band each), each by a unit of its own that the plan puts ahead of the
 * pattern's slices (join/join.c): several threads list one pattern's
 * bands at once, and no unit is much longer than a slice.  A slice that
 * finds a piece not listed (its unit not run yet: a stopped, resumed or
 * reordered run) lists it itself, and waits for the pieces other units are
 * listing.  Once every unit of the pattern has finished, the entry's
 * buffers go to a spare list for the next pattern.  Lists of units still
 * to come are kept while few (QCJ_SHARED_IDLE), else recycled and listed
 * again if needed.  A spinlock guards the entries; it is held for a few
 * list operations, never while listing.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "config.h"
#include "qcount.h"
#include "shared.h"

enum { MISSING, BUILDING, READY };

typedef struct entry {
    qcj_shared_sides s;
    size_t index;         /* the pattern whose lists these are         */
    int state[QCJ_SHARED_PIECES];        /* MISSING, BUILDING (by one unit), READY */
    uint64_t placed[QCJ_SHARED_PIECES];  /* queens each piece's listing placed */
    int users;            /* units holding the entry                   */
    uint64_t last_use;    /* for choosing which idle entry to recycle  */
    struct entry *next;
} entry;

struct qcj_shared {
    atomic_flag lock;
    size_t patterns;
    uint32_t *units;      /* per pattern: its units (slices and pieces) */
    uint32_t *left;       /* ... of these, not yet finished in this pass */
    uint64_t listings;    /* band pieces listed since the store was made */
    uint64_t evictions;   /* idle entries recycled with units to come   */
    entry *live;          /* entries holding a pattern's lists         */
    entry *spare;         /* recycled entries, buffers kept            */
    int spares;
    uint64_t clock;
};

/* [yielding lock] as the scratch pool's (scratch.c). */
static void lock(qcj_shared *sh)
{
    while (atomic_flag_test_and_set_explicit(&sh->lock, memory_order_acquire))
        sched_yield();
}

static void unlock(qcj_shared *sh)
{
    atomic_flag_clear_explicit(&sh->lock, memory_order_release);
}

qcj_shared *qcj_shared_new(size_t patterns, const uint32_t *slices, int pieces)
{
    qcj_shared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return NULL;
    atomic_flag_clear(&sh->lock);
    sh->patterns = patterns;
    sh->units = malloc((patterns ? patterns : 1) * sizeof *sh->units);
    sh->left = malloc((patterns ? patterns : 1) * sizeof *sh->left);
    if (!sh->units || !sh->left) {
        free(sh->units);
        free(sh->left);
        free(sh);
        return NULL;
    }
    for (size_t i = 0; i < patterns; i++)
        sh->units[i] = sh->left[i] = slices[i] + (uint32_t)pieces;
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
    free(sh->units);
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
        sh->evictions++;
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

/* The entry of pattern `index`, held (users), made from a spare or anew
 * if there is none; NULL when out of memory. */
static entry *take(qcj_shared *sh, const qcj_geometry *g, size_t index, uint32_t q, uint32_t rest)
{
    lock(sh);
    entry *e = find(sh, index);
    if (!e) {
        e = sh->spare;
        if (e) {
            sh->spare = e->next;
            sh->spares--;
        } else if (!(e = calloc(1, sizeof *e))) {
            unlock(sh);
            return NULL;
        }
        e->index = index;
        e->s.side[0].pattern = q;
        e->s.side[0].t = qcj_side_cols(g, q);
        e->s.side[1].pattern = rest;
        e->s.side[1].t = qcj_side_cols(g, rest);
        for (int j = 0; j < QCJ_SHARED_PIECES; j++)
            e->state[j] = MISSING;
        e->users = 0;
        e->next = sh->live;
        sh->live = e;
    }
    if (e->users++ == 0)
        trim_idle(sh);              /* e, held now, is not idle */
    unlock(sh);
    return e;
}

/* Lists the pieces of e named in `pieces` (a bit each) that no unit has
 * listed, as l says (but the queens placed go to e->placed), and waits for
 * those others are listing, until all are READY.  Returns QC_OK, QC_ENOMEM
 * or QC_ESTOP. */
static int settle(qcj_shared *sh, entry *e, unsigned pieces, const qcj_listing *l)
{
    const int *stop = l->stop;
    for (;;) {
        int piece = -1, ready = 0;
        lock(sh);
        for (int j = 0; j < QCJ_SHARED_PIECES; j++) {
            if (!(pieces >> j & 1u))
                continue;
            ready += e->state[j] == READY;
            if (piece < 0 && e->state[j] == MISSING) {
                piece = j;
                e->state[j] = BUILDING;
            }
        }
        unlock(sh);
        if (piece >= 0) {
            qcj_side *side = &e->s.side[piece >> 1];
            uint64_t placed = 0;
            qcj_listing listing = *l;
            listing.placed = &placed;
            int rc = qcj_side_build_band_now(&listing, piece >> 1, piece & 1, side->pattern, side);
            lock(sh);
            sh->listings += rc == QC_OK;
            e->placed[piece] = placed;
            e->state[piece] = rc == QC_OK ? READY : MISSING;   /* MISSING: another lists it */
            unlock(sh);
            if (rc != QC_OK)
                return rc;
            continue;
        }
        if (ready == __builtin_popcount(pieces))
            return QC_OK;
        if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED))
            return QC_ESTOP;
        sched_yield();              /* another unit is listing a piece */
    }
}

int qcj_shared_acquire(qcj_shared *sh, const qcj_listing *l, size_t index, uint32_t q,
                       uint32_t rest, const qcj_shared_sides **out)
{
    entry *e = take(sh, l->geo, index, q, rest);
    if (!e)
        return QC_ENOMEM;
    int rc = settle(sh, e, (1u << QCJ_SHARED_PIECES) - 1u, l);
    if (rc != QC_OK) {
        qcj_shared_release(sh, index, 0);
        return rc;
    }
    *out = &e->s;
    return QC_OK;
}

int qcj_shared_build_piece(qcj_shared *sh, const qcj_listing *l, size_t index, int piece,
                           uint32_t q, uint32_t rest, qc_tally *out)
{
    if (l->stop && __atomic_load_n(l->stop, __ATOMIC_RELAXED))
        return QC_ESTOP;            /* [stop check] even where the piece is listed */
    entry *e = take(sh, l->geo, index, q, rest);
    if (!e)
        return QC_ENOMEM;
    int rc = settle(sh, e, 1u << piece, l);
    if (rc == QC_OK) {
        lock(sh);
        const uint64_t placed = e->placed[piece];
        unlock(sh);
        out->solutions = 0;
        out->steps = placed;
    }
    qcj_shared_release(sh, index, rc == QC_OK);
    return rc;
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
        /* [next pass] every unit of the pattern finished: a plan counted
         * again (a second qc_run, a benchmark's repetitions) starts the
         * pattern afresh, and lists its bands once more, not once a slice */
        sh->left[index] = sh->units[index];
    }
    unlock(sh);
}

void qcj_shared_trim(qcj_shared *sh)
{
    lock(sh);
    for (entry **at = &sh->live; *at;) {
        entry *e = *at;
        if (e->users == 0) {
            *at = e->next;
            entry_free(e);
        } else {
            at = &e->next;
        }
    }
    list_free(sh->spare);
    sh->spare = NULL;
    sh->spares = 0;
    unlock(sh);
}

uint64_t qcj_shared_listings(qcj_shared *sh, uint64_t *evictions)
{
    lock(sh);
    const uint64_t listed = sh->listings;
    if (evictions)
        *evictions = sh->evictions;
    unlock(sh);
    return listed;
}
