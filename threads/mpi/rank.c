/* SPDX-License-Identifier: MIT */
/*
 * rank.c — one rank's counting threads, its queue and its outbox (see
 * rank.h), and the naps of its threads.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qct_clock.h"
#include "rank.h"

void qcr_rank_open(qcr_rank *s, const qc_plan *plan)
{
    memset(s, 0, sizeof *s);
    omp_init_lock(&s->lock);
    s->plan = plan;
}

void qcr_rank_wait_for(qcr_rank *s, const qct_todo *todo)
{
    s->rest = todo;
    s->cursor = 0;
    s->rest_left = todo->count;
}

void qcr_rank_drop_waiting(qcr_rank *s)
{
    s->head = s->tail;
    s->rest_left = 0;
}

/* The next waiting unit into *unit: the queue's first, else the rest's
 * next in plan order.  Returns 0 when none waits.  Call with the lock
 * held. */
static int take_one(qcr_rank *s, size_t *unit)
{
    if (s->head < s->tail) {
        *unit = s->queue[s->head++];
        return 1;
    }
    if (s->rest_left == 0)
        return 0;
    *unit = qct_todo_next(s->rest, s->cursor);
    s->cursor = *unit + 1;
    s->rest_left--;
    return 1;
}

void qcr_rank_close(qcr_rank *s)
{
    free(s->queue);
    free(s->outbox);
    omp_destroy_lock(&s->lock);
}

/* An idle counter's pause before it looks at the queue again (it only
 * waits when a batch is late), and the messenger's: from 50 us, doubling
 * while nothing happens up to 2 ms (prefetch makes replies rarely urgent,
 * and each poll costs a system call and MPI progress, with sched_yield when
 * Open MPI runs oversubscribed); back to 50 us on any message. */
static void nap_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static void nap(void)
{
    nap_us(200);
}

void qcr_messenger_nap(int progressed, long *us)
{
    if (progressed) {
        *us = 50;
        return;
    }
    nap_us(*us);
    if (*us < 2000)
        *us *= 2;
}

/* Out of memory on this rank, noted in s->failed: its counters stop (a
 * unit under way is cut short through the kernel's stop check and
 * dropped), and its messenger tells rank 0, which ends the run. */
static void halt_on_failure(qcr_rank *s)
{
    __atomic_store_n(&s->halt, 1, __ATOMIC_RELAXED);
}

static void count_one(qcr_rank *s, size_t unit, qct_thread_sum *mine)
{
    qc_tally t;
    double t0 = qct_now_seconds();
    qct_step step = qct_count_step(s->plan, unit, &s->halt, &s->failed, &t);
    mine->busy += qct_now_seconds() - t0;
    if (step == QCT_FAILED)
        halt_on_failure(s);
    if (step != QCT_COUNTED)
        return;
    qcr_wire_result w = qcr_wire_from_tally(unit, &t);
    omp_set_lock(&s->lock);
    int kept = qcr_grow((void **)&s->outbox, &s->out_cap, s->out_len + 1, sizeof *s->outbox) == 0;
    if (kept)
        s->outbox[s->out_len++] = w;
    omp_unset_lock(&s->lock);
    if (!kept) {
        qct_note_failure(&s->failed, QC_ENOMEM);
        halt_on_failure(s);
        return;
    }
    qct_thread_sum_add(mine, &t);
}

void qcr_rank_counter(qcr_rank *s, qct_thread_sum *mine)
{
    for (;;) {
        size_t unit = 0;
        int got = 0, finished = 0;
        omp_set_lock(&s->lock);
        if (__atomic_load_n(&s->halt, __ATOMIC_RELAXED)) {
            finished = 1;
            s->counters_running--;
        } else if (take_one(s, &unit)) {
            got = 1;
        } else if (s->no_more) {
            finished = 1;
            s->counters_running--;
        }
        omp_unset_lock(&s->lock);
        if (finished)
            return;
        if (got)
            count_one(s, unit, mine);
        else {
            omp_set_lock(&s->lock);
            s->starved++;
            omp_unset_lock(&s->lock);
            nap();   /* the messenger's next batch is on its way */
        }
    }
}

size_t qcr_rank_take_units(qcr_rank *s, size_t max, size_t *dst)
{
    omp_set_lock(&s->lock);
    size_t n = 0;
    while (n < max && take_one(s, &dst[n]))
        n++;
    omp_unset_lock(&s->lock);
    return n;
}

int qcr_rank_count_here(qcr_rank *s, qct_thread_sum *mine)
{
    size_t unit;
    if (qcr_rank_take_units(s, 1, &unit) == 1)
        count_one(s, unit, mine);
    return 1;
}

size_t qcr_rank_take_outbox(qcr_rank *s, qcr_wire_result **dst, size_t *dst_cap)
{
    omp_set_lock(&s->lock);
    size_t n = s->out_len;
    qcr_wire_result *b = s->outbox;
    size_t c = s->out_cap;
    s->outbox = *dst;
    s->out_cap = *dst_cap;
    s->out_len = 0;
    *dst = b;
    *dst_cap = c;
    omp_unset_lock(&s->lock);
    return n;
}
