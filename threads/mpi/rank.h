/* SPDX-License-Identifier: MIT */
/*
 * rank.h — one rank's counting, the same on rank 0 and on the workers: its
 * queue of units, its outbox of tallies, and its counting threads.
 *
 * Inside a rank: thread 0 of its team (spawn.h) is the messenger (root.c
 * on rank 0, worker.c elsewhere), the only thread that calls MPI
 * (MPI_THREAD_FUNNELED); threads 1..T count, each pinned through hwloc to
 * its own core of the rank's share of the machine.  The messenger sleeps
 * between polls, so it costs a core almost nothing.  The counting threads
 * take units from the rank's queue and leave their tallies in the rank's
 * outbox; both sit behind one OpenMP lock (units take milliseconds to
 * hours, so the lock is never contended for long).
 */
#ifndef QCR_MPI_RANK_H
#define QCR_MPI_RANK_H

#include <omp.h>
#include <stddef.h>

#include "protocol.h"
#include "qcount.h"
#include "unit_step.h"

typedef struct qcr_rank {
    omp_lock_t lock;
    const qc_plan *plan;
    const int *stop;          /* rank 0: the caller's stop flag, or NULL */
    int halt;                 /* counters stop: set by rank 0's messenger,
                                 and on any rank by a failure (atomic)    */
    size_t *queue;            /* units waiting on this rank: [head, tail) */
    size_t head, tail, cap;
    const qct_todo *rest;     /* rank 0: the run's units, waiting behind the
                                 queue in plan order from `cursor` on
                                 (NULL elsewhere: all come as replies)     */
    size_t cursor, rest_left; /* ... and how many of them are left there  */
    int no_more;              /* nothing more will join the queue        */
    qcr_wire_result *outbox;  /* tallies waiting to be sent or summed    */
    size_t out_len, out_cap;
    int counters_running;
    size_t starved;           /* times a counter found the queue empty   */
    int failed;               /* the first failure's code on this rank
                                 (out of memory), QC_OK until (atomic)    */
} qcr_rank;

/* An empty rank for plan; qcr_rank_close frees what it gathered. */
void qcr_rank_open(qcr_rank *s, const qc_plan *plan);
void qcr_rank_close(qcr_rank *s);

/* A counting thread: takes the next waiting unit until told nothing more
 * comes and none waits, or halted; sums what it did in *mine. */
void qcr_rank_counter(qcr_rank *s, qct_thread_sum *mine);

/* Rank 0: every unit of todo waits behind the queue, in plan order.
 * todo must outlive the rank's counting. */
void qcr_rank_wait_for(qcr_rank *s, const qct_todo *todo);

/* Units waiting: the queue's and, on rank 0, the rest's.  Call with the
 * lock held. */
static inline size_t qcr_rank_waiting(const qcr_rank *s)
{
    return s->tail - s->head + s->rest_left;
}

/* Drops every unit waiting (a run that quits).  Call with the lock held. */
void qcr_rank_drop_waiting(qcr_rank *s);

/* Takes up to `max` waiting units off the front (rank 0 handing out). */
size_t qcr_rank_take_units(qcr_rank *s, size_t max, size_t *dst);

/* The system let this rank no counting thread: its messenger counts the next
 * queued unit itself.  Returns 1 (progress made). */
int qcr_rank_count_here(qcr_rank *s, qct_thread_sum *mine);

/* Moves the outbox into *dst (swapping buffers); returns how many. */
size_t qcr_rank_take_outbox(qcr_rank *s, qcr_wire_result **dst, size_t *dst_cap);

/* A messenger's pause between polls: back to 50 us when it made progress,
 * else sleeps *us and doubles it up to 2 ms. */
void qcr_messenger_nap(int progressed, long *us);

#endif
