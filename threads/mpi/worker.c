/* SPDX-License-Identifier: MIT */
/*
 * worker.c — a worker rank's messenger: prefetching units from rank 0 and
 * sending tallies back (see protocol.h for the messages).
 *
 * A worker keeps one ASK in flight (prefetch) whenever fewer units wait in
 * its queue than its low-water mark, asking enough to fill the queue to
 * twice that, so its threads find the next unit already there instead of
 * waiting for the network.  The mark starts at one unit per thread and
 * doubles whenever a thread found the queue empty, up to 64 per thread:
 * small units (short against a round trip) travel in bigger batches.
 * Results go back with the next ASK, so a checkpoint on rank 0 is at most
 * about one queue behind the work done.
 *
 * Failures: a unit that runs out of memory is never reported as counted;
 * the rank's counters stop, its messenger sends FAIL and then only waits
 * for rank 0 to end the job.  A worker never sends LAST after a failure,
 * so rank 0 cannot finish without hearing of it.
 *
 * [silence] A messenger that sent nothing for QCR_HEARTBEAT sends a BEAT
 * with what its outbox holds, so rank 0 can tell a busy worker from a
 * lost one.  (A rank that the system let no counting thread counts on its
 * messenger, and falls silent for as long as a unit takes: a unit longer
 * than the silence timeout is then handed out again, and its repeated
 * tally dropped.)
 */
#include <stdlib.h>
#include <unistd.h>

#include "job.h"
#include "protocol.h"
#include "qct_clock.h"
#include "worker.h"

typedef struct worker {
    qcr_rank *s;
    size_t most;              /* the largest batch ever asked for        */
    size_t low;               /* the low-water mark: ask below it        */
    size_t starved;           /* s->starved when last looked at          */
    uint64_t *reply;          /* [most + 1]: the WORK reply              */
    MPI_Request req;
    int in_flight;            /* an ASK awaits its reply                 */
    int told;                 /* FAIL sent                               */
    uint64_t *msg;            /* the message going out                   */
    size_t msg_cap;
    qcr_wire_result *sent;    /* the outbox, taken over                  */
    size_t sent_cap;
    double spoke;             /* when it last sent rank 0 anything       */
} worker;

/* What the messenger saw of its rank, read at once under the lock. */
typedef struct look {
    int failed, no_more, through;
    size_t queued;
} look;

/* The WORK reply arrived: its units join the queue (none: no_more). */
static void queue_reply(qcr_rank *s, const uint64_t *reply)
{
    size_t m = (size_t)reply[0];
    omp_set_lock(&s->lock);
    if (m == 0) {
        s->no_more = 1;
    } else {
        if (s->head == s->tail)
            s->head = s->tail = 0;
        qcr_grow_or_abort((void **)&s->queue, &s->cap, s->tail + m, sizeof *s->queue);
        for (size_t i = 0; i < m; i++)
            s->queue[s->tail++] = (size_t)reply[1 + i];
    }
    omp_unset_lock(&s->lock);
}

/* Returns 1 when the reply in flight arrived (and was queued). */
static int take_reply(worker *w)
{
    if (!w->in_flight)
        return 0;
    int flag = 0;
    MPI_Test(&w->req, &flag, MPI_STATUS_IGNORE);
    if (!flag)
        return 0;
    w->in_flight = 0;
    queue_reply(w->s, w->reply);
    return 1;
}

static look look_at(worker *w)
{
    qcr_rank *s = w->s;
    look l;
    omp_set_lock(&s->lock);
    /* read under the lock: a counter fails before it leaves, so a rank
     * that sees its counters through sees their failure too */
    l.failed = __atomic_load_n(&s->failed, __ATOMIC_RELAXED) != QC_OK;
    l.queued = qcr_rank_waiting(s);
    l.no_more = s->no_more;
    if (s->starved != w->starved && !w->in_flight) {
        /* a thread waited: ask earlier and for more */
        w->starved = s->starved;
        if (2 * w->low <= w->most / 2)
            w->low *= 2;
    }
    l.through = l.no_more && s->counters_running == 0 && l.queued == 0;
    omp_unset_lock(&s->lock);
    return l;
}

/* Sends [want, k, the k results of the outbox] to rank 0 with tag. */
static void send_outbox(worker *w, int tag, size_t want)
{
    size_t k = qcr_rank_take_outbox(w->s, &w->sent, &w->sent_cap);
    qcr_send_results(tag, want, w->sent, k, &w->msg, &w->msg_cap);
    w->spoke = qct_now_seconds();
}

void qcr_worker_messenger(qcr_rank *s, int counters, qct_thread_sum *mine)
{
    const size_t threads = counters > 0 ? (size_t)counters : 1;
    worker w = {.s = s, .most = 128 * threads, .low = threads, .req = MPI_REQUEST_NULL,
                .spoke = qct_now_seconds()};
    w.reply = malloc((w.most + 1) * sizeof *w.reply);
    if (!w.reply)
        MPI_Abort(MPI_COMM_WORLD, 2);
    long pause = 50;
    for (;;) {
        if (qcr_job_lost_launcher())
            _exit(137);   /* nobody will collect our results: end at once */
        int progressed = take_reply(&w);
        look l = look_at(&w);
        if (l.failed) {
            /* out of memory here: send what was counted, then wait for
             * rank 0 to end the job; never LAST, never another ASK (a
             * reply in flight is still taken: rank 0 may be sending it) */
            if (!w.told)
                send_outbox(&w, QCR_TAG_FAIL, 0);
            w.told = 1;
            qcr_messenger_nap(0, &pause);
            continue;
        }
        int ask = !w.in_flight && !l.no_more && l.queued < w.low;
        if (ask) {
            /* post the receive first: the reply may come at once */
            qcr_post_work_receive(w.reply, w.most, &w.req);
            w.in_flight = 1;
        }
        if (ask || l.through) {
            send_outbox(&w, ask ? QCR_TAG_ASK : QCR_TAG_LAST, ask ? 2 * w.low - l.queued : 0);
            progressed = 1;
            if (l.through)
                break;
        } else if (qct_now_seconds() - w.spoke >= QCR_HEARTBEAT) {
            send_outbox(&w, QCR_TAG_BEAT, 0);
        }
        if (counters == 0 && l.queued)
            progressed |= qcr_rank_count_here(s, mine);
        qcr_messenger_nap(progressed, &pause);
    }
    free(w.reply);
    free(w.msg);
    free(w.sent);
}
