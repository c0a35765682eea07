/* SPDX-License-Identifier: MIT */
/*
 * root.c — rank 0: the books of the units, handing them out, taking the
 * tallies in and passing them to the hooks (see root.h).
 *
 * Rank 0 grants at most remaining/(2 x ranks) per ASK (a guided
 * schedule): batches shrink near the end so that no rank is left holding a
 * long tail while the others idle.  Rank 0 counts too: its counting
 * threads take units from the same list it hands out from, one at a time.
 * [silence] Units of a silent worker go back to the front of that list
 * (root.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "protocol.h"
#include "qct_clock.h"
#include "root.h"

void qcr_root_open(qcr_root *b, qcr_rank *s, const qc_run_options *opts, int ranks,
                   double silence, double start)
{
    *b = QCR_ROOT_NONE;
    b->units = qc_plan_unit_count(s->plan);
    b->ranks = ranks;
    b->silence = silence;
    b->seen = calloc(b->units / 32 + 1, sizeof *b->seen);
    b->held = calloc((size_t)ranks, sizeof *b->held);
    b->heard = calloc((size_t)ranks, sizeof *b->heard);
    b->state = calloc((size_t)ranks, 1);
    if (!b->seen || !b->held || !b->heard || !b->state
        || qct_todo_open(&b->list, opts, b->units, &b->known, &b->resumed) != QC_OK)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int r = 0; r < ranks; r++)
        b->heard[r] = start;
    qcr_rank_wait_for(s, &b->list);
    s->no_more = ranks <= 1;   /* else once every worker is done or silent */
    s->stop = opts ? opts->stop : NULL;
    b->todo = b->list.count;
    qct_report_begin(&b->rep, opts, s->plan, &b->list, b->resumed, start);
}

void qcr_root_close(qcr_root *b)
{
    for (int r = 0; b->held && r < b->ranks; r++)
        free(b->held[r].unit);
    qct_todo_close(&b->list);
    free(b->seen);
    free(b->held);
    free(b->heard);
    free(b->state);
    free(b->again);
    b->seen = NULL;
    b->held = NULL;
    b->heard = NULL;
    b->state = NULL;
    b->again = NULL;
}

/* [seen bits] whether unit u has flag (QCR_SEEN or QCR_AGAIN) */
static inline int seen(const qcr_root *b, size_t u, unsigned flag)
{
    return (int)(b->seen[u / 32] >> (2 * (u % 32)) & flag);
}

static inline void see(qcr_root *b, size_t u, unsigned flag)
{
    b->seen[u / 32] |= (uint64_t)flag << (2 * (u % 32));
}

/* The record of a unit handed out again, or NULL.  Linear: such units are
 * the few a silent worker held, and their tallies rarely come twice. */
static qcr_again *find_again(qcr_root *b, size_t unit)
{
    for (size_t i = 0; i < b->n_again; i++)
        if (b->again[i].first.unit == unit)
            return &b->again[i];
    return NULL;
}

/* A tally of a unit already counted, from rank `source`: dropped when the
 * unit was handed out again and the tally is the same, else noted. */
static void absorb_repeat(qcr_root *b, const qcr_wire_result *r, int source)
{
    qcr_again *a = seen(b, r->unit, QCR_AGAIN) ? find_again(b, r->unit) : NULL;
    if (!a || !a->counted) {
        b->bad++;
        return;
    }
    if (memcmp(&a->first, r, sizeof *r) == 0) {
        b->repeats++;
        return;
    }
    if (b->conflicts++ == 0) {
        b->conflict_unit = r->unit;
        b->conflict_rank = source;
        b->conflict_first_rank = a->rank;
    }
}

/* Takes in n tallies from rank `source`: each unit once, to the sums and
 * the hooks. */
static void absorb(qcr_root *b, const qcr_wire_result *r, size_t n, int source)
{
    for (size_t i = 0; i < n; i++) {
        if (r[i].unit >= b->units) {
            b->bad++;
            continue;
        }
        if (seen(b, r[i].unit, QCR_SEEN)) {
            absorb_repeat(b, &r[i], source);
            continue;
        }
        see(b, r[i].unit, QCR_SEEN);
        if (seen(b, r[i].unit, QCR_AGAIN)) {
            qcr_again *a = find_again(b, r[i].unit);
            if (a) {
                a->first = r[i];
                a->counted = 1;
                a->rank = source;
            }
        }
        b->arrived++;
        qc_tally t = qcr_wire_tally(&r[i]);
        b->total += t.solutions;
        b->steps += t.steps;
        qct_report_unit(&b->rep, (size_t)r[i].unit, &t);
    }
    if (n)
        qct_report_progress(&b->rep);
}

