/* SPDX-License-Identifier: MIT */
/*
 * scratch.c — the join engine's per-thread working memory, reused from
 * unit to unit (scratch.h).
 *
 * A unit needs its band lists and rank tables (MiB at N=20) and the halves
 * of one column set at a time.  Allocating and freeing them per unit hands
 * the pages back to the kernel every time, and touching fresh pages again
 * (page faults, zeroing) cost a quarter of the run at N=16.  So a plan
 * keeps a small pool of scratch sets (QCJ_POOL_SLOTS, config.h): a unit
 * takes one (or makes one), grows its buffers as needed, and gives it back.
 * There are never more sets than units counted at once (threads), each as
 * large as the largest unit it has counted; qc_plan_free frees them all.
 * [kept scratch] But a set kept holds each buffer at its largest over all
 * the units it counted, more than any one unit needs: the pool keeps a
 * set only while it holds at most QCJ_SCRATCH_KEPT_MAX bytes, so that a
 * thread holds at most that more than its unit's own.  [fresh scratch]
 * From QCJ_FRESH_SCRATCH_FROM_N it keeps none, where a unit takes seconds
 * to minutes and fresh pages cost it little: a thread's peak is then its
 * largest unit's own.
 * The pool is the plan's only mutable part, kept behind a pointer and a
 * spinlock taken twice per unit, so counting a unit stays thread-safe and
 * its result depends on nothing but the unit.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "scratch.h"

struct qcj_pool {
    atomic_flag lock;
    size_t keep_max;
    int count;
    qcj_scratch *slot[QCJ_POOL_SLOTS];
};

/* [yielding lock] a thread that finds the lock taken gives up its CPU:
 * with more threads than CPUs the holder may be off the CPU, and spinning
 * would only keep it there (64 threads on 2 cores under TSan: minutes). */
static void lock(qcj_pool *pool)
{
    while (atomic_flag_test_and_set_explicit(&pool->lock, memory_order_acquire))
        sched_yield();
}

static void unlock(qcj_pool *pool)
{
    atomic_flag_clear_explicit(&pool->lock, memory_order_release);
}

qcj_pool *qcj_pool_new(size_t keep_max)
{
    qcj_pool *pool = calloc(1, sizeof *pool);
    if (pool) {
        atomic_flag_clear(&pool->lock);
        pool->keep_max = keep_max;
    }
    return pool;
}

qcj_scratch *qcj_pool_take(qcj_pool *pool)
{
    qcj_scratch *s = NULL;
    lock(pool);
    if (pool->count > 0)
        s = pool->slot[--pool->count];
    unlock(pool);
    if (!s)
        s = calloc(1, sizeof *s);
    return s;
}

/* s's buffers but its band lists (the sides' own, bands.h) into vecs;
 * returns how many. */
enum { SCRATCH_VECS = 12 };
static size_t scratch_vecs(qcj_scratch *s, qcj_vec *vecs[SCRATCH_VECS])
{
    qcj_vec *all[SCRATCH_VECS] = {&s->band_tmp[0], &s->band_tmp[1], &s->band_tmp[2], &s->raw[0],
                                  &s->raw[1], &s->low[0], &s->low[1], &s->off[0], &s->off[1],
                                  &s->spared, &s->spared_off, &s->joiner_scratch};
    memcpy(vecs, all, sizeof all);
    return SCRATCH_VECS;
}

void qcj_scratch_free(qcj_scratch *s)
{
    qcj_side_free(&s->side[0]);
    qcj_side_free(&s->side[1]);
    qcj_vec *vecs[SCRATCH_VECS];
    for (size_t i = 0, n = scratch_vecs(s, vecs); i < n; i++)
        qcj_vec_free(vecs[i]);
    free(s);
}

/* [kept scratch] The bytes s's buffers hold (their capacity: at most
 * that is resident). */
static size_t held(qcj_scratch *s)
{
    size_t bytes = 0;
    for (int side = 0; side < 2; side++)
        for (int b = 0; b < 2; b++) {
            const qcj_band *bd = &s->side[side].band[b];
            bytes += bd->mem_offsets.bytes + bd->mem_inner.bytes + bd->mem_border.bytes
                   + bd->mem_transposed.bytes + bd->mem_bit_at.bytes;
        }
    qcj_vec *vecs[SCRATCH_VECS];
    for (size_t i = 0, n = scratch_vecs(s, vecs); i < n; i++)
        bytes += vecs[i]->bytes;
    return bytes;
}

void qcj_pool_give(qcj_pool *pool, qcj_scratch *s)
{
    if (!s)
        return;
    const int small = held(s) <= pool->keep_max;   /* [kept scratch] */
    lock(pool);
    int kept = small && pool->count < QCJ_POOL_SLOTS;
    if (kept)
        pool->slot[pool->count++] = s;
    unlock(pool);
    if (!kept)
        qcj_scratch_free(s);
}

void qcj_pool_trim(qcj_pool *pool)
{
    lock(pool);
    while (pool->count > 0)
        qcj_scratch_free(pool->slot[--pool->count]);
    unlock(pool);
}

void qcj_pool_free(qcj_pool *pool)
{
    if (!pool)
        return;
    while (pool->count > 0)
        qcj_scratch_free(pool->slot[--pool->count]);
    free(pool);
}