/* Asked to stop, a hook failed, a unit failed here or on a worker, or the
 * launcher is gone: nothing more for anyone, the counters halt. */
static int must_quit(qcr_rank *s, qcr_root *b)
{
    if (__atomic_load_n(&s->failed, __ATOMIC_RELAXED) && b->failed_rank < 0)
        b->failed_rank = 0;
    if ((s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED)) || b->rep.hook_failed
        || b->failed_rank >= 0 || qcr_job_lost_launcher()) {
        omp_set_lock(&s->lock);
        qcr_rank_drop_waiting(s);
        omp_unset_lock(&s->lock);
        __atomic_store_n(&s->halt, 1, __ATOMIC_RELAXED);
        return 1;
    }
    return 0;
}

/* Drops from h the units whose tallies came back; returns how many are
 * left (still held). */
static size_t held_not_back(const qcr_root *b, qcr_held *h)
{
    size_t kept = 0;
    for (size_t i = 0; i < h->len; i++)
        if (!seen(b, h->unit[i], QCR_SEEN))
            h->unit[kept++] = h->unit[i];
    return h->len = kept;
}

/* Notes n units handed to worker r.  Units come back from its list
 * lazily: when it is full, the ones counted since are dropped first, so it
 * holds about what r was handed and has not sent back. */
static void note_held(qcr_root *b, int r, const size_t *unit, size_t n)
{
    qcr_held *h = &b->held[r];
    if (n == 0)
        return;   /* a reply of none: h->unit may still be NULL */
    if (h->len + n > h->cap) {
        held_not_back(b, h);
        qcr_grow_or_abort((void **)&h->unit, &h->cap, 2 * (h->len + n), sizeof *h->unit);
    }
    memcpy(h->unit + h->len, unit, n * sizeof *unit);
    h->len += n;
}

/* Answers an ASK for `want` units: a guided share of what is left. */
static void grant_units(qcr_rank *s, qcr_root *b, int ranks, size_t want, int dest, qcr_post *post,
                        size_t **grant, size_t *grant_cap)
{
    omp_set_lock(&s->lock);
    size_t left = qcr_rank_waiting(s);
    omp_unset_lock(&s->lock);
    size_t cap = left / (2 * (size_t)ranks);   /* guided: shrink near the end */
    if (want > cap)
        want = cap > 0 ? cap : 1;
    qcr_grow_or_abort((void **)grant, grant_cap, want + 1, sizeof **grant);
    (*grant)[0] = qcr_rank_take_units(s, want, *grant + 1);
    note_held(b, dest, *grant + 1, (*grant)[0]);
    qcr_send_work(post, *grant, dest);
}

/* [silence] Worker r fell silent: the units it holds go back to the front
 * of rank 0's list, each noted as handed out again. */
static void take_back(qcr_rank *s, qcr_root *b, int r)
{
    b->state[r] = QCR_SILENT;
    b->silent++;
    if (b->ever_silent++ == 0)
        b->first_silent = r;
    qcr_held *h = &b->held[r];
    const size_t k = held_not_back(b, h);
    h->len = 0;                     /* its first k entries are read below */
    if (k == 0)
        return;
    qcr_grow_or_abort((void **)&b->again, &b->cap_again, b->n_again + k, sizeof *b->again);
    omp_set_lock(&s->lock);
    const size_t left = s->tail - s->head;
    qcr_grow_or_abort((void **)&s->queue, &s->cap, k + left, sizeof *s->queue);
    memmove(s->queue + k, s->queue + s->head, left * sizeof *s->queue);
    for (size_t i = 0; i < k; i++) {
        const size_t u = h->unit[i];
        s->queue[i] = u;
        if (!seen(b, u, QCR_AGAIN)) {
            see(b, u, QCR_AGAIN);
            b->again[b->n_again++] = (qcr_again){.first = {.unit = u}};
        }
    }
    s->head = 0;
    s->tail = k + left;
    omp_unset_lock(&s->lock);
    b->handed_again += k;
}

/* [silence] Takes every worker unheard for b->silence for silent (when
 * `look`: every message that arrived is taken in).  A gap in rank 0's own
 * polling (it counted a unit itself, or was stopped) is not the workers'
 * silence: it moves their clocks on by as much. */
static void watch_silence(qcr_rank *s, qcr_root *b, int look, double *polled)
{
    double now = qct_now_seconds(), gap = now - *polled;
    *polled = now;
    for (int r = 1; r < b->ranks; r++) {
        if (gap > QCR_HEARTBEAT)
            b->heard[r] += gap;
        if (look && b->state[r] == QCR_WORKING && now - b->heard[r] > b->silence)
            take_back(s, b, r);
    }
}

/* The buffers and counts of rank 0's messenger. */
typedef struct root_mail {
    qcr_post post;            /* transfers to and from the workers */
    size_t *grant;
    size_t grant_cap;
    qcr_wire_result *local;   /* this rank's own outbox, taken over */
    size_t local_cap;
    int lasts;                /* workers that sent LAST */
    double polled;            /* when rank 0 last looked for silence */
} root_mail;

/* Takes in the next message from a worker, if one waits; returns 1 if so. */
static int take_message(qcr_rank *s, qcr_root *b, int ranks, root_mail *m)
{
    qcr_message in;
    if (!qcr_receive_results(&m->post, &in))
        return 0;
    if (in.source > 0 && in.source < b->ranks) {
        b->heard[in.source] = qct_now_seconds();
        if (b->state[in.source] == QCR_SILENT) {   /* back: heard like any other */
            b->state[in.source] = QCR_WORKING;
            b->silent--;
        }
    }
    b->bad += (size_t)in.malformed;
    absorb(b, in.results, in.k, in.source);
    if (in.tag == QCR_TAG_ASK)
        grant_units(s, b, ranks, in.want, in.source, &m->post, &m->grant, &m->grant_cap);
    else if (in.tag == QCR_TAG_LAST && b->state[in.source] != QCR_DONE) {
        b->state[in.source] = QCR_DONE;
        m->lasts++;
    } else if (in.tag == QCR_TAG_FAIL && b->failed_rank < 0)
        b->failed_rank = in.source;   /* quits at the top of the loop */
    return 1;
}

int qcr_root_messenger(qcr_rank *s, qcr_root *b, int ranks, int counters, qct_thread_sum *mine)
{
    root_mail m = {.polled = qct_now_seconds()};
    int quit = 0;
    long pause = 50;
    for (;;) {
        if (must_quit(s, b)) {
            quit = -1;
            break;
        }
        int progressed = take_message(s, b, ranks, &m);
        size_t n = qcr_rank_take_outbox(s, &m.local, &m.local_cap);
        if (n) {
            absorb(b, m.local, n, 0);
            progressed = 1;
        }
        watch_silence(s, b, !progressed, &m.polled);
        /* every worker done or silent: nothing more can come back to the
         * list, so rank 0's counters leave once it runs dry */
        int working = ranks - 1 - m.lasts - b->silent;
        omp_set_lock(&s->lock);
        int queued = qcr_rank_waiting(s) > 0;
        if (!queued && working == 0)
            s->no_more = 1;
        int through = s->no_more && s->counters_running == 0 && s->out_len == 0 && !queued;
        omp_unset_lock(&s->lock);
        if (through)
            break;
        if (counters == 0 && queued)
            progressed |= qcr_rank_count_here(s, mine);
        qcr_messenger_nap(progressed, &pause);
    }
    if (quit || b->silent)   /* a send to a silent worker may never end */
        qcr_post_abandon(&m.post);
    else
        qcr_post_close(&m.post);
    free(m.grant);
    free(m.local);
    return quit;
}

int qcr_root_quit_code(const qcr_root *b)
{
    return b->rep.hook_failed ? QC_EHOOK : b->failed_rank >= 0 ? QC_ENOMEM : QC_ESTOP;
}

void qcr_root_alone(const qcr_root *b, int rc, qc_result *total, char *err, size_t errlen)
{
    total->total = b->total + b->known.solutions;
    total->units = b->arrived + b->resumed;
    if (rc == QC_ENOMEM)
        snprintf(err, errlen, "out of memory counting a work unit on rank %d", b->failed_rank);
}

int qcr_root_sum(const qcr_root *b, int rc, qc_result *total, char *err, size_t errlen)
{
    total->total = b->total + b->known.solutions;
    total->steps = b->steps + b->known.steps;
    total->units = b->arrived + b->resumed;
    total->units_resumed = b->resumed;
    total->steps_resumed = b->known.steps;
    total->seconds = qct_now_seconds() - b->rep.start;
    total->cpu_seconds = qct_cpu_seconds() - b->rep.cpu_start;
    if (rc == QC_OK && b->conflicts) {
        snprintf(err, errlen, "rank %d counted unit %zu differently from rank %d, which counted "
                 "it first (%zu such units): no total can be trusted", b->conflict_rank,
                 b->conflict_unit, b->conflict_first_rank, b->conflicts);
        rc = QC_EINVAL;
    } else if (rc == QC_OK && (b->bad || b->arrived != b->todo)) {
        snprintf(err, errlen, "lost track of work units (%zu of %zu came back, %zu stray)",
                 b->arrived, b->todo, b->bad);
        rc = QC_EINVAL;
    }
    return rc;
}
